"""Result dtypes and values of reductions and products whose dtype rule is Paddle's own (``sum`` keeps int8, uint8,
int16 and int64 and widens bool and int32 to int64; ``trace`` and ``dot`` keep the integer dtype):
``record(paddle)`` gives each case's dtype and values, or the exception type. ``record_paddle_dtype_rules.py``
stores Paddle 3.3.1's into ``tests/data/paddle_dtype_rules.json``; ``tests/ops/test_dtype_rules.py`` compares."""

from __future__ import annotations

from typing import Any

import numpy as np

DTYPES = ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64")


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    base = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]])
    for dt in DTYPES:
        x = paddle.to_tensor((base * (1 if dt == "bool" else 100)).astype(dt))
        cases = {"sum": lambda x: paddle.sum(x), "sum_axis0": lambda x: x.sum(axis=0),
                 "sum_keepdim": lambda x: paddle.sum(x, axis=1, keepdim=True), "trace": lambda x: paddle.trace(x),
                 "dot": lambda x: paddle.dot(x[0], x[1]), "dot_rows": lambda x: paddle.dot(x, x)}
        for name, fn in cases.items():
            try:
                r = fn(x)
                out[f"{name}({dt})"] = [str(r.dtype).replace("paddle.", ""), r.numpy().astype("float64").tolist()]
            except Exception as e:  # noqa: BLE001  (Paddle's CPU build has no kernel for some: recorded)
                out[f"{name}({dt})"] = {"error": type(e).__name__}
    return out
