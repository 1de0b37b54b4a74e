"""The whole programs ``tests/programs/p75_creation.py`` and ``tests/programs/p76_complex_autograd.py`` against
Paddle 3.3.1: the differences they showed in tensor creation and complex autograd, as focused cases
(``tests/program_diff_cases_aa.py``, recorded by ``tests/record_paddle_program_diffs_aa.py``), and the messages of
the errors added for them."""

from __future__ import annotations

import os
import sys
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_aa import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_aa.json", paddle)


def test_creation_errors_say_what_to_do() -> None:
    with pytest.raises(ValueError, match=r"arange: step must not be 0 \(after the cast to int64, which truncates a "
                                         r"fractional step\)"):
        paddle.arange(0, 4, 0.5, dtype="int64")
    with pytest.raises(ValueError, match=r"meshgrid: the tensors must have one dtype, but the first is int64 and "
                                         r"tensor 1 is float32"):
        paddle.meshgrid(paddle.to_tensor([1, 2]), paddle.to_tensor([1.0]))
    with pytest.raises(ValueError, match=r"to_tensor: the integer 1180591620717411303424 does not fit in int64"):
        paddle.to_tensor([[1, 2 ** 70]])


def test_meshgrid_0d_gradient() -> None:
    """(Paddle's backward through a 0-D meshgrid input crashes, so jax.grad is the oracle.)"""
    x = paddle.to_tensor(1.5, stop_gradient=False)
    y = paddle.to_tensor([2.0, 3.0], stop_gradient=False)
    gx, gy = paddle.meshgrid(x, y)
    (gx * gy * gy).sum().backward()

    def f(a: jax.Array, b: jax.Array) -> jax.Array:
        u, v = jnp.meshgrid(a.reshape(1), b, indexing="ij")
        return (u * v * v).sum()

    ga, gb = jax.grad(f, argnums=(0, 1))(jnp.float32(1.5), jnp.array([2.0, 3.0], jnp.float32))
    assert x.grad.shape == []
    np.testing.assert_allclose(x.grad.numpy(), ga, rtol=1e-6)
    np.testing.assert_allclose(y.grad.numpy(), gb, rtol=1e-6)


_Z0 = (np.random.default_rng(1).standard_normal((3, 3)) + 1j * np.random.default_rng(2).standard_normal((3, 3)))


def _paddle_grad_of(f: Any, z0: np.ndarray) -> np.ndarray:
    z = paddle.to_tensor(z0.astype("complex128"), stop_gradient=False)
    f(z).backward()
    return z.grad.numpy()


@pytest.mark.parametrize("name", ["prod", "matrix_power", "normalize"])
def test_complex_leaf_gradient_matches_jax(name: str) -> None:
    """Paddle 3.3.1's gradients of these on a complex leaf are wrong (prod, matrix_power) or missing (normalize:
    no complex kernel), so JAX is the oracle: a complex leaf's gradient is dL/dRe + i dL/dIm, the conjugate of
    ``jax.grad`` of the real loss."""
    ours = {
        "prod": lambda z: paddle.abs(paddle.prod(z)),
        "matrix_power": lambda z: paddle.abs(paddle.linalg.matrix_power(z, 3)).sum(),
        "normalize": lambda z: paddle.abs(paddle.nn.functional.normalize(z, axis=1) * paddle.to_tensor(_Z0 ** 2)).sum(),
    }[name]
    ref = {
        "prod": lambda z: jnp.abs(jnp.prod(z)),
        "matrix_power": lambda z: jnp.abs(z @ z @ z).sum(),
        "normalize": lambda z: jnp.abs(z / jnp.linalg.norm(z, axis=1, keepdims=True) * _Z0 ** 2).sum(),
    }[name]
    np.testing.assert_allclose(_paddle_grad_of(ours, _Z0), np.conj(jax.grad(ref)(jnp.asarray(_Z0))), rtol=1e-9,
                               atol=1e-12)


def test_inplace_complex_error_says_what_to_do() -> None:
    x = paddle.ones([2], dtype="complex64")
    with pytest.raises(TypeError, match=r"Tensor.multiply_: .* or x is complex and y real of at most its parts' width, "
                                        r"but x is complex64 and y is float64"):
        x.multiply_(paddle.ones([2], dtype="float64"))
