"""``paddle.incubate.nn``'s Layers against Paddle 3.3.1 (``tests/incubate_cases.py``'s ``LAYERS``, recorded by
``tests/record_paddle_incubate.py``): the state-dict keys, shapes, dtypes and parameter names Paddle gives them, their
initial values (Xavier-uniform weights within Paddle's bound, zero biases, unit norm scales), the repr, and the
output in evaluation mode after loading Paddle's (perturbed) state dict, against the fused formula computed with
Paddle's operators. Then training-mode behaviour (dropout, gradients), the cache of the encoder layer, and misuse."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.incubate.nn as N

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from incubate_cases import BMASK, LAYERS, RES, X  # noqa: E402

REF = json.loads(Path(__file__).resolve().parents[1].joinpath("data", "paddle_incubate.json").read_text())["layers"]


def _build() -> dict[str, object]:
    """The layers, made in the recording's order under fresh name counters (so the parameter names match)."""
    with paddle.utils.unique_name.guard():
        return {name: eval(code, {"N": N}) for name, code in LAYERS.items()}  # noqa: S307


LAYERS_BUILT = _build()


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_parameters_and_output_match_paddle(name: str) -> None:
    ref = REF[name]
    layer = LAYERS_BUILT[name]
    sd = layer.state_dict()
    assert sorted(sd) == sorted(ref["params"])
    for k, p in ref["params"].items():
        t = sd[k]
        assert list(t.shape) == p["shape"], k
        assert t.name == p["name"], k
        assert str(t.dtype).replace("paddle.", "") == p["dtype"]
        a = t.numpy()
        if p["min"] == p["max"]:  # constant initialisers: zeros or ones, as Paddle's
            np.testing.assert_array_equal(a, np.full(a.shape, p["min"], np.float32))
        else:  # Xavier uniform: within the bound Paddle's draw nearly reaches
            assert np.abs(a).max() <= p["max_abs"] * 1.1 and np.abs(a).max() >= p["max_abs"] * 0.7, k
    if ref["repr"] is not None:
        assert repr(layer) == ref["repr"]
    layer.set_state_dict({k: paddle.to_tensor(np.asarray(v, np.float32)) for k, v in ref["state"].items()})
    layer.eval()
    x = paddle.to_tensor(X[:, :3])
    if name.startswith(("mha", "encoder")):
        y = layer(x, attn_mask=paddle.to_tensor(BMASK)) if name.startswith("mha") else layer(x, paddle.to_tensor(BMASK))
    elif name in ("bias_dropout_residual_ln", "dropout_add"):
        y = layer(x, paddle.to_tensor(RES[:, :3]))
    else:
        y = layer(x)
    np.testing.assert_allclose(y.numpy(), np.asarray(ref["out"]), rtol=2e-5, atol=2e-5)


def test_training_mode_drops_and_trains() -> None:
    paddle.seed(3)
    layer = N.FusedTransformerEncoderLayer(8, 2, 16, dropout_rate=0.5)
    x = paddle.to_tensor(X)
    layer.train()
    a, b = layer(x), layer(x)
    assert not np.allclose(a.numpy(), b.numpy())  # different dropout masks
    layer.eval()
    np.testing.assert_array_equal(layer(x).numpy(), layer(x).numpy())
    layer.train()
    opt = paddle.optimizer.SGD(0.1, parameters=layer.parameters())
    loss = layer(x).square().mean()
    loss.backward()
    assert all(p.grad is not None and np.abs(p.grad.numpy()).sum() > 0 for p in layer.parameters())
    before = [p.numpy().copy() for p in layer.parameters()]
    opt.step()
    assert all(not np.array_equal(b_, p.numpy()) for b_, p in zip(before, layer.parameters()))


def test_fused_dropout_add_layer_statistics() -> None:
    paddle.seed(5)
    x, y = paddle.ones([4000]), paddle.zeros([4000])
    out = N.FusedDropoutAdd(0.25)(x, y).numpy()
    assert set(np.unique(out)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((out == 0).mean() - 0.25) < 0.03
    down = N.FusedDropoutAdd(0.25, mode="downscale_in_infer")
    assert set(np.unique(down(x, y).numpy())) <= {0.0, 1.0}
    down.eval()
    np.testing.assert_allclose(down(x, y).numpy(), 0.75)


def test_encoder_layer_cache_appends_keys_and_values() -> None:
    layer = N.FusedTransformerEncoderLayer(8, 2, 16, dropout_rate=0.0)
    layer.eval()
    cache = paddle.to_tensor(np.zeros([2, 2, 2, 1, 4], np.float32))
    out, new = layer(paddle.to_tensor(X), cache=cache)
    assert list(out.shape) == [2, 3, 8] and list(new.shape) == [2, 2, 2, 4, 4]
    np.testing.assert_array_equal(new.numpy()[:, :, :, :1], 0.0)


@pytest.mark.parametrize(
    "make,exc,match",
    [
        (lambda: N.FusedMultiHeadAttention(8, 3), AssertionError, "embed_dim must be divisible by num_heads"),
        (lambda: N.FusedMultiHeadAttention(8, 2, need_weights=True), ValueError, "need_weights must be False"),
        (lambda: N.FusedMultiHeadAttention(8, 2, nranks=2), NotImplementedError, "tensor model parallelism"),
        (lambda: N.FusedFeedForward(8, 0), AssertionError, "dim_feedforward must be a positive int"),
        (lambda: N.FusedFeedForward(8, 16, activation="elu"), ValueError, "activation must be one of"),
        (lambda: N.FusedDropoutAdd(1.5), ValueError, r"p must be in \[0, 1\]"),
        (lambda: N.FusedDropoutAdd(0.5, mode="x"), ValueError, "mode must be"),
        (lambda: N.FusedLinear(0, 3), ValueError, "in_features must be a positive int"),
    ],
)
def test_layer_misuse(make, exc, match) -> None:
    with pytest.raises(exc, match=match):
        make()


def test_attention_layer_refuses_separate_keys() -> None:
    layer = N.FusedMultiHeadAttention(8, 2)
    x = paddle.to_tensor(X)
    with pytest.raises(NotImplementedError, match="attends query to itself, so key must be None"):
        layer(x, paddle.to_tensor(RES))
