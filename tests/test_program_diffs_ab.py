"""The whole programs ``tests/programs/p77_sort_search.py`` and ``tests/programs/p78_shape_manip.py`` against Paddle
3.3.1: the differences they showed in sorting / searching and shape manipulation, as focused cases
(``tests/program_diff_cases_ab.py``, recorded by ``tests/record_paddle_program_diffs_ab.py``), and the messages of
the errors added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_ab import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_ab.json", paddle)


def test_sort_search_errors_say_what_to_do() -> None:
    x = paddle.to_tensor([[0.5, 2.0, -1.0], [3.0, 0.0, 1.5]])
    rows = paddle.to_tensor([[1, 2], [0, 5], [1, 2]])
    with pytest.raises(ValueError, match=r"topk: k must be an int in \[1, 3\] .* received 0"):
        paddle.topk(x, 0)
    with pytest.raises(ValueError, match=r"argmax: dtype must be 'int32' or 'int64' .* received 'float32'"):
        paddle.argmax(x, dtype="float32")
    with pytest.raises(ValueError, match=r"unique: axis must be an int in \[-2, 2\) for a 2-D x, but received 2"):
        paddle.unique(rows, axis=2)
    with pytest.raises(ValueError, match=r"unique_consecutive: axis must be an int in \[-2, 2\) .* received -3"):
        paddle.unique_consecutive(rows, axis=-3)
    with pytest.raises(ValueError, match=r"unique: dtype \(of the indices and counts\) must be 'int32' or 'int64'"):
        paddle.unique(rows, return_counts=True, dtype="float32")
    with pytest.raises(TypeError, match=r"bincount: x must hold integers .* received dtype float32"):
        paddle.bincount(paddle.to_tensor([1.0]))
    with pytest.raises(ValueError, match=r"bincount: x must be a 1-D tensor, but received shape \[3, 2\]"):
        paddle.bincount(rows)
    with pytest.raises(ValueError, match=r"bincount: weights must have the shape of x \(\[2\]\), but received \[3\]"):
        paddle.bincount(paddle.to_tensor([1, 2]), weights=paddle.ones([3]))
    with pytest.raises(ValueError, match=r"bincount: minlength must be >= 0, but received -1"):
        paddle.bincount(paddle.to_tensor([1, 2]), minlength=-1)
    with pytest.raises(TypeError, match=r"take: index must be an int32 or int64 tensor, but received dtype float32"):
        paddle.take(x, paddle.to_tensor([1.0]))
    with pytest.raises(RuntimeError, match=r"searchsorted: an N-D sorted_sequence \(shape \[3, 2\]\) .* \[1\]"):
        paddle.searchsorted(rows, paddle.to_tensor([1]))
    with pytest.raises(RuntimeError, match=r"masked_select: mask of shape \[2\] does not broadcast with x of shape "
                                           r"\[2, 3\]"):
        paddle.masked_select(x, paddle.to_tensor([True, False]))


def test_view_dtype_errors_say_what_to_do() -> None:
    with pytest.raises(ValueError, match=r"view: the last dimension \(3\) must be a multiple of 2 to view int16 as "
                                         r"int32, but x has shape \[2, 3\]"):
        paddle.ones([2, 3], dtype="int16").view("int32")
    with pytest.raises(ValueError, match=r"view: a 0-D int32 tensor cannot be viewed as int64"):
        paddle.to_tensor(3, dtype="int32").view("int64")


def test_zero_d_kthvalue_gradient_is_the_derivative() -> None:
    """Paddle 3.3.1 gives a 0-D ``kthvalue`` the gradient 1 whatever flows into it (not mirrored); ours carries the
    incoming gradient, as ``topk`` and ``sort`` of a 0-D tensor do in both."""
    x = paddle.to_tensor(2.5, stop_gradient=False)
    (paddle.kthvalue(x, 1)[0] * 3.0).backward()
    assert float(x.grad) == 3.0
