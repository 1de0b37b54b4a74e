"""Paddle's Tensor repr: header line, then the values indented under it.

Layer L0 (numpy only).
"""

from __future__ import annotations

import numpy as np


def format_values(arr: np.ndarray) -> str:
    """Values as Paddle prints them: floats with 8 decimals for scalars, numpy style for arrays."""
    if arr.ndim == 0:
        v = arr.item()
        if isinstance(v, bool):
            return str(v)
        if isinstance(v, float):
            return f"{v:.8f}"
        return str(v)
    with np.printoptions(precision=8, suppress=True, threshold=1000, edgeitems=3, linewidth=80):
        if arr.dtype == np.bool_:
            body = np.array2string(arr, separator=", ")
        else:
            body = np.array2string(arr, separator=", ")
    return body


def tensor_repr(shape: list[int], dtype: str, place: str, stop_gradient: bool, arr: np.ndarray) -> str:
    head = f"Tensor(shape={shape}, dtype={dtype}, place={place}, stop_gradient={stop_gradient},"
    body = format_values(arr)
    indent = " " * 7
    body = "\n".join(indent + line if i else indent + line for i, line in enumerate(body.split("\n")))
    return f"{head}\n{body})"
