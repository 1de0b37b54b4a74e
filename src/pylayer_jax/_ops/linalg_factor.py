"""LU and Householder factorizations (``paddle.linalg.lu``, ``lu_unpack``, ``householder_product``, ``ormqr``).

JAX computes the factors (``jax.lax.linalg.lu``, ``householder_product``); Paddle's conventions are added on top:
1-based int32 pivots, LAPACK's ``info`` (the 1-based index of the first zero on U's diagonal, 0 if none), and
``lu_unpack``'s ``(P, L, U)`` with ``x = P @ L @ U``. JAX has no derivative for ``householder_product``, so its
tangent comes from the product of reflectors written out (``_reflectors``).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .checks import ValueCheck, dtype_of
from .linalg_checks import float_matrix, same_dtype
from .table import defop


def _lu_checks(op, a):  # noqa: ANN001, ANN202
    float_matrix(op, "x", a["x"])
    if not a["pivot"]:
        raise ValueError(f"{op}: pivot=False (LU without row exchanges) is not supported, as in Paddle on the CPU, "
                         "but received pivot=False. Call it with pivot=True and apply the returned pivots.")
    return []


@defop(1, saves=("x",), checks=_lu_checks)
def lu(x, pivot=True, get_infos=False):
    """LU factorization with partial pivoting: ``(LU, pivots)`` (``get_infos``: and ``infos``).

    ``LU`` holds U on and above the diagonal and L's entries below it (L's unit diagonal implied); ``pivots``
    (int32, 1-based, ``min(m, n)`` per matrix) says row i was swapped with row ``pivots[i]``; ``infos`` (int32,
    one per matrix) is the 1-based index of the first zero on U's diagonal, 0 for a non-singular factor.
    ``pivot`` is checked to be True (the factor always pivots).
    """
    factor, piv, _ = jax.lax.linalg.lu(x)
    pivots = (piv + 1).astype(jnp.int32)
    if not get_infos:
        return factor, pivots
    zero = jnp.diagonal(factor, axis1=-2, axis2=-1) == 0
    infos = jnp.where(jnp.any(zero, axis=-1), jnp.argmax(zero, axis=-1) + 1, 0).astype(jnp.int32)
    return factor, pivots, infos


def _lu_unpack_checks(op, a):  # noqa: ANN001, ANN202
    x, y = a["x"], a["y"]
    float_matrix(op, "x", x)
    dt = dtype_of(y)
    if dt is None or dt.name != "int32":
        raise ValueError(f"{op}: y (the pivots) must be an int32 tensor as paddle.linalg.lu returns, but received "
                         f"dtype {getattr(dt, 'name', type(y).__name__)}. Pass the pivots from paddle.linalg.lu, or "
                         "cast them with .astype('int32').")
    m = list(x.shape)[-2]
    if y.ndim < 1 or list(y.shape)[-1] > m:
        raise ValueError(f"{op}: y (the pivots) must have at most {m} entries per matrix (x has {m} rows), but "
                         f"received shape {list(y.shape)}. Pass the pivots paddle.linalg.lu returned for x.")
    return [ValueCheck(y, f"{op}: the pivot {{value}} is out of range: pivots are 1-based row numbers in [1, {m}]. "
                          "Pass the pivots paddle.linalg.lu returned for x.", lo=1, hi=m + 1)]


@defop(2, saves=("x",), nondiff=("y",), checks=_lu_unpack_checks)
def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True):
    """``(P, L, U)`` from ``lu``'s packed factor ``x`` and pivots ``y``, with ``A = P @ L @ U``.

    ``P`` is ``[*, m, m]`` (x's dtype), ``L`` is ``[*, m, k]`` with a unit diagonal and ``U`` is ``[*, k, n]``
    (``k = min(m, n)``); a part not asked for (``unpack_pivots`` / ``unpack_ludata`` False) is an empty ``[0]``
    float32 tensor, whatever x's dtype, as Paddle's.
    """
    m, n = x.shape[-2], x.shape[-1]
    k = min(m, n)
    empty = jnp.zeros((0,), jnp.float32)
    if unpack_ludata:
        lower = jnp.tril(x[..., :, :k], -1) + jnp.eye(m, k, dtype=x.dtype)
        upper = jnp.triu(x[..., :k, :])
    else:
        lower = upper = empty
    if unpack_pivots:
        perm = jax.lax.linalg.lu_pivots_to_permutation(y.astype(jnp.int32) - 1, m)
        # the rows of A, in the order L @ U has them, are A[perm]: so P has a one at (perm[i], i)
        p = jnp.swapaxes(jax.nn.one_hot(perm, m, dtype=x.dtype), -1, -2)
    else:
        p = empty
    return p, lower, upper


def _reflectors(x, tau):  # noqa: ANN001, ANN202
    """The first ``n`` columns of ``H_1 ... H_k`` written as jnp operations (differentiable): each ``H_i = I -
    tau_i v_i v_i^H`` applied to the identity's first columns, the last reflector first."""
    m, n = x.shape[-2], x.shape[-1]
    q = jnp.broadcast_to(jnp.eye(m, n, dtype=x.dtype), (*x.shape[:-2], m, n))
    rows = jnp.arange(m)
    for i in reversed(range(tau.shape[-1])):
        v = jnp.where(rows == i, jnp.asarray(1, x.dtype), jnp.where(rows > i, x[..., :, i], 0))
        w = jnp.einsum("...m,...mn->...n", v.conj(), q)
        q = q - tau[..., i, None, None] * v[..., :, None] * w[..., None, :]
    return q


@jax.custom_jvp
def _householder(x, tau):  # noqa: ANN001, ANN202
    return jax.lax.linalg.householder_product(x, tau)


@_householder.defjvp
def _householder_jvp(primals, tangents):  # noqa: ANN001, ANN202
    return _householder(*primals), jax.jvp(_reflectors, primals, tangents)[1]


def _householder_checks(op, a):  # noqa: ANN001, ANN202
    x, tau = a["x"], a["tau"]
    float_matrix(op, "x", x, exc=TypeError)
    same_dtype(op, ("x", x), ("tau", tau))
    xs, ts = list(x.shape), list(tau.shape)
    if len(ts) != len(xs) - 1 or ts[:-1] != xs[:-2]:
        raise ValueError(f"{op}: tau must have one dimension less than x and the same batch dimensions ([*, k] for "
                         f"x of [*, m, n]), but received x of shape {xs} and tau of shape {ts}.")
    if xs[-2] < xs[-1]:
        raise ValueError(f"{op}: x must have at least as many rows as columns (m >= n), but received shape {xs}. "
                         "Pass the packed reflectors of a QR factorization of a tall or square matrix.")
    if ts[-1] > xs[-1]:
        raise ValueError(f"{op}: tau must have at most as many entries as x has columns ({xs[-1]}), but received "
                         f"tau of shape {ts}.")
    return []


@defop(2, saves=("x", "tau"), checks=_householder_checks)
def householder_product(x, tau):
    """The first ``n`` columns of ``H_1 H_2 ... H_k`` for ``H_i = I - tau_i v_i v_i^H``, where ``v_i`` is column i
    of ``x`` below the diagonal with a 1 on it (the Q of a QR factorization from its packed form)."""
    return _householder(x, tau)


def _ormqr_checks(op, a):  # noqa: ANN001, ANN202
    x, tau, y = a["x"], a["tau"], a["y"]
    float_matrix(op, "x", x, exc=TypeError)
    float_matrix(op, "y", y, exc=TypeError)
    same_dtype(op, ("x", x), ("tau", tau), ("y", y))
    xs, ts, ys = list(x.shape), list(tau.shape), list(y.shape)
    if len(ts) != len(xs) - 1 or ts[:-1] != xs[:-2] or ys[:-2] != xs[:-2]:
        raise ValueError(f"{op}: x ([*, m, k]), tau ([*, r]) and y must have the same batch dimensions (tau one "
                         f"dimension less than x), but received shapes {xs}, {ts} and {ys}.")
    if ts[-1] > min(xs[-2:]):
        raise ValueError(f"{op}: tau must have at most min(m, k) = {min(xs[-2:])} entries for x of shape {xs}, but "
                         f"received tau of shape {ts}.")
    side, dim = ("rows", ys[-2]) if a["left"] else ("columns", ys[-1])
    if dim != xs[-2]:
        raise ValueError(f"{op}: with left={a['left']}, y must have as many {side} as x has rows ({xs[-2]}), as Q "
                         f"is {xs[-2]} x {xs[-2]}, but received y of shape {ys}.")
    return []


@defop(3, saves=("x", "tau", "y"), checks=_ormqr_checks)
def ormqr(x, tau, y, left=True, transpose=False):
    """``op(Q) @ y`` (``left=False``: ``y @ op(Q)``) for the full ``m x m`` Q of the reflectors ``(x, tau)``;
    ``op`` is the conjugate transpose with ``transpose=True``."""
    m = x.shape[-2]
    square = jnp.concatenate([x, jnp.zeros((*x.shape[:-1], m - x.shape[-1]), x.dtype)], axis=-1) \
        if x.shape[-1] < m else x[..., :m]
    q = _householder(square, tau)
    if transpose:
        q = jnp.swapaxes(q, -1, -2).conj()
    return jnp.matmul(q, y) if left else jnp.matmul(y, q)


def _lu_solve_checks(op, a):  # noqa: ANN001, ANN202
    b, lu, piv, trans = a["b"], a["lu"], a["pivots"], a["trans"]
    float_matrix(op, "lu", lu)
    float_matrix(op, "b", b)
    same_dtype(op, ("b", b), ("lu", lu))
    if trans not in ("N", "T", "C"):
        raise ValueError(f"{op}: trans must be 'N', 'T' or 'C', but received {trans!r}.")
    ls, bs = list(lu.shape), list(b.shape)
    if ls[-1] != ls[-2] or bs[-2] != ls[-1]:
        raise ValueError(f"{op}: lu must be a square factor [*, n, n] and b [*, n, k] with as many rows, but received "
                         f"lu of shape {ls} and b of shape {bs}.")
    dt = dtype_of(piv)
    if dt is None or dt.name != "int32" or list(piv.shape) != ls[:-1]:
        raise ValueError(f"{op}: pivots must be the int32 [*, n] pivots paddle.linalg.lu returned, but received "
                         f"{getattr(dt, 'name', type(piv).__name__)} of shape {list(getattr(piv, 'shape', []))}.")
    try:
        jnp.broadcast_shapes(tuple(ls[:-2]), tuple(bs[:-2]))
    except ValueError:
        raise ValueError(f"{op}: the batch dimensions of lu {ls[:-2]} and b {bs[:-2]} must broadcast together.") \
            from None
    n = ls[-1]
    return [ValueCheck(piv, f"{op}: the pivot {{value}} is out of range: pivots are 1-based row numbers in [1, {n}]. "
                            "Pass the pivots paddle.linalg.lu returned.", lo=1, hi=n + 1)]


@defop(("b", "lu", "pivots"), saves=("b", "lu", "pivots"), nondiff=("pivots",), method=False, checks=_lu_solve_checks)
def lu_solve(b, lu, pivots, trans="N"):
    """The solution ``x`` of ``A x = b`` ('N'), ``A^T x = b`` ('T') or ``A^H x = b`` ('C') from ``lu``'s factor of
    ``A`` and its 1-based pivots (batches broadcast)."""
    batch = jnp.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    n = lu.shape[-1]
    lu = jnp.broadcast_to(lu, (*batch, n, n))
    b = jnp.broadcast_to(b, (*batch, *b.shape[-2:]))
    perm = jax.lax.linalg.lu_pivots_to_permutation(jnp.broadcast_to(pivots, (*batch, n)).astype(jnp.int32) - 1, n)
    return _lu_solve_perm(lu, perm, b, trans)


def _lu_solve_perm(lu, perm, b, trans):  # noqa: ANN001, ANN202
    """``A x = b`` (or its transpose) for ``P A = L U`` with the row order ``perm`` (``A[perm] = L @ U``)."""
    tri = jax.scipy.linalg.solve_triangular
    if trans == "N":
        pb = jnp.take_along_axis(b, perm[..., :, None], axis=-2)
        y = tri(lu, pb, lower=True, unit_diagonal=True)
        return tri(lu, y, lower=False)
    conj = trans == "C"
    y = tri(lu, b, lower=False, trans=2 if conj else 1)
    z = tri(lu, y, lower=True, unit_diagonal=True, trans=2 if conj else 1)
    inv = jnp.argsort(perm, axis=-1)
    return jnp.take_along_axis(z, inv[..., :, None], axis=-2)
