"""``Tensor.__getitem__`` / ``__setitem__`` and casting.

An index is split into a static spec (ints, slices, None, Ellipsis: part of the kernel
key) and tensor parts (integer index arrays: kernel inputs), so one kernel serves every
index value of the same structure.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from ._util import dtype_arg
from .checks import ValueCheck, dtype_of
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
       checks=_index_checks)
def getitem(x, indices, spec):
    """``x[index]`` with ints, slices (with steps), None, Ellipsis and integer index arrays."""
    return expand_bools(x, spec)[build_index(spec, indices)]


@defop(("x", "indices", "value"), saves=("indices",), nondiff=("indices",), name="setitem", method=False,
       checks=_index_checks)
def setitem(x, indices, value, spec):
    """``x`` with ``x[index] = value`` written (functional; the Tensor method rebinds)."""
    value = jnp.asarray(value).astype(x.dtype)
    return expand_bools(x, spec).at[build_index(spec, indices)].set(value).reshape(x.shape)


@defop(1, name="cast")
def cast(x, dtype):
    """``x`` converted to ``dtype``."""
    return x.astype(dtype_arg(dtype))
