"""``paddle.incubate``'s functions against Paddle 3.3.1 (cases: ``tests/incubate_cases.py``, recorded by
``tests/record_paddle_incubate.py``): values, dtypes, shapes and the gradients of ``sum(out * ct)``.

Where Paddle's CPU build runs the function (``paddle_runs`` in the fixture) the numbers are its own; elsewhere (no
CPU kernel) they are the formula Paddle documents, computed with Paddle's plain operators, and for
``fused_rms_norm`` (a forward kernel only) the gradients are the formula's. Deliberate differences, tested here:
``fused_layer_norm``'s ``residual_out`` without a residual is ``x`` (Paddle's CPU kernel leaves it unset), and the
misuse Paddle's kernels meet with garbage (a residual of another shape) is refused.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jax
import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.incubate.nn.functional as IF

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from incubate_cases import CASES, POS, SIN_T, Q, X, run  # noqa: E402

REF = json.loads(Path(__file__).resolve().parents[1].joinpath("data", "paddle_incubate.json").read_text())["cases"]


def _close(ours: list, ref: list, tol: float) -> None:
    assert len(ours) == len(ref)
    for o, r in zip(ours, ref):
        if r is None:
            assert o is None
            continue
        np.testing.assert_allclose(np.asarray(o), np.asarray(r), rtol=tol, atol=tol)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name: str) -> None:
    ref = REF[name]
    ours = run(paddle, name, True)
    assert ours["shape"] == ref["shape"]
    assert ours["dtype"] == ref["dtype"]
    if ref["paddle_runs"]:
        assert ours["stop_gradient"] == ref["stop_gradient"]
    _close(ours["out"], ref["out"], 2e-5)
    assert ("grads" in ours) == ("grads" in ref)
    if "grads" in ref:
        _close(ours["grads"], ref["grads"], 5e-5)


def test_layer_norm_residual_out_without_residual_is_x() -> None:
    out = IF.fused_layer_norm(paddle.to_tensor(X), paddle.ones([8]), paddle.zeros([8]), 1e-5, begin_norm_axis=2)
    np.testing.assert_array_equal(out[1].numpy(), X)
    assert all(t.stop_gradient for t in out)


def test_rms_norm_and_rope_float64_grads_match_jax() -> None:
    """The table ops' gradients in float64 against jax.grad of the same formula written with jax.numpy."""
    x = np.asarray(X, np.float64)
    w = np.linspace(0.5, 1.5, 8)
    xt, wt = paddle.to_tensor(x, stop_gradient=False), paddle.to_tensor(w, stop_gradient=False)
    out, _ = IF.fused_rms_norm(xt, wt, None, 1e-6, 2)
    (out * out).sum().backward()

    def f(a, b):
        y = a / jax.numpy.sqrt(jax.numpy.mean(a * a, -1, keepdims=True) + 1e-6) * b
        return (y * y).sum()

    gx, gw = jax.grad(f, (0, 1))(x, w)
    np.testing.assert_allclose(xt.grad.numpy(), gx, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(wt.grad.numpy(), gw, rtol=1e-10, atol=1e-12)

    q = paddle.to_tensor(np.asarray(Q, np.float64), stop_gradient=False)
    sin, cos = paddle.to_tensor(np.asarray(SIN_T, np.float64)), paddle.to_tensor(np.cos(np.asarray(SIN_T, np.float64)))
    oq, _, _ = IF.fused_rotary_position_embedding(q, sin=sin, cos=cos, position_ids=paddle.to_tensor(POS),
                                                  use_neox_rotary_style=False)
    (oq * oq).sum().backward()

    def g(a):
        s, c = np.asarray(SIN_T, np.float64)[POS][:, :, None], np.cos(np.asarray(SIN_T, np.float64))[POS][:, :, None]
        rot = jax.numpy.concatenate([-a[..., 4:], a[..., :4]], -1)
        return ((a * c + rot * s) ** 2).sum()

    np.testing.assert_allclose(q.grad.numpy(), jax.grad(g)(np.asarray(Q, np.float64)), rtol=1e-10, atol=1e-12)
