"""The distributions over vectors: Dirichlet and MultivariateNormal (event shape: the last axis)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._api import functional as F
from .._api import linalg as L
from .._api.irregular import broadcast_shape
from .._tensor.facade import Tensor
from ._base import Distribution, ExponentialFamily, draw, dtype_name, param, sample_shape, standard_normal, value_of


class Dirichlet(ExponentialFamily):
    """Dirichlet(concentration) over the last axis of ``concentration`` (at least 1-D; Paddle raises ValueError
    otherwise). ``rsample`` is differentiable (normalised reparameterised gamma draws; Paddle raises
    NotImplementedError), ``sample`` detached. A list is taken as float32 (Paddle's raises AttributeError)."""

    def __init__(self, concentration: Any) -> None:
        c = param("Dirichlet", "concentration", concentration)
        if c.ndim < 1:
            raise ValueError(f"Dirichlet: concentration must be at least one-dimensional (its last axis is the "
                             f"event), but received a Tensor of shape {list(c.shape)}.")
        self.concentration = c
        super().__init__(c.shape[:-1], c.shape[-1:])

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.concentration.sum(-1, keepdim=True)

    @property
    def variance(self) -> Tensor:
        a0 = self.concentration.sum(-1, keepdim=True)
        m = self.concentration / a0
        return m * (1 - m) / (a0 + 1)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        return self.rsample(sample_shape("Dirichlet.sample", shape)).detach()

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = self._extend_shape(sample_shape("Dirichlet.rsample", shape))
        g = draw("random_gamma", self.concentration, shape=list(shape))
        return g / g.sum(-1, keepdim=True)

    def _log_normaliser(self) -> Tensor:
        a = self.concentration
        return a.lgamma().sum(-1) - a.sum(-1).lgamma()

    def entropy(self) -> Tensor:
        a = self.concentration
        a0 = a.sum(-1)
        k = a.shape[-1]
        return self._log_normaliser() + (a0 - k) * a0.digamma() - ((a - 1) * a.digamma()).sum(-1)

    def log_prob(self, value: Any) -> Tensor:
        x = value_of("Dirichlet.log_prob", value, self.concentration)
        return ((self.concentration - 1) * x.log()).sum(-1) - self._log_normaliser()

    @property
    def _natural_parameters(self) -> tuple[Tensor]:
        return (self.concentration,)

    def _log_normalizer(self, x: Tensor) -> Tensor:
        return x.lgamma().sum(-1) - x.sum(-1).lgamma()


class MultivariateNormal(Distribution):
    """MultivariateNormal(loc, covariance_matrix | precision_matrix | scale_tril): exactly one of the three
    (Paddle's rule, a ValueError otherwise), a matrix of at least two axes whose leading axes broadcast with
    ``loc``'s batch axes. A 0-D ``loc`` is taken as a vector of one element, as in Paddle. The factor
    ``scale_tril`` comes from a Cholesky factorisation; a matrix that is not positive definite gives NaN there
    (Paddle raises from its kernel)."""

    def __init__(self, loc: Any, covariance_matrix: Any = None, precision_matrix: Any = None,
                 scale_tril: Any = None) -> None:
        given = [m is not None for m in (covariance_matrix, precision_matrix, scale_tril)]
        if sum(given) != 1:
            raise ValueError(f"MultivariateNormal: exactly one of covariance_matrix, precision_matrix or "
                             f"scale_tril must be given, but received {sum(given)}.")
        loc = param("MultivariateNormal", "loc", loc)
        if loc.ndim == 0:
            loc = loc.reshape([1])
        name, m = next((n, v) for n, v, g in zip(("covariance_matrix", "precision_matrix", "scale_tril"),
                                                 (covariance_matrix, precision_matrix, scale_tril), given, strict=True)
                       if g)
        m = param("MultivariateNormal", name, m)
        if m.ndim < 2 or m.shape[-1] != m.shape[-2]:
            raise ValueError(f"MultivariateNormal: {name} must be a square matrix with optional leading batch "
                             f"axes, but received shape {list(m.shape)}.")
        if m.shape[-1] != loc.shape[-1]:
            raise ValueError(f"MultivariateNormal: {name} is {m.shape[-1]}x{m.shape[-1]} but loc has "
                             f"{loc.shape[-1]} elements in its last axis; they must match.")
        self.dtype = dtype_name(loc)
        m = m if dtype_name(m) == self.dtype else m.astype(self.dtype)
        batch = tuple(broadcast_shape(list(loc.shape[:-1]), list(m.shape[:-2])))
        k = loc.shape[-1]
        self.loc = loc.expand([*batch, k])
        if name == "scale_tril":
            tril = m
        elif name == "covariance_matrix":
            tril = L.cholesky(m)
        else:  # the covariance is the precision's inverse
            tril = L.cholesky(L.inv(m))
        self._unbroadcasted_scale_tril = tril
        self.scale_tril = tril.expand([*batch, k, k])
        cov = tril @ tril.transpose([*range(tril.ndim - 2), tril.ndim - 1, tril.ndim - 2])
        self.covariance_matrix = (m if name == "covariance_matrix" else cov).expand([*batch, k, k])
        self.precision_matrix = (m if name == "precision_matrix" else L.inv(cov)).expand([*batch, k, k])
        super().__init__(batch, (k,))

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        t = self.scale_tril
        return (t ** 2).sum(-1)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        return self.rsample(sample_shape("MultivariateNormal.sample", shape)).detach()

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = self._extend_shape(sample_shape("MultivariateNormal.rsample", shape))
        eps = standard_normal(shape, self.dtype)
        return self.loc + (self.scale_tril @ eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self) -> Tensor:
        return F.diagonal(self._unbroadcasted_scale_tril, 0, -2, -1).log().sum(-1)

    def _mahalanobis(self, diff: Tensor) -> Tensor:
        """``diff^T Sigma^-1 diff`` over the last axis, by one triangular solve."""
        tril = self._unbroadcasted_scale_tril
        lead = broadcast_shape(list(diff.shape[:-1]), list(tril.shape[:-2]))
        k = diff.shape[-1]
        sol = L.triangular_solve(tril.expand([*lead, k, k]), diff.expand([*lead, k]).unsqueeze(-1), upper=False)
        return (sol.squeeze(-1) ** 2).sum(-1)

    def entropy(self) -> Tensor:
        k = self._event_shape[0]
        h = self._half_log_det() + 0.5 * k * (1.0 + math.log(2 * math.pi))
        return h.expand(list(self._batch_shape)) if self._batch_shape else h

    def log_prob(self, value: Any) -> Tensor:
        x = value_of("MultivariateNormal.log_prob", value, self.loc)
        k = self._event_shape[0]
        return -0.5 * (k * math.log(2 * math.pi) + self._mahalanobis(x - self.loc)) - self._half_log_det()
