"""Normalisation layers (layer L5): ``BatchNorm1D/2D/3D``, ``LayerNorm``, ``GroupNorm``,
``InstanceNorm1D/2D/3D``, ``LocalResponseNorm``, over ``nn.functional``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..._runtime import dtypes as _dtypes
from .. import _functional as F
from ..initializer import Constant
from ._layers import Layer
from ._param import ParamAttr

_BN_FORMATS = {1: ("NC", "NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _dtype(dtype: Any) -> str:
    return str(_dtypes.to_np(dtype)) if dtype is not None else _dtypes.get_default_dtype()


def _no_device(api: str, device: Any) -> None:
    if device is not None:
        raise NotImplementedError(f"{api}: device={device!r} is not supported; create the layer without device "
                                  "(parameters live on the default device).")


def _check_rank(api: str, x: Any, ranks: tuple[int, ...]) -> None:
    if len(x.shape) not in ranks:
        want = " or ".join(f"{r}-D" for r in ranks)
        raise ValueError(f"{api}: the input must be {want}, but received shape {list(x.shape)}.")


class _BatchNormBase(Layer):
    _dims = 2

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str | None = None, use_global_stats: bool | None = None,
                 name: str | None = None) -> None:
        super().__init__()
        api = type(self).__name__
        if not isinstance(num_features, int) or isinstance(num_features, bool) or num_features <= 0:
            raise ValueError(f"{api}: num_features must be a positive int, but received {num_features!r}.")
        data_format = data_format or _BN_FORMATS[self._dims][-2 if self._dims == 1 else 0]
        if data_format not in _BN_FORMATS[self._dims]:
            raise ValueError(f"{api}: data_format must be one of {_BN_FORMATS[self._dims]}, but received "
                             f"{data_format!r}.")
        self._num_features, self._momentum, self._epsilon = num_features, momentum, epsilon
        self._weight_attr, self._bias_attr, self._use_global_stats = weight_attr, bias_attr, use_global_stats
        self._data_format, self._name = data_format, name
        self._dtype = _dtypes.get_default_dtype()
        shape = [num_features]
        self.weight = None if weight_attr is False else self.create_parameter(
            shape, weight_attr, self._dtype, False, default_initializer=Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter(shape, bias_attr, self._dtype, True)
        # running statistics are non-trainable parameters in Paddle (state_dict keys ``_mean``/``_variance``)
        self._mean = self.create_parameter(shape, ParamAttr(name=f"{name}_mean" if name else None,
                                                            initializer=Constant(0.0), trainable=False),
                                           self._dtype)
        self._mean.stop_gradient = True
        self._variance = self.create_parameter(shape, ParamAttr(name=f"{name}_variance" if name else None,
                                                                initializer=Constant(1.0), trainable=False),
                                               self._dtype)
        self._variance.stop_gradient = True

    def forward(self, input: Any) -> Any:  # noqa: A002
        api = type(self).__name__
        _check_rank(api, input, (2, 3) if self._dims == 1 else (self._dims + 2,))
        fmt = self._data_format
        if self._dims == 1:
            fmt = "NCL" if fmt in ("NC", "NCL") else "NLC"
        caxis = 1 if fmt[1] == "C" else len(input.shape) - 1
        if input.shape[caxis] != self._num_features:
            raise ValueError(f"{api}: the input has {input.shape[caxis]} channels on axis {caxis} but the layer "
                             f"expects num_features={self._num_features}.")
        # Paddle's kernels take momentum as a float32 attribute
        return F.batch_norm(input, self._mean, self._variance, weight=self.weight, bias=self.bias,
                            training=self.training, momentum=float(np.float32(self._momentum)), epsilon=self._epsilon,
                            data_format=fmt if len(input.shape) > 2 else "NCL",
                            use_global_stats=self._use_global_stats)

    def extra_repr(self) -> str:
        s = f"num_features={self._num_features}, momentum={self._momentum}, epsilon={self._epsilon}"
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        if self._name is not None:
            s += f", name={self._name}"
        return s


class BatchNorm1D(_BatchNormBase):
    """Batch normalisation of ``[N, C]`` or ``[N, C, L]`` input; running statistics ``_mean``/``_variance``
    updated ``momentum * running + (1 - momentum) * batch`` in training, used in eval, as in Paddle."""

    _dims = 1


class BatchNorm2D(_BatchNormBase):
    """Batch normalisation of ``[N, C, H, W]`` input (see ``BatchNorm1D``)."""

    _dims = 2


class BatchNorm3D(_BatchNormBase):
    """Batch normalisation of ``[N, C, D, H, W]`` input (see ``BatchNorm1D``)."""

    _dims = 3


class LayerNorm(Layer):
    """Normalise over the trailing ``normalized_shape`` axes; weight starts at ones, bias at zeros
    (``weight_attr``/``bias_attr`` False drop them), as in Paddle."""

    def __init__(self, normalized_shape: Any, epsilon: float = 1e-05, *, elementwise_affine: bool = True,
                 bias: bool = True, device: Any = None, dtype: Any = None, weight_attr: Any = None,
                 bias_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        _no_device("LayerNorm", device)
        if not elementwise_affine:
            weight_attr = bias_attr = False
        if not bias:
            bias_attr = False
        if isinstance(normalized_shape, int) and not isinstance(normalized_shape, bool):
            normalized_shape = [normalized_shape]
        if not isinstance(normalized_shape, list | tuple) or not all(
                isinstance(d, int) and d > 0 for d in normalized_shape):
            raise ValueError(f"LayerNorm: normalized_shape must be a positive int or a list of them, but received "
                             f"{normalized_shape!r}.")
        self._normalized_shape, self._epsilon = list(normalized_shape), epsilon
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self._dtype = _dtype(dtype)
        shape = [math.prod(normalized_shape)]
        self.weight = None if weight_attr is False else self.create_parameter(
            shape, weight_attr, self._dtype, False, default_initializer=Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter(shape, bias_attr, self._dtype, True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        n = len(self._normalized_shape)
        if list(input.shape[len(input.shape) - n:]) != self._normalized_shape or len(input.shape) < n:
            raise ValueError(f"LayerNorm: the input's trailing axes {list(input.shape)} must equal normalized_shape "
                             f"{self._normalized_shape}.")
        flat = n == 1  # (the parameters' own shape: no reshape to record every step)
        w = None if self.weight is None else self.weight if flat else self.weight.reshape(self._normalized_shape)
        b = None if self.bias is None else self.bias if flat else self.bias.reshape(self._normalized_shape)
        return F.layer_norm(input, self._normalized_shape, w, b, self._epsilon)

    def extra_repr(self) -> str:
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class GroupNorm(Layer):
    """Normalise over ``num_groups`` groups of channels; weight ones, bias zeros, as in Paddle."""

    def __init__(self, num_groups: int, num_channels: int, epsilon: float = 1e-05, *, affine: bool = True,
                 device: Any = None, dtype: Any = None, weight_attr: Any = None, bias_attr: Any = None,
                 data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        _no_device("GroupNorm", device)
        if not affine:
            weight_attr = bias_attr = False
        if not isinstance(num_groups, int) or num_groups <= 0 or not isinstance(num_channels, int) \
                or num_channels % num_groups:
            raise ValueError(f"GroupNorm: num_channels ({num_channels!r}) must be divisible by num_groups "
                             f"({num_groups!r}), both positive ints.")
        if data_format not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError(f"GroupNorm: unsupported data_format {data_format!r}.")
        self._num_groups, self._num_channels, self._epsilon = num_groups, num_channels, epsilon
        self._data_format = data_format
        self._dtype = _dtype(dtype)
        self.weight = None if weight_attr is False else self.create_parameter(
            [num_channels], weight_attr, self._dtype, False, default_initializer=Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter([num_channels], bias_attr, self._dtype, True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        _check_rank("GroupNorm", input, (3, 4, 5))
        fmt = "NCHW" if self._data_format[1] == "C" else "NHWC"
        return F.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias, fmt)

    def extra_repr(self) -> str:
        return f"num_groups={self._num_groups}, num_channels={self._num_channels}, epsilon={self._epsilon}"


class _InstanceNormBase(Layer):
    _dims = 2

    def __init__(self, num_features: int, epsilon: float = 1e-05, momentum: float = 0.9, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str | None = None, name: str | None = None) -> None:
        super().__init__()
        api = type(self).__name__
        if (weight_attr is False) != (bias_attr is False):
            raise ValueError(f"{api}: weight_attr and bias_attr must be False together, but received "
                             f"{weight_attr!r} and {bias_attr!r}.")
        self._num_features, self._epsilon, self._momentum = num_features, epsilon, momentum
        self._data_format = data_format or ("NCL", "NCHW", "NCDHW")[self._dims - 1]
        self._dtype = _dtypes.get_default_dtype()
        if weight_attr is False:
            self.scale = self.bias = None
        else:
            self.scale = self.create_parameter([num_features], weight_attr, self._dtype, False,
                                               default_initializer=Constant(1.0))
            self.bias = self.create_parameter([num_features], bias_attr, self._dtype, True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        _check_rank(type(self).__name__, input, (self._dims + 2,))
        return F.instance_norm(input, weight=self.scale, bias=self.bias, eps=self._epsilon,
                               momentum=self._momentum, data_format=self._data_format)

    def extra_repr(self) -> str:
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    """Instance normalisation of ``[N, C, L]`` input; ``scale`` ones and ``bias`` zeros, as in Paddle."""

    _dims = 1


class InstanceNorm2D(_InstanceNormBase):
    """Instance normalisation of ``[N, C, H, W]`` input (see ``InstanceNorm1D``)."""

    _dims = 2


class InstanceNorm3D(_InstanceNormBase):
    """Instance normalisation of ``[N, C, D, H, W]`` input (see ``InstanceNorm1D``)."""

    _dims = 3


class LocalResponseNorm(Layer):
    """``x / (k + alpha / size * sum of x^2 over size neighbouring channels) ** beta`` (no parameters)."""

    def __init__(self, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1.0,
                 data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k, self.data_format, self.name = size, alpha, beta, k, data_format, name

    def forward(self, input: Any) -> Any:  # noqa: A002
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k, self.data_format)

    def extra_repr(self) -> str:
        s = f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
        if self.data_format != "NCHW":
            s += f", data_format={self.data_format}"
        return s + (f", name={self.name}" if self.name is not None else "")
