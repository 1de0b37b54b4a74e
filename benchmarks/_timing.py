"""Timing helper shared by the benchmark script and the peer scripts (no project imports)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def per_call_us(fn: Callable[[], Any], min_time: float = 0.3, repeats: int = 5, sync: Callable[[Any], Any] | None = None,
                warmup: int = 5) -> float:
    """Median over ``repeats`` batches of the time one call of ``fn`` takes, in microseconds.

    A few calls first warm every cache (pylayer_jax compiles a repeated step on its third run).
    """
    for _ in range(warmup):
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
    return statistics.median(samples) * 1e6
