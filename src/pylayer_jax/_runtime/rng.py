"""The global PRNG key (layer L0: no package imports).

Paddle has one global generator; so do we: a JAX key (kept as int64 [2] so it can be an op
input) behind a lock. Every draw splits it: one half is the new state, the other the key
the op uses, so results are reproducible after ``seed(n)``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from . import jax_setup as _jax_setup  # noqa: F401  (x64 on: the key is int64)


def _make(seed: int) -> Any:
    if -(2**63) <= seed < 2**63 and jax.config.jax_default_prng_impl == "threefry2x32":
        # what jax.random.PRNGKey(seed) computes (the seed's high and low 32 bits), made on the host: that
        # function compiles three small programs, a tenth of a second at import and at every paddle.seed
        bits = seed % 2**64
        return jax.device_put(np.array([bits >> 32, bits & 0xFFFFFFFF], np.int64))
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


class _Derived(threading.local):
    """The key that random ops draw from inside ``keys_from`` (None outside), and how many drew."""

    key: Any = None
    count = 0


_derived = _Derived()


@contextlib.contextmanager
def keys_from(key: Any) -> Iterator[_Derived]:
    """Inside the ``with``, random ops take keys derived from ``key`` (the i-th draw: ``fold_in(key, i)``)
    instead of splitting the global generator: a function traced once (a static pylayer's forward) then
    draws anew whenever it runs with a new ``key``. Yields the state, whose ``count`` says how many drew."""
    prev = (_derived.key, _derived.count)
    _derived.key, _derived.count = key, 0
    try:
        yield _derived
    finally:
        _derived.key, _derived.count = prev


def derived_key() -> Any:
    """The next key derived inside ``keys_from`` (None outside it)."""
    if _derived.key is None:
        return None
    _derived.count += 1
    return jax.random.fold_in(jnp.asarray(_derived.key).astype(jnp.uint32), _derived.count).astype(jnp.int64)
