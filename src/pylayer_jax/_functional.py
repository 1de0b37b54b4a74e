"""Paddle's functions, each one line over the op table (layer L5)."""

from __future__ import annotations

from typing import Any

from ._op_table import TABLE
from ._ops import creation as _creation
from ._ops import math as _math
from ._tensor import apply_op
from ._tensor_methods import public

# table ops that are Paddle functions without being Tensor methods
_FUNCTIONS = {"cast", *_creation.FUNCTIONS, *_math.FUNCTIONS}

for _name, _op in TABLE.items():
    if _op.method or _name in _FUNCTIONS:
        globals()[_name] = public(_op)


def meshgrid(*args: Any, **kwargs: Any) -> list[Any]:
    """Coordinate grids (``ij`` indexing) from 1-D tensors given one by one or as one list.

    >>> xs, ys = meshgrid(to_tensor([1, 2]), to_tensor([3, 4, 5]))  # doctest: +SKIP
    """
    if len(args) == 1 and isinstance(args[0], list | tuple):
        args = tuple(args[0])
    return apply_op(TABLE["meshgrid"], (list(args),), kwargs)
