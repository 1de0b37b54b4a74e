"""``GroupWiseWeightObserver``: the absolute maximum of each group of ``group_size`` input channels of a 2-D
weight, for each output channel (group-wise weight-only quantization)."""

from __future__ import annotations

import sys
from typing import Any

from ...nn import Layer
from ..base_observer import BaseObserver
from ..factory import ObserverFactory

_ROOT = sys.modules[__name__.split(".")[0]]


class GroupWiseWeightObserver(ObserverFactory):
    """The factory of ``GroupWiseWeightObserverLayer`` (``group_size`` 64 or 128; the weight's first dim a
    multiple of it). Paddle 3.3.1's factory drops ``group_size`` (its layers always use 128); here it is passed."""

    def __init__(self, quant_bits: int = 8, group_size: int = 128) -> None:
        if group_size not in (64, 128):
            raise ValueError(f"GroupWiseWeightObserver: group_size must be 64 or 128, but received {group_size!r}.")
        super().__init__(quant_bits=quant_bits, group_size=group_size)

    def _get_class(self) -> type:
        return GroupWiseWeightObserverLayer


class GroupWiseWeightObserverLayer(BaseObserver):
    """The observer of one layer's weight (see ``GroupWiseWeightObserver``)."""

    def __init__(self, layer: Layer, quant_bits: int = 8, group_size: int = 128) -> None:
        super().__init__()
        self._quant_bits = quant_bits
        self.group_size = group_size
        self._layer = layer
        self._max: Any = None
        self._scale: Any = None
        self._zero_point: Any = None

    def forward(self, inputs: Any) -> Any:
        self._max = self._cal_abs_max(inputs)
        return inputs

    def _cal_abs_max(self, inputs: Any) -> Any:
        shape = list(inputs.shape)
        if len(shape) != 2:
            raise ValueError(f"GroupWiseWeightObserver: only a 2-D weight is supported, but received shape {shape}.")
        if shape[0] % self.group_size:
            raise ValueError(f"GroupWiseWeightObserver: group_size {self.group_size} must divide the input channels "
                             f"{shape[0]}.")
        with _ROOT.no_grad():
            x = inputs.transpose([1, 0]).reshape([shape[1], shape[0] // self.group_size, self.group_size])
            m = _ROOT.max(_ROOT.abs(x), axis=2).astype("float32")
            m = _ROOT.where(m == 0, _ROOT.full_like(m, 1e-8), m)
        return m.transpose([1, 0])

    def min_value(self) -> float:
        return 0.0

    def max_value(self) -> Any:
        return self._max

    def bit_length(self) -> int:
        return self._quant_bits

    def quant_axis(self) -> int:
        return -1

    def cal_thresholds(self) -> None:
        if self._max is None:
            raise RuntimeError("GroupWiseWeightObserverLayer: nothing was observed yet; run the model first.")
        if self._scale is None:
            self._scale = self._max
        self._zero_point = _ROOT.zeros_like(self._scale)

    def scales(self) -> Any:
        if self._scale is None:
            self.cal_thresholds()
        return self._scale

    def zero_points(self) -> Any:
        if self._zero_point is None:
            self.cal_thresholds()
        return self._zero_point
