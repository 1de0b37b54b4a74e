"""Cases found by the whole programs ``tests/programs/p41_optimizer_zoo.py`` and ``p42_layer_api.py``, written as
Paddle code: ``record(paddle)`` runs them with the given library and returns what they give (values, names, the
type of each error). ``record_paddle_program_diffs_h.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_h.json``; ``test_program_diffs_h.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from case_values import _attempt


def _v(t: Any) -> Any:
    return np.asarray(t.numpy()).astype(np.float64).tolist()


def schedulers(paddle: Any, out: dict[str, Any]) -> None:
    """``PolynomialDecay`` past ``decay_steps`` without ``cycle`` stays at ``end_lr`` for any power (with power 0.5
    it was NaN: the compiled schedule's ``1 - 5 / 5`` came out below zero); ``ExponentialDecay`` and the ramp of
    ``LinearWarmup`` are Paddle's float formulas."""
    lr = paddle.optimizer.lr

    def run(s: Any, n: int = 9) -> list[float]:
        v = []
        for _ in range(n):
            v.append(s())
            s.step()
        return v

    out["poly_sqrt"] = run(lr.PolynomialDecay(learning_rate=0.1, decay_steps=5, end_lr=0.01, power=0.5))
    out["poly_third"] = run(lr.PolynomialDecay(learning_rate=0.3, decay_steps=3, end_lr=0.0, power=1.0 / 3))
    out["poly_square"] = run(lr.PolynomialDecay(learning_rate=0.1, decay_steps=4, power=2.0))
    out["poly_cycle"] = run(lr.PolynomialDecay(learning_rate=0.1, decay_steps=3, end_lr=0.01, power=0.5, cycle=True))
    out["exp"] = run(lr.ExponentialDecay(learning_rate=0.3, gamma=0.7))
    out["warmup"] = run(lr.LinearWarmup(learning_rate=0.05, warmup_steps=3, start_lr=0.01, end_lr=0.05))
    out["warmup_poly"] = run(lr.LinearWarmup(lr.PolynomialDecay(0.1, 2, 0.02, 0.5), warmup_steps=3, start_lr=0.0,
                                             end_lr=0.1))
    s = lr.PolynomialDecay(learning_rate=0.1, decay_steps=5, end_lr=0.01, power=0.5)
    out["poly_epochs"] = [(s.step(e), s())[1] for e in (7, 5, 2, 12)]


def nadam_state(paddle: Any, out: dict[str, Any]) -> None:
    """NAdam keeps Paddle's accumulators: element-wise, of the parameter's shape, ``momentum_decay_pow`` being
    ``0.96 ** t`` (it was one value, ``0.96 ** (t * momentum_decay)``); a state_dict loaded into a fresh optimizer
    continues the run."""
    init = np.array([[0.5, -1.0, 2.0], [0.1, 0.3, -0.7]], "float32")
    coef = paddle.to_tensor(np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], "float32"))

    def make() -> tuple[Any, Any]:
        w = paddle.create_parameter([2, 3], "float32", name="nadam_w",
                                    default_initializer=paddle.nn.initializer.Assign(init))
        o = paddle.optimizer.NAdam(learning_rate=0.05, beta1=0.85, momentum_decay=0.01, parameters=[w])
        return w, o

    def steps(w: Any, o: Any, n: int) -> None:
        for _ in range(n):
            (w * w * coef).sum().backward()
            o.step()
            o.clear_grad()

    with paddle.utils.unique_name.guard():
        w, o = make()
        steps(w, o, 4)
        sd = o.state_dict()
        out["nadam_state"] = [[k, list(v.shape), _v(v)] for k, v in sorted(sd.items())]
        out["nadam_w"] = _v(w)
    with paddle.utils.unique_name.guard():
        w2, o2 = make()
        o2.set_state_dict(sd)
        w2.set_value(w)
        steps(w2, o2, 3)
        out["nadam_resumed"] = [_v(w2), _v(o2.state_dict()["nadam_w_momentum_decay_pow_0"])]


def deepcopy_names(paddle: Any, out: dict[str, Any]) -> None:
    """``copy.deepcopy`` names each copied parameter (and named tensor) ``<name>_deepcopy_<n>``, a counter of its own
    (it kept the name): the copy's optimizer state is keyed by those names, and ``set_state_dict`` by parameter names
    (``use_structured_name=False``) with the original's names matches nothing in a copy."""
    nn = paddle.nn
    with paddle.utils.unique_name.guard():
        net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1, weight_attr=paddle.ParamAttr(name="head_w")))
        for i, p in enumerate(net.parameters()):
            p.set_value((np.arange(p.size, dtype="float32").reshape(p.shape) - i) / 10)
        c1 = copy.deepcopy(net)
        c2 = copy.deepcopy(c1)
        t = paddle.to_tensor([1.0, 2.0])
        t.name = "my_tensor"
        tc = copy.deepcopy(t)
        out["deepcopy_names"] = [[p.name for p in net.parameters()], [p.name for p in c1.parameters()],
                                 [p.name for p in c2.parameters()], tc.name, t.name,
                                 paddle.utils.unique_name.generate("_deepcopy")]
        opt = paddle.optimizer.Adam(0.01, parameters=c1.parameters())
        c1(paddle.ones([1, 2])).sum().backward()
        opt.step()
        out["deepcopy_opt_keys"] = sorted(opt.state_dict())
        by_name = {p.name: p.numpy() * 0 for p in net.parameters()}
        missing, unexpected = c1.set_state_dict(by_name, use_structured_name=False)
        out["deepcopy_by_name"] = [sorted(missing), sorted(unexpected), _v(c1[0].weight)]
        missing, unexpected = net.set_state_dict({p.name: p.numpy() * 2 for p in c1.parameters()},
                                                 use_structured_name=False)
        out["deepcopy_by_copy_names"] = [sorted(missing), sorted(unexpected), _v(net[0].weight)]


def adam_tensor_betas(paddle: Any, out: dict[str, Any]) -> None:
    """Adam and AdamW take ``beta1``, ``beta2`` and ``epsilon`` as one-element Tensors (it raised ``TypeError``),
    read at every step: a value set into the Tensor later is used from then on. (Tensors holding 0.9 and 0.999:
    Paddle starts the beta-power accumulators at those two numbers whatever Tensor is given, see the test file.)"""
    coef = paddle.to_tensor([1.0, 2.0, 3.0])
    for name in ("Adam", "AdamW"):
        w = paddle.create_parameter([3], "float32",
                                    default_initializer=paddle.nn.initializer.Assign(np.array([1.0, -2.0, 0.5],
                                                                                              "float32")))
        b1, b2, eps = paddle.to_tensor([0.9]), paddle.to_tensor([0.999]), paddle.to_tensor([1e-3])
        o = getattr(paddle.optimizer, name)(0.1, beta1=b1, beta2=b2, epsilon=eps, parameters=[w])
        seen = []
        for i in range(4):
            (w * w * coef).sum().backward()
            o.step()
            o.clear_grad()
            seen.append(_v(w))
            if i == 1:
                b1.set_value(paddle.to_tensor([0.5]))
                eps.set_value(paddle.to_tensor([0.5]))
        out[f"tensor_betas_{name}"] = seen


def layer_misc(paddle: Any, out: dict[str, Any]) -> None:
    """``MaxUnPool1D/2D/3D`` print only ``output_size``, as Paddle; ``Layer.to('float16')`` (a dtype where the
    device goes) raises ``ValueError`` (it was ``NotImplementedError``)."""
    nn = paddle.nn
    out["unpool_repr"] = [str(nn.MaxUnPool1D(2)), str(nn.MaxUnPool2D(2, output_size=[4, 4])),
                          str(nn.MaxUnPool3D(3, stride=2, padding=1))]
    out["to_dtype_positional"] = _attempt(lambda: nn.Linear(2, 2).to("float16"))
    out["to_bad_device"] = _attempt(lambda: nn.Linear(2, 2).to("nowhere"))


CASES = (schedulers, nadam_state, deepcopy_names, adam_tensor_betas, layer_misc)


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
