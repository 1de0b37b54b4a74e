"""``paddle.functional``: the package's own ``atleast_1d/2d/3d``, ``broadcast_shapes``, ``einsum``, ``meshgrid``,
``norm`` and ``unique_consecutive`` (``paddle.functional.einsum is paddle.einsum``), and the PyTorch-style
``split`` Paddle 3.3.1 files here: an int ``split_size_or_sections`` is the size of each piece (the last one
smaller), not the number of pieces as in ``paddle.split``. Layer: public API, resolved from the package root
(imported before its subpackages), as ``paddle.tensor`` is."""

from __future__ import annotations

import sys as _sys
from collections.abc import Sequence
from typing import Any

_ROOT = _sys.modules[__name__.rpartition(".")[0]]
atleast_1d = _ROOT.atleast_1d
atleast_2d = _ROOT.atleast_2d
atleast_3d = _ROOT.atleast_3d
broadcast_shapes = _ROOT.broadcast_shapes
einsum = _ROOT.einsum
meshgrid = _ROOT.meshgrid
norm = _ROOT.norm
unique_consecutive = _ROOT.unique_consecutive

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "einsum", "meshgrid", "norm", "split",
           "unique_consecutive"]


def split(tensor: Any, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple[Any, ...]:
    """``tensor`` cut along ``dim`` into pieces of ``split_size_or_sections`` elements each (an int; the last piece
    holds what is left) or of the listed sizes (which must add up to the dimension), as a tuple."""
    if not isinstance(tensor, _ROOT.Tensor):
        raise TypeError(f"paddle.functional.split: tensor must be a Tensor, but received {type(tensor).__name__}.")
    if isinstance(dim, bool) or not isinstance(dim, int) or not -tensor.ndim <= dim < max(tensor.ndim, 1):
        raise ValueError(f"paddle.functional.split: dim must be an int in [{-tensor.ndim}, {tensor.ndim}), but "
                         f"received {dim!r}.")
    n = tensor.shape[dim]
    s = split_size_or_sections
    if isinstance(s, int) and not isinstance(s, bool):
        if s <= 0:
            raise ValueError(f"paddle.functional.split: split_size_or_sections must be a positive int, but received "
                             f"{s}; pass the size of each piece.")
        sizes = [s] * (n // s) + ([n % s] if n % s else [])
        if not sizes:  # an empty dimension: one empty piece
            sizes = [0]
    elif isinstance(s, list | tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in s):
        if sum(s) != n or any(v < 0 for v in s):
            raise ValueError(f"paddle.functional.split: the sizes {list(s)} must be non-negative and add up to the "
                             f"size {n} of dimension {dim}.")
        sizes = list(s)
    else:
        raise TypeError("paddle.functional.split: split_size_or_sections must be an int or a list of ints, but "
                        f"received {s!r}.")
    return tuple(_ROOT.split(tensor, sizes, axis=dim))
