"""Oracles compiled as a user's programs are: with XLA's default backend optimisation.

The suite turns that optimisation down (``tests/conftest.py``), and at the lower level XLA rounds a multiply and
an add apart instead of fusing them into one rounding, so ``jax.random.uniform`` differs from its default
build in the last bit. The host draws (``_runtime/host_random.py``) reproduce the default build bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax

DEFAULT_LEVEL = {"xla_backend_optimization_level": 3}  # XLA's own default for the CPU backend


def as_built_by_default(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` jitted with XLA's default backend optimisation, whatever ``XLA_FLAGS`` says."""
    return jax.jit(fn, compiler_options=DEFAULT_LEVEL)
