"""Bounded caches of compiled kernels (layer L0).

Every cache of ``jax.jit`` functions in the package is a :class:`KernelCache`: a
least-recently-used dict of at most ``maxsize`` kernels, each of which keeps at most
``MAX_SHAPES`` compiled executables (one per input shape). A kernel that has compiled more
shapes than that has its compiled cache cleared on its next lookup, and a kernel evicted from
the cache is cleared too (``clear_cache()`` frees that ``jax.jit`` function's executables;
the process-wide ``jax.clear_caches`` is never called), so a loop whose batch size never
repeats keeps a flat memory instead of one executable (about 1.5 MiB on CPU) per shape.

Bounds (environment variables, read at import):

- ``PYLAYER_JAX_MAX_SHAPES`` (default 16): executables one kernel keeps. A training loop
  uses one or two shapes per kernel (the full batch and the last, smaller one); evaluation
  adds a few. The 17th distinct shape restarts the kernel: its hot shapes compile again once.
- ``PYLAYER_JAX_MAX_KERNELS`` (default 256): kernels one cache keeps whose key holds no shape
  (an op's kernels per attribute set).
- ``SHAPED`` (64): kernels one cache keeps whose key holds the shapes (fused backward
  programs, deferred-buffer programs, zeros and ones of a shape): each holds one
  executable, so a step signature that never repeats ages out after 64 others.

JAX keeps every program it traces (a jaxpr per function and input shapes) until the function is
gone; for a kernel that lives on (an op's forward, JAX's own jitted helpers inside it) a loop of
new shapes would add a few traced programs per step forever. So every ``TRIM_EVERY`` (512) traces
for new shapes (counted by the deferred buffer's shape inference, which a loop of fixed shapes
never misses) JAX's cache of traced programs is emptied: what is compiled stays compiled, and a
function is traced again only when it next meets new shapes. And every ``RELEASE_EVERY`` (128)
such traces the C allocator returns the memory freed since to the system (glibc's ``malloc_trim``;
nothing elsewhere): compiling leaves most of the heap it used free but held, so that without it
the resident size of a loop of new shapes grows by about 3 MiB per program compiled until the
caches are full, although what the caches hold stays small.

A cache whose key holds shapes (``KernelCache(SHAPED, shaped=True)``) also names each kernel's
*family*: its key with every shape replaced by its rank (:func:`family`). Two kernels of one
family do the same work on differently shaped inputs (the fused backward of one step at batch
sizes 31 and 32); the deferred buffer uses that to tell a known step on a new shape from a new
step (see ``_exec.deferred``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import jax
import numpy as np

try:  # glibc's malloc_trim: give the heap's free memory back to the system
    _malloc_trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
except (OSError, AttributeError):  # pragma: no cover - not glibc
    _malloc_trim = None

try:  # JAX's cache of traced programs (``jax.jit`` traces a function once per input shapes)
    from jax._src.interpreters.partial_eval import trace_to_jaxpr as _jax_traces
except ImportError:  # pragma: no cover - other JAX versions
    _jax_traces = None

MAX_SHAPES = int(os.environ.get("PYLAYER_JAX_MAX_SHAPES", "16"))
MAX_KERNELS = int(os.environ.get("PYLAYER_JAX_MAX_KERNELS", "256"))
SHAPED = 64

TRIM_EVERY = 512
RELEASE_EVERY = 128
# kernels dropped for having compiled more than MAX_SHAPES shapes, dropped as least recently used, the times JAX's
# traced programs were dropped, and the times free memory was given back
STATS = {"restarted": 0, "evicted": 0, "trimmed": 0, "released": 0}
_new_traces = [0]


def traced_new_shapes() -> None:
    """Count one trace for new input shapes: every ``RELEASE_EVERY``, give free heap memory back to the system;
    every ``TRIM_EVERY``, empty JAX's cache of traced programs first."""
    n = _new_traces[0] = _new_traces[0] + 1
    if n % RELEASE_EVERY:
        return
    if n >= TRIM_EVERY:
        _new_traces[0] = 0
        if _jax_traces is not None:
            _jax_traces.cache_clear()
            STATS["trimmed"] += 1
    if _malloc_trim is not None:
        _malloc_trim(0)
        STATS["released"] += 1


def erase_shapes(key: Any) -> Any:
    """``key`` with every ``(shape, dtype, ...)`` in it (a tuple of ints followed by a numpy dtype) replaced by
    ``(rank, dtype, ...)``: what stays the same when only the sizes of a step's inputs change."""
    t = type(key)
    if t is tuple or t is list:
        if (len(key) >= 2 and type(key[0]) is tuple and isinstance(key[1], np.dtype)
                and all(type(d) is int for d in key[0])):
            return (len(key[0]), *[erase_shapes(e) for e in key[1:]])
        if t is tuple:  # (the parts of a step's key that its sizes leave alone are erased once)
            try:
                out = _ERASED.get(key)
            except TypeError:  # (a key that holds a list: not hashable)
                return tuple([erase_shapes(e) for e in key])
            if out is None:
                out = tuple([erase_shapes(e) for e in key])
                if len(_ERASED) >= 4096:
                    _ERASED.clear()
                _ERASED[key] = out
            return out
        return tuple([erase_shapes(e) for e in key])
    return key


_ERASED: dict[tuple, tuple] = {}  # tuples erased by ``erase_shapes`` -> their erasure (emptied when full)


# id(kernel) -> its family, for the kernels of shaped caches now cached (an evicted kernel leaves)
_FAMILIES: dict[int, Hashable] = {}


def family(fn: Any) -> Any:
    """The family of a cached kernel of a shaped cache (see the module's docstring), or ``fn`` itself."""
    return _FAMILIES.get(id(fn), fn)


class LazyJit:
    """``jax.jit(fn)``, made at its first call: a kernel that a step records but may never call itself (a fused
    backward that a padded program traces from ``__wrapped__``) costs no ``jax.jit`` (~0.3 ms: it reads the
    function's signature)."""

    __slots__ = ("__wrapped__", "_jit")

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.__wrapped__ = fn
        self._jit: Any = None

    def jitted(self) -> Any:
        j = self._jit
        if j is None:
            j = self._jit = jax.jit(self.__wrapped__)
        return j

    def __call__(self, *args: Any) -> Any:
        return (self._jit or self.jitted())(*args)

    def _cache_size(self) -> int:
        return 0 if self._jit is None else self._jit._cache_size()

    def clear_cache(self) -> None:
        if self._jit is not None:
            self._jit.clear_cache()


class KernelCache(OrderedDict):
    """An LRU dict of ``jax.jit`` functions, each keeping at most ``MAX_SHAPES`` executables.

    ``shaped``: the keys hold shapes; each kernel's family is the cache and its key without shapes."""

    def __init__(self, maxsize: int | None = None, shaped: bool = False) -> None:
        super().__init__()
        self.maxsize = MAX_KERNELS if maxsize is None else maxsize
        self.shaped = shaped

    def kernel(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The kernel cached under ``key``, made by ``make()`` when absent or full of shapes."""
        k = self.get(key)
        if k is not None:
            if k._cache_size() > MAX_SHAPES:
                k.clear_cache()
                STATS["restarted"] += 1
            self.move_to_end(key)
            return k
        k = make()
        self.put(key, k)
        return k

    def put(self, key: Hashable, value: Any) -> None:
        """Store ``value`` as the most recent entry, evicting the least recent beyond ``maxsize``."""
        old = self.get(key)
        if old is not None and old is not value:
            _FAMILIES.pop(id(old), None)
        self[key] = value
        self.move_to_end(key)
        if self.shaped:
            _FAMILIES[id(value)] = (id(self), erase_shapes(key))
        while len(self) > self.maxsize:
            k = self.popitem(last=False)[1]
            _FAMILIES.pop(id(k), None)
            k.clear_cache()
            STATS["evicted"] += 1


class BoundedDict(OrderedDict):
    """An LRU dict of plain values (shape inference results, sighting counts) of at most ``maxsize`` entries."""

    def __init__(self, maxsize: int) -> None:
        super().__init__()
        self.maxsize = maxsize

    def put(self, key: Hashable, value: Any) -> None:
        """Store ``value`` as the most recent entry, evicting the least recent beyond ``maxsize``."""
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.maxsize:
            self.popitem(last=False)


def executables(cache: OrderedDict) -> int:
    """How many compiled executables the kernels of ``cache`` hold (for tests and benchmarks)."""
    return sum(k._cache_size() for k in cache.values())
