"""RandomSampler, ``DataLoader(shuffle=True)``, WeightedRandomSampler and the workers' numpy seeds draw from numpy's
global random state as Paddle 3.3.1's do: after ``np.random.seed`` the orders and the workers' draws are Paddle's
(``tests/sampler_stream_cases.py``, recorded by ``tests/record_paddle_sampler_streams.py``)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from recorded import Recorded, assert_close, paddle_fixture  # noqa: E402
from sampler_stream_cases import Range, record  # noqa: E402

REF = paddle_fixture("paddle_sampler_streams.json")
OURS = Recorded(record, paddle)
# Paddle 3.3.1 fails on these weights (a list: AttributeError in __len__; a Tensor: an assertion); here they draw
# as the numpy array of the same weights does in Paddle
PADDLE_FAILS = {"weighted_list": np.array([0.1, 0.9, 0.5, 0.5]), "weighted_ints": np.array([1, 3, 0, 2]),
                "weighted_tensor": np.array([0.2, 0.5, 0.3], np.float32)}


@pytest.mark.parametrize("key", sorted(k for k in REF if k not in PADDLE_FAILS))
def test_as_paddle(key: str) -> None:
    assert_close(OURS[key], REF[key], key, rtol=1e-12)


@pytest.mark.parametrize("key", sorted(PADDLE_FAILS))
def test_weights_paddle_refuses_draw_as_their_array(key: str) -> None:
    assert REF[key] == {"error": "AttributeError" if key != "weighted_tensor" else "AssertionError"}
    np.random.seed(10)
    assert OURS[key] == list(paddle.io.WeightedRandomSampler(PADDLE_FAILS[key], 12))


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(REF)


def test_paddle_seed_does_not_set_the_shuffle() -> None:
    # as in Paddle: the order follows numpy's state, whatever paddle.seed says
    np.random.seed(1)
    paddle.seed(1)
    a = list(paddle.io.RandomSampler(Range(20)))
    np.random.seed(1)
    paddle.seed(2)
    assert list(paddle.io.RandomSampler(Range(20))) == a
    np.random.seed(2)
    paddle.seed(1)
    assert list(paddle.io.RandomSampler(Range(20))) != a


def test_weighted_sampler_misuse() -> None:
    with pytest.raises(TypeError, match=r"WeightedRandomSampler: weights must hold real numbers, but received dtype"):
        paddle.io.WeightedRandomSampler(["a", "b"], 2)
