"""Initializers that startup programs run to give parameters their first values.

Layer L6. Each is a callable ``init(shape, np_dtype, key) -> jax array``; Paddle's
defaults: weights Xavier-uniform (limit ``sqrt(6 / (fan_in + fan_out))``), biases zero.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp


def _fans(shape: Sequence[int]) -> tuple[int, int]:
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = math.prod(shape[2:])
    return shape[0] * receptive, shape[1] * receptive


class Constant:
    """Every element ``value``."""

    def __init__(self, value: float = 0.0) -> None:
        self.value = value

    def __call__(self, shape: Sequence[int], dtype: Any, key: Any) -> Any:
        return jnp.full(tuple(shape), self.value, dtype)

    def __repr__(self) -> str:
        return f"Constant({self.value})"


class Uniform:
    """Uniform in ``[low, high)``."""

    def __init__(self, low: float = -1.0, high: float = 1.0) -> None:
        self.low, self.high = low, high

    def __call__(self, shape: Sequence[int], dtype: Any, key: Any) -> Any:
        return jax.random.uniform(key, tuple(shape), dtype, self.low, self.high)

    def __repr__(self) -> str:
        return f"Uniform({self.low}, {self.high})"


class Normal:
    """Normal with mean ``mean`` and standard deviation ``std``."""

    def __init__(self, mean: float = 0.0, std: float = 1.0) -> None:
        self.mean, self.std = mean, std

    def __call__(self, shape: Sequence[int], dtype: Any, key: Any) -> Any:
        return (self.mean + self.std * jax.random.normal(key, tuple(shape))).astype(dtype)

    def __repr__(self) -> str:
        return f"Normal({self.mean}, {self.std})"


class XavierUniform:
    """Uniform in ``[-limit, limit)`` with ``limit = sqrt(6 / (fan_in + fan_out))`` (Paddle's weight default)."""

    def __call__(self, shape: Sequence[int], dtype: Any, key: Any) -> Any:
        fan_in, fan_out = _fans(shape)
        limit = math.sqrt(6.0 / (fan_in + fan_out))
        return jax.random.uniform(key, tuple(shape), dtype, -limit, limit)

    def __repr__(self) -> str:
        return "XavierUniform()"
