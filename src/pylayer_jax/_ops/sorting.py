"""Order statistics: sort, argsort, topk, kthvalue, mode, median, cummax, cummin.

Values are gathered from the input at (gradient-free) int64 indices, so the gradient flows
to exactly the elements that were picked; the backward re-derives the indices from the
saved input.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ._promote import autocast
from ._util import dtype_arg
from .checks import axis_check, ndim_of
from .table import defop


def _order(x, axis, descending):
    return jax.lax.stop_gradient(jnp.argsort(x, axis=axis, stable=True, descending=descending))


def _take(x, idx, axis):
    return jnp.take_along_axis(x, idx, axis=axis)


@defop(1, saves=("x",))
def sort(x, axis=-1, descending=False, stable=False):
    """``x`` sorted along ``axis`` (ties keep their order); a 0-D ``x`` is itself."""
    if x.ndim == 0:
        return x
    return _take(x, _order(x, axis, descending), axis)


@defop(1, differentiable=False)
def argsort(x, axis=-1, descending=False, stable=False):
    """Indices (int64) that sort ``x`` along ``axis``; ties keep their original order (0 for a 0-D ``x``)."""
    if x.ndim == 0:
        return jnp.zeros((), jnp.int64)
    return jnp.argsort(x, axis=axis, stable=True, descending=descending).astype(jnp.int64)


def _k_checks(op, a):  # noqa: ANN001, ANN202
    """The checks of an op taking ``k`` values along ``axis`` (default last): ``k`` an int from 1 to the axis' size
    (Paddle refuses ``k=0`` in topk too, a Tensor ``k`` included)."""
    x = a["x"]
    ax = -1 if a.get("axis") is None else a["axis"]
    axis_check(op, ax, ndim_of(x), "axis", allow_none=False)
    n = x.shape[ax] if x.shape else 1
    k = a["k"]
    if not isinstance(k, int) or isinstance(k, bool) or not (1 <= k <= n if n >= 0 else k >= 1):
        raise ValueError(f"{op}: k must be an int in [1, {n}] (the size of axis {ax}), but received {k!r}.")
    return []


@defop(1, saves=("x",), checks=_k_checks)
def topk(x, k, axis=None, largest=True, sorted=True):
    """The ``k`` largest (or smallest) values along ``axis`` (default last) and their int64 indices;
    among equal values the earlier index comes first. (Paddle 3.3.1's CPU kernel picks among equal values by where
    std::nth_element / std::partial_sort leave them, e.g. [6, 5, 4] for the top 3 of eight equal int32 values, and
    its GPU kernel by another order: no rule to follow, so the stable order; the values are Paddle's.)"""
    if x.ndim == 0:  # (a 0-D x is its own top 1, at index 0)
        return x, jnp.zeros((), jnp.int64)
    axis = -1 if axis is None else axis
    idx = jax.lax.slice_in_dim(_order(x, axis, largest), 0, int(k), axis=axis % x.ndim)
    return _take(x, idx, axis), idx.astype(jnp.int64)


@defop(1, saves=("x",), checks=_k_checks)
def kthvalue(x, k, axis=None, keepdim=False):
    """The ``k``-th smallest value (1-based) along ``axis`` (default last) and its int64 index; among equal values
    the ``k``-th of a stable sort (Paddle's kernel picks by std::nth_element's order, which follows no rule)."""
    if x.ndim == 0:
        return x, jnp.zeros((), jnp.int64)
    axis = (-1 if axis is None else axis) % x.ndim
    idx = jax.lax.slice_in_dim(_order(x, axis, False), int(k) - 1, int(k), axis=axis)
    vals = _take(x, idx, axis)
    if not keepdim:
        vals, idx = jnp.squeeze(vals, axis), jnp.squeeze(idx, axis)
    return vals, idx.astype(jnp.int64)


@defop(1, saves=("x",))
def mode(x, axis=-1, keepdim=False):
    """The most frequent value along ``axis`` (the smallest one on a tie) and the index of its last
    occurrence (Paddle's kernel takes the last in std::sort's unstable order: the same for up to 16 entries)."""
    axis = axis % x.ndim
    xm = jnp.moveaxis(x, axis, -1)
    xs = jax.lax.stop_gradient(xm)
    counts = jnp.sum(xs[..., :, None] == xs[..., None, :], axis=-1)
    best = jnp.max(counts, axis=-1, keepdims=True)
    big = jnp.asarray(jnp.inf if jnp.issubdtype(xs.dtype, jnp.inexact) else jnp.iinfo(xs.dtype).max, xs.dtype)
    value = jnp.min(jnp.where(counts == best, xs, big), axis=-1, keepdims=True)
    pos = jnp.arange(xs.shape[-1])
    idx = jnp.max(jnp.where(xs == value, pos, -1), axis=-1, keepdims=True)
    vals = _take(xm, idx, -1)
    vals, idx = jnp.moveaxis(vals, -1, axis), jnp.moveaxis(idx, -1, axis)
    if not keepdim:
        vals, idx = jnp.squeeze(vals, axis), jnp.squeeze(idx, axis)
    return vals, idx.astype(jnp.int64)


@jax.custom_jvp
def _gradient_only(x, w):
    """Zeros of ``x``'s shape less its last axis (kept as 1) whose derivative along ``x`` is ``w``: a value-free way
    to route a gradient (forward or reverse mode), safe where ``x`` holds NaN."""
    return jnp.zeros(x.shape[:-1] + (1,), x.dtype)


@_gradient_only.defjvp
def _gradient_only_jvp(primals, tangents):
    x, w = primals
    return _gradient_only(x, w), jnp.sum(w * tangents[0], axis=-1, keepdims=True).astype(x.dtype)


def median_avg(x, axis, keepdim, skip_nan):
    """The median of ``x`` over ``axis`` (an int, a list of ints, or None for all) averaging the two middle values
    of an even count, with Paddle's gradient: shared evenly among every element equal to the median where one is
    (an odd count, or equal middle values), else half to each of the two middle elements. ``skip_nan`` ignores NaN
    (nanmedian: NaN only where a slice is all NaN); otherwise a NaN in a slice makes its median NaN. Among equal
    middle values Paddle's kernel picks the element std::nth_element leaves there; here the first in stable order
    (the same value, the gradient possibly on another of the equal elements)."""
    x = autocast(x)
    nd = x.ndim
    axes = tuple(range(nd)) if axis is None or nd == 0 else tuple(
        a % nd for a in (axis if isinstance(axis, list | tuple) else [axis]))
    keep = [i for i in range(nd) if i not in axes]
    n = int(np.prod([x.shape[i] for i in axes]))
    xa = jnp.transpose(x, keep + list(axes)).reshape([x.shape[i] for i in keep] + [n])
    shape = [1 if i in axes else d for i, d in enumerate(x.shape)] if keepdim else [x.shape[i] for i in keep]
    if n == 0:  # (the median of nothing is NaN, as in Paddle)
        return jnp.full(shape, jnp.nan, x.dtype)
    xs = jax.lax.stop_gradient(xa)
    nan = jnp.isnan(xs)
    order = jnp.argsort(xs, axis=-1, stable=True)  # (NaN last)
    k = jnp.sum(~nan, axis=-1, keepdims=True) if skip_nan else jnp.full(xs.shape[:-1] + (1,), n)
    lo = jnp.take_along_axis(order, jnp.maximum((k - 1) // 2, 0), axis=-1)
    hi = jnp.take_along_axis(order, jnp.maximum(k // 2, 0) % n, axis=-1)
    m = (jnp.take_along_axis(xs, lo, axis=-1) + jnp.take_along_axis(xs, hi, axis=-1)) / 2
    bad = (k == 0) if skip_nan else nan.any(-1, keepdims=True)
    m = jnp.where(bad, jnp.nan, m)
    eq = (xs == m).astype(xs.dtype)
    count = jnp.sum(eq, axis=-1, keepdims=True)
    pos = jax.lax.broadcasted_iota(lo.dtype, xs.shape, xs.ndim - 1)
    halves = 0.5 * ((pos == lo).astype(xs.dtype) + (pos == hi).astype(xs.dtype))
    if skip_nan:  # (an all-NaN slice shares its gradient evenly among its elements, as Paddle)
        spread = jnp.full(xs.shape, 1.0 / n, xs.dtype)
    else:  # (a NaN median's gradient goes to the slice's first NaN, as Paddle)
        spread = (pos == jnp.argmax(nan, axis=-1, keepdims=True)).astype(xs.dtype)
    w = jnp.where(bad, spread, jnp.where(count > 0, eq / jnp.maximum(count, 1), halves))
    out = m + _gradient_only(xa, jax.lax.stop_gradient(w))
    return out.reshape(shape).astype(x.dtype)


def _median_checks(op, a):  # noqa: ANN001, ANN202
    axis_check(op, a["axis"], ndim_of(a["x"]), kind_exc=ValueError)
    return []


_median_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, saves=("x",), checks=_median_checks)
def median(x, axis=None, keepdim=False, mode="avg"):
    """Median along ``axis`` (of all elements when None). ``mode='avg'`` averages the two middle
    values of an even count (integers give float32); ``mode='min'`` takes the lower one and, with
    an ``axis``, also returns its int64 index."""
    if mode not in ("avg", "min"):
        raise ValueError(f"median: mode must be 'avg' or 'min', but received {mode!r}.")
    if mode == "avg":
        return median_avg(x, axis, keepdim, skip_nan=False)
    flat = axis is None
    xa, ax = (jnp.reshape(x, (-1,)), 0) if flat else (x, axis % x.ndim)
    n = xa.shape[ax]
    idx = jax.lax.slice_in_dim(_order(xa, ax, False), (n - 1) // 2, (n - 1) // 2 + 1, axis=ax)
    if jnp.issubdtype(xa.dtype, jnp.inexact):  # a NaN along the axis is the median, at its first position (Paddle)
        nan = jnp.isnan(jax.lax.stop_gradient(xa))
        idx = jnp.where(nan.any(ax, keepdims=True), jnp.argmax(nan, ax, keepdims=True).astype(idx.dtype), idx)
    vals = _take(xa, idx, ax)
    if flat:
        return vals.reshape((1,) * x.ndim) if keepdim else vals.reshape(())
    if not keepdim:
        vals, idx = jnp.squeeze(vals, ax), jnp.squeeze(idx, ax)
    return vals, idx.astype(jnp.int64)


def _cum_extreme(x, axis, dtype, better):
    """Running extreme along ``axis`` and the index of its latest occurrence (a NaN, once met, is the extreme)."""
    flat = axis is None
    xa, ax = (jnp.reshape(x, (-1,)), 0) if flat else (x, axis % x.ndim)
    xs = jax.lax.stop_gradient(xa)
    shape = [1] * xa.ndim
    shape[ax] = xa.shape[ax]
    pos = jnp.broadcast_to(jnp.arange(xa.shape[ax]).reshape(shape), xa.shape)

    def combine(a, b):  # (a NaN beats every number and a later NaN an earlier one: NaN propagates, as in Paddle)
        take_b = better(b[0], a[0]) | (b[0] == a[0]) | (b[0] != b[0])
        return jnp.where(take_b, b[0], a[0]), jnp.where(take_b, b[1], a[1])

    _, idx = jax.lax.associative_scan(combine, (xs, pos), axis=ax)
    return _take(xa, idx, ax), idx.astype(dtype_arg(dtype))


@defop(1, saves=("x",))
def cummax(x, axis=None, dtype="int64"):
    """Running maximum along ``axis`` (flattened when None) and the index where it was last attained."""
    return _cum_extreme(x, axis, dtype, jnp.greater)


@defop(1, saves=("x",))
def cummin(x, axis=None, dtype="int64"):
    """Running minimum along ``axis`` (flattened when None) and the index where it was last attained."""
    return _cum_extreme(x, axis, dtype, jnp.less)
