"""Indices that mix ints with index lists, tensors or masks, shared by the Paddle recorder
(``record_paddle_mixed_index.py``) and ``tensor/test_mixed_index.py``. Each key is the index as written; the
tensor is ``arange(24).reshape(2, 3, 4)``."""

from __future__ import annotations

from typing import Any

import numpy as np


def tensor(paddle: Any, stop_gradient: bool = True) -> Any:
    return paddle.to_tensor(np.arange(24, dtype="float32").reshape(2, 3, 4), stop_gradient=stop_gradient)


def index(paddle: Any, key: str) -> tuple:
    T = paddle.to_tensor
    return {
        "[0, :, [0]]": lambda: (0, slice(None), [0]),
        "[0, :, [0, 2]]": lambda: (0, slice(None), [0, 2]),
        "[1, :, T([1, 3])]": lambda: (1, slice(None), T([1, 3])),
        "[-1, ..., [1, 3]]": lambda: (-1, Ellipsis, [1, 3]),
        "[0, 1:, [[1], [3]]]": lambda: (0, slice(1, None), [[1], [3]]),
        "[0, :, mask]": lambda: (0, slice(None), T([True, False, True, False])),
        "[[0], :, [0]]": lambda: ([0], slice(None), [0]),
        "[[1, 0], :, 0]": lambda: ([1, 0], slice(None), 0),
        "[0, [0, 2], :]": lambda: (0, [0, 2], slice(None)),
        "[:, 0, [0, 2]]": lambda: (slice(None), 0, [0, 2]),
        "[1, [0, 2], [1, 3]]": lambda: (1, [0, 2], [1, 3]),
        "[[0, 1], 1, [1, 3]]": lambda: ([0, 1], 1, [1, 3]),
        "[[0, 1], :, [1, 3]]": lambda: ([0, 1], slice(None), [1, 3]),
    }[key]()


INDICES = ["[0, :, [0]]", "[0, :, [0, 2]]", "[1, :, T([1, 3])]", "[-1, ..., [1, 3]]", "[0, 1:, [[1], [3]]]",
           "[0, :, mask]", "[[0], :, [0]]", "[[1, 0], :, 0]", "[0, [0, 2], :]", "[:, 0, [0, 2]]",
           "[1, [0, 2], [1, 3]]", "[[0, 1], 1, [1, 3]]", "[[0, 1], :, [1, 3]]"]


def weights(shape: list[int]) -> np.ndarray:
    """The cotangent of a selection of ``shape``: distinct values, so a gradient in the wrong place shows."""
    return (np.arange(int(np.prod(shape)), dtype="float32") + 100.0).reshape(shape)
