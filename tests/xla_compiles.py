"""XLA compiles in this process, counted from JAX's monitoring events (one listener for every test file)."""

from __future__ import annotations

import jax

COMPILES = [0]  # backend compiles since the first import of this module


def _count(event: str, duration: float, **kw: object) -> None:
    if event == "/jax/core/compile/backend_compile_duration":
        COMPILES[0] += 1


jax.monitoring.register_event_duration_secs_listener(_count)
