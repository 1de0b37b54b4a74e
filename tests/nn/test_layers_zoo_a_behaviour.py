"""Random layers by statistics (training) and determinism (eval), Embedding options, a custom distance in
TripletMarginWithDistanceLoss, and misuse raising errors that name the layer."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from layer_zoo_a_cases import CASES, make_inputs, run

import pylayer_jax as paddle

nn = paddle.nn
REC = json.loads((Path(__file__).resolve().parents[1] / "data" / "paddle_layers_zoo_a.json").read_text())


def test_embedding_sparse_gives_paddles_values():
    emb = nn.Embedding(5, 3, sparse=True)
    assert repr(emb) == REC["sparse_repr"]
    rec = REC["cases"]["Embedding_pad"]["float32"]
    with paddle.utils.unique_name.guard():
        emb = nn.Embedding(5, 3, padding_idx=1, sparse=True)
    emb.set_state_dict({k: np.asarray(v, "float32") for k, v in rec["params"].items()})
    specs = next(c[2] for c in CASES if c[0] == "Embedding_pad")
    r = run(paddle, emb, make_inputs("Embedding_pad", specs, np.dtype("float32")), np.dtype("float32"))
    np.testing.assert_allclose(r["out"], np.asarray(rec["out"]), rtol=1e-6)
    # off the padding row, the dense gradient's values (the sparse gradient of the padding row, which Paddle's
    # sparse kernel does not leave out: tests/nn/test_sparse_embedding.py)
    keep = [0, 2, 3, 4]
    np.testing.assert_allclose(r["param_grads"]["weight"][keep], np.asarray(rec["param_grads"]["weight"])[keep],
                               rtol=1e-6)


def test_embedding_given_weight_and_freeze():
    w = np.arange(6, dtype="float32").reshape(3, 2)
    emb = nn.Embedding(3, 2, _weight=paddle.to_tensor(w), _freeze=True)
    np.testing.assert_array_equal(emb.weight.numpy(), w)
    assert emb.weight.stop_gradient
    np.testing.assert_array_equal(emb(paddle.to_tensor([[2, 0]])).numpy(), w[[[2, 0]]])
    emb = nn.Embedding(3, 2, padding_idx=-1)
    assert not emb.weight.numpy()[2].any() and emb.weight.numpy()[:2].any()
    assert not emb.weight.stop_gradient


def test_dropout_train_statistics_and_eval():
    paddle.seed(5)
    x = paddle.ones([200, 300])
    d = nn.Dropout(0.3)
    y = d(x).numpy()
    assert abs((y == 0).mean() - 0.3) < 0.01
    np.testing.assert_allclose(np.unique(y), [0.0, 1 / 0.7], rtol=1e-6)
    d.eval()
    np.testing.assert_array_equal(d(x).numpy(), x.numpy())
    down = nn.Dropout(0.3, mode="downscale_in_infer")
    assert set(np.unique(down(x).numpy())) == {0.0, 1.0}
    np.testing.assert_allclose(down.eval()(x).numpy(), 0.7, rtol=1e-6)
    cols = nn.Dropout(0.5, axis=1)(x).numpy()
    assert all(len(np.unique(cols[:, j])) == 1 for j in range(300))  # whole columns kept or dropped


@pytest.mark.parametrize("layer,shape", [(nn.Dropout2D(0.4), [20, 30, 3, 3]),
                                         (nn.Dropout2D(0.4, data_format="NHWC"), [20, 3, 3, 30]),
                                         (nn.Dropout3D(0.4), [20, 30, 2, 2, 2])])
def test_channel_dropout_zeroes_whole_channels(layer, shape):
    paddle.seed(6)
    y = layer(paddle.ones(shape)).numpy()
    ch = np.moveaxis(y, -1, 1) if layer.data_format in ("NHWC", "NDHWC") else y
    per = ch.reshape(shape[0], 30, -1)
    assert (per.min(-1) == per.max(-1)).all()
    assert abs((per[..., 0] == 0).mean() - 0.4) < 0.05
    np.testing.assert_allclose(np.unique(per), [0.0, 1 / 0.6], rtol=1e-6)
    np.testing.assert_array_equal(layer.eval()(paddle.ones(shape)).numpy(), 1.0)


def test_alpha_dropouts_keep_mean_and_variance():
    paddle.seed(7)
    x = paddle.to_tensor(np.random.RandomState(0).standard_normal([400, 500]).astype("float32"))
    y = nn.AlphaDropout(0.2)(x).numpy()
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1) < 0.02
    _, counts = np.unique(y, return_counts=True)
    assert abs(counts.max() / y.size - 0.2) < 0.01  # dropped values all take one value
    xf = paddle.to_tensor(np.random.RandomState(1).standard_normal([300, 40, 25]).astype("float32"))
    yf = nn.FeatureAlphaDropout(0.2)(xf).numpy()
    dropped = (yf.max(-1) == yf.min(-1))
    assert abs(dropped.mean() - 0.2) < 0.02
    assert abs(yf.mean()) < 0.03 and abs(yf.std() - 1) < 0.03
    for cls in (nn.AlphaDropout, nn.FeatureAlphaDropout):
        np.testing.assert_array_equal(cls(0.2).eval()(x).numpy(), x.numpy())


def test_rrelu_train_slopes():
    paddle.seed(8)
    x = paddle.to_tensor(-np.random.RandomState(2).uniform(0.5, 1.5, [100, 100]).astype("float32"))
    layer = nn.RReLU(0.1, 0.3)
    slope = layer(x).numpy() / x.numpy()
    assert slope.min() >= 0.1 - 1e-6 and slope.max() <= 0.3 + 1e-6
    assert abs(slope.mean() - 0.2) < 0.005 and slope.std() > 0.05
    assert "training=True" in repr(layer)
    layer.eval()
    np.testing.assert_allclose(layer(x).numpy() / x.numpy(), 0.2, rtol=1e-6)
    assert "training=False" in repr(layer)
    pos = paddle.ones([3])
    np.testing.assert_array_equal(nn.RReLU()(pos).numpy(), 1.0)


def test_triplet_distance_loss_uses_the_distance_function():
    rs = np.random.RandomState(3)
    a, p, n = (rs.standard_normal([4, 3]).astype("float64") for _ in range(3))

    def l1(u, v):
        return (u - v).abs().sum(-1)

    layer = nn.TripletMarginWithDistanceLoss(distance_function=l1, margin=0.5, swap=True, reduction="none")
    out = layer(*(paddle.to_tensor(t) for t in (a, p, n))).numpy()
    dn = np.minimum(np.abs(a - n).sum(-1), np.abs(p - n).sum(-1))
    np.testing.assert_allclose(out, np.maximum(np.abs(a - p).sum(-1) - dn + 0.5, 0), rtol=1e-12)


def test_silu_inplace_writes_the_input():
    x = paddle.to_tensor([-1.0, 0.5, 2.0])
    want = x.numpy() / (1 + np.exp(-x.numpy()))
    y = nn.Silu(inplace=True)(x)
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(x.numpy(), want, rtol=1e-6)


BAD_CALLS = [
    (lambda: nn.Softmax2D()(paddle.ones([2, 2])), ValueError, "Softmax2D: the input must be 3-D or 4-D"),
    (lambda: nn.Upsample(scale_factor=2)(paddle.ones([2, 2])), ValueError, "Upsample: the input must be 3-D"),
    (lambda: nn.UpsamplingNearest2D(size=3)(paddle.ones([1, 2, 2])), ValueError, "UpsamplingNearest2D: .*4-D"),
    (lambda: nn.PixelShuffle(2)(paddle.ones([4, 2, 2])), ValueError, "PixelShuffle: the input must be 4-D"),
    (lambda: nn.PixelUnshuffle(2)(paddle.ones([4, 2, 2])), ValueError, "PixelUnshuffle: the input must be 4-D"),
    (lambda: nn.ChannelShuffle(2)(paddle.ones([4, 2, 2])), ValueError, "ChannelShuffle: the input must be 4-D"),
    (lambda: nn.Dropout2D()(paddle.ones([1, 2, 3])), ValueError, "Dropout2D: the input must be 4-D"),
    (lambda: nn.Dropout3D()(paddle.ones([1, 2, 3, 3])), ValueError, "Dropout3D: the input must be 5-D"),
    (lambda: nn.Bilinear(2, 3, 4)(paddle.ones([2, 3]), paddle.ones([2, 3])), ValueError,
     r"Bilinear: x1 must be 2-D with 2 features"),
    (lambda: nn.MSELoss("avg"), ValueError, "MSELoss: reduction must be 'sum', 'mean' or 'none', but received 'avg'"),
    (lambda: nn.CrossEntropyLoss(reduction="avg"), ValueError, "CrossEntropyLoss: reduction must be"),
    (lambda: nn.KLDivLoss("avg"), ValueError, "KLDivLoss: reduction must be 'sum', 'mean', 'batchmean'"),
    (lambda: nn.BCELoss(reduction=None), ValueError, "BCELoss: reduction must be"),
    (lambda: nn.CosineEmbeddingLoss(margin=2), ValueError, r"CosineEmbeddingLoss: margin must be in \[-1, 1\]"),
    (lambda: nn.PoissonNLLLoss(epsilon=0), ValueError, "PoissonNLLLoss: epsilon must be positive"),
    (lambda: nn.TripletMarginWithDistanceLoss(distance_function=3), TypeError,
     "TripletMarginWithDistanceLoss: distance_function must be callable"),
    (lambda: nn.Embedding(0, 3), ValueError, "Embedding: num_embeddings must be a positive int"),
    (lambda: nn.Embedding(3, 2, padding_idx=5), ValueError, r"Embedding: padding_idx must be within \[-3, 3\)"),
    (lambda: nn.Embedding(3, 2, _weight=paddle.ones([2, 2])), ValueError, "Embedding: _weight must have shape"),
    (lambda: nn.Embedding(3, 2, device="gpu:0"), NotImplementedError, "Embedding: device='gpu:0' is not supported"),
    (lambda: nn.Bilinear(0, 2, 2), ValueError, "Bilinear: in1_features must be a positive int"),
    (lambda: nn.PixelShuffle(2.0), TypeError, "PixelShuffle: upscale_factor must be an int"),
    (lambda: nn.PixelUnshuffle(0), ValueError, "PixelUnshuffle: downscale_factor must be positive"),
    (lambda: nn.ChannelShuffle(2, data_format="NCDHW"), ValueError, "ChannelShuffle: data_format must be"),
    (lambda: nn.Pad2D(1, mode="foo"), AssertionError, "Pad2D: mode must be one of"),
    (lambda: nn.Pad2D([1, 2, 3]), ValueError, r"Pad2D: padding must have 4 entries"),
    (lambda: nn.ZeroPad3D("1"), TypeError, "ZeroPad3D: padding must be an int or a list"),
    (lambda: nn.ReflectionPad1D(-1), ValueError, "ReflectionPad1D: padding must be non-negative"),
    (lambda: nn.Dropout(1.5), ValueError, r"Dropout: p must be a number in \[0, 1\]"),
    (lambda: nn.Dropout(mode="train"), ValueError, "Dropout: mode must be"),
    (lambda: nn.Dropout(inplace=True), NotImplementedError, "Dropout: inplace=True is not supported"),
    (lambda: nn.Dropout2D(data_format="NCL"), ValueError, "Dropout2D: data_format must be 'NCHW' or 'NHWC'"),
    (lambda: nn.AlphaDropout(-0.1), ValueError, r"AlphaDropout: p must be"),
    (lambda: nn.RReLU(0.5, 0.2), ValueError, "RReLU: lower and upper must satisfy"),
    (lambda: nn.PReLU(0), ValueError, "PReLU: num_parameters must be a positive int"),
    (lambda: nn.PReLU(data_format="XX"), ValueError, "PReLU: data_format must be one of"),
    (lambda: nn.SELU(scale=0.5), ValueError, "SELU: scale must be greater than 1.0"),
    (lambda: nn.Softshrink(-1), ValueError, "Softshrink: threshold must be non-negative"),
    (lambda: nn.Upsample(mode=3), TypeError, "Upsample: mode must be a str"),
]


@pytest.mark.parametrize("call,exc,match", BAD_CALLS, ids=[f"bad{i}" for i in range(len(BAD_CALLS))])
def test_misuse_raises_naming_the_layer(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_embedding_max_norm_renormalises_used_rows_in_place():
    rec = REC["cases"]["Embedding_maxnorm"]["float32"]
    w = np.asarray(rec["params"]["weight"], "float32")
    emb = nn.Embedding(6, 4, max_norm=1.0, norm_type=1.5)
    emb.set_state_dict({"weight": w})
    ids = np.array([[0, 2, 5], [2, 3, 0]])
    emb(paddle.to_tensor(ids))
    norms = (np.abs(w) ** 1.5).sum(1) ** (1 / 1.5)
    used = np.isin(np.arange(6), ids)
    want = np.where((used & (norms > 1.0))[:, None], w / (norms + 1e-7)[:, None], w)
    np.testing.assert_allclose(emb.weight.numpy(), want, rtol=1e-6)


def test_embedding_scale_grad_by_freq():
    w = np.arange(6, dtype="float32").reshape(3, 2)
    emb = nn.Embedding(3, 2, scale_grad_by_freq=True)
    emb.set_state_dict({"weight": w})
    out = emb(paddle.to_tensor([0, 0, 1]))
    np.testing.assert_array_equal(out.numpy(), w[[0, 0, 1]])
    out.sum().backward()
    # id 0 is looked up twice: its gradient 2 is divided by its count (Paddle gives [[1, 1], [1, 1], [0, 0]])
    np.testing.assert_array_equal(emb.weight.grad.numpy(), [[1, 1], [1, 1], [0, 0]])
