"""In-place methods: values, version counters, gradients, and Paddle's two in-place errors."""

from __future__ import annotations

import numpy as np
import pytest

import pylayer_jax as P

X = np.array([0.25, 0.5, 0.75], np.float32)


@pytest.mark.parametrize(
    "call,want",
    [
        (lambda t: t.add_(P.to_tensor([1.0, 1.0, 1.0])), X + 1),
        (lambda t: t.subtract_(P.to_tensor([1.0, 2.0, 3.0])), X - [1, 2, 3]),
        (lambda t: t.multiply_(P.to_tensor([2.0, 2.0, 2.0])), X * 2),
        (lambda t: t.scale_(3.0, 1.0), X * 3 + 1),
        (lambda t: t.zero_(), np.zeros(3)),
        (lambda t: t.fill_(2.5), np.full(3, 2.5)),
        (lambda t: t.clip_(0.3, 0.6), np.clip(X, 0.3, 0.6)),
        (lambda t: t.exp_(), np.exp(X)),
        (lambda t: t.sqrt_(), np.sqrt(X)),
        (lambda t: t.tanh_(), np.tanh(X)),
    ],
    ids=["add_", "subtract_", "multiply_", "scale_", "zero_", "fill_", "clip_", "exp_", "sqrt_", "tanh_"],
)
def test_inplace_writes_and_bumps_version(call, want) -> None:
    t = P.to_tensor(X)
    arr_before = t._value
    r = call(t)
    assert r is t
    assert t.inplace_version == 1
    assert t.dtype == P.float32
    np.testing.assert_allclose(t.numpy(), want, rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(arr_before), X)  # the old array is untouched (rebinding)


@pytest.mark.parametrize("name", ["add_", "zero_", "fill_", "exp_", "scale_"])
def test_inplace_on_leaf_that_needs_grad_raises(name: str) -> None:
    # Paddle: ValueError "(InvalidArgument) Leaf Var (generated_tensor_0) that doesn't stop gradient can't use
    # inplace strategy."
    x = P.to_tensor(X, stop_gradient=False)
    args = {"add_": (P.to_tensor(X),), "fill_": (1.0,), "scale_": (2.0,)}.get(name, ())
    with pytest.raises(ValueError, match=rf"Tensor.{name}: Leaf Var \({x.name}\) that doesn't stop gradient can't use inplace strategy"):
        getattr(x, name)(*args)
    assert x.inplace_version == 0
    with P.no_grad():  # allowed without recording
        getattr(x, name)(*args)
    assert x.inplace_version == 1


def test_modified_saved_tensor_raises_naming_tensor_and_versions() -> None:
    # Paddle: RuntimeError "Tensor '' used in gradient computation has been modified by an inplace operation.
    # Its version is 1 but the expected version is 0."
    x = P.to_tensor(X, stop_gradient=False)
    y = x * 2.0
    y.name = "y_saved"
    z = y * y  # multiply saves y at version 0
    y.add_(P.to_tensor([1.0, 1.0, 1.0]))
    with pytest.raises(
        RuntimeError,
        match=r"y_saved .*has been modified by an inplace operation. Its version is 1 but the expected version is 0",
    ):
        z.sum().backward()


def test_two_inplace_ops_report_the_current_version() -> None:
    x = P.to_tensor(X, stop_gradient=False)
    y = x * 2.0
    z = y.exp()  # exp saves only its output, not y
    w = y * 3.0  # scale saves nothing
    s = y.sin()  # sin saves y
    y.scale_(2.0)
    y.scale_(2.0)
    (z.sum() + w.sum()).backward()  # nothing stale is read
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp(2 * X) + 6, rtol=1e-6)
    with pytest.raises(RuntimeError, match="Its version is 2 but the expected version is 0"):
        s.sum().backward()


def test_gradients_through_inplace_ops_on_non_leaves() -> None:
    x = P.to_tensor(X.astype(np.float64), stop_gradient=False)
    w = P.to_tensor([1.0, -2.0, 3.0], dtype="float64", stop_gradient=False)
    y = x * 1.0
    y.multiply_(w)  # multiply saves y's old value: neither its own write nor later ones make it stale
    y.exp_()  # exp saves its output, which is y after the write
    y.tanh().sum().backward()  # Paddle runs this too (recorded: no error)
    xv, wv = X.astype(np.float64), np.array([1.0, -2.0, 3.0])
    e = np.exp(xv * wv)
    d = (1 - np.tanh(e) ** 2) * e
    np.testing.assert_allclose(x.grad.numpy(), d * wv, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(w.grad.numpy(), d * xv, rtol=1e-10, atol=1e-12)
    assert y.inplace_version == 2 and not y.is_leaf


def test_inplace_after_an_op_that_saved_its_output_raises_like_paddle() -> None:
    # recorded from Paddle: y=x*1; y.multiply_(w); y.exp_(); y.tanh_(); backward -> RuntimeError
    # "... has been modified by an inplace operation. Its version is 3 but the expected version is 2."
    x = P.to_tensor(X, stop_gradient=False)
    w = P.to_tensor([1.0, -2.0, 3.0])
    y = x * 1.0
    y.multiply_(w)
    y.exp_()
    y.tanh_()
    with pytest.raises(RuntimeError, match="Backward of exp: .*Its version is 3 but the expected version is 2"):
        y.sum().backward()
    # and: y=x*1; y.exp_(); y.scale_(2.0) -> "Its version is 2 but the expected version is 1."
    y = x * 1.0
    y.exp_()
    y.scale_(2.0)
    with pytest.raises(RuntimeError, match="Its version is 2 but the expected version is 1"):
        y.sum().backward()


def test_fill_and_zero_cut_the_gradient_of_the_old_value() -> None:
    # recorded from Paddle: p=[1,2]; pp=p*2; pp.fill_(3.); (pp*p).sum().backward() -> p.grad [3, 3]
    p = P.to_tensor([1.0, 2.0], stop_gradient=False)
    pp = p * 2
    pp.fill_(3.0)
    (pp * p).sum().backward()
    assert p.grad.tolist() == [3.0, 3.0] and pp.tolist() == [3.0, 3.0]
    # and with zero_: p.grad [0, 0]
    p = P.to_tensor([1.0, 2.0], stop_gradient=False)
    pp = p * 2
    pp.zero_()
    (pp * p).sum().backward()
    assert p.grad.tolist() == [0.0, 0.0]


def test_inplace_keeps_dtype_and_shape() -> None:
    t = P.to_tensor([1, 2, 3])
    t.scale_(2)
    assert t.dtype == P.int64 and t.tolist() == [2, 4, 6]
    with pytest.raises(ValueError, match=r"Tensor.add_: an in-place op must keep the shape \[3\], but the result has \[2, 3\]"):
        t.add_(P.to_tensor([[1, 1, 1], [1, 1, 1]]))


def test_set_value_bumps_version_and_stales_saved_values() -> None:
    x = P.to_tensor(X, stop_gradient=False)
    y = x * 1.0
    z = y * y
    with P.no_grad():
        y.set_value(np.zeros(3, np.float32))
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
