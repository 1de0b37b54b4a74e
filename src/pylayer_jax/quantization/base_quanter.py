"""``paddle.quantization.BaseQuanter``: the Layer that (fake-)quantizes a Tensor, and reports its scales, zero
points, quantization axis and bit length."""

from __future__ import annotations

import abc
from collections.abc import Iterable
from typing import Any

from ..nn import Layer


class BaseQuanter(Layer, metaclass=abc.ABCMeta):
    """A quanter: ``forward`` returns its input quantized and dequantized; the others describe the quantization."""

    def __init__(self) -> None:
        super().__init__()

    @abc.abstractmethod
    def forward(self, input: Any) -> Any:
        """The input quantized and dequantized."""

    @abc.abstractmethod
    def scales(self) -> Any:
        """The scale(s) of the quantization."""

    @abc.abstractmethod
    def zero_points(self) -> Any:
        """The zero point(s) of the quantization (None for a symmetric one)."""

    @abc.abstractmethod
    def quant_axis(self) -> int | Iterable[int]:
        """The axis the scales run along (-1: one scale for the whole Tensor)."""

    @abc.abstractmethod
    def bit_length(self) -> int | Iterable[int]:
        """The number of bits of the quantized values."""
