"""Record Paddle 3.3.1's results where ordinary code meets its edge rules into tests/data/paddle_differences.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_differences.py``. Each case is an expression
over ``T`` (to_tensor), ``P`` (the library) and ``np``; the fixture stores the result's dtype, shape and values
(a tuple result, as topk's, one record per item), or the type of the exception Paddle raised.

The cases: ``topk`` / ``kthvalue`` on inputs with ties (Paddle's CPU kernel picks among equal values by the order
``std::nth_element`` / ``std::partial_sort`` leave them in: no rule, and not the same on a GPU; the test compares
values and checks that each index points at its value); ``&``, ``|``, ``^`` of a Tensor and a Python number on
either side; ``paddle.pow`` and ``**`` of integer tensors with whole and non-whole exponents (Paddle 3.3.1 hangs on
an integer tensor to a negative power, also a float one it truncates to a negative int: no such case here);
``bitwise_and`` / ``bitwise_or`` / ``bitwise_xor`` (function and method) with a number, a numpy number or array;
``**`` and ``paddle.pow`` with numpy scalars (np.float64 is a Python float; np.float32 / np.float16 are not);
``Tensor.new_zeros`` / ``new_ones`` / ``new_empty`` / ``new_full`` (``new_empty``'s values are unspecified: its cases
wrap it in ``P.zeros_like``, keeping its dtype and shape; ``stop_gradient`` is recorded as a bool tensor); the
shapes the creation functions (``zeros`` ... ``randperm``) take or refuse (a float or bool entry is a TypeError), their
``device`` / ``requires_grad`` keywords (random draws wrapped in ``P.zeros_like``) and ``full``'s fill values;
``bitwise_not`` / ``bitwise_invert`` and the shifts (functions, methods, ``<<`` / ``>>``) with a number, a numpy
number or array, a list (the operators take a Python int on either side, the functions Tensors only); ``paddle.pow``
with a base that is not a Tensor.
"""

import json
from pathlib import Path

import numpy as np

_TIES = {"f1": "T(np.array([1, 3, 3, 2, 3, 1, 1], 'float32'))", "i1": "T(np.array([1, 3, 3, 2, 3, 1, 1]))",
         "i32": "T(np.full([8], 5, 'int32'))", "f2": "T(np.array([[2, 1, 2, 1, 2], [0, 0, 0, 0, 0], [1, 2, 1, 2, 1]], 'float32'))",
         "big": "T(np.array([1.0] * 20 + [2.0] * 20, 'float32'))",
         "nan": "T(np.array([1, np.nan, 3, 2, np.nan, 0], 'float32'))"}
CASES = []
for x in _TIES.values():
    for largest in (True, False):
        for srt in (True, False):
            for k in (1, 3):
                CASES.append(f"P.topk({x}, {k}, largest={largest}, sorted={srt})")
    CASES += [f"P.topk({x}, 2, axis=0)", f"{x}.topk(2, largest=False)"]
    CASES += [f"P.kthvalue({x}, {k})" for k in (1, 2, 3)] + [f"P.kthvalue({x}, 1, axis=0, keepdim=True)"]
_BITS = {"bool": "T([True, False, True])", "int64": "T([1, 2, 3])", "int8": "T(np.array([1, -2, 3], 'int8'))",
         "uint8": "T(np.array([1, 2, 3], 'uint8'))", "bool0": "T(True)"}
for b in _BITS.values():
    for e in ("{b} & 2", "2 & {b}", "{b} | 1", "1 | {b}", "{b} ^ 1", "1 ^ {b}", "{b} & True", "True & {b}",
              "False | {b}", "True ^ {b}", "300 & {b}", "-1 & {b}", "0 | {b}", "-2 ^ {b}", "{b} & 2.5", "2.5 & {b}",
              "{b} | np.int64(1)", "np.int64(1) | {b}", "{b} ^ np.array(1)", "{b} & {b}", "~{b}"):
        CASES.append(e.format(b=b))
for x in ("T([1, 2, 3, -2])", "T(np.array([1, 2, 3, -2], 'int32'))", "T(3)"):
    for e in ("P.pow({x}, 2)", "P.pow({x}, 2.0)", "P.pow({x}, 0)", "{x}.pow(3)", "P.pow({x}, 2.5)", "{x}.pow(0.5)",
              "{x} ** 2", "{x} ** 2.0", "{x} ** 2.5", "{x} ** 0.5", "{x} ** 40", "2.5 ** {x}",
              "P.pow({x}, T(2))"):
        CASES.append(e.format(x=x))

for b in ("T([1, 2, 3])", "T([True, False])"):
    for e in ("P.bitwise_and({b}, 2)", "P.bitwise_or(1, {b})", "P.bitwise_xor({b}, np.int64(1))", "{b}.bitwise_and(2)",
              "P.bitwise_or({b}, np.array(1))", "P.bitwise_xor({b}, [1])", "P.bitwise_and(x={b}, y=True)",
              "{b}.bitwise_or(y=1.5)", "P.bitwise_and({b}, {b})", "P.bitwise_xor({b}, {b})", "{b}.bitwise_or({b})"):
        CASES.append(e.format(b=b))
for x in ("T([2, 3])", "T(np.array([2, 3], 'int32'))"):
    for e in ("{x} ** np.float32(2.0)", "{x} ** np.float16(3.0)", "np.float32(2.0) ** {x}", "{x} ** np.float64(2.5)",
              "{x} ** np.float64(2.0)", "{x} ** np.float32(2.5)", "np.float32(2.5) ** {x}", "{x} ** np.float16(0.5)",
              "P.pow({x}, np.float64(2.0))", "P.pow({x}, np.float64(2.5))", "{x}.pow(np.float64(3.0))",
              "P.pow({x}, np.float32(2.0))", "P.pow({x}, np.int64(2))", "{x}.pow(np.float32(2.5))",
              "P.pow({x}, np.array(2.0))", "P.pow({x}, [2])", "P.pow({x}, y=np.float16(2.0))"):
        CASES.append(e.format(x=x))
CASES += ["T([2.0, 3.0]) ** np.float32(2.5)", "P.pow(T([2.0, 3.0]), np.float32(2.5))", "P.pow(T([2.0, 3.0]), np.float64(2.5))",
          "P.pow(T([2.0, 3.0]), 2j)", "T([2.0, 3.0]).pow_(np.float32(2.0))"]
_NEW = {"i32": "T(np.array([[1, 2], [3, 4]], 'int32'))", "f64": "T(np.array([1.5, 2.5], 'float64'))",
        "bool": "T([True, False])"}
for t in _NEW.values():
    for e in ("{t}.new_zeros([2, 3])", "{t}.new_ones(2, 3)", "{t}.new_zeros((2,))", "{t}.new_ones(3)",
              "{t}.new_zeros(size=[2])", "{t}.new_ones([])", "{t}.new_zeros(T([2, 1]))", "{t}.new_ones([T(2), 1])",
              "{t}.new_zeros(np.int64(2))", "{t}.new_ones([2], dtype='float32')", "{t}.new_zeros([1], dtype=np.int16)",
              "P.zeros_like({t}.new_empty([2, 3]))", "P.zeros_like({t}.new_empty(2, 1, dtype='float64'))",
              "{t}.new_full([2, 3], 7)", "{t}.new_full(3, 2.7)", "{t}.new_full((2,), -2.7)", "{t}.new_full([2], True)",
              "{t}.new_full(size=[1], fill_value=5)", "{t}.new_full([2], 1.5, dtype='float64')",
              "{t}.new_full([2], T(3.0))", "{t}.new_full([2], T([4.0]))", "{t}.new_full([2], np.float32(2.5))",
              "P.to_tensor({t}.new_zeros([2]).stop_gradient)",
              "P.to_tensor({t}.new_ones([2], requires_grad=True).stop_gradient)",
              "P.to_tensor({t}.new_full([2], 1, requires_grad=True).stop_gradient)",
              "P.to_tensor({t}.new_empty([1], requires_grad=True).stop_gradient)",
              "{t}.new_zeros([2], device='cpu')", "{t}.new_ones([2], device=P.CPUPlace())",
              "{t}.new_zeros([2], 'float32')", "{t}.new_ones(2, 'float32')", "{t}.new_zeros([2.0])",
              "{t}.new_ones(True)", "{t}.new_zeros(np.int64(2), 3)", "{t}.new_ones(T(2), T(3))", "{t}.new_zeros([-1, 2])",
              "{t}.new_empty([2], name='e')", "{t}.new_ones()", "{t}.new_full(2, 3, 7)", "{t}.new_full([2])",
              "{t}.new_full([2], 1, 'float32')", "{t}.new_full([-1], 1)", "{t}.new_zeros([2], dtype='foo')",
              "{t}.new_ones([2], device='tpu')"):
        CASES.append(e.format(t=t))
CASES += ["T([1.5]).new_full([2], 'inf')", "T([1.5]).new_full([2], '-inf')"]
# shapes of the creation functions: an entry that is no int (a float, bool, numpy float, 0-D float Tensor, array)
CASES += ["P.zeros([2.0])", "P.ones((2.0, 3))", "P.empty([2, 2.5])", "P.full([2.0], 1)", "P.zeros(2.0)", "P.ones(True)",
          "P.zeros([True])", "P.zeros([np.float32(2)])", "P.zeros([T(2.0)])", "P.zeros(T([2.0]))",
          "P.full(T([2.0]), 1)", "P.zeros(np.array([2.0]))", "P.zeros([np.array(2)])", "P.zeros([None])", "P.zeros('2')",
          "P.zeros([np.bool_(True)])", "P.zeros(np.float32(2))", "P.full(2.0, 1)", "P.empty([T(2.0)])",
          "P.zeros([np.int64(2), 3])", "P.zeros(np.array([2, 3]))", "P.zeros([T(2), 3])", "P.zeros([T([2]), 3])",
          "P.ones(shape=[2.0])", "P.zeros(2, 3.0)", "P.zeros_like(P.empty(T([2.7, 1.2])))",
          "P.rand([2.0])", "P.randn([True])", "P.randint(0, 5, [2.0])", "P.uniform([2.0])",
          "P.normal(shape=[2.0])", "P.standard_normal([np.float32(2)])", "P.rand([T(2.0)])", "P.randperm(2.0)",
          "P.randperm(True)", "P.zeros_like(P.randperm(np.int64(3)))", "P.zeros_like(P.randperm(T(3)))",
          "P.randint(0, 3.5, [2])", "P.randint(0.5, 3, [2])", "P.zeros_like(P.rand(np.array([2])))",
          "P.zeros_like(P.randint(0, 3, np.array([2])))", "P.zeros_like(P.rand([T(2), 3]))"]
# the device / requires_grad keywords of the creation functions (``requires_grad`` counts only when it is True)
for f in ("P.zeros([2]", "P.ones([2]", "P.empty([2]", "P.full([2], 3", "P.zeros_like(T([1, 2])", "P.ones_like(T([1.0])",
          "P.empty_like(T([1.0])", "P.full_like(T([1.0]), 2", "P.rand([2]", "P.randn([2]", "P.uniform([2]",
          "P.standard_normal([2]", "P.randperm(3", "P.rand_like(T([1.0])", "P.randn_like(T([1.0])"):
    CASES += [f"P.to_tensor({f}, requires_grad=True).stop_gradient)", f"P.to_tensor({f}, requires_grad=1).stop_gradient)",
              f"P.to_tensor({f}).stop_gradient)", f"P.zeros_like({f}, device='cpu'))",
              f"P.zeros_like({f}, device=P.CPUPlace(), requires_grad=True))", f"{f}, device='tpu')"]
CASES += ["P.to_tensor(T([1.0]).new_zeros([2], requires_grad=1).stop_gradient)", "P.zeros([2], 'int32', 'x')",
          "P.full([2], 1, 'int32', 'n')", "P.zeros_like(T([1]), 'int32', 'n')", "P.full_like(T([1]), 2, None, 'n')",
          "P.ones([2], dtype='int32', name='o')"]
# bitwise_not / bitwise_invert and the shifts (functions, methods, operators) with numbers
for e in ("P.bitwise_not(5)", "P.bitwise_not(True)", "P.bitwise_not(np.int64(5))", "P.bitwise_not(np.array([1, 2]))",
          "P.bitwise_not([1, 2])", "P.bitwise_not(x=5)", "P.bitwise_invert(5)", "P.bitwise_not_(5)", "P.bitwise_invert_(5)",
          "P.bitwise_not({i})", "{i}.bitwise_not()", "~{i}", "P.bitwise_not_({i})", "{i}.bitwise_invert()",
          "P.bitwise_left_shift({i}, 1)", "P.bitwise_left_shift(1, {i})", "P.bitwise_right_shift({i}, 1)",
          "P.bitwise_right_shift(8, {i})", "P.bitwise_right_shift({i}, y=1)", "P.bitwise_left_shift(x=1, y={i})",
          "P.bitwise_left_shift({i}, np.int64(1))", "{i}.bitwise_left_shift(1)", "{i}.bitwise_right_shift(np.array(1))",
          "P.bitwise_left_shift({i}, {i})", "{i}.bitwise_right_shift({i})", "P.bitwise_right_shift({i}, {i}, False)",
          "{i} << 1", "1 << {i}", "{i} >> 1", "16 >> {i}", "True << {i}", "{i} << True", "{i} >> np.int64(1)",
          "np.int64(1) << {i}", "{i} << np.float32(1)", "np.float32(1) >> {i}", "np.array([1]) << {i}", "[1] << {i}",
          "{i} << [1]", "{i} >> None", "{i} << 1.5", "1.5 << {i}", "{i} >> 1.0", "{i} << {i}", "300 << {i8}",
          "{i8} << 7", "{i8} >> 1", "-1 >> {i}"):
    CASES.append(e.format(i="T([1, 2])", i8="T(np.array([1, -128], 'int8'))"))
# paddle.pow with a base that is not a Tensor
CASES += ["P.pow(np.float32(2.0), T([1, 2]))", "P.pow(2.0, T([1, 2]))", "P.pow(2, T([1, 2]))",
          "P.pow(np.float64(2.0), T([1.0, 2.0]))", "P.pow(np.array([2.0]), T([1.0]))", "P.pow([2.0], T([1.0]))",
          "P.pow(np.int64(2), T([1, 2]))", "P.pow(2, 3)", "P.pow(x=2.0, y=T([1.0]))", "P.pow(True, T([1.0]))",
          "P.pow(np.float32(2.0), np.float32(2.0))", "P.pow(np.float32(2.0), 2)", "P.pow(T([2.0]), True)",
          "2.0 ** T([1.0, 2.0])", "np.float32(2.0) ** T([1.0, 2.0])"]
# the fill value of full / full_like
CASES += ["P.full([2], 'inf')", "P.full([2], '1.5')", "P.full_like(T([1.0]), '-inf')", "P.imag(P.full([2], 1 + 2j))",
          "P.to_tensor(P.full([2], 2j).dtype == P.complex128)",
          "P.full([2], T([3]))", "P.full([2], T(3.0))", "P.full([2], np.bool_(True))", "P.full([2], None)",
          "P.full([2], np.int64(2))", "P.full([2], True)", "P.full([2], 'abc')"]


def as_records(r, lib):  # noqa: ANN001, ANN201
    """[(dtype, shape, values)] of a case's result: a Tensor or a tuple of them."""
    out = []
    for t in (r if isinstance(r, tuple | list) else (r,)):
        v = t.numpy()
        out.append([str(t.dtype).replace("paddle.", ""), list(v.shape), v.astype(np.float64).tolist()])
    return out


def run(code, lib):  # noqa: ANN001, ANN201
    try:
        return {"records": as_records(eval(code, {"P": lib, "T": lib.to_tensor, "np": np}), lib)}
    except Exception as e:  # noqa: BLE001
        return {"raises": type(e).__name__}


if __name__ == "__main__":
    import paddle

    out = [{"expr": code, **run(code, paddle)} for code in CASES]
    path = Path(__file__).parent / "data" / "paddle_differences.json"
    path.write_text(json.dumps({"cases": out}, indent=1))
