"""``paddle.nn.functional.pdist`` (also ``paddle.pdist``): the distances between the rows of a matrix (layer L7)."""

from __future__ import annotations

import numpy as np

from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor


def pdist(x: Tensor, p: float = 2.0, name: str | None = None) -> Tensor:
    """The ``p``-norm distances between every pair of rows of the ``N x M`` matrix ``x``: ``N (N - 1) / 2`` values,
    row 0 against rows 1, 2, ..., then row 1 against rows 2, ... (the upper triangle of the distance matrix, read by
    rows, as in Paddle). ``p`` is any vector-norm order (``inf`` the largest difference, 0 the count of differing
    entries); differentiable in ``x``.

    >>> import pylayer_jax as paddle
    >>> paddle.pdist(paddle.to_tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])).tolist()
    [5.0, 1.0, 4.242640495300293]
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"pdist: x must be a Tensor, but received {type(x).__name__}.")
    if x.ndim != 2:
        raise ValueError(f"pdist: x must be 2-dimensional (N rows of M values), but received shape {list(x.shape)}.")
    n = x.shape[0]
    rows, cols = np.triu_indices(n, 1)
    a = apply_op(TABLE["index_select"], (x, Tensor(rows.astype(np.int64)), 0))
    b = apply_op(TABLE["index_select"], (x, Tensor(cols.astype(np.int64)), 0))
    return apply_op(TABLE["vector_norm"], (a - b,), {"p": float(p), "axis": -1})
