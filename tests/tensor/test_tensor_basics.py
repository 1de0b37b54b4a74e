"""Tensor creation, dtype rules, metadata and conversions (expected values recorded from Paddle 3.3.1)."""

from __future__ import annotations

import threading

import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as P
from pylayer_jax import Tensor
from pylayer_jax._tensor import facade


# ---- creation and Paddle's dtype defaults ---------------------------------------------------
@pytest.mark.parametrize(
    "data,dtype",
    [
        (1.5, "float32"),  # Python float -> default float
        ([1.0, 2.0], "float32"),
        (2, "int64"),  # Python int -> int64 (needs x64 in JAX)
        ([[1, 2], [3, 4]], "int64"),
        (True, "bool"),
        ([True, False], "bool"),
        (np.float64(1.0), "float64"),  # numpy keeps its dtype
        (np.array([1, 2], np.int32), "int32"),
        (np.array([1.0], np.float16), "float16"),
        (jnp.arange(3, dtype=jnp.int32), "int32"),
        (1 + 2j, "complex64"),
    ],
)
def test_to_tensor_default_dtypes(data, dtype) -> None:
    t = P.to_tensor(data)
    assert t.dtype == getattr(P, dtype)
    assert t.dtype.name == dtype
    np.testing.assert_array_equal(t.numpy(), np.asarray(data))


def test_int64_values_beyond_32_bits_survive() -> None:
    big = 2**40 + 3
    assert P.to_tensor(big).item() == big
    assert (P.to_tensor([big]) + 1).tolist() == [big + 1]


def test_to_tensor_explicit_dtype_accepts_strings_and_objects() -> None:
    assert P.to_tensor([1, 2], dtype="float64").dtype == P.float64
    assert P.to_tensor([1, 2], dtype=P.float32).dtype == P.float32
    assert P.to_tensor([1.7], dtype="int32").tolist() == [1]
    assert P.to_tensor([1.0], dtype="paddle.float64").dtype == P.float64
    with pytest.raises(TypeError, match="dtype 'floaty' is not a dtype pylayer_jax knows"):
        P.to_tensor([1.0], dtype="floaty")


def test_to_tensor_rejects_non_numeric_data() -> None:
    with pytest.raises(TypeError, match="to_tensor: data of type str .* cannot become a Tensor"):
        P.to_tensor("abc")


def test_to_tensor_of_a_tensor_copies_and_sets_stop_gradient() -> None:
    a = P.to_tensor([1.0, 2.0])
    b = P.to_tensor(a, stop_gradient=False)
    assert b is not a and b.stop_gradient is False and b.is_leaf
    b.set_value(np.array([5.0, 6.0], np.float32))
    assert a.tolist() == [1.0, 2.0]
    assert P.to_tensor(a, dtype="float64").dtype == P.float64


@pytest.mark.parametrize("shape", [(4,), (1000, 1000)])  # small, and large enough for zero-copy import
def test_to_tensor_of_a_numpy_array_copies_it(shape: tuple) -> None:
    a = np.ones(shape, np.float32)
    t = P.to_tensor(a)
    a[(0,) * len(shape)] = 5.0  # Paddle copies: a later write into the array leaves the Tensor as it was
    assert float(t.numpy()[(0,) * len(shape)]) == 1.0
    assert t.dtype == P.float32 and t.shape == list(shape)


def test_set_default_dtype_changes_python_float_tensors() -> None:
    assert P.get_default_dtype() == "float32"
    P.set_default_dtype("float64")
    try:
        assert P.get_default_dtype() == "float64"
        assert P.to_tensor(1.5).dtype == P.float64
        assert P.to_tensor([1, 2]).dtype == P.int64  # ints unaffected
        # recorded from Paddle 3.3.1: int tensors combined with floats give float32 whatever the default
        assert (P.to_tensor([1, 2]) / 2).dtype == P.float32
        assert (P.to_tensor([1, 2]) * 1.5).dtype == P.float32
        assert (0.5 - P.to_tensor([1, 2])).dtype == P.float32
    finally:
        P.set_default_dtype("float32")
    assert P.to_tensor(1.5).dtype == P.float32


def test_set_default_dtype_accepts_dtype_objects_and_rejects_ints() -> None:
    P.set_default_dtype(P.float64)
    P.set_default_dtype("float32")
    with pytest.raises(TypeError, match="set_default_dtype only accepts floating dtypes .* but received int32"):
        P.set_default_dtype("int32")


def test_default_dtype_is_per_thread() -> None:
    P.set_default_dtype("float64")
    seen = []
    try:
        th = threading.Thread(target=lambda: seen.append(P.get_default_dtype()))
        th.start()
        th.join()
    finally:
        P.set_default_dtype("float32")
    assert seen == ["float32"]


# ---- metadata ------------------------------------------------------------------------------
def test_metadata() -> None:
    t = P.to_tensor(np.zeros((2, 3, 4), np.float32))
    assert t.shape == [2, 3, 4] and isinstance(t.shape, list)
    assert t.ndim == 3 and t.dim() == 3
    assert t.size == 24
    assert t.numel().item() == 24
    assert str(t.place) == "Place(cpu)" or "gpu" in str(t.place)
    assert t.is_leaf and t.stop_gradient is True
    assert t.persistable is False
    t.persistable = True
    assert t.persistable is True
    assert isinstance(t.name, str) and t.name.startswith("generated_tensor_")
    assert t.name == t.name  # stable
    t.name = "w"
    assert t.name == "w"
    assert P.to_tensor(1.0).shape == []


def test_stop_gradient_is_settable_and_is_leaf_follows_history() -> None:
    x = P.to_tensor([1.0, 2.0])
    assert x.stop_gradient is True
    x.stop_gradient = False
    y = x * 2
    assert y.stop_gradient is False and not y.is_leaf
    assert (P.to_tensor([1.0]) * 2).is_leaf  # no grad needed: a new leaf


def test_dtype_objects() -> None:
    assert isinstance(P.float32, P.dtype)
    assert P.float32 == "float32" and P.float32 != P.float64
    assert P.float64.is_floating_point and not P.int64.is_floating_point
    assert {P.float32: 1}[P.float32] == 1


# ---- conversions ----------------------------------------------------------------------------
def test_numpy_item_tolist() -> None:
    t = P.to_tensor([[1.5, 2.0], [3.0, 4.0]])
    a = t.numpy()
    assert isinstance(a, np.ndarray) and a.dtype == np.float32
    np.testing.assert_array_equal(a, [[1.5, 2.0], [3.0, 4.0]])
    assert t.tolist() == [[1.5, 2.0], [3.0, 4.0]]
    assert P.to_tensor([[7]]).item() == 7 and isinstance(P.to_tensor([[7]]).item(), int)
    assert t.item(1, 0) == 3.0
    assert np.asarray(t).shape == (2, 2)
    assert np.asarray(t, dtype=np.float64).dtype == np.float64


def test_item_of_many_elements_raises() -> None:
    with pytest.raises(ValueError, match=r"Tensor.item\(\) needs a tensor with one element, but received shape \[2\]"):
        P.to_tensor([1.0, 2.0]).item()


def test_python_scalar_conversions() -> None:
    # recorded from Paddle: float(2.5) 2.5, int(3) 3, bool(0) False
    assert float(P.to_tensor(2.5)) == 2.5
    assert int(P.to_tensor(3)) == 3
    assert bool(P.to_tensor(0)) is False
    assert bool(P.to_tensor([1.0])) is True
    assert [10, 20, 30][P.to_tensor(1)] == 20  # __index__
    assert list(range(5))[P.to_tensor(1) : P.to_tensor(3)] == [1, 2]
    with pytest.raises(TypeError, match="Only integer tensors can be used as an index, but received dtype paddle.float32"):
        [1, 2][P.to_tensor(1.0)]


def test_len_and_iteration() -> None:
    t = P.to_tensor([[1, 2], [3, 4], [5, 6]])
    assert len(t) == 3
    rows = list(t)
    assert [r.tolist() for r in rows] == [[1, 2], [3, 4], [5, 6]]
    assert all(isinstance(r, Tensor) and r.shape == [2] for r in rows)
    with pytest.raises(AssertionError, match="len\\(\\) of a 0-D Tensor is undefined"):
        len(P.to_tensor(1.0))
    with pytest.raises(AssertionError, match="iteration over a 0-D Tensor is undefined"):
        iter(P.to_tensor(1.0))


def test_astype_and_cast() -> None:
    t = P.to_tensor([1.7, -2.2])
    assert t.astype("int32").tolist() == [1, -2]
    assert t.astype(P.float64).dtype == P.float64
    assert t.cast("float16").dtype == P.float16
    assert t.astype(np.float64).dtype == P.float64
    assert P.cast(t, "int64").dtype == P.int64


def test_astype_is_differentiable() -> None:
    x = P.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x.astype("float64") * 3.0
    y.sum().backward()
    assert x.grad.dtype == P.float32
    assert x.grad.tolist() == [3.0, 3.0]


def test_detach_and_clone() -> None:
    x = P.to_tensor([1.0, 2.0], stop_gradient=False)
    d = x.detach()
    assert d.stop_gradient is True and d.is_leaf
    c = x.clone()  # Paddle: clone stays on the graph (stop_gradient False, not a leaf)
    assert c.stop_gradient is False and not c.is_leaf
    (c * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    c2 = P.to_tensor([1.0]).clone()
    c2.set_value(np.array([9.0], np.float32))
    assert c2.tolist() == [9.0]


def test_set_value() -> None:
    s = P.to_tensor([1.0, 2.0])
    s.set_value(np.array([3.0, 4.0], np.float32))
    assert s.tolist() == [3.0, 4.0] and s.dtype == P.float32
    s.set_value(P.to_tensor([5.0, 6.0]))
    assert s.tolist() == [5.0, 6.0]
    assert s.inplace_version == 2
    # as Paddle: nothing is cast or broadcast (tests/test_leftovers_q.py checks the cases against Paddle)
    with pytest.raises(AssertionError, match=r"Tensor.set_value: the value must have the tensor's shape \[2\], but received \[3\]"):
        s.set_value(np.zeros(3, np.float32))


def test_transpose_property() -> None:
    t = P.to_tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    assert t.T.shape == [4, 3, 2]  # Paddle reverses every axis
    np.testing.assert_array_equal(t.T.numpy(), np.arange(24).reshape(2, 3, 4).T)
    assert P.to_tensor([1, 2]).T.tolist() == [1, 2]


def test_dlpack_round_trip() -> None:
    t = P.to_tensor([1.0, 2.0, 3.0])
    back = np.from_dlpack(t)
    np.testing.assert_array_equal(back, [1.0, 2.0, 3.0])
    assert t.__dlpack_device__() is not None


def test_jnp_functions_accept_tensors() -> None:
    t = P.to_tensor([1.0, 4.0])
    np.testing.assert_allclose(np.asarray(jnp.sqrt(t)), [1.0, 2.0])
    assert jnp.asarray(t).dtype == jnp.float32


def test_hash_is_identity() -> None:
    a, b = P.to_tensor([1.0]), P.to_tensor([1.0])
    assert len({a, b}) == 2 and a in {a: 1}


@pytest.mark.parametrize("make", [
    lambda s: P.zeros(s), lambda s: P.ones(s), lambda s: P.full(s, 2.0),
    lambda s: P.empty(s), lambda s: P.randn(s), lambda s: P.rand(s),
    lambda s: P.randint(0, 5, s),
])
@pytest.mark.parametrize("shape", [[2**31, 2**31], [2**20, 2**20]])
def test_creation_beyond_memory_is_a_memory_error_before_allocating(make, shape):
    # Paddle 3.3.1 aborts the process on [2**31, 2**31] and raises MemoryError on [2**20, 2**20]
    with pytest.raises(MemoryError, match=r"shape \[\d+, \d+\] has \d+ elements, more"):
        make(shape)


def _aligned(n: int) -> np.ndarray:
    """A float32 numpy array of ``n`` elements whose data starts on a 64-byte boundary (JAX's CPU client may use
    such memory in place)."""
    buf = np.empty(n + 16, np.float32)
    a = buf[(-buf.ctypes.data % 64) // 4:][:n]
    a[:] = np.arange(n)
    assert a.ctypes.data % 64 == 0
    return a


def test_to_tensor_of_a_new_shape_compiles_nothing_and_copies(caplog) -> None:
    # numpy data is transferred (jnp.asarray compiled a copy program for each new shape: a new batch size), and the
    # Tensor has its own memory, as in Paddle: writing the numpy array (or what it views) afterwards changes nothing
    import logging

    import jax

    data = _aligned(7 * 13 * 3).reshape(7, 13, 3)
    view = _aligned(4 * 9)[:27].reshape(3, 9)
    with jax.log_compiles(True), caplog.at_level(logging.WARNING, logger="jax"):
        caplog.clear()
        t = P.to_tensor(data)
        v = P.to_tensor(view)
        f = P.to_tensor(data.astype(np.float64).reshape(13, 21), dtype="float32")
        lst = P.to_tensor([[1.5, 2.5]])
    assert not [r.getMessage() for r in caplog.records if "Compiling" in r.getMessage()]
    want, want_v = data.copy(), view.copy()
    data[0, 0, 0] = view[0, 0] = 99.0
    assert t.dtype == P.float32 and np.array_equal(t.numpy(), want)
    assert np.array_equal(v.numpy(), want_v)
    assert f.dtype == P.float32 and np.array_equal(f.numpy(), want.reshape(13, 21))
    assert lst.dtype == P.float32 and lst.numpy().tolist() == [[1.5, 2.5]]


def test_an_op_result_made_without_init_has_every_slot_init_sets() -> None:
    """``facade.result`` (the Tensor of a replayed op's result) sets the slots ``Tensor.__init__`` sets, to the same
    values: a slot added to ``__init__`` and not to it would fail here, not as an AttributeError in a replayed step."""
    a = jnp.arange(3.0)
    edge = (object(), 0)
    for made, want in ((facade.result(a), Tensor(a)), (facade.result(a, edge), Tensor(a, False, edge))):
        assert type(made) is Tensor
        for slot in Tensor.__slots__:
            if slot == "__weakref__":
                continue
            assert hasattr(want, slot) == hasattr(made, slot), slot
            if hasattr(want, slot):
                assert getattr(made, slot) is getattr(want, slot) or getattr(made, slot) == getattr(want, slot), slot
    assert facade.result(a).stop_gradient is True and facade.result(a, edge).stop_gradient is False
    np.testing.assert_array_equal(facade.result(a).numpy(), np.arange(3.0))
