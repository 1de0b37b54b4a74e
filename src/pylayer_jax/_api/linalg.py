"""The ``paddle.linalg`` functions, each one line over the op table (layer L5).

The same table entries also serve ``paddle.<name>`` and ``Tensor.<name>`` where Paddle has
those paths; ``inv`` is ``inverse`` under Paddle's linalg name. ``svd_lowrank`` and ``pca_lowrank``
draw their random sketch's key here (``_api.linalg_lowrank``).
"""

from __future__ import annotations

from typing import Any

from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from .._tensor.methods import lstsq as lstsq
from .._tensor.methods import public
from .linalg_lowrank import pca_lowrank as pca_lowrank
from .linalg_lowrank import svd_lowrank as svd_lowrank
from .variadic import cov as cov

cholesky = public(TABLE["cholesky"])
cond = public(TABLE["cond"])
corrcoef = public(TABLE["corrcoef"])
cross = public(TABLE["cross"])
det = public(TABLE["det"])
diagonal = public(TABLE["diagonal"])
eig = public(TABLE["eig"])
eigh = public(TABLE["eigh"])
eigvals = public(TABLE["eigvals"])
eigvalsh = public(TABLE["eigvalsh"])
householder_product = public(TABLE["householder_product"])
inv = public(TABLE["inverse"])
lu = public(TABLE["lu"])
lu_solve = public(TABLE["lu_solve"])
lu_unpack = public(TABLE["lu_unpack"])
matrix_exp = public(TABLE["matrix_exp"])
matmul = public(TABLE["matmul"])
matrix_power = public(TABLE["matrix_power"])
matrix_rank = public(TABLE["matrix_rank"])
multi_dot = public(TABLE["multi_dot"])
ormqr = public(TABLE["ormqr"])
pinv = public(TABLE["pinv"])
qr = public(TABLE["qr"])
slogdet = public(TABLE["slogdet"])
solve = public(TABLE["solve"])
svd = public(TABLE["svd"])
svdvals = public(TABLE["svdvals"])
triangular_solve = public(TABLE["triangular_solve"])
vecdot = public(TABLE["vecdot"])


def norm(*args: Any, **kwargs: Any) -> Any:
    """Vector or matrix norm: the table's ``norm`` op (defined with the reductions); ``ord`` and ``dim`` are
    Paddle's other names for ``p`` and ``axis`` (``_ops.aliases``)."""
    return apply_op(TABLE["norm"], args, kwargs)


def vector_norm(*args: Any, **kwargs: Any) -> Any:
    """The vector ``p``-norm along ``axis``: the table's ``vector_norm`` op; ``ord`` and ``dim`` are Paddle's
    other names for ``p`` and ``axis`` (``_ops.aliases``)."""
    return apply_op(TABLE["vector_norm"], args, kwargs)


matrix_norm = public(TABLE["matrix_norm"])
norm.__signature__ = TABLE["norm"].signature  # type: ignore[attr-defined]
vector_norm.__signature__ = TABLE["vector_norm"].signature  # type: ignore[attr-defined]
