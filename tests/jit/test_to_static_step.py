"""jit.to_static of a whole training step (forward, backward, optimizer step, clear_grad) as one XLA program."""

from __future__ import annotations

import gc

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pylayer_support import CusTanh
from xla_compiles import COMPILES

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax import nn

_RNG = np.random.default_rng(0)
X_NP = _RNG.normal(size=(16, 4)).astype("float32")
Y_NP = _RNG.normal(size=(16, 1)).astype("float32")


def _data():
    return paddle.to_tensor(X_NP), paddle.to_tensor(Y_NP)


class Net(nn.Layer):
    def __init__(self, act="tanh", bn=False):
        super().__init__()
        self.fc1 = nn.Linear(4, 8, bias_attr=False if bn else None)
        self.bn = nn.BatchNorm1D(8) if bn else None
        self.fc2 = nn.Linear(8, 1)
        self.act = act

    def forward(self, x):
        h = self.fc1(x)
        if self.bn is not None:
            h = self.bn(h)
        h = CusTanh.apply(h) if self.act == "pylayer" else paddle.tanh(h)
        return self.fc2(h)


def _pair(make_opt, **net_kw):
    """Two equal models and optimizers: one trained eagerly, one by the compiled step."""
    out = []
    for _ in range(2):
        paddle.seed(7)
        net = Net(**net_kw)
        opt, sched = make_opt(net.parameters())
        out.append((net, opt, sched))
    return out


def _train_fn(net, opt, traces=None):
    def step(x, y):
        if traces is not None:
            traces.append(1)
        loss = F.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step


def _params(net):
    return [p.numpy() for p in net.parameters()]


def _sgd(ps):
    return paddle.optimizer.SGD(learning_rate=0.1, parameters=ps), None


def _adam(ps):
    return paddle.optimizer.Adam(learning_rate=0.01, parameters=ps), None


def _adamw_sched(ps):
    sched = paddle.optimizer.lr.StepDecay(0.02, step_size=2, gamma=0.5)
    return paddle.optimizer.AdamW(learning_rate=sched, parameters=ps, weight_decay=0.05), sched


def _clip_decay(ps):
    sched = paddle.optimizer.lr.CosineAnnealingDecay(0.05, T_max=4)
    opt = paddle.optimizer.Momentum(learning_rate=sched, momentum=0.9, parameters=ps, weight_decay=0.01,
                                    grad_clip=nn.ClipGradByGlobalNorm(0.05))
    return opt, sched


@pytest.mark.parametrize("make_opt", [_sgd, _adam, _adamw_sched, _clip_decay], ids=["sgd", "adam", "adamw_sched",
                                                                                   "momentum_clip_decay"])
@pytest.mark.parametrize("net_kw", [{}, {"act": "pylayer"}, {"bn": True}], ids=["mlp", "pylayer", "batchnorm"])
def test_compiled_step_equals_the_eager_loop(make_opt, net_kw):
    (ne, oe, se), (nc, oc, sc) = _pair(make_opt, **net_kw)
    traces = []
    eager, fast = _train_fn(ne, oe), paddle.jit.to_static(_train_fn(nc, oc, traces))
    x, y = _data()
    for i in range(6):
        le, lc = eager(x, y), fast(x, y)
        np.testing.assert_allclose(lc.item(), le.item(), rtol=2e-6, atol=1e-7)
        if se is not None:
            se.step()
            sc.step()
        if i == 1:
            n_traced = len(traces)
    assert len(traces) == n_traced  # the scheduler changes the rate (an input): nothing is traced again
    for a, b in zip(_params(ne), _params(nc)):
        np.testing.assert_allclose(b, a, rtol=2e-5, atol=2e-6)
    for pe, pc in zip(ne.parameters(), nc.parameters()):  # cleared gradients: zeros, as eagerly
        assert (pe.grad is None) == (pc.grad is None)
        if pe.grad is not None:
            np.testing.assert_array_equal(pc.grad.numpy(), np.zeros(pc.shape))
    if net_kw.get("bn"):  # the running statistics, updated inside the compiled step
        for be, bc in zip(ne.bn.buffers(include_sublayers=False) or [ne.bn._mean, ne.bn._variance],
                          nc.bn.buffers(include_sublayers=False) or [nc.bn._mean, nc.bn._variance]):
            np.testing.assert_allclose(bc.numpy(), be.numpy(), rtol=2e-5, atol=1e-6)
    for k, v in oe.state_dict().items():  # the optimizer's accumulators, by their (other) parameter names
        if isinstance(v, paddle.Tensor):
            kc = k.replace(ne.fc1.weight.name, nc.fc1.weight.name)
            if kc in oc.state_dict():
                np.testing.assert_allclose(oc.state_dict()[kc].numpy(), v.numpy(), rtol=2e-5, atol=1e-6)


def _jax_loss(ws, x, y, act):
    w1, b1, w2, b2 = ws
    h = act(x @ w1 + b1)
    return jnp.mean((h @ w2 + b2 - y) ** 2)


@pytest.mark.parametrize("act", ["tanh", "pylayer"])
def test_compiled_sgd_trajectory_equals_jax_grad(act):
    paddle.seed(3)
    net = Net(act=act)
    opt = paddle.optimizer.SGD(learning_rate=0.2, parameters=net.parameters())
    fast = paddle.jit.to_static(_train_fn(net, opt))
    ws = [jnp.asarray(p.numpy()) for p in net.parameters()]
    x, y = _data()
    jact = jnp.tanh if act == "tanh" else (lambda v: CusTanh.apply(v))
    for _ in range(5):
        loss_ref, g = jax.value_and_grad(_jax_loss)(ws, jnp.asarray(X_NP), jnp.asarray(Y_NP), jact)
        ws = [w - 0.2 * gw for w, gw in zip(ws, g)]
        np.testing.assert_allclose(fast(x, y).item(), float(loss_ref), rtol=1e-6)
    for p, w in zip(net.parameters(), ws):
        np.testing.assert_allclose(p.numpy(), np.asarray(w), rtol=1e-5, atol=1e-7)


def test_gradients_accumulate_across_calls_without_clear_grad_as_jax_grad_says():
    paddle.seed(1)
    net = Net(act="pylayer")

    @paddle.jit.to_static
    def accumulate(x, y):
        loss = F.mse_loss(net(x), y)
        loss.backward()
        return loss

    x, y = _data()
    ws = [jnp.asarray(p.numpy()) for p in net.parameters()]
    g = jax.grad(_jax_loss)(ws, jnp.asarray(X_NP), jnp.asarray(Y_NP), jnp.tanh)
    for k in range(1, 4):
        accumulate(x, y)
        for p, gw in zip(net.parameters(), g):
            np.testing.assert_allclose(p.grad.numpy(), k * np.asarray(gw), rtol=1e-5, atol=1e-7)
        for p, w in zip(net.parameters(), ws):  # no optimizer: the parameters stay
            np.testing.assert_array_equal(p.numpy(), np.asarray(w))


def test_loss_returned_is_read_after_the_call_and_other_outputs_too():
    paddle.seed(2)
    net = Net()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())

    @paddle.jit.to_static
    def step(x, y):
        out = net(x)
        loss = F.mse_loss(out, y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss, {"out": out, "n": 3}

    x, y = _data()
    ws = [jnp.asarray(p.numpy()) for p in net.parameters()]
    loss, extra = step(x, y)
    ref = _jax_loss(ws, jnp.asarray(X_NP), jnp.asarray(Y_NP), jnp.tanh)
    assert isinstance(loss.item(), float)
    np.testing.assert_allclose(loss.item(), float(ref), rtol=1e-6)
    np.testing.assert_allclose(float(loss), float(ref), rtol=1e-6)
    assert extra["n"] == 3 and extra["out"].shape == [16, 1]
    assert loss.stop_gradient  # the step has run its backward already: what it returns has no history


@pytest.mark.parametrize("read", ["item", "numpy", "float", "print", "if"])
def test_reading_a_value_inside_the_step_names_the_line(read):
    paddle.seed(4)
    net = Net()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())

    def step(x, y):
        loss = F.mse_loss(net(x), y)
        loss.backward()
        if read == "item":
            loss.item()
        elif read == "numpy":
            loss.numpy()
        elif read == "float":
            float(loss)
        elif read == "print":
            print(loss)
        elif loss > 0:
            pass
        opt.step()
        opt.clear_grad()
        return loss

    before = _params(net)
    with pytest.raises(RuntimeError, match=r"to_static\(step\): .*test_to_static_step.py:\d+: .*needs a Tensor's "
                                           r"value in Python .* compiled training step .* read it after the call"):
        paddle.jit.to_static(step, full_graph=True)(*_data())
    for a, b in zip(before, _params(net)):  # nothing changed, no tracer left behind
        np.testing.assert_array_equal(a, b)
    for p in net.parameters():
        assert p.grad is None and not isinstance(p._v, jax.core.Tracer)


def test_full_graph_false_runs_a_step_that_reads_a_value_eagerly():
    (ne, oe, _), (nc, oc, _) = _pair(_adam)
    seen = []

    def make(net, opt):
        def step(x, y):
            loss = F.mse_loss(net(x), y)
            seen.append(loss.item())
            loss.backward()
            opt.step()
            opt.clear_grad()
            return loss
        return step

    soft = paddle.jit.to_static(make(nc, oc), full_graph=False)
    x, y = _data()
    with pytest.warns(UserWarning, match=r"test_to_static_step.py:\d+: .*seen.append\(loss.item\(\)\).*runs eagerly"):
        soft(x, y)
    soft(x, y)
    eager = make(ne, oe)
    eager(x, y)
    eager(x, y)
    assert seen[0] == seen[2] and seen[1] == seen[3]
    for a, b in zip(_params(ne), _params(nc)):
        np.testing.assert_allclose(b, a, rtol=1e-6)


def test_a_method_step_on_a_layer_and_an_array_sharing_a_parameter_keeps_its_values():
    class Model(nn.Layer):
        def __init__(self):
            super().__init__()
            self.net = Net()
            self.opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=self.net.parameters())

        @paddle.jit.to_static
        def train_step(self, x, y):
            loss = F.mse_loss(self.net(x), y)
            loss.backward()
            self.opt.step()
            self.opt.clear_grad()
            return loss

    paddle.seed(5)
    m = Model()
    x, y = _data()
    m.train_step(x, y)
    m.train_step(x, y)
    w = m.net.fc1.weight
    kept = jnp.asarray(w)  # shares the array: the compiled step must not consume it
    view = w.detach()  # a view, as in Paddle: it sees the parameter's new values
    state = m.opt.state_dict()
    moment = {k: v.numpy().copy() for k, v in state.items() if isinstance(v, paddle.Tensor)}
    old = np.asarray(kept).copy()
    losses = [m.train_step(x, y).item() for _ in range(3)]
    assert losses[0] > losses[1] > losses[2]
    np.testing.assert_array_equal(np.asarray(kept), old)  # still readable, with the values it had
    assert not np.array_equal(w.numpy(), old)
    np.testing.assert_array_equal(view.numpy(), w.numpy())
    for k, v in state.items():
        if isinstance(v, paddle.Tensor):
            np.testing.assert_array_equal(v.numpy(), moment[k])


def test_a_replaced_optimizer_state_and_a_set_value_between_calls_are_read():
    paddle.seed(6)
    net = Net()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    fast = paddle.jit.to_static(_train_fn(net, opt))
    x, y = _data()
    fast(x, y)
    fast(x, y)
    net.fc2.bias.set_value(np.full([1], 3.0, "float32"))
    opt.set_lr(0.0)
    fast(x, y)
    np.testing.assert_array_equal(net.fc2.bias.numpy(), [3.0])  # rate 0: the value set outside, unchanged
    gc.collect()


def test_a_compiled_steps_first_call_makes_the_optimizer_state_with_one_program():
    # made one by one, each constant of Adam's state (zeros of each shape, the powers of the betas) compiled a
    # program of its own; made as the eager first step makes them, they are one program
    rng = np.random.default_rng(11)
    w0 = (rng.standard_normal((5, 19)) * 0.5).astype("float32")  # (shapes no other test uses)
    b0 = (rng.standard_normal(19) * 0.5).astype("float32")
    xv = rng.standard_normal((4, 5)).astype("float32")
    x = paddle.to_tensor(xv)
    compiles = {}
    for name in ("sgd", "adam"):  # (SGD, without state, first: what both compile besides the state)
        w, b = (paddle.to_tensor(v, stop_gradient=False) for v in (w0, b0))
        opt = (paddle.optimizer.SGD if name == "sgd" else paddle.optimizer.Adam)(0.1, parameters=[w, b])

        def step(x, w=w, b=b, opt=opt):
            loss = paddle.tanh(paddle.matmul(x, w) + b).pow(2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            return loss

        fast = paddle.jit.to_static(step)
        c0 = COMPILES[0]
        fast(x)
        compiles[name] = COMPILES[0] - c0
        fast(x)
    assert compiles["adam"] <= 2, compiles  # its step's program and its state's (before: 6, one per constant)

    def loss_jax(ps):
        return jnp.mean(jnp.tanh(jnp.asarray(xv) @ ps[0] + ps[1]) ** 2)

    ps, m, v = [w0.astype(np.float64), b0.astype(np.float64)], [0.0, 0.0], [0.0, 0.0]
    for t in (1, 2):  # Paddle's Adam in numpy on jax.grad
        g = [np.asarray(d, np.float64) for d in jax.grad(loss_jax)([jnp.asarray(p, jnp.float32) for p in ps])]
        m = [0.9 * a + 0.1 * d for a, d in zip(m, g)]
        v = [0.999 * a + 0.001 * d * d for a, d in zip(v, g)]
        ps = [p - 0.1 * (a / (1 - 0.9**t)) / (np.sqrt(s / (1 - 0.999**t)) + 1e-8) for p, a, s in zip(ps, m, v)]
    for got, want in zip((w, b), ps):
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-5, atol=5e-6)
