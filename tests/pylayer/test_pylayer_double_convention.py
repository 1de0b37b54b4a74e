"""Second derivatives through a PyLayer whose backward reads its saved output: the two drivers'
conventions, pinned. The eager driver follows Paddle (the saved output's history is the PyLayer
itself, so it is differentiated through the custom backward again); the traced driver follows
``jax.custom_vjp`` (the saved output is a residual computed by forward's own ops, differentiated
by their true derivatives). They agree whenever backward is the true derivative of forward."""

from __future__ import annotations

import json
import os

import jax
import jax.numpy as jnp
import numpy as np

import pylayer_jax as paddle
from pylayer_jax.autograd import PyLayer

_PADDLE = json.load(open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_pylayer_double.json")))


class CubeSavesOut(PyLayer):
    """y = x**3, with a backward that is not y's derivative: dy * y."""

    @staticmethod
    def forward(ctx, x):
        y = x**3
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy * y


@jax.custom_vjp
def _cube_ref(x):
    return x**3


_cube_ref.defvjp(lambda x: (x**3, x**3), lambda y, dy: (dy * y,))


def test_eager_second_derivative_follows_paddle():
    x = paddle.to_tensor(_PADDLE["x"], dtype="float64", stop_gradient=False)
    (g,) = paddle.grad(CubeSavesOut.apply(x).sum(), x, create_graph=True)
    (g2,) = paddle.grad(g.sum(), x)
    np.testing.assert_allclose(g.numpy(), _PADDLE["first"], rtol=1e-12)
    np.testing.assert_allclose(g2.numpy(), _PADDLE["second"], rtol=1e-12)


def test_traced_second_derivative_follows_jax_custom_vjp():
    x = jnp.asarray(_PADDLE["x"])

    def f(v):
        return CubeSavesOut.apply(v).sum()

    def ref(v):
        return _cube_ref(v).sum()

    np.testing.assert_allclose(jax.grad(f)(x), _PADDLE["first"], rtol=1e-12)  # first derivatives agree
    second = jax.grad(lambda v: jax.grad(f)(v).sum())(x)
    np.testing.assert_allclose(second, jax.grad(lambda v: jax.grad(ref)(v).sum())(x), rtol=1e-12)
    assert not np.allclose(second, _PADDLE["second"])  # 3 x**2, where the eager driver gives x**3
