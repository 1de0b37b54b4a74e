"""Edge rules of topk/kthvalue ties, bitwise operators and functions with numbers, integer powers (with Python and
numpy numbers) and ``Tensor.new_zeros`` / ``new_ones`` / ``new_empty`` / ``new_full``, against Paddle 3.3.1.

The expressions and Paddle's results are in tests/data/paddle_differences.json (recorded by
tests/record_paddle_differences.py). Where Paddle raises, we raise the same exception type with our own message.
Three departures, each checked below: among equal values topk/kthvalue pick the lowest index (Paddle's CPU kernel
picks by where std::nth_element / std::partial_sort leave ties: no rule, and another on a GPU);
``paddle.pow(int_tensor, 2.5)`` (or ``np.float64(2.5)``) raises a ValueError (Paddle keeps the integer dtype and
truncates the exponent to 2), and so do ``int_tensor ** np.float32(2.5)`` and ``np.float32(2.5) ** int_tensor``
(Paddle reads a numpy float32 or float16, not a Python float, as a number of the tensor's integer dtype, truncating
it); and ``x.bitwise_and_(2)`` is a ValueError like ``bitwise_and(x, 2)`` (Paddle's is an AttributeError).
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
_TRUNCATED_EXPONENT = ("2.5)", "0.5)", "2.5))")  # paddle.pow / Tensor.pow of an integer tensor with a non-whole float
_TIES = ("topk", "kthvalue")
_INT = ("T([2, 3])", "T(np.array([2, 3], 'int32'))")
# ``**`` of an integer tensor and a non-whole numpy float32 / float16 (Paddle truncates it): a ValueError here
_TRUNCATED_NUMPY = {e.format(x=x) for x in _INT for e in ("{x} ** np.float32(2.5)", "np.float32(2.5) ** {x}",
                                                         "{x} ** np.float16(0.5)")}


def _truncates(expr: str) -> bool:
    return expr in _TRUNCATED_NUMPY or (expr.endswith(_TRUNCATED_EXPONENT) and "pow(" in expr
                                        and not expr.startswith("P.pow(T([2.0"))


@pytest.mark.parametrize("case", RECORDED, ids=[c["expr"] for c in RECORDED])
def test_matches_paddle(case: dict) -> None:
    expr = case["expr"]
    if _truncates(expr):
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
    for part in ("P.topk(", ".topk(", "P.kthvalue(", "2 & T(", ") & 2", "300 & ", "np.int64(1) | ", "P.pow(", " ** 2.5",
                 "P.bitwise_and(", "P.bitwise_or(1, ", ".bitwise_and(2)", " ** np.float32(2.0)", "np.float32(2.0) ** ",
                 "np.float64(2.0))", ".new_zeros(", ".new_ones(", ".new_empty(", ".new_full(", "requires_grad=True"):
        assert any(part in e for e in exprs), part
    assert any("raises" in c for c in RECORDED) and any("records" in c for c in RECORDED)
    assert all(_truncates(e) for e in _TRUNCATED_NUMPY) and _TRUNCATED_NUMPY <= set(exprs)


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


@pytest.mark.parametrize("expr", sorted(_TRUNCATED_NUMPY))
def test_a_non_whole_numpy_float32_with_an_integer_tensor_in_pow_raises(expr: str) -> None:
    role = "base" if expr.startswith("np.") else "exponent"
    with pytest.raises(ValueError, match=f"non-whole numpy float(32|16) {role} .* truncates the {role} to"):
        eval(expr, {"P": P, "T": P.to_tensor, "np": np})
    x = P.to_tensor([2, 3])
    # the same numbers as Python floats (or whole) are fine, with Paddle's dtypes
    np.testing.assert_allclose((x ** float(np.float32(2.5))).numpy(), np.array([2, 3], "float32") ** 2.5, rtol=1e-6)
    got = x ** np.float32(2.0)
    assert got.dtype == P.int64
    np.testing.assert_array_equal(got.numpy(), [4, 9])
    got = np.float32(3.0) ** P.to_tensor(np.array([1, 2], "int32"))
    assert got.dtype == P.int32
    np.testing.assert_array_equal(got.numpy(), [3, 9])


def test_pow_takes_a_numpy_float64_as_a_python_float_and_refuses_other_numpy_values() -> None:
    x = P.to_tensor(np.array([2, 3], "int32"))
    got = P.pow(x, np.float64(3.0))
    assert got.dtype == P.int32
    np.testing.assert_array_equal(got.numpy(), [8, 27])
    with pytest.raises(ValueError, match="non-whole Python float exponent 2.5 .* truncates the exponent to 2"):
        P.pow(x, np.float64(2.5))
    with pytest.raises(TypeError, match=r"pow: y must be a Python int or float or a Tensor in Paddle, but received "
                                        r"float32 \(np.float32\(2.0\)\); pass float\(y\) or int\(y\)"):
        P.pow(x, np.float32(2.0))
    with pytest.raises(TypeError, match=r"pow: y must be .* received list \(\[2\]\); pass paddle.to_tensor\(y\)"):
        x.pow([2])
    f = P.to_tensor([2.0, 3.0])
    with pytest.raises(TypeError, match=r"Tensor.pow_: y must be .* received int64"):
        f.pow_(np.int64(2))
    np.testing.assert_array_equal(f.numpy(), [2.0, 3.0])
    np.testing.assert_allclose(P.pow(f, np.float64(0.5)).numpy(), np.sqrt([2.0, 3.0], dtype="float32"), rtol=1e-6)


@pytest.mark.parametrize("name,sym", [("bitwise_and", "&"), ("bitwise_or", r"\|"), ("bitwise_xor", r"\^")])
def test_bitwise_functions_and_methods_take_tensors_only(name: str, sym: str) -> None:
    x = P.to_tensor([5, 6])
    fn = getattr(P, name)
    with pytest.raises(ValueError, match=fr"{name}: {name}\(x, y\) takes a Tensor y in Paddle, but received int 2; "
                                         fr"write {name}\(x, paddle.to_tensor\(2, dtype=x.dtype\)\) or put the "
                                         fr"number first \(2 {sym} x\)"):
        fn(x, 2)
    with pytest.raises(ValueError, match=fr"takes a Tensor x in Paddle, but received int 2; write "
                                         fr"{name}\(paddle.to_tensor\(2, dtype=y.dtype\), y\)"):
        fn(2, x)
    with pytest.raises(ValueError, match=fr"Tensor.{name}: x.{name}\(y\) takes a Tensor y in Paddle, but received "
                                         r"int64 np.int64\(1\)"):
        getattr(x, name)(np.int64(1))
    with pytest.raises(ValueError, match=r"received ndarray"):
        fn(x, y=np.array([1, 2]))
    with pytest.raises(ValueError, match=fr"Tensor.{name}_: x.{name}_\(y\) takes a Tensor y in Paddle, but received "
                                         r"int 2; write .*dtype=x.dtype\)\)\.$"):
        getattr(x, name + "_")(2)
    with pytest.raises(ValueError, match=fr"Tensor.{name}_: .* received bool True"):
        getattr(P, name + "_")(x, True)
    np.testing.assert_array_equal(x.numpy(), [5, 6])  # (nothing written)
    y = P.to_tensor([3, 3])
    want = getattr(np, name)(np.array([5, 6]), 3)
    np.testing.assert_array_equal(fn(x, y).numpy(), want)
    np.testing.assert_array_equal(getattr(x, name)(y).numpy(), want)
    np.testing.assert_array_equal(fn(x=x, y=y).numpy(), want)
    np.testing.assert_array_equal(getattr(x.clone(), name + "_")(y).numpy(), want)
