"""The programs ``tests/programs/p47_ner_crf.py`` and ``p48_tabular_pipeline.py`` against Paddle 3.3.1: the
differences they showed, as focused cases (``tests/program_diff_cases_k.py``, recorded by
``tests/record_paddle_program_diffs_k.py``), and the errors of what was changed for them."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_k import logits, record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

FIXTURE = "paddle_program_diffs_k.json"
REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, FIXTURE, paddle)
F = paddle.nn.functional


@pytest.mark.parametrize("key", ["mean", "sum", "weight", "none"])
def test_smoothing_of_labels_with_a_class_axis_of_1(key: str) -> None:
    # Paddle 3.3.1 fails on hard labels of shape [..., 1] with label_smoothing (it smooths the integer labels);
    # they are the labels without that axis, and give what Paddle gives for those (its recorded values)
    lab = paddle.to_tensor([[1, 2, 0], [0, 3, 1]]).unsqueeze(-1)
    kw = {"mean": {}, "sum": {"reduction": "sum"}, "weight": {"weight": paddle.to_tensor([0.5, 2.0, 1.0, 1.5])},
          "none": {"reduction": "none"}}[key]
    x = logits(paddle, (2, 3, 4))
    loss = F.cross_entropy(x, lab, label_smoothing=0.1, **kw)
    (loss * paddle.arange(loss.size, dtype="float32").reshape(loss.shape) + loss).sum().backward()
    value, shape, grad = REF[f"ce_smooth_3d_{key}"]
    assert list(loss.shape) == shape
    np.testing.assert_allclose(loss.numpy(), value, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), grad, rtol=2e-5, atol=1e-6)


def test_label_errors_say_what_to_do() -> None:
    with pytest.raises(ValueError, match=r"cross_entropy: the label must have the input's shape \[2, 3\] with 1 "
                                         r"\(or no axis\) on the class axis -1 \(hard labels\), but received shape "
                                         r"\[2, 2\]; pass soft_label=True"):
        F.cross_entropy(paddle.ones([2, 3]), paddle.to_tensor([[1, 2], [0, 1]]))
    with pytest.raises(ValueError, match=r"cross_entropy: with label_smoothing every label must be a class in "
                                         r"\[0, 3\), but received -100: .* ignore_index -100 cannot mark"):
        F.cross_entropy(paddle.ones([2, 3]), paddle.to_tensor([1, -100]), label_smoothing=0.1)
    with pytest.raises(ValueError, match=r"with 1 \(or no axis\) on the class axis -1 \(hard labels\)"):
        with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
            F.cross_entropy(paddle.ones([2, 3]), paddle.to_tensor([[1, 2], [0, 1]]))
