"""Dropout layers: ``Dropout``, ``Dropout2D``, ``Dropout3D``, ``AlphaDropout``, ``FeatureAlphaDropout``.
Random in training mode (``layer.train()``), deterministic in eval mode (layer L5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import _functional as F
from ._layers import Layer


def _check_p(layer: str, p: Any) -> None:
    if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= 1:
        raise ValueError(f"{layer}: p must be a number in [0, 1], but received {p!r}.")


def _named(name: str | None) -> str:
    return f", name={name}" if name else ""


class Dropout(Layer):
    """Zeroes elements (whole slices along ``axis`` when given) with probability ``p`` while training.

    ``mode='upscale_in_train'`` scales the kept values by ``1 / (1 - p)`` in training and is the identity in
    eval mode; ``'downscale_in_infer'`` keeps training values unscaled and multiplies by ``1 - p`` in eval.

    >>> import pylayer_jax as paddle
    >>> d = paddle.nn.Dropout(0.5)
    >>> d.eval()(paddle.ones([3])).tolist()
    [1.0, 1.0, 1.0]
    """

    def __init__(self, p: float = 0.5, inplace: bool = False, axis: int | Sequence[int] | None = None,
                 mode: str = "upscale_in_train", name: str | None = None) -> None:
        super().__init__()
        _check_p("Dropout", p)
        if mode not in ("upscale_in_train", "downscale_in_infer"):
            raise ValueError(
                f"Dropout: mode must be 'upscale_in_train' or 'downscale_in_infer', but received {mode!r}."
            )
        if inplace:
            raise NotImplementedError("Dropout: inplace=True is not supported; received inplace=True, pass False.")
        self.p, self.inplace, self.axis, self.mode, self.name = p, inplace, axis, mode, name

    def forward(self, input: Any) -> Any:  # noqa: A002
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training, mode=self.mode)

    def extra_repr(self) -> str:
        return f"p={self.p}, axis={self.axis}, mode={self.mode}{_named(self.name)}, inplace={self.inplace}"


class Dropout2D(Layer):
    """Zeroes whole channels of ``[N, C, H, W]`` input with probability ``p`` while training (the rest scaled
    by ``1 / (1 - p)``)."""

    _rank, _formats = 4, ("NCHW", "NHWC")

    def __init__(self, p: float = 0.5, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        layer = type(self).__name__
        _check_p(layer, p)
        if data_format not in self._formats:
            raise ValueError(
                f"{layer}: data_format must be {self._formats[0]!r} or {self._formats[1]!r}, but received "
                f"{data_format!r}."
            )
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input: Any) -> Any:  # noqa: A002
        if input.ndim != self._rank:
            raise ValueError(
                f"{type(self).__name__}: the input must be {self._rank}-D, but received a {input.ndim}-D tensor of "
                f"shape {input.shape}."
            )
        fn = F.dropout2d if self._rank == 4 else F.dropout3d
        return fn(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self) -> str:
        return f"p={self.p}, data_format={self.data_format}{_named(self.name)}"


class Dropout3D(Dropout2D):
    """Zeroes whole channels of ``[N, C, D, H, W]`` input with probability ``p`` while training."""

    _rank, _formats = 5, ("NCDHW", "NDHWC")

    def __init__(self, p: float = 0.5, data_format: str = "NCDHW", name: str | None = None) -> None:
        super().__init__(p, data_format, name)


class AlphaDropout(Layer):
    """Dropout for SELU networks: dropped values take SELU's negative saturation and the result is
    rescaled so the mean and variance stay those of the input (identity in eval mode)."""

    def __init__(self, p: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        _check_p(type(self).__name__, p)
        self.p, self.name = p, name

    def forward(self, input: Any) -> Any:  # noqa: A002
        return F.alpha_dropout(input, p=self.p, training=self.training)

    def extra_repr(self) -> str:
        return f"p={self.p}{_named(self.name)}"


class FeatureAlphaDropout(AlphaDropout):
    """AlphaDropout of whole channels of ``[N, C, ...]`` input."""

    def forward(self, input: Any) -> Any:  # noqa: A002
        return F.feature_alpha_dropout(input, p=self.p, training=self.training)
