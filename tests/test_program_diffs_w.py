"""The whole program ``tests/programs/p68_einsum_incubate.py`` against Paddle 3.3.1: the differences it showed in
einsum and the other contractions, as focused cases (``tests/program_diff_cases_w.py``, recorded by
``tests/record_paddle_program_diffs_w.py``), and the messages of the errors added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_w import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_w.json", paddle)


def test_contraction_errors_say_what_to_do() -> None:
    x, y = paddle.ones([2, 3, 4]), paddle.ones([2, 4, 5])
    with pytest.raises(ValueError, match=r"baddbmm: a 2-D input must have shape \[B, N\] or \[B, 1\] = \[2, 5\] .* "
                                         r"received \[3, 5\]"):
        paddle.baddbmm(paddle.ones([3, 5]), x, y)
    with pytest.raises(ValueError, match=r"baddbmm: input of shape \[2, 2, 5\] does not broadcast .* \[2, 3, 5\]"):
        paddle.baddbmm(paddle.ones([2, 2, 5]), x, y)
    with pytest.raises(ValueError, match=r"baddbmm: x's width must equal y's height, .* \[2, 3, 4\] .* \[2, 3, 5\]"):
        paddle.baddbmm(paddle.ones([2, 5]), x, paddle.ones([2, 3, 5]))
    with pytest.raises(ValueError, match=r"multi_dot: x must be a list of at least 2 tensors, but received a list "
                                         r"of 1"):
        paddle.linalg.multi_dot([paddle.ones([2, 3])])
    with pytest.raises(AssertionError, match=r"tensordot: the contracted sizes .* x has size 2 in dim 0 while y has "
                                             r"size 3 in dim 0"):
        paddle.tensordot(paddle.ones([2, 3]), paddle.ones([3, 4]), axes=[[0], [0]])
    with pytest.raises(AssertionError, match=r"cdist: x and y must have the same last dimension, .* \[2, 3\] and "
                                             r"\[3, 4\]"):
        paddle.cdist(paddle.ones([2, 3]), paddle.ones([3, 4]))
    with pytest.raises(AssertionError, match=r"einsum: the equation 'ij,jk->ik' names 2 operands, but 1 were given"):
        paddle.einsum("ij,jk->ik", paddle.ones([2, 3]))
    with pytest.raises(ValueError, match=r"einsum: the equation 'ij,jk->ik' does not fit the operands of shapes "
                                         r"\[\[2, 3\], \[2, 3\]\]"):
        paddle.einsum("ij,jk->ik", paddle.ones([2, 3]), paddle.ones([2, 3]))
    with pytest.raises(TypeError, match=r"combinations: x must be a 1-D vector, but it has shape \[2, 3\]"):
        paddle.combinations(paddle.ones([2, 3]))
