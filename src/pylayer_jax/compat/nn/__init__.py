"""``paddle.compat.nn``: layers with PyTorch's signatures: ``Unfold``, ``Linear`` (weight [out, in], PyTorch's
initialization), ``Softmax(dim)``, ``AvgPool1D/2D/3D`` (``count_include_pad``; also named ``AvgPool1d`` ...),
``MultiheadAttention``; ``functional`` holds the functions. Paddle's keyword names are refused with a TypeError
naming the ``paddle.nn`` class to use instead."""

from __future__ import annotations

import math
from typing import Any

from ... import nn as _nn
from ...nn import functional as _F
from .._forbid import forbid
from . import functional as functional
from ._attention import MultiheadAttention as MultiheadAttention

__all__ = ["Unfold", "Linear", "Softmax", "AvgPool1D", "AvgPool2D", "AvgPool3D", "AvgPool1d", "AvgPool2d",
           "AvgPool3d", "MultiheadAttention"]


def _tuple(x: Any, n: int) -> tuple:
    return tuple(x) if isinstance(x, (list, tuple)) else (x,) * n


class AvgPool1D(_nn.Layer):
    """Average pooling over the last dim of [N, C, L] (``count_include_pad``: the padding counts in the
    average)."""

    @forbid({"exclusive", "name"}, "nn.AvgPool1D", "paddle.nn.AvgPool1D")
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _tuple(kernel_size, 1)
        self.stride = _tuple(stride if stride is not None else kernel_size, 1)
        self.padding = _tuple(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input: Any) -> Any:
        return _F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, not self.count_include_pad,
                             self.ceil_mode)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AvgPoolND(_nn.Layer):
    _fn: Any = None

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Any) -> Any:
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                              not self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2D(_AvgPoolND):
    """Average pooling over [N, C, H, W] (``divisor_override``: the divisor of every window)."""

    _fn = staticmethod(_F.avg_pool2d)

    @forbid({"exclusive", "data_format", "name"}, "nn.AvgPool2D", "paddle.nn.AvgPool2D")
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


class AvgPool3D(_AvgPoolND):
    """Average pooling over [N, C, D, H, W] (``divisor_override``: the divisor of every window)."""

    _fn = staticmethod(_F.avg_pool3d)

    @forbid({"exclusive", "data_format", "name"}, "nn.AvgPool3D", "paddle.nn.AvgPool3D")
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


class Unfold(_nn.Unfold):
    """``paddle.nn.Unfold`` with PyTorch's argument names and order (kernel_size, dilation, padding, stride)."""

    @forbid({"kernel_sizes", "dilations", "paddings", "strides"}, "nn.Unfold", "paddle.nn.Unfold")
    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> None:
        super().__init__(kernel_size, dilation, padding, stride)
        self._torch_args = (kernel_size, dilation, padding, stride)

    def forward(self, input: Any) -> Any:
        k, d, p, s = self._torch_args
        return functional.unfold(input, k, dilation=d, padding=p, stride=s)


class Linear(_nn.Layer):
    """``input @ weight.T + bias`` with ``weight`` of shape [out_features, in_features], initialized as Paddle
    3.3.1's (Kaiming-uniform with a = sqrt(5) and Paddle's fan-in, the weight's first dim: uniform in
    +-1/sqrt(out_features); the bias uniform in +-1/sqrt(in_features))."""

    @forbid({"weight_attr", "bias_attr", "name"}, "nn.Linear", "paddle.nn.Linear")
    def __init__(self, in_features: int, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        from ..._runtime.dtypes import get_default_dtype

        self._dtype = get_default_dtype() if dtype is None else dtype
        self.in_features, self.out_features = in_features, out_features
        # kaiming_uniform_(a=sqrt(5)) with Paddle's fan-in (a 2-D weight's first dim, here out_features)
        bound_w = 1.0 / math.sqrt(out_features) if out_features > 0 else 0.0
        bound_b = 1.0 / math.sqrt(in_features) if in_features > 0 else 0.0
        self.weight = self.create_parameter(shape=[out_features, in_features], dtype=self._dtype, device=device,
                                            default_initializer=_nn.initializer.Uniform(-bound_w, bound_w))
        self.bias = None
        if bias:
            self.bias = self.create_parameter(shape=[out_features], dtype=self._dtype, is_bias=True, device=device,
                                              default_initializer=_nn.initializer.Uniform(-bound_b, bound_b))

    def forward(self, input: Any) -> Any:
        return _F.linear(input, self.weight.T, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Softmax(_nn.Layer):
    """Softmax along ``dim`` (None: PyTorch's legacy choice, dim 0 for 0-D, 1-D and 3-D inputs, else 1)."""

    @forbid({"axis"}, "nn.Softmax", "paddle.nn.Softmax")
    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self._dim = dim
        self._dtype = None

    def forward(self, input: Any) -> Any:
        return functional.softmax(input, self._dim)

    def extra_repr(self) -> str:
        return f"dim={self._dim}"


AvgPool1d = AvgPool1D
AvgPool2d = AvgPool2D
AvgPool3d = AvgPool3D
