"""The programs p53 (audio features) and p54 (mixture of experts, advanced indexing) against Paddle 3.3.1: the
differences and failures they (and the probes around them) showed, as focused cases
(``tests/program_diff_cases_n.py``, recorded by ``tests/record_paddle_program_diffs_n.py``), and the messages of
the errors added for them."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_n import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_n.json", paddle)


def test_bool_mask_shape_errors_say_what_to_do() -> None:
    z = paddle.zeros([2, 3, 4])
    with pytest.raises(IndexError, match=r"getitem: the shape of the boolean index \[2\] does not match the indexed "
                                         r"tensor \(shape \[2, 3, 4\]\) along axis 1: 2 entries for a dimension of "
                                         r"size 3\. Give the mask the shape of the dimensions it covers, \[3\]\."):
        z[:, paddle.to_tensor([True, False])]
    with pytest.raises(IndexError, match=r"setitem: the shape of the boolean index \[3\] .* along axis 2: 3 entries "
                                         r"for a dimension of size 4"):
        z[..., np.array([True, False, True])] = 1.0


def test_index_add_and_scatter_errors_say_what_to_do() -> None:
    z = paddle.zeros([4, 4])
    with pytest.raises(ValueError, match=r"index_add: index 9 is out of range: it must be in \[-4, 4\)\. Fix the "
                                         r"index values\."):
        paddle.index_add(z, paddle.to_tensor([0, 9]), 0, paddle.ones([2, 4]))
    with pytest.raises(ValueError, match=r"index_add: index must be a 1-D tensor, but received shape \[2, 1\]"):
        paddle.index_add(z, paddle.to_tensor([[0], [1]]), 0, paddle.ones([2, 4]))
    with pytest.raises(ValueError, match=r"index_add: value must have the shape of x with len\(index\) on axis 1, "
                                         r"\[4, 2\], but received shape \[2, 4\] \(it is not broadcast\)"):
        paddle.index_add(z, paddle.to_tensor([0, 1]), 1, paddle.ones([2, 4]))
    with pytest.raises(ValueError, match=r"scatter: index must be 1-D \(or 0-D, or \[N, 1\]\), but received shape "
                                         r"\[2, 2\]"):
        paddle.scatter(z, paddle.to_tensor([[0, 1], [2, 3]]), paddle.ones([4, 4]))
