"""The old-style ``nn.BatchNorm``, ``SyncBatchNorm`` and ``SpectralNorm`` against Paddle 3.3.1 (fixtures written
by ``record_paddle_layers_zoo_c.py``): outputs, gradients of a weighted sum, running statistics after train
steps and in eval, repr, state_dict keys and parameter names; their misuse."""

from __future__ import annotations

import json
import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from layer_zoo_c_cases import ADAPTIVE, CASES, DECODE, META_CASES, SPECTRAL, decoder

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax import nn

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the tests folder
DATA = np.load(os.path.join(HERE, "data", "paddle_layers_zoo_c.npz"))
META = json.load(open(os.path.join(HERE, "data", "paddle_layers_zoo_c.json")))
TOL = {"float32": {"rtol": 1e-5, "atol": 1e-5}, "float64": {"rtol": 1e-7, "atol": 1e-9}}


def _inputs(shape, dtype, k):
    return np.random.RandomState(k).standard_normal(shape).astype(dtype)


def _weights(shape, dtype):
    n = int(np.prod(shape))
    return (np.cos(np.arange(n)) + 1.5).reshape(shape).astype(dtype)


def _build(ctor, dtype):
    paddle.set_default_dtype(dtype)
    try:
        return eval(ctor)
    finally:
        paddle.set_default_dtype("float32")


def _load(layer, key):
    init = {k[len(key) + 6:]: DATA[k] for k in DATA.files if k.startswith(f"{key}/init/")}
    assert sorted(init) == sorted(layer.state_dict())
    layer.set_state_dict({k: paddle.to_tensor(v) for k, v in init.items()})


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("name", "ctor", "ours", "shape", "train_steps"), CASES, ids=[c[0] for c in CASES])
def test_layer_matches_paddle(name, ctor, ours, shape, train_steps, dtype):
    tol = TOL[dtype]
    layer = _build(ours or ctor, dtype)
    key = f"{name}/{dtype}"
    _load(layer, key)
    for mode, i in [("train", i) for i in range(train_steps)] + [("eval", train_steps)]:
        layer.train() if mode == "train" else layer.eval()
        x = paddle.to_tensor(_inputs(shape, dtype, i), stop_gradient=False)
        out = layer(x)
        want = DATA[f"{key}/{i}/out0"]
        assert out.numpy().dtype == want.dtype
        np.testing.assert_allclose(out.numpy(), want, **tol)
        loss = (out * paddle.to_tensor(_weights(out.shape, dtype))).sum()
        named = [(n, p) for n, p in layer.named_parameters() if not p.stop_gradient]
        grads = paddle.grad(loss, [x, *[p for _, p in named]], allow_unused=True)
        if name == "batchnorm_trainable_stats" and mode == "eval":
            _check_trainable_stats_eval_grad(layer, x, grads, key, i, dtype)
        else:
            np.testing.assert_allclose(grads[0].numpy(), DATA[f"{key}/{i}/gx"], **tol)
            for (pn, _), g in zip(named, grads[1:]):
                np.testing.assert_allclose(g.numpy(), DATA[f"{key}/{i}/g/{pn}"], **tol)
        for k, v in layer.state_dict().items():  # running statistics after this step
            np.testing.assert_allclose(v.numpy(), DATA[f"{key}/{i}/state/{k}"], **tol)


def _check_trainable_stats_eval_grad(layer, x, grads, key, i, dtype):
    """In eval mode with ``trainable_statistics=True`` Paddle 3.3.1's forward uses the batch's statistics but its
    backward those of a fixed normalisation by the (updated) running variance; here the gradient is the derivative of the
    forward (jax.grad), and Paddle's recorded one is its constant-statistics formula."""
    xs, w = x.numpy(), _weights(x.shape, dtype)
    scale, shift = layer.weight.numpy()[None, :, None], layer.bias.numpy()[None, :, None]

    def f(xa, sc, sh):
        mean = jnp.mean(xa, axis=(0, 2), keepdims=True)
        var = jnp.mean(jnp.square(xa - mean), axis=(0, 2), keepdims=True)
        return jnp.sum(jnp.tanh((xa - mean) / jnp.sqrt(var + 1e-5) * sc + sh) * w)

    want = jax.jit(jax.grad(f, argnums=(0, 1, 2)))(jnp.asarray(xs), jnp.asarray(scale), jnp.asarray(shift))
    for g, wv in zip(grads, want):
        np.testing.assert_allclose(g.numpy().reshape(wv.shape), np.asarray(wv), **TOL[dtype])
    out = DATA[f"{key}/{i}/out0"]
    rv = layer._variance.numpy()[None, :, None]
    np.testing.assert_allclose(DATA[f"{key}/{i}/gx"], w * (1 - out**2) / np.sqrt(rv + 1e-5) * scale, rtol=1e-4,
                               atol=1e-6)


def _meta_matches(layer, meta):
    assert repr(layer) == meta["repr"]
    assert list(layer.state_dict().keys()) == meta["keys"]
    want = [n.rsplit(".", 1) if "." in n else [n] for n in meta["pnames"]]
    got = [p.name.rsplit(".", 1) if "." in p.name else [p.name] for p in layer.parameters()]
    assert [w[-1] for w in got] == [w[-1] for w in want]  # w_0, b_0, w_1 ... or a given name
    assert [w[0].rsplit("_", 1)[0] for w in got if len(w) == 2] == [w[0].rsplit("_", 1)[0] for w in want if len(w) == 2]


@pytest.mark.parametrize(("name", "ctor"), [(c[0], c[1]) for c in CASES if c[2] is None] + META_CASES,
                         ids=[c[0] for c in CASES if c[2] is None] + [c[0] for c in META_CASES])
def test_repr_keys_and_parameter_names_match_paddle(name, ctor):
    _meta_matches(eval(ctor), META[name])


def test_sync_batchnorm_without_affine_keeps_constant_scale_and_shift():
    layer = nn.SyncBatchNorm(4, weight_attr=False, bias_attr=False, data_format="NHWC")
    assert layer.weight.stop_gradient and layer.bias.stop_gradient
    np.testing.assert_array_equal(layer.weight.numpy(), np.ones(4, np.float32))
    np.testing.assert_array_equal(layer.bias.numpy(), np.zeros(4, np.float32))
    x = paddle.to_tensor(_inputs([3, 2, 4], "float32", 1))
    ref = nn.BatchNorm1D(4, weight_attr=False, bias_attr=False, data_format="NLC")(x)
    np.testing.assert_allclose(layer(x).numpy(), ref.numpy(), rtol=1e-6)


def test_convert_sync_batchnorm_keeps_parameters_and_statistics():
    bn = nn.BatchNorm2D(5, weight_attr=paddle.ParamAttr(name="bn_w"))
    bn._mean.set_value(paddle.to_tensor(np.arange(5, dtype="float32")))
    model = nn.Sequential(nn.Conv2D(3, 5, 3), bn)
    conv = model[0]
    out = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert out is model and out[0] is conv and isinstance(out[1], nn.SyncBatchNorm)
    assert out[1].weight is bn.weight and out[1].bias is bn.bias and out[1]._mean is bn._mean
    assert bn._weight_attr.name == "bn_w_sync"
    single = nn.SyncBatchNorm.convert_sync_batchnorm(nn.BatchNorm1D(2))
    assert isinstance(single, nn.SyncBatchNorm)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("name", "ctor", "shape"), SPECTRAL, ids=[c[0] for c in SPECTRAL])
def test_spectral_norm_matches_paddle_and_differentiates_its_forward(name, ctor, shape, dtype):
    layer = _build(ctor, dtype)
    key = f"{name}/{dtype}"
    _load(layer, key)
    x = paddle.to_tensor(_inputs(shape, dtype, 0), stop_gradient=False)
    out = layer(x)
    np.testing.assert_allclose(out.numpy(), DATA[f"{key}/out"], **TOL[dtype])
    w = _weights(shape, dtype)
    (out * paddle.to_tensor(w)).sum().backward()
    for k in ("weight_u", "weight_v"):  # the vectors are not updated, as in Paddle
        np.testing.assert_array_equal(layer.state_dict()[k].numpy(), DATA[f"{key}/after/{k}"])
    # the gradient: the derivative of x / sigma(x) with the power-iterated u, v held fixed
    u0, v0 = layer.weight_u.numpy(), layer.weight_v.numpy()
    dim, iters, eps = layer._dim, layer._power_iters, layer._eps

    def f(xa):
        mat = jnp.moveaxis(xa, dim, 0).reshape(xa.shape[dim], -1)
        u, v = jnp.asarray(u0), jnp.asarray(v0)
        for _ in range(iters):
            v = mat.T @ u
            v = v / (jnp.linalg.norm(v) + eps)
            u = mat @ v
            u = u / (jnp.linalg.norm(u) + eps)
        u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
        return jnp.sum(xa / (u @ mat @ v) * w)

    np.testing.assert_allclose(x.grad.numpy(), np.asarray(jax.jit(jax.grad(f))(jnp.asarray(x.numpy()))), **TOL[dtype])
    # Paddle 3.3.1's kernel computes g * (1 - u v^T * sum(W / sigma)) / sigma instead (not the derivative)
    mat = np.moveaxis(x.numpy(), dim, 0).reshape(shape[dim], -1)
    u, v = u0.astype(np.float64), v0.astype(np.float64)
    for _ in range(iters):
        v = mat.T @ u
        v = v / (np.linalg.norm(v) + eps)
        u = mat @ v
        u = u / (np.linalg.norm(u) + eps)
    sigma = u @ mat @ v
    gm = np.moveaxis(w, dim, 0).reshape(shape[dim], -1)
    paddle_formula = gm * (1 - np.outer(u, v) * (mat / sigma).sum()) / sigma
    back = np.moveaxis(paddle_formula.reshape([shape[dim]] + [s for i, s in enumerate(shape) if i != dim]), 0, dim)
    np.testing.assert_allclose(DATA[f"{key}/gx"], back, rtol=1e-4, atol=1e-5)
    assert not np.allclose(x.grad.numpy(), DATA[f"{key}/gx"], rtol=1e-3, atol=1e-4)


def test_batchnorm_is_test_and_trainable_statistics_modes():
    x = paddle.to_tensor(_inputs([4, 2, 3], "float32", 2))
    layer = nn.BatchNorm(2, is_test=True)
    assert not layer.training
    np.testing.assert_allclose(layer(x).numpy(), x.numpy() / np.sqrt(1 + 1e-5), rtol=1e-6)
    np.testing.assert_array_equal(layer._mean.numpy(), np.zeros(2, np.float32))  # eval: no update
    ts = nn.BatchNorm(2, is_test=True, trainable_statistics=True)
    out = ts(x)  # eval, but with the batch's statistics, which also move the running ones
    xs = x.numpy()
    mean, var = xs.mean(axis=(0, 2), keepdims=True), xs.var(axis=(0, 2), keepdims=True)
    np.testing.assert_allclose(out.numpy(), (xs - mean) / np.sqrt(var + 1e-5), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ts._mean.numpy(), 0.1 * mean.ravel(), rtol=1e-5)


@pytest.mark.parametrize(("build", "shape", "dtype", "exc", "match"), [
    (lambda: nn.BatchNorm(0), None, None, ValueError, r"BatchNorm: num_channels must be a positive int, but received 0"),
    (lambda: nn.BatchNorm(3, act="nope"), None, None, ValueError, r"BatchNorm: act must be None or one of"),
    (lambda: nn.BatchNorm(3, data_layout="NCL"), None, None, ValueError,
     r"BatchNorm: data_layout must be 'NCHW' or 'NHWC', but received 'NCL'"),
    (lambda: nn.BatchNorm(3), [3], "float32", ValueError, r"BatchNorm: the input must be 2-D to 5-D, but received shape \[3\]"),
    (lambda: nn.BatchNorm(3), [2, 4, 5], "float32", ValueError, r"BatchNorm: the input has 4 channels on axis 1"),
    (lambda: nn.BatchNorm(3), [2, 3], "float64", ValueError, r"BatchNorm: the input's dtype float64 differs"),
    (lambda: nn.SyncBatchNorm(3, data_format="NCWH"), None, None, ValueError, r"SyncBatchNorm: data_format must be"),
    (lambda: nn.SyncBatchNorm(3), [3], "float32", ValueError, r"SyncBatchNorm: the input must be 2-D to 5-D"),
    (lambda: nn.SyncBatchNorm(3), [2, 2, 4], "float32", ValueError, r"SyncBatchNorm: the input has 2 channels"),
    (lambda: nn.SpectralNorm([3, 0]), None, None, ValueError, r"SpectralNorm: weight_shape must be a non-empty list"),
    (lambda: nn.SpectralNorm([3, 4], dim=2), None, None, ValueError, r"SpectralNorm: dim must be an axis in \[0, 2\)"),
    (lambda: nn.SpectralNorm([3, 4], power_iters=-1), None, None, ValueError, r"SpectralNorm: power_iters must be"),
    (lambda: nn.SpectralNorm([3, 4]), [4, 3], "float32", ValueError,
     r"spectral_norm: u must have shape \[4\] .* but received \[3\] and \[4\]"),
    (lambda: nn.SpectralNorm([3, 4]), [3, 4], "float64", ValueError, r"SpectralNorm: the weight's dtype float64"),
])
def test_misuse_raises(build, shape, dtype, exc, match):
    with pytest.raises(exc, match=match):
        layer = build()
        layer(paddle.to_tensor(_inputs(shape, dtype, 0)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("name", "ctor", "shape", "labels"), ADAPTIVE, ids=[c[0] for c in ADAPTIVE])
def test_adaptive_log_softmax_matches_paddle(name, ctor, shape, labels, dtype):
    tol = TOL[dtype]
    layer = _build(ctor, dtype)
    key = f"{name}/{dtype}"
    weights = [layer.head_weight] + [w for pair in layer.tail_weights for w in pair]
    if layer.head_bias is not None:
        weights.append(layer.head_bias)
    for j, w in enumerate(weights):
        assert w.dtype == paddle.to_tensor(DATA[f"{key}/w{j}"]).dtype
        w.set_value(paddle.to_tensor(DATA[f"{key}/w{j}"]))
    x = paddle.to_tensor(_inputs(shape, dtype, 0), stop_gradient=False)
    out, loss = layer(x, paddle.to_tensor(np.asarray(labels, np.int64)))
    np.testing.assert_allclose(out.numpy(), DATA[f"{key}/out"], **tol)
    np.testing.assert_allclose(loss.numpy(), DATA[f"{key}/loss"], **tol)
    total = loss + (out * paddle.to_tensor(_weights(out.shape, dtype))).sum()
    for j, g in enumerate(paddle.grad(total, [x, *weights])):
        np.testing.assert_allclose(g.numpy(), DATA[f"{key}/g{j}"], **tol)
    np.testing.assert_allclose(layer.log_prob(x).numpy(), DATA[f"{key}/log_prob"], **tol)
    pred = layer.predict(x)
    assert pred.numpy().dtype == DATA[f"{key}/predict"].dtype
    np.testing.assert_array_equal(pred.numpy(), DATA[f"{key}/predict"])


def test_adaptive_log_softmax_registers_its_tail_weights_and_initialises_as_paddle():
    layer = nn.AdaptiveLogSoftmaxWithLoss(8, 13, [3, 7], div_value=2.0, head_bias=True)
    # Paddle 3.3.1 lists only head_weight and head_bias; the tail projections are registered here
    assert list(layer.state_dict()) == ["head_weight", "head_bias", "tail_weights.0.0", "tail_weights.0.1",
                                        "tail_weights.1.0", "tail_weights.1.1"]
    assert [p.name.rsplit(".", 1)[1] for p in layer.parameters()] == ["w_0", "b_0", "w_1", "w_2", "w_3", "w_4"]
    assert [p.shape for p in layer.parameters()] == [[8, 5], [5], [8, 4], [4, 4], [8, 2], [2, 6]]
    paddle.seed(1)
    w = nn.AdaptiveLogSoftmaxWithLoss(64, 200, [20, 100]).head_weight.numpy().astype(np.float64)
    ref = META["__init__"]["adaptive_head"]  # XavierUniform: the bounds are the limit
    assert abs(w.std() - ref["std"]) < 0.05 * ref["std"] and abs(w.mean() - ref["mean"]) < 0.1 * ref["std"]
    assert w.max() <= ref["max"] * 1.01 and w.min() >= ref["min"] * 1.01 and w.max() > 0.95 * ref["max"]


def test_adaptive_log_softmax_trains_its_tail_weights():
    layer = nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2])
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=layer.parameters())
    before = layer.tail_weights[0][1].numpy().copy()
    x = paddle.to_tensor(_inputs([3, 4], "float32", 1))
    _, loss = layer(x, paddle.to_tensor(np.array([5, 4, 3])))
    loss.backward()
    opt.step()
    assert not np.allclose(layer.tail_weights[0][1].numpy(), before)


@pytest.mark.parametrize(("call", "exc", "match"), [
    (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 13, [3, 13]), ValueError,
     r"AdaptiveLogSoftmaxWithLoss: cutoffs must be unique positive ints .* \[1, 12\], but received \[3, 13\]"),
    (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 13, [7, 3]), ValueError, r"cutoffs must be unique positive ints"),
    (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 13, [3])(paddle.ones([4, 8]), paddle.to_tensor([0, 1, 2, 13])),
     ValueError, r"adaptive_log_softmax_with_loss: label 13 is out of range: labels must be in \[0, 12\]"),
    (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 13, [3])(paddle.ones([4, 8]), paddle.to_tensor([0, 1, 2])),
     ValueError, r"adaptive_log_softmax_with_loss: the input and the label must have the same batch size"),
    (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 13, [3])(paddle.ones([8]), paddle.to_tensor([0, 1])),
     ValueError, r"a 1-D label needs a 2-D input"),
    (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 13, [3])(paddle.ones([2, 8]), paddle.to_tensor(1)),
     ValueError, r"a 0-D label needs a 1-D input"),
    (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 13, [3])(paddle.ones([2, 8]), paddle.to_tensor([[1, 2]])),
     ValueError, r"the label must be 0-D or 1-D"),
    (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 13, [3])(paddle.ones([2, 8]), paddle.to_tensor([1.0, 2.0])),
     TypeError, r"label must be an integer tensor"),
])
def test_adaptive_log_softmax_misuse_raises(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize(("name", "cell_ctor", "end_token", "beam", "kw"), DECODE, ids=[c[0] for c in DECODE])
def test_beam_search_decoding_matches_paddle(name, cell_ctor, end_token, beam, kw):
    dec, h, out = decoder(paddle, cell_ctor, end_token, beam)
    ids, states, lengths = nn.dynamic_decode(dec, inits=h, return_length=True, **kw)
    np.testing.assert_array_equal(ids.numpy(), DATA[f"{name}/ids"])
    np.testing.assert_array_equal(lengths.numpy(), DATA[f"{name}/lengths"])
    np.testing.assert_allclose(states.log_probs.numpy(), DATA[f"{name}/log_probs"], rtol=1e-5, atol=1e-5)
    g = paddle.grad(states.log_probs.sum(), [out.weight])[0]
    np.testing.assert_allclose(g.numpy(), DATA[f"{name}/g_out_w"], rtol=1e-4, atol=1e-5)


def test_gather_tree_follows_the_parents_back():
    ids = np.array([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
    parents = np.array([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])
    out = F.gather_tree(paddle.to_tensor(ids), paddle.to_tensor(parents)).numpy()
    # the documented example's result (Paddle 3.3.1 gives the same)
    assert out.tolist() == [[[2, 2], [1, 6]], [[3, 3], [6, 1]], [[0, 1], [9, 0]]]


def test_tile_beam_merge_with_batch_repeats_each_row():
    x = paddle.to_tensor(np.arange(6.0).reshape(2, 3))
    out = nn.BeamSearchDecoder.tile_beam_merge_with_batch(x, 2).numpy()
    np.testing.assert_array_equal(out, np.repeat(np.arange(6.0).reshape(2, 3), 2, axis=0))


@pytest.mark.parametrize(("call", "exc", "match"), [
    (lambda: nn.BeamSearchDecoder(nn.GRUCell(2, 3), 0, 1, 0), ValueError,
     r"BeamSearchDecoder: beam_size must be a positive int, but received 0"),
    (lambda: nn.BeamSearchDecoder(nn.GRUCell(2, 3), 0.5, 1, 2), TypeError, r"start_token must be an int"),
    (lambda: nn.BeamSearchDecoder("cell", 0, 1, 2), TypeError, r"cell must be an RNN cell"),
    (lambda: nn.dynamic_decode("decoder"), TypeError, r"dynamic_decode: decoder must be a paddle.nn.Decoder"),
    (lambda: nn.dynamic_decode(decoder(paddle, "nn.GRUCell(4, 6)", 3, 2)[0], inits=paddle.ones([2, 6]),
                               max_step_num=-1), ValueError, r"max_step_num must be None or a non-negative int"),
    (lambda: nn.dynamic_decode(decoder(paddle, "nn.GRUCell(4, 6)", 12, 2)[0], inits=paddle.ones([2, 6])),
     ValueError, r"BeamSearchDecoder: end_token 12 is not a token of the cell's 10-way output"),
    (lambda: F.gather_tree(paddle.to_tensor(np.zeros((2, 1, 2), np.int64)),
                           paddle.to_tensor(np.array([[[0, 2]], [[1, 0]]]))), ValueError,
     r"gather_tree: parents holds 2, which is not a beam index in \[0, 2\)"),
    (lambda: F.gather_tree(paddle.to_tensor(np.zeros((2, 2), np.int64)), paddle.to_tensor(np.zeros((2, 2), np.int64))),
     ValueError, r"gather_tree: ids must be 3-D"),
    (lambda: F.gather_tree(paddle.ones([2, 1, 2]), paddle.to_tensor(np.zeros((2, 1, 2), np.int64))),
     TypeError, r"gather_tree: ids must be an integer tensor"),
])
def test_decoding_misuse_raises(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
