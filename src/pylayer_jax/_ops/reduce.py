"""Reductions over axes: sums, means, extrema, statistics, norms, truth tests, and scans.

Paddle's dtype rules: ``sum`` of bools and int32 gives int64 (int8, uint8, int16 and int64 keep theirs);
``nansum``/``cumsum`` of integers or bools give int64;
``mean`` of integers keeps the integer dtype (truncating); ``prod``/``max``/``cumprod``
keep the dtype; statistics (``std``, ``var``, ``logsumexp``, ``norm``) on integers give
float32. ``max``/``min``/``amax``/``amin`` split the gradient evenly between ties.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .._runtime import dtypes as _dtypes
from ._promote import autocast
from ._util import axis_arg, dtype_arg
from .checks import axis_check, ndim_of
from .rows import reduce_axes, reduce_rule
from .table import OUT, defop


def _int_sum_dtype(x, dtype):
    dt = dtype_arg(dtype)
    if dt is None and not jnp.issubdtype(x.dtype, jnp.inexact):
        dt = jnp.int64
    return dt


def _sum_dtype(x, dtype):
    """``sum``'s, as Paddle's: bool and int32 sum to int64; int8, uint8, int16 and int64 keep their dtype (jnp would
    widen the small ones to int64 and uint8 to uint64)."""
    dt = dtype_arg(dtype)
    if dt is None and not jnp.issubdtype(x.dtype, jnp.inexact):
        dt = jnp.int64 if x.dtype in (jnp.bool_, jnp.int32) else x.dtype
    return dt


def _keep_int(x, dtype):
    """An explicit dtype, else x's own (jnp would widen int32 products to int64)."""
    if dtype is not None:
        return dtype_arg(dtype)
    return None if x.dtype == jnp.bool_ else x.dtype


def _sum_checks(op, a):  # noqa: ANN001, ANN202
    axis_check(op, a["axis"], ndim_of(a["x"]))
    if a["dtype"] is not None:
        try:
            _dtypes.to_np(a["dtype"])
        except TypeError as e:  # Paddle's error for an unknown dtype here is a ValueError
            raise ValueError(f"{op}: dtype {a['dtype']!r} is unknown. {e}") from None
    return []


_sum_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, name="sum", checks=_sum_checks, rows=reduce_rule("sum"), axes=reduce_axes("sum"))
def sum_(x, axis=None, dtype=None, keepdim=False):
    """Sum over ``axis`` (all axes when None) in Paddle's result dtype (``_sum_dtype``)."""
    return jnp.sum(x, axis=axis_arg(axis), dtype=_sum_dtype(x, dtype), keepdims=keepdim)


@defop(1, saves=("x",), name="nansum")
def nansum(x, axis=None, dtype=None, keepdim=False):
    """Sum over ``axis`` treating NaN as 0."""
    return jnp.nansum(x, axis=axis_arg(axis), dtype=_int_sum_dtype(x, dtype), keepdims=keepdim)


@defop(1, rows=reduce_rule("mean"), axes=reduce_axes("mean"))
def mean(x, axis=None, keepdim=False):
    """Mean over ``axis``; an integer (or bool) input keeps its dtype, truncating like Paddle."""
    if jnp.issubdtype(x.dtype, jnp.inexact):
        return jnp.mean(x, axis=axis_arg(axis), keepdims=keepdim)
    return jnp.mean(x.astype(jnp.float64), axis=axis_arg(axis), keepdims=keepdim).astype(x.dtype)


@defop(1, saves=("x",))
def nanmean(x, axis=None, keepdim=False):
    """Mean over ``axis`` ignoring NaN."""
    return jnp.nanmean(autocast(x), axis=axis_arg(axis), keepdims=keepdim)


def _reduced(ax, ndim):  # noqa: ANN001, ANN202
    """The reduced axes (non-negative) of an ``axis_arg`` over ``ndim`` dims."""
    if ax is None:
        return tuple(range(ndim))
    return tuple(a % ndim for a in (ax if isinstance(ax, tuple) else (ax,)))


def _extreme(name, f, doc):
    def fn(x, axis=None, keepdim=False):
        out = f(x, axis=axis_arg(axis), keepdims=keepdim)
        if not jnp.issubdtype(x.dtype, jnp.floating):
            return out
        # a NaN result (a NaN in the slice) gives every element of its slice a NaN gradient, as Paddle's; the tie
        # rule would give them none (no element equals NaN). The added term is 0 elsewhere, and so is its gradient
        m = jnp.where(jnp.isnan(jax.lax.stop_gradient(out)), jnp.nan, 0).astype(x.dtype)
        ax = axis_arg(axis)
        mk = m if keepdim or ax is None and m.ndim == x.ndim else jnp.expand_dims(m, _reduced(ax, x.ndim))
        return jnp.where(m == 0, out, out + jnp.sum(x * mk, axis=ax, keepdims=keepdim))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return defop(1, saves=("x",), name=name)(fn)


_extreme("max", jnp.max, "Maximum over ``axis``; tied maxima share the gradient evenly.")
_extreme("min", jnp.min, "Minimum over ``axis``; tied minima share the gradient evenly.")
_extreme("amax", jnp.max, "Maximum over ``axis``; tied maxima share the gradient evenly.")
_extreme("amin", jnp.min, "Minimum over ``axis``; tied minima share the gradient evenly.")


@defop(1, saves=("x",))
def prod(x, axis=None, keepdim=False, dtype=None):
    """Product over ``axis``, keeping the dtype unless ``dtype`` is given."""
    return jnp.prod(x, axis=axis_arg(axis), keepdims=keepdim, dtype=_keep_int(x, dtype))


def _arg_checks(op, a):  # noqa: ANN001, ANN202
    axis_check(op, a.get("axis"), ndim_of(a["x"]), "axis")
    dt = a.get("dtype")
    if dt is not None and dtype_arg(dt) not in (jnp.int32, jnp.int64):
        raise ValueError(f"{op}: dtype must be 'int32' or 'int64' (the dtype of the indices), but received {dt!r}.")
    return []


_arg_checks.attrs_only = True  # type: ignore[attr-defined]


def _arg(name, f, doc, skip):
    def fn(x, axis=None, keepdim=False, dtype="int64"):
        if jnp.issubdtype(x.dtype, jnp.floating):
            # Paddle skips NaN: a NaN never wins, and where nothing beats -inf (argmax) or inf (argmin), as in an
            # all-NaN row, the answer is index 0; a NaN read as that bound gives exactly this
            x = jnp.where(jnp.isnan(x), jnp.asarray(skip, x.dtype), x)
        if axis is None and keepdim:
            r = f(jnp.reshape(x, (-1,)), axis=0).reshape((1,) * x.ndim)
        else:
            r = f(x, axis=axis, keepdims=keepdim)
        return r.astype(dtype_arg(dtype))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return defop(1, name=name, differentiable=False, checks=_arg_checks)(fn)


_arg("argmax", jnp.argmax, "Index of the first maximum along ``axis`` (of the flattened tensor when None); NaN is "
     "skipped, as in Paddle (an all-NaN row gives 0).", float("-inf"))
_arg("argmin", jnp.argmin, "Index of the first minimum along ``axis`` (of the flattened tensor when None); NaN is "
     "skipped, as in Paddle (an all-NaN row gives 0).", float("inf"))


@defop(1, saves=("x",))
def logsumexp(x, axis=None, keepdim=False):
    """``log(sum(exp(x)))`` over ``axis``, computed stably."""
    return jax.nn.logsumexp(autocast(x), axis=axis_arg(axis), keepdims=keepdim)


@defop(1, saves=("x",))
def var(x, axis=None, unbiased=None, keepdim=False, correction=1):
    """Variance over ``axis``: divides by ``N - correction`` (``unbiased=False`` means ``N``)."""
    ddof = correction if unbiased is None else (1 if unbiased else 0)
    if jnp.issubdtype(x.dtype, jnp.integer):
        return _int_var(x, axis, ddof, keepdim)
    return jnp.var(autocast(x), axis=axis_arg(axis), ddof=ddof, keepdims=keepdim)


def _int_var(x, axis, ddof, keepdim):  # noqa: ANN001, ANN202
    """Paddle's variance of an integer tensor, in its dtype: the mean truncated to an integer (as ``mean``), the
    squared deviations summed in the dtype, divided in float32 by ``N - ddof`` and truncated again (``[1, 2, 4]``
    gives 2, not 2.33)."""
    ax = axis_arg(axis)
    u = jnp.mean(x.astype(jnp.float64), axis=ax, keepdims=True).astype(x.dtype)
    s = jnp.sum((x - u) ** 2, axis=ax, keepdims=keepdim, dtype=x.dtype)
    n = max(x.size // max(s.size, 1) - ddof, 0)
    return (s.astype(jnp.float32) / jnp.float32(n)).astype(x.dtype)


@defop(1, saves=("x",))
def std(x, axis=None, unbiased=True, keepdim=False):
    """Standard deviation over ``axis`` (divides by ``N - 1`` unless ``unbiased=False``); of an integer tensor,
    the float32 square root of its (truncated) integer variance, as Paddle."""
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.sqrt(_int_var(x, axis, 1 if unbiased else 0, keepdim).astype(jnp.float32))
    return jnp.std(autocast(x), axis=axis_arg(axis), ddof=1 if unbiased else 0, keepdims=keepdim)


@defop(1, differentiable=False)
def all(x, axis=None, keepdim=False):
    """True when every element over ``axis`` is nonzero."""
    return jnp.all(x.astype(bool), axis=axis_arg(axis), keepdims=keepdim)


@defop(1, differentiable=False)
def any(x, axis=None, keepdim=False):
    """True when some element over ``axis`` is nonzero."""
    return jnp.any(x.astype(bool), axis=axis_arg(axis), keepdims=keepdim)


@defop(1, differentiable=False)
def count_nonzero(x, axis=None, keepdim=False):
    """The number of nonzero elements over ``axis`` (int64)."""
    return jnp.sum(x != 0, axis=axis_arg(axis), keepdims=keepdim, dtype=jnp.int64)


@defop(1, differentiable=False)
def numel(x):
    """The number of elements, as a 0-D int64 tensor."""
    return jnp.asarray(x.size, jnp.int64)


# ---- norm ---------------------------------------------------------------------------------
def _norm_axes(x, axis):
    ax = axis_arg(axis)
    if ax is None:
        return tuple(range(x.ndim))
    return tuple(a % x.ndim for a in ax) if isinstance(ax, tuple) else (ax % x.ndim,)


_MATRIX_ORDERS = ("fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf"))


def _vector_p(p, api):
    """``p`` of a vector norm as a float (refusing a string, as Paddle does)."""
    if isinstance(p, str) or isinstance(p, bool) or not isinstance(p, int | float):
        raise ValueError(
            f"{api}: a vector norm takes a number for p (such as 2, 1, 0, inf or -inf), but received {p!r}. "
            "Use matrix_norm for 'fro' and 'nuc'."
        )
    return float(p)


def _ints_only(items):
    """Whether every item is an int (``any``/``all`` are ops in this module)."""
    return [isinstance(a, int) and not isinstance(a, bool) for a in items].count(False) == 0


def _matrix_axes(x, axis, api):
    """The two distinct axes (in the order given) a matrix norm reduces over."""
    ax = list(axis) if isinstance(axis, list | tuple) else None
    if ax is None or len(ax) != 2 or not _ints_only(ax):
        raise ValueError(
            f"{api}: a matrix norm needs axis to name exactly two dimensions, but received axis={axis!r}. "
            "Pass axis=[-2, -1]."
        )
    if x.ndim < 2:
        raise ValueError(
            f"{api}: a matrix norm needs an input of at least 2 dimensions, but it has {x.ndim} "
            f"(shape {list(x.shape)}). Use vector_norm for a 1-D input."
        )
    a, b = (_ax % x.ndim if -x.ndim <= _ax < x.ndim else None for _ax in ax)
    if a is None or b is None or a == b:
        raise ValueError(
            f"{api}: axis must name two different dimensions of the {x.ndim}-D input, but received {ax}. "
            "Pass two distinct axes in range."
        )
    return a, b


def _matrix_p(p, api):
    if isinstance(p, bool) or p not in _MATRIX_ORDERS:
        raise ValueError(
            f"{api}: a matrix norm takes p in 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, but received {p!r}. "
            "Use vector_norm for other orders."
        )
    return p if isinstance(p, str) else float(p)


def _norm_plan(x, p, axis):
    """How ``norm`` reads its arguments, as Paddle does: ``("vector", p, axis)`` or ``("matrix", p, axes)``.

    A string ``p`` other than 'fro' over at most one axis is a matrix norm (over every axis when axis is None);
    a number ``p`` (None is 2) over a list of two axes is a matrix norm, so ``p=None`` with two axes is the
    spectral norm; everything else is a vector norm (a one-entry axis list is that axis)."""
    if isinstance(axis, list | tuple):
        axis = axis[0] if len(axis) == 1 else list(axis)
    if isinstance(p, str):
        if p == "fro" and (axis is None or isinstance(axis, int)):
            return "vector", 2.0, axis
        return "matrix", _matrix_p(p, "norm"), _matrix_axes(x, list(range(x.ndim)) if axis is None else axis,
                                                            "norm")
    p = 2.0 if p is None else p
    if isinstance(axis, list) and len(axis) == 2:
        return "matrix", _matrix_p(p, "norm"), _matrix_axes(x, axis, "norm")
    return "vector", _vector_p(p, "norm"), axis


def _vector(x, p, axis, keepdim):
    axes, a = _norm_axes(x, axis), jnp.abs(x)
    if p == float("inf"):
        return jnp.max(a, axis=axes, keepdims=keepdim)
    if p == float("-inf"):
        return jnp.min(a, axis=axes, keepdims=keepdim)
    if p == 0:
        return jnp.sum((a != 0).astype(x.dtype), axis=axes, keepdims=keepdim)
    if p == 2:
        return jnp.sqrt(jnp.sum(a * a, axis=axes, keepdims=keepdim))
    return jnp.sum(a**p, axis=axes, keepdims=keepdim) ** (1.0 / p)


def _vector_vjp(x, out, g, p, axis, keepdim):
    """In JAX's convention, which for a complex x is the conjugate of Paddle's gradient ``x / |x|``-like: the
    formulas read ``conj(x)`` (x itself when real)."""
    axes = _norm_axes(x, axis)
    x = jnp.conj(x) if jnp.iscomplexobj(x) else x
    if not keepdim:
        out, g = jnp.expand_dims(out, axes), jnp.expand_dims(g, axes)
    if p in (float("inf"), float("-inf")):
        # every element attaining the extreme gets the full gradient, as in Paddle
        return g * jnp.sign(x) * (jnp.abs(x) == out)
    if p == 0:
        return jnp.zeros_like(x)
    safe = jnp.where(out == 0, 1, out)
    if p == 2:
        return jnp.where(out == 0, 0, g * x / safe)
    return jnp.where(out == 0, 0, g * jnp.sign(x) * jnp.abs(x) ** (p - 1) / safe ** (p - 1))


def _matrix(x, p, axes, keepdim):
    return jnp.linalg.norm(x, ord=p, axis=axes, keepdims=keepdim)


def _norm_input(x, dtype):
    return autocast(x) if dtype is None else x.astype(dtype_arg(dtype))


def _norm(x, p, axis, keepdim, dtype=None):
    x = _norm_input(x, dtype)
    kind, p, axis = _norm_plan(x, p, axis)
    return _vector(x, p, axis, keepdim) if kind == "vector" else _matrix(x, p, axis, keepdim)


def _norm_vjp(s, g, p=None, axis=None, keepdim=False, dtype=None):
    x, out = s["x"], s[OUT]
    xf = _norm_input(x, dtype)
    kind, p, axis = _norm_plan(xf, p, axis)
    if kind == "matrix":
        return jax.vjp(lambda v: _matrix(v, p, axis, keepdim), xf)[1](g)[0].astype(x.dtype)
    return _vector_vjp(xf, out, g, p, axis, keepdim).astype(x.dtype)


@defop(1, saves=("x", OUT), vjp=_norm_vjp)
def norm(x, p=None, axis=None, keepdim=False, dtype=None):
    """Vector or matrix norm, read as Paddle reads ``p`` and ``axis``.

    ``p`` None or 'fro' over at most one axis is the 2-norm of the vector; a number (2, 1, 0, inf, -inf, 0.5, ...)
    is that vector norm over ``axis`` (every axis when None), and the matrix norm of that order when ``axis``
    names two axes (so ``p=None`` with two axes is the spectral norm, as in Paddle); 'nuc', and 'fro' over two
    axes, are matrix norms (over every axis of a 2-D input when ``axis`` is None). ``dtype`` casts ``x`` first.
    The gradient of a zero vector's norm is 0.
    """
    return _norm(x, p, axis, keepdim, dtype)


def _vector_norm_vjp(s, g, p=2.0, axis=None, keepdim=False, dtype=None):
    x, out = s["x"], s[OUT]
    return _vector_vjp(_norm_input(x, dtype), out, g, _vector_p(p, "vector_norm"), axis, keepdim).astype(x.dtype)


@defop(1, saves=("x", OUT), vjp=_vector_norm_vjp, method=False)
def vector_norm(x, p=2.0, axis=None, keepdim=False, dtype=None):
    """The ``p``-norm of ``x`` taken as vectors along ``axis`` (an int, a list of axes, or None for every axis):
    ``sum(|x|**p) ** (1/p)``; ``inf``/``-inf`` are the largest/smallest magnitude and 0 counts the nonzero
    elements. ``dtype`` casts ``x`` first. The gradient of a zero vector's norm is 0.
    """
    return _vector(_norm_input(x, dtype), _vector_p(p, "vector_norm"), axis, keepdim)


@defop(1, saves=("x",), method=False)
def matrix_norm(x, p="fro", axis=(-2, -1), keepdim=False):
    """The matrix norm of order ``p`` ('fro', 'nuc', 1, -1, 2, -2, inf or -inf) of the matrices spanning the two
    axes ``axis`` (rows, then columns: 1 is the largest column sum, inf the largest row sum; 2 and -2 are the
    largest and smallest singular values, 'nuc' their sum)."""
    x = autocast(x)
    return _matrix(x, _matrix_p(p, "matrix_norm"), _matrix_axes(x, axis, "matrix_norm"), keepdim)


# ---- scans ----------------------------------------------------------------------------------
def _scan_input(x, axis):
    return (jnp.reshape(x, (-1,)), 0) if axis is None else (x, axis)


@defop(1, inplace=True)
def cumsum(x, axis=None, dtype=None):
    """Running sum along ``axis`` (of the flattened tensor when None); integers give int64."""
    x, axis = _scan_input(x, axis)
    return jnp.cumsum(x, axis=axis, dtype=_int_sum_dtype(x, dtype))


@defop(1, saves=("x",), inplace=True)
def cumprod(x, dim=None, dtype=None):
    """Running product along ``dim`` (of the flattened tensor when None), keeping the dtype."""
    x, dim = _scan_input(x, dim)
    return jnp.cumprod(x, axis=dim, dtype=_keep_int(x, dtype))
