"""nn.functional against numbers recorded from Paddle 3.3.1 (``tests/record_paddle_functional.py``).

For each recorded case and float type: the outputs (values and dtypes), the gradients of
``sum(out * ct)`` with respect to the listed inputs, batch_norm's updated running
statistics, and the coverage of Paddle's nn.functional names.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as P
import pylayer_jax.nn.functional as F

FIXTURE = json.loads((Path(__file__).with_name("data") / "paddle_functional.json").read_text())
CASES = {c["id"]: c for c in FIXTURE["cases"]}
NAMES = Path("/work/shared/spec/paddle-nn-functional.txt")
SPEC = Path(__file__).with_name("paddle_nn_functional.txt")
# Paddle computes some float64 kernels with float32 coordinates or constants (interpolate, lp_pool):
# 1e-5 relative still separates a wrong formula from rounding
TOL = {"float32": {"rtol": 2e-4, "atol": 2e-5}, "float64": {"rtol": 1e-5, "atol": 1e-7}}


def _dec(a, dt):
    if isinstance(a, dict) and "array" in a:
        arr = np.asarray(a["array"], dtype=a["dtype"]).reshape(a["shape"])
        return arr.astype(dt) if arr.dtype.kind == "f" else arr
    return a


def _call(c, dt):
    def tens(a, diff):
        a = _dec(a, dt)
        return P.to_tensor(a, stop_gradient=not diff) if isinstance(a, np.ndarray) else a

    args = [tens(a, i in c["grad"]) for i, a in enumerate(c["args"])]
    kwargs = {k: tens(v, False) for k, v in c["kwargs"].items()}
    res = getattr(F, c["fn"])(*args, **kwargs)
    return args, kwargs, list(res) if isinstance(res, tuple | list) else [res]


PARAMS = [pytest.param(i, dt, id=f"{i}-{dt}") for i, c in CASES.items() for dt in c["dtypes"]]


@pytest.mark.parametrize("cid,dt", PARAMS)
def test_forward_and_grad_match_paddle(cid: str, dt: str) -> None:
    c = CASES[cid]
    want = c["results"][dt]
    args, kwargs, outs = _call(c, dt)
    assert len(outs) == len(want["outs"])
    for o, w, wdt in zip(outs, want["outs"], want["out_dtypes"]):
        assert str(o.dtype).replace("paddle.", "") == wdt, f"{cid}: dtype {o.dtype} != Paddle's {wdt}"
        np.testing.assert_allclose(o.numpy(), np.asarray(w, dtype=o.numpy().dtype), **TOL[dt])
    if c["fn"] == "batch_norm":
        for t, w in zip(args[1:3], want["running"]):
            np.testing.assert_allclose(t.numpy(), np.asarray(w), **TOL[dt])
    if "grads" not in want:
        return
    loss = None
    for o, ct in zip(outs, want["cts"]):
        if ct is not None and not o.stop_gradient:
            term = (o * P.to_tensor(np.asarray(ct, dt))).sum()
            loss = term if loss is None else loss + term
    gs = P.grad(loss, [args[i] for i in c["grad"]], allow_unused=True)
    # where Paddle's backward is not the derivative of its forward, the fixture's central differences
    # of Paddle's float64 forward are the reference (both dtypes)
    fd = c["results"].get("float64", {}).get("fd_grads")
    wants, tol = (fd, {"rtol": 1e-4, "atol": 1e-6}) if fd is not None else (want["grads"], TOL[dt])
    if fd is not None:
        assert not np.allclose(np.asarray(want["grads"][0]), np.asarray(fd[0]), rtol=1e-3, atol=1e-4)
    for i, g, w in zip(c["grad"], gs, wants):
        if w is None:
            assert g is None or not np.any(g.numpy()), f"{cid}: input {i} has a gradient, Paddle's has none"
            continue
        assert g is not None, f"{cid}: input {i} got no gradient"
        np.testing.assert_allclose(g.numpy(), np.asarray(w), **tol, err_msg=f"gradient of input {i}")


def test_fixture_covers_every_new_function() -> None:
    recorded = {c["fn"] for c in FIXTURE["cases"]}
    names = SPEC.read_text().split()
    random_or_python = {"dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout",
                        "gumbel_softmax", "rrelu", "sequence_mask", "one_hot", "embedding", "pad", "tanh", "sigmoid",
                        "softmax", "log_softmax", "relu", "leaky_relu", "hardtanh", "hardshrink", "softshrink",
                        "logsigmoid", "swish"}
    missing = [n for n in names if callable(getattr(F, n, None)) and not n.endswith("_")
               and n not in recorded and n not in random_or_python]
    assert not missing, f"functions without a recorded Paddle case: {missing}"


def coverage() -> tuple[list[str], list[str]]:
    names = SPEC.read_text().split()
    have = [n for n in names if callable(getattr(F, n, None))]
    return have, [n for n in names if n not in have]


def test_nn_functional_name_coverage() -> None:
    have, missing = coverage()
    print(f"\npylayer_jax.nn.functional provides {len(have)} of {len(have) + len(missing)} Paddle names; missing: {missing}")
    assert len(have) >= 115
    for n in have:
        assert getattr(F, n).__doc__, f"nn.functional.{n} has no docstring"
