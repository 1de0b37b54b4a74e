"""``paddle.softmax`` and ``Tensor.softmax`` against Paddle 3.3.1's recorded results
(``tests/record_paddle_softmax_dim.py``): PyTorch's signature, the legacy default axis (not the last one: a 3-D
input's softmax runs over axis 0), gradients, ``out=``, Paddle's keyword names refused."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from recorded import paddle_fixture  # noqa: E402
from softmax_dim_cases import record  # noqa: E402

REF = paddle_fixture("paddle_softmax_dim.json")
OURS = record(paddle)


@pytest.mark.parametrize("key", sorted(REF))
def test_as_paddle(key: str) -> None:
    if isinstance(REF[key], str):
        assert OURS[key] == REF[key]
        return
    assert len(OURS[key]) == len(REF[key])
    for a, b in zip(OURS[key], REF[key]):
        np.testing.assert_allclose(np.asarray(a, np.float64), np.asarray(b, np.float64), rtol=1e-5, atol=1e-6)


def test_paddle_keyword_names_are_refused() -> None:
    with pytest.raises(TypeError, match=r"paddle.softmax\(\) received unexpected keyword argument\(s\) 'axis'.*"
                                        r"paddle.nn.functional.softmax\(x, axis=...\)"):
        paddle.softmax(paddle.ones([2, 3]), axis=1)
