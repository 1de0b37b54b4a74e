"""The global PRNG key (layer L0: no package imports).

Paddle has one global generator; so do we: a JAX key (kept as int64 [2] so it can be an op
input) behind a lock. Every draw splits it: one half is the new state, the other the key
the op uses, so results are reproducible after ``seed(n)``.
"""

from __future__ import annotations

import threading
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np


def _make(seed: int) -> Any:
    return jax.random.PRNGKey(seed).astype(jnp.int64)


@jax.jit
def _split(state: Any) -> tuple[Any, Any]:
    new, use = jax.random.split(state.astype(jnp.uint32))
    return new.astype(jnp.int64), use.astype(jnp.int64)


class _Generator:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state = _make(int(np.random.SeedSequence().entropy % (2**63)))

    def seed(self, n: int) -> None:
        with self._lock:
            self._state = _make(int(n))

    def next_key(self) -> Any:
        with self._lock:
            self._state, use = _split(self._state)
            return use

    def get_state(self) -> Any:
        with self._lock:
            return self._state

    def set_state(self, state: Any) -> None:
        arr = jnp.asarray(state, jnp.int64)
        if arr.shape != (2,):
            raise ValueError(
                f"set_rng_state: a state is an int64 key of shape [2] (from get_rng_state), but received "
                f"shape {list(arr.shape)}."
            )
        with self._lock:
            self._state = arr


generator = _Generator()
