"""``paddle.sparse.nn``: Layers over sparse Tensors (activations, softmax, batch norm, convolutions, max pooling);
the math is in ``functional``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..._api.sparse_tensor import SparseTensor
from ...nn import BatchNorm1D as _BatchNorm1D
from ...nn import Layer
from ...nn.initializer import Normal
from . import functional as functional

__all__ = ["BatchNorm", "Conv2D", "Conv3D", "LeakyReLU", "MaxPool3D", "ReLU", "ReLU6", "Softmax", "SubmConv2D",
           "SubmConv3D", "SyncBatchNorm"]

F = functional


class ReLU(Layer):
    """``paddle.sparse.nn.functional.relu`` as a Layer."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self._name = name

    def forward(self, x: Any) -> SparseTensor:
        return F.relu(x)


class ReLU6(Layer):
    """``paddle.sparse.nn.functional.relu6`` as a Layer."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self._name = name

    def forward(self, x: Any) -> SparseTensor:
        return F.relu6(x)


class LeakyReLU(Layer):
    """``paddle.sparse.nn.functional.leaky_relu`` as a Layer."""

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__()
        self._negative_slope = negative_slope
        self._name = name

    def forward(self, x: Any) -> SparseTensor:
        return F.leaky_relu(x, self._negative_slope)


class Softmax(Layer):
    """``paddle.sparse.nn.functional.softmax`` as a Layer (over the last axis)."""

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__()
        self._axis = axis
        self._name = name

    def forward(self, x: Any) -> SparseTensor:
        return F.softmax(x, self._axis)


class BatchNorm(_BatchNorm1D):
    """Batch normalisation of a sparse COO Tensor ``[N, D, H, W, C]`` (or ``[N, H, W, C]``): the stored values
    ``[nnz, C]`` are normalised per channel over the stored entries, running statistics kept as ``BatchNorm1D``'s."""

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NDHWC", use_global_stats: bool | None = None,
                 name: str | None = None) -> None:
        if data_format not in ("NDHWC", "NHWC"):
            raise ValueError(f"{type(self).__name__}: sparse BatchNorm takes data_format 'NDHWC' or 'NHWC', but "
                             f"received {data_format!r}.")
        super().__init__(num_features, momentum=momentum, epsilon=epsilon, weight_attr=weight_attr,
                         bias_attr=bias_attr, data_format="NC", use_global_stats=use_global_stats, name=name)
        self._sparse_format = data_format

    def forward(self, input: Any) -> SparseTensor:  # noqa: A002
        api = f"paddle.sparse.nn.{type(self).__name__}"
        if not isinstance(input, SparseTensor) or input._fmt != "coo" or input._vals.ndim != 2:
            raise ValueError(f"{api}: the input must be a sparse COO Tensor with its channels dense (values [nnz, C]),"
                             " made by to_sparse_coo(ndim - 1).")
        if self._use_global_stats is None:  # as Paddle's sparse BatchNorm: fixed by the mode of the first call
            self._use_global_stats = not self.training
        out = super().forward(input._vals)
        return SparseTensor("coo", input._ix, out, input._sshape)


class SyncBatchNorm(BatchNorm):
    """``BatchNorm`` over every process's batch: one process here, so the same as ``BatchNorm``."""

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr,
                         "NDHWC" if data_format in ("NCHW", "NCDHW") else data_format, None, name)

    @classmethod
    def convert_sync_batchnorm(cls, layer: Layer) -> Layer:
        """``layer`` with each sparse ``BatchNorm`` in it replaced by a ``SyncBatchNorm`` holding its parameters."""
        out = layer
        if isinstance(layer, BatchNorm) and not isinstance(layer, SyncBatchNorm):
            out = SyncBatchNorm(layer._num_features, layer._momentum, layer._epsilon, layer._weight_attr,
                                layer._bias_attr, layer._sparse_format)
            for k in ("weight", "bias", "_mean", "_variance"):
                if getattr(layer, k, None) is not None:
                    setattr(out, k, getattr(layer, k))
        for name, sub in list(layer.named_children()):
            setattr(out, name, cls.convert_sync_batchnorm(sub))
        return out


def _ntuple(v: Any, n: int, what: str, api: str) -> list[int]:
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return [int(v)] * n
    if isinstance(v, Sequence) and len(v) == n:
        return [int(e) for e in v]
    raise ValueError(f"{api}: {what} must be an int or {n} ints, but received {v!r}.")


class _Conv(Layer):
    _dims = 3
    _subm = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, padding_mode: str = "zeros", key: str | None = None,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str | None = None,
                 backend: str | None = None) -> None:
        super().__init__()
        api = f"paddle.sparse.nn.{type(self).__name__}"
        fmt = "NDHWC" if self._dims == 3 else "NHWC"
        data_format = fmt if data_format is None else data_format
        if data_format != fmt:
            raise ValueError(f"{api}: data_format must be '{fmt}', but received {data_format!r}.")
        if groups != 1:
            raise ValueError(f"{api}: only groups=1 is supported (as in Paddle), but received groups={groups}.")
        if padding_mode != "zeros":
            raise ValueError(f"{api}: only padding_mode='zeros' is supported, but received {padding_mode!r}.")
        if backend not in (None, "igemm"):
            raise ValueError(f"{api}: backend must be None or 'igemm', but received {backend!r}.")
        if weight_attr is False:
            raise ValueError(f"{api}: weight_attr must not be False (a convolution needs its weight).")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = _ntuple(kernel_size, self._dims, "kernel_size", api)
        self._stride = _ntuple(stride, self._dims, "stride", api)
        self._dilation = _ntuple(dilation, self._dims, "dilation", api)
        self._padding, self._groups, self._key, self._data_format = padding, groups, key, data_format
        self._padding_mode, self._backend = padding_mode, backend
        std = (2.0 / (float(np.prod(self._kernel_size)) * in_channels)) ** 0.5
        self.weight = self.create_parameter([*self._kernel_size, in_channels, out_channels], attr=weight_attr,
                                            default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter([out_channels], attr=bias_attr, is_bias=True)

    def forward(self, x: Any) -> SparseTensor:
        return F._conv(f"paddle.sparse.nn.{type(self).__name__}", self._dims, x, self.weight, self.bias,
                       self._stride, self._padding, self._dilation, self._groups, self._data_format, self._subm)

    def extra_repr(self) -> str:
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * self._dims:
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._dilation != [1] * self._dims:
            s += f", dilation={self._dilation}"
        return s + f", data_format={self._data_format}"


class Conv3D(_Conv):
    """Sparse 3-D convolution Layer (weight ``[kD, kH, kW, C_in, C_out]``, He-normal initialised as Paddle's)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, padding_mode: str = "zeros", weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NDHWC") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, padding_mode,
                         None, weight_attr, bias_attr, data_format)


class SubmConv3D(_Conv):
    """Submanifold sparse 3-D convolution Layer: the output keeps the input's pattern."""

    _subm = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, padding_mode: str = "zeros", key: str | None = None,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NDHWC",
                 backend: str | None = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, padding_mode,
                         key, weight_attr, bias_attr, data_format, backend)


class Conv2D(_Conv):
    """Sparse 2-D convolution Layer (weight ``[kH, kW, C_in, C_out]``)."""

    _dims = 2

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, padding_mode: str = "zeros", weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NHWC") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, padding_mode,
                         None, weight_attr, bias_attr, data_format)


class SubmConv2D(_Conv):
    """Submanifold sparse 2-D convolution Layer: the output keeps the input's pattern."""

    _dims = 2
    _subm = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, padding_mode: str = "zeros", key: str | None = None,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NHWC",
                 backend: str | None = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, padding_mode,
                         key, weight_attr, bias_attr, data_format, backend)


class MaxPool3D(Layer):
    """``paddle.sparse.nn.functional.max_pool3d`` as a Layer."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
                 ceil_mode: bool = False, data_format: str = "NDHWC", name: str | None = None) -> None:
        super().__init__()
        if return_mask:
            raise NotImplementedError("paddle.sparse.nn.MaxPool3D: return_mask=True is not supported (Paddle's "
                                      "sparse pooling returns no mask either); leave it False.")
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.data_format, self._name = ceil_mode, data_format, name

    def forward(self, x: Any) -> SparseTensor:
        return F.max_pool3d(x, self.ksize, self.stride, self.padding, self.ceil_mode, self.data_format)

