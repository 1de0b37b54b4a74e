"""``paddle.vision.ops`` (only ``ConvNormActivation`` here: the detection operators are not implemented)."""

from __future__ import annotations

from collections.abc import Callable

from ..nn.layer._activation import ReLU
from ..nn.layer._container import Sequential
from ..nn.layer._conv import Conv2D
from ..nn.layer._norm import BatchNorm2D

__all__ = ["ConvNormActivation"]


class ConvNormActivation(Sequential):
    """Conv2D, then a normalisation layer (default BatchNorm2D), then an activation (default ReLU), as one
    Sequential whose sublayers are named 0, 1, 2. ``padding`` defaults to keeping the size at stride 1; the
    convolution has a bias only when there is no normalisation layer (unless ``bias`` says otherwise)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size=3, stride=1, padding=None, groups: int = 1,
                 norm_layer: Callable | None = BatchNorm2D, activation_layer: Callable | None = ReLU,
                 dilation: int = 1, bias: bool | None = None) -> None:
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [Conv2D(in_channels, out_channels, kernel_size, stride, padding, dilation=dilation, groups=groups,
                         bias_attr=bias)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)
