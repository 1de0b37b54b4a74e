"""``paddle.nn.layer.vision`` import path (re-exports)."""

from ._common_extra import ChannelShuffle as ChannelShuffle
from ._common_extra import PixelShuffle as PixelShuffle
from ._common_extra import PixelUnshuffle as PixelUnshuffle
