"""``paddle.incubate.optimizer.functional``: BFGS and L-BFGS minimisation of a function (layer L8)."""

from ._minimize import minimize_bfgs as minimize_bfgs
from ._minimize import minimize_lbfgs as minimize_lbfgs

__all__ = ["minimize_bfgs", "minimize_lbfgs"]
