"""``paddle.nn.layer.distance`` import path (re-exports)."""

from ._common_extra import PairwiseDistance as PairwiseDistance
