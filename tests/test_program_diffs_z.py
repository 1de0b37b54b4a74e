"""The whole programs ``tests/programs/p73_loss_zoo.py`` and ``tests/programs/p74_reductions_stats.py`` against
Paddle 3.3.1: the differences they showed in the losses and the order statistics, as focused cases
(``tests/program_diff_cases_z.py``, recorded by ``tests/record_paddle_program_diffs_z.py``), and the messages of the
errors added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_z import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_z.json", paddle)


def test_gaussian_nll_variance_shape_error_says_what_to_do() -> None:
    x = paddle.ones([4, 3])
    with pytest.raises(ValueError, match=r"gaussian_nll_loss: variance must have the input's shape \[4, 3\], that "
                                         r"shape with a last dimension of 1, or that shape without its last "
                                         r"dimension, but received shape \[3\]"):
        paddle.nn.functional.gaussian_nll_loss(x, x, paddle.ones([3]))


def test_quantile_errors_say_what_to_do() -> None:
    with pytest.raises(ValueError, match=r"quantile: q must not be empty, but received an empty .*; pass a number"):
        paddle.quantile(paddle.ones([3]), [])
    # (Paddle 3.3.1 returns zeros here, not a quantile of anything)
    with pytest.raises(ValueError, match=r"nanquantile: the axes reduced \(\[0\]\) hold no elements in a tensor of "
                                         r"shape \[0, 2\], so there is no quantile"):
        paddle.nanquantile(paddle.zeros([0, 2]), 0.5, axis=0)
