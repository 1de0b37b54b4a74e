"""The global PRNG key (layer L0: no package imports).

Paddle has one global generator; so do we: a JAX key (kept as int64 [2] so it can be an op
input) behind a lock. Every draw splits it: one half is the new state, the other the key
the op uses, so results are reproducible after ``seed(n)``.

The state lives on the host after ``seed`` and after a host draw (``next_host_key``: parameter
initialisation, shuffles), where ``host_random`` splits it exactly as ``jax.random.split`` does
without compiling anything; it becomes an array when an op draws (``next_key``: one cached jitted
split per draw, cheaper than a transfer) or when something reads it (``get_state``).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from . import host_random
from . import jax_setup as _jax_setup  # noqa: F401  (x64 on: the key is int64)


def _seed_words(seed: int) -> tuple[int, int] | None:
    """What ``jax.random.PRNGKey(seed)`` holds (the seed's high and low 32 bits), computed on the host: that
    function compiles three small programs, a tenth of a second at import and at every paddle.seed. None
    where it does not apply (another PRNG implementation, a seed outside int64 and uint64; a uint64 seed above
    int64, which PRNGKey refuses, holds its 64 bits the same way)."""
    if -(2**63) <= seed < 2**64 and jax.config.jax_default_prng_impl == "threefry2x32":  # (Paddle's are uint64)
        bits = seed % 2**64
        return bits >> 32, bits & 0xFFFFFFFF
    return None


def seed_key(seed: int) -> Any:
    """``jax.random.PRNGKey(seed)`` as a uint32 array, made on the host where it can be (an initializer's own
    ``seed``)."""
    words = _seed_words(seed)
    return jax.random.PRNGKey(seed) if words is None else np.array(words, np.uint32)


@jax.jit
def _split(state: Any) -> tuple[Any, Any]:
    new, use = jax.random.split(state.astype(jnp.uint32))
    return new.astype(jnp.int64), use.astype(jnp.int64)


class _Generator:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._dev: Any = None  # the state as an int64 [2] array (or a tracer), None until asked for
        self._host: tuple[int, int] | None = None  # the state's two words, when known on the host
        self._seeds: dict[bytes, int] = {}  # the seed in effect when get_rng_state gave a state, by its words
        self.seed(int(np.random.SeedSequence().entropy % (2**63)))

    @property
    def _state(self) -> Any:
        """The state as an array (made from its host words on first use; the same object until it changes)."""
        dev = self._dev
        if dev is None:
            with jax.ensure_compile_time_eval():  # a concrete array, also when first asked for inside a trace
                dev = self._dev = jax.device_put(np.array(self._host, np.int64))
        return dev

    @_state.setter
    def _state(self, value: Any) -> None:
        self._dev, self._host = value, None

    def seed(self, n: int | None = None) -> int:
        """Reset to seed ``n``; with no ``n`` (Paddle's ``Generator.seed()``) to a fresh random seed, which is
        returned."""
        if n is None:
            n = int(np.random.SeedSequence().entropy % (2**63))
        self._reseed(int(n))
        return int(n)

    def manual_seed(self, n: int) -> _Generator:
        """Paddle's ``Generator.manual_seed``: reset to seed ``n`` and return the generator."""
        if not isinstance(n, int | np.integer) or isinstance(n, bool) or not 0 <= int(n) < 2**64:
            raise TypeError(f"Generator.manual_seed: the seed must be an int in [0, 2**64), but received {n!r}.")
        self._reseed(int(n))
        return self

    def initial_seed(self) -> int:
        """The seed last set (Paddle's ``Generator.initial_seed``)."""
        return self.initial

    def random(self) -> int:
        """A random 64-bit unsigned int drawn from the generator (its state moves on)."""
        words = np.asarray(self.next_host_key()).astype(np.uint64)
        return int((words[0] << np.uint64(32)) | words[1])

    def _reseed(self, n: int) -> None:
        words = _seed_words(int(n))
        with self._lock:
            self.initial = int(n)  # (``paddle.random.initial_seed``)
            if words is None:
                self._state = jax.random.PRNGKey(int(n)).astype(jnp.int64)
            else:
                self._dev, self._host = None, words

    def next_key(self) -> Any:
        """The key of one draw, an int64 [2] array (the state moves on)."""
        with self._lock:
            self._state, use = _split(self._state)
            return use

    def next_host_key(self) -> Any:
        """The key of one draw made on the host, a uint32 [2] numpy array: the key ``next_key`` would give,
        without compiling or running anything on the device. Where the state cannot be split on the host (a
        tracer inside ``to_static``, another PRNG implementation), ``next_key``'s array instead."""
        with self._lock:
            words = self._host
            if words is None:
                dev = self._dev
                if isinstance(dev, jax.core.Tracer) or not host_random.usable() or np.shape(dev) != (2,):
                    self._state, use = _split(self._state)
                    return use
                words = self._host = tuple(int(v) for v in np.asarray(dev))
            new, use = host_random.split(words)
            self._dev, self._host = None, new
            return np.array(use, np.uint32)

    def get_state(self) -> Any:
        with self._lock:
            return self._state

    def saved_state(self) -> Any:
        """``get_state`` for ``get_rng_state``: the seed in effect is remembered with the state's words, so that
        ``set_state`` of it makes ``initial`` that seed again (Paddle's saved state carries its seed)."""
        with self._lock:
            state = self._state
            if not isinstance(state, jax.core.Tracer):
                if len(self._seeds) >= 64:
                    self._seeds.pop(next(iter(self._seeds)))
                self._seeds[np.asarray(state).tobytes()] = self.initial
            return state

    def set_state(self, state: Any) -> None:
        arr = jnp.asarray(state, jnp.int64)
        if arr.shape != (2,):
            raise ValueError(
                f"set_rng_state: a state is an int64 key of shape [2] (from get_rng_state), but received "
                f"shape {list(arr.shape)}."
            )
        with self._lock:
            self._state = arr
            if not isinstance(arr, jax.core.Tracer):
                self.initial = self._seeds.get(np.asarray(arr).tobytes(), self.initial)


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
