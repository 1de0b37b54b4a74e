"""``paddle.incubate.autograd``: functional automatic differentiation, and ``forward_grad`` / ``grad`` in static
programs (layer L8)."""

from ._functional import Hessian as Hessian
from ._functional import Jacobian as Jacobian
from ._functional import disable_prim as disable_prim
from ._functional import enable_prim as enable_prim
from ._functional import jvp as jvp
from ._functional import prim_enabled as prim_enabled
from ._functional import vjp as vjp
from ._primapi import forward_grad as forward_grad
from ._primapi import grad as grad
from ._primapi import prim2orig as prim2orig

__all__ = ["Hessian", "Jacobian", "disable_prim", "enable_prim", "forward_grad", "grad", "jvp", "prim_enabled", "vjp"]
