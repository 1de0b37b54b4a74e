"""``sum``, ``trace`` and ``dot`` give Paddle 3.3.1's result dtypes and values (``tests/dtype_rule_cases.py``,
recorded by ``tests/record_paddle_dtype_rules.py``); where Paddle's CPU build has no kernel (int8/int16/uint8/bool
``trace`` and ``dot``, float16 ``dot``), the result is numpy's in the input's dtype (bools count as int64)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from dtype_rule_cases import record  # noqa: E402
from recorded import Recorded, assert_close, paddle_fixture  # noqa: E402

REF = paddle_fixture("paddle_dtype_rules.json")
OURS = Recorded(record, paddle)
RAN = sorted(k for k, v in REF.items() if not isinstance(v, dict))
NO_KERNEL = sorted(k for k, v in REF.items() if isinstance(v, dict))


@pytest.mark.parametrize("key", RAN)
def test_as_paddle(key: str) -> None:
    assert_close(OURS[key], REF[key], key, rtol=1e-3)  # (float16 sums)


@pytest.mark.parametrize("key", NO_KERNEL)
def test_where_paddle_has_no_cpu_kernel(key: str) -> None:
    name, dt = key[:-1].split("(")
    base = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]])
    x = (base * (1 if dt == "bool" else 100)).astype(dt)
    want_dt = "int64" if dt == "bool" else dt
    xi = x.astype(want_dt)
    want = {"trace": lambda: np.trace(xi), "dot": lambda: np.dot(xi[0], xi[1]),
            "dot_rows": lambda: (xi * xi).sum(-1, dtype=want_dt)}[name]()
    got_dt, got = OURS[key]
    assert got_dt == want_dt
    np.testing.assert_allclose(got, np.asarray(want, dtype=want_dt).astype("float64"), rtol=1e-3)


def test_scalar_divided_by_a_half_precision_tensor_keeps_its_dtype() -> None:
    for dt in ("float16", "bfloat16"):
        x = paddle.to_tensor(np.array([1.0, 4.0, 0.5], "float32")).astype(dt)
        r = 3 / x
        assert str(r.dtype) == f"paddle.{dt}"
        np.testing.assert_allclose(r.astype("float32").numpy(), [3.0, 0.75, 6.0], rtol=1e-2)
