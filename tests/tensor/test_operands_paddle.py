"""The other operand of an operator, and dtype spellings, read as Paddle 3.3.1 reads them.

The expressions and Paddle's results are in tests/data/paddle_operands.json (recorded by
tests/record_paddle_operands.py): numpy numbers and Python bools on either side of an operator, a bool Tensor with an
integer number, ``astype``/``cast`` to ``'float'``/``float``, and ``take_along_axis(..., broadcast=False)``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as P
from pylayer_jax import Tensor

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from record_paddle_operands import namespace  # noqa: E402

RECORDED = json.loads(Path(__file__).resolve().parents[1].joinpath("data", "paddle_operands.json").read_text())["cases"]


@pytest.mark.parametrize("case", RECORDED, ids=[c["expr"] for c in RECORDED])
def test_operand_matches_paddle(case: dict) -> None:
    r = eval(case["expr"], namespace(P))
    assert isinstance(r, Tensor)
    assert r.dtype.name == case["dtype"]
    assert r.shape == case["shape"]
    np.testing.assert_allclose(np.asarray(r.numpy(), np.float64), np.asarray(case["values"], np.float64),
                               rtol=1e-6, atol=1e-6)


def test_a_numpy_float32_is_the_python_float_of_its_value() -> None:
    # Paddle casts np.float32(0.5) to an integer Tensor's dtype (``i * np.float32(0.5)`` is zeros); here it is 0.5
    i = P.to_tensor([3, -1, 2])
    for r, expected in ((i * np.float32(0.5), i * 0.5), (np.float32(0.5) + i, i + 0.5)):
        assert r.dtype == expected.dtype == P.float32
        np.testing.assert_array_equal(r.numpy(), expected.numpy())


def test_take_along_axis_without_broadcast_refuses_larger_indices() -> None:
    a = P.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    with pytest.raises(RuntimeError, match="take_along_axis: with broadcast=False indices may not be larger"):
        P.take_along_axis(a, P.to_tensor([[0, 1, 0, 1]]), 0, broadcast=False)
