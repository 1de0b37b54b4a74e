"""More matrix products, factor solves, order statistics, histograms and set tests.

``histogram`` puts its ``weight`` tensor after attributes in Paddle's signature, so its
kernel is registered tensors-first as ``histogram_op``; the public function is in
``_api.irregular``.
"""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np

from ._promote import autocast, binary
from .linalg_checks import cholesky_inverse_checks
from .math import unbroadcast
from .sorting import median_avg
from .table import defop


# ---- products ----------------------------------------------------------------------------------
@defop(3, saves=("x", "y"), inplace=True)
def addmm(input, x, y, beta=1.0, alpha=1.0):
    """``beta * input + alpha * (x @ y)`` for 2-D ``x`` and ``y`` (``input`` broadcasts)."""
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError(f"addmm: x and y must be 2-D, but received {x.ndim}-D and {y.ndim}-D.")
    return beta * input + alpha * (x @ y)


@defop(3, saves=("x", "y"), inplace=True)
def baddbmm(input, x, y, beta=1.0, alpha=1.0):
    """``beta * input + alpha * bmm(x, y)`` for 3-D ``x`` [B, M, K] and ``y`` [B, K, N].

    A 3-D ``input`` broadcasts to [B, M, N]; a 2-D ``input`` is Paddle's [B, N] (or [B, 1]): one row per batch,
    added to every row of that batch's product (not numpy's [M, N] broadcast)."""
    if input.ndim not in (2, 3) or x.ndim != 3 or y.ndim != 3:
        raise ValueError(
            f"baddbmm: input must be 2-D or 3-D and x, y 3-D, but received {input.ndim}-D, {x.ndim}-D and {y.ndim}-D."
        )
    if x.shape[2] != y.shape[1]:
        raise ValueError(f"baddbmm: x's width must equal y's height, but received x's shape {list(x.shape)} and "
                         f"y's shape {list(y.shape)}.")
    want = (x.shape[0], x.shape[1], y.shape[2])
    if input.ndim == 2:
        if input.shape[0] != want[0] or input.shape[1] not in (want[2], 1):
            raise ValueError(f"baddbmm: a 2-D input must have shape [B, N] or [B, 1] = [{want[0]}, {want[2]}] or "
                             f"[{want[0]}, 1] (one row per batch of x), but received {list(input.shape)}; pass a "
                             "3-D input to broadcast over the rows instead.")
        input = input[:, None, :]
    elif any(i not in (w, 1) for i, w in zip(input.shape, want)):
        raise ValueError(f"baddbmm: input of shape {list(input.shape)} does not broadcast to the product's shape "
                         f"{list(want)}; each of its sizes must equal the product's or be 1.")
    return beta * input + alpha * (x @ y)


@defop(2, saves=("x", "vec"))
def mv(x, vec):
    """Matrix times vector: 2-D ``x`` and 1-D ``vec``."""
    if x.ndim != 2 or vec.ndim != 1:
        raise ValueError(f"mv: x must be 2-D and vec 1-D, but received {x.ndim}-D and {vec.ndim}-D.")
    return x @ vec


@defop(2, saves=("x", "y"))
def tensordot(x, y, axes=2):
    """Contract ``x`` and ``y`` over ``axes``: an int n (last n of x with first n of y), one list of axes
    used for both, or a pair of lists ``[x_axes, y_axes]`` (the shorter completed by the longer's tail)."""
    if isinstance(axes, int):
        ax, ay = list(range(x.ndim - axes, x.ndim)), list(range(axes))
    else:
        axes = list(axes)
        if all(isinstance(a, int) for a in axes):
            ax, ay = axes, axes
        else:
            ax, ay = (list(axes[0]), list(axes[0])) if len(axes) == 1 else (list(axes[0]), list(axes[1]))
            # the shorter list is completed by the longer one's trailing entries, as in Paddle
            ax, ay = ax + ay[len(ax):], ay + ax[len(ay):]
    for i, j in zip(ax, ay):
        if x.shape[i] != y.shape[j]:
            raise AssertionError(f"tensordot: the contracted sizes of x and y must match, but x has size {x.shape[i]} "
                                 f"in dim {i} while y has size {y.shape[j]} in dim {j} (shapes {list(x.shape)} and "
                                 f"{list(y.shape)}); pick axes of equal sizes.")
    return jnp.tensordot(x, y, (ax, ay))


@defop(2, saves=("x", "y"))
def cholesky_solve(x, y, upper=False):
    """Solve ``A z = x`` where ``y`` is the Cholesky factor of ``A`` (lower unless ``upper``)."""
    return jsl.cho_solve((y, not upper), x)


@defop(1, saves=("x",), out_checks=cholesky_inverse_checks)
def cholesky_inverse(x, upper=False):
    """The inverse of ``A`` from its Cholesky factor ``x`` (``A = x x^T``, or ``x^T x`` when ``upper``).

    A factor with a zero on its diagonal (a singular ``A``) is a ValueError in an eager call, as in Paddle; traced
    (jax.jit, to_static, a static program) the result holds inf / NaN instead."""
    eye = jnp.broadcast_to(jnp.eye(x.shape[-1], dtype=x.dtype), x.shape)
    return jsl.cho_solve((x, not upper), eye)


@defop(1, saves=("x",), inplace=True)
def renorm(x, p, axis, max_norm):
    """Each slice along ``axis`` whose ``p``-norm exceeds ``max_norm`` rescaled to that norm."""
    ax = axis % x.ndim
    others = tuple(i for i in range(x.ndim) if i != ax)
    s = jnp.sum((x * jnp.sign(x)) ** p, axis=others, keepdims=True)
    # (a zero slice: its norm 0 without the root's infinite derivative, which made the kept slice's gradient NaN)
    norm = jnp.where(s > 0, jnp.where(s > 0, s, 1) ** (1.0 / p), 0)
    return jnp.where(norm > max_norm, x * (max_norm / (norm + 1e-7)), x).astype(x.dtype)


@defop(1, nondiff=())
def combinations(x, r=2, with_replacement=False):
    """All length-``r`` combinations of the elements of a 1-D ``x``, one per row."""
    if x.ndim != 1:
        raise TypeError(f"combinations: x must be a 1-D vector, but it has shape {list(x.shape)}; flatten it first.")
    if r == 0:
        return jnp.zeros((0,), x.dtype)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    idx = list(pick(range(x.shape[0]), r))
    if not idx:
        return jnp.zeros((0, r), x.dtype)
    return x[jnp.asarray(idx)]


@defop(2, nondiff=("target",))
def reduce_as(x, target):
    """``x`` summed down to the shape of ``target`` (the reverse of broadcasting)."""
    return unbroadcast(x, target.shape).reshape(target.shape)


# ---- scans and order statistics -----------------------------------------------------------------
@defop(1, saves=("x",))
def logcumsumexp(x, axis=None, dtype=None):
    """Running ``log(sum(exp(x)))`` along ``axis`` (of the flattened tensor when None)."""
    x = autocast(x)
    if dtype is not None:
        x = x.astype(dtype)
    if axis is None:
        x, axis = jnp.ravel(x), 0
    return jax.lax.cumlogsumexp(x, axis=axis % max(x.ndim, 1))


_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def _quantile(api, f, x, q, axis, keepdim, interpolation):
    if interpolation not in _METHODS:
        raise ValueError(f"{api}: interpolation must be one of {', '.join(_METHODS)}, but received {interpolation!r}.")
    if np.size(q) == 0:
        raise ValueError(f"{api}: q must not be empty, but received an empty {type(q).__name__}; pass a number or "
                         f"a list of numbers in [0, 1].")
    if np.any((np.asarray(q) < 0) | (np.asarray(q) > 1)):
        raise ValueError(f"{api}: q must be in [0, 1], but received {q!r}.")
    ax = tuple(axis) if isinstance(axis, list | tuple) else axis
    reduced = range(x.ndim) if ax is None else [a % max(x.ndim, 1) for a in (ax if isinstance(ax, tuple) else [ax])]
    if x.ndim and any(x.shape[a] == 0 for a in reduced):
        raise ValueError(f"{api}: the axes reduced ({'all' if ax is None else list(reduced)}) hold no elements in a "
                         f"tensor of shape {list(x.shape)}, so there is no quantile; reduce over a non-empty axis.")
    qs = jnp.asarray(np.asarray(q), jnp.float64 if x.dtype == jnp.float64 else jnp.float32)
    if interpolation == "nearest":
        # Paddle rounds the position q * (count - 1) half to even (0.5 * 3 -> 2, 0.5 * 1 -> 0) where jax's nearest
        # rounds a half down: the higher neighbour where the rounded position is above the lower one
        xf = autocast(x)
        valid = ~jnp.isnan(xf) if f is jnp.nanquantile else jnp.ones(xf.shape, bool)
        count = jnp.sum(valid, axis=ax, keepdims=keepdim).astype(qs.dtype)
        pos = jnp.reshape(qs, qs.shape + (1,) * count.ndim) * (count - 1)
        lower, higher = (f(xf, qs, axis=ax, keepdims=keepdim, method=m) for m in ("lower", "higher"))
        return jnp.where(jnp.round(pos) > jnp.floor(pos), higher, lower).astype(xf.dtype)
    return f(autocast(x), qs, axis=ax, keepdims=keepdim, method=interpolation).astype(autocast(x).dtype)


@defop(1, saves=("x",))
def quantile(x, q, axis=None, keepdim=False, interpolation="linear"):
    """The ``q``-quantile(s) along ``axis``; a list of q adds a leading axis. NaN in a slice gives NaN."""
    return _quantile("quantile", jnp.quantile, x, q, axis, keepdim, interpolation)


@defop(1, saves=("x",))
def nanquantile(x, q, axis=None, keepdim=False, interpolation="linear"):
    """``quantile`` ignoring NaN (NaN where a slice is all NaN)."""
    return _quantile("nanquantile", jnp.nanquantile, x, q, axis, keepdim, interpolation)


@defop(1, saves=("x",))
def nanmedian(x, axis=None, keepdim=False, mode="avg"):
    """Median ignoring NaN. ``mode='avg'`` averages the two middle values; ``'min'`` takes the lower one
    and, with an ``axis``, also returns its int64 index."""
    if mode not in ("avg", "min"):
        raise ValueError(f"nanmedian: mode must be 'avg' or 'min', but received {mode!r}.")
    if mode == "avg":
        return median_avg(x, axis, keepdim, skip_nan=True).astype(x.dtype)
    flat = axis is None
    xa, ax = (jnp.ravel(x), 0) if flat else (x, axis % x.ndim)
    order = jnp.argsort(xa, axis=ax, stable=True)
    k = jnp.sum(~jnp.isnan(xa), axis=ax, keepdims=True) if jnp.issubdtype(x.dtype, jnp.inexact) else None
    pos = jnp.maximum((k - 1) // 2, 0) if k is not None else jnp.full((1,) * xa.ndim, (xa.shape[ax] - 1) // 2)
    pos = jnp.broadcast_to(pos, tuple(1 if i == ax else d for i, d in enumerate(xa.shape)))
    idx = jnp.take_along_axis(order, pos, axis=ax)
    vals = jnp.take_along_axis(xa, idx, axis=ax)
    if k is not None:
        vals = jnp.where(k == 0, jnp.nan, vals).astype(x.dtype)
    if flat:
        return vals.reshape((1,) * x.ndim) if keepdim else vals.reshape(())
    if not keepdim:
        vals, idx = jnp.squeeze(vals, ax), jnp.squeeze(idx, ax)
    return vals, idx.astype(jnp.int64)


# ---- histograms, buckets, membership --------------------------------------------------------------
def _range(x, min, max):
    lo, hi = (jnp.min(x), jnp.max(x)) if min == 0 and max == 0 else (jnp.asarray(min), jnp.asarray(max))
    if not (min == 0 and max == 0) and min > max:
        raise ValueError(f"histogram: max must be at least min, but received min={min}, max={max}.")
    same = lo == hi
    return jnp.where(same, lo - 1, lo), jnp.where(same, hi + 1, hi)


def _edges(x, bins, min, max):
    if not isinstance(bins, int) or bins < 1:
        raise ValueError(f"histogram: bins must be a positive int, but received {bins!r}.")
    dt = x.dtype if jnp.issubdtype(x.dtype, jnp.floating) else jnp.float32
    xf = x.astype(dt)
    lo, hi = _range(xf, min, max)
    return xf, jnp.linspace(lo, hi, bins + 1).astype(dt)


@defop(1, differentiable=False)
def histogram_bin_edges(input, bins=100, min=0.0, max=0.0):
    """The ``bins + 1`` edges ``histogram`` uses (the data's range when min and max are both 0)."""
    return _edges(input, bins, min, max)[1]


@defop(("input", "weight"), differentiable=False, method=False)
def histogram_op(input, weight=None, bins=100, min=0.0, max=0.0, density=False):
    """Counts (or summed weights, or a density) of ``input`` in ``bins`` equal bins; values outside are ignored."""
    xf, edges = _edges(input, bins, min, max)
    xf = jnp.ravel(xf)
    inside = (xf >= edges[0]) & (xf <= edges[-1])
    b = jnp.clip(jnp.searchsorted(edges, xf, side="right") - 1, 0, bins - 1)
    w = jnp.ones_like(xf) if weight is None else jnp.ravel(weight).astype(xf.dtype)
    counts = jnp.zeros(bins, xf.dtype).at[b].add(jnp.where(inside, w, 0))
    if density:
        return counts / (jnp.sum(counts) * (edges[1] - edges[0]))
    if weight is None:
        return counts.astype(jnp.int64)
    return counts.astype(weight.dtype)


@defop(2, differentiable=False)
def isin(x, test_x, assume_unique=False, invert=False):
    """True where an element of ``x`` occurs in ``test_x`` (False there when ``invert``)."""
    x, test_x = binary("isin", x, test_x)
    return jnp.isin(x, test_x, assume_unique=assume_unique, invert=invert)


def _searchsorted_checks(op, a):  # noqa: ANN001, ANN202
    seq, values, side = a["sorted_sequence"], a["values"], a["side"]
    if side not in (None, "left", "right"):
        raise ValueError(f"{op}: side must be 'left' or 'right', but received {side!r}.")
    if side is not None and a["right"] and side == "left":
        raise ValueError(f"{op}: right=True and side='left' contradict each other; pass only one of them.")
    s, v = list(getattr(seq, "shape", ())), list(getattr(values, "shape", ()))
    if len(s) == 0:
        raise ValueError(f"{op}: sorted_sequence must have at least 1 dimension, but it is 0-D.")
    if len(s) > 1 and s[:-1] != v[:-1]:  # (Paddle's error type here is RuntimeError)
        raise RuntimeError(
            f"{op}: an N-D sorted_sequence (shape {s}) searches the rows of values with the same leading dimensions, "
            f"but values has shape {v}. Give values of shape {s[:-1] + ['K']}, or a 1-D sorted_sequence."
        )
    return []


@defop(2, differentiable=False, method=False, checks=_searchsorted_checks)
def searchsorted(sorted_sequence, values, out_int32=False, right=False, side=None):
    """For each of ``values``, the index where it would be inserted to keep ``sorted_sequence`` (sorted along its
    last axis) in order: the first such index, or the last with ``right=True`` (``side='right'``). An N-D
    sorted_sequence searches each row of ``values`` in the row of the same leading index."""
    where = "right" if right or side == "right" else "left"
    if sorted_sequence.ndim == 1:
        out = jnp.searchsorted(sorted_sequence, values, side=where)
    else:
        lead = sorted_sequence.shape[:-1]
        rows = jax.vmap(lambda s, v: jnp.searchsorted(s, v, side=where))(
            sorted_sequence.reshape(-1, sorted_sequence.shape[-1]), values.reshape(-1, values.shape[-1]))
        out = rows.reshape(*lead, values.shape[-1])
    return out.astype(jnp.int32 if out_int32 else jnp.int64)


@defop(2, differentiable=False)
def bucketize(x, sorted_sequence, out_int32=False, right=False):
    """For each element, the index of the bucket of the 1-D ``sorted_sequence`` it falls in."""
    if sorted_sequence.ndim != 1:
        raise ValueError(f"bucketize: sorted_sequence must be 1-D, but it has {sorted_sequence.ndim} dimensions.")
    out = jnp.searchsorted(sorted_sequence, x, side="right" if right else "left")
    return out.astype(jnp.int32 if out_int32 else jnp.int64)
