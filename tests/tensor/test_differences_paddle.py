"""Edge rules of topk/kthvalue ties, bitwise operators and functions with numbers, integer powers (with Python and
numpy numbers), ``Tensor.new_zeros`` / ``new_ones`` / ``new_empty`` / ``new_full`` and the creation functions' shapes,
``device`` / ``requires_grad`` keywords and fill values, against Paddle 3.3.1.

The expressions and Paddle's results are in tests/data/paddle_differences.json (recorded by
tests/record_paddle_differences.py). Where Paddle raises, we raise the same exception type with our own message.
Three departures, each checked below: among equal values topk/kthvalue pick the lowest index (Paddle's CPU kernel
picks by where std::nth_element / std::partial_sort leave ties: no rule, and another on a GPU);
``paddle.pow(int_tensor, 2.5)`` (or ``np.float64(2.5)``) raises a ValueError (Paddle keeps the integer dtype and
truncates the exponent to 2), and so do ``int_tensor ** np.float32(2.5)`` and ``np.float32(2.5) ** int_tensor``
(Paddle reads a numpy float32 or float16, not a Python float, as a number of the tensor's integer dtype, truncating
it); and ``x.bitwise_and_(2)`` / ``x.bitwise_left_shift_(1)`` is a ValueError like ``bitwise_and(x, 2)`` (Paddle's
is an AttributeError).
Creation functions: ``full([2], 'abc')`` is a ValueError (Paddle fills zeros); a float shape Tensor is a ValueError
whatever its length (Paddle's is a ValueError for one entry, read as -1, and an OSError for more); ``rand(2.0)`` is
a TypeError like ``zeros(2.0)`` (Paddle's an AttributeError).
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from pathlib import Path

import jax
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


# Paddle fills zeros for a str fill_value that is no number: a ValueError here (test_full_reads_its_fill_value)
_DEPARTURES = {"P.full([2], 'abc')"}


def _truncates(expr: str) -> bool:
    return expr in _TRUNCATED_NUMPY or (expr.endswith(_TRUNCATED_EXPONENT) and "pow(" in expr
                                        and not expr.startswith("P.pow(T([2.0"))


@pytest.mark.parametrize("case", RECORDED, ids=[c["expr"] for c in RECORDED])
def test_matches_paddle(case: dict) -> None:
    expr = case["expr"]
    if _truncates(expr):
        pytest.skip("a deliberate departure: test_pow_of_an_integer_tensor_with_a_non_whole_float_raises")
    if expr in _DEPARTURES:
        pytest.skip("a deliberate departure: test_full_reads_its_fill_value")
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
                 "np.float64(2.0))", ".new_zeros(", ".new_ones(", ".new_empty(", ".new_full(", "requires_grad=True",
                 "P.zeros([2.0])", "P.rand([2.0])", "P.randperm(2.0)", "P.full(T([2.0]), 1)", "requires_grad=1",
                 "P.full_like(T([1.0]), 2, device='cpu'", "P.full([2], 'inf')"):
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


_SHAPED = {"zeros": lambda s: P.zeros(s), "ones": lambda s: P.ones(s), "empty": lambda s: P.empty(s),
           "full": lambda s: P.full(s, 1), "rand": lambda s: P.rand(s), "randn": lambda s: P.randn(s),
           "randint": lambda s: P.randint(0, 5, s), "uniform": lambda s: P.uniform(s),
           "normal": lambda s: P.normal(shape=s), "standard_normal": lambda s: P.standard_normal(s),
           "Tensor.new_zeros": lambda s: P.to_tensor([1]).new_zeros(s)}


@pytest.mark.parametrize("api", sorted(_SHAPED))
@pytest.mark.parametrize("shape,kind", [([2.0], "float"), ((2, 2.5), "float"), ([True], "bool"), (2.0, "float"),
                                        ([np.float32(2)], "float32"), ([None], "NoneType"), ("2", "str")])
def test_a_shape_entry_that_is_no_int_is_a_type_error(api: str, shape: object, kind: str) -> None:
    param = "size" if api.startswith("Tensor.") else "shape"
    with pytest.raises(TypeError, match=fr"^{api}: {param} must be an int or a list or tuple of ints, but received "
                                        fr".* \(an entry of type {kind}\); pass integer sizes such as \[2, 3\]\.$"):
        _SHAPED[api](shape)
    with pytest.raises(TypeError, match=r"an entry of type a float32 Tensor of shape \[\]"):
        _SHAPED[api]([P.to_tensor(2.0)])
    # integer entries in every spelling Paddle takes: ints, numpy integers, integer Tensors of one element
    for good in ([2, 3], (np.int64(2), 3), [P.to_tensor(2), 3], [P.to_tensor(np.array([2], "int32")), 3],
                 np.array([2, 3])):
        assert list(_SHAPED[api](good).shape) == [2, 3]


@pytest.mark.parametrize("api", ["zeros", "ones", "full", "Tensor.new_zeros"])
def test_a_float_shape_tensor_is_a_value_error(api: str) -> None:
    param = "size" if api.startswith("Tensor.") else "shape"
    for shape in (P.to_tensor([2.0]), P.to_tensor([2.0, 3.0])):  # (Paddle: a ValueError, and an OSError for two)
        with pytest.raises(ValueError, match=fr"^{api}: a {param} Tensor must have an integer dtype \(int32 or int64\) "
                                             fr"in Paddle, but received one of dtype float32; pass "
                                             fr"{param}.astype\('int64'\) or a list of ints\.$"):
            _SHAPED[api](shape)
    with pytest.raises(TypeError, match=fr"^{api}: a numpy {param} must hold integers in Paddle, but received an "
                                        r"array of dtype float64"):
        _SHAPED[api](np.array([2.0]))
    assert P.empty(P.to_tensor([2.0, 3.0])).shape == [2, 3]  # (empty takes one, as in Paddle)


@pytest.mark.parametrize("call,pname,got", [(lambda: P.randperm(2.0), "randperm: n", "float 2.0"),
                                            (lambda: P.randperm(True), "randperm: n", "bool True"),
                                            (lambda: P.randint(0, 3.5, [2]), "randint: high", "float 3.5"),
                                            (lambda: P.randint(0.5, 3), "randint: low", "float 0.5")])
def test_random_int_arguments_must_be_ints(call, pname: str, got: str) -> None:  # noqa: ANN001
    name = pname.split(": ")[1]
    with pytest.raises(TypeError, match=fr"^{pname} must be an int in Paddle, but received {got}; pass int\({name}\) "
                                        r"if you mean to round it toward zero\.$"):
        call()
    with pytest.raises(RuntimeError, match=r"^randperm: n must be >= 0, but received -1; pass the number"):
        P.randperm(-1)
    assert sorted(P.randperm(np.int64(4)).tolist()) == [0, 1, 2, 3] == sorted(P.randperm(P.to_tensor(4)).tolist())


_MADE = {"zeros": lambda **k: P.zeros([2], **k), "ones": lambda **k: P.ones([2], **k),
         "empty": lambda **k: P.empty([2], **k), "full": lambda **k: P.full([2], 3.0, **k),
         "zeros_like": lambda **k: P.zeros_like(P.to_tensor([1.0, 2.0]), **k),
         "ones_like": lambda **k: P.ones_like(P.to_tensor([1.0, 2.0]), **k),
         "empty_like": lambda **k: P.empty_like(P.to_tensor([1.0, 2.0]), **k),
         "full_like": lambda **k: P.full_like(P.to_tensor([1.0, 2.0]), 3.0, **k),
         "rand": lambda **k: P.rand([2], **k), "randn": lambda **k: P.randn([2], **k),
         "uniform": lambda **k: P.uniform([2], **k), "standard_normal": lambda **k: P.standard_normal([2], **k),
         "rand_like": lambda **k: P.rand_like(P.to_tensor([1.0, 2.0]), **k),
         "randn_like": lambda **k: P.randn_like(P.to_tensor([1.0, 2.0]), **k),
         "eye": lambda **k: P.eye(1, 2, **k), "arange": lambda **k: P.arange(2, dtype="float32", **k),
         "linspace": lambda **k: P.linspace(0, 1, 2, **k)}


@pytest.mark.parametrize("api", sorted(_MADE))
def test_creation_functions_take_requires_grad_and_device(api: str) -> None:
    t = _MADE[api](requires_grad=True)
    assert t.stop_gradient is False and t.is_leaf
    (t * 2).sum().backward()
    np.testing.assert_array_equal(t.grad.numpy().ravel(), [2.0, 2.0])  # (eye(1, 2) is [1, 2])
    assert _MADE[api]().stop_gradient is True
    assert _MADE[api](requires_grad=1).stop_gradient is True  # (Paddle tests ``requires_grad is True``)
    cpu = jax.devices("cpu")[0]
    for device in ("cpu", P.CPUPlace()):
        assert _MADE[api](device=device)._v.devices() == {cpu}
    with pytest.raises(ValueError, match=fr"^{api}: the device must be a string like 'cpu', 'gpu' or 'gpu:x', but "
                                         r"received 'tpu'"):
        _MADE[api](device="tpu")
    assert {"device", "requires_grad"} <= set(inspect.signature(getattr(P, api)).parameters)


def test_a_like_function_makes_its_tensor_where_x_is() -> None:
    x = P.to_tensor([1.0, 2.0]).cpu()
    for fn in (P.zeros_like, P.ones_like, P.empty_like, P.rand_like, P.randn_like):
        assert fn(x)._v.devices() == x._v.devices()
    assert P.full_like(x, 2)._v.devices() == x._v.devices()


@pytest.mark.skipif(bool(jax.devices()[0].platform == "gpu"), reason="a GPU has pinned host memory")
@pytest.mark.parametrize("api", ["zeros", "ones", "empty", "full", "zeros_like", "full_like", "rand", "randn"])
def test_pin_memory_without_a_gpu_is_a_runtime_error(api: str) -> None:
    with pytest.raises(RuntimeError, match="pinned .* host memory serves copies to a GPU"):
        _MADE[api](pin_memory=True)
    with pytest.raises(RuntimeError, match="pinned"):
        P.randperm(3, pin_memory=True)


def test_creation_functions_take_name_positionally_and_refuse_unknown_keywords() -> None:
    assert P.zeros([2], "int32", "z").dtype == P.int32
    assert P.full_like(P.to_tensor([1]), 2, "float64", "f").dtype == P.float64
    with pytest.raises(TypeError, match=r"^zeros\(\): got an unexpected keyword argument 'out'; its parameters are "
                                        r"\(shape, dtype=None, name=None, \*, device=None, requires_grad=False, "
                                        r"pin_memory=False\)\.$"):
        P.zeros([2], out=None)


def test_full_reads_its_fill_value() -> None:
    np.testing.assert_array_equal(P.full([2], "-inf").numpy(), [-np.inf, -np.inf])
    assert P.full([2], 1 + 2j).dtype == P.complex128
    assert P.full([2], P.to_tensor([3])).tolist() == [3.0, 3.0]
    with pytest.raises(ValueError, match=r"^full: a str fill_value must spell a number \(such as 'inf' or '1.5'\), "
                                         r"but received 'abc'; pass a number\.$"):
        P.full([2], "abc")  # (Paddle fills zeros)
    with pytest.raises(TypeError, match=r"^full_like: fill_value must be a number, a numeric str or a Tensor in "
                                        r"Paddle, but received bool np.True_; pass bool\(fill_value\)\.$"):
        P.full_like(P.to_tensor([1]), np.bool_(True))
    with pytest.raises(TypeError, match=r"received NoneType None; pass a number"):
        P.full([2], None)


@pytest.mark.parametrize("name", ["bitwise_not", "bitwise_invert"])
def test_bitwise_not_takes_a_tensor_only(name: str) -> None:
    for v, got in ((5, "int 5"), (np.int64(5), r"int64 np.int64\(5\)"), ([1, 2], r"list \[1, 2\]")):
        with pytest.raises(ValueError, match=fr"^{name}: {name}\(x\) takes a Tensor x in Paddle, but received {got}; "
                                             fr"write {name}\(paddle.to_tensor\("):
            getattr(P, name)(v)
    with pytest.raises(ValueError, match=fr"^{name}_: {name}_\(x\) takes a Tensor x in Paddle, but received int 5"):
        getattr(P, name + "_")(5)
    x = P.to_tensor([1, 2])
    np.testing.assert_array_equal(getattr(P, name)(x=x).numpy(), [-2, -3])
    np.testing.assert_array_equal((~x).numpy(), [-2, -3])
    assert getattr(P, name + "_")(x) is x and x.tolist() == [-2, -3]


@pytest.mark.parametrize("name,sym", [("bitwise_left_shift", "<<"), ("bitwise_right_shift", ">>")])
def test_shift_functions_take_tensors_and_the_operators_python_ints(name: str, sym: str) -> None:
    x, fn = P.to_tensor([4, 8]), getattr(P, name)
    with pytest.raises(ValueError, match=fr"^{name}: {name}\(x, y\) takes a Tensor y in Paddle, but received int 1; "
                                         fr"write {name}\(x, paddle.to_tensor\(1, dtype=x.dtype\)\) or use the "
                                         fr"operator \(x {sym} 1\), which takes a Python int\.$"):
        fn(x, 1)
    with pytest.raises(ValueError, match=fr"takes a Tensor x in Paddle, but received int 1; .* or use the operator "
                                         fr"\(1 {sym} y\)"):
        fn(1, x)
    with pytest.raises(ValueError, match=fr"^Tensor.{name}: x.{name}\(y\) takes a Tensor y in Paddle, but received "
                                         r"int64 np.int64\(1\)"):
        getattr(x, name)(np.int64(1))
    with pytest.raises(ValueError, match=fr"^Tensor.{name}_: x.{name}_\(y\) takes a Tensor y .* received int 1"):
        getattr(x, name + "_")(1)
    dunder = "lshift" if sym == "<<" else "rshift"
    for o in (np.int64(1), np.array([1]), [1], None):
        with pytest.raises(ValueError, match=fr"^Tensor.__{dunder}__: x {re.escape(sym)} y takes a Tensor y in Paddle"):
            eval(f"x {sym} o", {"x": x, "o": o})
        with pytest.raises(ValueError, match=fr"^Tensor.__r{dunder}__: x {re.escape(sym)} y takes a Tensor x in "):
            eval(f"o {sym} x", {"x": x, "o": o})
    with pytest.raises(TypeError, match=fr"unsupported operand type\(s\) for {re.escape(sym)}: 'Tensor' and 'float'"):
        eval(f"x {sym} 1.0")
    want = np.left_shift([4, 8], 1) if sym == "<<" else np.right_shift([4, 8], 1)
    for got in (eval(f"x {sym} 1"), eval(f"x {sym} True"), fn(x, P.to_tensor([1, 1])), getattr(x, name)(y=P.to_tensor(1))):
        np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(eval(f"16 {sym} P.to_tensor([1, 2])").numpy(), eval(f"16 {sym} np.array([1, 2])"))
    assert x.tolist() == [4, 8]  # (nothing written)


def test_pow_takes_a_tensor_base() -> None:
    y = P.to_tensor([1, 2])
    for b, got in ((np.float32(2.0), r"float32 np.float32\(2.0\); write pow\(paddle.to_tensor\(np.float32\(2.0\)\), "
                                     r"y\)\.$"),
                   (2.0, r"float 2.0; write pow\(paddle.to_tensor\(2.0\), y\) or use the operator \(2.0 \*\* y\)\.$"),
                   ([2.0], r"list \[2.0\]")):
        with pytest.raises(ValueError, match=fr"^pow: pow\(x, y\) takes a Tensor x in Paddle, but received {got}"):
            P.pow(b, y)
    with pytest.raises(ValueError, match=r"received int 2"):
        P.pow(x=2, y=y)
    with pytest.raises(TypeError, match=r"pow: y must be .* received float32"):  # (y first, as in Paddle)
        P.pow(np.float32(2.0), np.float32(2.0))
    np.testing.assert_array_equal((2.0 ** y).numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(P.pow(P.to_tensor(2.0), y).numpy(), [2.0, 4.0])
