"""The cases of ``paddle.histogramdd`` (and ``Tensor.histogramdd``), written as Paddle code: ``record(paddle)`` runs
each with the given library and returns the histogram's dtype, shape and values and the edges of each axis, or the
type of the error. ``record_paddle_histogramdd.py`` runs it with Paddle 3.3.1 into ``data/paddle_histogramdd.json``;
``tensor/test_histogramdd.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np

X = "T([[0., 1.], [1., 0.], [2., 0.], [2., 2.]])"
E0, E1 = "T([0.0, 1.0, 2.0])", "T([0.0, 0.5, 2.0])"
CASES: dict[str, str] = {
    "bins_list": f"P.histogramdd({X}, bins=[3, 3])",
    "bins_int": f"P.histogramdd({X}, bins=2)",
    "bins_default": f"P.histogramdd({X})",
    "bins_mixed": f"P.histogramdd({X}, bins=[1, 4])",
    "ranges": f"P.histogramdd({X}, bins=[2, 2], ranges=[0., 1., 0., 1.])",
    "ranges_ints_tuple": f"P.histogramdd({X}, bins=2, ranges=(0, 1, 0, 1))",
    "ranges_partly_outside": f"P.histogramdd({X}, bins=2, ranges=[0.5, 1.5, 0., 0.5])",
    "weights": f"P.histogramdd({X}, bins=2, weights=T([1., 2., 4., 8.]))",
    "density": f"P.histogramdd({X}, bins=2, density=True)",
    "density_weights": f"P.histogramdd({X}, bins=2, density=True, weights=T([1., 2., 4., 8.]))",
    "edges": f"P.histogramdd({X}, bins=({E0}, {E1}))",
    "edges_outside": f"P.histogramdd({X}, bins=(T([0.5, 1.0, 1.5]), T([0.0, 0.5, 1.0])))",
    "edges_ranges_not_read": f"P.histogramdd({X}, bins=({E0}, {E1}), ranges=[0., 1., 0., 1.])",
    "edges_density": f"P.histogramdd({X}, bins=({E0}, {E1}), density=True)",
    "three_axes": "P.histogramdd(T([[0.5, 0.5, 9.0], [0.1, 0.9, -3.0]]), bins=[1, 2, 3], ranges=[0., 1., 0., 1., -3., 9.])",
    "batched_points": "P.histogramdd(T(np.arange(24., dtype='float32').reshape(2, 4, 3)), bins=2)",
    "batched_weights": ("P.histogramdd(T(np.arange(12., dtype='float32').reshape(2, 3, 2)), bins=2, "
                        "weights=T([[1., 2, 3], [4, 5, 6]]))"),
    "float64": f"P.histogramdd({X}.astype('float64'), bins=2)",
    "one_column": "P.histogramdd(T([[0.], [1.], [1.]]), bins=2)",
    "constant_column": "P.histogramdd(T([[1., 1.], [1., 1.]]), bins=2)",
    "right_edge": "P.histogramdd(T([[0., 0.], [1., 1.], [0.5, 0.5]]), bins=2)",
    "nan": "P.histogramdd(T([[0., np.nan], [1., 1.]]), bins=2)",
    "empty_with_ranges": "P.histogramdd(P.zeros([0, 2]), bins=2, ranges=[0., 1., 0., 1.])",
    "method": f"{X}.histogramdd(bins=2)",
    # errors
    "err_1d": "P.histogramdd(T([0., 1., 1.]), bins=2)",
    "err_bins_length": f"P.histogramdd({X}, bins=[2, 2, 2])",
    "err_ranges_length": f"P.histogramdd({X}, bins=2, ranges=[0., 1.])",
    "err_weights_shape": f"P.histogramdd({X}, bins=2, weights=T([1., 2.]))",
    "err_weights_dtype": f"P.histogramdd({X}, bins=2, weights=T([1, 2, 3, 4]))",
    "err_edges_dtype": f"P.histogramdd({X}, bins=(T([0., 1, 2], 'float64'), T([0., 1, 2], 'float64')))",
    "err_bins_float": f"P.histogramdd({X}, bins=2.5)",
    "err_bins_list_float": f"P.histogramdd({X}, bins=[2.0, 2])",
    "err_bins_2d_tensor": f"P.histogramdd({X}, bins=T([[0., 1, 2], [0, 1, 2]]))",
    "err_empty": "P.histogramdd(P.zeros([0, 2]), bins=2)",
}
# Paddle 3.3.1 gives these, and pylayer_jax refuses them on purpose (tensor/test_histogramdd.py)
PADDLE_ONLY: dict[str, str] = {
    "int_x": "P.histogramdd(T([[0, 1], [1, 0]]), bins=2)",
    "edges_unsorted": f"P.histogramdd({X}, bins=(T([0.0, 2.0, 1.0]), {E1}))",
    "bins_zero": f"P.histogramdd({X}, bins=0)",
    "ranges_reversed": f"P.histogramdd({X}, bins=2, ranges=[1., 0., 0., 1.])",
    "bins_negative": f"P.histogramdd({X}, bins=[-1, 2])",
    "edges_list": f"P.histogramdd({X}, bins=[{E0}, {E1}])",
}


def run(paddle: Any, code: str) -> dict[str, Any]:
    env = {"P": paddle, "T": paddle.to_tensor, "np": np}
    try:
        hist, edges = eval(code, env)  # noqa: S307
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}
    return {"dtype": str(hist.dtype).replace("paddle.", ""), "shape": list(hist.shape),
            "hist": np.asarray(hist.numpy(), np.float64).tolist(), "edge_dtypes": [str(e.dtype) for e in edges],
            "edges": [np.asarray(e.numpy(), np.float64).tolist() for e in edges]}


def record(paddle: Any) -> dict[str, Any]:
    return {"cases": {k: run(paddle, c) for k, c in CASES.items()},
            "paddle_only": {k: run(paddle, c) for k, c in PADDLE_ONLY.items()}}
