"""The whole programs ``tests/programs/p69_integer_semantics.py`` and ``tests/programs/p70_elementwise_edges.py``
against Paddle 3.3.1: the differences they showed in integer tensors and in elementwise math at its edges, as
focused cases (``tests/program_diff_cases_x.py``, recorded by ``tests/record_paddle_program_diffs_x.py``), and the
messages of the errors added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_x import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_x.json", paddle)


def test_integer_and_edge_errors_say_what_to_do() -> None:
    with pytest.raises(RuntimeError, match=r"Tensor.sqrt_: an in-place sqrt needs a floating-point tensor .* x is "
                                           r"int64; use paddle.sqrt\(x\)"):
        paddle.to_tensor([4, 1]).sqrt_()
    with pytest.raises(ValueError, match=r"to_tensor: a Python int in data does not fit int64"):
        paddle.to_tensor([2**63])
    with pytest.raises(ValueError, match=r"clip: min must be a number, but received nan"):
        paddle.clip(paddle.to_tensor([1.0]), float("nan"), 1.0)
