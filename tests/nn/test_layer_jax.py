"""Layers as JAX citizens (a Layer is a pytree of its parameters and buffers) and eager training of a Layer;
oracles: the same network written in plain JAX, jax.grad, eager backward."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest
from pylayer_support import CusTanh

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax import nn
from pylayer_jax._replay import follow as _replay
from pylayer_jax.autograd import PyLayer


class MLP(nn.Layer):
    def __init__(self, act="relu"):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)
        self.act = act
        self.register_buffer("shift", paddle.full([3], 0.5))

    def forward(self, x):
        h = self.fc1(x)
        h = F.relu(h) if self.act == "relu" else CusTanh.apply(h)
        return self.fc2(h) + self.shift


def _ref(ps, x, act="relu"):
    w1, b1, w2, b2, shift = ps
    h = x @ w1 + b1
    h = jax.nn.relu(h) if act == "relu" else jnp.tanh(h)
    return h @ w2 + b2 + shift


def _arrays(net):
    return [jnp.asarray(t.numpy()) for t in (net.fc1.weight, net.fc1.bias, net.fc2.weight, net.fc2.bias, net.shift)]


def _x(n=5):
    return paddle.to_tensor(np.random.default_rng(0).standard_normal((n, 4)).astype("float32"))


def test_flatten_gives_parameters_and_buffers_and_unflatten_copies():
    net = MLP()
    leaves, tdef = jax.tree_util.tree_flatten(net)
    assert len(leaves) == 5 and all(isinstance(v, jax.Array) for v in leaves)
    copy = jax.tree_util.tree_unflatten(tdef, [v * 2 for v in leaves])
    assert type(copy) is MLP and copy is not net and copy.fc1 is not net.fc1
    assert copy.fc1.weight is not net.fc1.weight and copy.fc1.weight.name == net.fc1.weight.name
    assert isinstance(copy.fc1.weight, nn.Parameter) and copy.fc1.weight.trainable
    np.testing.assert_allclose(copy.fc1.weight.numpy(), 2 * net.fc1.weight.numpy())
    assert list(copy.state_dict()) == list(net.state_dict())
    assert jax.tree_util.tree_structure(copy) == tdef  # a copy has the original's structure


def test_jit_of_a_layer_call_matches_eager_and_compiles_once():
    net, x = MLP(), _x()
    traces = []

    @jax.jit
    def run(n, v):
        traces.append(1)
        return n(v)

    out = run(net, x)
    np.testing.assert_allclose(out.numpy(), net(x).numpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(out.numpy(), _ref(_arrays(net), jnp.asarray(x.numpy())), rtol=1e-5, atol=1e-6)
    run(net, x)
    copy = jax.tree_util.tree_map(lambda v: v + 1, net)
    np.testing.assert_allclose(run(copy, x).numpy(), _ref([a + 1 for a in _arrays(net)], jnp.asarray(x.numpy())),
                               rtol=1e-5, atol=1e-5)
    assert len(traces) == 1
    net.eval()  # a different static attribute: a new trace
    run(net, x)
    assert len(traces) == 2
    # the original is untouched: concrete values, the same Parameter objects
    assert all(isinstance(p._value, jax.Array) and not isinstance(p._value, jax.core.Tracer) for p in net.parameters())


@pytest.mark.parametrize("act", ["relu", "pylayer"])
def test_grad_over_a_layer_matches_jax_and_eager(act):
    net, x = MLP(act), _x()

    def loss(n, v):
        return n(v).square().mean()._value

    g = jax.jit(jax.grad(loss))(net, x)
    assert type(g) is MLP
    ref = jax.grad(lambda ps: jnp.mean(_ref(ps, jnp.asarray(x.numpy()), act) ** 2))(_arrays(net))
    got = [g.fc1.weight, g.fc1.bias, g.fc2.weight, g.fc2.bias, g.shift]
    for a, b in zip(got, ref):
        np.testing.assert_allclose(a.numpy(), b, rtol=1e-5, atol=1e-6)
    net(x).square().mean().backward()  # the eager tape gives the same gradients
    for p, b in zip(net.parameters(), ref):
        np.testing.assert_allclose(p.grad.numpy(), b, rtol=1e-5, atol=1e-6)


def test_vmap_over_inputs():
    net, x = MLP(), _x(6)
    out = jax.vmap(lambda v: net(v[None])[0]._value)(x._value)
    np.testing.assert_allclose(out, net(x).numpy(), rtol=1e-5, atol=1e-6)


def test_optax_training_of_a_layer_matches_plain_jax():
    paddle.seed(1)
    net, x = MLP(), _x()
    y = jnp.asarray(np.random.default_rng(1).standard_normal((5, 3)).astype("float32"))
    opt = optax.adam(0.05)
    state = opt.init(net)

    @jax.jit
    def step(n, s):
        g = jax.grad(lambda m: jnp.mean((m(x)._value - y) ** 2))(n)
        upd, s = opt.update(g, s, n)
        return optax.apply_updates(n, upd), s

    ps = _arrays(net)
    ref_state = opt.init(ps)
    for _ in range(5):
        net, state = step(net, state)
        g = jax.grad(lambda q: jnp.mean((_ref(q, x._value) - y) ** 2))(ps)
        upd, ref_state = opt.update(g, ref_state, ps)
        ps = optax.apply_updates(ps, upd)
    assert type(net) is MLP and net.fc1.weight.name.endswith(".w_0")
    for a, b in zip(_arrays(net), ps):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_tied_parameter_is_one_leaf():
    lin = nn.Linear(3, 3)
    seq = nn.Sequential(lin, lin)
    leaves, _ = jax.tree_util.tree_flatten(seq)
    assert len(leaves) == 2
    g = jax.grad(lambda s: s(paddle.ones([1, 3])).sum()._value)(seq)
    assert g[0] is g[1]
    seq(paddle.ones([1, 3])).sum().backward()
    np.testing.assert_allclose(g[0].weight.numpy(), lin.weight.grad.numpy(), rtol=1e-6)


def test_parameters_are_pytrees():
    ps = nn.Linear(2, 3).parameters()
    doubled = jax.tree_util.tree_map(lambda v: 2 * v, ps)
    assert [type(p) for p in doubled] == [nn.Parameter, nn.Parameter]
    assert [p.name for p in doubled] == [p.name for p in ps]
    np.testing.assert_allclose(doubled[0].numpy(), 2 * ps[0].numpy())


@pytest.mark.parametrize("act", ["relu", "pylayer"])
def test_eager_sgd_loop_of_a_layer_replays_and_matches_jax(act):
    paddle.seed(7)
    net, x = MLP(act), _x()
    ps = _arrays(net)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    before = _replay.STATS["steps"]
    for _ in range(8):
        loss = net(x).square().mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    assert _replay.STATS["steps"] - before >= 5  # Parameters replay like trainable Tensors
    jx = jnp.asarray(x.numpy())
    for _ in range(8):
        g = jax.grad(lambda q: jnp.mean(_ref(q, jx, act) ** 2))(ps)
        ps = [p - 0.1 * d for p, d in zip(ps[:4], g[:4])] + [ps[4]]
    for a, b in zip(_arrays(net), ps):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


class Sq(PyLayer):
    @staticmethod
    def forward(ctx, w):
        ctx.save_for_backward(w)
        return w * w

    @staticmethod
    def backward(ctx, dy):
        (w,) = ctx.saved_tensor()
        return 2 * w * dy


def test_pylayer_applied_to_a_parameter_eagerly_and_traced():
    lin = nn.Linear(2, 3)
    Sq.apply(lin.weight).sum().backward()  # eager driver: a Parameter is a Tensor argument
    np.testing.assert_allclose(lin.weight.grad.numpy(), 2 * lin.weight.numpy(), rtol=1e-6)
    g = jax.grad(lambda m: Sq.apply(m.weight).sum()._value)(lin)  # traced driver on the copy's tracer
    np.testing.assert_allclose(g.weight.numpy(), 2 * lin.weight.numpy(), rtol=1e-6)
