"""NumPy- and PyTorch-style names Paddle 3 has beside its own (layer L5): the stacking functions ``vstack`` /
``row_stack``, ``hstack``, ``dstack``, ``column_stack`` (``concat`` of ``atleast_*d`` views, as Paddle writes them),
and the constructors ``from_numpy``, ``as_tensor``, ``asarray`` (copies, as Paddle's ``to_tensor``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, to_tensor
from .variadic import atleast_1d, atleast_2d, atleast_3d


def _tensors(api: str, x: Any) -> list[Any]:
    """The entries of ``x`` (a list or tuple, or a Tensor's rows, as Paddle unpacks it); empty is a ValueError."""
    if isinstance(x, Tensor):
        x = [x[i] for i in range(x.shape[0])] if x.ndim else [x]
    if not isinstance(x, list | tuple):
        raise TypeError(f"{api}: x must be a list or tuple of Tensors, but received {type(x).__name__}.")
    if not x:
        raise ValueError(f"{api}: x must hold at least one Tensor, but received an empty {type(x).__name__}.")
    return list(x)


def _listed(r: Any) -> list[Tensor]:
    return r if isinstance(r, list) else [r]


def _concat(arrays: list[Tensor], axis: int) -> Tensor:
    return apply_op(TABLE["concat"], (arrays, axis))


def vstack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """The tensors (1-D ones as rows) joined along axis 0."""
    return _concat(_listed(atleast_2d(*_tensors("vstack", x))), 0)


def row_stack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """``vstack``."""
    return _concat(_listed(atleast_2d(*_tensors("row_stack", x))), 0)


def hstack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """The tensors joined along axis 1 (along axis 0 when they are 1-D; a 0-D one is an element)."""
    arrays = _listed(atleast_1d(*_tensors("hstack", x)))
    return _concat(arrays, 0 if arrays[0].ndim == 1 else 1)


def dstack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """The tensors joined along axis 2 (a 1-D one of n as [1, n, 1], a 2-D one as [m, n, 1])."""
    return _concat(_listed(atleast_3d(*_tensors("dstack", x))), 2)


def column_stack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """The tensors as columns joined along axis 1 (a 0-D or 1-D one reshaped to [numel, 1])."""
    arrays = [t if isinstance(t, Tensor) else to_tensor(t) for t in _tensors("column_stack", x)]
    arrays = [t.reshape([int(np.prod(t.shape)), 1]) if t.ndim < 2 else t for t in arrays]
    return _concat(arrays, 1)


def from_numpy(ndarray: Any) -> Tensor:
    """A Tensor of the numpy array's values and dtype (a copy: a later write to the array does not reach it, as in
    Paddle 3.3.1, whose Tensor does not share the array's memory either)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy: the input must be a numpy.ndarray, but received {type(ndarray).__name__}. To "
                        "convert other types, use paddle.to_tensor.")
    return to_tensor(ndarray)


def as_tensor(data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
              pin_memory: bool = False) -> Tensor:
    """``to_tensor(data, dtype, device, stop_gradient=not requires_grad)`` (a copy of a Tensor too)."""
    return to_tensor(data, dtype=dtype, place=device, stop_gradient=not requires_grad)


def asarray(obj: Any, *, dtype: Any = None, device: Any = None, copy: bool | None = None,
            requires_grad: bool = False) -> Tensor:
    """``to_tensor(obj, dtype, device, stop_gradient=not requires_grad)``; as in Paddle, ``copy`` has no effect (a
    Tensor is always copied)."""
    return to_tensor(obj, dtype=dtype, place=device, stop_gradient=not requires_grad)
