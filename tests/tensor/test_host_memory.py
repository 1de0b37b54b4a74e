"""A Tensor never shares memory with a numpy array the caller keeps: JAX's CPU client may keep using the memory of an
aligned host array it is given (``jax.device_put``, ``jnp.asarray(x, dtype)``), so without a copy a later write to
the caller's array would change a Tensor's value, or the result of a deferred op that reads it when its buffer runs
(an index array written before ``backward()``). Each case gives an API a 64-byte-aligned array (the case where JAX
does not copy), writes the array afterwards, and checks the values against numpy on the array as it was."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import pylayer_jax as paddle

N = 64
BASE = np.arange(N, dtype=np.float32)


def _aligned(values: np.ndarray) -> np.ndarray:
    """A copy of ``values`` whose memory starts at a 64-byte boundary."""
    size = values.dtype.itemsize
    buf = np.zeros(values.size + 64 // size, values.dtype)
    off = (-buf.ctypes.data % 64) // size
    out = buf[off:off + values.size].reshape(values.shape)
    out[...] = values
    assert out.ctypes.data % 64 == 0
    return out


def _getitem() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = paddle.to_tensor(BASE, stop_gradient=False)
    idx = _aligned(np.arange(N) % 10)
    y = x[idx] * 2  # (deferred: the index is read when the buffer runs)
    want = BASE[idx] * 2
    idx[:] = 9
    return y.numpy(), want, idx


def _getitem_grad() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = paddle.to_tensor(BASE, stop_gradient=False)
    idx = _aligned(np.arange(N) % 7)
    loss = (x[idx] * x[idx]).sum()
    want = np.bincount(np.arange(N) % 7, minlength=N) * 2 * BASE
    idx[:] = 0
    loss.backward()
    return x.grad.numpy(), want, idx


def _setitem_index() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y = paddle.to_tensor(BASE, stop_gradient=False) * 1
    idx = _aligned(np.arange(0, N, 3))
    y[idx] = 0.0
    want = BASE.copy()
    want[idx] = 0.0
    idx[:] = 1
    return y.numpy(), want, idx


def _set_value() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    p = paddle.create_parameter([N], "float32")
    v = _aligned(BASE * 3)
    p.set_value(v)
    want = v.copy()
    v[:] = -1
    return p.numpy(), want, v


def _tensor_constructor() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    v = _aligned(BASE + 1)
    t = paddle.Tensor(v)
    want = v.copy()
    v[:] = -1
    return (t * 1).numpy(), want, v


def _layer_state_dict() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lin = paddle.nn.Linear(8, 8)
    w = _aligned(BASE.reshape(8, 8))
    lin.set_state_dict({"weight": w, "bias": np.zeros(8, np.float32)})
    want = w.copy()
    w[:] = -1
    return lin.weight.numpy(), want, w


def _backward_seed() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = paddle.to_tensor(BASE, stop_gradient=False)
    g = _aligned(np.full(N, 2.0, np.float32))
    y = x * 3
    y.backward(g)
    want = np.full(N, 6.0, np.float32)
    g[:] = -1
    return x.grad.numpy(), want, g


CASES: dict[str, Callable[[], tuple[np.ndarray, np.ndarray, np.ndarray]]] = {
    "getitem with a numpy index": _getitem,
    "gradient through a numpy index": _getitem_grad,
    "setitem with a numpy index": _setitem_index,
    "Parameter.set_value": _set_value,
    "paddle.Tensor(array)": _tensor_constructor,
    "Layer.set_state_dict": _layer_state_dict,
    "backward(grad_tensor=array)": _backward_seed,
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_a_write_to_the_callers_array_afterwards_changes_nothing(case: str) -> None:
    for _ in range(3):  # (each with a fresh aligned array)
        got, want, _ = CASES[case]()
        np.testing.assert_array_equal(got, want)


def test_numpy_gives_a_writable_copy_as_paddle_does() -> None:
    """``t.numpy()``, ``np.asarray(t)`` and ``np.array(t)`` are new writable arrays in Paddle 3.3.1 (checked there:
    ``flags.writeable`` True, and writing one leaves the Tensor as it was); ``np.asarray(t, copy=False)`` is the
    array's own memory, read-only."""
    t = paddle.to_tensor(BASE)
    for a in (t.numpy(), np.asarray(t), np.array(t)):
        assert a.flags.writeable
        a[:] = -1
    np.testing.assert_array_equal(t.numpy(), BASE)
    view = np.asarray(t, copy=False)
    assert not view.flags.writeable
    np.testing.assert_array_equal(view, BASE)
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 1


def test_a_dataset_that_rewrites_its_array_does_not_change_earlier_batches() -> None:
    """A dataset (``batch_size=None``) or a collate_fn that hands out the same aligned buffer, rewritten for each
    sample: every batch Tensor keeps the values it was given."""

    class Rewriting(paddle.io.Dataset):
        def __init__(self) -> None:
            self.buf = _aligned(np.zeros(N, np.float32))

        def __getitem__(self, i: int) -> np.ndarray:
            self.buf[:] = i
            return self.buf

        def __len__(self) -> int:
            return 4

    ds = Rewriting()
    got = list(paddle.io.DataLoader(ds, batch_size=None))
    for i, t in enumerate(got):
        np.testing.assert_array_equal(t.numpy(), np.full(N, i, np.float32))
    keep = _aligned(np.zeros((2, N), np.float32))

    def collate(samples: list) -> np.ndarray:
        keep[:] = np.stack(samples)
        return keep

    fresh = paddle.io.TensorDataset([paddle.to_tensor(np.repeat(np.arange(4, dtype=np.float32)[:, None], N, 1))])
    batches = list(paddle.io.DataLoader(fresh, batch_size=2, collate_fn=lambda s: collate([x.numpy() for (x,) in s])))
    for k, b in enumerate(batches):
        np.testing.assert_array_equal(b.numpy(), np.stack([np.full(N, 2 * k + j, np.float32) for j in range(2)]))
