"""``paddle.incubate.optimizer``: LookAhead, ModelAverage and the functional BFGS minimisers (layer L8)."""

from . import functional as functional
from ._lbfgs import LBFGS as LBFGS
from ._lookahead import LookAhead as LookAhead
from ._lookahead import ModelAverage as ModelAverage

__all__ = ["LBFGS", "LookAhead", "ModelAverage"]
