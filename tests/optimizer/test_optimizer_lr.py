"""Learning-rate schedulers against Paddle's recorded values (tests/record_paddle_lr.py)."""

import json
import os
import warnings

import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax.optimizer import lr

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_lr.json")) as f:
    CASES = json.load(f)["cases"]

# the same functions as in record_paddle_lr.py, by name
FUNCS = {
    "pow095": lambda e: 0.95**e,
    "inv": lambda e: 1.0 / (1 + e),
    "mul09": lambda e: 0.9,
    "mulalt": lambda e: 0.5 if e % 3 == 0 else 1.0,
    "halfx": lambda x: 0.5**x,
}


def build(name, kwargs):
    kw = {}
    for k, v in kwargs.items():
        if k == "learning_rate" and isinstance(v, list):
            v = build(*v)
        elif k in ("lr_lambda", "scale_fn"):
            v = FUNCS[v]
        kw[k] = v
    return getattr(lr, name)(**kw)


def close_state(ours, theirs):
    assert set(ours) == set(theirs), (ours, theirs)
    for k, v in theirs.items():
        if isinstance(v, dict):
            close_state(ours[k], v)
        elif isinstance(v, float):
            np.testing.assert_allclose(ours[k], v, rtol=1e-12, atol=1e-15, err_msg=k)
        else:
            assert ours[k] == v, (k, ours[k], v)


def apply(s, op):
    if op == "s":
        s.step()
    elif isinstance(op, list) and op[0] == "t":
        s.step(paddle.to_tensor(op[1]))
    elif isinstance(op, list):
        s.step(op[1])
    else:
        s.step(op)


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c['name']}" for i, c in enumerate(CASES)])
def test_steps_match_paddle(case):
    s = build(case["name"], case["kwargs"])
    for i, expect in enumerate(case["trace"]):
        if i:
            apply(s, case["ops"][i - 1])
        assert s.last_epoch == expect["last_epoch"], (i, s.last_epoch, expect["last_epoch"])
        np.testing.assert_allclose(s.last_lr, expect["last_lr"], rtol=1e-12, atol=1e-15, err_msg=f"step {i}")
        np.testing.assert_allclose(s(), expect["call"], rtol=1e-12, atol=1e-15)
        assert isinstance(s(), float)
        close_state(s.state_dict(), expect["state_dict"])


@pytest.mark.parametrize("case", CASES[::3], ids=[c["name"] for c in CASES[::3]])
def test_set_state_dict_resumes(case):
    """A fresh scheduler loaded with a mid-run state_dict continues exactly as Paddle's run did."""
    ops, trace = case["ops"], case["trace"]
    if any(not (op == "s" or isinstance(op, list)) for op in ops):
        ops = [op for op in ops if op == "s" or isinstance(op, list)]
    half = len(ops) // 2
    a = build(case["name"], case["kwargs"])
    for op in ops[:half]:
        apply(a, op)
    b = build(case["name"], case["kwargs"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b.set_state_dict(a.state_dict())
    for k, op in enumerate(ops[half:], start=half + 1):
        apply(b, op)
        np.testing.assert_allclose(b(), trace[k]["last_lr"], rtol=1e-12, atol=1e-15)


def test_verbose_prints_paddles_line(capsys):
    s = lr.StepDecay(0.5, step_size=2, verbose=True)
    s.step()
    s.step()
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "Epoch 0: StepDecay set learning rate to 0.5.",
        "Epoch 1: StepDecay set learning rate to 0.5.",
        "Epoch 2: StepDecay set learning rate to 0.05.",
    ]


def test_subclass_with_get_lr_and_duck_type_contract():
    class Half(lr.LRScheduler):
        def get_lr(self):
            return self.base_lr * 0.5**self.last_epoch

    s = Half(1.0)
    assert callable(s) and hasattr(s, "step")
    s.step()
    s.step()
    assert s() == 0.25 and s.last_epoch == 2
    with pytest.raises(NotImplementedError, match="must define get_lr"):
        lr.LRScheduler(0.1)


def test_reduce_on_plateau_tensor_loss_and_numpy():
    s = lr.ReduceOnPlateau(1.0, patience=0, factor=0.5)
    s.step(paddle.to_tensor([2.0]))
    s.step(np.float32(3.0))
    assert s() == 0.5 and s.best == 2.0 and isinstance(s.state_dict()["best"], float)
    s.step(np.array([1.0]))
    assert s.best == 1.0


def test_set_state_dict_missing_key_and_extra_warns():
    s = lr.StepDecay(0.5, step_size=2)
    with pytest.raises(RuntimeError, match="has no 'last_lr' entry"):
        s.set_state_dict({"last_epoch": 3})
    with pytest.warns(UserWarning, match="not used"):
        s.set_state_dict({"last_epoch": 3, "last_lr": 0.1, "extra": 1})
    assert s.last_epoch == 3 and s() == 0.1
    w = lr.LinearWarmup(lr.StepDecay(0.5, 2), 3, 0.0, 0.5)
    with pytest.raises(KeyError, match="LinearWarmup_LR"):
        w.set_state_dict({"last_epoch": 3, "last_lr": 0.1})


@pytest.mark.parametrize(
    "make, exc, match",
    [
        (lambda: lr.StepDecay("0.1", 2), TypeError, "learning_rate must be a float"),
        (lambda: lr.StepDecay(-0.1, 2), ValueError, "learning_rate must be >= 0"),
        (lambda: lr.StepDecay(0.1, 2.0), TypeError, "step_size must be a positive int"),
        (lambda: lr.StepDecay(0.1, 0), ValueError, "step_size must be a positive int"),
        (lambda: lr.StepDecay(0.1, 2, gamma=1.5), ValueError, "gamma must be < 1"),
        (lambda: lr.ExponentialDecay(0.1, 1.5), ValueError, r"gamma must lie in \(0, 1\)"),
        (lambda: lr.NaturalExpDecay(0.1, -1.0), ValueError, "gamma must be > 0"),
        (lambda: lr.NoamDecay(0, 10), ValueError, "d_model must be > 0"),
        (lambda: lr.PiecewiseDecay([], [0.1]), ValueError, "boundaries must not be empty"),
        (lambda: lr.PiecewiseDecay([1, 2], [0.1, 0.2]), ValueError, "one more element"),
        (lambda: lr.PolynomialDecay(0.1, 0), ValueError, "decay_steps must be a positive int"),
        (lambda: lr.PolynomialDecay(0.1, 5, power=0.0), ValueError, "power must be > 0"),
        (lambda: lr.LinearWarmup("x", 5, 0.0, 0.1), TypeError, "learning_rate must be a float, an int or an LRScheduler"),
        (lambda: lr.LinearWarmup(0.1, 5, 0.2, 0.1), ValueError, "end_lr must be greater than start_lr"),
        (lambda: lr.MultiStepDecay(0.1, 3), TypeError, "milestones must be a list"),
        (lambda: lr.MultiStepDecay(0.1, [3, 2]), ValueError, "milestones must increase"),
        (lambda: lr.LambdaDecay(0.1, 0.5), TypeError, "lr_lambda must be a function"),
        (lambda: lr.MultiplicativeDecay(0.1, None), TypeError, "lr_lambda must be a function"),
        (lambda: lr.ReduceOnPlateau(0.1, mode="avg"), ValueError, "mode must be 'min' or 'max'"),
        (lambda: lr.ReduceOnPlateau(0.1, factor=2.0), ValueError, "factor must be < 1"),
        (lambda: lr.ReduceOnPlateau(0.1, threshold_mode="pct"), ValueError, "threshold_mode must be 'rel' or 'abs'"),
        (lambda: lr.ReduceOnPlateau("1"), TypeError, "learning_rate must be a float"),
        (lambda: lr.CosineAnnealingDecay(0.1, 2.5), TypeError, "T_max must be a positive int"),
        (lambda: lr.CosineAnnealingDecay(0.1, 5, eta_min="0"), TypeError, "eta_min must be a float"),
        (lambda: lr.OneCycleLR(0.1, 0), ValueError, "total_steps must be a positive int"),
        (lambda: lr.OneCycleLR(0.1, 10, phase_pct=1), TypeError, "phase_pct must be a float"),
        (lambda: lr.OneCycleLR(0.1, 10, phase_pct=1.5), ValueError, r"phase_pct must lie in \[0, 1\]"),
        (lambda: lr.OneCycleLR(0.1, 10, anneal_strategy="exp"), ValueError, "anneal_strategy must be 'cos' or 'linear'"),
        (lambda: lr.OneCycleLR(0.1, 10, three_phase=True, phase_pct=0.6), ValueError, "phase_pct must be < 0.5"),
        (lambda: lr.CyclicLR(0.1, 1.0, 0), ValueError, "step_size_up must be a positive int"),
        (lambda: lr.CyclicLR(0.1, 1.0, 2, mode="sine"), ValueError, "mode must be 'triangular'"),
        (lambda: lr.CyclicLR(0.1, 1.0, 2, scale_mode="epoch"), ValueError, "scale_mode must be 'cycle' or 'iterations'"),
        (lambda: lr.CyclicLR(0.1, 1.0, 2, exp_gamma=1), TypeError, "exp_gamma must be a float"),
        (lambda: lr.LinearLR(0.1, 10, start_factor=0.0), ValueError, r"start_factor must lie in \(0, 1\]"),
        (lambda: lr.LinearLR(0.1, 0), ValueError, "total_steps must be a positive int"),
        (lambda: lr.CosineAnnealingWarmRestarts(0.1, 0), ValueError, "T_0 must be a positive int"),
        (lambda: lr.CosineAnnealingWarmRestarts(0.1, 2, T_mult=0), ValueError, "T_mult must be a positive int"),
        (lambda: lr.CosineAnnealingWarmRestarts(0.1, 2.5), ValueError, "T_0 must be a positive int"),
    ],
)
def test_bad_arguments(make, exc, match):
    with pytest.raises(exc, match=match):
        make()


def test_bad_step_calls():
    with pytest.raises(ValueError, match="metrics must hold one value"):
        lr.ReduceOnPlateau(0.1).step(paddle.to_tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="metrics must be an int, a float"):
        lr.ReduceOnPlateau(0.1).step("low")
    with pytest.raises(TypeError, match="metrics is required"):
        lr.ReduceOnPlateau(0.1).step()
    s = lr.OneCycleLR(0.1, 3)
    s.step()
    s.step()
    s.step()
    with pytest.raises(ValueError, match="past total_steps=3"):
        s.step()
    with pytest.raises(ValueError, match="epoch must be >= 0"):
        lr.CosineAnnealingWarmRestarts(0.1, 3).step(-1)
    with pytest.raises(TypeError, match="epoch must be an int or None"):
        lr.StepDecay(0.1, 3).step("2")
