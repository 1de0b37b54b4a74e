"""The third set of whole programs (``tests/programs/p31_vision_models.py``, ``p32_hapi_callbacks.py``) against
Paddle 3.3.1: the differences and failures they showed, as focused cases (``tests/program_diff_cases_c.py``,
recorded by ``tests/record_paddle_program_diffs_c.py``), and the errors of what was added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_c import record  # noqa: E402
from recorded import Recorded, assert_close, paddle_fixture  # noqa: E402

REF = paddle_fixture("paddle_program_diffs_c.json")
OURS = Recorded(record, paddle)


@pytest.mark.parametrize("key", sorted(REF))
def test_as_paddle(key: str) -> None:
    assert_close(OURS[key], REF[key], key, rtol=2e-5)


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(REF)


def test_flops_errors_say_what_to_do() -> None:
    net = paddle.nn.Linear(2, 2)
    with pytest.raises(ValueError, match=r"paddle.flops: input_size must be a list of positive ints .* \[2, -1\]"):
        paddle.flops(net, [2, -1])
    with pytest.raises(TypeError, match=r"paddle.flops: custom_ops must be a dict .* received list"):
        paddle.flops(net, [1, 2], custom_ops=[])


def test_save_inference_error_says_what_to_do(tmp_path) -> None:  # noqa: ANN001
    model = paddle.Model(paddle.nn.Linear(2, 2))
    with pytest.raises(RuntimeError, match=r"Model.save: saving an inference model \(training=False\) needs the "
                                           r"input shapes: pass inputs=\[InputSpec\(...\)\] .* or run a batch"):
        model.save(str(tmp_path / "m"), training=False)
