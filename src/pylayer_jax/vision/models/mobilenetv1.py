"""MobileNetV1."""

from __future__ import annotations

from ... import nn
from ..._api import functional as _F
from ..ops import ConvNormActivation
from ._utils import no_pretrained

__all__ = ["MobileNetV1", "mobilenet_v1"]


class DepthwiseSeparable(nn.Layer):
    """A 3x3 grouped (depthwise) ConvNormActivation, then a 1x1 one."""

    def __init__(self, in_channels: int, out_channels1: int, out_channels2: int, num_groups: int, stride,
                 scale: float) -> None:
        super().__init__()
        self._depthwise_conv = ConvNormActivation(in_channels, int(out_channels1 * scale), kernel_size=3,
                                                  stride=stride, padding=1, groups=int(num_groups * scale))
        self._pointwise_conv = ConvNormActivation(int(out_channels1 * scale), int(out_channels2 * scale),
                                                  kernel_size=1, stride=1, padding=0)

    def forward(self, x):
        return self._pointwise_conv(self._depthwise_conv(x))


# (name, in, out1, out2, groups, stride) of the depthwise-separable stages
_STAGES = [("conv2_1", 32, 32, 64, 32, 1), ("conv2_2", 64, 64, 128, 64, 2), ("conv3_1", 128, 128, 128, 128, 1),
           ("conv3_2", 128, 128, 256, 128, 2), ("conv4_1", 256, 256, 256, 256, 1), ("conv4_2", 256, 256, 512, 256, 2)]
_STAGES += [(f"conv5_{i + 1}", 512, 512, 512, 512, 1) for i in range(5)]
_STAGES += [("conv5_6", 512, 512, 1024, 512, 2), ("conv6", 1024, 1024, 1024, 1024, 1)]


class MobileNetV1(nn.Layer):
    """MobileNetV1 with width multiplier ``scale``."""

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.scale = scale
        self.dwsl = []
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.conv1 = ConvNormActivation(in_channels=3, out_channels=int(32 * scale), kernel_size=3, stride=2,
                                        padding=1)
        for name, cin, c1, c2, groups, stride in _STAGES:
            block = DepthwiseSeparable(in_channels=int(cin * scale), out_channels1=c1, out_channels2=c2,
                                       num_groups=groups, stride=stride, scale=scale)
            self.dwsl.append(self.add_sublayer(sublayer=block, name=name))
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x):
        x = self.conv1(x)
        for block in self.dwsl:
            x = block(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.fc(_F.flatten(x, 1))
        return x


def mobilenet_v1(pretrained: bool = False, scale: float = 1.0, **kwargs) -> MobileNetV1:
    """MobileNetV1 with width multiplier ``scale``."""
    if pretrained:
        no_pretrained("mobilenetv1_" + str(scale))
    return MobileNetV1(scale=scale, **kwargs)
