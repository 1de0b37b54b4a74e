"""More normalisation layers (layer L5): the old-style ``paddle.nn.BatchNorm`` (``act``, ``is_test``,
``data_layout``, ``trainable_statistics``), ``SyncBatchNorm`` (one process: BatchNorm over the local
batch, with ``convert_sync_batchnorm``) and ``SpectralNorm``, over ``nn.functional``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._runtime import dtypes as _dtypes
from .. import _functional as F
from ..initializer import Constant, Normal
from ._layers import Layer
from ._norm import _BatchNormBase
from ._param import ParamAttr

# the activations Paddle's old layers accept by name (``act='relu'``): an op applied to the output
_ACTS = ("relu", "relu6", "sigmoid", "tanh", "softmax", "log_softmax", "leaky_relu", "elu", "selu", "gelu", "silu",
         "swish", "mish", "hardswish", "hardsigmoid", "softplus", "softsign", "tanhshrink", "log_sigmoid")
_SYNC_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


class BatchNorm(Layer):
    """Paddle's old-style batch normalisation over axis 1 (``data_layout='NCHW'``) or the last axis
    (``'NHWC'``) of a 2-D to 5-D input, followed by the activation ``act`` (a name such as ``'relu'``).

    Parameters have ``dtype`` (float32 unless given, whatever the default dtype) and the input must
    have it too, as in Paddle. ``is_test=True`` starts the layer in eval mode; in eval mode the running
    statistics are used, unless ``trainable_statistics=True`` (then the batch's, and the running ones
    are updated, as Paddle's kernel does for an input that needs a gradient). ``use_global_stats=True`` always uses the running statistics.
    ``moving_mean_name`` / ``moving_variance_name`` name the running-statistics parameters.
    """

    def __init__(self, num_channels: int, act: str | None = None, is_test: bool = False, momentum: float = 0.9,
                 epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None, dtype: Any = "float32",
                 data_layout: str = "NCHW", in_place: bool = False, moving_mean_name: str | None = None,
                 moving_variance_name: str | None = None, do_model_average_for_mean_and_var: bool = True,
                 use_global_stats: bool = False, trainable_statistics: bool = False) -> None:
        super().__init__()
        if not isinstance(num_channels, int) or isinstance(num_channels, bool) or num_channels <= 0:
            raise ValueError(f"BatchNorm: num_channels must be a positive int, but received {num_channels!r}.")
        if act is not None and act not in _ACTS:
            raise ValueError(f"BatchNorm: act must be None or one of {', '.join(_ACTS)}, but received {act!r}.")
        if data_layout not in ("NCHW", "NHWC"):
            raise ValueError(f"BatchNorm: data_layout must be 'NCHW' or 'NHWC', but received {data_layout!r}.")
        dt = str(_dtypes.to_np(dtype))
        self._dtype = "float32" if dt == "float16" else dt  # (as Paddle: float16 parameters are float32)
        self._param_attr, self._bias_attr, self._act = param_attr, bias_attr, act
        self._num_channels, self._in_place, self._data_layout = num_channels, in_place, data_layout
        self._momentum, self._epsilon, self._is_test = momentum, epsilon, is_test
        self._use_global_stats, self._trainable_statistics = use_global_stats, trainable_statistics
        shape = [num_channels]
        self.weight = None if param_attr is False else self.create_parameter(
            shape, param_attr, self._dtype, False, default_initializer=Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter(shape, bias_attr, self._dtype, True)
        avg = do_model_average_for_mean_and_var
        self._mean = self.create_parameter(shape, ParamAttr(name=moving_mean_name, initializer=Constant(0.0),
                                                            trainable=False, do_model_average=avg), self._dtype)
        self._mean.stop_gradient = True
        self._variance = self.create_parameter(shape, ParamAttr(name=moving_variance_name, initializer=Constant(1.0),
                                                                trainable=False, do_model_average=avg), self._dtype)
        self._variance.stop_gradient = True
        self.training = not is_test

    def forward(self, input: Any) -> Any:  # noqa: A002
        shape = list(input.shape)
        if not 2 <= len(shape) <= 5:
            raise ValueError(f"BatchNorm: the input must be 2-D to 5-D, but received shape {shape}.")
        caxis = 1 if self._data_layout == "NCHW" else len(shape) - 1
        if shape[caxis] != self._num_channels:
            raise ValueError(f"BatchNorm: the input has {shape[caxis]} channels on axis {caxis} "
                             f"(data_layout={self._data_layout}) but the layer has num_channels={self._num_channels}.")
        if str(_dtypes.to_np(input.dtype)) != self._dtype:
            raise ValueError(f"BatchNorm: the input's dtype {_dtypes.to_np(input.dtype)} differs from the layer's "
                             f"parameters ({self._dtype}); cast the input or create the layer with dtype="
                             f"{str(_dtypes.to_np(input.dtype))!r}.")
        training = self.training or self._trainable_statistics
        out = F.batch_norm(input, self._mean, self._variance, weight=self.weight, bias=self.bias, training=training,
                           momentum=float(np.float32(self._momentum)), epsilon=self._epsilon,
                           data_format=self._data_layout,
                           # (False is "not the running statistics": the batch's only while training, as in Paddle)
                           use_global_stats=self._use_global_stats or None)
        return out if self._act is None else getattr(F, self._act)(out)


class SyncBatchNorm(_BatchNormBase):
    """Batch normalisation that, across devices, would share the batch statistics; in one process (the only
    kind here) it normalises with the local batch exactly as ``BatchNorm1D/2D/3D`` do, for 2-D to 5-D input
    (``data_format`` any of ``NC NCL NCHW NCDHW`` for channels on axis 1, ``NLC NHWC NDHWC`` for the last).
    ``weight_attr=False`` / ``bias_attr=False`` keep a constant (ones / zeros) scale / shift, as in Paddle."""

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCHW", name: str | None = None) -> None:
        if data_format not in _SYNC_FORMATS:
            raise ValueError(f"SyncBatchNorm: data_format must be one of {', '.join(_SYNC_FORMATS)}, but received "
                             f"{data_format!r}.")
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, "NCHW", None, name)
        self._data_format = data_format
        if weight_attr is False:
            self.weight = self.create_parameter([num_features], None, self._dtype, False,
                                                default_initializer=Constant(1.0))
            self.weight.stop_gradient = True
        if bias_attr is False:
            self.bias = self.create_parameter([num_features], None, self._dtype, True,
                                              default_initializer=Constant(0.0))
            self.bias.stop_gradient = True

    def forward(self, x: Any) -> Any:
        shape = list(x.shape)
        if not 2 <= len(shape) <= 5:
            raise ValueError(f"SyncBatchNorm: the input must be 2-D to 5-D, but received shape {shape}.")
        fmt = "NCHW" if self._data_format[1] == "C" else "NHWC"
        caxis = 1 if fmt == "NCHW" else len(shape) - 1
        if shape[caxis] != self._num_features:
            raise ValueError(f"SyncBatchNorm: the input has {shape[caxis]} channels on axis {caxis} but the layer "
                             f"expects num_features={self._num_features}.")
        return F.batch_norm(x, self._mean, self._variance, weight=self.weight, bias=self.bias,
                            training=self.training, momentum=float(np.float32(self._momentum)),
                            epsilon=self._epsilon, data_format=fmt, use_global_stats=None)

    @classmethod
    def convert_sync_batchnorm(cls, layer: Layer) -> Layer:
        """``layer`` with every ``BatchNorm1D/2D/3D`` in it (itself included) replaced by a ``SyncBatchNorm``
        holding the same parameters and running statistics (a named ``weight_attr``/``bias_attr`` gets the
        suffix ``_sync``), as Paddle does."""
        out = layer
        if isinstance(layer, _BatchNormBase):
            for attr in (layer._weight_attr, layer._bias_attr):
                if isinstance(attr, ParamAttr) and attr.name is not None:
                    attr.name = attr.name + "_sync"
            out = SyncBatchNorm(layer._num_features, layer._momentum, layer._epsilon, layer._weight_attr,
                                layer._bias_attr, layer._data_format, layer._name)
            if layer._weight_attr is not False and layer._bias_attr is not False:
                out.weight = layer.weight
                out.bias = layer.bias
            out._mean = layer._mean
            out._variance = layer._variance
        for name, sub in layer.named_children():
            out.add_sublayer(name, cls.convert_sync_batchnorm(sub))
        return out


class SpectralNorm(Layer):
    """Divide a weight of shape ``weight_shape`` by its largest singular value, estimated by ``power_iters``
    power-iteration steps from the vectors ``weight_u`` ``[h]`` and ``weight_v`` ``[w]`` (``h`` the size of axis
    ``dim``, ``w`` the product of the others; drawn from N(0, 1), never updated, as in Paddle). Parameters have
    ``dtype`` (float32 unless given) and the input must have it too."""

    def __init__(self, weight_shape: Any, dim: int = 0, power_iters: int = 1, eps: float = 1e-12,
                 dtype: Any = "float32") -> None:
        super().__init__()
        shape = list(weight_shape)
        if not shape or int(np.prod(shape)) <= 0:
            raise ValueError(f"SpectralNorm: weight_shape must be a non-empty list of positive sizes, but received "
                             f"{weight_shape!r}.")
        if not isinstance(dim, int) or isinstance(dim, bool) or not 0 <= dim < len(shape):
            raise ValueError(f"SpectralNorm: dim must be an axis in [0, {len(shape)}) of weight_shape {shape}, but "
                             f"received {dim!r}.")
        if not isinstance(power_iters, int) or power_iters < 0:
            raise ValueError(f"SpectralNorm: power_iters must be a non-negative int, but received {power_iters!r}.")
        self._power_iters, self._eps, self._dim, self._weight_shape = power_iters, eps, dim, shape
        self._dtype = str(_dtypes.to_np(dtype))
        h = shape[dim]
        w = int(np.prod(shape)) // h
        self.weight_u = self.create_parameter([h], ParamAttr(), self._dtype, default_initializer=Normal(0.0, 1.0))
        self.weight_u.stop_gradient = True
        self.weight_v = self.create_parameter([w], ParamAttr(), self._dtype, default_initializer=Normal(0.0, 1.0))
        self.weight_v.stop_gradient = True

    def forward(self, x: Any) -> Any:
        if str(_dtypes.to_np(x.dtype)) != self._dtype:
            raise ValueError(f"SpectralNorm: the weight's dtype {_dtypes.to_np(x.dtype)} differs from the layer's "
                             f"({self._dtype}); cast it or create the layer with dtype="
                             f"{str(_dtypes.to_np(x.dtype))!r}.")
        return F.spectral_norm(x, self.weight_u, self.weight_v, self._dim, self._power_iters, self._eps)
