"""The programs ``tests/programs/p55_distributions.py`` and ``p56_schedules_clipping.py`` against Paddle 3.3.1: the
differences they showed, as focused cases (``tests/program_diff_cases_o.py``, recorded by
``tests/record_paddle_program_diffs_o.py``), and the errors of what was added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_o import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

# (rtol: float32 sums of large gradients, a few steps)
REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_o.json", paddle,
                                                                     rtol=1e-4)


def test_group_grad_clip_must_be_a_clip() -> None:
    w = paddle.create_parameter([2], "float32")
    with pytest.raises(TypeError, match=r"SGD: a parameter group's grad_clip should be an instance of "
                                        r"nn.ClipGradByValue, ClipGradByNorm or ClipGradByGlobalNorm \(or None\), "
                                        r"but received float"):
        paddle.optimizer.SGD(0.1, parameters=[{"params": [w], "grad_clip": 1.0}])
    with pytest.raises(TypeError, match=r"SGD: unknown parameter-group settings \['clip'\]; allowed: "
                                        r"\['grad_clip', 'learning_rate', 'params', 'weight_decay'\]"):
        paddle.optimizer.SGD(0.1, parameters=[{"params": [w], "clip": 1.0}])
