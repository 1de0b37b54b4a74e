"""Argument checks of ops (layer L1): what an op declares as ``checks`` in the op table.

A check gets the call's arguments by parameter name (Tensors, or anything with ``shape`` and
``ndim``, and the attributes as given, lists made tuples), raises a sentence naming the op,
the rule, what it received and the fix, and returns the ``ValueCheck``s on input values.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._runtime import dtypes as _dtypes
from .._runtime.kernel_cache import KernelCache

# Paddle checks some arguments with a Python ``assert`` (an AssertionError); where the package long raised a
# ValueError for the same misuse, this type is both, named AssertionError as Paddle's, so code catching either works
AssertionValueError = type("AssertionError", (AssertionError, ValueError), {"__module__": __name__})


class ValueCheck:
    """A rule on the values of one input, checked where they are known.

    Values outside ``[lo, hi)`` (``lo``/``hi`` None: unbounded; ``nonzero``: zeros) other than
    ``ignore`` are bad. ``lo`` and ``hi`` may be tuples, one bound per entry of the last axis
    (an N-d index whose last axis addresses several dimensions). Concrete inputs are checked at the call; a deferred input gets a small
    kernel recorded beside the op whose result is checked when the buffer runs. ``message`` is a
    sentence with ``{value}`` where the first bad value goes.
    """

    __slots__ = ("value", "lo", "hi", "ignore", "nonzero", "exc", "message")

    def __init__(self, value: Any, message: str, lo: int | None = None, hi: int | None = None,
                 ignore: int | None = None, nonzero: bool = False, exc: type[Exception] = ValueError) -> None:
        self.value, self.message, self.lo, self.hi = value, message, lo, hi
        self.ignore, self.nonzero, self.exc = ignore, nonzero, exc

    @property
    def key(self) -> tuple:
        return (self.lo, self.hi, self.ignore, self.nonzero)


def _first_bad(key: tuple, a: Any, xp: Any = jnp) -> tuple[Any, Any]:
    lo, hi, ignore, nonzero = key
    a = xp.asarray(a)
    if isinstance(hi, tuple):  # per entry of the last axis: compare row-wise, then flatten
        a = xp.reshape(a, (-1, len(hi)))
        lo, hi = (None if lo is None else xp.asarray(lo, a.dtype)), xp.asarray(hi, a.dtype)
    a_in = a
    a = xp.ravel(a)
    bad = xp.zeros(a_in.shape, bool)
    if lo is not None:
        bad = bad | (a_in < lo)
    if hi is not None:
        bad = bad | (a_in >= hi)
    bad = xp.ravel(bad)
    if nonzero:
        bad = bad | (a == 0)
    if ignore is not None:
        bad = bad & (a != ignore)
    if a.size == 0:
        return xp.asarray(False), xp.zeros((), a.dtype)
    return xp.any(bad), a[xp.argmax(bad)]


# platforms whose arrays are in host memory; a device array of at most HOST_CHECK_BYTES is copied to the host to be
# checked (a label or index array of a batch: a small copy, where a kernel would compile for every new batch size;
# the check waits for its answer either way)
_HOST_PLATFORMS = ("cpu",)
HOST_CHECK_BYTES = 1 << 20


def first_bad_now(key: tuple, a: Any) -> tuple[Any, Any]:
    """(any bad, first bad value) of a concrete array under a ValueCheck's rule ``key``: with numpy where the values
    are in host memory (a numpy array, a CPU array) or fit ``HOST_CHECK_BYTES`` (copied there): no kernel compiled per
    new shape, as a label of a new batch size would need; a larger device array by the cached kernel on the device."""
    if check_on_host(a):
        return _first_bad(key, np.asarray(a), np)
    return check_kernel(key)(a)


def check_on_host(a: Any) -> bool:
    """Whether a check of the concrete array ``a`` runs with numpy: its values are in host memory (a numpy array, a
    CPU array) or fit ``HOST_CHECK_BYTES`` (copied there); else a kernel runs it on the device."""
    devices = getattr(a, "devices", None)
    return devices is None or all(d.platform in _HOST_PLATFORMS for d in devices()) or a.nbytes <= HOST_CHECK_BYTES


_CHECK_KERNELS = KernelCache()  # bounded: see _runtime.kernel_cache


def check_kernel(key: tuple) -> Callable[..., Any]:
    """The cached jitted ``values -> (any bad, first bad value)`` of a ValueCheck's rule."""
    return _CHECK_KERNELS.kernel(key, lambda: jax.jit(functools.partial(_first_bad, key)))


class OutCheck:
    """A rule on an op's results, checked where they are known (eager calls; not inside a trace, a to_static
    function or a static program, where the values are not concrete): the failures Paddle's kernels raise on that
    only the computation shows (a matrix that is singular, one not positive definite).

    ``rule(xp, *inputs, *outputs)`` (``xp``: numpy or jax.numpy) gives one bool per matrix of the batch (an array
    of the batch's shape), True where the call failed; ``message(entry)`` the error's sentence for the first failing
    entry (``entry``: "the matrix" or "matrix 1 of the batch"). A concrete result is checked at the call (with numpy
    where it is in host memory, no kernel to compile); a deferred one by a small kernel recorded beside the op, whose
    answer raises when the buffer runs.
    """

    __slots__ = ("rule", "message", "exc", "_kernel")

    def __init__(self, rule: Callable[..., Any], message: Callable[[str], str],
                 exc: type[Exception] = ValueError) -> None:
        self.rule, self.message, self.exc = rule, message, exc
        self._kernel: Callable[..., Any] | None = None

    def _verdict(self, xp: Any, *arrays: Any) -> tuple[Any, Any]:
        flat = xp.ravel(xp.asarray(self.rule(xp, *arrays)))
        if flat.size == 0:
            return xp.asarray(False), xp.asarray(0)
        return xp.any(flat), xp.argmax(flat)

    @property
    def kernel(self) -> Callable[..., Any]:
        """The jitted ``arrays -> (any failed, flat index of the first)``."""
        if self._kernel is None:
            self._kernel = jax.jit(functools.partial(self._verdict, jnp))
        return self._kernel

    def now(self, arrays: Sequence[Any]) -> tuple[Any, Any]:
        """(any failed, flat index of the first) of concrete arrays: with numpy where they are in host memory or
        small (as ``first_bad_now``), else by the kernel on the device."""
        if all(check_on_host(a) for a in arrays):
            return self._verdict(np, *[np.asarray(a) for a in arrays])
        return self.kernel(*arrays)

    def fail(self, verdict: Any, avals: Sequence[tuple], where: str | None = None) -> None:
        """Raise the error of a failed verdict ``(any failed, flat index of the first)`` on arrays of the shapes and
        dtypes ``avals``."""
        if not bool(verdict[0]):
            return
        structs = [jax.ShapeDtypeStruct(tuple(s), d) for s, d in avals]
        batch = tuple(jax.eval_shape(lambda *a: jnp.asarray(self.rule(jnp, *a)), *structs).shape)
        if batch:
            idx = np.unravel_index(int(verdict[1]), batch)
            entry = f"matrix {int(idx[0]) if len(idx) == 1 else tuple(int(i) for i in idx)} of the batch"
        else:
            entry = "the matrix"
        raise self.exc(self.message(entry) + ("" if where is None else f" (called at {where})"))


def ndim_of(t: Any) -> int:
    return len(t.shape)


def first_tensor(v: Any) -> Any:
    """The first Tensor-like of a tensor argument (the first element of a list)."""
    if isinstance(v, list | tuple):
        return v[0] if v else None
    return v if hasattr(v, "shape") else None


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# ops whose out-of-range axis is an IndexError in Paddle (a ValueError for the others)
AXIS_INDEX_ERROR = frozenset({"cummax", "cummin", "cumsum", "gather", "index_select", "logcumsumexp", "diagonal",
                              "chunk"})
# ops whose tensor argument given a non-tensor (a str, a dict) is a TypeError in Paddle (a ValueError for the others)
KIND_TYPE_ERROR = frozenset({"pow", "equal", "atan2"})


def axis_check(op: str, value: Any, ndim: int, param: str = "axis", extra: int = 0, allow_none: bool = True,
         unique: bool = True, kind_exc: type[Exception] = TypeError) -> None:
    """An axis (int or list of ints) of a tensor with ``ndim`` dimensions (``extra``: a new axis may follow).

    ``kind_exc``: the exception for an axis that is not an int (Paddle's type for the op)."""
    if value is None and allow_none:
        return
    n = max(ndim + extra, 1)
    name = param if param in ("axis", "axes") else f"{param} (the axis)"
    items = value if isinstance(value, tuple) else (value,)
    if not all(_is_int(a) for a in items):
        raise kind_exc(
            f"{op}: {name} must be an int or a list of ints, but received {value!r} "
            f"({type(value).__name__}). Pass integer axes in [-{n}, {n})."
        )
    seen = set()
    for a in items:
        if not -n <= a < n:
            raise (IndexError if op in AXIS_INDEX_ERROR else ValueError)(
                f"{op}: {name} {a} is out of range for a {ndim}-D input; it must be in [-{n}, {n})."
            )
        if unique and a % n in seen:
            raise ValueError(f"{op}: {name} {value!r} names the same axis twice; give each axis once.")
        seen.add(a % n)


def default_checks(param: str) -> Callable[[str, dict], list]:
    """The check of an op whose ``axis``/``dim`` is an axis of its first tensor."""

    def check(op: str, a: dict) -> list:
        t = first_tensor(next(iter(a.values())))
        if t is not None:
            axis_check(op, a.get(param), ndim_of(t), param)
        return []

    check.attrs_only = True  # type: ignore[attr-defined]  # nothing to check when no attribute is given
    return check


def no_checks(op: str, a: dict) -> list:
    return []


def index_range(op: str, index: Any, n: int, what: str, allow_negative: bool,
                exc: type[Exception] = ValueError, ignore: int | None = None) -> ValueCheck | None:
    """Values of ``index`` must address one of ``n`` entries (``[-n, n)`` or ``[0, n)``)."""
    if index is None or not hasattr(index, "shape") or n < 0:
        return None
    lo = -n if allow_negative else 0
    return ValueCheck(
        index,
        f"{op}: {what} {{value}} is out of range: it must be in [{lo}, {n}). Fix the {what} values.",
        lo=lo, hi=n, ignore=ignore, exc=exc,
    )


def dtype_of(t: Any) -> np.dtype | None:
    """The numpy dtype of a Tensor-like (None for a Python number or a list)."""
    dt = getattr(t, "dtype", None)
    return None if dt is None else _dtypes.to_np(dt)


def integer_index(op: str, index: Any, what: str = "index", exc: type[Exception] = ValueError) -> None:
    """An index tensor must hold integers (Paddle takes int32 or int64)."""
    dt = dtype_of(index)
    if dt is not None and not np.issubdtype(dt, np.integer):
        raise exc(
            f"{op}: {what} must be an integer tensor (int32 or int64), but received dtype {dt.name}. "
            f"Cast it with .astype('int64')."
        )


def square_matrix(op: str, x: Any) -> None:
    """``x`` must be a square matrix or a batch of them (its last two dimensions equal)."""
    shape = list(x.shape)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(
            f"{op}: x must be a square matrix (or a batch of them: the last two dimensions equal), but received "
            f"shape {shape}. Pass an [..., n, n] tensor."
        )
