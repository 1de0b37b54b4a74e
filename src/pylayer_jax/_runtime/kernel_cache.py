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
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

MAX_SHAPES = int(os.environ.get("PYLAYER_JAX_MAX_SHAPES", "16"))
MAX_KERNELS = int(os.environ.get("PYLAYER_JAX_MAX_KERNELS", "256"))
SHAPED = 64

# kernels dropped for having compiled more than MAX_SHAPES shapes, and dropped as least recently used
STATS = {"restarted": 0, "evicted": 0}


class KernelCache(OrderedDict):
    """An LRU dict of ``jax.jit`` functions, each keeping at most ``MAX_SHAPES`` executables."""

    def __init__(self, maxsize: int | None = None) -> None:
        super().__init__()
        self.maxsize = MAX_KERNELS if maxsize is None else maxsize

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
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.maxsize:
            self.popitem(last=False)[1].clear_cache()
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
