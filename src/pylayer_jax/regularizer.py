"""``paddle.regularizer``: weight-decay regularizers for optimizers and parameters."""

from ._regularizer import L1Decay as L1Decay
from ._regularizer import L2Decay as L2Decay
from ._regularizer import WeightDecayRegularizer as WeightDecayRegularizer
