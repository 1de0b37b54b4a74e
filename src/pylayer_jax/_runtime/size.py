"""``paddle.Size``: what ``Tensor.shape`` returns (layer L0).

Paddle's ``Size`` is a ``list`` that also compares equal to a tuple of the same ints (``x.shape == (2, 3)``
is True), stays a ``Size`` when sliced, added to (a list or a tuple, on either side) or repeated, and has
``numel()``, the product of its entries. It is as mutable (and as unhashable) as a list, and each
``Tensor.shape`` is a new one. ``str()`` and ``repr()`` write it as ``paddle.Size([2, 3])``, as Paddle's do
(``print(x.shape)``); formatted into an f-string it is the list, ``[2, 3]`` (the package's messages, Tensor's repr
``shape=[2, 3]`` as Paddle's; Paddle's f-strings would show ``paddle.Size([2, 3])`` there).
"""

from __future__ import annotations

import math
from typing import Any, SupportsIndex


class Size(list):
    """The shape of a Tensor: a list of ints that also equals the tuple of the same ints."""

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]  (a list: unhashable, as Paddle's)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, tuple):
            return list(self) == list(other)
        return list.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __getitem__(self, i: Any) -> Any:
        v = list.__getitem__(self, i)
        return Size(v) if isinstance(i, slice) else v

    def __add__(self, other: Any) -> Size:  # type: ignore[override]
        if isinstance(other, list | tuple):
            return Size(list(self) + list(other))
        return NotImplemented

    def __radd__(self, other: Any) -> Size:
        if isinstance(other, list | tuple):
            return Size(list(other) + list(self))
        return NotImplemented

    def __mul__(self, n: SupportsIndex) -> Size:
        return Size(list.__mul__(self, n))

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return f"paddle.Size({list.__repr__(self)})"

    __str__ = __repr__  # ``print(x.shape)`` shows ``paddle.Size([2, 3])``, as in Paddle

    def __format__(self, spec: str) -> str:  # in an f-string (this package's messages): the list, ``[2, 3]``
        return format(list.__repr__(self), spec)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Size, (list(self),))

    def __copy__(self) -> Size:
        return Size(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Size:
        return Size(self)

    def numel(self) -> int:
        """The number of elements of a Tensor of this shape: the product of the entries (1 for ``[]``)."""
        return math.prod(self)


class TensorSize(int):
    """What ``Tensor.size`` is: the number of elements (an int), and, called as ``x.size()`` / ``x.size(dim)``
    in PyTorch's style, the shape (a ``Size``) or one of its entries, as in Paddle."""

    def __new__(cls, shape: Any) -> TensorSize:
        self = super().__new__(cls, math.prod(shape))
        self._shape = tuple(shape)
        return self

    def __call__(self, dim: int | None = None) -> Any:
        shape = Size(self._shape)
        return shape if dim is None else shape[dim]

    def __reduce__(self) -> tuple[Any, ...]:
        return (int, (int(self),))
