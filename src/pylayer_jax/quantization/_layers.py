"""The quantized layers ``QAT`` / ``PTQ`` put in place of Linear and Conv2D (Paddle's ``nn.quant.qat``), the
quantize / dequantize layers ``convert`` makes from quanters (Paddle's ``nn.quant.format``), and the
straight-through fake quantization the quanters apply."""

from __future__ import annotations

import abc
import sys
from typing import Any

from .._pylayer.eager import PyLayer
from ..nn import Layer
from ..nn import functional as F

_ROOT = sys.modules[__name__.split(".")[0]]


class _StraightThrough(PyLayer):
    """``quantized`` forward, the incoming gradient unchanged backward (the straight-through estimator)."""

    @staticmethod
    def forward(ctx: Any, x: Any, quantized: Any) -> Any:
        return quantized

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad


def fake_quant_dequant(x: Any, scale: Any, bit_length: int) -> Any:
    """``x`` clipped to [-scale, scale], rounded to the ``2**(bit_length-1) - 1`` levels of each sign (ties away
    from zero) and scaled back; the gradient passes straight through."""
    bin_cnt = float((1 << (bit_length - 1)) - 1)
    with _ROOT.no_grad():
        s = scale.astype(x.dtype).reshape([])
        clipped = _ROOT.clip(x, -s, s)
        q = clipped * (bin_cnt / s)
        q = _ROOT.sign(q) * _ROOT.floor(_ROOT.abs(q) + 0.5) * s / bin_cnt
    return _StraightThrough.apply(x, q) if not x.stop_gradient else q


class QuantedLinear(Layer):
    """A Linear whose input and weight pass through the quanters of its config."""

    def __init__(self, layer: Layer, q_config: Any) -> None:
        super().__init__()
        self.weight = layer.weight
        self.bias = layer.bias
        self.name = getattr(layer, "name", None)
        self.weight_quanter = None
        self.activation_quanter = None
        if q_config.weight is not None:
            self.weight_quanter = q_config.weight._instance(layer)
        if q_config.activation is not None:
            self.activation_quanter = q_config.activation._instance(layer)
        self.converted = False

    def forward(self, input: Any) -> Any:
        x = input if self.activation_quanter is None else self.activation_quanter(input)
        w = self.weight if self.weight_quanter is None else self.weight_quanter(self.weight)
        return F.linear(x, w, self.bias)

    def weights_to_quanters(self) -> list[tuple[str, str]]:
        return [("weight", "weight_quanter")]

    def activation_quanters(self) -> list[str]:
        return ["activation_quanter"]


class QuantedConv2D(Layer):
    """A Conv2D whose input and weight pass through the quanters of its config."""

    def __init__(self, layer: Layer, q_config: Any) -> None:
        super().__init__()
        for a in ("_groups", "_stride", "_padding", "_padding_mode", "_dilation", "_data_format"):
            setattr(self, a, getattr(layer, a))
        self.weight = layer.weight
        self.bias = layer.bias
        self.weight_quanter = None
        self.activation_quanter = None
        if q_config.weight is not None:
            self.weight_quanter = q_config.weight._instance(layer)
        if q_config.activation is not None:
            self.activation_quanter = q_config.activation._instance(layer)
        self.converted = False

    def forward(self, input: Any) -> Any:
        x = input if self.activation_quanter is None else self.activation_quanter(input)
        w = self.weight if self.weight_quanter is None else self.weight_quanter(self.weight)
        padding = self._padding
        if self._padding_mode != "zeros":
            x = F.pad(x, [self._padding] * 4, mode=self._padding_mode, data_format=self._data_format)
            padding = 0
        return F.conv2d(x, w, bias=self.bias, padding=padding, stride=self._stride, dilation=self._dilation,
                        groups=self._groups, data_format=self._data_format)

    def weights_to_quanters(self) -> list[tuple[str, str]]:
        return [("weight", "weight_quanter")]

    def activation_quanters(self) -> list[str]:
        return ["activation_quanter"]


def _levels(bit_length: int) -> tuple[int, int]:
    if not isinstance(bit_length, int) or isinstance(bit_length, bool) or not 2 <= bit_length <= 16:
        raise NotImplementedError(f"paddle.quantization: bit_length must be an int from 2 to 16 (float8 formats are "
                                  f"not supported here), but received {bit_length!r}.")
    qmax = (1 << (bit_length - 1)) - 1
    return -qmax - 1, qmax


class _Linear(Layer):
    """The scales and zero points of a linear (de)quantization."""

    def __init__(self, scales: Any, zero_point: Any = None, quant_axis: int | None = None, bit_length: int = 8,
                 group_size: int = 128) -> None:
        super().__init__()
        self._group_size = group_size
        s = _ROOT.to_tensor(scales, dtype="float32") if not isinstance(scales, _ROOT.Tensor) else \
            scales.astype("float32")
        self._scales = self.create_parameter(shape=s.shape, dtype="float32", is_bias=True)
        self._scales._set_value(s)
        self._scales.stop_gradient = True
        z = _ROOT.zeros_like(s) if zero_point is None else (
            zero_point.astype("float32") if isinstance(zero_point, _ROOT.Tensor)
            else _ROOT.to_tensor(zero_point, dtype="float32"))
        self._zero_point = self.create_parameter(shape=z.shape, dtype="float32", is_bias=True)
        self._zero_point._set_value(z)
        self._zero_point.stop_gradient = True
        self._quant_axis = -1 if quant_axis is None else quant_axis
        self._bit_length = bit_length
        self._qmin, self._qmax = _levels(bit_length)

    def _scale_for(self, x: Any) -> Any:
        s = self._scales
        if s.ndim > 1:  # group-wise: one scale per group of input channels (dim 0) and output channel
            return _ROOT.repeat_interleave(s, self._group_size, 0)
        if self._quant_axis >= 0 and s.size > 1:
            shape = [1] * x.ndim
            shape[self._quant_axis] = s.size
            s = s.reshape(shape)
        elif s.size == 1:
            s = s.reshape([])
        return s


    def _zero_for(self, x: Any) -> Any:
        z = self._zero_point
        if z.ndim > 1:
            return _ROOT.repeat_interleave(z, self._group_size, 0)
        return z.reshape(self._scale_for(x).shape) if z.size == self._scales.size else z


class LinearQuanter(_Linear):
    """Quantize: ``clip(round(x / scale * qmax) + zero_point, qmin, qmax)`` (ties to even)."""

    def forward(self, input: Any) -> Any:
        with _ROOT.no_grad():
            x = input.astype("float32")
            s, z = self._scale_for(x), self._zero_for(x)
            q = _ROOT.clip(_ROOT.round(x / s * self._qmax) + z, self._qmin, self._qmax)
        return q.astype(input.dtype)

    @staticmethod
    def from_quanter(quanter: Any) -> LinearQuanter:
        return LinearQuanter(quanter.scales(), zero_point=quanter.zero_points(), quant_axis=quanter.quant_axis(),
                             bit_length=quanter.bit_length(), group_size=getattr(quanter, "group_size", 128))


class LinearDequanter(_Linear):
    """Dequantize: ``(q - zero_point) * scale / qmax``."""

    def forward(self, input: Any) -> Any:
        x = input.astype("float32")
        return ((x - self._zero_for(x)) * self._scale_for(x) / self._qmax).astype(input.dtype)

    @staticmethod
    def from_quanter(quanter: Any) -> LinearDequanter:
        return LinearDequanter(quanter.scales(), zero_point=quanter.zero_points(), quant_axis=quanter.quant_axis(),
                               bit_length=quanter.bit_length(), group_size=getattr(quanter, "group_size", 128))


class LinearQuanterDequanter(Layer):
    """A quantize then a dequantize (either may be None)."""

    def __init__(self, quanter: Layer | None, dequanter: Layer | None) -> None:
        super().__init__()
        self._quanter = quanter
        self._dequanter = dequanter

    def forward(self, input: Any) -> Any:
        out = input
        if self._quanter is not None:
            out = self._quanter(out)
        if self._dequanter is not None:
            out = self._dequanter(out)
        return out

    @staticmethod
    def from_quanter(quanter: Any) -> LinearQuanterDequanter:
        if quanter is None:
            raise ValueError("LinearQuanterDequanter.from_quanter: quanter must not be None.")
        return LinearQuanterDequanter(LinearQuanter.from_quanter(quanter), LinearDequanter.from_quanter(quanter))


QUANTED = (QuantedLinear, QuantedConv2D)


def convert_layer(layer: Any, remain_weight: bool) -> None:
    """Turn a quantized layer's quanters into quantize / dequantize layers; its weights become the quantized
    integers (kept as floats) unless ``remain_weight``."""
    if layer.converted:
        raise RuntimeError(f"{type(layer).__name__}: the model should be converted only once.")
    for weight_name, quanter_name in layer.weights_to_quanters():
        qdq = _to_qdq(layer, quanter_name)
        if qdq is not None and not remain_weight:
            weight = getattr(layer, weight_name)
            weight._set_value(qdq._quanter(weight))
            qdq._quanter = None
    for quanter_name in layer.activation_quanters():
        _to_qdq(layer, quanter_name)
    layer.converted = True


def _to_qdq(layer: Any, quanter_name: str) -> Any:
    quanter = getattr(layer, quanter_name, None)
    if quanter is None:
        return None
    qdq = LinearQuanterDequanter.from_quanter(quanter)
    setattr(layer, quanter_name, qdq)
    return qdq


class ConvertibleQuantedLayer(Layer, metaclass=abc.ABCMeta):
    """A user's quantized layer that ``convert`` can turn into quantize / dequantize layers: it names its
    (weight, quanter) pairs and its activation quanters."""

    def __init__(self) -> None:
        super().__init__()
        self.converted = False

    @abc.abstractmethod
    def weights_to_quanters(self) -> list[tuple[str, str]]:
        """(weight attribute, quanter attribute) pairs."""

    @abc.abstractmethod
    def activation_quanters(self) -> list[str]:
        """The attributes holding activation quanters."""

    def _convert(self, remain_weight: bool = False) -> None:
        convert_layer(self, remain_weight)
