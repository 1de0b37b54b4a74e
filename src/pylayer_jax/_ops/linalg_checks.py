"""Argument checks shared by the ``paddle.linalg`` factorizations and solvers (layer L1)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import numpy as np

from .checks import OutCheck, dtype_of


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


# ---- failures only the computation shows (``defop``'s ``out_checks``): Paddle's kernels raise on them ------------
# Paddle's LU-based kernels (inverse, solve, matrix_power with n < 0, cholesky_inverse, cond with a norm that inverts)
# raise "Input is not invertible." where the factorization meets a zero (or NaN) pivot; ours give inf or NaN there:
# a result with a non-finite entry from an input without inf (whose pivots Paddle takes as they come) is that case.
# Its Cholesky kernel raises where a pivot is not positive; ours gives NaN there (a NaN input gives NaN in both,
# without an error).


def _any_nonfinite(xp: Any, a: Any, core: int = 2) -> Any:
    return xp.any(~xp.isfinite(a), axis=tuple(range(a.ndim - core, a.ndim)))


def _singular_rule(xp: Any, x: Any, out: Any) -> Any:
    return _any_nonfinite(xp, out) & ~xp.any(xp.isinf(x), axis=(-2, -1))


def _not_pd_rule(xp: Any, x: Any, out: Any) -> Any:
    return xp.any(xp.isnan(out), axis=(-2, -1)) & xp.all(xp.isfinite(x), axis=(-2, -1))


def _solve_rule(xp: Any, x: Any, y: Any, out: Any) -> Any:
    core = 1 if out.ndim == x.ndim - 1 else 2  # (a vector or a batch of vectors y: one axis per solution)
    return _any_nonfinite(xp, out, core) & ~xp.any(xp.isinf(x)) & xp.all(xp.isfinite(y))


def _cond_rule(xp: Any, x: Any, out: Any) -> Any:
    return ~xp.isfinite(out) & xp.all(xp.isfinite(x), axis=(-2, -1))


_LU = "its LU factorization meets a zero or NaN pivot"
INVERSE_SINGULAR = OutCheck(_singular_rule, lambda entry: (
    f"inverse: x must be an invertible matrix, but {entry} is singular ({_LU}), so it has no inverse. Check the "
    "input, or use paddle.linalg.pinv for the pseudo-inverse of a singular matrix."))
CHOLESKY_NOT_PD = OutCheck(_not_pd_rule, lambda entry: (
    f"cholesky: x must be symmetric positive definite, but {entry} is not (its Cholesky factorization meets a pivot "
    "that is not positive). Pass a positive definite matrix, e.g. a positive semi-definite one plus a small multiple "
    "of the identity (x + eps * I)."))
SOLVE_SINGULAR = OutCheck(_solve_rule, lambda entry: (
    f"solve: x must be an invertible matrix, but {entry} is singular ({_LU}), so x @ out = y has no unique "
    "solution. Use paddle.linalg.lstsq for a least-squares solution."))
CHOLESKY_INVERSE_SINGULAR = OutCheck(_singular_rule, lambda entry: (
    f"cholesky_inverse: x must be the Cholesky factor of a positive definite matrix (no zero on its diagonal), but "
    f"{entry} is singular, so the matrix it factors has no inverse. Pass the factor paddle.linalg.cholesky "
    "returned for a positive definite matrix."))


def _always(check: OutCheck) -> Callable[[dict], OutCheck]:
    """The ``out_checks`` of an op whose every call has the rule ``check``."""
    return lambda args: check


inverse_checks = _always(INVERSE_SINGULAR)
cholesky_checks = _always(CHOLESKY_NOT_PD)
solve_checks = _always(SOLVE_SINGULAR)
cholesky_inverse_checks = _always(CHOLESKY_INVERSE_SINGULAR)


@functools.lru_cache(maxsize=64)
def _matrix_power_check(n: int) -> OutCheck:
    return OutCheck(_singular_rule, lambda entry: (
        f"matrix_power: the negative power n={n} inverts x, but {entry} is singular ({_LU}), so it has no inverse. "
        "Use n >= 0, or powers of paddle.linalg.pinv(x) for a singular matrix."))


def matrix_power_checks(args: dict) -> OutCheck | None:
    n = args.get("n")
    return _matrix_power_check(n) if isinstance(n, int) and n < 0 else None


@functools.lru_cache(maxsize=16)
def _cond_check(p: Any) -> OutCheck:
    return OutCheck(_cond_rule, lambda entry: (
        f"cond: p={p!r} computes norm(x, p) * norm(inv(x), p), so x must be invertible, but {entry} is singular "
        f"({_LU}). Use p=None or p=2 (the ratio of the singular values) for a singular matrix."))


def cond_checks(args: dict) -> OutCheck | None:
    p = args.get("p")
    return None if p is None or (not isinstance(p, str) and p in (2, -2)) else _cond_check(p)
