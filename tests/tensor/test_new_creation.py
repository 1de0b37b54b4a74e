"""``Tensor.new_zeros`` / ``new_ones`` / ``new_empty`` / ``new_full``: Paddle 3.3.1's methods (its
``monkey_patch_math_tensor``): a new tensor of ``size`` in this tensor's dtype and on its device unless ``dtype`` /
``device`` say otherwise, ``stop_gradient=True`` unless ``requires_grad=True``. Paddle's results for many calls are
in tests/data/paddle_differences.json (``test_differences_paddle.py``); these check the values against numpy, the
messages, the gradient and the device."""

from __future__ import annotations

import jax
import numpy as np
import pytest

import pylayer_jax as P


@pytest.mark.parametrize("dtype", ["int32", "float64", "bool", "bfloat16"])
def test_new_zeros_ones_full_keep_the_dtype_and_take_the_size_in_every_spelling(dtype: str) -> None:
    x = P.ones([4], dtype=dtype)
    np_dt = np.dtype(dtype) if dtype != "bfloat16" else np.float32
    for call, shape in ((lambda m: m([2, 3]), (2, 3)), (lambda m: m((2, 3)), (2, 3)), (lambda m: m(2, 3), (2, 3)),
                        (lambda m: m(3), (3,)), (lambda m: m(size=[1, 2]), (1, 2)), (lambda m: m([]), ()),
                        (lambda m: m(P.to_tensor([2, 1])), (2, 1)), (lambda m: m(np.int64(2)), (2,))):
        z, o = call(x.new_zeros), call(x.new_ones)
        e = call(x.new_empty)
        for t, want in ((z, np.zeros(shape, np_dt)), (o, np.ones(shape, np_dt))):
            assert t.dtype == x.dtype and t.stop_gradient
            np.testing.assert_array_equal(t.numpy().astype(np_dt), want)
        assert tuple(e.shape) == shape and e.dtype == x.dtype and e.stop_gradient  # (values unspecified)
    f = x.new_full([2, 2], 3)
    assert f.dtype == x.dtype
    np.testing.assert_array_equal(f.numpy().astype(np_dt), np.full((2, 2), 3, np_dt))


def test_dtype_overrides_and_new_full_casts_the_value_as_paddle() -> None:
    x = P.to_tensor([1, 2], dtype="int32")
    assert x.new_zeros([2], dtype="float32").dtype == P.float32
    assert x.new_empty(2, 3, dtype=np.float64).dtype == P.float64
    assert x.new_ones([1], dtype=P.int16).dtype == P.int16
    np.testing.assert_array_equal(x.new_full([3], 2.7).numpy(), np.array([2, 2, 2], "int32"))  # truncated, as Paddle
    np.testing.assert_array_equal(x.new_full(2, -2.7).numpy(), [-2, -2])
    np.testing.assert_array_equal(x.new_full([2], True).numpy(), [1, 1])
    np.testing.assert_array_equal(x.new_full([2], P.to_tensor([4.0])).numpy(), [4, 4])
    f = P.to_tensor([1.0])
    np.testing.assert_array_equal(f.new_full([2], "-inf").numpy(), [-np.inf, -np.inf])
    np.testing.assert_array_equal(f.new_full([1, 2], 1.5, dtype="float64").numpy(), np.full((1, 2), 1.5))


def test_requires_grad_makes_a_trainable_tensor() -> None:
    x = P.to_tensor([1.0, 2.0], dtype="float64")
    w = x.new_ones([2], requires_grad=True)
    assert not w.stop_gradient and w.grad is None
    (w * x).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [1.0, 2.0])
    assert not x.new_full([1], 2.0, requires_grad=True).stop_gradient
    assert not x.new_empty([1], requires_grad=True).stop_gradient
    assert x.new_zeros([1]).stop_gradient  # (even from a trainable tensor)
    x.stop_gradient = False
    assert x.new_zeros([1]).stop_gradient


def test_the_device_is_this_tensors_unless_given() -> None:
    x = P.to_tensor([1.0])
    assert x.new_zeros([2])._v.devices() == x._v.devices() == x.new_full([1], 2)._v.devices()
    cpu = x.cpu()
    assert cpu.new_empty([2])._v.devices() == {jax.devices("cpu")[0]}
    for t in (x.new_ones([2], device="cpu"), x.new_full([2], 1, device=P.CPUPlace())):
        assert t._v.devices() == {jax.devices("cpu")[0]}
    with pytest.raises(ValueError, match="Tensor.new_ones: the device must be a string like 'cpu', 'gpu' or 'gpu:x', "
                                         "but received 'tpu'"):
        x.new_ones([2], device="tpu")


@pytest.mark.skipif(bool(jax.devices()[0].platform == "gpu"), reason="a GPU has pinned host memory")
def test_pin_memory_without_a_gpu_is_a_runtime_error() -> None:
    with pytest.raises(RuntimeError, match="pinned .* host memory serves copies to a GPU"):
        P.to_tensor([1.0]).new_zeros([2], pin_memory=True)


@pytest.mark.parametrize("call,exc,match", [
    (lambda x: x.new_zeros([2], "float32"), TypeError,
     r"Tensor.new_zeros\(\) takes the size as ints one at a time or as one list or tuple, but received 2 positional "
     r"arguments starting with \[2\]. Pass dtype= and the rest by keyword"),
    (lambda x: x.new_ones(2, "float32"), TypeError,
     r"Tensor.new_ones: size must be an int or a list or tuple of ints, but received \[2, 'float32'\] \(an entry of "
     r"type str\)"),
    (lambda x: x.new_empty([2.0]), TypeError, r"Tensor.new_empty: size must be .* \(an entry of type float\)"),
    (lambda x: x.new_zeros(True), TypeError, r"size must be .* received True \(an entry of type bool\)"),
    (lambda x: x.new_zeros(P.to_tensor([2.0])), ValueError,
     r"Tensor.new_zeros: a size Tensor must have an integer dtype \(int32 or int64\) in Paddle, but received one of "
     r"dtype float32; pass size.astype\('int64'\)"),
    (lambda x: x.new_zeros(P.to_tensor(2), 3), TypeError, r"takes the size as ints one at a time"),
    (lambda x: x.new_ones(), TypeError, r"Tensor.new_ones\(\) missing 1 required positional argument: 'size'"),
    (lambda x: x.new_ones([2], size=[3]), TypeError, r"got multiple values for argument 'size'"),
    (lambda x: x.new_empty([2], name="e"), TypeError, r"Tensor.new_empty\(\) got an unexpected keyword argument 'name'"),
    (lambda x: x.new_zeros([-1, 2]), ValueError, r"every dimension of shape must be >= 0, but received \[-1, 2\]"),
    (lambda x: x.new_full(2, 3, 7), TypeError, r"takes 3 positional arguments but 4 were given"),
    (lambda x: x.new_full([2]), TypeError, r"missing 1 required positional argument: 'fill_value'"),
    (lambda x: x.new_full([2], 1, "float32"), TypeError, r"takes 3 positional arguments but 4 were given"),
    (lambda x: x.new_full([2.5], 1), TypeError, r"Tensor.new_full: size must be .* \(an entry of type float\)"),
])
def test_bad_calls_raise_what_paddle_raises(call, exc, match) -> None:  # noqa: ANN001
    with pytest.raises(exc, match=match):
        call(P.to_tensor([1, 2]))
