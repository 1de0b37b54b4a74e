"""Least squares, condition numbers and randomized low-rank SVDs (``paddle.linalg.lstsq``, ``cond``,
``svd_lowrank``, ``pca_lowrank``).

``lstsq`` returns Paddle's four outputs per CPU driver: which of residuals, rank and singular values a driver fills
(an empty ``[0]`` tensor otherwise) is Paddle's; the solution is JAX's minimum-norm one for every driver.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from .linalg_checks import cond_checks, float_matrix, same_dtype
from .table import defop

_DRIVERS = (None, "gels", "gelsy", "gelsd", "gelss")


def _lstsq_checks(op, a):  # noqa: ANN001, ANN202
    x, y = a["x"], a["y"]
    if a["driver"] not in _DRIVERS:
        raise ValueError(f"{op}: driver must be 'gels', 'gelsy', 'gelsd', 'gelss' or None (on the CPU), but received "
                         f"{a['driver']!r}.")
    same_dtype(op, ("x", x), ("y", y))
    float_matrix(op, "x", x, exc=ValueError)
    float_matrix(op, "y", y, exc=ValueError)
    xs, ys = list(x.shape), list(y.shape)
    if len(xs) != len(ys) or xs[:-2] != ys[:-2]:
        raise ValueError(f"{op}: x ([*, m, n]) and y ([*, m, k]) must have the same batch dimensions, but received "
                         f"shapes {xs} and {ys}.")
    if xs[-2] != ys[-2]:
        raise ValueError(f"{op}: x ([*, m, n]) and y ([*, m, k]) must have the same number of rows m, but received "
                         f"shapes {xs} and {ys}.")
    return []


def _lstsq_one(x, y, rcond):  # noqa: ANN001, ANN202
    sol, _, rank, sv = jnp.linalg.lstsq(x, y, rcond=rcond)
    return sol, rank, sv


@defop(2, saves=("x", "y"), checks=_lstsq_checks)
def lstsq(x, y, rcond=None, driver=None):
    """Least-squares solution of ``x @ out = y``: ``(solution, residuals, rank, singular_values)``.

    ``solution`` is ``[*, n, k]``; ``residuals`` (``[*, k]``, the squared column norms of ``y - x @ solution``)
    only for ``m > n`` and a driver other than 'gelsy' (the default; the public ``lstsq`` empties them where a
    matrix is rank-deficient, as Paddle); ``rank`` (int32 ``[*]``) for every driver
    but 'gels' (int64 ``[0]``); ``singular_values`` (``[*, min(m, n)]``) for 'gelsd' and 'gelss'. ``rcond`` cuts
    the singular values below ``rcond * max`` (None: Paddle's ``1e-7 * max(m, n)`` for float32, ``1e-15 * max(m,
    n)`` for float64).
    """
    m, n = x.shape[-2], x.shape[-1]
    if rcond is None:  # (Paddle's default: JAX's would be the dtype's eps, not 1e-7 / 1e-15)
        rcond = (1e-7 if jnp.finfo(x.dtype).bits <= 32 else 1e-15) * max(m, n)
    fn = jnp.vectorize(lambda a, b: _lstsq_one(a, b, rcond), signature="(m,n),(m,k)->(n,k),(),(s)")
    sol, rank, sv = fn(x, y)
    empty = jnp.zeros((0,), x.dtype)
    resid = jnp.sum(jnp.abs(y - jnp.matmul(x, sol)) ** 2, axis=-2) if m > n and driver != "gelsy" \
        and driver is not None else empty
    rank = jnp.zeros((0,), jnp.int64) if driver == "gels" else rank.astype(jnp.int32)
    sv = sv.astype(x.dtype) if driver in ("gelsd", "gelss") else empty
    return sol, resid.astype(x.dtype), rank, sv


_COND_P = (None, "fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


def _cond_checks(op, a):  # noqa: ANN001, ANN202
    x, p = a["x"], a["p"]
    if isinstance(p, str):
        known = p in ("fro", "nuc")
    else:
        known = p is None or (isinstance(p, int | float) and not isinstance(p, bool) and p in _COND_P[3:])
    if not known:
        raise ValueError(f"{op}: p must be None, 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, but received {p!r}.")
    float_matrix(op, "x", x, exc=ValueError)
    shape = list(x.shape)
    if shape[-1] != shape[-2] and p not in (None, 2, -2):
        raise ValueError(f"{op}: p={p!r} needs square matrices (x's last two dimensions equal), but received shape "
                         f"{shape}. Use p=None, 2 or -2 (ratios of singular values) for a non-square x.")
    return []


@defop(1, saves=("x",), checks=_cond_checks, out_checks=cond_checks)
def cond(x, p=None):
    """Condition number of ``x`` (batched) in the norm ``p``: the ratio of the largest to the smallest singular
    value for None and 2 (smallest to largest for -2), else ``norm(x, p) * norm(inv(x), p)``: for a singular
    matrix a ValueError in an eager call, as in Paddle (traced: inf)."""
    return jnp.linalg.cond(x, p)


def _range_basis(a, omega, niter):  # noqa: ANN001, ANN202
    """An orthonormal basis of (an approximation of) the range of ``a``: ``a @ omega`` refined by ``niter`` power
    iterations, re-orthonormalized after each product."""
    q = jnp.linalg.qr(jnp.matmul(a, omega))[0]
    ah = jnp.swapaxes(a, -1, -2).conj()
    for _ in range(niter):
        q = jnp.linalg.qr(jnp.matmul(ah, q))[0]
        q = jnp.linalg.qr(jnp.matmul(a, q))[0]
    return q


def _lowrank(key, a, q, niter):  # noqa: ANN001, ANN202
    """Randomized SVD of ``a`` ([*, m, n]) of rank ``q``: ``(U [*, m, q], S [*, q], V [*, n, q])``."""
    m, n = a.shape[-2], a.shape[-1]
    if m < n:  # sketch the smaller side: the SVD of a^H swaps U and V
        v, s, u = _lowrank(key, jnp.swapaxes(a, -1, -2).conj(), q, niter)
        return u, s, v
    real = jnp.finfo(a.dtype).dtype
    omega = jax.random.normal(key.astype(jnp.uint32), (*a.shape[:-2], n, q), real).astype(a.dtype)
    basis = _range_basis(a, omega, niter)
    u, s, vh = jnp.linalg.svd(jnp.matmul(jnp.swapaxes(basis, -1, -2).conj(), a), full_matrices=False)
    return jnp.matmul(basis, u), s, jnp.swapaxes(vh, -1, -2).conj()


@defop(("key", "x", "M"), saves=("x", "M"), nondiff=("key",), method=False)
def svd_lowrank_key(key, x, M=None, q=6, niter=2):  # noqa: N803
    """``svd_lowrank`` with its PRNG key (int64 [2]) as the first input: a rank-``q`` SVD of ``x - M`` (``M``
    broadcast to x) from a Gaussian sketch and ``niter`` power iterations: ``(U, S, V)``, ``x - M ~ U diag(S)
    V^H``."""
    a = x if M is None else x - jnp.broadcast_to(M, x.shape)
    return _lowrank(key, a, q, niter)


@defop(("key", "x"), saves=("x",), nondiff=("key",), method=False)
def pca_lowrank_key(key, x, q=6, center=True, niter=2):
    """``pca_lowrank`` with its PRNG key first: the rank-``q`` randomized SVD of ``x`` with each column's mean
    taken away (``center``)."""
    a = x - jnp.mean(x, axis=-2, keepdims=True) if center else x
    return _lowrank(key, a, q, niter)
