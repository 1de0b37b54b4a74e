"""``AbsmaxObserver``: post-training quantization with the absolute maximum seen."""

from __future__ import annotations

import sys
from typing import Any

from ...nn import Layer
from ..base_observer import BaseObserver
from ..factory import ObserverFactory

_ROOT = sys.modules[__name__.split(".")[0]]


class AbsmaxObserver(ObserverFactory):
    """The factory of ``AbsmaxObserverLayer``: it passes its input through unchanged and keeps the largest
    absolute value seen, which becomes the scale (zero point 0) of ``quant_bits``-bit quantization.

    >>> import pylayer_jax as paddle
    >>> from pylayer_jax.quantization import PTQ, QuantConfig
    >>> from pylayer_jax.quantization.observers import AbsmaxObserver
    >>> ob = AbsmaxObserver(quant_bits=8)
    >>> model = PTQ(QuantConfig(activation=ob, weight=ob)).quantize(paddle.nn.Sequential(paddle.nn.Linear(4, 2)).eval())
    >>> _ = model(paddle.to_tensor([[1.0, -3.0, 2.0, 0.5]]))
    >>> float(model[0].activation_quanter.scales())
    3.0
    """

    def __init__(self, quant_bits: int = 8) -> None:
        if not isinstance(quant_bits, int) or isinstance(quant_bits, bool) or not 2 <= quant_bits <= 16:
            raise ValueError(f"AbsmaxObserver: quant_bits must be an int from 2 to 16, but received {quant_bits!r}.")
        super().__init__(quant_bits=quant_bits)

    def _get_class(self) -> type:
        return AbsmaxObserverLayer


class AbsmaxObserverLayer(BaseObserver):
    """The observer of one layer (see ``AbsmaxObserver``)."""

    INIT_ABS_MAX = 1e-7

    def __init__(self, layer: Layer, quant_bits: int = 8) -> None:
        super().__init__()
        self._quant_bits = quant_bits
        self.abs_max_val = _ROOT.to_tensor(AbsmaxObserverLayer.INIT_ABS_MAX)
        self._min: Any = None
        self._max: Any = None
        self._scale: Any = None
        self._zero_point: Any = None

    def forward(self, input: Any) -> Any:
        self._min, self._max = self.cal_min_max(input)
        return input

    def cal_min_max(self, inputs: Any) -> tuple[int, Any]:
        with _ROOT.no_grad():
            abs_max_val = _ROOT.max(_ROOT.abs(inputs))
            if self._max is not None:
                abs_max_val = _ROOT.maximum(abs_max_val, self._max.astype(inputs.dtype))
        return 0, abs_max_val

    def bit_length(self) -> int:
        return self._quant_bits

    def quant_axis(self) -> int:
        return -1

    def cal_thresholds(self) -> None:
        if self._max is None:
            raise RuntimeError("AbsmaxObserverLayer: nothing was observed yet; run the model on calibration data "
                               "before asking for the scales or converting it.")
        if self._scale is None:
            self._scale = self._max
        self._zero_point = _ROOT.zeros_like(self._scale)

    def scales(self) -> Any:
        if self._scale is None:
            self.cal_thresholds()
        return self._scale

    def zero_points(self) -> Any:
        return self._zero_point
