"""The programs ``tests/programs/p43_policy_gradient.py`` and ``p44_decoder_cache.py`` against Paddle 3.3.1: the
differences they showed, as focused cases (``tests/program_diff_cases_i.py``, recorded by
``tests/record_paddle_program_diffs_i.py``), and the errors of what was changed for them."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_i import record  # noqa: E402
from recorded import assert_close, recorded_tests  # noqa: E402

FIXTURE = "paddle_program_diffs_i.json"
# Paddle 3.3.1 fails on hard labels with a size-1 class axis and label_smoothing (RuntimeError: no integer
# label_smooth kernel); pylayer_jax reads them as the labels without that axis (test_size1_labels_... below)
NOT_MIRRORED = {"ls_size1_label"}
REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, FIXTURE, paddle,
                                                                     not_mirrored=NOT_MIRRORED)


def test_size1_labels_with_label_smoothing_are_the_labels_without_that_axis() -> None:
    assert REF["ls_size1_label"] == "RuntimeError" and OURS["ls_size1_label"] == "ok"
    F = paddle.nn.functional
    rng = np.random.default_rng(5)
    logits = paddle.to_tensor(rng.standard_normal((2, 3, 5)).astype("float32"), stop_gradient=False)
    lab = paddle.to_tensor([[1, 2, 0], [4, 4, 3]]).unsqueeze(-1)
    for name, kw in {"mean": {}, "none": {"reduction": "none"}, "ignore": {"ignore_index": 4}}.items():
        loss = F.cross_entropy(logits, lab, label_smoothing=0.2, **kw)
        loss.sum().backward()
        assert_close([loss.numpy().astype(np.float64).tolist(), logits.grad.numpy().astype(np.float64).tolist()],
                     REF[f"ls_{name}"], name, rtol=2e-5)
        logits.clear_gradient()
    two_d = F.cross_entropy(logits[0], paddle.to_tensor([[1], [2], [0]]), label_smoothing=0.1)
    np.testing.assert_allclose(two_d.numpy(), REF["ls_2d"], rtol=2e-5)
    # a float label of the input's shape stays a soft label that is smoothed
    soft = paddle.to_tensor(np.eye(5, dtype="float32")[[1, 2, 0]])
    want = F.cross_entropy(logits[0], soft * 0.9 + 0.02, soft_label=True)
    np.testing.assert_allclose(F.cross_entropy(logits[0], soft, label_smoothing=0.1).numpy(), want.numpy(), rtol=1e-6)


def test_transformer_size_errors_say_what_to_do() -> None:
    nn = paddle.nn
    with pytest.raises(AssertionError, match=r"MultiHeadAttention: embed_dim must be divisible by num_heads, but "
                                             r"received embed_dim=10 and num_heads=3"):
        nn.MultiHeadAttention(10, 3)
    with pytest.raises(AssertionError, match=r"TransformerDecoderLayer: dim_feedforward must be a positive int, but "
                                             r"received 0"):
        nn.TransformerDecoderLayer(8, 2, 0)
    with pytest.raises(TypeError, match=r"MultiHeadAttention: embed_dim must be a positive int, but received "
                                        r"float 8.0"):
        nn.MultiHeadAttention(8.0, 2)
    with pytest.raises(ValueError, match=r"TransformerEncoder: num_layers must be an int of at least 0, but "
                                         r"received -1"):
        nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), -1)
    with pytest.raises(ValueError, match=r"TransformerDecoder: num_layers must be an int of at least 0, but "
                                         r"received 1.5"):
        nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 1.5)
