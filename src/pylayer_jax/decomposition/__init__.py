"""``paddle.decomposition``: sinking a static program's composite operators into primitive ones (``decompose``),
the registry of decomposition rules (``register``, ``rules``), the primitive operators (``primitives``) and
recomputation of forward values in the backward pass (``auto_recompute``).

Every operator of this package's static programs runs as JAX primitives already (a program is lowered to one jitted
JAX function), and XLA decides what to keep and what to recompute, so ``decompose`` and ``auto_recompute`` find
nothing to rewrite: they check their arguments and leave the program as it is, which is also what Paddle 3.3.1's
``decompose`` does while its prim mode is off (its default)."""

from . import decomp as decomp
from . import primitives as primitives
from . import recompute as recompute
from . import register as register
from . import rules as rules
from .decomp import decompose as decompose
from .recompute import auto_recompute as auto_recompute

__all__ = ["auto_recompute", "decomp", "decompose", "primitives", "recompute", "register", "rules"]
