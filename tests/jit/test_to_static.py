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
        f(_leaf([1.0]), {1, 2})  # (a numpy array is a constant compared by its bytes: test_program_diffs_d)


# ---- implicit inputs: Tensors the compiled function reads without being passed them ----------------------
import json  # noqa: E402
import os  # noqa: E402

_PADDLE = json.load(open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_to_static.json")))
_X = np.arange(6, dtype="float32").reshape(2, 3) / 4 - 0.5


def test_closure_tensor_gets_its_gradient_and_is_read_afresh_like_paddle():
    w = paddle.to_tensor(np.linspace(-1, 1, 9, dtype="float32").reshape(3, 3), stop_gradient=False)
    holder = {"w": w}

    @paddle.jit.to_static
    def f(x):
        return paddle.tanh(paddle.matmul(x, holder["w"])).sum()

    x = paddle.to_tensor(_X)
    f(x).backward()
    np.testing.assert_allclose(w.grad.numpy(), _PADDLE["closure_grad"], rtol=1e-5, atol=1e-6)
    w.set_value(np.full((3, 3), 0.5, "float32"))
    np.testing.assert_allclose(f(x).item(), _PADDLE["after_set_value"], rtol=1e-5)
    holder["w"] = paddle.to_tensor(np.full((3, 3), -0.25, "float32"), stop_gradient=False)
    np.testing.assert_allclose(f(x).item(), _PADDLE["after_replace"], rtol=1e-5)


def test_replaced_closure_cell_is_read():
    w = paddle.to_tensor([1.0, 2.0])
    f = paddle.jit.to_static(lambda x: x * w)
    x = paddle.to_tensor([3.0, 4.0])
    np.testing.assert_allclose(f(x).numpy(), [3.0, 8.0])
    w = paddle.to_tensor([-1.0, 0.5])  # noqa: F841 - the closure cell now holds a new Tensor
    np.testing.assert_allclose(f(x).numpy(), [-3.0, 2.0])


class _Inner:
    def __init__(self):
        self.w = paddle.to_tensor(np.linspace(-0.5, 0.7, 6, dtype="float32").reshape(3, 2), stop_gradient=False)


class _Net:
    """A Layer-like object: nested objects holding a parameter, two buffers updated in place."""

    def __init__(self):
        self.inner = _Inner()
        self.mean = paddle.zeros([3])
        self.count = paddle.zeros([3])

    def forward(self, x):
        self.mean.set_value(0.9 * self.mean + 0.1 * x.mean(0))
        self.count.add_(paddle.ones([3]))
        return paddle.nn.functional.sigmoid(paddle.matmul(x - self.mean, self.inner.w)).sum()

    def __call__(self, x):
        return self.forward(x)


def test_layer_like_object_parameters_and_buffers_match_paddle():
    net = paddle.jit.to_static(_Net())
    assert isinstance(net, _Net) and isinstance(net.forward, paddle.jit.StaticFunction)
    xs = paddle.to_tensor(_X, stop_gradient=False)
    losses = []
    for _ in range(3):
        loss = net(xs)
        loss.backward()
        losses.append(loss.item())
    np.testing.assert_allclose(losses, _PADDLE["net_losses"], rtol=1e-5)
    np.testing.assert_allclose(net.mean.numpy(), _PADDLE["net_mean"], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(net.count.numpy(), _PADDLE["net_count"])
    np.testing.assert_allclose(net.inner.w.grad.numpy(), _PADDLE["net_w_grad"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(xs.grad.numpy(), _PADDLE["net_x_grad"], rtol=1e-5, atol=1e-6)


def test_method_decorator_binds_self_and_matches_eager():
    class Model:
        def __init__(self, scale):
            self.w = _leaf([1.0, -2.0], "float32")
            self.scale = scale

        @paddle.jit.to_static
        def run(self, x):
            return (paddle.exp(x * self.w) * self.scale).sum()

    a, b = Model(2.0), Model(3.0)
    x = paddle.to_tensor([0.5, 0.25])
    la, lb = a.run(x), b.run(x)
    la.backward()
    lb.backward()
    for m, s in ((a, 2.0), (b, 3.0)):
        ref = jax.grad(lambda w, s=s: jnp.sum(jnp.exp(jnp.asarray([0.5, 0.25]) * w) * s))(jnp.asarray([1.0, -2.0]))
        np.testing.assert_allclose(m.w.grad.numpy(), ref, rtol=1e-6)
    assert a.run is a.run and a.run is not b.run  # one binding per object
    assert type(Model.__dict__["run"]) is paddle.jit.StaticFunction


def test_buffer_written_in_place_is_written_back_detached_and_traced_once():
    traces = []
    buf = paddle.zeros([2])

    @paddle.jit.to_static
    def f(x):
        traces.append(1)
        buf.add_(x)
        return buf * 2

    x = _leaf([1.0, 2.0], "float32")
    np.testing.assert_allclose(f(x).numpy(), [2.0, 4.0])
    np.testing.assert_allclose(f(x).numpy(), [4.0, 8.0])
    np.testing.assert_allclose(buf.numpy(), [2.0, 4.0])
    assert buf.stop_gradient and buf.is_leaf
    assert len(traces) == 2  # the discovery trace, then the compiled one; the second call traces nothing


def test_implicit_input_shape_change_recompiles_and_stop_gradient_is_followed():
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=True)
    f = paddle.jit.to_static(lambda x: (x * w).sum())
    x = _leaf([3.0, 4.0], "float32")
    f(x).backward()
    assert w.grad is None
    w.stop_gradient = False
    f(x).backward()
    np.testing.assert_allclose(w.grad.numpy(), [3.0, 4.0])
    w.set_value(np.ones(2, "float32"))
    np.testing.assert_allclose(f(x).item(), 7.0)


def test_python_control_flow_on_a_tensor_names_the_line():
    @paddle.jit.to_static(full_graph=True)
    def g(x):
        if x.sum() > 0:
            return x * 2
        return x * 3

    with pytest.raises(RuntimeError, match=r"to_static\(g\).*test_to_static.py:\d+: if x.sum\(\) > 0"):
        g(paddle.to_tensor([1.0]))

    def h(x):
        if x.sum() > 0:
            return x * 2
        return x * 3

    for soft in (paddle.jit.to_static(h, full_graph=False), paddle.jit.to_static(h)):  # the default: Paddle's
        with pytest.warns(UserWarning, match=r"test_to_static.py:\d+: if x.sum\(\) > 0.*runs eagerly"):
            np.testing.assert_allclose(soft(paddle.to_tensor([1.0])).numpy(), [2.0])
        np.testing.assert_allclose(soft(paddle.to_tensor([-1.0])).numpy(), [-3.0])


def test_input_spec_checks_calls_and_none_dims_compile_once_per_size():
    traces = []
    spec = paddle.static.InputSpec([None, 3], "float32", "x")
    assert spec.shape == (-1, 3) and spec.dtype == paddle.float32

    @paddle.jit.to_static(input_spec=[spec])
    def f(x):
        traces.append(x.shape[0])
        return x.sum()

    for n in (2, 2, 5):
        assert f(paddle.ones([n, 3])).item() == 3.0 * n
    assert traces == [2, 5]
    with pytest.raises(ValueError, match=r"input 0 has shape \[2, 4\].*input_spec shape \[-1, 3\]"):
        f(paddle.ones([2, 4]))
    with pytest.raises(ValueError, match="dtype float64, but input_spec says"):
        f(paddle.ones([2, 3], dtype="float64"))
    with pytest.raises(ValueError, match="dimension must be an int"):
        paddle.static.InputSpec([2.5])


def test_to_static_options_and_module_helpers():
    with pytest.raises(NotImplementedError, match="build_strategy"):
        paddle.jit.to_static(lambda x: x, build_strategy=object())
    with pytest.raises(TypeError, match="expected a function, a method or a Layer"):
        paddle.jit.to_static(3)
    g = paddle.jit.not_to_static(np.sum)
    assert g is np.sum
    paddle.jit.ignore_module([np])
    with pytest.raises(TypeError, match="list of modules"):
        paddle.jit.ignore_module("numpy")


def test_tensor_read_inside_a_pylayer_is_a_constant_that_follows_its_value():
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)

    class MulW(PyLayer):
        @staticmethod
        def forward(ctx, a):
            return a * w

        @staticmethod
        def backward(ctx, g):
            return g * w

    f = paddle.jit.to_static(lambda a: (MulW.apply(a) * w).sum())  # w read inside the PyLayer and outside
    a = _leaf([1.0, 5.0], "float32")
    f(a).backward()
    np.testing.assert_allclose(a.grad.numpy(), [1.0, 4.0])  # d/da (a*w*w) through the PyLayer's backward
    np.testing.assert_allclose(w.grad.numpy(), [1.0, 10.0])  # only the read outside the PyLayer: a*w
    w.set_value(np.asarray([3.0, -1.0], "float32"))
    a.clear_grad()
    np.testing.assert_allclose(f(a).item(), 1 * 9 + 5 * 1)
    f(a).backward()
    np.testing.assert_allclose(a.grad.numpy(), [9.0, 1.0])


def test_nested_to_static_functions_share_implicit_inputs():
    w = _leaf([1.0, 2.0], "float32")
    v = _leaf([3.0, -1.0], "float32")
    inner = paddle.jit.to_static(lambda x: x * w)
    outer = paddle.jit.to_static(lambda x: (inner(x) * v).sum())
    outer(paddle.to_tensor([1.0, 4.0])).backward()
    np.testing.assert_allclose(w.grad.numpy(), [3.0, -4.0])
    np.testing.assert_allclose(v.grad.numpy(), [1.0, 8.0])


def test_random_draws_inside_follow_the_global_generator_like_eager():
    def f(x):
        return x + paddle.rand([3])

    g = paddle.jit.to_static(f)
    x = paddle.zeros([3])
    paddle.seed(5)
    eager = [f(x).numpy() for _ in range(3)] + [paddle.rand([2]).numpy()]
    paddle.seed(5)
    compiled = [g(x).numpy() for _ in range(3)] + [paddle.rand([2]).numpy()]
    for a, b in zip(eager, compiled):
        np.testing.assert_array_equal(a, b)
    assert not np.allclose(compiled[0], compiled[1])  # a new draw at every call


def test_dropout_mask_is_the_same_in_forward_and_backward_and_follows_training():
    class Net:
        def __init__(self):
            self.training = True

        def sublayers(self):
            return []

        def forward(self, v):
            return paddle.nn.functional.dropout(v, 0.5, training=self.training)

        def __call__(self, v):
            return self.forward(v)

    net = paddle.jit.to_static(Net())
    y = _leaf(np.ones(400), "float32")
    o = net(y)
    o.sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), o.numpy())  # d(sum(mask * 2 * y))/dy = mask * 2 = o
    assert 0.3 < (o.numpy() == 0).mean() < 0.7
    net.training = False  # the train/eval flag is part of the cache key
    np.testing.assert_array_equal(net(y).numpy(), np.ones(400))
