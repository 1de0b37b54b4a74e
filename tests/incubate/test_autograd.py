"""``paddle.incubate.autograd`` against Paddle 3.3.1 (cases: ``tests/incubate_autograd_cases.py``, recorded by
``tests/record_paddle_incubate_autograd.py``): vjp, jvp, Jacobian and Hessian values, shapes and ``stop_gradient``,
the lazy indexing, the prim switches (static mode only), errors of the same types; and the results against
``jax.jacfwd`` / ``jax.hessian``.

Deliberate difference: ``jvp`` and ``Hessian`` in a static program raise NotImplementedError (they differentiate a
recorded gradient, which this package's static programs do not); Paddle runs them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from incubate_autograd_cases import B23, CASES, X3, record_static, run  # noqa: E402

REF = json.loads(Path(__file__).resolve().parents[1].joinpath("data", "paddle_incubate_autograd.json").read_text())
A = paddle.incubate.autograd


def _same(ours: object, ref: object) -> None:
    if isinstance(ref, list):
        assert isinstance(ours, list) and len(ours) == len(ref)
        for o, r in zip(ours, ref):
            _same(o, r)
    elif isinstance(ref, dict):
        assert ours["shape"] == ref["shape"]
        assert ours["stop_gradient"] == ref["stop_gradient"]
        np.testing.assert_allclose(np.asarray(ours["values"]), np.asarray(ref["values"]), rtol=1e-5, atol=1e-6)
    else:
        assert ours == ref


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name: str) -> None:
    ref, ours = REF["cases"][name], run(paddle, CASES[name])
    if "error" in ref:
        assert ours.get("error") == ref["error"], ours
        # the same sentence, shapes written as lists
        assert ours["message"].split(":")[0] == ref["message"].split(":")[0]
    else:
        assert "result" in ours, ours
        _same(ours["result"], ref["result"])


def test_static_program_matches_paddle() -> None:
    ours, ref = record_static(paddle), REF["static"]
    assert ours["flags"] == ref["flags"]
    for o, r in zip(ours["outs"], ref["outs"]):
        np.testing.assert_allclose(np.asarray(o), np.asarray(r), rtol=1e-6, atol=1e-6)


def test_static_second_order_refused() -> None:
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [3], "float32")
            with pytest.raises(NotImplementedError, match="jvp: in a static program it needs the gradient of a"):
                A.jvp(lambda t: t * t, x)
            with pytest.raises(NotImplementedError, match="Hessian: in a static program"):
                A.Hessian(lambda t: paddle.sum(t * t), x)
    finally:
        paddle.disable_static()


def test_against_jax() -> None:
    def f(x):
        return jnp.sin(x) * jnp.sum(x * x, axis=1, keepdims=True)

    x = np.asarray(B23, np.float64)
    jac = A.Jacobian(lambda t: paddle.sin(t) * paddle.sum(t * t, axis=1, keepdim=True), paddle.to_tensor(x),
                     is_batched=True)
    want = np.stack([jax.jacfwd(lambda r: f(r[None])[0])(row) for row in x])
    np.testing.assert_allclose(jac[:].numpy(), want, rtol=1e-12)
    hess = A.Hessian(lambda t: paddle.sum(paddle.exp(t) * t * t), paddle.to_tensor(np.asarray(X3, np.float64)))
    np.testing.assert_allclose(hess[:].numpy(), jax.hessian(lambda t: jnp.sum(jnp.exp(t) * t * t))(
        np.asarray(X3, np.float64)), rtol=1e-12)
    _, jv = A.jvp(lambda t: paddle.tanh(t) ** 3, paddle.to_tensor(np.asarray(X3, np.float64)),
                  paddle.to_tensor(np.array([1.0, 2.0, 3.0])))
    np.testing.assert_allclose(jv.numpy(), jax.jvp(lambda t: jnp.tanh(t) ** 3, (np.asarray(X3, np.float64),),
                                                   (np.array([1.0, 2.0, 3.0]),))[1], rtol=1e-12)


def test_jacobian_rows_are_computed_once_and_lazily() -> None:
    calls = []

    def f(x):
        calls.append(1)
        return x * x

    J = A.Jacobian(f, paddle.to_tensor(X3))
    assert len(calls) == 1 and J._jacobian._cache == {}
    J[1]
    assert sorted(J._jacobian._cache) == [1]
    J[:]
    J[0:2]
    assert sorted(J._jacobian._cache) == [0, 1, 2] and len(calls) == 1
