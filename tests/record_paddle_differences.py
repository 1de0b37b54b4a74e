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
wrap it in ``P.zeros_like``, keeping its dtype and shape; ``stop_gradient`` is recorded as a bool tensor).
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
