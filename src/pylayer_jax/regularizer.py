"""``paddle.regularizer``: weight-decay regularizers for optimizers and parameters."""

from .optimizer._regularizer import L1Decay as L1Decay
from .optimizer._regularizer import L2Decay as L2Decay
from .optimizer._regularizer import WeightDecayRegularizer as WeightDecayRegularizer
