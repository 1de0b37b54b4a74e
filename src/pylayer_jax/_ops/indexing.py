"""``Tensor.__getitem__`` / ``__setitem__`` and casting.

An index is split into a static spec (ints, slices, None, Ellipsis: part of the kernel
key) and tensor parts (integer index arrays: kernel inputs), so one kernel serves every
index value of the same structure. A basic index whose ints and slice starts move from call
to call (``X[i * bs:(i + 1) * bs]`` over a loop's batches, ``x[:, t]``) is ``getitem_at``:
those values are its inputs, so one kernel serves every position (``_tensor.methods`` decides
when).
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
from jax import lax

from ._util import dtype_arg
from .checks import ValueCheck, dtype_of
from .rows import index_rule
from .table import defop

TENSOR = "T"
BOOL = "B"  # ``(BOOL, True)``: a scalar bool index, a new axis of size 1 (True) or 0 (False)


def _is_bool(s: Any) -> bool:
    return isinstance(s, tuple) and len(s) == 2 and s[0] == BOOL


def build_index(spec: tuple, arrays: Any) -> tuple:
    """Rebuild a jnp index from the static spec and the index arrays."""
    it = iter(arrays)
    out: list[Any] = []
    for s in spec:
        if s == TENSOR:
            out.append(next(it))
        elif isinstance(s, tuple) and s and s[0] == "slice":
            out.append(slice(s[1], s[2], s[3]))
        elif s == "...":
            out.append(Ellipsis)
        elif _is_bool(s):  # (expand_bools put a size-1 axis here)
            out.append(jnp.zeros((1 if s[1] else 0,), jnp.int32))
        else:
            out.append(s)
    return tuple(out)


def expand_bools(x: Any, spec: tuple) -> Any:
    """``x`` with a size-1 axis where each scalar bool index sits: numpy's rule, under which the bool then picks
    that axis's one entry (True) or none (False), broadcasting with any other index arrays."""
    if not any(_is_bool(s) for s in spec):
        return x
    consumed = sum(1 for s in spec if s != "..." and s is not None)
    ndim = x.ndim + sum(1 for s in spec if _is_bool(s))
    axes, dim = [], 0
    for s in spec:
        if s == "...":
            dim += ndim - consumed
        elif s is not None:
            if _is_bool(s):
                axes.append(dim)
            dim += 1
    return jnp.expand_dims(x, tuple(axes))


def ints_first(spec: tuple) -> tuple[tuple, tuple] | None:
    """Paddle's order for an index that mixes ints with index tensors: the ints pick first, as basic indexing,
    then the rest indexes what they leave (numpy's rule among the index tensors alone). Under numpy's rule an int
    counts as an index array, so ``c[0, :, [0, 2]]`` of a [2, 3, 4] tensor is [2, 3] there and [3, 2] in Paddle.
    The two specs (ints with every other axis whole; the rest without the ints), or None for an index without both
    kinds (where the rules agree)."""
    if TENSOR not in spec or not any(type(s) is int for s in spec):
        return None
    whole = ("slice", None, None, None)
    first = tuple(s if type(s) is int or s == "..." else whole for s in spec if s is not None and not _is_bool(s))
    rest = tuple(s for s in spec if type(s) is not int)
    return first, rest


def _index_checks(op: str, a: dict) -> list:
    """Each int in range of its axis (at the call), each index tensor's values in range (where known)."""
    shape = list(a["x"].shape)
    spec = a["spec"]
    arrays = list(a["indices"] or ())
    consumed = sum(1 for s in spec if s != "..." and s is not None and not _is_bool(s))
    if consumed > len(shape):
        raise IndexError(
            f"{op}: the index has too many entries for a tensor of {len(shape)} dimensions (shape {shape}): "
            f"{consumed} were given. Index at most one entry per dimension."
        )
    dim = 0
    checks = []
    it = iter(arrays)
    for s in spec:
        if s == "...":
            dim += len(shape) - consumed
            continue
        if s is None or _is_bool(s):
            continue
        n = shape[dim]
        if s == TENSOR:
            t = next(it)
            dt = dtype_of(t)
            if dt is not None and dt.kind not in "iu":
                raise ValueError(
                    f"{op}: an index tensor must hold integers (or bools, as a mask), but received dtype {dt.name}. "
                    "Cast it with .astype('int64')."
                )
            if n >= 0:
                checks.append(ValueCheck(
                    t, f"{op}: index {{value}} is out of range for dimension {dim} of size {n} (shape {shape}); it "
                    f"must be in [-{n}, {n}).", lo=-n, hi=n, exc=IndexError))
        elif isinstance(s, int) and n >= 0 and not -n <= s < n:
            raise IndexError(
                f"{op}: index {s} is out of range for dimension {dim} of size {n} (shape {shape}); it must be in "
                f"[-{n}, {n})."
            )
        dim += 1
    return checks


@defop(("x", "indices"), saves=("indices",), nondiff=("indices",), name="getitem", method=False,
       checks=_index_checks, rows=index_rule("spec", "indices"))
def getitem(x, indices, spec):
    """``x[index]`` with ints, slices (with steps), None, Ellipsis and integer index arrays (the ints first, as
    in Paddle: ``ints_first``)."""
    split = ints_first(spec)
    if split is not None:
        x, spec = x[build_index(split[0], ())], split[1]
    return expand_bools(x, spec)[build_index(spec, indices)]


AT = "at"  # in ``getitem_at``'s spec: an int index whose value is the next of the call's ``starts``
SPAN = "span"  # ``(SPAN, length)``: a slice of step 1 and that length whose start is the next of ``starts``;
# ``(SPAN, length, step)``: ``length`` elements ``step`` apart (a negative step walks down), the next of ``starts``
# the lowest index of the block they span (of ``(length - 1) * |step| + 1`` elements)


@defop(("x", "starts"), saves=("starts",), nondiff=("starts",), name="getitem_at", method=False)
def getitem_at(x, starts, spec):
    """``x[index]`` for a basic index (ints, slices, None) whose ints and step-1 slice starts are the inputs
    ``starts`` (each in range of its axis, negative ones counted from the end: the caller normalises and checks
    them), so that one kernel serves every position. ``spec`` has an entry per index item: ``AT``,
    ``(SPAN, length)``, ``(SPAN, length, step)``, None, or a slice that stays in the key as in ``getitem``
    (``("slice", a, b, c)``); the axes after the last entry are taken whole."""
    it = iter(starts)
    shape: list[int] = []  # the result's shape, entry by entry
    d = 0  # the axis of x the next entry indexes (an ``AT`` axis is kept, of size 1, until the end)
    for s in spec:
        if s is None:
            shape.append(1)
            continue
        if s == AT:
            x = lax.dynamic_index_in_dim(x, next(it), d, keepdims=True)
        elif s[0] == SPAN and len(s) == 2:
            x = lax.dynamic_slice_in_dim(x, next(it), s[1], d)
            shape.append(s[1])
        elif s[0] == SPAN:
            length, step = s[1], s[2]
            x = lax.dynamic_slice_in_dim(x, next(it), (length - 1) * abs(step) + 1, d)
            x = x[(slice(None),) * d + (slice(None, None, step),)]
            shape.append(length)
        else:
            x = x[(slice(None),) * d + (slice(s[1], s[2], s[3]),)]
            shape.append(x.shape[d])
        d += 1
    shape.extend(x.shape[d:])
    return x.reshape(shape)


@defop(("x", "indices", "value"), saves=("indices",), nondiff=("indices",), name="setitem", method=False,
       checks=_index_checks)
def setitem(x, indices, value, spec):
    """``x`` with ``x[index] = value`` written (functional; the Tensor method rebinds). As in Paddle, ``value`` may
    have more dimensions than ``x[index]`` where the extra leading ones are of size 1 (a [1, 3] value into a [3]
    row); the rest broadcasts."""
    value = jnp.asarray(value).astype(x.dtype)
    split = ints_first(spec)
    if split is not None:  # the ints pick the block the rest writes into, as ``getitem`` reads it
        first = build_index(split[0], ())
        block = x[first]
        wide = expand_bools(block, split[1])
        index = build_index(split[1], indices)
        block = wide.at[index].set(drop_leading_ones(value, wide[index].ndim)).reshape(block.shape)
        return x.at[first].set(block)
    wide = expand_bools(x, spec)
    index = build_index(spec, indices)
    return wide.at[index].set(drop_leading_ones(value, wide[index].ndim)).reshape(x.shape)


def drop_leading_ones(value, ndim):
    """``value`` without the leading size-1 dimensions that put it past ``ndim`` dimensions (those a write into an
    ``ndim``-dimensional slot ignores, as Paddle does); any other shape is left for broadcasting to judge."""
    extra = value.ndim - ndim
    if extra > 0 and all(d == 1 for d in value.shape[:extra]):
        return value.reshape(value.shape[extra:])
    return value


@defop(("x", "starts", "value"), saves=("starts",), nondiff=("starts",), name="setitem_at", method=False)
def setitem_at(x, starts, value, spec):
    """``x`` with ``x[index] = value`` written, for an index whose items are ``AT``, ``(SPAN, length)`` or a whole
    axis (``("slice", None, None, None)``), the positions the inputs ``starts`` as in ``getitem_at``: one kernel
    for every position. ``value`` broadcasts to what ``x[index]`` is, as in ``setitem``."""
    it = iter(starts)
    region, picked, at = [], [], []  # the written block's shape, ``x[index]``'s, and where the block starts
    for d, n in enumerate(x.shape):
        s = spec[d] if d < len(spec) else None
        if s == AT:
            region.append(1)
            at.append(next(it))
        elif s is not None and s[0] == SPAN:
            region.append(s[1])
            picked.append(s[1])
            at.append(next(it))
        else:  # a whole axis
            region.append(n)
            picked.append(n)
            at.append(0)
    block = jnp.broadcast_to(drop_leading_ones(jnp.asarray(value).astype(x.dtype), len(picked)), picked).reshape(region)
    return lax.dynamic_update_slice(x, block, [jnp.asarray(a, jnp.int64) for a in at])


@defop(1, name="cast")
def cast(x, dtype):
    """``x`` converted to ``dtype``. A real float meets an integer dtype as in Paddle's CPU kernel (the x86
    truncating conversion): int64 takes ``trunc(x)``, the narrower integers take ``trunc(x)`` as an int32 and keep
    its low bits (``300.0`` as uint8 is 44); a value the int32 (int64) cannot hold, NaN and +-inf give that type's
    minimum (``-2**31``, whose low bits are 0 in int8/int16/uint8), not XLA's saturated value."""
    dt = dtype_arg(dtype)
    if jnp.issubdtype(x.dtype, jnp.floating) and jnp.issubdtype(dt, jnp.integer):
        return _float_to_int(x, jnp.dtype(dt))
    return x.astype(dt)


def _float_to_int(x: Any, dt: Any) -> Any:
    wide = jnp.int64 if dt == jnp.int64 else jnp.int32
    if x.dtype.itemsize < 4:  # (float16, bfloat16: exact in float32, where the bounds below are finite)
        x = x.astype(jnp.float32)
    info = jnp.iinfo(wide)
    t = jnp.trunc(x)
    fits = (t >= float(info.min)) & (t < -float(info.min))  # NaN compares False
    out = jnp.where(fits, jnp.where(fits, x, 0).astype(wide), jnp.asarray(info.min, wide))
    return out if wide == dt else out.astype(dt)
