"""``paddle.linalg.svd_lowrank`` / ``pca_lowrank`` (and ``paddle.<name>``, ``Tensor.<name>``), plus ``Tensor.cov``
(layer L5).

The low-rank SVDs are random: each call draws a key from the global generator (``_api.random.random_key``) for
its Gaussian sketch and passes it, with the checked ``q`` and ``niter``, to the table's ``svd_lowrank_key`` /
``pca_lowrank_key``.
"""

from __future__ import annotations

from typing import Any

from .._ops.checks import dtype_of
from .._ops.linalg_checks import float_matrix
from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from .random import random_key
from .variadic import cov


def _rank_args(api: str, x: Any, q: Any, niter: Any) -> int:
    """The checked rank ``q`` (default ``min(6, m, n)``) of a low-rank SVD of ``x``; ``niter`` checked too."""
    float_matrix(api, "x", x)
    m, n = list(x.shape)[-2:]
    k = min(m, n)
    if q is None:
        q = min(6, k)
    if isinstance(q, bool) or not isinstance(q, int) or not 0 <= q <= k:
        raise ValueError(f"{api}: q must be an int in [0, min(m, n)] = [0, {k}] for x of shape {list(x.shape)}, but "
                         f"received {q!r}.")
    if isinstance(niter, bool) or not isinstance(niter, int) or niter < 0:
        raise ValueError(f"{api}: niter (the number of power iterations) must be an int >= 0, but received "
                         f"{niter!r}.")
    return q


def svd_lowrank(x: Tensor, q: int | None = None, niter: int = 2, M: Tensor | None = None,  # noqa: N803
                name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """Randomized rank-``q`` SVD of ``x - M`` (``M`` broadcast to x, default 0): ``(U [*, m, q], S [*, q],
    V [*, n, q])`` with ``x - M ~ U diag(S) V^H``; ``q`` defaults to ``min(6, m, n)``, ``niter`` power iterations
    sharpen the sketch. Each call draws a new sketch from the global generator (``paddle.seed``)."""
    q = _rank_args("svd_lowrank", x, q, niter)
    if M is not None:
        ms, xs = list(getattr(M, "shape", ())), list(x.shape)
        if len(ms) > len(xs) or any(a not in (1, b) for a, b in zip(ms[::-1], xs[::-1])):
            raise ValueError(f"svd_lowrank: M must broadcast to x's shape {xs}, but received shape {ms}.")
        if dtype_of(M) != dtype_of(x):
            raise ValueError(f"svd_lowrank: M must have x's dtype {dtype_of(x).name}, but received "
                             f"{dtype_of(M).name}. Cast it with .astype().")
    return apply_op(TABLE["svd_lowrank_key"], (random_key(), x, M), {"q": q, "niter": niter})


def pca_lowrank(x: Tensor, q: int | None = None, center: bool = True, niter: int = 2,
                name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """Principal components of the rows of ``x`` by a randomized rank-``q`` SVD of x with each column's mean
    taken away (``center``): ``(U [*, m, q], S [*, q], V [*, n, q])``; the columns of V are the principal
    directions. ``q`` defaults to ``min(6, m, n)``. Each call draws a new sketch from the global generator."""
    q = _rank_args("pca_lowrank", x, q, niter)
    return apply_op(TABLE["pca_lowrank_key"], (random_key(), x), {"q": q, "center": bool(center), "niter": niter})


def _cov_method(self: Tensor, rowvar: bool = True, ddof: bool = True, fweights: Tensor | None = None,
                aweights: Tensor | None = None, name: str | None = None) -> Tensor:
    return cov(self, rowvar, ddof, fweights, aweights)


def _svd_lowrank_method(self: Tensor, q: int | None = None, niter: int = 2, M: Tensor | None = None,  # noqa: N803
                        name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    return svd_lowrank(self, q, niter, M)


def _pca_lowrank_method(self: Tensor, q: int | None = None, center: bool = True, niter: int = 2,
                        name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    return pca_lowrank(self, q, center, niter)


for _n, _f, _doc in (("cov", _cov_method, cov.__doc__), ("svd_lowrank", _svd_lowrank_method, svd_lowrank.__doc__),
                     ("pca_lowrank", _pca_lowrank_method, pca_lowrank.__doc__)):
    _f.__name__ = _f.__qualname__ = _n
    _f.__doc__ = _doc
    setattr(Tensor, _n, _f)
