"""ShuffleNetV2."""

from __future__ import annotations

from ... import nn
from ..._api import functional as _F
from ..ops import ConvNormActivation
from ._utils import no_pretrained

__all__ = [
    "ShuffleNetV2", "shufflenet_v2_x0_25", "shufflenet_v2_x0_33", "shufflenet_v2_x0_5", "shufflenet_v2_x1_0",
    "shufflenet_v2_x1_5", "shufflenet_v2_x2_0", "shufflenet_v2_swish",
]


def create_activation_layer(act):
    """The activation class for 'relu' / 'swish' (None for None)."""
    table = {"swish": nn.Swish, "relu": nn.ReLU, None: None}
    if act not in table:
        raise RuntimeError(f"paddle.vision.models.ShuffleNetV2: activation {act!r} is not supported; use 'relu' or "
                           "'swish'.")
    return table[act]


def channel_shuffle(x, groups: int):
    """Interleave the channels of ``groups`` groups."""
    b, c, h, w = x.shape[0:4]
    x = _F.reshape(x, shape=[b, groups, c // groups, h, w])
    x = _F.transpose(x, perm=[0, 2, 1, 3, 4])
    return _F.reshape(x, shape=[b, c, h, w])


class InvertedResidual(nn.Layer):
    """Stride-1 unit: half the channels pass through, the other half goes through pw, dw, pw convs."""

    def __init__(self, in_channels: int, out_channels: int, stride, activation_layer=nn.ReLU) -> None:
        super().__init__()
        half = out_channels // 2
        self._conv_pw = ConvNormActivation(in_channels=in_channels // 2, out_channels=half, kernel_size=1, stride=1,
                                           padding=0, groups=1, activation_layer=activation_layer)
        self._conv_dw = ConvNormActivation(in_channels=half, out_channels=half, kernel_size=3, stride=stride,
                                           padding=1, groups=half, activation_layer=None)
        self._conv_linear = ConvNormActivation(in_channels=half, out_channels=half, kernel_size=1, stride=1,
                                               padding=0, groups=1, activation_layer=activation_layer)

    def forward(self, inputs):
        c = inputs.shape[1] // 2
        x1, x2 = _F.split(inputs, num_or_sections=[c, c], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(_F.concat([x1, x2], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    """Down-sampling unit: two branches (dw, pw) and (pw, dw, pw) over the whole input."""

    def __init__(self, in_channels: int, out_channels: int, stride, activation_layer=nn.ReLU) -> None:
        super().__init__()
        half = out_channels // 2
        self._conv_dw_1 = ConvNormActivation(in_channels=in_channels, out_channels=in_channels, kernel_size=3,
                                             stride=stride, padding=1, groups=in_channels, activation_layer=None)
        self._conv_linear_1 = ConvNormActivation(in_channels=in_channels, out_channels=half, kernel_size=1,
                                                 stride=1, padding=0, groups=1, activation_layer=activation_layer)
        self._conv_pw_2 = ConvNormActivation(in_channels=in_channels, out_channels=half, kernel_size=1, stride=1,
                                             padding=0, groups=1, activation_layer=activation_layer)
        self._conv_dw_2 = ConvNormActivation(in_channels=half, out_channels=half, kernel_size=3, stride=stride,
                                             padding=1, groups=half, activation_layer=None)
        self._conv_linear_2 = ConvNormActivation(in_channels=half, out_channels=half, kernel_size=1, stride=1,
                                                 padding=0, groups=1, activation_layer=activation_layer)

    def forward(self, inputs):
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(_F.concat([x1, x2], axis=1), 2)


_CHANNELS = {0.25: [-1, 24, 24, 48, 96, 512], 0.33: [-1, 24, 32, 64, 128, 512], 0.5: [-1, 24, 48, 96, 192, 1024],
             1.0: [-1, 24, 116, 232, 464, 1024], 1.5: [-1, 24, 176, 352, 704, 1024],
             2.0: [-1, 24, 224, 488, 976, 2048]}


class ShuffleNetV2(nn.Layer):
    """ShuffleNetV2 at ``scale`` (0.25, 0.33, 0.5, 1.0, 1.5 or 2.0) with activation ``act``."""

    def __init__(self, scale: float = 1.0, act: str | None = "relu", num_classes: int = 1000,
                 with_pool: bool = True) -> None:
        super().__init__()
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        if scale not in _CHANNELS:
            raise NotImplementedError(f"paddle.vision.models.ShuffleNetV2: scale {scale} is not implemented; use one "
                                      f"of {sorted(_CHANNELS)}.")
        channels = _CHANNELS[scale]
        act_layer = create_activation_layer(act)
        self._conv1 = ConvNormActivation(in_channels=3, out_channels=channels[1], kernel_size=3, stride=2, padding=1,
                                         activation_layer=act_layer)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage, repeats in enumerate([4, 8, 4]):
            for i in range(repeats):
                if i == 0:
                    block = InvertedResidualDS(in_channels=channels[stage + 1], out_channels=channels[stage + 2],
                                               stride=2, activation_layer=act_layer)
                else:
                    block = InvertedResidual(in_channels=channels[stage + 2], out_channels=channels[stage + 2],
                                             stride=1, activation_layer=act_layer)
                self._block_list.append(self.add_sublayer(sublayer=block, name=f"{stage + 2}_{i + 1}"))
        self._last_conv = ConvNormActivation(in_channels=channels[-2], out_channels=channels[-1], kernel_size=1,
                                             stride=1, padding=0, activation_layer=act_layer)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = channels[-1]
            self._fc = nn.Linear(channels[-1], num_classes)

    def forward(self, inputs):
        x = self._max_pool(self._conv1(inputs))
        for block in self._block_list:
            x = block(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = self._fc(_F.flatten(x, start_axis=1, stop_axis=-1))
        return x


def _builder(arch: str, scale: float, act: str = "relu"):
    def build(pretrained: bool = False, **kwargs) -> ShuffleNetV2:
        if pretrained:
            no_pretrained(arch)
        return ShuffleNetV2(scale=scale, act=act, **kwargs)

    build.__name__ = build.__qualname__ = arch
    build.__doc__ = f"ShuffleNetV2 at scale {scale} ({act} activation)."
    return build


shufflenet_v2_x0_25 = _builder("shufflenet_v2_x0_25", 0.25)
shufflenet_v2_x0_33 = _builder("shufflenet_v2_x0_33", 0.33)
shufflenet_v2_x0_5 = _builder("shufflenet_v2_x0_5", 0.5)
shufflenet_v2_x1_0 = _builder("shufflenet_v2_x1_0", 1.0)
shufflenet_v2_x1_5 = _builder("shufflenet_v2_x1_5", 1.5)
shufflenet_v2_x2_0 = _builder("shufflenet_v2_x2_0", 2.0)
shufflenet_v2_swish = _builder("shufflenet_v2_swish", 1.0, "swish")
