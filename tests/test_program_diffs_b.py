"""The second set of whole programs (``tests/programs/p21_*`` to ``p30_*``) against Paddle 3.3.1: the differences
and failures they showed, as focused cases (``tests/program_diff_cases_b.py``, recorded by
``tests/record_paddle_program_diffs_b.py``), and the errors of what was added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_b import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_b.json", paddle)


def test_fill_diagonal_errors_say_what_to_do() -> None:
    with pytest.raises(ValueError, match=r"fill_diagonal_: x needs at least 2 dimensions, but it has shape \[3\]"):
        paddle.ones([3]).fill_diagonal_(1.0)
    with pytest.raises(AssertionError, match=r"fill_diagonal_tensor: the y shape should be \[3\] .* received \[2\]"):
        paddle.zeros([3, 3]).fill_diagonal_tensor(paddle.ones([2]))
    with pytest.raises(ValueError, match=r"fill_diagonal_tensor: dim1 and dim2 must name two different axes"):
        paddle.zeros([3, 3]).fill_diagonal_tensor(paddle.ones([3]), dim1=1, dim2=1)


def test_linalg_additions_errors_say_what_to_do() -> None:
    la = paddle.linalg
    with pytest.raises(ValueError, match=r"matrix_exp: x must be a square matrix .* shape \[2, 3\]"):
        la.matrix_exp(paddle.ones([2, 3]))
    with pytest.raises(ValueError, match=r"svdvals: x must be a matrix or a batch of matrices"):
        la.svdvals(paddle.ones([3]))
    with pytest.raises(ValueError, match=r"vecdot: x and y must broadcast together, .* \[2, 3\] and \[2\]"):
        la.vecdot(paddle.ones([2, 3]), paddle.ones([2]))
    lu, piv = la.lu(paddle.eye(3) + 1.0)
    with pytest.raises(ValueError, match=r"lu_solve: trans must be 'N', 'T' or 'C', but received 'X'"):
        la.lu_solve(paddle.ones([3, 1]), lu, piv, trans="X")
    with pytest.raises(ValueError, match=r"lu_solve: lu must be a square factor .* b of shape \[2, 1\]"):
        la.lu_solve(paddle.ones([2, 1]), lu, piv)
    with pytest.raises(ValueError, match=r"lu_solve: pivots must be the int32 \[\*, n\] pivots .* int64"):
        la.lu_solve(paddle.ones([3, 1]), lu, piv.astype("int64"))
    with pytest.raises(ValueError, match=r"lu_solve: the pivot 4 is out of range"):
        la.lu_solve(paddle.ones([3, 1]), lu, paddle.to_tensor([1, 4, 3], dtype="int32")).numpy()


def test_tensor_members_errors_say_what_to_do() -> None:
    x = paddle.ones([2, 2])
    with pytest.raises(TypeError, match=r"Tensor.requires_grad must be a bool, but received str"):
        x.requires_grad = "yes"
    with pytest.raises(ValueError, match=r"Tensor.data: here the new data must have the tensor's shape \[2, 2\] and "
                                         r"dtype float32, but received \[3\] and float32"):
        x.data = paddle.zeros([3])
    with pytest.raises(ValueError, match=r"Tensor.data: the new data must be a Tensor, but received list"):
        x.data = [1.0]
    with pytest.raises(ValueError, match=r"Tensor.is_same_shape: y must be a Tensor, but received list"):
        x.is_same_shape([2, 2])
    with pytest.raises(TypeError, match=r"from_numpy: the input must be a numpy.ndarray, but received list"):
        paddle.from_numpy([1, 2])
    with pytest.raises(ValueError, match=r"vstack: x must hold at least one Tensor, but received an empty list"):
        paddle.vstack([])
