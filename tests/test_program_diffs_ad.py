"""The whole programs ``tests/programs/p81_conv_pool_layers.py`` and ``p82_norm_layers.py`` against Paddle 3.3.1:
the differences they showed (ReLU of NaN, the MaxUnPool layers' keyword ``indices``, unpool indices past
the output), as focused cases
(``tests/program_diff_cases_ad.py``, recorded by ``tests/record_paddle_program_diffs_ad.py``), and the messages of
the errors."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_ad import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_ad.json", paddle)


def test_unpool_layer_errors_say_what_to_do() -> None:
    x = paddle.ones([1, 1, 4, 4])
    pooled, mask = paddle.nn.MaxPool2D(2, return_mask=True)(x)
    with pytest.raises(TypeError, match=r"MaxUnPool2D.forward: indices is required .* call layer\(x, indices\)"):
        paddle.nn.MaxUnPool2D(2)(pooled)
    with pytest.raises(TypeError, match=r"MaxPool2D.forward: only MaxUnPool layers take output_size at call, but "
                                        r"received output_size=\[2, 2\]; pass it to the constructor"):
        paddle.nn.MaxPool2D(2)(x, output_size=[2, 2])


def test_unpool_index_past_the_output_says_so() -> None:
    x = paddle.to_tensor(np.arange(60, dtype="float32").reshape(1, 1, 4, 3, 5))
    pooled, mask = paddle.nn.functional.max_pool3d(x, 2, stride=2, return_mask=True)
    with pytest.raises(ValueError, match=r"max_unpool3d: indices \(flat positions in the output\) \d+ is out of range: "
                                         r"it must be in \[0, 32\)"):
        paddle.nn.functional.max_unpool3d(pooled, mask, 2)
