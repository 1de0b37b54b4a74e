"""Shape and layout ops: reshape, split, concat, transpose, slicing, flips.

All of these are linear in their tensor input, so they save nothing: the backward only
needs shapes, which the tape keeps anyway.
"""

from __future__ import annotations

import builtins
import math

import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.export import is_symbolic_dim

from ._util import dtype_arg
from .checks import axis_check, ndim_of
from .rows import MAP, off_axes, off_axis0, when
from .table import defop

# the op named ``slice`` below shadows the builtin in this module
_py_slice = builtins.slice


def _ints(v, api, what):  # noqa: ANN001, ANN202
    """An int or a sequence of ints as a tuple of ints. A symbolic size (``x.shape[0]`` while ``jit.save`` exports
    an input_spec's None dimension) counts as an int."""
    if isinstance(v, int) or is_symbolic_dim(v):
        return (v,)
    if isinstance(v, tuple | list) and all(isinstance(e, int) or is_symbolic_dim(e) for e in v):
        return tuple(v)
    raise TypeError(f"{api}: {what} must be an int or a list of ints, but received {v!r}.")


def _axis(a, ndim, api):  # noqa: ANN001, ANN202
    """Normalise one axis, with Paddle's error for an out-of-range value."""
    if not -max(ndim, 1) <= a < max(ndim, 1):
        raise ValueError(
            f"{api}: axis {a} is out of range for a tensor with {ndim} dimensions; "
            f"use a value in [{-max(ndim, 1)}, {max(ndim, 1) - 1}]."
        )
    return a % max(ndim, 1)


def target_shape(shape, in_shape, api="reshape"):  # noqa: ANN001, ANN202
    """Paddle's reshape rule: 0 copies the input's dim at that position, one -1 is inferred."""
    shape = list(_ints(shape, api, "shape"))
    size = math.prod(in_shape)
    if shape.count(-1) > 1:
        raise ValueError(f"{api}: only one dimension of shape may be -1, but received {shape}.")
    for i, s in enumerate(shape):
        if s == 0:
            if i >= len(in_shape):
                raise ValueError(
                    f"{api}: shape {shape} has 0 (copy the input's dim) at position {i}, but the input "
                    f"has only {len(in_shape)} dimensions."
                )
            shape[i] = in_shape[i]
        elif s < -1:
            raise ValueError(f"{api}: shape entries must be positive, 0 or -1, but received {shape}.")
    if -1 in shape:
        known = math.prod(s for s in shape if s != -1)
        if known == 0 or size % known:
            raise ValueError(f"{api}: cannot infer the -1 in shape {shape} for an input of {size} elements.")
        shape[shape.index(-1)] = size // known
    if math.prod(shape) != size:
        raise ValueError(
            f"{api}: cannot reshape an input of shape {list(in_shape)} ({size} elements) to {shape}; "
            "the element counts must match."
        )
    return tuple(shape)


def _keeps_rows(a):  # noqa: ANN001, ANN202
    """A reshape whose new first dimension is the input's (0 copies it; -1, inferred, is the batch exactly when the
    other dimensions hold a row: the padded step checks each result's shape)."""
    shape = a.get("shape", a.get("shape_or_dtype"))
    return isinstance(shape, tuple | list) and len(shape) > 0 and shape[0] in (0, -1) and shape.count(-1) <= 1


def _squeeze_keeps_rows(a):  # noqa: ANN001, ANN202
    """Axes named and none of them the batch's (None squeezes a batch of one row too)."""
    axes = a["axis"]
    items = axes if isinstance(axes, tuple | list) else (axes,)
    return axes is not None and all(isinstance(ax, int) and ax % a["x"] != 0 for ax in items)


def _unsqueeze_keeps_rows(a):  # noqa: ANN001, ANN202
    """Whether the batch axis stays first once the axes are inserted one after another."""
    axes, n, at = a["axis"], a["x"], 0
    for ax in axes if isinstance(axes, tuple | list) else (axes,):
        if not isinstance(ax, int):
            return False
        pos = ax + n + 1 if ax < 0 else ax
        at += pos <= at
        n += 1
    return at == 0


def _reshape_checks(op, a):  # noqa: ANN001, ANN202
    shape = a["shape"]
    if not (isinstance(shape, int | tuple) and not isinstance(shape, bool)):
        # Paddle's error for a shape that is no list, tuple or Tensor is a ValueError
        raise ValueError(
            f"{op}: shape must be a list or tuple of ints (or a Tensor), but received {type(shape).__name__} "
            f"({shape!r}). Pass the new shape, e.g. [2, -1]."
        )
    return []


_reshape_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, checks=_reshape_checks, rows=when(_keeps_rows))
def reshape(x, shape):
    """``x`` with a new shape; 0 copies the input's dim, -1 is inferred."""
    return jnp.reshape(x, target_shape(shape, x.shape))


@defop(1, rows=when(_keeps_rows))
def view(x, shape_or_dtype):
    """A reshape (shape given) or a bitcast to another dtype (dtype given): to a narrower dtype the last axis grows by
    the ratio of the widths, to a wider one it shrinks by it (and must be a multiple of it)."""
    if isinstance(shape_or_dtype, tuple | list | int):
        return jnp.reshape(x, target_shape(shape_or_dtype, x.shape, "view"))
    dt = np.dtype(dtype_arg(shape_or_dtype))
    a, b = x.dtype.itemsize, dt.itemsize
    if a == b:
        return lax.bitcast_convert_type(x, dt)
    # another width: as Paddle, the last axis is rescaled (int32 [4] viewed as int16 is [8], and back)
    if x.ndim == 0:
        raise ValueError(f"view: a 0-D {x.dtype.name} tensor cannot be viewed as {dt.name} (another width); give it "
                         "an axis first, e.g. x.reshape([1]).")
    last = x.shape[-1]
    if a > b:
        return lax.bitcast_convert_type(x, dt).reshape(*x.shape[:-1], last * (a // b))
    times = b // a
    if last % times:
        raise ValueError(f"view: the last dimension ({last}) must be a multiple of {times} to view {x.dtype.name} as "
                         f"{dt.name}, but x has shape {list(x.shape)}.")
    return lax.bitcast_convert_type(x.reshape(*x.shape[:-1], last // times, times), dt)


@defop(1, rows=when(off_axis0("start_axis")))
def flatten(x, start_axis=0, stop_axis=-1):
    """Merge the axes ``start_axis..stop_axis`` into one (a 0-D input becomes shape [1])."""
    if x.ndim == 0:
        return jnp.reshape(x, (1,))
    s, e = _axis(start_axis, x.ndim, "flatten"), _axis(stop_axis, x.ndim, "flatten")
    if s > e:
        raise ValueError(f"flatten: start_axis ({start_axis}) must not come after stop_axis ({stop_axis}).")
    shape = x.shape[:s] + (math.prod(x.shape[s : e + 1]),) + x.shape[e + 1 :]
    return jnp.reshape(x, shape)


@defop(1, rows=when(_squeeze_keeps_rows), axes=off_axes(lambda a: ()))
def squeeze(x, axis=None):
    """Drop size-1 axes (all of them, or those in ``axis``; axes of other sizes are left alone)."""
    if axis is None:
        return jnp.reshape(x, tuple(d for d in x.shape if d != 1))
    axes = {_axis(a, x.ndim, "squeeze") for a in _ints(axis, "squeeze", "axis")}
    return jnp.reshape(x, tuple(d for i, d in enumerate(x.shape) if not (i in axes and d == 1)))


def _unsqueeze_checks(op, a):  # noqa: ANN001, ANN202
    ax = a["axis"]
    items = ax if isinstance(ax, tuple) else (ax,)
    n = ndim_of(a["x"])
    for k, one in enumerate(items):
        axis_check(op, one, n + k, "axis", extra=1, allow_none=False)
    return []


@defop(1, checks=_unsqueeze_checks, rows=when(_unsqueeze_keeps_rows), axes=off_axes(lambda a: ()))
def unsqueeze(x, axis):
    """Insert size-1 axes, one after another in the order given."""
    shape = list(x.shape)
    for a in _ints(axis, "unsqueeze", "axis"):
        a = a + len(shape) + 1 if a < 0 else a
        shape.insert(a, 1)
    return jnp.reshape(x, tuple(shape))


def _concat_checks(op, a):  # noqa: ANN001, ANN202
    x = a["x"]
    if not isinstance(x, list | tuple) or not x:
        raise ValueError(
            f"{op}: x must be a non-empty list of Tensors, but received {x!r}. Pass the tensors to join, e.g. "
            f"{op}([a, b])."
        )
    if hasattr(x[0], "shape"):
        axis_check(op, a["axis"], ndim_of(x[0]))
    return []


@defop(1, checks=_concat_checks, rows=when(off_axis0(), MAP))
def concat(x, axis=0):
    """Join a list of tensors along an existing axis."""
    dt = jnp.result_type(*x)
    return jnp.concatenate([a.astype(dt) for a in x], axis=axis)


def _stack_checks(op, a):  # noqa: ANN001, ANN202
    x = a["x"]
    if isinstance(x, list | tuple) and x and hasattr(x[0], "shape"):
        axis_check(op, a["axis"], ndim_of(x[0]), "axis", extra=1, allow_none=False)
    return []


@defop(1, checks=_stack_checks, rows=when(off_axis0(extra=1)))
def stack(x, axis=0):
    """Join a list of same-shaped tensors along a new axis."""
    if not isinstance(x, list | tuple) or not x:
        raise ValueError(f"stack: x must be a non-empty list of Tensors, but received {x!r}. Pass the tensors to "
                         "join, e.g. stack([a, b]).")
    return jnp.stack(list(x), axis=axis)


def split_sizes(dim, num_or_sections, api="split"):  # noqa: ANN001, ANN202
    """Section sizes for Paddle's split: an equal count, or sizes where one may be -1."""
    if isinstance(num_or_sections, int):
        if num_or_sections <= 0 or dim % num_or_sections:
            raise ValueError(
                f"{api}: an axis of size {dim} cannot be split into {num_or_sections} equal parts; "
                "pass a divisor of the size or a list of section sizes."
            )
        return [dim // num_or_sections] * num_or_sections
    secs = list(_ints(num_or_sections, api, "num_or_sections"))
    if secs.count(-1) > 1:
        raise ValueError(f"{api}: only one section size may be -1, but received {secs}.")
    if -1 in secs:
        secs[secs.index(-1)] = dim - sum(s for s in secs if s != -1)
    if sum(secs) != dim or any(s < 0 for s in secs):
        raise ValueError(f"{api}: section sizes {list(num_or_sections)} do not add up to the axis size {dim}.")
    return secs


def _split_at(x, sizes, axis):  # noqa: ANN001, ANN202
    idx, acc = [], 0
    for s in sizes[:-1]:
        acc += s
        idx.append(acc)
    return list(jnp.split(x, idx, axis=axis))


def _split_checks(op, a):  # noqa: ANN001, ANN202
    axis = a["axis"]
    if isinstance(axis, float):  # Paddle: a ValueError for a float axis (a TypeError for a str one)
        raise ValueError(f"{op}: axis must be an int, but received the float {axis!r}. Pass an integer axis.")
    axis_check(op, axis, ndim_of(a["x"]), allow_none=False)
    return []


_split_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, checks=_split_checks)
def split(x, num_or_sections, axis=0):
    """Split into equal parts (an int) or parts of given sizes (a list; one entry may be -1)."""
    ax = _axis(axis, x.ndim, "split")
    return _split_at(x, split_sizes(x.shape[ax], num_or_sections), ax)


@defop(1)
def chunk(x, chunks, axis=0):
    """Split into ``chunks`` equal parts along ``axis``."""
    ax = _axis(axis, x.ndim, "chunk")
    return _split_at(x, split_sizes(x.shape[ax], chunks, "chunk"), ax)


@defop(1)
def unbind(input, axis=0):
    """The slices along ``axis`` as a list (that axis removed)."""
    ax = _axis(axis, input.ndim, "unbind")
    return [jnp.squeeze(p, ax) for p in jnp.split(input, input.shape[ax], axis=ax)] if input.shape[ax] else []


@defop(1)
def unstack(x, axis=0, num=None):
    """The slices along ``axis`` as a list (that axis removed)."""
    ax = _axis(axis, x.ndim, "unstack")
    if num is not None and num != x.shape[ax]:
        raise ValueError(f"unstack: num ({num}) must equal the size {x.shape[ax]} of axis {axis}.")
    return [jnp.squeeze(p, ax) for p in jnp.split(x, x.shape[ax], axis=ax)] if x.shape[ax] else []


def _expand_shape(x, shape, api):  # noqa: ANN001, ANN202
    shape = list(_ints(shape, api, "shape"))
    if len(shape) < x.ndim:
        raise ValueError(f"{api}: the target shape {shape} has fewer dimensions than the input {list(x.shape)}.")
    off = len(shape) - x.ndim
    return tuple(x.shape[i - off] if s == -1 and i >= off else s for i, s in enumerate(shape))


@defop(1)
def expand(x, shape):
    """Broadcast to ``shape``; -1 keeps the input's size."""
    return jnp.broadcast_to(x, _expand_shape(x, shape, "expand"))


@defop(1)
def broadcast_to(x, shape):
    """Broadcast to ``shape``; -1 keeps the input's size."""
    return jnp.broadcast_to(x, _expand_shape(x, shape, "broadcast_to"))


@defop(2, nondiff=("y",))
def expand_as(x, y):
    """Broadcast ``x`` to ``y``'s shape (``y`` gives only its shape)."""
    return jnp.broadcast_to(x, y.shape)


@defop(1)
def broadcast_tensors(input):
    """The inputs broadcast to their common shape."""
    return list(jnp.broadcast_arrays(*input))


def _tile_checks(op, a):  # noqa: ANN001, ANN202
    r = a["repeat_times"]
    items = r if isinstance(r, tuple) else (r,)
    if not all(isinstance(e, int) and not isinstance(e, bool) and e >= 0 for e in items):
        raise ValueError(f"{op}: repeat_times must be a list of non-negative ints, but received {r!r}.")
    return []


@defop(1, checks=_tile_checks)
def tile(x, repeat_times):
    """Repeat the whole tensor ``repeat_times[i]`` times along each axis."""
    return jnp.tile(x, _ints(repeat_times, "tile", "repeat_times"))


def _flip(x, axis):  # noqa: ANN001, ANN202
    return jnp.flip(x, tuple(_axis(a, x.ndim, "flip") for a in _ints(axis, "flip", "axis")))


flip = defop(1, name="flip")(_flip)
reverse = defop(1, name="reverse")(_flip)


def _roll_checks(op, a):  # noqa: ANN001, ANN202
    """Paddle's rule: one shift per axis (a single shift without ``axis``); an axis may repeat (its shifts add)."""
    shifts, axis = a["shifts"], a["axis"]
    n_shifts = int(np.size(np.asarray(shifts))) if hasattr(shifts, "shape") or isinstance(shifts, tuple | list) else 1
    if axis is None:
        if n_shifts != 1:
            raise ValueError(f"{op}: without axis x is rolled as one flat sequence by a single shift, but received "
                             f"{n_shifts} shifts; pass one shift or an axis for each.")
        return []
    axis_check(op, axis, ndim_of(a["x"]), "axis", unique=False)
    n_axes = len(axis) if isinstance(axis, tuple | list) else 1
    if n_shifts != n_axes:
        raise ValueError(f"{op}: shifts and axis must have the same length (one shift per axis), but received "
                         f"{n_shifts} shifts and {n_axes} axes.")
    return []


_roll_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, checks=_roll_checks)
def roll(x, shifts, axis=None):
    """Rotate elements along axes (over the flattened tensor when ``axis`` is None)."""
    if axis is None:
        return jnp.reshape(jnp.roll(jnp.ravel(x), shifts), x.shape)
    return jnp.roll(x, _ints(shifts, "roll", "shifts"), _ints(axis, "roll", "axis"))


def _transpose_checks(op, a):  # noqa: ANN001, ANN202
    perm, n = a["perm"], ndim_of(a["x"])
    items = perm if isinstance(perm, tuple) else (perm,)
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in items):
        raise TypeError(f"{op}: perm must be a list of ints, but received {perm!r}. Pass a permutation of the axes.")
    if sorted(p % max(n, 1) if -n <= p < n else p for p in items) != list(range(n)):
        raise ValueError(
            f"{op}: perm must be a permutation of the {n} axes (each of 0..{n - 1} once), but received "
            f"{list(items)}."
        )
    return []


_transpose_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, checks=_transpose_checks, rows=when(lambda a: isinstance(a["perm"], tuple | list) and len(a["perm"]) == a["x"] and a["perm"][0] % a["x"] == 0),
       axes=off_axes(lambda a: (), ok=lambda a: isinstance(a["perm"], tuple | list) and len(a["perm"]) == a["x"]))
def transpose(x, perm):
    """Permute the axes by ``perm``."""
    return jnp.transpose(x, _ints(perm, "transpose", "perm"))


@defop(1)
def t(input):
    """Transpose of a matrix; 0-D and 1-D tensors come back unchanged."""
    if input.ndim > 2:
        raise ValueError(
            f"t: the input must have at most 2 dimensions, but it has {input.ndim} "
            f"(shape {list(input.shape)}); use transpose with a perm instead."
        )
    return input.T


@defop(1)
def moveaxis(x, source, destination):
    """Move axes ``source`` to positions ``destination``."""
    return jnp.moveaxis(x, _ints(source, "moveaxis", "source"), _ints(destination, "moveaxis", "destination"))


@defop(1)
def swapaxes(x, perm, axis1=None):
    """``swapaxes(x, a, b)`` swaps two axes; ``swapaxes(x, perm)`` permutes like transpose."""
    if axis1 is None:
        return jnp.transpose(x, _ints(perm, "swapaxes", "perm"))
    return jnp.swapaxes(x, perm, axis1)


@defop(1)
def rot90(x, k=1, axes=(0, 1)):
    """Rotate by 90 degrees ``k`` times in the plane of ``axes``."""
    return jnp.rot90(x, k, tuple(axes))


def _diagonal_checks(op, a):  # noqa: ANN001, ANN202
    n = ndim_of(a["x"])
    for name in ("axis1", "axis2"):
        if not isinstance(a[name], int) or not -n <= a[name] < n:
            raise IndexError(f"{op}: {name} {a[name]!r} is out of range for a {n}-D input; it must be in [-{n}, {n}).")
    if a["axis1"] % n == a["axis2"] % n:
        raise ValueError(f"{op}: axis1 and axis2 must differ, but both name axis {a['axis1'] % n}.")
    return []


@defop(1, checks=_diagonal_checks)
def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal of the (axis1, axis2) planes, as a new last axis."""
    return jnp.diagonal(x, offset, axis1, axis2)


@defop(1)
def trace(x, offset=0, axis1=0, axis2=1):
    """Sum of the diagonal of the (axis1, axis2) planes, in x's dtype (int32 stays int32, as in Paddle)."""
    return jnp.trace(x, offset, axis1, axis2, dtype=None if x.dtype == jnp.bool_ else x.dtype)


def _clamp(v, dim):  # noqa: ANN001, ANN202
    v = v + dim if v < 0 else v
    return min(max(v, 0), dim)


def _slice_checks(op, a):  # noqa: ANN001, ANN202
    axes, starts, ends = (_ints(a[n], op, n) for n in ("axes", "starts", "ends"))
    if not len(axes) == len(starts) == len(ends):
        raise ValueError(
            f"{op}: axes, starts and ends must have the same length, but received {len(axes)}, "
            f"{len(starts)} and {len(ends)}."
        )
    # (Paddle 3.3.1 takes an axis named twice with the output size of its last entry and the sum of the starts
    # as the offset: slice(x, [1, 1], [1, 0], [3, 1]) is column 1; no slice at all, so an error)
    axis_check(op, axes, ndim_of(a["input"]), "axes", unique=True)
    return []


_slice_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, checks=_slice_checks)
def slice(input, axes, starts, ends):  # noqa: A001
    """``input[starts:ends]`` along each of ``axes`` (indices clamp like Python slices)."""
    axes, starts, ends = (_ints(v, "slice", n) for v, n in ((axes, "axes"), (starts, "starts"), (ends, "ends")))
    idx = [_py_slice(None)] * input.ndim
    for a, s, e in zip(axes, starts, ends):
        d = input.shape[a]
        idx[a] = _py_slice(_clamp(s, d), _clamp(e, d))
    return input[tuple(idx)]


def _strided_slice_checks(op, a):  # noqa: ANN001, ANN202
    names = ("axes", "starts", "ends", "strides")
    lengths = [len(a[n]) if isinstance(a[n], tuple) else 1 for n in names]
    if len(set(lengths)) > 1:
        raise ValueError(
            f"{op}: axes, starts, ends and strides must have the same length (one entry per axis), but received "
            f"{', '.join(map(str, lengths[:-1]))} and {lengths[-1]}."
        )
    axes = a["axes"] if isinstance(a["axes"], tuple) else (a["axes"],)
    if all(isinstance(e, int) for e in axes):  # (other entries: the op says what is wrong with them)
        axis_check(op, axes, ndim_of(a["x"]), "axes", unique=False)
        if any(e < 0 for e in axes):  # (a ValueError in Paddle 3.3.1, which slice does not raise)
            raise ValueError(f"{op}: axes must be non-negative (Paddle's strided_slice counts no axis from the end), "
                             f"but received {list(axes)}; write {[e % max(ndim_of(a['x']), 1) for e in axes]}.")
    return []


_strided_slice_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, checks=_strided_slice_checks)
def strided_slice(x, axes, starts, ends, strides):
    """``x[starts:ends:strides]`` along each of ``axes``."""
    idx = [_py_slice(None)] * x.ndim
    for a, s, e, st in zip(axes, starts, ends, strides):
        idx[a] = _py_slice(s, e, st)
    return x[tuple(idx)]


def _crop_checks(op, a):  # noqa: ANN001, ANN202
    dims = list(a["x"].shape)
    shape = dims if a["shape"] is None else list(_ints(a["shape"], op, "shape"))
    offsets = [0] * len(dims) if a["offsets"] is None else list(_ints(a["offsets"], op, "offsets"))
    for what, v in (("shape", shape), ("offsets", offsets)):
        if len(v) != len(dims):
            raise ValueError(
                f"{op}: {what} needs one entry per dimension of x ({len(dims)}, shape {dims}), but received {v}. "
                f"Give each axis its {'size' if what == 'shape' else 'offset'}."
            )
    for i, (o, s, n) in enumerate(zip(offsets, shape, dims)):
        if o < 0:
            raise ValueError(f"{op}: an offset must not be negative, but offsets[{i}] is {o}. Count it from 0.")
        if s < -1:
            raise ValueError(
                f"{op}: an entry of shape is a size (0 or more) or -1 (to the end of the axis), but shape[{i}] is "
                f"{s}."
            )
        if n >= 0 and s == -1 and o > n:
            raise ValueError(
                f"{op}: offsets[{i}] is {o}, past the end of axis {i} of size {n} (x's shape {dims}); it must be at "
                f"most {n}. Use a smaller offset."
            )
        if n >= 0 and s != -1 and o + s > n:
            raise ValueError(
                f"{op}: the block does not fit in axis {i} of size {n} (x's shape {dims}): offsets[{i}] + shape[{i}] "
                f"is {o} + {s}; it must be at most {n}. Use a smaller offset or size."
            )
    return []


_crop_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, checks=_crop_checks)
def crop(x, shape=None, offsets=None):
    """The block of size ``shape`` (-1: to the end) starting at ``offsets``."""
    offsets = (0,) * x.ndim if offsets is None else _ints(offsets, "crop", "offsets")
    shape = x.shape if shape is None else _ints(shape, "crop", "shape")
    idx = tuple(_py_slice(o, x.shape[i] if s == -1 else o + s) for i, (o, s) in enumerate(zip(offsets, shape)))
    return x[idx]


def _unfold_checks(_, a):  # noqa: ANN001, ANN202  (the messages name Paddle's unfold, not the op's name)
    dims = list(a["x"].shape)
    n = len(dims)
    axis, size, step = a["axis"], a["size"], a["step"]
    for what, v in (("axis", axis), ("size", size), ("step", step)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"unfold: {what} must be an int, but received {v!r}.")
    if not -max(n, 1) <= axis < max(n, 1):
        raise ValueError(f"unfold: axis {axis} is out of range for a {n}-D x; it must be in [-{max(n, 1)}, {max(n, 1)}).")
    if step <= 0:
        raise ValueError(f"unfold: step must be greater than 0, but received {step}.")
    length = dims[axis] if n else 1
    if length >= 0 and not 0 <= size <= length:
        raise ValueError(
            f"unfold: size must be in [0, {length}] (the length of axis {axis} of x, shape {dims}), but received "
            f"{size}. Use a smaller window."
        )
    return []


_unfold_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, checks=_unfold_checks, method=False)
def unfold_windows(x, axis, size, step):
    """The windows of ``size`` elements every ``step`` along ``axis``, as a new last axis: Paddle's ``paddle.unfold``
    and ``Tensor.unfold`` (in Paddle, a view; ``nn.functional.unfold`` is the convolution patches, ``_ops.conv``)."""
    if x.ndim == 0:
        return x.reshape((1,))[:size]
    axis %= x.ndim
    count = (x.shape[axis] - size) // step + 1
    idx = (jnp.arange(count) * step)[:, None] + jnp.arange(size)[None, :]
    return jnp.moveaxis(jnp.take(x, idx, axis=axis), axis + 1, -1)


def _strided_positions(shape, stride, offset):  # noqa: ANN001, ANN202
    """The flat positions ``offset + sum(i_k * stride_k)`` of every index ``i`` of ``shape`` (numpy, static)."""
    pos = np.full(tuple(shape), offset, np.int64)
    for k, (n, st) in enumerate(zip(shape, stride)):
        pos = pos + (np.arange(n, dtype=np.int64) * st).reshape([n if j == k else 1 for j in range(len(shape))])
    return pos


def _as_strided_checks(op, a):  # noqa: ANN001, ANN202
    shape = list(_ints(a["shape"], op, "shape"))
    stride = list(_ints(a["stride"], op, "stride"))
    offset = a["offset"]
    if not isinstance(offset, int) or isinstance(offset, bool):
        raise TypeError(f"{op}: offset must be an int, but received {offset!r}.")
    if len(shape) != len(stride):
        raise ValueError(f"{op}: shape and stride need one entry per axis of the result, but received shape {shape} "
                         f"and stride {stride}.")
    if any(d < 0 for d in shape):
        raise ValueError(f"{op}: every entry of shape must be >= 0, but received {shape}.")
    dims = list(a["x"].shape)
    if any(d < 0 for d in dims):  # (a static program's unknown size: checked when it runs)
        return []
    size = math.prod(dims)
    pos = _strided_positions(shape, stride, offset)
    if pos.size and (pos.min() < 0 or pos.max() >= size):
        bad = int(pos.max() if pos.max() >= size else pos.min())
        raise IndexError(
            f"{op}: shape {shape}, stride {stride} and offset {offset} reach element {bad} of x's {size} elements "
            f"(counted in row-major order); every position must be in [0, {size}). Paddle reads past the tensor's "
            "memory here; use a smaller shape, stride or offset."
        )
    return []


_as_strided_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, checks=_as_strided_checks)
def as_strided(x, shape, stride, offset=0):
    """The elements of ``x`` (row-major) at ``offset + sum(i_k * stride_k)`` for each index ``i`` of ``shape`` (in
    Paddle, a view over x's memory)."""
    pos = _strided_positions(_ints(shape, "as_strided", "shape"), _ints(stride, "as_strided", "stride"), offset)
    return jnp.take(x.reshape(-1), jnp.asarray(pos))


def _repeat_interleave_checks(op, a):  # noqa: ANN001, ANN202
    r = a["repeats"]
    if isinstance(r, int) and r <= 0:
        raise ValueError(f"{op}: repeats must be a positive int, but received {r}.")
    axis_check(op, a["axis"], ndim_of(a["x"]))
    return []


@defop(1, checks=_repeat_interleave_checks)
def repeat_interleave(x, repeats, axis=None, output_size=None):
    """Repeat each element ``repeats`` times (an int, or one count per element) along ``axis``."""
    if axis is None:
        x, axis = jnp.ravel(x), 0
    seq = isinstance(repeats, tuple | list)
    reps = jnp.asarray(repeats) if seq else repeats
    total = sum(repeats) if seq else repeats * x.shape[axis]
    if output_size is not None and output_size != total:
        raise ValueError(f"repeat_interleave: output_size must equal the length of the result (the sum of the "
                         f"repeats), {total}, but received output_size={output_size!r}; pass {total} or None.")
    return jnp.repeat(x, reps, axis=axis, total_repeat_length=total)


@defop(1, method=False)
def atleast_1d(x):
    """``x`` with at least 1 dimension."""
    return jnp.atleast_1d(x)


@defop(1, method=False)
def atleast_2d(x):
    """``x`` with at least 2 dimensions."""
    return jnp.atleast_2d(x)


@defop(1, method=False)
def atleast_3d(x):
    """``x`` with at least 3 dimensions (numpy's placement of the new axes)."""
    return jnp.atleast_3d(x)
