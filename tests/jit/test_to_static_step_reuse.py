"""A compiled training step's next call reuses what the last call left (cheap checks instead of a new key):
whatever replaces a parameter, a gradient, an optimizer's state or its rate between calls is picked up."""

from __future__ import annotations

import logging

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

W0 = np.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.6]], "float32")
X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, 0.3]], "float32")


def _loss(w, x):
    return jnp.mean(jnp.tanh(x @ w))


def _sgd_ref(w, lr, n, x=X):
    for _ in range(n):
        w = w - lr * jax.grad(_loss)(w, x)
    return np.asarray(w)


class Model:
    def __init__(self, w):
        self.w = paddle.to_tensor(w, stop_gradient=False)


def _step(model, opt):
    @paddle.jit.to_static
    def step(x):
        loss = paddle.tanh(paddle.matmul(x, model.w)).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step


def test_a_parameter_changed_by_set_value_between_calls_is_the_one_trained():
    m = Model(W0)
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[m.w])
    step = _step(m, opt)
    x = paddle.to_tensor(X)
    for _ in range(3):
        step(x)
    w1 = np.full_like(W0, 0.25)
    m.w.set_value(w1)
    loss = step(x)
    np.testing.assert_allclose(loss.item(), float(_loss(jnp.asarray(w1), X)), rtol=1e-6)
    np.testing.assert_allclose(m.w.numpy(), _sgd_ref(jnp.asarray(w1), 0.5, 1), rtol=1e-6)


def test_a_new_tensor_assigned_to_the_attribute_is_the_one_read_and_updated():
    m = Model(W0)
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[m.w])
    step = _step(m, opt)
    x = paddle.to_tensor(X)
    for _ in range(3):
        step(x)
    old = m.w
    kept = old.numpy()
    w1 = np.full_like(W0, -0.4)
    m.w = paddle.to_tensor(w1, stop_gradient=False)
    opt._parameter_list = [m.w]  # the optimizer now trains the new Tensor
    loss = step(x)
    np.testing.assert_allclose(loss.item(), float(_loss(jnp.asarray(w1), X)), rtol=1e-6)
    np.testing.assert_allclose(m.w.numpy(), _sgd_ref(jnp.asarray(w1), 0.5, 1), rtol=1e-6)
    np.testing.assert_array_equal(old.numpy(), kept)  # the replaced Tensor is left alone


def test_a_new_argument_tensor_every_call_is_read_afresh():
    m = Model(W0)
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[m.w])
    step = _step(m, opt)
    w = jnp.asarray(W0)
    for k in range(4):
        xk = X * (k + 1)
        before = m.w.numpy()
        loss = step(paddle.to_tensor(xk))
        np.testing.assert_allclose(loss.item(), float(_loss(w, xk)), rtol=1e-6)
        w = w - 0.5 * jax.grad(_loss)(w, xk)
        # each step's update of the weights it started from (the oracle another program: float32 steps of growing
        # inputs drift a few ulps apart over the four steps, where an element is small)
        np.testing.assert_allclose(m.w.numpy(), _sgd_ref(jnp.asarray(before), 0.5, 1, xk), rtol=1e-6)


def test_optimizer_state_replaced_by_set_state_dict_is_the_one_used():
    m = Model(W0)
    opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=[m.w])
    step = _step(m, opt)
    x = paddle.to_tensor(X)
    for _ in range(3):
        step(x)
    state = {k: v for k, v in opt.state_dict().items() if isinstance(v, paddle.Tensor)}
    assert state
    vel = np.full_like(W0, 0.05)
    opt.set_state_dict({k: paddle.to_tensor(vel) for k in state})
    w = m.w.numpy()
    step(x)
    g = np.asarray(jax.grad(_loss)(jnp.asarray(w), X))
    np.testing.assert_allclose(m.w.numpy(), w - 0.1 * (0.9 * vel + g), rtol=1e-5, atol=1e-7)


def test_a_scheduler_changes_the_rate_of_each_call_without_a_new_program():
    m = Model(W0)
    sched = paddle.optimizer.lr.StepDecay(0.4, step_size=1, gamma=0.5)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=[m.w])
    step = _step(m, opt)
    x = paddle.to_tensor(X)
    w = jnp.asarray(W0)
    for k in range(4):
        step(x)
        w = w - 0.4 * 0.5 ** k * jax.grad(_loss)(w, X)
        sched.step()
    np.testing.assert_allclose(m.w.numpy(), np.asarray(w), rtol=1e-6)
    opt.set_lr_scheduler(paddle.optimizer.lr.StepDecay(0.01, step_size=5))
    step(x)
    np.testing.assert_allclose(m.w.numpy(), np.asarray(w - 0.01 * jax.grad(_loss)(w, X)), rtol=1e-6)


def test_stop_gradient_set_between_calls_freezes_the_parameter():
    m = Model(W0)
    b = paddle.to_tensor(np.array([0.1, -0.1, 0.2], "float32"), stop_gradient=False)
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[m.w, b])

    @paddle.jit.to_static
    def step(x):
        loss = paddle.tanh(paddle.matmul(x, m.w) + b).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    x = paddle.to_tensor(X)
    for _ in range(3):
        step(x)
    m.w.stop_gradient = True
    w = m.w.numpy()
    bb = b.numpy()
    step(x)
    np.testing.assert_array_equal(m.w.numpy(), w)
    gb = jax.grad(lambda b_: jnp.mean(jnp.tanh(X @ w + b_)))(jnp.asarray(bb))
    np.testing.assert_allclose(b.numpy(), bb - 0.5 * np.asarray(gb), rtol=1e-6)


def test_a_gradient_set_between_calls_is_accumulated_into():
    m = Model(W0)

    @paddle.jit.to_static
    def accumulate(x):
        loss = paddle.tanh(paddle.matmul(x, m.w)).mean()
        loss.backward()
        return loss

    x = paddle.to_tensor(X)
    for _ in range(3):
        accumulate(x)
    g = np.asarray(jax.grad(_loss)(jnp.asarray(W0), X))
    np.testing.assert_allclose(m.w.grad.numpy(), 3 * g, rtol=1e-5)
    m.w.clear_grad(set_to_zero=False)  # None: the next call stores its gradient
    accumulate(x)
    np.testing.assert_allclose(m.w.grad.numpy(), g, rtol=1e-5)
    accumulate(x)
    np.testing.assert_allclose(m.w.grad.numpy(), 2 * g, rtol=1e-5)


def test_a_step_compiles_once_from_its_first_call(caplog):
    for make in (lambda ps: paddle.optimizer.SGD(0.1, parameters=ps), lambda ps: paddle.optimizer.Adam(0.1, parameters=ps)):
        m = Model(W0)
        opt = make([m.w])
        step = _step(m, opt)
        x = paddle.to_tensor(X)
        step(x)  # eager kernels (and the optimizer's state) compile during the first call
        with jax.log_compiles(True), caplog.at_level(logging.WARNING, logger="jax"):
            caplog.clear()
            step(x)  # gradients are zeroed now: the same program
            step(x)
        assert not [r for r in caplog.records if "Compiling" in r.getMessage()], [r.getMessage() for r in caplog.records]


@pytest.mark.parametrize("make", ["sgd", "adam"])
def test_first_call_compiles_one_step_program(make, caplog):
    m = Model(W0)
    opt = (paddle.optimizer.SGD(0.1, parameters=[m.w]) if make == "sgd"
           else paddle.optimizer.Adam(0.1, parameters=[m.w]))
    step = _step(m, opt)
    x = paddle.to_tensor(X)
    with jax.log_compiles(True), caplog.at_level(logging.WARNING, logger="jax"):
        for _ in range(4):
            step(x)
    names = [r.getMessage() for r in caplog.records if "Compiling" in r.getMessage() and "body" in r.getMessage()]
    assert len(names) == 1, names


def _adam_ref(w, n, lr=0.1, b1=0.9, b2=0.999, eps=1e-8):
    """Paddle's Adam (epsilon added to the bias-corrected root), from jax.grad."""
    m = jnp.zeros_like(w)
    v = jnp.zeros_like(w)
    for t in range(1, n + 1):
        g = jax.grad(_loss)(w, X)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        mhat = m / (1 - b1**t)
        w = w - lr * mhat / (jnp.sqrt(v / (1 - b2**t)) + eps)
    return np.asarray(w)


def test_eager_and_compiled_adam_steps_interleaved_share_one_state():
    # eager steps keep their state packed; a compiled step between them must continue from it, not from zeros
    m = Model(W0)
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=[m.w])
    step = _step(m, opt)
    x = paddle.to_tensor(X)

    def eager():
        loss = paddle.tanh(paddle.matmul(x, m.w)).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()

    for run in (eager, eager, step, step, eager, step, eager, eager):
        run() if run is eager else run(x)
    np.testing.assert_allclose(m.w.numpy(), _adam_ref(jnp.asarray(W0, jnp.float32), 8), rtol=2e-5, atol=5e-6)
class _Scale(paddle.nn.Layer):
    """Multiplies by 2 in training mode, by 3 in eval mode (the mode picks the program)."""

    def forward(self, x):
        return x * (2.0 if self.training else 3.0)


class _Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.w = self.create_parameter([2, 3])
        self.w.set_value(paddle.to_tensor(W0))
        self.blocks = paddle.nn.LayerList([paddle.nn.Sequential(_Scale())])
        self.opt = paddle.optimizer.SGD(0.1, parameters=[self.w])

    @paddle.jit.to_static
    def train_step(self, x):
        loss = paddle.tanh(self.blocks[0](paddle.matmul(x, self.w))).mean()
        loss.backward()
        self.opt.step()
        self.opt.clear_grad()
        return loss


def test_a_nested_sublayer_switched_to_eval_between_calls_changes_the_method_step():
    net = _Net()
    x = paddle.to_tensor(X)
    w = W0
    scales = [2.0, 2.0, 3.0, 3.0, 2.0]
    for k, scale in enumerate(scales):
        if k == 2:
            net.blocks[0][0].eval()  # a sublayer two containers down, not the Layer itself
        if k == 4:
            net.blocks[0][0].training = True
        loss = net.train_step(x)
        want = float(jnp.mean(jnp.tanh(scale * (X @ w))))
        np.testing.assert_allclose(float(loss), want, rtol=1e-6)
        w = w - 0.1 * np.asarray(jax.grad(lambda v, s=scale: jnp.mean(jnp.tanh(s * (X @ v))))(w))
        np.testing.assert_allclose(net.w.numpy(), w, rtol=1e-5, atol=1e-6)
    net.blocks.append(paddle.nn.Sequential(_Scale()).eval())  # a new sublayer: a new structure, traced again
    loss = net.train_step(x)
    np.testing.assert_allclose(float(loss), float(jnp.mean(jnp.tanh(2.0 * (X @ w)))), rtol=1e-6)
