"""JAX's threefry stream drawn on the host (``_runtime/host_random.py``) and the generator's host draws. Oracle:
``jax.random`` (split, uniform, normal) on the same keys."""

from __future__ import annotations

import jax
import numpy as np
import pytest
from xla_default import as_built_by_default

import pylayer_jax as paddle
from pylayer_jax._runtime import host_random
from pylayer_jax._runtime.rng import generator

KEYS = [0, 1, 42, 2**31 + 7, 2**40 + 3]


@pytest.mark.parametrize("seed", KEYS)
def test_split_is_jaxs(seed: int) -> None:
    key = jax.random.PRNGKey(seed)
    new, use = host_random.split(np.asarray(key))
    assert np.array_equal(np.array([new, use], np.uint32), np.asarray(jax.random.split(key)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform_is_jaxs_bit_for_bit(dtype: type) -> None:
    for seed in KEYS[:3]:
        key = jax.random.PRNGKey(seed)
        for shape in [(), (7, 5)]:  # (a compile each for the oracle)
            for lo, hi in [(0.0, 1.0), (-0.3, 0.3), (-2.0, 5.0)]:
                got = host_random.uniform(np.asarray(key), shape, dtype, lo, hi)
                want = np.asarray(as_built_by_default(
                    lambda k, s=shape, a=lo, b=hi: jax.random.uniform(k, s, dtype, a, b))(key))
                assert got.dtype == want.dtype and got.shape == want.shape
                assert np.array_equal(got, want), (seed, shape, lo, hi)


def test_normal_is_jaxs_to_its_last_bits() -> None:
    key = jax.random.PRNGKey(3)
    got = host_random.normal(np.asarray(key), (64, 64), np.float32)
    want = np.asarray(jax.random.normal(key, (64, 64), np.float32))
    assert got.dtype == np.float32 and got.shape == want.shape
    ulps = np.abs(got.view(np.int32).astype(np.int64) - want.view(np.int32))
    assert ulps.max() <= 4 and (ulps == 0).mean() > 0.9
    assert np.array_equal(host_random.erfinv32(np.array([-1.0, 1.0], np.float32)), [-np.inf, np.inf])


def test_host_draws_refuse_other_dtypes() -> None:
    with pytest.raises(TypeError, match="host_random.uniform: draws float32 or float64, not float16"):
        host_random.uniform((0, 1), (2,), np.float16, 0.0, 1.0)
    with pytest.raises(TypeError, match="host_random.normal: draws float32, not float64"):
        host_random.normal((0, 1), (2,), np.float64)


def test_host_keys_are_the_keys_ops_draw() -> None:
    # the generator's host split and its jitted split give the same keys, in any interleaving
    paddle.seed(9)
    want = [np.asarray(generator.next_key()) for _ in range(4)]
    paddle.seed(9)
    got = [generator.next_host_key(), np.asarray(generator.next_key()), generator.next_host_key(),
           generator.next_host_key()]
    for g, w in zip(got, want):
        assert np.array_equal(np.asarray(g).astype(np.int64), w)
    paddle.seed(9)
    generator.next_host_key()
    (state,) = paddle.get_rng_state()  # the state moved on by one split
    assert np.array_equal(state.numpy(), np.asarray(jax.random.split(jax.random.PRNGKey(9))[0]).astype(np.int64))


def test_the_state_first_read_inside_a_trace_is_an_array_not_a_tracer() -> None:
    # after seed() the state is two words on the host; its array is made when first read, also inside a trace
    paddle.seed(3)
    seen = []
    jax.make_jaxpr(lambda v: seen.append(generator.get_state()) or v)(1.0)
    assert not isinstance(seen[0], jax.core.Tracer)
    assert np.array_equal(np.asarray(seen[0]), np.asarray(jax.random.PRNGKey(3)).astype(np.int64))
