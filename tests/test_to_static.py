"""jit.to_static: compiled eager-style functions, PyLayers inside them (spec item 40)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax.autograd import PyLayer


class Cube(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.k = 3.0
        return x**3

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy * ctx.k * x * x


def _leaf(values, dtype="float64"):
    t = paddle.to_tensor(np.asarray(values), dtype=dtype)
    t.stop_gradient = False
    return t


def test_to_static_equals_eager_values_and_grads():
    def f(x, scale=2.0):
        return paddle.tanh(Cube.apply(x)) * scale

    g = paddle.jit.to_static(f)
    x1, x2 = _leaf([0.3, -0.5, 0.9]), _leaf([0.3, -0.5, 0.9])
    y1, y2 = f(x1), g(x2)
    np.testing.assert_allclose(y2.numpy(), y1.numpy(), rtol=1e-12)
    y1.sum().backward()
    y2.sum().backward()
    np.testing.assert_allclose(x2.grad.numpy(), x1.grad.numpy(), rtol=1e-12)
    ref = jax.grad(lambda v: jnp.sum(jnp.tanh(v**3) * 2.0))(jnp.asarray([0.3, -0.5, 0.9]))
    np.testing.assert_allclose(x2.grad.numpy(), ref, rtol=1e-12)


def test_to_static_decorator_forms_and_static_args_recompile_only_per_value():
    calls = []

    @paddle.jit.to_static()
    def f(x, power):
        calls.append(power)
        return x**power

    x = _leaf([2.0])
    assert f(x, 2).item() == 4.0
    assert f(x, 2).item() == 4.0
    assert f(x, 3).item() == 8.0
    assert calls == [2, 3]  # traced once per static value, then cached


def test_to_static_kwargs_and_tuple_outputs():
    @paddle.jit.to_static
    def f(x, *, y):
        return x + y, x * y

    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    s, p = f(a, y=b)
    (s.sum() + p.sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), [4.0, 5.0])
    np.testing.assert_allclose(b.grad.numpy(), [2.0, 3.0])


class NotInplace(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_not_inplace(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g.exp()


class NonDiff(PyLayer):
    @staticmethod
    def forward(ctx, x):
        a = x + x
        b = x + x + x
        ctx.mark_non_differentiable(a)
        ctx.set_materialize_grads(False)
        ctx.w = x * 10  # a Tensor attribute: Paddle's to_static raises AttributeError here
        return a, b

    @staticmethod
    def backward(ctx, ga, gb):
        assert ga is None  # not materialised, and non-differentiable
        return gb * ctx.w


def test_ctx_features_paddle_refuses_under_to_static_work():
    f = paddle.jit.to_static(lambda x: NotInplace.apply(x))
    x = _leaf([1.0])
    f(x).backward()
    np.testing.assert_allclose(x.grad.numpy(), [np.e])

    g = paddle.jit.to_static(lambda x: NonDiff.apply(x)[1])
    x = _leaf([2.0, 3.0])
    g(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [20.0, 30.0])


def test_enable_to_static_false_runs_eagerly():
    seen = []

    @paddle.jit.to_static
    def f(x):
        seen.append(type(x._value).__name__)
        return x * 2

    paddle.jit.enable_to_static(False)
    try:
        f(_leaf([1.0]))
    finally:
        paddle.jit.enable_to_static(True)
    assert seen == ["ArrayImpl"]
    assert f.rollback() is f.dygraph_function


def test_unhashable_static_argument_is_a_clear_error():
    f = paddle.jit.to_static(lambda x, d: x * 2)
    with pytest.raises(TypeError, match="to_static.*must be hashable"):
        f(_leaf([1.0]), np.ones(2))
