"""``paddle.incubate.autograd``: functional automatic differentiation (layer L8)."""

from ._functional import Hessian as Hessian
from ._functional import Jacobian as Jacobian
from ._functional import disable_prim as disable_prim
from ._functional import enable_prim as enable_prim
from ._functional import jvp as jvp
from ._functional import prim_enabled as prim_enabled
from ._functional import vjp as vjp

__all__ = ["Hessian", "Jacobian", "disable_prim", "enable_prim", "jvp", "prim_enabled", "vjp"]
