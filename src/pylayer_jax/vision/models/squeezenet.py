"""SqueezeNet 1.0 and 1.1."""

from __future__ import annotations

from ... import nn
from ..._api import functional as _F
from ...nn import functional as NF
from ...nn.layer._param import ParamAttr
from ._utils import no_pretrained

__all__ = ["SqueezeNet", "squeezenet1_0", "squeezenet1_1"]


class MakeFireConv(nn.Layer):
    """Conv2D followed by ReLU."""

    def __init__(self, input_channels: int, output_channels: int, filter_size, padding=0) -> None:
        super().__init__()
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, padding=padding,
                               weight_attr=ParamAttr(), bias_attr=ParamAttr())

    def forward(self, x):
        return NF.relu(self._conv(x))


class MakeFire(nn.Layer):
    """A fire module: 1x1 squeeze, then 1x1 and 3x3 expansions concatenated on the channels."""

    def __init__(self, input_channels: int, squeeze_channels: int, expand1x1_channels: int,
                 expand3x3_channels: int) -> None:
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze_channels, 1)
        self._conv_path1 = MakeFireConv(squeeze_channels, expand1x1_channels, 1)
        self._conv_path2 = MakeFireConv(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, inputs):
        x = self._conv(inputs)
        return _F.concat([self._conv_path1(x), self._conv_path2(x)], axis=1)


_FIRES = [(16, 64, 64), (16, 64, 64), (32, 128, 128), (32, 128, 128), (48, 192, 192), (48, 192, 192),
          (64, 256, 256), (64, 256, 256)]


class SqueezeNet(nn.Layer):
    """SqueezeNet ``version`` '1.0' or '1.1'."""

    def __init__(self, version: str, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        if version not in ("1.0", "1.1"):
            raise ValueError(f"paddle.vision.models.SqueezeNet: version must be '1.0' or '1.1'; got {version!r}.")
        self.version = version
        self.num_classes = num_classes
        self.with_pool = with_pool
        if version == "1.0":
            self._conv = nn.Conv2D(3, 96, 7, stride=2, weight_attr=ParamAttr(), bias_attr=ParamAttr())
            cin = 96
        else:
            self._conv = nn.Conv2D(3, 64, 3, stride=2, padding=1, weight_attr=ParamAttr(), bias_attr=ParamAttr())
            cin = 64
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        for k, (sq, e1, e3) in enumerate(_FIRES, start=1):
            setattr(self, f"_conv{k}", MakeFire(cin, sq, e1, e3))
            cin = e1 + e3
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = nn.Conv2D(512, num_classes, 1, weight_attr=ParamAttr(), bias_attr=ParamAttr())
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs):
        x = self._pool(NF.relu(self._conv(inputs)))
        # the fire modules after which a max pool follows
        pools = (3, 7) if self.version == "1.0" else (2, 4)
        for k in range(1, 9):
            x = getattr(self, f"_conv{k}")(x)
            if k in pools:
                x = self._pool(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = self._avg_pool(NF.relu(x))
            x = _F.squeeze(x, axis=[2, 3])
        return x


def squeezenet1_0(pretrained: bool = False, **kwargs) -> SqueezeNet:
    """SqueezeNet 1.0."""
    if pretrained:
        no_pretrained("squeezenet1_0")
    return SqueezeNet("1.0", **kwargs)


def squeezenet1_1(pretrained: bool = False, **kwargs) -> SqueezeNet:
    """SqueezeNet 1.1."""
    if pretrained:
        no_pretrained("squeezenet1_1")
    return SqueezeNet("1.1", **kwargs)
