"""DenseNet."""

from __future__ import annotations

import math

from ... import nn
from ..._api import functional as _F
from ...nn.initializer import Uniform
from ...nn.layer._param import ParamAttr
from ._utils import no_pretrained

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201", "densenet264"]


class BNACConvLayer(nn.Layer):
    """BatchNorm with activation, then a bias-free Conv2D."""

    def __init__(self, num_channels: int, num_filters: int, filter_size, stride=1, pad=0, groups: int = 1,
                 act: str = "relu") -> None:
        super().__init__()
        self._batch_norm = nn.BatchNorm(num_channels, act=act)
        self._conv = nn.Conv2D(in_channels=num_channels, out_channels=num_filters, kernel_size=filter_size,
                               stride=stride, padding=pad, groups=groups, weight_attr=ParamAttr(), bias_attr=False)

    def forward(self, x):
        return self._conv(self._batch_norm(x))


class DenseLayer(nn.Layer):
    """Bottleneck (1x1) and 3x3 BN-act-conv layers whose output is concatenated to the input."""

    def __init__(self, num_channels: int, growth_rate: int, bn_size: int, dropout: float) -> None:
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = BNACConvLayer(num_channels=num_channels, num_filters=bn_size * growth_rate,
                                         filter_size=1, pad=0, stride=1)
        self.bn_ac_func2 = BNACConvLayer(num_channels=bn_size * growth_rate, num_filters=growth_rate, filter_size=3,
                                         pad=1, stride=1)
        if dropout:
            self.dropout_func = nn.Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, x):
        conv = self.bn_ac_func2(self.bn_ac_func1(x))
        if self.dropout:
            conv = self.dropout_func(conv)
        return _F.concat([x, conv], axis=1)


class DenseBlock(nn.Layer):
    """``num_layers`` DenseLayers, named ``{name}_{i}``."""

    def __init__(self, num_channels: int, num_layers: int, bn_size: int, growth_rate: int, dropout: float,
                 name: str | None = None) -> None:
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = []
        channels = num_channels
        for k in range(num_layers):
            layer = DenseLayer(num_channels=channels, growth_rate=growth_rate, bn_size=bn_size, dropout=dropout)
            self.dense_layer_func.append(self.add_sublayer(f"{name}_{k + 1}", layer))
            channels += growth_rate

    def forward(self, x):
        for layer in self.dense_layer_func:
            x = layer(x)
        return x


class TransitionLayer(nn.Layer):
    """BN-act-1x1 conv, then a 2x2 average pool."""

    def __init__(self, num_channels: int, num_output_features: int) -> None:
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels=num_channels, num_filters=num_output_features,
                                          filter_size=1, pad=0, stride=1)
        self.pool2d_avg = nn.AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, x):
        return self.pool2d_avg(self.conv_ac_func(x))


class ConvBNLayer(nn.Layer):
    """Bias-free Conv2D, then BatchNorm with activation."""

    def __init__(self, num_channels: int, num_filters: int, filter_size, stride=1, pad=0, groups: int = 1,
                 act: str = "relu") -> None:
        super().__init__()
        self._conv = nn.Conv2D(in_channels=num_channels, out_channels=num_filters, kernel_size=filter_size,
                               stride=stride, padding=pad, groups=groups, weight_attr=ParamAttr(), bias_attr=False)
        self._batch_norm = nn.BatchNorm(num_filters, act=act)

    def forward(self, x):
        return self._batch_norm(self._conv(x))


_SPECS = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]), 169: (64, 32, [6, 12, 32, 32]),
          201: (64, 32, [6, 12, 48, 32]), 264: (64, 32, [6, 12, 64, 48])}


class DenseNet(nn.Layer):
    """DenseNet with ``layers`` in (121, 161, 169, 201, 264)."""

    def __init__(self, layers: int = 121, bn_size: int = 4, dropout: float = 0.0, num_classes: int = 1000,
                 with_pool: bool = True) -> None:
        super().__init__()
        if layers not in _SPECS:
            raise ValueError(f"paddle.vision.models.DenseNet: layers must be one of {sorted(_SPECS)}; got {layers}.")
        self.num_classes = num_classes
        self.with_pool = with_pool
        num_init_features, growth_rate, block_config = _SPECS[layers]
        self.conv1_func = ConvBNLayer(num_channels=3, num_filters=num_init_features, filter_size=7, stride=2, pad=3,
                                      act="relu")
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.block_config = block_config
        self.dense_block_func_list = []
        self.transition_func_list = []
        channels = num_init_features
        for i, num_layers in enumerate(block_config):
            block = DenseBlock(num_channels=channels, num_layers=num_layers, bn_size=bn_size,
                               growth_rate=growth_rate, dropout=dropout, name="conv" + str(i + 2))
            self.dense_block_func_list.append(self.add_sublayer(f"db_conv_{i + 2}", block))
            channels += num_layers * growth_rate
            if i != len(block_config) - 1:
                trans = TransitionLayer(num_channels=channels, num_output_features=channels // 2)
                self.transition_func_list.append(self.add_sublayer(f"tr_conv{i + 2}_blk", trans))
                channels //= 2
        self.batch_norm = nn.BatchNorm(channels, act="relu")
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(channels * 1.0)
            self.out = nn.Linear(channels, num_classes, weight_attr=ParamAttr(initializer=Uniform(-stdv, stdv)),
                                 bias_attr=ParamAttr())

    def forward(self, x):
        y = self.pool2d_max(self.conv1_func(x))
        for i in range(len(self.block_config)):
            y = self.dense_block_func_list[i](y)
            if i != len(self.block_config) - 1:
                y = self.transition_func_list[i](y)
        y = self.batch_norm(y)
        if self.with_pool:
            y = self.pool2d_avg(y)
        if self.num_classes > 0:
            y = self.out(_F.flatten(y, start_axis=1, stop_axis=-1))
        return y


def _builder(layers: int):
    arch = f"densenet{layers}"

    def build(pretrained: bool = False, **kwargs) -> DenseNet:
        if pretrained:
            no_pretrained(arch)
        return DenseNet(layers=layers, **kwargs)

    build.__name__ = build.__qualname__ = arch
    build.__doc__ = f"DenseNet-{layers}."
    return build


densenet121 = _builder(121)
densenet161 = _builder(161)
densenet169 = _builder(169)
densenet201 = _builder(201)
densenet264 = _builder(264)
