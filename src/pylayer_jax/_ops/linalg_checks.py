"""Argument checks shared by the ``paddle.linalg`` factorizations and solvers (layer L1)."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np

from .checks import dtype_of


def float_matrix(op: str, name: str, t: Any, exc: type[Exception] = RuntimeError) -> None:
    """``t`` must be a matrix or a batch of them (at least 2-D: a ValueError) of a float or complex dtype (``exc``:
    Paddle's RuntimeError where it has no kernel for the dtype)."""
    shape = list(getattr(t, "shape", ()))
    if not hasattr(t, "shape") or len(shape) < 2:
        raise ValueError(f"{op}: {name} must be a matrix or a batch of matrices (shape [*, m, n], at least 2-D), but "
                         f"received {'shape ' + str(shape) if hasattr(t, 'shape') else type(t).__name__}. Pass a "
                         "2-D or higher tensor.")
    dt = dtype_of(t)
    if dt is not None and not (np.issubdtype(dt, np.floating) or np.issubdtype(dt, np.complexfloating)):
        raise exc(f"{op}: {name} must be a float32, float64, complex64 or complex128 tensor, but received dtype "
                  f"{dt.name}. Cast it with .astype('float32').")


def same_dtype(op: str, *named: tuple[str, Any], exc: type[Exception] = ValueError) -> None:
    """The tensors of ``named`` (name, tensor) pairs must share one dtype."""
    dts = [(n, dtype_of(t)) for n, t in named]
    if len({d for _, d in dts if d is not None}) > 1:
        got = ", ".join(f"{n} {d.name}" for n, d in dts if d is not None)
        raise exc(f"{op}: {', '.join(n for n, _ in named)} must have the same dtype, but received {got}. Cast them "
                  "to one dtype with .astype().")


def triangular_solve_checks(op: str, a: dict) -> list:
    """``triangular_solve``'s x ([*, n, n]) and y ([*, n, k]): float matrices of one dtype, batches that
    broadcast."""
    x, y = a["x"], a["y"]
    float_matrix(op, "x", x)
    float_matrix(op, "y", y)
    same_dtype(op, ("x", x), ("y", y))
    xs, ys = list(x.shape), list(y.shape)
    if xs[-1] != xs[-2]:
        raise ValueError(f"{op}: x must be a square matrix or a batch of them, but received shape {xs}. Pass the "
                         "[*, n, n] triangular matrix.")
    if ys[-2] != xs[-1]:
        raise ValueError(f"{op}: y must have as many rows as x ({xs[-1]}) to solve x @ out = y, but received x of "
                         f"shape {xs} and y of shape {ys}.")
    try:
        jnp.broadcast_shapes(tuple(xs[:-2]), tuple(ys[:-2]))
    except ValueError:
        raise ValueError(f"{op}: the batch dimensions of x {xs[:-2]} and y {ys[:-2]} must broadcast together.") \
            from None
    return []
