"""The program p67 (a tiny LLaMA-style decoder) against Paddle 3.3.1: the differences it showed, as focused cases
(``tests/program_diff_cases_v.py``, recorded by ``tests/record_paddle_program_diffs_v.py``), and the messages of the
errors added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_v import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_v.json", paddle)


def test_sdpa_unbatched_query_needs_unbatched_key_and_value() -> None:
    F = paddle.nn.functional
    q, k = paddle.ones([3, 2, 4]), paddle.ones([1, 5, 2, 4])
    with pytest.raises(ValueError, match=r"scaled_dot_product_attention: an unbatched 3-D query \[seq, heads, dim\] "
                                         r"needs 3-D key and value, but received query \[3, 2, 4\], key \[1, 5, 2, 4\]"):
        F.scaled_dot_product_attention(q, k, k[0])


def test_sdpa_misuse_messages() -> None:
    F = paddle.nn.functional
    q, k = paddle.ones([1, 3, 4, 2]), paddle.ones([1, 3, 2, 2])
    with pytest.raises(AssertionError, match=r"scaled_dot_product_attention: key and value must have the same number "
                                             r"of heads .* but received query \[1, 3, 4, 2\], key \[1, 3, 2, 2\], "
                                             r"value \[1, 3, 4, 2\]\."):
        F.scaled_dot_product_attention(q, k, q)
    with pytest.raises(AssertionError, match=r"with enable_gqa=False query and key must have the same number of heads"):
        F.scaled_dot_product_attention(q, k, k, enable_gqa=False)
    with pytest.raises(ValueError, match=r"query and key must share batch and head dim.* key \[1, 3, 4, 3\]"):
        F.scaled_dot_product_attention(q, paddle.ones([1, 3, 4, 3]), q)
    with pytest.raises(TypeError, match=r"attn_mask must be bool .* or floating .* but received int64\. Cast it"):
        F.scaled_dot_product_attention(q, q, q, attn_mask=paddle.ones([3, 3], "int64"))
