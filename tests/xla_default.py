"""Oracles compiled as a user's programs are: with XLA's default options for the CPU backend.

The suite compiles with XLA's backend optimisation turned down and its CPU fusion emitters off
(``tests/conftest.py``). At the lower level XLA rounds a multiply and an add apart instead of fusing them into one
rounding, so ``jax.random.uniform`` differs from its default build in the last bit. The host draws
(``_runtime/host_random.py``) reproduce the default build bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax

# XLA's own defaults for the CPU backend, whatever XLA_FLAGS says
DEFAULT_OPTIONS = {"xla_backend_optimization_level": 3, "xla_cpu_use_fusion_emitters": True}


def as_built_by_default(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` jitted with XLA's default options for the CPU backend, whatever ``XLA_FLAGS`` says."""
    return jax.jit(fn, compiler_options=DEFAULT_OPTIONS)


def default_env(env: dict[str, str]) -> dict[str, str]:
    """``env`` for a child interpreter that compiles with XLA's defaults: without the suite's ``XLA_FLAGS``."""
    return {k: v for k, v in env.items() if k != "XLA_FLAGS"}
