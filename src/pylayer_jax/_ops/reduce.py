"""Reductions over axes: sums, means, extrema, statistics, norms, truth tests, and scans.

Paddle's dtype rules: ``sum``/``nansum``/``cumsum`` of integers or bools give int64;
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
from .rows import reduce_rule
from .table import OUT, defop


def _int_sum_dtype(x, dtype):
    dt = dtype_arg(dtype)
    if dt is None and not jnp.issubdtype(x.dtype, jnp.inexact):
        dt = jnp.int64
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


@defop(1, name="sum", checks=_sum_checks, rows=reduce_rule("sum"))
def sum_(x, axis=None, dtype=None, keepdim=False):
    """Sum over ``axis`` (all axes when None); integer/bool inputs sum to int64."""
    return jnp.sum(x, axis=axis_arg(axis), dtype=_int_sum_dtype(x, dtype), keepdims=keepdim)


@defop(1, saves=("x",), name="nansum")
def nansum(x, axis=None, dtype=None, keepdim=False):
    """Sum over ``axis`` treating NaN as 0."""
    return jnp.nansum(x, axis=axis_arg(axis), dtype=_int_sum_dtype(x, dtype), keepdims=keepdim)


@defop(1, rows=reduce_rule("mean"))
def mean(x, axis=None, keepdim=False):
    """Mean over ``axis``; an integer (or bool) input keeps its dtype, truncating like Paddle."""
    if jnp.issubdtype(x.dtype, jnp.inexact):
        return jnp.mean(x, axis=axis_arg(axis), keepdims=keepdim)
    return jnp.mean(x.astype(jnp.float64), axis=axis_arg(axis), keepdims=keepdim).astype(x.dtype)


@defop(1, saves=("x",))
def nanmean(x, axis=None, keepdim=False):
    """Mean over ``axis`` ignoring NaN."""
    return jnp.nanmean(autocast(x), axis=axis_arg(axis), keepdims=keepdim)


def _extreme(name, f, doc):
    def fn(x, axis=None, keepdim=False):
        return f(x, axis=axis_arg(axis), keepdims=keepdim)

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


def _arg(name, f, doc):
    def fn(x, axis=None, keepdim=False, dtype="int64"):
        if axis is None and keepdim:
            r = f(jnp.reshape(x, (-1,)), axis=0).reshape((1,) * x.ndim)
        else:
            r = f(x, axis=axis, keepdims=keepdim)
        return r.astype(dtype_arg(dtype))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return defop(1, name=name, differentiable=False)(fn)


_arg("argmax", jnp.argmax, "Index of the first maximum along ``axis`` (of the flattened tensor when None).")
_arg("argmin", jnp.argmin, "Index of the first minimum along ``axis`` (of the flattened tensor when None).")


@defop(1, saves=("x",))
def logsumexp(x, axis=None, keepdim=False):
    """``log(sum(exp(x)))`` over ``axis``, computed stably."""
    return jax.nn.logsumexp(autocast(x), axis=axis_arg(axis), keepdims=keepdim)


@defop(1, saves=("x",))
def var(x, axis=None, unbiased=None, keepdim=False, correction=1):
    """Variance over ``axis``: divides by ``N - correction`` (``unbiased=False`` means ``N``)."""
    ddof = correction if unbiased is None else (1 if unbiased else 0)
    return jnp.var(autocast(x), axis=axis_arg(axis), ddof=ddof, keepdims=keepdim)


@defop(1, saves=("x",))
def std(x, axis=None, unbiased=True, keepdim=False):
    """Standard deviation over ``axis`` (divides by ``N - 1`` unless ``unbiased=False``)."""
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


def _matrix(p, axis):
    return (
        axis is not None and isinstance(axis_arg(axis), tuple) and len(axis_arg(axis)) == 2 and p not in (None, "fro")
    )


def _norm(x, p, axis, keepdim):
    x = autocast(x)
    if _matrix(p, axis):
        return jnp.linalg.norm(x, ord=p, axis=axis_arg(axis), keepdims=keepdim)
    if isinstance(p, str) and p != "fro":
        raise ValueError(
            f"norm: p={p!r} is a matrix norm and needs axis to name exactly two dimensions, but received "
            f"axis={axis!r}. Pass axis=[-2, -1]."
        )
    p = 2.0 if p in (None, "fro") else float(p)
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


def _norm_vjp(s, g, p=None, axis=None, keepdim=False):
    x, out = s["x"], s[OUT]
    if _matrix(p, axis):
        return jax.vjp(lambda v: _norm(v, p, axis, keepdim), x)[1](g)
    xf = autocast(x)
    axes = _norm_axes(xf, axis)
    if not keepdim:
        out, g = jnp.expand_dims(out, axes), jnp.expand_dims(g, axes)
    p = 2.0 if p in (None, "fro") else float(p)
    if p in (float("inf"), float("-inf")):
        # every element attaining the extreme gets the full gradient, as in Paddle
        return g * jnp.sign(xf) * (jnp.abs(xf) == out)
    if p == 0:
        return jnp.zeros_like(xf)
    safe = jnp.where(out == 0, 1, out)
    if p == 2:
        return jnp.where(out == 0, 0, g * xf / safe)
    return jnp.where(out == 0, 0, g * jnp.sign(xf) * jnp.abs(xf) ** (p - 1) / safe ** (p - 1))


@defop(1, saves=("x", OUT), vjp=_norm_vjp)
def norm(x, p=None, axis=None, keepdim=False):
    """Vector or matrix norm: ``p`` in None/'fro' (2-norm), numbers, inf, -inf, 0, 'nuc' (two axes).

    With two axes and a numeric ``p`` (1, 2, inf, ...) it is the matrix norm; the gradient of a
    zero vector's norm is 0.
    """
    return _norm(x, p, axis, keepdim)


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
