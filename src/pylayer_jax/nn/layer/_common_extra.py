"""More leaf layers: ``Embedding``, ``Bilinear``, ``CosineSimilarity``, ``PairwiseDistance``, the
``Upsample`` family, ``PixelShuffle``/``PixelUnshuffle``/``ChannelShuffle`` and ``Unflatten`` (layer L5)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._autograd.grad_mode import no_grad
from ..._ops.table import TABLE
from ..._runtime import dtypes as _dtypes
from ..._tensor.facade import Tensor
from ..._tensor.methods import public
from .. import _functional as F
from ..initializer._base import Assign
from ._layers import Layer

_unflatten = public(TABLE["unflatten"])


def _named(name: str | None) -> str:
    return f", name={name}" if name else ""


class Embedding(Layer):
    """A lookup table ``weight[x]`` of shape ``[num_embeddings, embedding_dim]``.

    The weight starts XavierUniform as in Paddle; the row ``padding_idx`` (negative counts from the end) is
    zeroed at creation and gets no gradient. ``_weight`` gives the initial values and ``_freeze=True`` makes it
    non-trainable.

    ``sparse=True`` gives the weight Paddle's sparse gradient: the rows looked up (the padding row among them: Paddle's
    sparse kernel gives it the gradient of its lookups) with their summed gradients, merged over lookups and over
    backwards until ``clear_grad()``, after which it is None. The optimizers update it as Paddle's do:
    ``Adam``/``AdamW(lazy_mode=True)`` only the rows looked up, ``lazy_mode=False`` by Paddle's sparse kernel; SGD,
    Momentum, Adagrad, RMSProp, Lamb and Rprop as a dense gradient with zeros elsewhere; Adamax, Adadelta, NAdam,
    RAdam, ASGD and ``ClipGradByValue`` raise ``NotImplementedError`` (Paddle's fail). Deliberate difference: the
    gradient stays a dense ``[num_embeddings, embedding_dim]`` Tensor, zero on the rows not looked up (Paddle's holds
    one row per lookup, with ``rows()``); see ``nn.functional.embedding``. ``scale_grad_by_freq`` with ``sparse``
    raises ``AttributeError``, as in Paddle.

    >>> import pylayer_jax as paddle
    >>> emb = paddle.nn.Embedding(4, 3, padding_idx=0)
    >>> emb(paddle.to_tensor([0])).tolist()
    [[0.0, 0.0, 0.0]]
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0, *, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Any = None, _freeze: bool = False, device: Any = None,
                 dtype: Any = None, weight_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        for v, what in ((num_embeddings, "num_embeddings"), (embedding_dim, "embedding_dim")):
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or v <= 0:
                raise ValueError(f"Embedding: {what} must be a positive int, but received {v!r}.")
        if padding_idx is not None and (isinstance(padding_idx, bool) or not isinstance(padding_idx, int | np.integer)):
            raise ValueError(f"Embedding: padding_idx must be an int or None (a row index), but received "
                             f"{type(padding_idx).__name__} {padding_idx!r}; pass int(padding_idx).")
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(
                f"Embedding: padding_idx must be within [-{num_embeddings}, {num_embeddings}), but received "
                f"{padding_idx}."
            )
        if device is not None and str(device).lower() not in ("cpu", "place(cpu)"):
            raise NotImplementedError(
                f"Embedding: device={device!r} is not supported; arrays live where JAX puts them (pass device=None "
                "or 'cpu')."
            )
        self._num_embeddings, self._embedding_dim = int(num_embeddings), int(embedding_dim)
        self._sparse, self._max_norm, self._norm_type = sparse, max_norm, norm_type
        self._padding_idx, self._scale_grad_by_freq, self._device = padding_idx, scale_grad_by_freq, device
        self._dtype = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_paddle(dtype).name
        self._size = [self._num_embeddings, self._embedding_dim]
        self._weight_attr, self._name = weight_attr, name
        if _weight is not None:
            if list(_weight.shape) != self._size:
                raise ValueError(
                    f"Embedding: _weight must have shape {self._size} ([num_embeddings, embedding_dim]), but "
                    f"received shape {list(_weight.shape)}."
                )
            values = _weight.numpy() if isinstance(_weight, Tensor) else np.asarray(_weight)
            self.weight = self.create_parameter(self._size, None, self._dtype, False, Assign(values))
            self.weight.stop_gradient = bool(_freeze)
        else:
            self.weight = self.create_parameter(self._size, weight_attr, self._dtype, False)
            if weight_attr is None:
                self.weight.stop_gradient = bool(_freeze)
        # Paddle zeroes the padding row only eagerly; in a static program the lookup alone gives it zeros
        if padding_idx is not None and not self.weight._symbolic:
            row = padding_idx % self._num_embeddings
            w = self.weight.numpy().copy()
            w[row] = 0
            with no_grad():
                self.weight._set_value(w)

    @property
    def padding_idx(self) -> int | None:
        return self._padding_idx

    @padding_idx.setter
    def padding_idx(self, value: int | None) -> None:
        self._padding_idx = value

    def forward(self, x: Any) -> Any:
        return F.embedding(x, weight=self.weight, padding_idx=self._padding_idx, max_norm=self._max_norm,
                           norm_type=self._norm_type, sparse=self._sparse,
                           scale_grad_by_freq=self._scale_grad_by_freq)

    def extra_repr(self) -> str:
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            s += f", padding_idx={self._padding_idx}"
        s += f", sparse={self._sparse}, scale_grad_by_freq={self._scale_grad_by_freq}"
        if self._name is not None:
            s += f", name={self._name}"
        return s


class Bilinear(Layer):
    """``out[:, k] = x1 @ weight[k] @ x2^T + bias[0, k]`` with ``weight`` ``[out, in1, in2]`` and ``bias``
    ``[1, out]`` (Paddle's shapes; weight XavierUniform, bias zeros)."""

    def __init__(self, in1_features: int, in2_features: int, out_features: int, weight_attr: Any = None,
                 bias_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        for v, what in ((in1_features, "in1_features"), (in2_features, "in2_features"),
                        (out_features, "out_features")):
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise ValueError(f"Bilinear: {what} must be a positive int, but received {v!r}.")
        self._weight_attr, self._bias_attr, self._name = weight_attr, bias_attr, name
        self._in1_features, self._in2_features, self._out_features = in1_features, in2_features, out_features
        self._dtype = _dtypes.get_default_dtype()
        self.weight = self.create_parameter([out_features, in1_features, in2_features], weight_attr, self._dtype,
                                            False)
        self.bias = self.create_parameter([1, out_features], bias_attr, self._dtype, True)

    def forward(self, x1: Any, x2: Any) -> Any:
        for x, n, what in ((x1, self._in1_features, "x1"), (x2, self._in2_features, "x2")):
            if x.ndim != 2 or x.shape[1] != n:
                raise ValueError(
                    f"Bilinear: {what} must be 2-D with {n} features ([batch, {n}]), but received shape {x.shape}."
                )
        return F.bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
                f"out_features={self._out_features}, dtype={self._dtype}{_named(self._name)}")


class CosineSimilarity(Layer):
    """Cosine similarity of ``x1`` and ``x2`` along ``axis`` (norms clamped at ``eps``)."""

    def __init__(self, axis: int = 1, eps: float = 1e-08) -> None:
        super().__init__()
        self._axis, self._eps = axis, eps

    @property
    def dim(self) -> int:
        return self._axis

    def forward(self, x1: Any, x2: Any) -> Any:
        return F.cosine_similarity(x1, x2, axis=self._axis, eps=self._eps)

    def extra_repr(self) -> str:
        return f"axis={self._axis}, eps={self._eps}"


class PairwiseDistance(Layer):
    """``||x - y + epsilon||_p`` over the last axis (``keepdim`` keeps it as size 1)."""

    def __init__(self, p: float = 2.0, epsilon: float = 1e-06, keepdim: bool = False, name: str | None = None) -> None:
        super().__init__()
        self.p, self.epsilon, self.keepdim, self.name = p, epsilon, keepdim, name

    def forward(self, x: Any, y: Any) -> Any:
        return F.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self) -> str:
        s = f"p={self.p}"
        if self.epsilon != 1e-6:
            s += f", epsilon={self.epsilon}"
        if self.keepdim is not False:
            s += f", keepdim={self.keepdim}"
        if self.name is not None:
            s += f", name={self.name}"
        return s


class Upsample(Layer):
    """Resizes 3-D, 4-D or 5-D input to ``size`` or by ``scale_factor`` with ``mode`` ('nearest', 'linear',
    'bilinear', 'bicubic', 'trilinear', 'area'); the layout follows the rank when ``data_format`` is None."""

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest", align_corners: bool = False,
                 align_mode: int = 0, data_format: str | None = None, recompute_scale_factor: bool | None = None,
                 name: str | None = None) -> None:
        super().__init__()
        if not isinstance(mode, str):
            raise TypeError(f"Upsample: mode must be a str, but received {type(mode).__name__}.")
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode, self.data_format = align_corners, align_mode, data_format
        self.recompute_scale_factor, self.name = recompute_scale_factor, name

    def forward(self, x: Any) -> Any:
        if self.data_format is None:
            formats = {3: "NCW", 4: "NCHW", 5: "NCDHW"}
            if x.ndim not in formats:
                raise ValueError(
                    f"Upsample: the input must be 3-D, 4-D or 5-D, but received a {x.ndim}-D tensor of shape {x.shape}."
                )
            # Paddle fixes the layout at the first call (it then shows in the repr)
            self.data_format = formats[x.ndim]
        return F.interpolate(x, size=self.size, scale_factor=self.scale_factor, mode=self.mode,
                             align_corners=self.align_corners, align_mode=self.align_mode,
                             data_format=self.data_format, recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        main = f"scale_factor={self.scale_factor}" if self.scale_factor is not None else f"size={self.size}"
        return (f"{main}, mode={self.mode}, align_corners={self.align_corners}, align_mode={self.align_mode}, "
                f"data_format={self.data_format}{_named(self.name)}")


class UpsamplingNearest2D(Layer):
    """Nearest-neighbour upsampling of ``[N, C, H, W]`` input to ``size`` or by ``scale_factor``."""

    _mode, _align = "nearest", False

    def __init__(self, size: Any = None, scale_factor: Any = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__()
        if isinstance(size, int):
            size = [size, size]
        self.size, self.scale_factor, self.data_format, self.name = size, scale_factor, data_format, name

    def forward(self, x: Any) -> Any:
        if x.ndim != 4:
            raise ValueError(
                f"{type(self).__name__}: the input must be 4-D, but received a {x.ndim}-D tensor of shape {x.shape}."
            )
        return F.interpolate(x, size=self.size, scale_factor=self.scale_factor, mode=self._mode,
                             align_corners=self._align, align_mode=0, data_format=self.data_format)

    def extra_repr(self) -> str:
        main = f"scale_factor={self.scale_factor}" if self.scale_factor is not None else f"size={self.size}"
        return f"{main}, data_format={self.data_format}{_named(self.name)}"


class UpsamplingBilinear2D(UpsamplingNearest2D):
    """Bilinear upsampling (``align_corners=True``) of ``[N, C, H, W]`` input to ``size`` or by ``scale_factor``."""

    _mode, _align = "bilinear", True


def _check_factor(layer: str, v: Any, what: str, data_format: str) -> None:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{layer}: {what} must be an int, but received {type(v).__name__}.")
    if v <= 0:
        raise ValueError(f"{layer}: {what} must be positive, but received {v}.")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{layer}: data_format must be 'NCHW' or 'NHWC', but received {data_format!r}.")


def _check_4d(layer: str, x: Any) -> None:
    if x.ndim != 4:
        raise ValueError(f"{layer}: the input must be 4-D, but received a {x.ndim}-D tensor of shape {x.shape}.")


def _vision_repr(first: str, data_format: str, name: str | None) -> str:
    s = first
    if data_format != "NCHW":
        s += f", data_format={data_format}"
    if name is not None:
        s += f", name={name}"
    return s


class PixelShuffle(Layer):
    """Rearranges ``[N, C * r * r, H, W]`` into ``[N, C, H * r, W * r]`` (``r = upscale_factor``)."""

    def __init__(self, upscale_factor: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        _check_factor("PixelShuffle", upscale_factor, "upscale_factor", data_format)
        self._upscale_factor, self._data_format, self._name = upscale_factor, data_format, name

    def forward(self, x: Any) -> Any:
        _check_4d("PixelShuffle", x)
        return F.pixel_shuffle(x, self._upscale_factor, self._data_format)

    def extra_repr(self) -> str:
        return _vision_repr(f"upscale_factor={self._upscale_factor}", self._data_format, self._name)


class PixelUnshuffle(Layer):
    """The inverse of PixelShuffle: ``[N, C, H * r, W * r]`` into ``[N, C * r * r, H, W]``."""

    def __init__(self, downscale_factor: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        _check_factor("PixelUnshuffle", downscale_factor, "downscale_factor", data_format)
        self._downscale_factor, self._data_format, self._name = downscale_factor, data_format, name

    def forward(self, x: Any) -> Any:
        _check_4d("PixelUnshuffle", x)
        return F.pixel_unshuffle(x, self._downscale_factor, self._data_format)

    def extra_repr(self) -> str:
        return _vision_repr(f"downscale_factor={self._downscale_factor}", self._data_format, self._name)


class ChannelShuffle(Layer):
    """Splits the channels into ``groups`` and interleaves them (ShuffleNet's channel shuffle)."""

    def __init__(self, groups: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        _check_factor("ChannelShuffle", groups, "groups", data_format)
        self._groups, self._data_format, self._name = groups, data_format, name

    def forward(self, x: Any) -> Any:
        _check_4d("ChannelShuffle", x)
        return F.channel_shuffle(x, self._groups, self._data_format)

    def extra_repr(self) -> str:
        return _vision_repr(f"groups={self._groups}", self._data_format, self._name)


class Unflatten(Layer):
    """Splits axis ``axis`` into ``shape`` (the inverse of Flatten)."""

    def __init__(self, axis: int, shape: Any, name: str | None = None) -> None:
        super().__init__()
        self.axis, self.shape, self.name = axis, shape, name

    def forward(self, input: Any) -> Any:  # noqa: A002
        return _unflatten(input, axis=self.axis, shape=self.shape)

    def extra_repr(self) -> str:
        return f"axis={self.axis}, shape={self.shape}{_named(self.name)}"


UpsamplingNearest2d = UpsamplingNearest2D
UpsamplingBilinear2d = UpsamplingBilinear2D
