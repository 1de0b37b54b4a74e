"""``_runtime.transfer.put``: ``jax.device_put``'s C++ transfer made without its Python. Oracle: ``jax.device_put`` of
the same values (aval, weak type, commitment, sharding, values, the sign of a zero), in every case the shortcut
takes and in those it leaves to ``jax.device_put`` (a transform tracing, a default device set)."""

from __future__ import annotations

import jax
import ml_dtypes
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax._runtime import transfer

ARRAYS = [np.zeros((3, 2), np.float32), np.arange(5), np.array(True), np.zeros((0, 4), np.float16),
          np.ones((2,), ml_dtypes.bfloat16), np.full(3, 1 - 2j, np.complex64), np.ones((2, 2), np.uint8),
          np.array(2.5), np.arange(6, dtype=np.int32).reshape(2, 3)]


def _same(a: jax.Array, b: jax.Array) -> None:
    assert type(a) is type(b)
    assert a.aval == b.aval and a.weak_type == b.weak_type
    assert a.committed == b.committed and a.sharding == b.sharding
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert np.array_equal(np.signbit(np.asarray(a).real), np.signbit(np.asarray(b).real))


@pytest.mark.parametrize("x", ARRAYS, ids=[f"{a.dtype}{list(a.shape)}" for a in ARRAYS])
def test_put_gives_what_device_put_gives(x: np.ndarray) -> None:
    _same(transfer.put(x.copy()), jax.device_put(x.copy()))


@pytest.mark.parametrize("v", [0.5, -0.0, 0.0, 3, -(2**62), 1e300, float("inf")])
def test_put_number_is_the_weakly_typed_scalar_of_device_put(v: float) -> None:
    _same(transfer.put_number(v), jax.device_put(v))


def test_a_nan_number_stays_a_nan() -> None:
    a = transfer.put_number(float("nan"))
    assert a.aval == jax.device_put(float("nan")).aval and np.isnan(np.asarray(a))


def test_inside_a_trace_and_under_a_default_device_it_is_device_put() -> None:
    """A transform tracing stages a tracer, as ``jax.device_put`` does; a default device set places the array where
    ``jax.device_put`` places it."""
    seen = []

    def f(y: jax.Array) -> jax.Array:
        a = transfer.put(np.ones(3, np.float32))
        seen.append(type(a))
        return y + a

    np.testing.assert_array_equal(np.asarray(jax.jit(f)(np.ones(3, np.float32))), np.full(3, 2.0, np.float32))
    assert issubclass(seen[0], jax.core.Tracer)
    with jax.default_device(jax.devices()[0]):
        _same(transfer.put(np.ones(2, np.float32)), jax.device_put(np.ones(2, np.float32)))
        _same(transfer.put_number(1.5), jax.device_put(1.5))


def test_to_tensor_keeps_its_values_when_the_caller_writes_the_array() -> None:
    """``to_tensor`` hands ``put`` a copy it owns: writing the caller's array afterwards changes nothing."""
    src = np.arange(8, dtype=np.float32)
    t = paddle.to_tensor(src)
    view = paddle.to_tensor(src[2:6])
    src[:] = -1
    np.testing.assert_array_equal(t.numpy(), np.arange(8, dtype=np.float32))
    np.testing.assert_array_equal(view.numpy(), np.arange(2, 6, dtype=np.float32))
