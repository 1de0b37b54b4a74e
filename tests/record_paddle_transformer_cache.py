"""Record Paddle 3.3.1's incremental decoding (MultiHeadAttention / Transformer ``cache``) into
tests/data/paddle_transformer_cache.npz for tests/nn/test_transformer_cache.py.

For each case: the layer's parameters (state_dict, structured names), the inputs, and the outputs and
cache tensors of each decoding step. Run with a Python that has Paddle:

    /tmp/paddle/bin/python tests/record_paddle_transformer_cache.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parent / "data" / "paddle_transformer_cache.npz"


def arr(x):
    return np.asarray(x.numpy(), np.float64)


def main():
    paddle.seed(7)
    rng = np.random.default_rng(7)
    data: dict[str, np.ndarray] = {}

    def put(prefix, layer):
        for k, v in layer.state_dict().items():
            data[f"{prefix}/param/{k}"] = arr(v)

    def t(*shape):
        return paddle.to_tensor(rng.standard_normal(shape).astype(np.float64))

    paddle.set_default_dtype("float64")
    # MultiHeadAttention: three steps of self-attention with a growing Cache, and a StaticCache over a memory
    mha = paddle.nn.MultiHeadAttention(8, 2)
    mha.eval()
    put("mha", mha)
    steps = [t(2, 1, 8) for _ in range(3)]
    memory = t(2, 4, 8)
    cache = mha.gen_cache(steps[0])
    data["mha/empty_k_shape"] = np.array(cache.k.shape)
    for i, x in enumerate(steps):
        data[f"mha/x{i}"] = arr(x)
        out, cache = mha(x, x, x, None, cache)
        data[f"mha/out{i}"], data[f"mha/k{i}"], data[f"mha/v{i}"] = arr(out), arr(cache.k), arr(cache.v)
    data["mha/memory"] = arr(memory)
    static = mha.gen_cache(memory, memory, type=paddle.nn.MultiHeadAttention.StaticCache)
    out, static2 = mha(steps[0], None, None, None, static)
    data["mha/static_out"], data["mha/static_k"] = arr(out), arr(static.k)
    data["mha/static_same"] = np.array(static2 is static)
    # a Cache made from given keys and values (gen_cache(key, value)), then one step
    given = mha.gen_cache(t(2, 2, 3, 4), t(2, 2, 3, 4))
    data["mha/given_k"], data["mha/given_v"] = arr(given.k), arr(given.v)
    out, c = mha(steps[1], None, None, None, given)
    data["mha/given_out"], data["mha/given_k_after"] = arr(out), arr(c.k)

    # TransformerDecoder (2 layers, normalize_before) decoding 3 steps against a memory; then the whole
    # sequence at once with a causal mask (what the steps must equal)
    layer = paddle.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=True)
    dec = paddle.nn.TransformerDecoder(layer, 2, norm=paddle.nn.LayerNorm(8))
    dec.eval()
    put("dec", dec)
    tgt = t(2, 3, 8)
    data["dec/tgt"], data["dec/memory"] = arr(tgt), arr(memory)
    caches = dec.gen_cache(memory)
    for i in range(3):
        out, caches = dec(tgt[:, i:i + 1], memory, None, None, caches)
        data[f"dec/out{i}"] = arr(out)
        data[f"dec/k{i}"] = arr(caches[1][0].k)
    mask = paddle.to_tensor(np.triu(np.full((3, 3), -np.inf), 1))
    data["dec/full"] = arr(dec(tgt, memory, mask))
    zipped = dec.gen_cache(memory, do_zip=True)
    data["dec/zip_len"] = np.array([len(zipped), len(zipped[0])])

    # TransformerEncoder with caches (UniLM-style incremental encoding)
    enc = paddle.nn.TransformerEncoder(paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2)
    enc.eval()
    put("enc", enc)
    src = t(2, 2, 8)
    data["enc/src"] = arr(src)
    ecache = enc.gen_cache(src)
    for i in range(2):
        out, ecache = enc(src[:, i:i + 1], None, ecache)
        data[f"enc/out{i}"] = arr(out)
        data[f"enc/k{i}"] = arr(ecache[0].k)
    np.savez_compressed(OUT, **data)
    print(f"wrote {OUT} ({len(data)} arrays)")
    print(json.dumps(sorted(data)[:5]))


if __name__ == "__main__":
    main()
