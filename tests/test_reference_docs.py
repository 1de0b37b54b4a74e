"""The examples of reference docs 000-003, run with pylayer_jax in place of paddle.

Expected values: computed with numpy, or recorded from real Paddle 3.3.1 where noted.
"""

from __future__ import annotations

import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax.autograd import PyLayer


class cus_tanh(PyLayer):  # noqa: N801 - the docs' name
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        grad = dy * (1 - paddle.square(y))
        return grad


def test_doc000_cus_tanh_save_for_backward_and_saved_tensor():
    x = paddle.to_tensor(np.array([[0.1, -0.5, 2.0]]))
    x.stop_gradient = False
    y = cus_tanh.apply(x)
    y.sum().backward()
    np.testing.assert_allclose(y.numpy(), np.tanh(x.numpy()), rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), 1 - np.tanh(x.numpy()) ** 2, rtol=1e-12)


class Exp(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_not_inplace(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        out = grad_output.exp()
        return out


def _exp_loop(layer_cls):
    paddle.seed(2023)
    x = paddle.randn((1, 1))
    x.stop_gradient = False
    attn_layers = []
    for _ in range(0, 2):
        attn_layers.append(layer_cls())
    for _step in range(0, 2):
        a = x
        for j in range(0, 2):
            a = attn_layers[j].apply(x)
        a.backward()
    return x, a


def test_doc000_mark_not_inplace_exp_loop():
    # documented behaviour (paddle-behaviour.md item 28): a new output, x stays a leaf, backward runs;
    # each step adds exp(1) (the seed gradient 1 goes through Exp's backward), two steps: 2*exp(1).
    x, a = _exp_loop(Exp)
    assert a is not x
    assert x.is_leaf
    np.testing.assert_allclose(x.grad.numpy(), [[2 * np.e]], rtol=1e-6)


def test_doc000_exp_loop_without_mark_not_inplace_is_an_inplace_write_on_a_leaf():
    class ExpUnmarked(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output.exp()

    # real Paddle: ValueError "... Leaf Var (...) that doesn't stop gradient can't use inplace strategy"
    with pytest.raises(ValueError, match="Leaf Var .* that doesn't stop gradient can't use inplace strategy"):
        _exp_loop(ExpUnmarked)


def test_doc000_mark_non_differentiable():
    seen = {}

    class Tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            a = x + x
            b = x + x + x
            ctx.mark_non_differentiable(a)
            return a, b

        @staticmethod
        def backward(ctx, grad_a, grad_b):
            assert np.equal(grad_a.numpy(), paddle.zeros([1]).numpy())
            assert np.equal(grad_b.numpy(), paddle.ones([1], dtype="float64").numpy())
            seen["ran"] = True
            return grad_b

    x = paddle.ones([1], dtype="float64")
    x.stop_gradient = False
    a, b = Tanh.apply(x)
    b.sum().backward()
    assert seen["ran"]
    assert a.stop_gradient and not b.stop_gradient
    np.testing.assert_array_equal(x.grad.numpy(), [1.0])


def test_doc000_set_materialize_grads():
    seen = []

    class Tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x + x + x, x + x

        @staticmethod
        def backward(ctx, grad, grad2):
            assert np.equal(grad2.numpy(), paddle.zeros([1]).numpy())
            seen.append("Tanh")
            return grad

    class Tanh2(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x + x + x, x + x

        @staticmethod
        def backward(ctx, grad, grad2):
            assert grad2 is None
            seen.append("Tanh2")
            return grad

    x = paddle.ones([1], dtype="float64")
    x.stop_gradient = False
    Tanh.apply(x)[0].backward()

    x2 = paddle.ones([1], dtype="float64")
    x2.stop_gradient = False
    Tanh2.apply(x2)[0].backward()
    assert seen == ["Tanh", "Tanh2"]
    np.testing.assert_array_equal(x.grad.numpy(), [1.0])
    np.testing.assert_array_equal(x2.grad.numpy(), [1.0])


def test_doc001_pylayer_with_function_arguments():
    class cus_tanh2(PyLayer):  # noqa: N801
        @staticmethod
        def forward(ctx, x, func1, func2=paddle.square):
            ctx.func = func2
            y = func1(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensor()
            grad = dy * (1 - ctx.func(y))
            return grad

    paddle.seed(1)
    data = paddle.randn([2, 3], dtype="float64")
    data.stop_gradient = False
    z = cus_tanh2.apply(data, func1=paddle.tanh)
    z.mean().backward()
    d = data.numpy()
    np.testing.assert_allclose(z.numpy(), np.tanh(d), rtol=1e-12)
    np.testing.assert_allclose(data.grad.numpy(), (1 - np.tanh(d) ** 2) / 6, rtol=1e-12)
    assert data.grad.dtype == paddle.float64


def test_doc003_saved_tensors_hooks_builtin_op():
    log = []

    def pack_hook(x):
        log.append(("Packing", x.numpy().copy()))
        return x.numpy()

    def unpack_hook(x):
        log.append(("UnPacking", x.copy()))
        return paddle.to_tensor(x)

    a = paddle.ones([3, 3])
    b = paddle.ones([3, 3]) * 2
    a.stop_gradient = False
    b.stop_gradient = False
    with paddle.autograd.saved_tensors_hooks(pack_hook, unpack_hook):
        y = paddle.multiply(a, b)
    y.sum().backward()
    # Paddle prints: Packing a, Packing b, UnPacking a, UnPacking b (recorded from Paddle 3.3.1)
    assert [k for k, _ in log] == ["Packing", "Packing", "UnPacking", "UnPacking"]
    np.testing.assert_array_equal(log[0][1], np.ones((3, 3)))
    np.testing.assert_array_equal(log[1][1], 2 * np.ones((3, 3)))
    np.testing.assert_array_equal(a.grad.numpy(), 2 * np.ones((3, 3)))
    np.testing.assert_array_equal(b.grad.numpy(), np.ones((3, 3)))


def test_doc003_saved_tensors_hooks_pylayer():
    class cus_multiply(PyLayer):  # noqa: N801
        @staticmethod
        def forward(ctx, a, b):
            y = paddle.multiply(a, b)
            ctx.save_for_backward(a, b)
            return y

        @staticmethod
        def backward(ctx, dy):
            a, b = ctx.saved_tensor()
            grad_a = dy * a
            grad_b = dy * b
            return grad_a, grad_b

    log = []

    def pack_hook(x):
        log.append("Packing")
        return x.numpy()

    def unpack_hook(x):
        log.append("UnPacking")
        return paddle.to_tensor(x)

    a = paddle.ones([3, 3])
    b = paddle.ones([3, 3]) * 2
    a.stop_gradient = False
    b.stop_gradient = False
    with paddle.autograd.saved_tensors_hooks(pack_hook, unpack_hook):
        y = cus_multiply.apply(a, b)
    y.sum().backward()
    assert log == ["Packing", "Packing", "UnPacking", "UnPacking"]
    # the doc's backward swaps the roles on purpose: grad_a = dy * a
    np.testing.assert_array_equal(a.grad.numpy(), np.ones((3, 3)))
    np.testing.assert_array_equal(b.grad.numpy(), 2 * np.ones((3, 3)))
