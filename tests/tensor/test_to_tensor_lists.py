"""``paddle.to_tensor`` of a list holding Tensors takes numpy's dtype for the list, as Paddle 3.3.1 does
(``tests/to_tensor_list_cases.py``, recorded by ``tests/record_paddle_to_tensor_lists.py``)."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from recorded import Recorded, assert_close, paddle_fixture  # noqa: E402
from to_tensor_list_cases import record  # noqa: E402

REF = paddle_fixture("paddle_to_tensor_lists.json")
OURS = Recorded(record, paddle)


@pytest.mark.parametrize("key", sorted(REF))
def test_as_paddle(key: str) -> None:
    assert_close(OURS[key], REF[key], key, rtol=1e-6)


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(REF)
