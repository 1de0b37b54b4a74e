"""Cases found by the whole programs ``tests/programs/p85_lr_scheduler_zoo.py`` (learning-rate schedulers and the
optimizers reading them) and ``tests/programs/p86_tensor_methods_zoo.py`` (Tensor methods), written as Paddle code:
``record(paddle)`` runs them with the given library and returns what they give (values, types, the type of each
error). ``record_paddle_program_diffs_af.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_af.json``;
``test_program_diffs_af.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _v


def _kind(x: Any) -> Any:
    """What a value is: a Tensor's shape and values, or a Python / numpy value's type name and value."""
    if hasattr(x, "numpy") and not isinstance(x, np.ndarray | np.generic):
        return ["Tensor", list(x.shape), np.asarray(x.numpy()).astype(float).reshape(-1).tolist()]
    return [type(x).__name__, float(x)]


def plateau_best_as_given(paddle: Any, out: dict[str, Any]) -> None:
    """ReduceOnPlateau keeps the metric it was given as ``best`` (a Tensor stays a Tensor, a 0-D numpy array an
    array, a numpy float32 a numpy float32); ``state_dict`` turns a Tensor into a float; the comparisons run on the
    given values (a float32 Tensor's threshold in float32); a metric of two values is an AssertionError."""
    L = paddle.optimizer.lr
    for name, make in (("tensor", lambda m: paddle.to_tensor(m)), ("tensor1", lambda m: paddle.to_tensor([m])),
                       ("ndarray", lambda m: np.array(m)), ("f32", np.float32), ("float", float)):
        p = L.ReduceOnPlateau(learning_rate=0.1, patience=0, factor=0.5, threshold=0.1)
        got = []
        for m in (1.0, 0.95, 0.8, 0.9):
            p.step(make(m))
            got.append([_kind(p.best), p.last_lr, p.num_bad_epochs])
        out["plateau_best_" + name] = got
        if name != "tensor1":  # (Paddle's state_dict fails on a best of shape [1]: float() of a 1-D Tensor)
            sd = p.state_dict()
            out["plateau_sd_" + name] = [type(sd["best"]).__name__, float(sd["best"])]
    # a float32 Tensor's relative threshold: 0.9 * (1 - 0.1) in float32 vs float64 decides "better"
    p = L.ReduceOnPlateau(learning_rate=0.1, patience=0, factor=0.5, threshold=0.1)
    p.step(paddle.to_tensor(0.9))
    p.step(paddle.to_tensor(np.float32(0.9) * np.float32(0.9)))
    out["plateau_f32_threshold"] = [p.last_lr, p.num_bad_epochs, _kind(p.best)]
    p = L.ReduceOnPlateau(learning_rate=0.1)
    out["plateau_two_values"] = _attempt(lambda: p.step(paddle.to_tensor([1.0, 2.0])))
    out["plateau_two_values_np"] = _attempt(lambda: p.step(np.array([1.0, 2.0])))


def optimizer_state_dict_is_live(paddle: Any, out: dict[str, Any]) -> None:
    """``optimizer.state_dict()`` holds the optimizer's own accumulators: a dict kept while training goes on shows
    the state after the latest step (Momentum's velocity, Adam's moments), and a set_state_dict from it then loads
    that state."""
    for oname, kw in (("Momentum", {"momentum": 0.9}), ("Adam", {})):
        with paddle.utils.unique_name.guard():
            lin = paddle.nn.Linear(2, 1)
            lin.weight.set_value(np.array([[0.5], [-1.0]], "float32"))
            lin.bias.set_value(np.array([0.2], "float32"))
            opt = getattr(paddle.optimizer, oname)(learning_rate=0.1, parameters=lin.parameters(), **kw)
            x = paddle.to_tensor([[1.0, 2.0], [3.0, -1.0]])
            seen = []
            sd = None
            for i in range(3):
                (lin(x) ** 2).mean().backward()
                opt.step()
                opt.clear_grad()
                if i == 0:
                    sd = opt.state_dict()
                    keys = sorted(k for k in sd if k != "LR_Scheduler" and "pow_acc" not in k)
                seen.append([_v(sd[k]) for k in keys])
            fresh = opt.state_dict()
            out["live_" + oname] = [keys, seen, [_v(fresh[k]) for k in keys]]


def sequence_repetition(paddle: Any, out: dict[str, Any]) -> None:
    """An int Tensor times a str, list or tuple (either side) repeats the sequence, as Python does with an int
    (``__index__``); ``+`` with a list is a TypeError."""
    t = paddle.to_tensor(2)
    out["repeat"] = ["ab" * t, t * "ab", [0] * t, t * [1.0, 2.0], list(t * (5,)), list((5,) * paddle.to_tensor(3))]
    out["add_list"] = _attempt(lambda: t + [1, 2])


def tensor_apply(paddle: Any, out: dict[str, Any]) -> None:
    """``Tensor.apply(func)`` returns ``func(x)`` and leaves x; ``apply_`` writes it into x and returns x; both
    refuse a tensor that requires gradient (a RuntimeError, also under no_grad)."""
    x = paddle.to_tensor([1.0, 4.0, 9.0])
    r = x.apply(lambda q: q.sqrt() * 2)
    out["apply"] = [_v(r), _v(x), r is x]
    r = x.apply_(lambda q: q - 1)
    out["apply_"] = [_v(x), r is x]
    i = paddle.to_tensor([1, 2, 3])
    out["apply_int"] = _v(i.apply(lambda q: q * 3))
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    out["apply_requires_grad"] = [_attempt(lambda: w.apply(lambda q: q * 2)),
                                  _attempt(lambda: w.apply_(lambda q: q * 2))]
    with paddle.no_grad():
        out["apply_requires_grad_no_grad"] = _attempt(lambda: w.apply_(lambda q: q * 2))
    out["apply_requires_grad_untouched"] = _v(w)


CASES = [plateau_best_as_given, optimizer_state_dict_is_live, sequence_repetition, tensor_apply]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
