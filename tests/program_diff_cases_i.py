"""Cases found by the programs ``tests/programs/p43_policy_gradient.py`` and ``p44_decoder_cache.py``, written as
Paddle code: ``record(paddle)`` runs them with the given library and returns what they give (values, the type of
each error). ``record_paddle_program_diffs_i.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_i.json``; ``test_program_diffs_i.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _v


def transformer_sizes(paddle: Any, out: dict[str, Any]) -> None:
    """Impossible sizes of the attention and transformer layers (and of their fused forms in paddle.incubate.nn)
    raise AssertionError in Paddle (p44 catches it);
    a float size is a TypeError. An encoder or decoder of 0 layers is allowed: its output is its input, through
    its final norm, and its caches are an empty list."""
    nn = paddle.nn
    bad = {
        "mha_heads": lambda: nn.MultiHeadAttention(10, 3),
        "mha_zero_dim": lambda: nn.MultiHeadAttention(0, 2),
        "mha_zero_heads": lambda: nn.MultiHeadAttention(8, 0),
        "mha_float": lambda: nn.MultiHeadAttention(8.0, 2),
        "enc_layer_dim": lambda: nn.TransformerEncoderLayer(0, 2, 8),
        "enc_layer_heads": lambda: nn.TransformerEncoderLayer(10, 3, 8),
        "dec_layer_ff": lambda: nn.TransformerDecoderLayer(8, 2, 0),
        "dec_layer_nhead": lambda: nn.TransformerDecoderLayer(8, 0, 8),
        "tf_dim": lambda: nn.Transformer(0, 2),
        "tf_heads": lambda: nn.Transformer(10, 3, 1, 1, 8),
        "tf_ff": lambda: nn.Transformer(8, 2, 1, 1, 0),
    }
    fused = paddle.incubate.nn
    bad.update({
        "fused_mha_heads": lambda: fused.FusedMultiHeadAttention(8, 3),
        "fused_mha_zero_heads": lambda: fused.FusedMultiHeadAttention(8, 0),
        "fused_mha_float": lambda: fused.FusedMultiHeadAttention(8.0, 2),
        "fused_ffn_dim": lambda: fused.FusedFeedForward(0, 8),
        "fused_ffn_ff": lambda: fused.FusedFeedForward(8, 0),
        "fused_residual_ln": lambda: fused.FusedBiasDropoutResidualLayerNorm(0),
        "fused_enc_heads": lambda: fused.FusedTransformerEncoderLayer(8, 3, 16),
        "fused_enc_nhead": lambda: fused.FusedTransformerEncoderLayer(8, 0, 16),
    })
    for k, make in bad.items():
        out[f"size_{k}"] = _attempt(lambda make=make: make() and "ok")
    x = paddle.to_tensor(np.linspace(-1.0, 1.0, 2 * 3 * 8).reshape(2, 3, 8).astype("float32"))
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 0, norm=nn.LayerNorm(8))
    o, c = enc(x, None, enc.gen_cache(x))
    out["empty_encoder"] = [len(enc.layers), enc.num_layers, _v(enc(x)), _v(o), c]
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 0)
    o, c = dec(x, x * 2.0, None, None, dec.gen_cache(x))
    out["empty_decoder"] = [len(dec.layers), _v(dec(x, x * 2.0)), _v(o), c, dec.gen_cache(x, do_zip=True)]
    tf = nn.Transformer(8, 2, 0, 1, 16, dropout=0.0)
    out["transformer_no_encoder_layers"] = [len(tf.encoder.layers), len(tf.decoder.layers)]


def label_smoothing_labels(paddle: Any, out: dict[str, Any]) -> None:
    """cross_entropy with label_smoothing of hard labels without the class axis (p44's training loss); Paddle
    3.3.1 fails on the same labels given with a size-1 class axis, which pylayer_jax reads as these (the test
    compares them with the values recorded here)."""
    F = paddle.nn.functional
    rng = np.random.default_rng(5)
    logits = paddle.to_tensor(rng.standard_normal((2, 3, 5)).astype("float32"), stop_gradient=False)
    lab = paddle.to_tensor([[1, 2, 0], [4, 4, 3]])
    for name, kw in {"mean": {}, "none": {"reduction": "none"}, "sum": {"reduction": "sum"},
                     "ignore": {"ignore_index": 4}, "weight": {"weight": paddle.to_tensor([1.0, 2.0, 1.0, 0.5, 1.0])}
                     }.items():
        loss = F.cross_entropy(logits, lab, label_smoothing=0.2, **kw)
        loss.sum().backward()
        out[f"ls_{name}"] = [_v(loss), _v(logits.grad)]
        logits.clear_gradient()
    out["ls_2d"] = _v(F.cross_entropy(logits[0], lab[0], label_smoothing=0.1))
    out["ls_size1_label"] = _attempt(lambda: F.cross_entropy(logits, lab.unsqueeze(-1), label_smoothing=0.1).numpy()
                                     and "ok")


CASES = (transformer_sizes, label_smoothing_labels)


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
