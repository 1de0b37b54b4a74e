"""Cases for ``set_printoptions``, ``finfo`` and ``iinfo``, run by ``record_paddle_print_info.py`` with real Paddle
and by ``tests/api/test_print_info.py`` with pylayer_jax (the same function, ``record``, on either library)."""

from __future__ import annotations

from typing import Any

import numpy as np

# (set_printoptions keywords, a name): each prints every value of ``_values`` under those options
OPTIONS = [
    ({}, "defaults"),
    ({"precision": 2}, "precision 2"),
    ({"precision": 0}, "precision 0"),
    ({"threshold": 5}, "threshold 5"),
    ({"threshold": 5, "edgeitems": 1}, "threshold 5, edgeitems 1"),
    ({"linewidth": 30}, "linewidth 30"),
    ({"sci_mode": True}, "sci"),
    ({"sci_mode": True, "precision": 3}, "sci, precision 3"),
    ({"precision": 4, "threshold": 10, "edgeitems": 2, "linewidth": 50, "sci_mode": False}, "all five"),
]
DEFAULTS = {"precision": 8, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": False}
FLOATS = ["float32", "float64", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "complex64", "complex128"]
INTS = ["int8", "int16", "int32", "int64", "uint8"]


def _values(paddle: Any) -> list[Any]:
    """Tensors made from numpy arrays (both libraries print the same values)."""
    thirds = (np.arange(20, dtype=np.float32) / np.float32(3)).astype(np.float32)
    return [
        paddle.to_tensor(np.array([1.123456789, -2.0, 3.0], np.float32)),
        paddle.to_tensor(thirds),
        paddle.to_tensor(np.arange(12, dtype=np.int64).reshape(3, 4)),
        paddle.to_tensor(np.array([[1e-5, 2.5], [3.0, 1e5]], np.float64)),
        paddle.to_tensor(np.array([True, False])),
        paddle.to_tensor(np.array([[-1.5, 0.25, 7.0]] * 4, np.float32)),
    ]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    try:
        for opts, name in OPTIONS:
            paddle.set_printoptions(**opts)
            out[f"print {name}"] = [repr(t) for t in _values(paddle)]
            paddle.set_printoptions(**DEFAULTS)
    finally:
        paddle.set_printoptions(**DEFAULTS)
    for d in FLOATS:
        f = paddle.finfo(getattr(paddle, d))
        out[f"finfo {d}"] = [repr(f), f.bits, f.eps, f.min, f.max, f.tiny, f.smallest_normal, f.resolution, f.dtype]
    for d in INTS:
        i = paddle.iinfo(getattr(paddle, d))
        out[f"iinfo {d}"] = [repr(i), i.bits, i.min, i.max, i.dtype]
    return out
