"""``paddle.incubate.nn``: the fused transformer Layers and their functions (layer L8)."""

from . import functional as functional
from ._layers import FusedBiasDropoutResidualLayerNorm as FusedBiasDropoutResidualLayerNorm
from ._layers import FusedDropoutAdd as FusedDropoutAdd
from ._layers import FusedFeedForward as FusedFeedForward
from ._layers import FusedLinear as FusedLinear
from ._layers import FusedMultiHeadAttention as FusedMultiHeadAttention
from ._layers import FusedTransformerEncoderLayer as FusedTransformerEncoderLayer

__all__ = [
    "FusedBiasDropoutResidualLayerNorm",
    "FusedDropoutAdd",
    "FusedFeedForward",
    "FusedLinear",
    "FusedMultiHeadAttention",
    "FusedTransformerEncoderLayer",
]
