"""``paddle.incubate.optimizer`` against Paddle 3.3.1 (cases: ``tests/incubate_optimizer_cases.py``, recorded by
``tests/record_paddle_incubate_optimizer.py``): LookAhead's parameters and slow weights step by step over SGD,
Momentum and Adam (``step`` and ``minimize``), ModelAverage's averages, restores and accumulators, the state-dict
keys of both, and minimize_bfgs / minimize_lbfgs's six (five) results; plus state-dict round trips and misuse.

minimize_* are compared where Paddle's float32 trajectory is reproducible (float64 runs to convergence, float32 runs
of a few iterations): in float32 the last iterations near a minimum depend on rounding, and a different summation
order there changes the number of function calls.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from incubate_optimizer_cases import MINIMIZE, RUNS, _params, minimize  # noqa: E402

REF = json.loads(Path(__file__).resolve().parents[1].joinpath("data", "paddle_incubate_optimizer.json").read_text())
IO = paddle.incubate.optimizer


def _close(a: object, b: object, tol: float) -> None:
    np.testing.assert_allclose(np.asarray(a, np.float64), np.asarray(b, np.float64), rtol=tol, atol=tol)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_run_matches_paddle(name: str) -> None:
    ref, ours = REF["runs"][name], RUNS[name](paddle)
    assert sorted(ours["state"]) == sorted(ref["state"])
    for k in ref["state"]:
        _close(ours["state"][k], ref["state"][k], 1e-6)
    assert len(ours["steps"]) == len(ref["steps"])
    for o, r in zip(ours["steps"], ref["steps"]):
        if isinstance(r, dict):
            for part in ("applied", "kept", "after"):
                for a, b in zip(o[part], r[part]):
                    _close(a, b, 1e-6)
        else:
            for a, b in zip(o, r):
                _close(a, b, 1e-6)
    if "lr" in ref:
        assert ours["lr"] == ref["lr"]


@pytest.mark.parametrize("name", sorted(MINIMIZE))
def test_minimize_matches_paddle(name: str) -> None:
    ref, ours = REF["minimize"][name], minimize(paddle, name)
    if "error" in ref:
        assert ours == ref
        return
    assert ours["dtypes"] == ref["dtypes"] and ours["shapes"] == ref["shapes"]
    assert ours["out"][:2] == ref["out"][:2]  # is_converge, num_func_calls
    tol = 1e-9 if ref["dtypes"][2] == "float64" else 2e-5
    for a, b in zip(ours["out"][2:], ref["out"][2:]):
        _close(a, b, tol)


def test_minimize_against_numpy_quadratic() -> None:
    a = np.array([[3.0, 1.0], [1.0, 2.0]])
    b = np.array([1.0, -1.0])
    at, bt = paddle.to_tensor(a), paddle.to_tensor(b)
    f = lambda x: 0.5 * paddle.sum(x * paddle.mv(at, x)) - paddle.sum(bt * x)  # noqa: E731
    want = np.linalg.solve(a, b)
    for fn in (IO.functional.minimize_bfgs, IO.functional.minimize_lbfgs):
        out = fn(f, paddle.zeros([2], "float64"), dtype="float64")
        assert bool(out[0].numpy()[0])
        np.testing.assert_allclose(out[2].numpy(), want, rtol=1e-7)


def test_state_dicts_round_trip() -> None:
    with paddle.utils.unique_name.guard():
        w, v = _params(paddle)
        la = IO.LookAhead(paddle.optimizer.SGD(0.1, parameters=[w, v]), alpha=0.5, k=2)
        ma = IO.ModelAverage(0.5, parameters=[w, v], min_average_window=2, max_average_window=4)
        for _ in range(3):
            (w * w).sum().backward()
            la.step()
            ma.step()
            la.clear_grad()
        sd_la, sd_ma = la.state_dict(), ma.state_dict()
        la2 = IO.LookAhead(paddle.optimizer.SGD(0.1, parameters=[w, v]), alpha=0.5, k=2)
        ma2 = IO.ModelAverage(0.5, parameters=[w, v], min_average_window=2, max_average_window=4)
    # (the second pair names its accumulators ..._1: the names are the parameters' and the optimizer's, as Paddle's)
    la2._acc_names.update(la._acc_names)
    ma2._acc_names.update(ma._acc_names)
    la2.set_state_dict(sd_la)
    ma2.set_state_dict(sd_ma)
    for k, t in la2.state_dict().items():
        np.testing.assert_array_equal(t.numpy(), sd_la[k].numpy())
    for k, t in ma2.state_dict().items():
        np.testing.assert_array_equal(t.numpy(), sd_ma[k].numpy())
    with ma.apply():
        avg = w.numpy().copy()
    with ma2.apply():
        np.testing.assert_array_equal(w.numpy(), avg)


@pytest.mark.parametrize(
    "make,exc,match",
    [
        (lambda w: IO.LookAhead(None), TypeError, "inner_optimizer must be an optimizer"),
        (lambda w: IO.LookAhead(paddle.optimizer.SGD(0.1, parameters=[w]), alpha=1.5), ValueError,
         "alpha should be larger or equal to 0.0"),
        (lambda w: IO.LookAhead(paddle.optimizer.SGD(0.1, parameters=[w]), k=0), ValueError,
         "k should be a positive integer"),
        (lambda w: IO.ModelAverage(0.5, parameters=[w], min_average_window=5, max_average_window=2), ValueError,
         "must not exceed max_average_window"),
        (lambda w: IO.ModelAverage("a", parameters=[w]), TypeError, "average_window_rate must be a float"),
        (lambda w: IO.ModelAverage(0.5, parameters=[w]).apply(executor=object()).__enter__(), NotImplementedError,
         "executor is for static mode"),
        (lambda w: IO.functional.minimize_bfgs(lambda x: x, [0.0]), ValueError, "must be a Tensor"),
        (lambda w: IO.functional.minimize_bfgs(lambda x: x, paddle.zeros([2, 2])), ValueError, "must be 1-D"),
        (lambda w: IO.functional.minimize_lbfgs(lambda x: x.sum(), paddle.zeros([2]), history_size=0), ValueError,
         "history_size must be a positive int"),
        (lambda w: IO.functional.minimize_bfgs(lambda x: x, paddle.zeros([2])), ValueError,
         "must return a Tensor holding one value"),
        (lambda w: IO.functional.minimize_bfgs(lambda x: x.sum(), paddle.zeros([2], "float64")), ValueError,
         "has dtype float64, but dtype is 'float32'"),
    ],
)
def test_misuse(make, exc, match) -> None:
    w = paddle.create_parameter([2], "float32")
    with pytest.raises(exc, match=match):
        make(w)
