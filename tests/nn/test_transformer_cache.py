"""Incremental decoding (``cache``) of MultiHeadAttention, TransformerEncoder(Layer) and
TransformerDecoder(Layer) against Paddle 3.3.1's recorded numbers (``tests/record_paddle_transformer_cache.py``),
in float64 with Paddle's parameters loaded through ``set_state_dict``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax import nn

D = np.load(Path(__file__).resolve().parents[1] / "data" / "paddle_transformer_cache.npz")
TOL = {"rtol": 1e-10, "atol": 1e-12}


def _t(key: str) -> paddle.Tensor:
    return paddle.to_tensor(D[key])


def _load(prefix: str, layer: nn.Layer) -> nn.Layer:
    state = {k.split("/param/", 1)[1]: paddle.to_tensor(D[k]) for k in D.files if k.startswith(f"{prefix}/param/")}
    assert set(state) == set(layer.state_dict())
    layer.set_state_dict(state)
    layer.eval()
    return layer


@pytest.fixture(autouse=True)
def float64_default():
    paddle.set_default_dtype("float64")
    try:
        yield
    finally:
        paddle.set_default_dtype("float32")


def test_multi_head_attention_cache_grows_by_each_step() -> None:
    mha = _load("mha", nn.MultiHeadAttention(8, 2))
    cache = mha.gen_cache(_t("mha/x0"))
    assert isinstance(cache, nn.MultiHeadAttention.Cache) and cache.k.shape == list(D["mha/empty_k_shape"]) == [2, 2, 0, 4]
    for i in range(3):
        x = _t(f"mha/x{i}")
        out, cache = mha(x, x, x, None, cache)
        assert isinstance(cache, nn.MultiHeadAttention.Cache) and cache.k.shape == [2, 2, i + 1, 4]
        np.testing.assert_allclose(out.numpy(), D[f"mha/out{i}"], **TOL)
        np.testing.assert_allclose(cache.k.numpy(), D[f"mha/k{i}"], **TOL)
        np.testing.assert_allclose(cache.v.numpy(), D[f"mha/v{i}"], **TOL)


def test_multi_head_attention_static_and_given_caches() -> None:
    mha = _load("mha", nn.MultiHeadAttention(8, 2))
    memory = _t("mha/memory")
    static = mha.gen_cache(memory, memory, type=nn.MultiHeadAttention.StaticCache)
    np.testing.assert_allclose(static.k.numpy(), D["mha/static_k"], **TOL)
    out, static2 = mha(_t("mha/x0"), None, None, None, static)  # key and value come from the cache
    np.testing.assert_allclose(out.numpy(), D["mha/static_out"], **TOL)
    assert (static2 is static) == bool(D["mha/static_same"])
    given = mha.gen_cache(_t("mha/given_k"), _t("mha/given_v"))
    out, c = mha(_t("mha/x1"), None, None, None, given)
    np.testing.assert_allclose(out.numpy(), D["mha/given_out"], **TOL)
    np.testing.assert_allclose(c.k.numpy(), D["mha/given_k_after"], **TOL)


def test_decoder_steps_match_paddle_and_the_causal_full_sequence() -> None:
    layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=True)
    dec = _load("dec", nn.TransformerDecoder(layer, 2, norm=nn.LayerNorm(8)))
    tgt, memory = _t("dec/tgt"), _t("dec/memory")
    caches = dec.gen_cache(memory)
    assert len(caches) == 2 and isinstance(caches[0][1], nn.MultiHeadAttention.StaticCache)
    steps = []
    for i in range(3):
        out, caches = dec(tgt[:, i:i + 1], memory, None, None, caches)
        np.testing.assert_allclose(out.numpy(), D[f"dec/out{i}"], **TOL)
        np.testing.assert_allclose(caches[1][0].k.numpy(), D[f"dec/k{i}"], **TOL)
        steps.append(out.numpy())
    mask = paddle.to_tensor(np.triu(np.full((3, 3), -np.inf), 1))
    full = dec(tgt, memory, mask).numpy()
    np.testing.assert_allclose(full, D["dec/full"], **TOL)
    np.testing.assert_allclose(np.concatenate(steps, axis=1), full, **TOL)  # decoding step by step = causal
    zipped = dec.gen_cache(memory, do_zip=True)
    assert [len(zipped), len(zipped[0])] == D["dec/zip_len"].tolist()


def test_encoder_cache_steps_match_paddle() -> None:
    enc = _load("enc", nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2))
    src = _t("enc/src")
    cache = enc.gen_cache(src)
    for i in range(2):
        out, cache = enc(src[:, i:i + 1], None, cache)
        np.testing.assert_allclose(out.numpy(), D[f"enc/out{i}"], **TOL)
        np.testing.assert_allclose(cache[0].k.numpy(), D[f"enc/k{i}"], **TOL)


def test_cache_misuse_is_a_clear_error() -> None:
    mha = nn.MultiHeadAttention(4, 2)
    x = paddle.randn([1, 2, 4])
    with pytest.raises(TypeError, match="MultiHeadAttention.forward: cache must be a MultiHeadAttention.Cache or "
                                        "StaticCache .made by gen_cache. or None, but received object"):
        mha(x, cache=object())
    with pytest.raises(TypeError, match="gen_cache: type must be MultiHeadAttention.Cache or"):
        mha.gen_cache(x, type=tuple)
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 8), 2)
    with pytest.raises(ValueError, match=r"TransformerDecoder.forward: cache must be a list with one entry per "
                                         r"layer \(2, as gen_cache makes it\), but received 1 entries"):
        dec(x, x, cache=[dec.layers[0].gen_cache(x)])
    with pytest.raises(TypeError, match="TransformerDecoderLayer.forward: cache must be a tuple"):
        dec.layers[0](x, x, cache=mha.gen_cache(x)[0])
