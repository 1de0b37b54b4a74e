"""Edge rules of topk/kthvalue ties, bitwise operators with numbers, and integer powers, against Paddle 3.3.1.

The expressions and Paddle's results are in tests/data/paddle_differences.json (recorded by
tests/record_paddle_differences.py). Where Paddle raises, we raise the same exception type with our own message.
Two departures, each checked below: among equal values topk/kthvalue pick the lowest index (Paddle's CPU kernel
picks by where std::nth_element / std::partial_sort leave ties: no rule, and another on a GPU), and
``paddle.pow(int_tensor, 2.5)`` raises a ValueError (Paddle keeps the integer dtype and truncates the exponent
to 2).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as P

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from record_paddle_differences import _TIES as _TIE_INPUTS  # noqa: E402
from record_paddle_differences import run  # noqa: E402

RECORDED = json.loads(Path(__file__).resolve().parents[1].joinpath("data", "paddle_differences.json").read_text())["cases"]
_TRUNCATED_EXPONENT = ("2.5)", "0.5)")  # paddle.pow / Tensor.pow of an integer tensor with a non-whole float
_TIES = ("topk", "kthvalue")


@pytest.mark.parametrize("case", RECORDED, ids=[c["expr"] for c in RECORDED])
def test_matches_paddle(case: dict) -> None:
    expr = case["expr"]
    if expr.endswith(_TRUNCATED_EXPONENT) and "pow(" in expr:
        pytest.skip("a deliberate departure: test_pow_of_an_integer_tensor_with_a_non_whole_float_raises")
    got = run(expr, P)
    if "raises" in case:
        assert got == {"raises": case["raises"]}
        return
    assert "records" in got, got
    want = case["records"]
    assert [r[:2] for r in got["records"]] == [r[:2] for r in want]
    if any(f in expr for f in _TIES):
        # the values are Paddle's; the indices: test_ties_take_the_lowest_index_first
        np.testing.assert_array_equal(np.asarray(got["records"][0][2]), np.asarray(want[0][2]))
        return
    for (_, _, g), (_, _, w) in zip(got["records"], want, strict=True):
        np.testing.assert_array_equal(np.asarray(g, np.float64), np.asarray(w, np.float64))


def test_the_fixture_covers_the_rules() -> None:
    exprs = [c["expr"] for c in RECORDED]
    for part in ("P.topk(", ".topk(", "P.kthvalue(", "2 & T(", ") & 2", "300 & ", "np.int64(1) | ", "P.pow(", " ** 2.5"):
        assert any(part in e for e in exprs), part
    assert any("raises" in c for c in RECORDED) and any("records" in c for c in RECORDED)


@pytest.mark.parametrize("name", sorted(_TIE_INPUTS))
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("k,axis", [(1, -1), (3, -1), (2, 0)])
def test_ties_take_the_lowest_index_first(name: str, largest: bool, k: int, axis: int) -> None:
    env = {"P": P, "T": P.to_tensor, "np": np}
    t = eval(_TIE_INPUTS[name], env)
    x = t.numpy()
    key = np.where(np.isnan(x), np.inf, x)  # (NaN is the largest value in both orders, as in Paddle)
    order = np.argsort(-key if largest else key, axis=axis, kind="stable")
    v, i = P.topk(t, k, axis=axis, largest=largest)
    np.testing.assert_array_equal(i.numpy(), np.take(order, range(k), axis=axis))
    np.testing.assert_array_equal(v.numpy(), np.take_along_axis(x, i.numpy(), axis))
    if not largest:
        v, i = P.kthvalue(t, k, axis=axis, keepdim=True)
        np.testing.assert_array_equal(i.numpy(), np.take(order, [k - 1], axis=axis))
        np.testing.assert_array_equal(v.numpy(), np.take_along_axis(x, i.numpy(), axis))


@pytest.mark.parametrize("expr", ["P.pow(T([1, 2, 3, -2]), 2.5)", "T(np.array([2, 3], 'int32')).pow(0.5)",
                                  "P.pow(T(3), 2.5)", "P.pow(T([2]), float('nan'))"])
def test_pow_of_an_integer_tensor_with_a_non_whole_float_raises(expr: str) -> None:
    with pytest.raises(ValueError, match="non-whole Python float exponent .* truncates the exponent"):
        eval(expr, {"P": P, "T": P.to_tensor, "np": np})
    x = P.to_tensor([2, 3])
    np.testing.assert_allclose((x ** 2.5).numpy(), np.array([2, 3], "float32") ** 2.5, rtol=1e-6)
    np.testing.assert_array_equal(P.pow(x, 2.0).numpy(), [4, 9])


@pytest.mark.parametrize("expr,word", [("T([1, 2]) & 2", "&"), ("T([True]) | True", r"\|"), ("T([1]) ^ np.int64(1)", r"\^")])
def test_a_number_right_of_a_bitwise_operator_is_a_value_error(expr: str, word: str) -> None:
    with pytest.raises(ValueError, match=f"x {word} y takes a Tensor y in Paddle, but received"):
        eval(expr, {"P": P, "T": P.to_tensor, "np": np})


def test_in_place_bitwise_with_a_number_is_a_value_error() -> None:
    b = P.to_tensor([1, 2, 3])
    with pytest.raises(ValueError, match="takes a Tensor y"):
        b &= 2
    np.testing.assert_array_equal(b.numpy(), [1, 2, 3])
