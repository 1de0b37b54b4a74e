"""Record how Paddle 3.3.1 reads operands and dtype spellings into tests/data/paddle_operands.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_operands.py``. Each case is an expression over
``a`` (float32 [2, 3]), ``d`` (its float64 copy), ``i`` (int64 [2, 3]), ``i32`` (its int32 copy), ``b`` (bool
[2, 3]) and ``P`` (the library); the fixture stores the result's dtype, shape and values.
``tests/tensor/test_operands_paddle.py`` evaluates the same expressions with pylayer_jax.

The cases: numpy numbers and Python bools as the other operand of an operator (on either side: a numpy number is
the Python number of its kind, so ``np.float64(2.5) * x`` is a Tensor and ``x / np.float64(2.5)`` keeps x's
dtype), a bool Tensor with an integer number (int64), ``astype``/``cast`` to ``'float'`` and ``float`` (float64),
``take_along_axis(..., broadcast=False)``, and the result dtypes of ``heaviside`` (integers stay integers) and
``copysign`` (float32 with float64 is float64), ``assign`` of a Python number (shape [1]), and a 0-D Tensor in ``+ - * / **`` with an N-D one (read as a
number of its kind: ``float32 [N] + float64 []`` is float32, ``int64 [N] + float32 []`` float32), and
``cummax``/``cummin`` over NaN (a NaN, once met, is the running extreme, at the index of the latest NaN), and the shift
operators ``<<`` and ``>>`` on integer Tensors.
"""

import json
from pathlib import Path

import numpy as np

NUMBERS = ["np.float64(2.5)", "np.int32(3)", "np.int64(-2)", "True"]
SYMBOLS = ["+", "-", "*", "/", "**", "==", "<"]
CASES = []
for x in ("a", "d"):
    for n in NUMBERS:
        for s in SYMBOLS:
            CASES += [f"{x} {s} {n}", f"{n} {s} {x}"]
for x in ("i", "i32"):
    for n in ("np.int32(3)", "np.int64(2)", "True"):
        for s in ("+", "-", "*", "//", "%", "=="):
            CASES += [f"{x} {s} {n}", f"{n} {s} {x}"]
    CASES += [f"{x} / np.float64(2.5)", f"np.float64(2.5) * {x}", f"{x} + np.float64(2.5)"]
CASES += ["b + 2", "2 + b", "b - 2", "2 - b", "b * -3", "-3 * b", "b ** 2", "b + True", "b * True",
          "b + 2.5"]
CASES += ["a.astype('float')", "a.astype(float)", "i.astype('float')", "P.cast(i, float)", "P.cast(a, 'float')",
          "a.astype(int)", "a.astype('int')", "P.zeros([2], 'float')"]
CASES += ["P.take_along_axis(a, P.to_tensor([[0]]), 1, broadcast=False)",
          "P.take_along_axis(a, P.to_tensor([[2], [1]]), 1, broadcast=False)",
          "P.take_along_axis(a, P.to_tensor([[1, 0]]), 0, broadcast=False)"]
CASES += ["P.heaviside(i, i)", "P.heaviside(i32, i32 * 0)", "P.heaviside(a, a)",
          "P.copysign(a, d)", "P.copysign(d, a)", "P.copysign(a, -a)", "P.copysign(i, -i)"]
ZERO_D = ["P.to_tensor(2.5, dtype='float64')", "P.to_tensor(2.5)", "P.to_tensor(2)", "P.to_tensor(2, dtype='int32')",
          "P.to_tensor(True)"]
for x in ("a", "d", "i", "i32"):
    for z in ZERO_D:
        for s in ("+", "-", "*", "/", "**"):
            CASES += [f"{x} {s} {z}"]
            if not (s == "**" and x in ("i", "i32")):  # (i holds -1: an integer to a negative power raises here)
                CASES += [f"{z} {s} {x}"]
    CASES += [f"P.add({x}, P.to_tensor(2.5, dtype='float64'))", f"P.multiply(P.to_tensor(3), {x})"]
CASES += [f"P.{f}(n{ax})[{k}]" for f in ("cummax", "cummin") for ax in ("", ", axis=0") for k in (0, 1)]
CASES += [f"P.{f}(n2, axis={ax})[{k}]" for f in ("cummax", "cummin") for ax in (0, 1) for k in (0, 1)]
CASES += ["b / 0.0", "b / -0.0", "b * float('inf')", "b / 2.0"]  # (False / 0.0 is NaN)
CASES += ["P.assign(1.5)", "P.assign(2)", "P.assign(np.array(1.5))", "P.assign([1.5, 2.5])"]
CASES += ["i << 2", "i >> 1", "i32 << 3", "i32 >> 1", "1 << P.abs(i)", "64 >> P.abs(i32)", "i << P.abs(i)",
          "i >> True"]  # (shift operators)


def namespace(lib):  # noqa: ANN001, ANN201
    """The operands every case may use (fresh for each case)."""
    a = np.array([[1.5, -2.0, 3.0], [0.5, 3.0, -1.0]], "float32")
    i = np.array([[3, -1, 2], [2, 3, 1]], "int64")
    t = lib.to_tensor
    return {"P": lib, "np": np, "a": t(a), "d": t(a.astype("float64")), "i": t(i), "i32": t(i.astype("int32")),
            "b": t(np.array([[True, False, True], [False, False, True]])),
            "n": t(np.array([1.0, np.nan, 3.0, np.nan, 0.5], "float32")),
            "n2": t(np.array([[1.0, np.nan, 2.0], [3.0, 0.5, np.nan]], "float32"))}


if __name__ == "__main__":
    import paddle

    out = []
    for code in CASES:
        r = eval(code, namespace(paddle))
        assert isinstance(r, paddle.Tensor), code
        v = r.numpy()
        out.append({"expr": code, "dtype": str(r.dtype).replace("paddle.", ""), "shape": list(v.shape),
                    "values": v.tolist()})
    path = Path(__file__).parent / "data" / "paddle_operands.json"
    path.write_text(json.dumps({"cases": out}, indent=1))
    print(f"wrote {len(out)} cases to {path}")
