"""Gather / scatter family: ops that pick or write elements by integer index or mask.

Index and mask inputs never get gradients, but the backward reads them, so they are
saved; the values themselves enter linearly and are not saved (except where a product
makes the derivative read them, as in ``put_along_axis(reduce='mul')``).
"""

from __future__ import annotations

import jax.numpy as jnp

from .checks import ValueCheck, axis_check, index_range, integer_index, ndim_of
from .rows import off_axis0, when
from .table import defop


def _index_tuple(index):  # noqa: ANN001, ANN202
    """Last axis of an N-d index -> a tuple of index arrays (for ``x[...]``)."""
    return tuple(jnp.moveaxis(index, -1, 0))


def _along(param: str, index: str, neg: bool, exc: type[Exception] = IndexError, rank1: bool = False,  # noqa: ANN202
           scalar: bool = False):
    """Checks of an op picking along ``axis`` by an integer ``index`` (``rank1``: a 1-D or [N, 1] index only,
    ``scalar``: or a 0-D one)."""
    def check(op, a):  # noqa: ANN001, ANN202
        t = a[param]
        integer_index(op, a[index], index)
        shape = list(getattr(a[index], "shape", ()))
        if rank1 and not (len(shape) == 1 or (scalar and not shape) or (len(shape) == 2 and shape[1] == 1)):
            raise ValueError(
                f"{op}: index must be 1-D ({'or 0-D, ' if scalar else ''}or [N, 1]), but received shape {shape}. "
                "Reshape it to [-1] first, or use gather_nd / take_along_axis for an N-d index."
            )
        ax = a.get("axis")
        ax = 0 if ax is None else ax
        axis_check(op, ax, ndim_of(t), "axis", allow_none=False)
        n = t.shape[ax] if t.shape else 1
        return [index_range(op, a[index], n, "index", neg, exc)]
    return check


# (rows move along axis 0: along another axis each row picks its own values)
@defop(2, saves=("index",), nondiff=("index",), checks=_along("x", "index", True, rank1=True, scalar=True),
       rows=when(off_axis0()))
def gather(x, index, axis=None):
    """Rows (or slices along ``axis``) of ``x`` picked by a 1-D or 0-D ``index`` (or an [N, 1] one)."""
    if index.ndim == 2:
        index = index[:, 0]
    return jnp.take(x, index, axis=0 if axis is None else axis)


def _nd_checks(exc: type[Exception]):  # noqa: ANN202
    """Checks of an op whose index's last axis addresses the leading dimensions of ``x``: an integer index,
    no more entries than ``x`` has dimensions, each entry ``j`` in ``[-shape[j], shape[j])``."""
    def check(op, a):  # noqa: ANN001, ANN202
        x, index = a["x"], a["index"]
        integer_index(op, index)
        ishape, xshape = list(getattr(index, "shape", ())), list(x.shape)
        if not ishape or ishape[-1] > len(xshape):
            raise ValueError(
                f"{op}: the last dimension of index addresses leading dimensions of x (shape {xshape}), so it "
                f"must be at most {len(xshape)}, but index has shape {ishape}. Give one entry per dimension."
            )
        dims = tuple(xshape[: ishape[-1]])
        if not dims or any(d < 0 for d in dims):
            return []
        return [ValueCheck(
            index, f"{op}: index value {{value}} is out of range: entry j of each index must be in "
            f"[-shape[j], shape[j]) for x of shape {xshape}. Fix the index values.",
            lo=tuple(-d for d in dims), hi=dims, exc=exc)]
    return check


@defop(2, saves=("index",), nondiff=("index",), checks=_nd_checks(ValueError))
def gather_nd(x, index):
    """``x[index[..., 0], index[..., 1], ...]``: the last axis of ``index`` addresses leading axes of ``x``."""
    return x[_index_tuple(index)]


@defop(2, saves=("index",), nondiff=("index",), checks=_along("x", "index", True, ValueError, rank1=True),
       rows=when(off_axis0()))
def index_select(x, index, axis=0):
    """Slices of ``x`` along ``axis`` picked by a 1-D ``index`` (or an [N, 1] one)."""
    if index.ndim == 2:
        index = index[:, 0]
    return jnp.take(x, index, axis=axis)


@defop(3, saves=("index",), nondiff=("index",), inplace=True, checks=_along("x", "index", True, rank1=True, scalar=True))
def scatter(x, index, updates, overwrite=True):
    """Rows ``index`` of ``x`` replaced by ``updates`` (or, overwrite=False, zeroed and then summed into); ``index``
    is 1-D, 0-D or [N, 1]."""
    if index.ndim == 2:
        index = index[:, 0]
    updates = updates.astype(x.dtype)
    if overwrite:
        return x.at[index].set(updates)
    return x.at[index].set(0).at[index].add(updates)


@defop(3, saves=("index",), nondiff=("index",), checks=_nd_checks(IndexError))
def scatter_nd_add(x, index, updates):
    """``x`` with ``updates`` summed into the positions addressed by the last axis of ``index``."""
    return x.at[_index_tuple(index)].add(updates.astype(x.dtype))


@defop(2, saves=("index",), nondiff=("index",))
def scatter_nd(index, updates, shape):
    """Zeros of ``shape`` with ``updates`` summed in at ``index`` (see scatter_nd_add)."""
    return jnp.zeros(tuple(shape), updates.dtype).at[_index_tuple(index)].add(updates)


@defop(2, saves=("arr", "indices"), nondiff=("indices",), checks=_along("arr", "indices", True))
def take_along_axis(arr, indices, axis, broadcast=True):
    """Elements of ``arr`` picked along ``axis`` by ``indices`` (same rank as ``arr``)."""
    if arr.ndim != indices.ndim:
        raise ValueError(
            f"take_along_axis: indices must have the rank of arr ({arr.ndim}), but it has {indices.ndim} dimensions."
        )
    axis = axis % arr.ndim
    if not broadcast:  # Paddle reads the leading part of arr along every other axis: indices [1, 1] of a [2, 3] arr
        big = [i for i in range(arr.ndim) if i != axis and indices.shape[i] > arr.shape[i]]
        if big:  # (Paddle's error type here is RuntimeError)
            raise RuntimeError(
                f"take_along_axis: with broadcast=False indices may not be larger than arr off the axis {axis}, but "
                f"received indices of shape {list(indices.shape)} for arr of shape {list(arr.shape)}. Pass "
                "broadcast=True, or shrink the indices."
            )
        arr = arr[tuple(slice(None) if i == axis else slice(0, indices.shape[i]) for i in range(arr.ndim))]
        return jnp.take_along_axis(arr, indices, axis=axis)
    if broadcast:
        common = [max(a, b) for a, b in zip(arr.shape, indices.shape)]
        arr = jnp.broadcast_to(arr, tuple(arr.shape[axis] if i == axis else d for i, d in enumerate(common)))
        indices = jnp.broadcast_to(
            indices, tuple(indices.shape[axis] if i == axis else d for i, d in enumerate(common))
        )
    return jnp.take_along_axis(arr, indices, axis=axis)


_REDUCES = ("assign", "add", "mul", "multiply", "mean", "amin", "amax")


def _grid(indices, axis):  # noqa: ANN001, ANN202
    """Full index tuple for writing ``values`` along ``axis`` at ``indices``."""
    grids = list(jnp.meshgrid(*[jnp.arange(n) for n in indices.shape], indexing="ij"))  # (a tuple in newer JAX)
    grids[axis] = indices
    return tuple(grids)


@defop(3, saves=("arr", "indices", "values"), nondiff=("indices",), inplace=True,
       checks=_along("arr", "indices", True))
def put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True, broadcast=True):
    """``arr`` with ``values`` written along ``axis`` at ``indices`` (reduce: assign, add, mul, amin, amax, mean)."""
    if reduce not in _REDUCES:
        raise ValueError(f"put_along_axis: reduce must be one of {', '.join(_REDUCES)}, but received {reduce!r}.")
    axis = axis % arr.ndim
    if broadcast and indices.ndim == arr.ndim:
        shape = list(arr.shape)
        shape[axis] = indices.shape[axis]
        indices = jnp.broadcast_to(indices, shape)
    values = jnp.broadcast_to(jnp.asarray(values, arr.dtype), indices.shape)
    if not include_self and reduce in ("mul", "multiply", "amin", "amax"):
        # the targets start from the reduction's identity, so only the values written there count
        if reduce in ("mul", "multiply"):
            start = 1
        elif jnp.issubdtype(arr.dtype, jnp.integer):
            start = jnp.iinfo(arr.dtype).max if reduce == "amin" else jnp.iinfo(arr.dtype).min
        else:
            start = jnp.inf if reduce == "amin" else -jnp.inf
        arr = arr.at[_grid(indices, axis)].set(jnp.asarray(start, arr.dtype))
    at = arr.at[_grid(indices, axis)]
    if reduce == "assign":
        return at.set(values)
    if reduce == "add":
        return (
            at.add(values) if include_self else arr.at[_grid(indices, axis)].set(0).at[_grid(indices, axis)].add(values)
        )
    if reduce in ("mul", "multiply"):
        # one slice of indices at a time: within a slice every target is distinct, which is
        # what JAX needs to differentiate a scatter-multiply
        out = arr
        for j in range(indices.shape[axis]):
            sl = tuple(slice(j, j + 1) if i == axis else slice(None) for i in range(arr.ndim))
            out = out.at[_grid(indices[sl], axis)].multiply(values[sl], unique_indices=True)
        return out
    if reduce == "amin":
        return at.min(values)
    if reduce == "amax":
        return at.max(values)
    idx = _grid(indices, axis)
    total = arr.at[idx].add(values) if include_self else arr.at[idx].set(0).at[idx].add(values)
    count = jnp.ones_like(arr).at[idx].add(1) if include_self else jnp.zeros_like(arr).at[idx].add(1)
    return jnp.where(count > 0, total / jnp.maximum(count, 1), arr).astype(arr.dtype)


@defop(3, saves=("mask",), nondiff=("mask",), inplace=True)
def masked_fill(x, mask, value):
    """``x`` with ``value`` where ``mask`` is True."""
    return jnp.where(mask, jnp.asarray(value, x.dtype), x)


@defop(2, saves=("index",), nondiff=("index",), method=False, name="masked_gather")
def masked_gather(x, index):
    """Elements of the flattened ``x`` at ``index`` (the kernel of masked_select)."""
    return jnp.ravel(x)[index]
