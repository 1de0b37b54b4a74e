"""The programs p37 (autograd API) and p38 (decoding) against Paddle 3.3.1: the differences and failures they
showed, as focused cases (``tests/program_diff_cases_f.py``, recorded by ``tests/record_paddle_program_diffs_f.py``),
and the errors of what was added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_f import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

FIXTURE = "paddle_program_diffs_f.json"
REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, FIXTURE, paddle)


def test_jacobian_errors_say_what_to_do() -> None:
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(ValueError, match=r"batch_axis should be None or 0, but got 1"):
        paddle.autograd.jacobian(a * a, a, batch_axis=1)
    with pytest.raises(ValueError, match=r"ys.ndim should be 0 or 1 when is_batched=False but got 2"):
        paddle.autograd.jacobian(paddle.ones([2, 2]) * a.sum(), a)
    with pytest.raises(ValueError, match=r"xs.ndim should be 1 or 2 when is_batched=True but got 0"):
        paddle.autograd.jacobian(a, a.sum(), batch_axis=0)
    with pytest.raises(IndexError, match=r"Ellipsis index currently is not supported"):
        paddle.autograd.jacobian(a * a, a)[..., 0]
    with pytest.raises(ValueError, match=r"Only support ys.numel\(\)\(2\)==1 when batch_axis is None"):
        paddle.autograd.hessian(a * a, a)


def test_increment_error_says_what_to_do() -> None:
    with pytest.raises(ValueError, match=r"increment: x must hold exactly one element .* shape \[2\]"):
        paddle.increment(paddle.to_tensor([1, 2]))
    with pytest.raises(TypeError, match=r"increment: x must be a Tensor .* received list"):
        paddle.increment([1.0])
