"""Linear algebra: products, decompositions, solves (Paddle's ``paddle.linalg`` family).

Products save both factors (their derivative reads each); ``inverse`` saves its output
with an explicit rule; decompositions save their input and let JAX derive the backward.
"""

from __future__ import annotations

import jax.numpy as jnp
import jax.scipy.linalg as jsl
from jax import lax
from jax.scipy.linalg import solve_triangular

from ._util import as_float
from .checks import ValueCheck, square_matrix
from .linalg_checks import (
    cholesky_checks,
    float_matrix,
    inverse_checks,
    matrix_power_checks,
    solve_checks,
    triangular_solve_checks,
)
from .rows import MAP, off_axes
from .table import defop


@defop(2, saves=("x", "y"), rows=MAP, axes=off_axes(lambda a: (-2 if a["transpose_x"] else -1,)))
def matmul(x, y, transpose_x=False, transpose_y=False):
    """Matrix product with optional transposes of the last two axes."""
    if transpose_x and x.ndim >= 2:
        x = jnp.swapaxes(x, -1, -2)
    if transpose_y and y.ndim >= 2:
        y = jnp.swapaxes(y, -1, -2)
    return jnp.matmul(x, y)


@defop(2, saves=("input", "mat2"))
def mm(input, mat2):
    """Matrix product (broadcasting like matmul)."""
    return jnp.matmul(input, mat2)


@defop(2, saves=("x", "y"))
def bmm(x, y):
    """Batched matrix product of two 3-D tensors."""
    if x.ndim != 3 or y.ndim != 3:
        raise ValueError(f"bmm: both inputs must be 3-D, but received shapes {list(x.shape)} and {list(y.shape)}.")
    return jnp.matmul(x, y)


def _dot_checks(op, a):  # noqa: ANN001, ANN202
    xs, ys = list(getattr(a["x"], "shape", ())), list(getattr(a["y"], "shape", ()))
    if xs != ys or len(xs) not in (1, 2):
        # Paddle's error for this is a RuntimeError (mirrored)
        raise RuntimeError(
            f"{op}: x and y must be 1-D or 2-D tensors of the same shape, but received shapes {xs} and {ys}. "
            "Pass vectors of equal length (or matrices of equal shape for row-wise products)."
        )
    return []


@defop(2, saves=("x", "y"), checks=_dot_checks)
def dot(x, y):
    """Dot product of 1-D tensors, or row-wise of 2-D tensors, in the inputs' dtype (int32 stays int32, as in
    Paddle)."""
    return jnp.sum(x * y, axis=-1, dtype=None if x.dtype == jnp.bool_ else jnp.result_type(x, y))


@defop(2, saves=("x", "y"))
def inner(x, y):
    """Sum of products over the last axes."""
    return jnp.inner(x, y)


@defop(2, saves=("x", "y"))
def outer(x, y):
    """Outer product of the flattened inputs."""
    return jnp.outer(x, y)


@defop(1, saves=("operands",), method=False, name="einsum_operands")
def einsum(operands, equation):
    """Einstein summation (operands first; the public ``einsum(equation, *operands)`` puts the equation first)."""
    shapes = [list(o.shape) for o in operands]
    segments = equation.split("->")[0].count(",") + 1
    if segments != len(operands):
        raise AssertionError(f"einsum: the equation {equation!r} names {segments} operands, but {len(operands)} were "
                             f"given (shapes {shapes}); pass one tensor per comma-separated term.")
    try:
        return jnp.einsum(equation, *operands)
    except ValueError as e:
        raise ValueError(f"einsum: the equation {equation!r} does not fit the operands of shapes {shapes}: {e}") from None


@defop(2, saves=("x", "y"))
def kron(x, y):
    """Kronecker product."""
    return jnp.kron(x, y)


def _cross_checks(op, a):  # noqa: ANN001, ANN202
    x, y, axis = a["x"], a["y"], a["axis"]
    if axis == 9 or not isinstance(axis, int):
        return []
    for name, t in (("x", x), ("y", y)):
        shape = list(t.shape)
        if not -len(shape) <= axis < len(shape):
            raise IndexError(f"{op}: axis {axis} is out of range for the {len(shape)}-D {name} of shape {shape}; it "
                             f"must be in [-{len(shape)}, {len(shape)}).")
        if shape[axis] != 3:
            raise ValueError(f"{op}: the cross product needs size 3 along axis {axis}, but {name} has shape {shape}; "
                             "pass the axis of the 3-vectors.")
    return []


_cross_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(2, saves=("x", "y"), checks=_cross_checks)
def cross(x, y, axis=9):
    """Cross product along ``axis`` (default: the first axis of size 3)."""
    if axis == 9:
        axis = next((i for i, d in enumerate(x.shape) if d == 3), None)
        if axis is None:
            raise ValueError(f"cross: no axis of size 3 in shape {list(x.shape)}; pass axis explicitly.")
    return jnp.cross(x, y, axis=axis)


def _square_checks(op, a):  # noqa: ANN001, ANN202
    square_matrix(op, a["x"])
    return []


@defop(1, saves=("out",), vjp=lambda s, g: -jnp.swapaxes(s["out"], -1, -2) @ g @ jnp.swapaxes(s["out"], -1, -2),
       checks=_square_checks, out_checks=inverse_checks)
def inverse(x):
    """Matrix inverse (batched).

    A singular matrix (its LU factorization meets a zero pivot, or a NaN) is a ValueError in an eager call, as in
    Paddle; traced (jax.jit, to_static, a static program) its inverse holds inf / NaN instead."""
    return jnp.linalg.inv(x)


@defop(1, saves=("x",), out_checks=cholesky_checks)
def cholesky(x, upper=False):
    """Cholesky factor: lower ``L`` with ``x = L L^T`` (``upper=True``: ``U = L^T``).

    Only the lower triangle of ``x`` is read (the upper one with ``upper=True``), as Paddle's kernel reads it; the
    gradient is the symmetric one. A matrix that is not positive definite is a ValueError in an eager call, as in
    Paddle; traced (jax.jit, to_static, a static program) its factor holds NaN instead."""
    lower = jnp.linalg.cholesky(_hermitian_from(x, "U" if upper else "L"))
    return jnp.swapaxes(lower, -1, -2).conj() if upper else lower


@defop(1, saves=("x",), checks=_square_checks)
def det(x):
    """Determinant (batched)."""
    return jnp.linalg.det(x)


@defop(1, saves=("x",))
def slogdet(x):
    """Sign and log-absolute-determinant, stacked into one tensor of shape ``[2, *batch]``."""
    sign, logabs = jnp.linalg.slogdet(x)
    if jnp.iscomplexobj(sign):  # (a complex sign: both complex, as Paddle's)
        return jnp.stack([sign, logabs.astype(sign.dtype)])
    return jnp.stack([sign.astype(logabs.dtype), logabs])


@defop(2, saves=("x", "y"), out_checks=solve_checks)
def solve(x, y, left=True):
    """Solve ``x @ out = y`` (or ``out @ x = y`` with left=False).

    A singular ``x`` (its LU factorization meets a zero pivot, or a NaN) is a ValueError in an eager call, as in
    Paddle; traced (jax.jit, to_static, a static program) the solution holds inf / NaN instead."""
    if not left:
        if y.ndim == 1:
            raise ValueError(f"solve: with left=False (out @ x = y) y must be a matrix [*, k, n], but received the "
                             f"vector of shape {list(y.shape)}; pass y[None, :] for one row.")
        return jnp.swapaxes(jnp.linalg.solve(jnp.swapaxes(x, -1, -2), jnp.swapaxes(y, -1, -2)), -1, -2)
    if y.ndim == 1 or (y.ndim == x.ndim - 1 and y.shape == x.shape[:-1]):  # (batches of) vectors, as Paddle
        return jnp.linalg.solve(x, y[..., None])[..., 0]
    return jnp.linalg.solve(x, y)


@defop(2, saves=("x", "y"), method=False, checks=triangular_solve_checks)
def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False):
    """Solve ``x @ out = y`` for a triangular ``x``."""
    return solve_triangular(x, y, trans=1 if transpose else 0, lower=not upper, unit_diagonal=unitriangular)


@defop(1, saves=("x",))
def qr(x, mode="reduced"):
    """QR decomposition: (Q, R), or only R with mode='r'."""
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', but received {mode!r}.")
    return jnp.linalg.qr(x, mode=mode) if mode == "r" else tuple(jnp.linalg.qr(x, mode=mode))


@defop(1, saves=("x",), method=False)
def svd(x, full_matrices=False):
    """Singular value decomposition ``(U, S, VH)`` with ``x = U diag(S) VH``."""
    return tuple(jnp.linalg.svd(x, full_matrices=full_matrices))


@defop(1, saves=("x",))
def eig(x):
    """Eigenvalues and eigenvectors of a general matrix (complex; CPU only)."""
    return tuple(jnp.linalg.eig(x))


@defop(1, saves=("x",))
def eigvals(x):
    """Eigenvalues of a general matrix (complex; CPU only)."""
    return jnp.linalg.eigvals(x)


def _uplo_checks(op, a):  # noqa: ANN001, ANN202
    if a["UPLO"] not in ("L", "U"):
        raise ValueError(f"{op}: UPLO must be 'L' (use the lower triangle) or 'U' (the upper one), but received "
                         f"{a['UPLO']!r}.")
    return []


_uplo_checks.attrs_only = True  # type: ignore[attr-defined]


def _hermitian_from(x, uplo):  # noqa: ANN001, ANN202
    """The Hermitian matrix LAPACK reads from ``x``: its ``uplo`` triangle mirrored (the other one ignored), the real
    part of the diagonal. Its gradient passes to ``x`` unchanged, so that ``x`` gets the symmetric gradient of the
    eigen decomposition in both triangles (Paddle's)."""
    tri = jnp.tril(x, -1) if uplo == "L" else jnp.triu(x, 1)
    d = jnp.real(jnp.diagonal(x, axis1=-2, axis2=-1)).astype(x.dtype)
    h = tri + jnp.conj(jnp.swapaxes(tri, -1, -2)) + d[..., None] * jnp.eye(x.shape[-1], dtype=x.dtype)
    return x + lax.stop_gradient(h - x)


@defop(1, saves=("x",), method=False, checks=_uplo_checks)
def eigh(x, UPLO="L"):  # noqa: N803
    """Eigenvalues (ascending) and eigenvectors of a symmetric / Hermitian matrix, read from its ``UPLO`` triangle
    (as LAPACK: the other triangle is not looked at)."""
    return tuple(jnp.linalg.eigh(_hermitian_from(x, UPLO)))


@defop(1, saves=("x",), checks=_uplo_checks)
def eigvalsh(x, UPLO="L"):  # noqa: N803
    """Eigenvalues (ascending) of a symmetric / Hermitian matrix, read from its ``UPLO`` triangle."""
    return jnp.linalg.eigvalsh(_hermitian_from(x, UPLO))


@defop(1, saves=("x",))
def pinv(x, rcond=1e-15, hermitian=False):
    """Moore-Penrose pseudo-inverse."""
    return jnp.linalg.pinv(x, rtol=rcond, hermitian=hermitian)


@defop(1, saves=("x",), out_checks=matrix_power_checks)
def matrix_power(x, n):
    """``x`` to the integer power ``n`` (negative: powers of the inverse).

    A negative ``n`` of a singular matrix is a ValueError in an eager call, as in Paddle; traced (jax.jit,
    to_static, a static program) the result holds inf / NaN instead."""
    return jnp.linalg.matrix_power(x, n)


@defop(1, saves=("x",), differentiable=False)
def matrix_rank(x, tol=None, hermitian=False, atol=None, rtol=None):
    """Number of singular values above the tolerance (int64)."""
    s = jnp.abs(jnp.linalg.eigvalsh(x)) if hermitian else jnp.linalg.svd(x, compute_uv=False)
    smax = jnp.max(s, axis=-1, keepdims=True)

    def per_matrix(t):  # noqa: ANN001, ANN202  (a tolerance tensor holds one value per matrix of the batch)
        t = jnp.asarray(t, s.dtype)
        return t[..., None] if t.ndim else t

    if tol is not None:
        thresh = per_matrix(tol)
    elif atol is not None or rtol is not None:
        a = 0.0 if atol is None else per_matrix(atol)
        r = 0.0 if rtol is None else per_matrix(rtol)
        thresh = jnp.maximum(a, r * smax)
    else:
        thresh = smax * max(x.shape[-2:]) * jnp.finfo(s.dtype).eps
    return jnp.sum(s > thresh, axis=-1).astype(jnp.int64)


@defop(1, saves=("x",), method=True)
def multi_dot(x):
    """Product of a list of matrices, in the cheapest order (the first and last may be 1-D vectors)."""
    if not isinstance(x, (list, tuple)) or len(x) < 2:
        got = f"a list of {len(x)}" if isinstance(x, (list, tuple)) else f"a single {type(x).__name__}"
        raise ValueError(f"multi_dot: x must be a list of at least 2 tensors, but received {got}; "
                         "multiply a single tensor by itself with paddle.matmul or pass the whole chain.")
    return jnp.linalg.multi_dot(list(x))


@defop(2, saves=("x", "y"))
def dist(x, y, p=2):
    """p-norm of ``x - y`` (p = 0 counts non-zeros, inf / -inf take max / min)."""
    d = x - y
    d = d * jnp.sign(d)  # |x - y|, its gradient 0 where x == y (as Paddle's; jnp.abs's is 1 there)
    if p == 0:
        return jnp.sum(d != 0).astype(d.dtype)
    if p in (float("inf"), float("-inf")):  # every element at the extreme gets the whole gradient, as Paddle's (not a share of it)
        m = lax.stop_gradient(jnp.max(d) if p > 0 else jnp.min(d))
        return m + jnp.sum(jnp.where(d == m, d - m, 0))
    n = jnp.sum(d**p)
    # at x == y the gradient is 0, as in Paddle (the root's derivative at 0 made it NaN)
    return jnp.where(n > 0, jnp.where(n > 0, n, 1) ** (1.0 / p), 0).astype(d.dtype)


_CDIST_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")


@defop(2, saves=("x", "y"))
def cdist(x, y, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """p-norm distances between the rows of ``x`` and of ``y`` (batched).

    For ``p=2`` the ``compute_mode`` picks Paddle's form: ``|x|^2 - 2 x.y + |y|^2`` by a matrix product
    (always with 'use_mm_for_euclid_dist', with '..._if_necessary' when either side has more than 25
    rows), else the direct difference; the two round differently.
    """
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"cdist: compute_mode must be one of {', '.join(map(repr, _CDIST_MODES))}, but received "
                         f"{compute_mode!r}.")
    if x.shape[-1] != y.shape[-1]:
        raise AssertionError(f"cdist: x and y must have the same last dimension, but received shapes {list(x.shape)} "
                             f"and {list(y.shape)}; their rows must be vectors of one size.")
    mm = compute_mode == _CDIST_MODES[1] or (compute_mode == _CDIST_MODES[0] and (x.shape[-2] > 25 or y.shape[-2] > 25))
    if p == 2.0 and mm:
        xn = jnp.sum(x * x, axis=-1, keepdims=True)
        yn = jnp.swapaxes(jnp.sum(y * y, axis=-1, keepdims=True), -1, -2)
        sq = jnp.maximum(jnp.matmul(x, jnp.swapaxes(y, -1, -2)) * -2 + yn + xn, 0)
        pos = sq > 0  # safe sqrt, as below
        return jnp.where(pos, jnp.sqrt(jnp.where(pos, sq, 1.0)), 0.0).astype(sq.dtype)
    d = jnp.abs(x[..., :, None, :] - y[..., None, :, :])
    if p == 0:
        return jnp.sum(d != 0, axis=-1).astype(d.dtype)
    if p == float("inf"):
        return jnp.max(d, axis=-1)
    if p == 2.0:
        # safe sqrt: zero distance has a zero (not NaN) gradient
        sq = jnp.sum(d * d, axis=-1)
        pos = sq > 0
        return jnp.where(pos, jnp.sqrt(jnp.where(pos, sq, 1.0)), 0.0)
    return jnp.sum(d**p, axis=-1) ** (1.0 / p)


def _cov_checks(op, a):  # noqa: ANN001, ANN202
    x = a["x"]
    shape = list(getattr(x, "shape", ()))
    if not 1 <= len(shape) <= 2:
        raise ValueError(f"{op}: x must be 1-D or 2-D (variables by observations), but received shape {shape}.")
    n = shape[-1] if a["rowvar"] or len(shape) == 1 else shape[0]
    found = []
    for w in ("fweights", "aweights"):
        t = a[w]
        if t is None:
            continue
        ws = list(getattr(t, "shape", ()))
        if len(ws) > 1 or (ws and ws[0] != n):
            raise ValueError(f"{op}: {w} must be a 1-D tensor of one weight per observation ({n}), but received shape "
                             f"{ws}.")
        found.append(ValueCheck(t, f"{op}: {w} must not be negative, but received {{value}}.", lo=0))
    return found


@defop(("x", "fweights", "aweights"), saves=("x", "fweights", "aweights"), nondiff=("fweights",), method=False,
       checks=_cov_checks)
def cov(x, fweights=None, aweights=None, rowvar=True, ddof=True):
    """Covariance matrix of the variables (rows, or columns with rowvar=False)."""
    return jnp.cov(as_float(x), rowvar=rowvar, ddof=1 if ddof else 0, fweights=fweights, aweights=aweights)


@defop(1, saves=("x",))
def corrcoef(x, rowvar=True):
    """Pearson correlation coefficients of the variables."""
    return jnp.corrcoef(as_float(x), rowvar=rowvar)


def _square_float_checks(op, a):  # noqa: ANN001, ANN202
    x = a["x"]
    float_matrix(op, "x", x)
    if list(x.shape)[-1] != list(x.shape)[-2]:
        raise ValueError(f"{op}: x must be a square matrix or a batch of them ([*, n, n]), but received shape "
                         f"{list(x.shape)}.")
    return []


@defop(1, saves=("x",), method=False, checks=_square_float_checks)
def matrix_exp(x):
    """The matrix exponential ``sum_k x^k / k!`` of a square matrix (batched)."""
    return jsl.expm(x)


def _svdvals_checks(op, a):  # noqa: ANN001, ANN202
    float_matrix(op, "x", a["x"])
    return []


@defop(1, saves=("x",), method=False, checks=_svdvals_checks)
def svdvals(x):
    """The singular values of ``x`` in descending order (``[*, min(m, n)]``)."""
    return jnp.linalg.svd(x, compute_uv=False)


def _vecdot_checks(op, a):  # noqa: ANN001, ANN202
    xs, ys = tuple(a["x"].shape), tuple(a["y"].shape)
    try:
        shape = jnp.broadcast_shapes(xs, ys)
    except ValueError:
        raise ValueError(f"{op}: x and y must broadcast together, but received shapes {list(xs)} and {list(ys)}.") \
            from None
    if not shape or not -len(shape) <= a["axis"] < len(shape):
        raise ValueError(f"{op}: axis {a['axis']} is out of range for the broadcast shape {list(shape)}.")
    return []


@defop(2, saves=("x", "y"), method=False, checks=_vecdot_checks)
def vecdot(x, y, axis=-1):
    """The dot product ``sum(conj(x) * y)`` along ``axis`` of the broadcast ``x`` and ``y``."""
    return jnp.sum(jnp.conj(x) * y, axis=axis)
