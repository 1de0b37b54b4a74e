"""Record Paddle 3.3.1's results where ordinary code meets its edge rules into tests/data/paddle_differences.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_differences.py``. Each case is an expression
over ``T`` (to_tensor), ``P`` (the library) and ``np``; the fixture stores the result's dtype, shape and values
(a tuple result, as topk's, one record per item), or the type of the exception Paddle raised.

The cases: ``topk`` / ``kthvalue`` on inputs with ties (Paddle's CPU kernel picks among equal values by the order
``std::nth_element`` / ``std::partial_sort`` leave them in: no rule, and not the same on a GPU; the test compares
values and checks that each index points at its value); ``&``, ``|``, ``^`` of a Tensor and a Python number on
either side; ``paddle.pow`` and ``**`` of integer tensors with whole and non-whole exponents (Paddle 3.3.1 hangs on
an integer tensor to a negative power, also a float one it truncates to a negative int: no such case here).
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
