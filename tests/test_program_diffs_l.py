"""The programs p49 (segmentation losses) and p50 (GAN training details) against Paddle 3.3.1: the differences
and failures they (and the probes around them) showed, as focused cases (``tests/program_diff_cases_l.py``,
recorded by ``tests/record_paddle_program_diffs_l.py``), and the messages of the errors added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_l import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_l.json", paddle)


def test_loss_shape_errors_say_what_to_do() -> None:
    F = paddle.nn.functional
    lg, lab = paddle.ones([2, 3, 2, 2]), paddle.zeros([2, 2, 2], dtype="int64")
    with pytest.raises(ValueError, match=r"cross_entropy: weight must hold one value per class, shape \[3\] for the "
                                         r"3 classes on axis 1 .* received shape \[2\]"):
        F.cross_entropy(lg, lab, axis=1, weight=paddle.ones([2]))
    with pytest.raises(ValueError, match=r"cross_entropy: the label must have the input's shape \[2, 3, 2, 2\] with 1 "
                                         r"\(or no axis\) on the class axis 1 \(hard labels\), but received shape "
                                         r"\[2, 1, 2\]"):
        F.cross_entropy(lg, lab[:, :1], axis=1)
    with pytest.raises(ValueError, match=r"cross_entropy: the label must have the input's shape .* \(soft labels\)"):
        F.cross_entropy(lg, paddle.ones([2, 3, 2, 1]), axis=1, soft_label=True)
    with pytest.raises(ValueError, match=r"nll_loss: weight must hold one value per class, shape \[3\]"):
        F.nll_loss(lg, lab, weight=paddle.ones([4]))
    with pytest.raises(ValueError, match=r"sigmoid_focal_loss: normalizer must have zero or one dimension .* "
                                         r"received shape \[2, 2\]"):
        F.sigmoid_focal_loss(paddle.ones([2, 2]), paddle.ones([2, 2]), normalizer=paddle.ones([2, 2]))


def test_grid_sample_and_conv_errors_say_what_to_do() -> None:
    F = paddle.nn.functional
    with pytest.raises(ValueError, match=r"grid_sample: grid must be \[N, Do, Ho, Wo, 3\] .* shape \[1, 2, 2, 2, 2\]"):
        F.grid_sample(paddle.ones([1, 1, 2, 2, 2]), paddle.zeros([1, 2, 2, 2, 2]))
    with pytest.raises(ValueError, match=r"grid_sample: x must be 4-D \[N, C, H, W\] or 5-D .* shape \[1, 2, 2\]"):
        F.grid_sample(paddle.ones([1, 2, 2]), paddle.zeros([1, 2, 2]))
    with pytest.raises(ValueError, match=r"Conv2D: padding must be 'same', 'valid', an int or a list of sizes, but "
                                         r"received 'full'"):
        paddle.nn.Conv2D(2, 2, 3, padding="full")
