"""``paddle.tensor.to_string``: how Tensors print (``set_printoptions``, ``to_string``)."""

from __future__ import annotations

from typing import Any

from .._runtime.tensor_repr import set_printoptions as set_printoptions
from .._tensor.facade import Tensor

__all__: list[str] = []


def to_string(var: Tensor, prefix: str = "Tensor") -> str:
    """The text ``print(var)`` shows, beginning with ``prefix`` instead of ``Tensor``."""
    if not isinstance(var, Tensor):
        raise TypeError(f"to_string: var must be a Tensor, but received {type(var).__name__}.")
    text = repr(var)
    return prefix + text[len("Tensor"):] if text.startswith("Tensor") else text


def tensor_to_string(tensor: Any, prefix: str = "Tensor") -> str:
    """``to_string`` of a dense Tensor."""
    return to_string(tensor, prefix)
