"""The programs p57 (tensor basics, what notebook users see) and p58 (multi-GPU code run in one process) against
Paddle 3.3.1: the differences they showed, as focused cases (``tests/program_diff_cases_p.py``, recorded by
``tests/record_paddle_program_diffs_p.py``), and the messages of the errors added for them.

Not mirrored: a ``for`` loop over a 0-D tensor runs zero times in Paddle (its ``__iter__`` yields nothing, while
``len()`` and ``list()`` raise); here it raises the AssertionError of ``len()``, as a silent empty loop hides the
mistake."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_p import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(
    record, "paddle_program_diffs_p.json", paddle, not_mirrored={"zero_d_for"})


def test_zero_d_loop_raises_instead_of_running_zero_times() -> None:
    assert REF["zero_d_for"] == []
    assert OURS["zero_d_for"] == "AssertionError"


def test_zero_d_len_and_iteration_errors_say_what_to_do() -> None:
    with pytest.raises(AssertionError, match=r"len\(\) of a 0-D Tensor is undefined: it has shape \[\] .* "
                                             r"x\.item\(\) for its value"):
        len(paddle.to_tensor(1.0))
    with pytest.raises(AssertionError, match=r"iteration over a 0-D Tensor is undefined: .* x\.reshape\(\[1\]\)"):
        iter(paddle.to_tensor(1))


def test_distributed_scaler_errors_say_what_to_do() -> None:
    from pylayer_jax.distributed import fleet

    with pytest.raises(TypeError, match=r"fleet\.distributed_scaler: scaler must be a paddle\.amp\.GradScaler, but "
                                        r"received Linear\. Pass the GradScaler"):
        fleet.distributed_scaler(paddle.nn.Linear(2, 2))


def test_matmul_operator_truncation_warns_and_bool_raises() -> None:
    i, f = paddle.to_tensor([[1, 2]]), paddle.to_tensor([[0.5], [1.5]])
    with pytest.warns(UserWarning, match=r"Tensor\.__matmul__: the Tensor is int64 and the other operand float32; "
                                         r".* truncated to integers\. Cast the Tensor to a float dtype first"):
        r = i @ f
    assert r.dtype == paddle.int64 and r.tolist() == [[2]]
    with pytest.raises(RuntimeError, match=r"Tensor\.__matmul__: Paddle has no matrix product of bool tensors .* "
                                           r"x\.astype\('int64'\)"):
        paddle.to_tensor([[True]]) @ f[:1]
