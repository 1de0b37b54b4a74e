"""``paddle.nn.layer.layers`` import path: ``Layer`` (re-exports)."""

from ._layers import HookRemoveHelper as HookRemoveHelper
from ._layers import Layer as Layer
