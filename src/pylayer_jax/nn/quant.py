"""``paddle.nn.quant``: the layers quantization puts in a model's code: ``Stub`` (a placeholder that ``QAT`` /
``PTQ`` replace by a ``QuanterStub`` observing the input of a functional call) and the functional layers (``add``,
``matmul``, ...: a functional call as a Layer, so that it can be configured like one).

Paddle's ``weight_quantize``, ``weight_dequantize``, ``weight_only_linear`` and ``llm_int8_linear`` (GPU weight-only
kernels in a GPU's packed layout; Paddle 3.3.1 has no CPU kernel but for ``weight_quantize`` of float16 weights) are
not provided.
"""

from __future__ import annotations

from typing import Any

from .._api import functional as _F
from .layer.layers import Layer

__all__ = ["Stub"]


class Stub(Layer):
    """An identity placeholder: ``QAT.quantize`` / ``PTQ.quantize`` replace it by a ``QuanterStub`` whose observer
    (``observer``, or the configuration's activation quanter when None) observes / fake-quantizes what passes."""

    def __init__(self, observer: Any = None) -> None:
        super().__init__()
        self._observer = observer

    def forward(self, input: Any) -> Any:  # noqa: A002
        return input


class QuanterStub(Layer):
    """What a ``Stub`` becomes in a quantized model: the identity with an observer of its input (the stub's own
    observer factory, else the configuration's activation one; none: the identity)."""

    def __init__(self, layer: Stub, q_config: Any) -> None:
        super().__init__()
        self._observer = None
        if layer._observer is not None:
            self._observer = layer._observer._instance(layer)
        elif q_config.activation is not None:
            self._observer = q_config.activation._instance(layer)

    def forward(self, input: Any) -> Any:  # noqa: A002
        return self._observer(input) if self._observer is not None else input


class FloatFunctionalLayer(Layer):
    """The base of the functional layers (a functional call made a Layer)."""


class add(FloatFunctionalLayer):  # noqa: N801  (Paddle's name)
    """``paddle.add`` as a Layer."""

    def forward(self, x: Any, y: Any, name: str | None = None) -> Any:
        return _F.add(x, y)


class subtract(FloatFunctionalLayer):  # noqa: N801
    """``paddle.subtract`` as a Layer."""

    def forward(self, x: Any, y: Any, name: str | None = None) -> Any:
        return _F.subtract(x, y)


class multiply(FloatFunctionalLayer):  # noqa: N801
    """``paddle.multiply`` as a Layer."""

    def forward(self, x: Any, y: Any, name: str | None = None) -> Any:
        return _F.multiply(x, y)


class divide(FloatFunctionalLayer):  # noqa: N801
    """``paddle.divide`` as a Layer."""

    def forward(self, x: Any, y: Any, name: str | None = None) -> Any:
        return _F.divide(x, y)


class reshape(FloatFunctionalLayer):  # noqa: N801
    """``paddle.reshape`` as a Layer."""

    def forward(self, x: Any, shape: Any, name: str | None = None) -> Any:
        return _F.reshape(x, shape)


class transpose(FloatFunctionalLayer):  # noqa: N801
    """``paddle.transpose`` as a Layer."""

    def forward(self, x: Any, perm: Any, name: str | None = None) -> Any:
        return _F.transpose(x, perm)


class concat(FloatFunctionalLayer):  # noqa: N801
    """``paddle.concat`` as a Layer."""

    def forward(self, x: Any, axis: Any = 0, name: str | None = None) -> Any:
        return _F.concat(x, axis)


class flatten(FloatFunctionalLayer):  # noqa: N801
    """``paddle.flatten`` as a Layer."""

    def forward(self, x: Any, start_axis: int = 0, stop_axis: int = -1, name: str | None = None) -> Any:
        return _F.flatten(x, start_axis, stop_axis)


class matmul(FloatFunctionalLayer):  # noqa: N801
    """``paddle.matmul`` as a Layer."""

    def forward(self, x: Any, y: Any, transpose_x: bool = False, transpose_y: bool = False,
                name: str | None = None) -> Any:
        return _F.matmul(x, y, transpose_x, transpose_y)
