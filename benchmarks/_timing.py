"""Timing helper shared by the benchmark script and the peer scripts (no project imports)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def per_call_us(fn: Callable[[], Any], min_time: float = 0.3, repeats: int = 7, sync: Callable[[Any], Any] | None = None,
                warmup: int = 5) -> float:
    """The fastest of ``repeats`` batches: the time one call of ``fn`` takes, in microseconds.

    The minimum, not the median: on a shared machine a batch is only ever slowed down by others.

    Warm-up rounds of two calls and a sync first fill every cache: pylayer_jax compiles a
    repeated step on its third run, and the step right after a sync (the first of a batch)
    records a slightly different program than the ones inside a batch; both must be warm,
    or the batch size found next is too small and the timing measures compiles.
    """
    for _ in range(warmup):
        fn()
        out = fn()
        if sync is not None:
            sync(out)
    n = 1
    while True:  # find a batch size that runs for about min_time / repeats
        t = time.perf_counter()
        for _ in range(n):
            out = fn()
        if sync is not None:
            sync(out)
        dt = time.perf_counter() - t
        if dt > min_time / repeats or n > 1_000_000:
            break
        n *= 2
    samples = []
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(n):
            out = fn()
        if sync is not None:
            sync(out)
        samples.append((time.perf_counter() - t) / n)
    return min(samples) * 1e6
