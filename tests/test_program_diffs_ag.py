"""Programs p87 (graph and segment ops) and p88 (sequence utilities and decoding) against Paddle 3.3.1: the
differences they showed, as focused cases (``tests/program_diff_cases_ag.py``, recorded by
``tests/record_paddle_program_diffs_ag.py``), and the errors of what was changed for them."""

from __future__ import annotations

import os
import sys

import jax
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_ag import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_ag.json", paddle)


def test_one_hot_errors_say_what_to_do() -> None:
    F = paddle.nn.functional
    x = paddle.to_tensor([0, 2])
    with pytest.raises(TypeError, match=r"one_hot: num_classes must be an int or a one-element Tensor, but received "
                                        r"NoneType"):
        F.one_hot(x, None)
    with pytest.raises(ValueError, match=r"one_hot: a Tensor num_classes must hold one concrete integer .*shape \[2\]"):
        F.one_hot(x, paddle.to_tensor([3, 4]))
    with pytest.raises(ValueError, match=r"one_hot: num_classes=-1 .* but x is empty \(shape \[0\]\)"):
        F.one_hot(paddle.to_tensor([], dtype="int64"))
    with pytest.raises(RuntimeError, match=r"one_hot: num_classes=-1 .* cannot run on a traced"):
        jax.jit(lambda a: F.one_hot(paddle.Tensor(a))._value)(x._value)


def test_embedding_errors_say_what_to_do() -> None:
    F = paddle.nn.functional
    w = paddle.ones([4, 3])
    with pytest.raises(ValueError, match=r"embedding: padding_idx must be within \[-4, 4\) .* received -5"):
        F.embedding(paddle.to_tensor([1]), w, padding_idx=-5)
    with pytest.raises(TypeError, match=r"embedding: padding_idx must be an int or None, but received float 1.0"):
        F.embedding(paddle.to_tensor([1]), w, padding_idx=1.0)
    with pytest.raises(ValueError, match=r"Embedding: padding_idx must be an int or None .* float 1.0; pass int"):
        paddle.nn.Embedding(4, 3, padding_idx=1.0)


def test_graph_index_errors_say_what_to_do() -> None:
    G = paddle.geometric
    x = paddle.ones([3, 2])
    with pytest.raises(ValueError, match=r"segment_sum: segment_ids must be a 1-D tensor \(or of shape \[N, 1, \.\.\.\]"
                                         r".* received shape \[1, 3\]\. Flatten it"):
        G.segment_sum(x, paddle.to_tensor([[0, 0, 1]]))
    with pytest.raises(ValueError, match=r"send_u_recv: src_index must be of shape \[E\] or \[E, 1\] .* received "
                                         r"shape \[1, 2\]"):
        G.send_u_recv(x, paddle.to_tensor([[0, 1]]), paddle.to_tensor([[1, 1]]))
    with pytest.raises(ValueError, match=r"send_uv: dst_index must be of shape \[E\] or \[E, 1\] .* received shape \[\]"):
        G.send_uv(x, x, paddle.to_tensor([0]), paddle.to_tensor(1))
