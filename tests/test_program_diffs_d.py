"""The whole programs ``tests/programs/p33_resume.py`` and ``p34_to_static_flow.py`` against Paddle 3.3.1: the
differences they showed, as focused cases (``tests/program_diff_cases_d.py``, recorded by
``tests/record_paddle_program_diffs_d.py``), and the errors of what was changed for them."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_d import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

FIXTURE = "paddle_program_diffs_d.json"
REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, FIXTURE, paddle)


def test_set_state_dict_dtype_error_says_what_to_do() -> None:
    lin = paddle.nn.Linear(3, 2)
    before = lin.bias.numpy().copy()
    with pytest.raises(AssertionError, match=r"Linear.set_state_dict: linear_\d+.w_0 has dtype float32, but the value "
                                             r"to load has dtype float64 \(values are not cast\). Cast the value "
                                             r"first, e.g. value.astype\('float32'\)"):
        lin.set_state_dict({"weight": np.ones((3, 2)), "bias": np.zeros(2, "float32")})
    np.testing.assert_array_equal(lin.bias.numpy(), before)  # nothing was written


def test_rollback_of_a_collected_layer_returns_the_function() -> None:
    class Net(paddle.nn.Layer):
        def forward(self, x):  # noqa: ANN001, ANN202
            return x + 1.0

    sf = paddle.jit.to_static(Net()).forward  # the layer is gone: rollback has nothing to set back
    import gc

    gc.collect()
    assert sf.rollback().__name__ == "forward"
