"""The ``paddle.linalg`` functions, each one line over the op table (layer L5).

The same table entries also serve ``paddle.<name>`` and ``Tensor.<name>`` where Paddle has
those paths; ``inv`` is ``inverse`` under Paddle's linalg name.
"""

from __future__ import annotations

from typing import Any

from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from .._tensor.methods import public
from .variadic import cov as cov

cholesky = public(TABLE["cholesky"])
corrcoef = public(TABLE["corrcoef"])
cross = public(TABLE["cross"])
det = public(TABLE["det"])
diagonal = public(TABLE["diagonal"])
eig = public(TABLE["eig"])
eigh = public(TABLE["eigh"])
eigvals = public(TABLE["eigvals"])
eigvalsh = public(TABLE["eigvalsh"])
inv = public(TABLE["inverse"])
matmul = public(TABLE["matmul"])
matrix_power = public(TABLE["matrix_power"])
matrix_rank = public(TABLE["matrix_rank"])
multi_dot = public(TABLE["multi_dot"])
pinv = public(TABLE["pinv"])
qr = public(TABLE["qr"])
slogdet = public(TABLE["slogdet"])
solve = public(TABLE["solve"])
svd = public(TABLE["svd"])
triangular_solve = public(TABLE["triangular_solve"])


# Paddle's other names for norm's parameters
_NORM_ALIASES = {"input": "x", "A": "x", "ord": "p", "dim": "axis"}


def norm_arguments(kwargs: dict[str, Any], api: str, aliases: dict[str, str]) -> dict[str, Any]:
    """``kwargs`` with Paddle's alias names (``ord`` for ``p``, ``dim`` for ``axis``, ...) read as the names they
    stand for; an alias given beside its name is refused."""
    if not kwargs or not any(k in aliases for k in kwargs):
        return kwargs
    out = dict(kwargs)
    for alias, name in aliases.items():
        if alias in out:
            if name in out:
                raise TypeError(
                    f"{api}: {alias!r} is another name for {name!r}, and both were given. Pass only one of them."
                )
            out[name] = out.pop(alias)
    return out


def norm(*args: Any, **kwargs: Any) -> Any:
    """Vector or matrix norm: the table's ``norm`` op (defined with the reductions); ``ord`` and ``dim`` are
    Paddle's other names for ``p`` and ``axis``."""
    return apply_op(TABLE["norm"], args, norm_arguments(kwargs, "norm", _NORM_ALIASES))


def vector_norm(*args: Any, **kwargs: Any) -> Any:
    """The vector ``p``-norm along ``axis``: the table's ``vector_norm`` op; ``ord`` and ``dim`` are Paddle's
    other names for ``p`` and ``axis``."""
    return apply_op(TABLE["vector_norm"], args, norm_arguments(kwargs, "vector_norm", _NORM_ALIASES))


matrix_norm = public(TABLE["matrix_norm"])
norm.__signature__ = TABLE["norm"].signature  # type: ignore[attr-defined]
vector_norm.__signature__ = TABLE["vector_norm"].signature  # type: ignore[attr-defined]
