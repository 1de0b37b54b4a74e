"""``paddle.vision.ops.nms`` against Paddle 3.3.1 (random overlapping boxes from ``tests/vision_cases.py``, recorded
by ``tests/record_paddle_vision.py``): the kept indices, in Paddle's order, without scores, with scores, per category
and cut to ``top_k``; misuse raises a sentence."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTS)
import vision_cases as C  # noqa: E402

ARR = np.load(os.path.join(TESTS, "data", "paddle_vision.npz"))


@pytest.mark.parametrize("name,kwargs", C.NMS_CASES, ids=[c[0] for c in C.NMS_CASES])
def test_nms_as_paddle(name, kwargs):
    boxes, scores, cats = C.nms_inputs()
    env = {"b": paddle.to_tensor(boxes), "s": paddle.to_tensor(scores), "c": paddle.to_tensor(cats)}
    out = paddle.vision.ops.nms(env["b"], **eval(kwargs, env))
    assert out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), ARR[f"nms/{name}"])


@pytest.mark.parametrize("call,exc,pattern", [
    ("nms(paddle.zeros([3, 5]))", ValueError, r"nms: boxes must have shape \[N, 4\]; got \[3, 5\]"),
    ("nms(np.zeros((3, 4)))", TypeError, r"nms: boxes must be a Tensor; got ndarray"),
    ("nms(paddle.zeros([3, 4]), scores=paddle.zeros([2]))", ValueError, r"one score per box \(3\); got 2"),
    ("nms(paddle.zeros([3, 4]), scores=paddle.zeros([3]), category_idxs=paddle.zeros([3], 'int64'))", ValueError,
     r"categories \(the list of category ids\) is needed"),
    ("nms(paddle.zeros([3, 4]), scores=paddle.zeros([3]), category_idxs=paddle.zeros([3], 'int64'), "
     "categories=[0], top_k=4)", ValueError, r"top_k \(4\) must not exceed the number of boxes \(3\)"),
])
def test_nms_misuse(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        eval(call, {"nms": paddle.vision.ops.nms, "paddle": paddle, "np": np})
