"""The programs ``tests/programs/p41_optimizer_zoo.py`` and ``p42_layer_api.py`` against Paddle 3.3.1: the
differences they showed, as focused cases (``tests/program_diff_cases_h.py``, recorded by
``tests/record_paddle_program_diffs_h.py``), and the errors of what was added for them."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_h import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

FIXTURE = "paddle_program_diffs_h.json"
REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, FIXTURE, paddle)


def test_tensor_betas_start_the_powers_at_their_values() -> None:
    """Deliberate difference: with a Tensor beta1/beta2 Paddle starts the beta-power accumulators at 0.9 and 0.999
    whatever the Tensor holds (a wrong bias correction); here they start at the given betas, so a Tensor beta
    trains as the same float does."""
    runs = []
    for b1, b2 in ((0.8, 0.95), (paddle.to_tensor([0.8]), paddle.to_tensor([0.95]))):
        w = paddle.create_parameter([3], "float32", default_initializer=paddle.nn.initializer.Assign(
            np.array([1.0, -2.0, 0.5], "float32")))
        o = paddle.optimizer.Adam(0.1, beta1=b1, beta2=b2, parameters=[w])
        for _ in range(3):
            (w * w).sum().backward()
            o.step()
            o.clear_grad()
        runs.append(w.numpy())
        assert o.state_dict()[w.name + "_beta1_pow_acc_0"].item() == pytest.approx(0.8 ** 4, rel=1e-6)
    np.testing.assert_array_equal(runs[0], runs[1])


def test_errors_say_what_to_do() -> None:
    w = paddle.create_parameter([3], "float32")
    with pytest.raises(ValueError, match=r"Adam: beta1 given as a Tensor must hold one value, but received shape "
                                         r"\[2\]; pass a float or a Tensor of shape \[1\]"):
        paddle.optimizer.Adam(0.1, beta1=paddle.to_tensor([0.9, 0.9]), parameters=[w])
    with pytest.raises(ValueError, match=r"AdamW: beta2 must be in \[0, 1\), but received 1.5"):
        paddle.optimizer.AdamW(0.1, beta2=paddle.to_tensor([1.5]), parameters=[w])
    with pytest.raises(TypeError, match=r"Adamax: beta1 must be a float, but received Tensor"):
        paddle.optimizer.Adamax(0.1, beta1=paddle.to_tensor([0.8]), parameters=[w])
    with pytest.raises(ValueError, match=r"Linear.to: the device must be a string like 'cpu', 'gpu'.* but received "
                                         r"'float16'; 'float16' is a dtype: pass it by keyword, to\(dtype='float16'\)"):
        paddle.nn.Linear(2, 2).to("float16")
