"""LKJCholesky: the LKJ distribution over correlation matrices, drawn and scored through their lower Cholesky
factors, with Paddle 3.3.1's two samplers (the onion method and the C-vine)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._api import functional as F
from .._tensor.facade import Tensor, to_tensor
from ._base import Distribution, dtype_name, param, sample_shape, standard_normal, tiny, value_of
from ._continuous import Beta

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _mvlgamma(a: Tensor, p: int) -> Tensor:
    """The multivariate log-gamma ``log Gamma_p(a)``."""
    j = F.arange(1, p + 1, dtype=dtype_name(a))
    return p * (p - 1) / 4 * math.log(math.pi) + (a.unsqueeze(-1) + (1 - j) / 2).lgamma().sum(-1)


def _strict_lower(dim: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns of the strictly lower triangle of a ``dim x dim`` matrix, row by row."""
    rows, cols = np.tril_indices(dim, -1)
    return rows, cols


class LKJCholesky(Distribution):
    """LKJCholesky(dim=2, concentration=1.0, sample_method='onion'): the Cholesky factors ``L`` of ``dim x dim``
    correlation matrices ``L L^T`` with density proportional to ``det(L L^T) ** (concentration - 1)``.
    ``concentration`` is a float, a list, a numpy array (float32, as in Paddle) or a Tensor (its shape is the
    batch shape; an int is refused with a TypeError, as in Paddle) and must be positive; ``dim`` an int of at
    least 2; ``sample_method`` 'onion' or 'cvine' (ValueError otherwise). Draws carry no gradient and follow the
    LKJ law with either method (Paddle 3.3.1's do not: its onion sampler gives rows past the second the wrong beta
    parameter and its C-vine places partial correlations where their beta parameters do not belong, so their
    correlations come out with unequal spreads)."""

    def __init__(self, dim: int = 2, concentration: Any = 1.0, sample_method: str = "onion") -> None:
        if isinstance(concentration, Tensor):
            c = concentration if dtype_name(concentration) in _FLOATS else concentration.astype("float32")
        else:
            if isinstance(concentration, bool) or not isinstance(concentration,
                                                                 float | np.floating | list | tuple | np.ndarray):
                raise TypeError(f"LKJCholesky: concentration must be a float, a list, a tuple, a numpy.ndarray or "
                                f"a Tensor, but received {type(concentration).__name__} {concentration!r}"
                                + (f"; write {float(concentration)}." if isinstance(concentration, int) else "."))
            c = param("LKJCholesky", "concentration", concentration, "float32")
            if dtype_name(c) != "float32":
                c = c.astype("float32")
        if isinstance(dim, bool) or not isinstance(dim, int | float | np.integer | np.floating):
            raise TypeError(f"LKJCholesky: dim must be an int, but received {type(dim).__name__} {dim!r}.")
        if not dim >= 2:
            raise ValueError(f"LKJCholesky: dim must be an int of at least 2, but received {dim}.")
        if not isinstance(dim, int | np.integer):
            raise TypeError(f"LKJCholesky: dim must be an int, but received {type(dim).__name__} {dim!r}.")
        if not bool((c > 0).all()):
            raise ValueError(f"LKJCholesky: concentration must be positive, but received "
                             f"{np.asarray(c.numpy()).tolist()}.")
        if sample_method not in ("onion", "cvine"):
            raise ValueError(f"LKJCholesky: sample_method must be 'onion' or 'cvine', but received "
                             f"{sample_method!r}.")
        self.concentration = c
        self.dtype = dtype_name(c)
        self.dim = int(dim)
        self.sample_method = sample_method
        marginal = c + 0.5 * (self.dim - 2)
        if sample_method == "onion":
            # row i (i >= 1) of L: its squared norm off the diagonal is Beta(i / 2, marginal - (i - 1) / 2)
            # (Paddle 3.3.1 gives Beta((2 i - 1) / 2, ...), which draws from another law: rows past the second
            # come out less concentrated than the LKJ density says)
            offset = to_tensor(np.concatenate([[0.0], np.arange(self.dim - 1)]).astype(self.dtype))
            self._beta = Beta(0.5 * offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        else:
            # the partial correlation at (i, j), i > j, is 2 * Beta(b, b) - 1 with b = marginal - j / 2
            _, cols = _strict_lower(self.dim)
            conc = marginal.unsqueeze(-1) - to_tensor((0.5 * cols).astype(self.dtype))
            self._beta = Beta(conc, conc)
        super().__init__(c.shape, (self.dim, self.dim))

    def _onion(self, shape: tuple[int, ...]) -> Tensor:
        y = self._beta.sample(list(shape)).unsqueeze(-1)
        u = standard_normal(self._extend_shape(shape), self.dtype).tril(-1)
        norm = u.norm(axis=-1, keepdim=True)
        u = u / F.where(norm > 0, norm, F.ones_like(norm))  # the first row is all zeros
        w = y.sqrt() * u
        diag = (1 - (w ** 2).sum(-1)).clip(min=tiny(self.dtype)).sqrt()
        return w + F.diag_embed(diag)

    def _cvine(self, shape: tuple[int, ...]) -> Tensor:
        r = 2 * self._beta.sample(list(shape)) - 1  # [*shape, *batch, dim * (dim - 1) / 2]
        t = tiny(self.dtype)
        r = r.clip(-1 + t, 1 - t)
        rows, cols = _strict_lower(self.dim)
        lead = list(r.shape[:-1])
        flat = F.zeros([*lead, self.dim * self.dim], dtype=self.dtype)
        idx = to_tensor((rows * self.dim + cols).astype(np.int64))
        flat = F.put_along_axis(flat, idx.reshape([1] * len(lead) + [-1]).expand([*lead, len(rows)]), r, -1)
        pc = flat.reshape([*lead, self.dim, self.dim])
        z1m = (1 - pc ** 2).sqrt().cumprod(-1)
        one = F.ones([*lead, self.dim, 1], dtype=self.dtype)
        shifted = F.concat([one, z1m[..., :-1]], -1)
        return (pc + F.eye(self.dim, dtype=self.dtype)) * shifted

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Cholesky factors of shape ``shape + batch_shape + [dim, dim]``."""
        shape = sample_shape("LKJCholesky.sample", shape, True)
        out = self._onion(shape) if self.sample_method == "onion" else self._cvine(shape)
        return out.detach()

    def log_prob(self, value: Any) -> Tensor:
        """The log-density of the Cholesky factor ``value`` (its diagonal is what matters)."""
        v = value_of("LKJCholesky.log_prob", value, self.concentration)
        diag = F.diagonal(v, 0, -1, -2)[..., 1:]
        order = F.arange(2, self.dim + 1, dtype=self.dtype)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalised = (order * diag.log()).sum(-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        normaliser = 0.5 * dm1 * math.log(math.pi) + _mvlgamma(alpha - 0.5, dm1) - alpha.lgamma() * dm1
        return unnormalised - normaliser
