"""Convolution layers ``Conv1D/2D/3D`` and their transposes (layer L5), over ``nn.functional``."""

from __future__ import annotations

from typing import Any

from ..._runtime import dtypes as _dtypes
from .. import _functional as F
from ..initializer import Normal
from ._layers import Layer

_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}
_MODES = ("zeros", "reflect", "replicate", "circular")


def _as_list(v: Any, n: int, what: str, api: str) -> list[int]:
    if isinstance(v, int) and not isinstance(v, bool):
        return [v] * n
    if isinstance(v, list | tuple) and len(v) == n and all(isinstance(i, int) for i in v):
        return list(v)
    raise ValueError(f"{api}: {what} must be an int or a list of {n} ints, but received {v!r}.")


class _ConvNd(Layer):
    _dims = 2
    _transposed = False
    _fn: Any = None

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 output_padding: Any = 0, dilation: Any = 1, groups: int = 1, padding_mode: str = "zeros",
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str | None = None, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        api, n = type(self).__name__, self._dims
        if device is not None:
            raise NotImplementedError(f"{api}: device={device!r} is not supported; create the layer without device "
                                      "(parameters live on the default device).")
        if not bias:
            bias_attr = False
        data_format = data_format or _FORMATS[n][0]
        if weight_attr is False:
            raise ValueError(f"{api}: weight_attr must not be False (a convolution needs its weight).")
        for v, what in ((in_channels, "in_channels"), (out_channels, "out_channels"), (groups, "groups")):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"{api}: {what} must be a positive int, but received {v!r}.")
        if isinstance(padding, str) and padding.upper() not in ("SAME", "VALID"):
            raise ValueError(f"{api}: padding must be 'same', 'valid', an int or a list of sizes, but received "
                             f"{padding!r}.")
        if padding_mode not in _MODES:
            raise ValueError(f"{api}: padding_mode must be one of {_MODES}, but received {padding_mode!r}.")
        if padding_mode != "zeros" and not isinstance(padding, int):
            raise TypeError(f"{api}: padding must be an int when padding_mode is {padding_mode!r}, but received "
                            f"{padding!r}.")
        if padding_mode != "zeros" and self._transposed:
            raise ValueError(f"{api}: only padding_mode='zeros' is supported for transposed convolutions, "
                             f"but received {padding_mode!r}.")
        if data_format not in _FORMATS[n]:
            raise ValueError(f"{api}: data_format must be one of {_FORMATS[n]}, but received {data_format!r}.")
        if in_channels % groups:
            raise ValueError(f"{api}: in_channels ({in_channels}) must be divisible by groups ({groups}).")
        if self._transposed and out_channels % groups:
            raise ValueError(f"{api}: out_channels ({out_channels}) must be divisible by groups ({groups}).")
        self._in_channels, self._out_channels, self._groups = in_channels, out_channels, groups
        self._kernel_size = _as_list(kernel_size, n, "kernel_size", api)
        self._stride = _as_list(stride, n, "stride", api)
        self._dilation = _as_list(dilation, n, "dilation", api)
        self._padding, self._padding_mode, self.output_padding = padding, padding_mode, output_padding
        self._data_format = data_format
        self._channel_dim = 1 if data_format[1] == "C" else n + 1
        self._param_attr, self._bias_attr = weight_attr, bias_attr
        self._dtype = str(_dtypes.to_np(dtype)) if dtype is not None else _dtypes.get_default_dtype()
        if self._transposed:
            shape, init = [in_channels, out_channels // groups, *self._kernel_size], None
        else:
            shape = [out_channels, in_channels // groups, *self._kernel_size]
            fan = in_channels
            for k in self._kernel_size:
                fan *= k
            init = Normal(0.0, (2.0 / fan) ** 0.5)
        self.weight = self.create_parameter(shape, weight_attr, self._dtype, False, default_initializer=init)
        self.bias = self.create_parameter([out_channels], bias_attr, self._dtype, True)

    def _check_input(self, x: Any) -> None:
        api, shape = type(self).__name__, list(x.shape)
        if len(shape) != self._dims + 2:
            raise ValueError(f"{api}: the input must be {self._dims + 2}-D ({self._data_format}), but received "
                             f"shape {shape}.")
        if shape[self._channel_dim] != self._in_channels:
            raise ValueError(f"{api}: the input has {shape[self._channel_dim]} channels on axis "
                             f"{self._channel_dim} but the layer expects in_channels={self._in_channels}.")

    def forward(self, x: Any, output_size: Any = None) -> Any:
        self._check_input(x)
        if self._transposed:
            # as Paddle's Conv2DTranspose and Conv3DTranspose: an output_size given at the call replaces the layer's
            # output_padding (Conv1DTranspose passes both, and the functional refuses the pair)
            output_padding = 0 if output_size is not None and self._dims > 1 else self.output_padding
            return type(self)._fn(x, self.weight, bias=self.bias, stride=self._stride, padding=self._padding,
                                  output_padding=output_padding, dilation=self._dilation, groups=self._groups,
                                  output_size=output_size, data_format=self._data_format)
        if output_size is not None:
            raise TypeError(f"{type(self).__name__}.forward: output_size is only for transposed convolutions.")
        padding = self._padding
        if self._padding_mode != "zeros":
            x = F.pad(x, [self._padding] * (2 * self._dims), mode=self._padding_mode, data_format=self._data_format)
            padding = 0
        return type(self)._fn(x, self.weight, bias=self.bias, stride=self._stride, padding=padding,
                              dilation=self._dilation, groups=self._groups, data_format=self._data_format)

    def extra_repr(self) -> str:
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * self._dims:
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            s += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            s += f", output_padding={self.output_padding}"
        if self._dilation != [1] * self._dims:
            s += f", dilation={self._dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        return s + f", data_format={self._data_format}"


def _conv_class(name: str, dims: int, transposed: bool, fn: Any) -> type:
    doc = (f"{dims}-D {'transposed ' if transposed else ''}convolution with Paddle's weight layout "
           f"{'[in, out/groups, *k]' if transposed else '[out, in/groups, *k]'}; "
           + ("the weight starts XavierNormal (Paddle's global default), " if transposed else
              "the weight starts Normal(0, sqrt(2 / (in_channels * prod(kernel_size)))), ")
           + "the bias at zeros, as in Paddle.")
    if transposed:
        def init(self: Any, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, dilation: Any = 1, groups: int = 1,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = _FORMATS[dims][0]) -> None:
            _ConvNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding,
                             dilation, groups, "zeros", weight_attr, bias_attr, data_format)
    else:
        def init(self: Any, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, *, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = _FORMATS[dims][0]) -> None:
            _ConvNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, 0, dilation, groups,
                             padding_mode, weight_attr, bias_attr, data_format, bias, device, dtype)
    return type(name, (_ConvNd,), {"__init__": init, "__doc__": doc, "_dims": dims, "_transposed": transposed,
                                   "_fn": staticmethod(fn), "__module__": __name__})


Conv1D = _conv_class("Conv1D", 1, False, F.conv1d)
Conv2D = _conv_class("Conv2D", 2, False, F.conv2d)
Conv3D = _conv_class("Conv3D", 3, False, F.conv3d)
Conv1DTranspose = _conv_class("Conv1DTranspose", 1, True, F.conv1d_transpose)
Conv2DTranspose = _conv_class("Conv2DTranspose", 2, True, F.conv2d_transpose)
Conv3DTranspose = _conv_class("Conv3DTranspose", 3, True, F.conv3d_transpose)

# Paddle's lowercase-d names are the same classes
Conv1d, Conv2d, Conv3d = Conv1D, Conv2D, Conv3D
