"""Convolution, pooling and normalisation layers against Paddle 3.3.1 (fixtures written by
``record_paddle_layers_zoo_b.py``): parameters loaded from Paddle, outputs, gradients of a weighted sum
w.r.t. input and parameters, running statistics after train steps, repr, state_dict keys, parameter
names and default-initialisation statistics; a tiny CNN trained eagerly against jax.grad."""

from __future__ import annotations

import json
import os

import jax
import numpy as np
import pytest
from layer_zoo_b_cases import CASES, INIT_CASES

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax import nn
from pylayer_jax._replay import follow as _replay

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the tests folder
DATA = np.load(os.path.join(HERE, "data", "paddle_layers_zoo_b.npz"))
META = json.load(open(os.path.join(HERE, "data", "paddle_layers_zoo_b.json")))


def _inputs(shape, dtype, k):
    return np.random.RandomState(k).standard_normal(shape).astype(dtype)


def _weights(shape, dtype):
    n = int(np.prod(shape))
    return (np.cos(np.arange(n)) + 1.5).reshape(shape).astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("name", "ctor", "shape", "train_steps"), CASES, ids=[c[0] for c in CASES])
def test_layer_matches_paddle(name, ctor, shape, train_steps, dtype):
    # float64: Paddle computes some pool divisors in float32 (relative error ~3e-8)
    tol = {"rtol": 1e-5, "atol": 1e-5} if dtype == "float32" else {"rtol": 1e-7, "atol": 1e-9}
    if name.startswith("lppool") and dtype == "float64":  # Paddle's lp_pool takes 1/p in float32
        tol = {"rtol": 1e-6, "atol": 1e-9}
    paddle.set_default_dtype(dtype)
    try:
        layer = eval(ctor)
    finally:
        paddle.set_default_dtype("float32")
    key = f"{name}/{dtype}"
    init = {k[len(key) + 6:]: DATA[k] for k in DATA.files if k.startswith(f"{key}/init/")}
    assert sorted(init) == sorted(layer.state_dict())
    layer.set_state_dict({k: paddle.to_tensor(v) for k, v in init.items()})
    steps = [("train", i) for i in range(train_steps)] + [("eval", train_steps)] if train_steps else [("eval", 0)]
    for mode, i in steps:
        layer.train() if mode == "train" else layer.eval()
        x = paddle.to_tensor(_inputs(shape, dtype, i), stop_gradient=False)
        out = layer(x)
        outs = list(out) if isinstance(out, tuple) else [out]
        for j, o in enumerate(outs):
            want = DATA[f"{key}/{i}/out{j}"]
            assert o.numpy().dtype == want.dtype
            np.testing.assert_allclose(o.numpy(), want, **tol)
        loss = (outs[0] * paddle.to_tensor(_weights(outs[0].shape, dtype))).sum()
        named = [(n, p) for n, p in layer.named_parameters() if not p.stop_gradient]
        grads = paddle.grad(loss, [x, *[p for _, p in named]], allow_unused=True)
        np.testing.assert_allclose(grads[0].numpy(), DATA[f"{key}/{i}/gx"], **tol)
        for (pn, _), g in zip(named, grads[1:]):
            np.testing.assert_allclose(g.numpy(), DATA[f"{key}/{i}/g/{pn}"], **tol)
        for k, v in layer.state_dict().items():  # running statistics after this step
            np.testing.assert_allclose(v.numpy(), DATA[f"{key}/{i}/state/{k}"], **tol)


@pytest.mark.parametrize(("name", "ctor"), [(c[0], c[1]) for c in CASES], ids=[c[0] for c in CASES])
def test_repr_keys_and_parameter_names_match_paddle(name, ctor):
    layer = eval(ctor)
    meta = META[name]
    assert repr(layer) == meta["repr"]
    assert list(layer.state_dict().keys()) == meta["keys"]
    prefix = [n.rsplit(".", 1) for n in meta["pnames"]]
    got = [p.name.rsplit(".", 1) for p in layer.parameters()]
    assert [s for _, s in got] == [s for _, s in prefix]  # w_0, b_0, w_1 ...
    assert [h.rsplit("_", 1)[0] for h, _ in got] == [h.rsplit("_", 1)[0] for h, _ in prefix]


@pytest.mark.parametrize(("name", "ctor"), INIT_CASES, ids=[c[0] for c in INIT_CASES])
def test_default_initialisation_statistics_match_paddle(name, ctor):
    paddle.seed(1)
    w = eval(ctor).weight.numpy().astype(np.float64)
    ref = META["__init__"][name]
    assert abs(w.mean() - ref["mean"]) < 0.1 * ref["std"]
    assert abs(w.std() - ref["std"]) < 0.03 * ref["std"]
    if name == "conv2d_t":  # XavierUniform: the bounds are the limit
        assert w.max() <= ref["max"] * 1.0001 and w.min() >= ref["min"] * 1.0001
        assert w.max() > 0.99 * ref["max"]


def test_lowercase_names_are_the_same_classes():
    assert nn.Conv2d is nn.Conv2D and nn.MaxUnpool2d is nn.MaxUnPool2D and nn.LPPool1d is nn.LPPool1D
    assert nn.AdaptiveAvgPool3d is nn.AdaptiveAvgPool3D


def test_max_unpool_inverts_max_pool():
    x = paddle.to_tensor(_inputs([1, 2, 4, 4], "float32", 3))
    y, idx = nn.MaxPool2D(2, return_mask=True)(x)
    back = nn.MaxUnPool2D(2)(y, idx)
    xs, bs = x.numpy(), back.numpy()
    mask = bs != 0
    np.testing.assert_array_equal(bs[mask], xs[mask])
    assert mask.reshape(1, 2, 2, 2, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(1, 2, 2, 2, 4).sum(-1).tolist() \
        == [[[[1, 1], [1, 1]], [[1, 1], [1, 1]]]]


def test_transpose_output_size():
    t = nn.Conv2DTranspose(2, 3, 3, stride=2)
    x = paddle.ones([1, 2, 4, 4])
    assert t(x).shape == [1, 3, 9, 9]
    out = t(x, output_size=[10, 10])
    assert out.shape == [1, 3, 10, 10]
    ref = F.conv2d_transpose(x, t.weight, t.bias, stride=2, output_size=[10, 10])
    np.testing.assert_allclose(out.numpy(), ref.numpy())


@pytest.mark.parametrize(("build", "shape", "exc", "match"), [
    (lambda: nn.Conv2D(4, 2, 3, groups=3), None, ValueError, r"Conv2D: in_channels \(4\) must be divisible by groups"),
    (lambda: nn.Conv2DTranspose(4, 2, 3, groups=4), None, ValueError, r"Conv2DTranspose: out_channels \(2\)"),
    (lambda: nn.Conv2D(2, 2, 3, padding_mode="mirror"), None, ValueError, "Conv2D: padding_mode must be one of"),
    (lambda: nn.Conv2D(2, 2, 3, padding=[1, 1], padding_mode="reflect"), None, TypeError, "padding must be an int"),
    (lambda: nn.Conv2D(2, 2, 3), [1, 2, 5], ValueError, r"Conv2D: the input must be 4-D"),
    (lambda: nn.Conv2D(2, 2, 3), [1, 3, 5, 5], ValueError, "Conv2D: the input has 3 channels"),
    (lambda: nn.Conv1D(2, 2, 3, data_format="NCHW"), None, ValueError, "Conv1D: data_format must be one of"),
    (lambda: nn.Conv2D(2, 2, 3, weight_attr=False), None, ValueError, "Conv2D: weight_attr must not be False"),
    (lambda: nn.Conv2D(2, 2, 3, device="gpu"), None, NotImplementedError, "Conv2D: device='gpu'"),
    (lambda: nn.BatchNorm2D(3), [2, 3, 4], ValueError, "BatchNorm2D: the input must be 4-D"),
    (lambda: nn.BatchNorm2D(3), [2, 4, 2, 2], ValueError, "BatchNorm2D: the input has 4 channels"),
    (lambda: nn.BatchNorm1D(3, data_format="NCHW"), None, ValueError, "BatchNorm1D: data_format must be one of"),
    (lambda: nn.GroupNorm(3, 4), None, ValueError, r"GroupNorm: num_channels \(4\) must be divisible"),
    (lambda: nn.LayerNorm([3, 4]), [2, 4, 3], ValueError, "LayerNorm: the input's trailing axes"),
    (lambda: nn.InstanceNorm2D(2, weight_attr=False), None, ValueError, "InstanceNorm2D: weight_attr and bias_attr"),
    (lambda: nn.MaxPool2D(2), [2, 4, 4], ValueError, "MaxPool2D: the input must be 4-D"),
    (lambda: nn.MaxPool2D(), None, TypeError, "MaxPool2D: missing a required argument: 'kernel_size'"),
])
def test_misuse_raises_naming_the_layer(build, shape, exc, match):
    with pytest.raises(exc, match=match):
        layer = build()
        layer(paddle.ones(shape))


class TinyCNN(nn.Layer):
    def __init__(self, bn=True):
        super().__init__()
        self.conv = nn.Conv2D(2, 4, 3, padding=1)
        self.bn = nn.BatchNorm2D(4) if bn else nn.Identity()
        self.pool = nn.MaxPool2D(2)
        self.fc = nn.Linear(16, 3)

    def forward(self, x):
        h = self.pool(F.relu(self.bn(self.conv(x))))
        return self.fc(h.flatten(1))


@pytest.mark.parametrize("bn", [True, False])
def test_tiny_cnn_eager_sgd_matches_jax_grad(bn):
    paddle.seed(3)
    net = TinyCNN(bn)
    x = paddle.to_tensor(_inputs([4, 2, 4, 4], "float32", 5))
    y = paddle.to_tensor(_inputs([4, 3], "float32", 6))
    ref = jax.tree_util.tree_map(lambda v: v, net)  # an independent copy for the jax.grad side
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    before = _replay.STATS["steps"]
    for _ in range(6):
        loss = (net(x) - y).square().mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    if not bn:  # the steps after the first ones are replayed (BatchNorm's running-stat update is not yet)
        assert _replay.STATS["steps"] - before >= 3

    def loss_of(m):
        return ((m(x) - y).square().mean())._value

    trainable = {n for n, p in net.named_parameters() if not p.stop_gradient}
    mean = np.zeros(4, "float32")
    for _ in range(6):
        mean = 0.9 * mean + 0.1 * ref.conv(x).numpy().mean(axis=(0, 2, 3))  # numpy oracle of the running mean
        g = jax.grad(loss_of)(ref)
        gd = dict(g.named_parameters())
        for n, p in ref.named_parameters():
            if n in trainable:
                p.set_value(p._value - 0.1 * gd[n]._value)
    got, want = dict(net.named_parameters()), dict(ref.named_parameters())
    for n in trainable:
        np.testing.assert_allclose(got[n].numpy(), want[n].numpy(), rtol=1e-4, atol=1e-5)
    if bn:  # running statistics: six momentum-0.9 updates from the batch statistics of each step's conv output
        np.testing.assert_allclose(net.bn._mean.numpy(), mean, rtol=1e-4, atol=1e-6)
