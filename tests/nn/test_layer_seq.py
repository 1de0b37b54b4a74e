"""Sequence layers (RNN cells and stacks, MultiHeadAttention, Transformer) against Paddle 3.3.1.

Oracles: outputs and gradients recorded from Paddle by ``record_paddle_seq_layers.py`` (same
state_dict, same inputs), ``jax.grad`` over the layer as a pytree, numpy statistics.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from seq_layer_cases import CASES, PADDLE_GRAD_BY_DIFFERENCES, flatten

import pylayer_jax as paddle
from pylayer_jax import nn
from pylayer_jax._ops.table import TABLE
from pylayer_jax.nn.layer import _rnn as _rnn_module


def _load():
    with np.load(Path(__file__).resolve().parents[1] / "data" / "paddle_seq_layers.npz") as z:
        data, index, texts = z["data"], json.loads(str(z["index"])), json.loads(str(z["texts"]))
    out = {k: data[p:p + int(np.prod(shape))].reshape(shape).astype(dt) for k, (p, shape, dt) in index.items()}
    out.update({k: np.array(v) for k, v in texts.items()})
    return out


DATA = _load()
TOL = {"float32": dict(rtol=1e-5, atol=2e-6), "float64": dict(rtol=1e-10, atol=1e-12)}


def _fixture(case, dtype, kind):
    pre = f"{case}|{dtype}|{kind}|"
    return {k[len(pre):]: v for k, v in DATA.items() if k.startswith(pre)}


def _build(case, dtype):
    build, _, call = CASES[case]
    old = paddle.get_default_dtype()
    paddle.set_default_dtype(dtype)
    try:
        layer = build(paddle)
    finally:
        paddle.set_default_dtype(old)
    params = _fixture(case, dtype, "param")
    assert sorted(layer.state_dict()) == sorted(params)  # the same state_dict keys as Paddle
    missing, unexpected = layer.set_state_dict(params)
    assert missing == [] and unexpected == []
    layer.eval()
    return layer, call


def _inputs(case, dtype):
    t = {}
    for k, v in _fixture(case, dtype, "in").items():
        t[k] = paddle.to_tensor(v, stop_gradient=not np.issubdtype(v.dtype, np.floating))
    return t


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_outputs_and_gradients_match_paddle(case, dtype):
    layer, call = _build(case, dtype)
    t = _inputs(case, dtype)
    outs = flatten(call(paddle, layer, t))
    want = _fixture(case, dtype, "out")
    ws = _fixture(case, dtype, "w")
    assert len(outs) == len(want)
    loss = 0
    for i, o in enumerate(outs):
        assert o.dtype == getattr(paddle, dtype)
        np.testing.assert_allclose(o.numpy(), want[str(i)], **TOL[dtype], err_msg=f"output {i}")
        loss = loss + (o * paddle.to_tensor(ws[str(i)])).sum()
    loss.backward()
    for k, g in _fixture(case, dtype, "grad_in").items():
        np.testing.assert_allclose(t[k].grad.numpy(), g, **TOL[dtype], err_msg=f"grad of input {k}")
    gp = _fixture(case, dtype, "grad_param")
    fd = _fixture(case, "float64", "fd_param")
    assert sorted(fd) == sorted(PADDLE_GRAD_BY_DIFFERENCES.get(case, ()))
    sd = layer.state_dict()
    for k, p in sd.items():
        if k in fd:  # Paddle's own gradient is wrong here: its central differences are the oracle
            assert not np.allclose(gp[k], fd[k], rtol=1e-3, atol=1e-5)
            np.testing.assert_allclose(p.grad.numpy(), fd[k], rtol=1e-4, atol=1e-6, err_msg=f"grad of {k}")
        elif k in gp:
            np.testing.assert_allclose(p.grad.numpy(), gp[k], **TOL[dtype], err_msg=f"grad of {k}")
        else:  # a frozen stand-in for a disabled bias gets no gradient in Paddle either
            assert p.stop_gradient and p.grad is None


@pytest.mark.parametrize("name", ["lstm_bi2", "lstm_proj", "gru_no_bias", "transformer"])
def test_structure_names_shapes_and_repr_match_paddle(name):
    paddle.seed(0)
    m = {"lstm_bi2": lambda: nn.LSTM(3, 4, num_layers=2, direction="bidirect"),
         "lstm_proj": lambda: nn.LSTM(3, 5, proj_size=2),
         "gru_no_bias": lambda: nn.GRU(3, 4, bias_hh_attr=False),
         "transformer": lambda: nn.Transformer(8, 2, 1, 1, 16)}[name]()
    got = [f"{k}:{list(v.shape)}:{v.stop_gradient}" for k, v in m.state_dict().items()]
    assert got == list(DATA[f"struct|{name}"])
    if name != "transformer":  # LayerNorm/Dropout reprs belong to those layers
        assert repr(m) == str(DATA[f"repr|{name}"][0])


@pytest.mark.parametrize("which", ["lstm", "mha"])
def test_default_initialisation_statistics_match_paddle(which):
    paddle.seed(3)
    m = nn.LSTM(16, 64) if which == "lstm" else nn.MultiHeadAttention(32, 4)
    for k, p in m.state_dict().items():
        v = p.numpy()
        mn, mx, mean, std = DATA[f"init|{which}|{k}"]
        if which == "lstm":  # uniform in +-1/sqrt(hidden_size)
            bound = 1 / np.sqrt(64)
            assert -bound <= v.min() and v.max() <= bound and v.max() - v.min() > 1.9 * bound * 0.97
            assert abs(v.std() - std) < 0.1 * std and abs(v.mean()) < 4 * std / np.sqrt(v.size)
        elif std == 0:  # biases start at zeros
            assert (v == mn).all()
        else:  # XavierUniform weights
            assert abs(v.std() - std) < 0.1 * std and v.max() <= mx * 1.05 + 1e-6 and v.min() >= mn * 1.05 - 1e-6


def test_full_sequence_layers_run_one_scan_op_per_layer_and_direction(monkeypatch):
    calls = []
    orig = _rnn_module.apply_op

    def counting(op, *a, **k):
        calls.append(op.name)
        return orig(op, *a, **k)

    monkeypatch.setattr(_rnn_module, "apply_op", counting)
    m = nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    x = paddle.randn([2, 7, 3])
    x.stop_gradient = False
    y, _ = m(x, sequence_length=paddle.to_tensor([7, 3]))
    assert calls == ["rnn_scan"] * 4  # 2 layers x 2 directions, whatever the sequence length
    assert TABLE["rnn_scan"].name == "rnn_scan"
    y.sum().backward()
    assert x.grad.shape == [2, 7, 3]


def test_train_mode_dropout_between_layers_and_in_attention_by_statistics():
    paddle.seed(5)
    m = nn.SimpleRNN(1, 200, num_layers=2, dropout=0.5, activation="relu",
                     weight_hh_attr=nn.initializer.Constant(0.0), bias_ih_attr=nn.initializer.Constant(0.0),
                     bias_hh_attr=nn.initializer.Constant(0.0),
                     weight_ih_attr=nn.initializer.Constant(1.0))
    x = paddle.ones([4, 1, 1])
    m.train()
    y_train, _ = m(x)
    m.eval()
    y_eval, _ = m(x)
    # layer 1 outputs 1 everywhere; dropout keeps each with p=0.5 scaled by 2; layer 2 sums 200 of them
    np.testing.assert_allclose(y_eval.numpy(), 200.0)
    v = y_train.numpy()
    assert abs(v.mean() - 200.0) < 4 * np.sqrt(200 * 4 * 0.25) / np.sqrt(4)  # mean of 4 sums, each std 2*sqrt(50)
    assert v.std() > 1.0
    mha = nn.MultiHeadAttention(4, 1, dropout=0.5, need_weights=True)
    mha.train()
    _, w = mha(paddle.randn([64, 8, 4]))
    w = w.numpy()
    zero = (w == 0).mean()
    assert 0.45 < zero < 0.55  # a fraction p of the attention weights is dropped
    np.testing.assert_allclose(w.sum(-1).mean(), 1.0, atol=0.05)  # upscaled by 1/(1-p): the rows still average 1


def _lstm_ref(ps, x):
    """A one-layer LSTM written in plain JAX with Paddle's gate order (i, f, c, o)."""
    w_ih, w_hh, b_ih, b_hh = ps
    h = c = jnp.zeros((x.shape[0], w_hh.shape[1]), x.dtype)
    outs = []
    for t in range(x.shape[1]):
        i, f, g, o = jnp.split(x[:, t] @ w_ih.T + b_ih + h @ w_hh.T + b_hh, 4, -1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        outs.append(h)
    return jnp.stack(outs, 1), h, c


def test_layers_under_jit_and_grad_as_pytrees():
    paddle.seed(2)
    m = nn.LSTM(3, 4)
    x = paddle.randn([2, 5, 3])
    ps = [jnp.asarray(m.state_dict()[k].numpy()) for k in ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0",
                                                           "bias_hh_l0")]
    out = jax.jit(lambda n, v: n(v)[0])(m, x)
    np.testing.assert_allclose(out.numpy(), _lstm_ref(ps, x._value)[0], rtol=1e-5, atol=1e-6)
    g = jax.jit(jax.grad(lambda n, v: n(v)[0].square().mean()._value))(m, x)
    ref = jax.jit(jax.grad(lambda q: jnp.mean(_lstm_ref(q, x._value)[0] ** 2)))(ps)
    for k, r in zip(("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"), ref):
        np.testing.assert_allclose(g.state_dict()[k].numpy(), r, rtol=1e-5, atol=1e-7)
    enc = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    src = paddle.randn([2, 3, 8])
    np.testing.assert_allclose(jax.jit(lambda n, v: n(v))(enc, src).numpy(), enc(src).numpy(), rtol=1e-5, atol=1e-6)
    ge = jax.grad(lambda n: n(src).square().sum()._value)(enc)
    enc(src).square().sum().backward()
    for (k, p), (_, q) in zip(enc.state_dict().items(), ge.state_dict().items()):
        np.testing.assert_allclose(q.numpy(), p.grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=k)


def test_eager_lstm_training_matches_jax_grad():
    paddle.seed(4)
    m = nn.LSTM(3, 4)
    rng = np.random.default_rng(zlib.crc32(b"lstm-train"))
    x = paddle.to_tensor(rng.standard_normal((2, 5, 3)).astype("float32"))
    target = jnp.asarray(rng.standard_normal((2, 5, 4)).astype("float32"))
    names = ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0")
    ps = [jnp.asarray(m.state_dict()[k].numpy()) for k in names]
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=m.parameters())
    tgt = paddle.to_tensor(np.asarray(target))
    for _ in range(6):
        y, (h, c) = m(x)
        loss = (y - tgt).square().mean() + 0.1 * h.square().mean() + 0.1 * c.square().mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    def ref_loss(q):
        y, h, c = _lstm_ref(q, x._value)
        return jnp.mean((y - target) ** 2) + 0.1 * jnp.mean(h ** 2) + 0.1 * jnp.mean(c ** 2)

    ref_grad = jax.jit(jax.grad(ref_loss))  # (one compile of the reference, not one per primitive)
    for _ in range(6):
        g = ref_grad(ps)
        ps = [p - 0.5 * d for p, d in zip(ps, g)]
    for k, r in zip(names, ps):
        np.testing.assert_allclose(m.state_dict()[k].numpy(), r, rtol=1e-5, atol=1e-6)


def test_generate_square_subsequent_mask_is_paddles():
    m = nn.Transformer.generate_square_subsequent_mask(None, 4)
    want = np.triu(np.full((4, 4), -np.inf, np.float32), 1)
    assert m.dtype == paddle.float32
    np.testing.assert_array_equal(m.numpy(), want)


def test_misuse_raises_clear_errors():
    with pytest.raises(AssertionError, match="MultiHeadAttention: embed_dim must be divisible by num_heads"):
        nn.MultiHeadAttention(10, 3)
    with pytest.raises(AssertionError, match="TransformerEncoderLayer: d_model must be a positive int"):
        nn.TransformerEncoderLayer(0, 2, 8)
    with pytest.raises(ValueError, match=r"LSTM.forward: inputs must be a 3-D Tensor.*\[2, 3\]"):
        nn.LSTM(3, 4)(paddle.randn([2, 3]))
    with pytest.raises(ValueError, match="GRU.forward: the last dimension of inputs must equal input_size=3"):
        nn.GRU(3, 4)(paddle.randn([2, 5, 2]))
    with pytest.raises(ValueError, match=r"LSTM.forward: initial_states\[0\] must have shape \[1, 2, 4\]"):
        nn.LSTM(3, 4)(paddle.randn([2, 5, 3]), (paddle.zeros([1, 2, 5]), paddle.zeros([1, 2, 4])))
    with pytest.raises(ValueError, match=r"GRUCell.forward: the state must have shape \[2, 4\]"):
        nn.GRUCell(3, 4)(paddle.randn([2, 3]), paddle.zeros([2, 3]))
    with pytest.raises(ValueError, match="MultiHeadAttention.forward: query must be a 3-D Tensor"):
        nn.MultiHeadAttention(4, 2)(paddle.randn([2, 4]))
    with pytest.raises(TypeError, match="MultiHeadAttention.forward: cache must be a MultiHeadAttention.Cache"):
        nn.MultiHeadAttention(4, 2)(paddle.randn([1, 2, 4]), cache=object())
    with pytest.raises(ValueError, match="direction should be forward or bidirect"):
        nn.LSTM(3, 4, direction="backward")
    with pytest.raises(ValueError, match="hidden_size of LSTMCell must be greater than 0"):
        nn.LSTMCell(3, 0)
    with pytest.raises(ValueError, match="activation for SimpleRNNCell should be tanh or relu"):
        nn.SimpleRNNCell(3, 4, activation="gelu")
    with pytest.raises(ValueError, match="LSTMCell: proj_size must be smaller than hidden_size=4"):
        nn.LSTM(3, 4, proj_size=4)
    with pytest.raises(ValueError, match="BiRNN: the input size of the forward cell"):
        nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(2, 4))
    with pytest.raises(ValueError, match="LSTM.forward: inputs have dtype float64 but the layer's parameters are "
                                         "float32"):
        nn.LSTM(3, 4)(paddle.randn([2, 5, 3], "float64"))
    with pytest.raises(ValueError, match="MultiHeadAttention.forward: query has dtype float64"):
        nn.MultiHeadAttention(4, 2)(paddle.randn([2, 3, 4], "float64"))
    with pytest.raises(ValueError, match="RNN.forward: inputs must be a 3-D Tensor"):
        nn.RNN(nn.GRUCell(3, 4))(paddle.randn([2, 3]))
    with pytest.raises(ValueError, match="LSTMCell.forward: LSTM states must be a pair"):
        nn.LSTMCell(3, 4)(paddle.randn([2, 3]), paddle.zeros([2, 4]))
    with pytest.raises(ValueError, match="TransformerEncoderLayer: activation must name a function"):
        nn.TransformerEncoderLayer(8, 2, 16, activation="nope")
