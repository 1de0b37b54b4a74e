"""Elementwise arithmetic and activation-like math ops."""

from __future__ import annotations

import jax.numpy as jnp

from .._op_table import defop
from ._util import as_float


@defop(2, inplace=True)
def add(x, y):
    """Elementwise ``x + y`` with broadcasting."""
    return jnp.add(x, y)


@defop(2, inplace=True)
def subtract(x, y):
    """Elementwise ``x - y`` with broadcasting."""
    return jnp.subtract(x, y)


@defop(2, saves=("x", "y"), inplace=True)
def multiply(x, y):
    """Elementwise ``x * y`` with broadcasting."""
    return jnp.multiply(x, y)


@defop(2, saves=("x", "y", "out"), inplace=True)
def divide(x, y):
    """Elementwise true division; integer inputs give the default float dtype."""
    x, y = as_float(x, y)
    return jnp.divide(x, y)


@defop(1, inplace=True)
def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None):
    """``scale * x + bias`` (or ``scale * (x + bias)``), keeping x's dtype."""
    dt = x.dtype
    out = x * scale + bias if bias_after_scale else (x + bias) * scale
    return out.astype(dt)


@defop(1, saves=("out",), vjp=lambda s, g: g * (1 - s["out"] * s["out"]), inplace=True)
def tanh(x):
    """Hyperbolic tangent; backward reads the output."""
    return jnp.tanh(x)


@defop(1, saves=("out",), vjp=lambda s, g: g * s["out"], inplace=True)
def exp(x):
    """``e ** x``; backward reads the output."""
    return jnp.exp(as_float(x))


@defop(1, saves=("x",))
def square(x):
    """``x * x``."""
    return jnp.square(x)


@defop(1, saves=("x",))
def relu(x):
    """``max(x, 0)``."""
    return jnp.maximum(x, 0).astype(x.dtype)


@defop(1, name="mean")
def mean(x, axis=None, keepdim=False):
    """Mean over ``axis`` (all axes when None)."""
    from ._util import axis_arg

    return jnp.mean(x, axis=axis_arg(axis), keepdims=keepdim)


@defop(1, name="sum")
def sum_(x, axis=None, dtype=None, keepdim=False):
    """Sum over ``axis``; integer/bool inputs sum to int64 like Paddle."""
    from ._util import axis_arg, dtype_arg

    dt = dtype_arg(dtype)
    if dt is None and not jnp.issubdtype(x.dtype, jnp.inexact):
        dt = jnp.int64
    return jnp.sum(x, axis=axis_arg(axis), dtype=dt, keepdims=keepdim)


@defop(2, saves=("x", "y"))
def matmul(x, y, transpose_x=False, transpose_y=False):
    """Matrix product with optional transposes of the last two axes."""
    if transpose_x and x.ndim >= 2:
        x = jnp.swapaxes(x, -1, -2)
    if transpose_y and y.ndim >= 2:
        y = jnp.swapaxes(y, -1, -2)
    return jnp.matmul(x, y)
