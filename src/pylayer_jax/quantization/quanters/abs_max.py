"""``FakeQuanterWithAbsMaxObserver``: fake quantization with a moving average of the absolute maximum."""

from __future__ import annotations

import sys
from typing import Any

from ...nn import Layer
from ...nn.initializer import Constant
from ...nn.layer._param import ParamAttr
from ...utils import unique_name
from ..base_quanter import BaseQuanter
from ..factory import QuanterFactory

_ROOT = sys.modules[__name__.split(".")[0]]


class FakeQuanterWithAbsMaxObserver(QuanterFactory):
    """The factory of ``FakeQuanterWithAbsMaxObserverLayer``: in training each call updates
    ``state = moving_rate * state + 1``, ``accum = moving_rate * accum + max|x|`` and ``scale = accum / state``
    (state and accum start at 1, the scale at 0.001), then quantizes ``x`` to ``bit_length`` bits with that scale
    and dequantizes it (the gradient passes straight through); in evaluation the scale is kept.

    >>> import pylayer_jax as paddle
    >>> from pylayer_jax.quantization import QAT, QuantConfig
    >>> from pylayer_jax.quantization.quanters import FakeQuanterWithAbsMaxObserver
    >>> q = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    >>> model = QAT(QuantConfig(activation=q, weight=q)).quantize(paddle.nn.Sequential(paddle.nn.Linear(4, 2)))
    >>> type(model[0]).__name__
    'QuantedLinear'
    """

    def __init__(self, moving_rate: float = 0.9, bit_length: int = 8, dtype: str = "float32",
                 name: str | None = None) -> None:
        if not isinstance(moving_rate, (int, float)) or not 0.0 <= moving_rate <= 1.0:
            raise ValueError(f"FakeQuanterWithAbsMaxObserver: moving_rate must be a number in [0, 1], but received "
                             f"{moving_rate!r}.")
        if not isinstance(bit_length, int) or isinstance(bit_length, bool) or not 2 <= bit_length <= 16:
            raise ValueError(f"FakeQuanterWithAbsMaxObserver: bit_length must be an int from 2 to 16, but received "
                             f"{bit_length!r}.")
        super().__init__(name=name, moving_rate=moving_rate, bit_length=bit_length, dtype=dtype)

    def _get_class(self) -> type:
        return FakeQuanterWithAbsMaxObserverLayer


class FakeQuanterWithAbsMaxObserverLayer(BaseQuanter):
    """The quanter of one layer (see ``FakeQuanterWithAbsMaxObserver``)."""

    def __init__(self, layer: Layer, name: str | None = None, moving_rate: float = 0.9, bit_length: int = 8,
                 dtype: str = "float32") -> None:
        super().__init__()
        self._moving_rate = moving_rate
        self._bit_length = bit_length
        prefix = name if name else "quant_dequant"  # (the parameters' names, as Paddle's)

        def make(what: str, value: float) -> Any:
            attr = ParamAttr(name=unique_name.generate(f"{prefix}.{what}"), initializer=Constant(value),
                             trainable=False)
            return self.create_parameter(shape=[1], attr=attr, dtype=dtype)

        self._scale, self._state, self._accum = make("scale", 0.001), make("state", 1.0), make("accum", 1.0)
        for p in (self._scale, self._state, self._accum):
            p.stop_gradient = True
            p.trainable = False

    def forward(self, input: Any) -> Any:
        from .._layers import fake_quant_dequant

        if self.training:
            with _ROOT.no_grad():
                r = self._moving_rate
                state = self._state * r + 1.0
                accum = self._accum * r + _ROOT.max(_ROOT.abs(input)).astype(self._accum.dtype)
                self._state._set_value(state)
                self._accum._set_value(accum)
                self._scale._set_value(accum / state)
        return fake_quant_dequant(input, self._scale, self._bit_length)

    def bit_length(self) -> int:
        return self._bit_length

    def quant_axis(self) -> int:
        return -1

    def scales(self) -> Any:
        return self._scale

    def zero_points(self) -> None:
        return None
