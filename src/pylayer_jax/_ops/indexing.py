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
        else:
            out.append(s)
    return tuple(out)


def _index_checks(op: str, a: dict) -> list:
    """Each int in range of its axis (at the call), each index tensor's values in range (where known)."""
    shape = list(a["x"].shape)
    spec = a["spec"]
    arrays = list(a["indices"] or ())
    consumed = sum(1 for s in spec if s != "..." and s is not None)
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
        if s is None:
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
    return x[build_index(spec, indices)]


@defop(("x", "indices", "value"), saves=("indices",), nondiff=("indices",), name="setitem", method=False,
       checks=_index_checks)
def setitem(x, indices, value, spec):
    """``x`` with ``x[index] = value`` written (functional; the Tensor method rebinds)."""
    value = jnp.asarray(value).astype(x.dtype)
    return x.at[build_index(spec, indices)].set(value)


@defop(1, name="cast")
def cast(x, dtype):
    """``x`` converted to ``dtype``."""
    return x.astype(dtype_arg(dtype))
