"""The one-dimensional continuous distributions: Normal, LogNormal, Uniform, Laplace (location and scale),
Gamma, Exponential, Beta (over gamma draws)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._tensor.facade import Tensor
from ._base import (
    Distribution,
    ExponentialFamily,
    all_or_no_tensors,
    broadcast,
    draw,
    dtype_name,
    param,
    sample_shape,
    standard_normal,
    standard_uniform,
    tiny,
    value_of,
)
from ._transform import ExpTransform
from ._transformed import TransformedDistribution

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


class Normal(Distribution):
    """Normal(loc, scale). Floats and lists give float32 parameters, a numpy array keeps its float dtype; the
    parameters are all Tensors or none is (Paddle's rule). As in Paddle, ``sample`` is differentiable like
    ``rsample`` (``loc + scale * eps``), and ``sample(shape, seed)`` with a non-zero seed gives a fixed draw.
    ``name`` is Paddle's op name (kept as ``self.name``)."""

    def __init__(self, loc: Any, scale: Any, name: str | None = None) -> None:
        all_or_no_tensors(type(self).__name__, loc=loc, scale=scale)
        api = type(self).__name__
        self.name = name or "Normal"
        self.loc, self.scale = broadcast(param(api, "loc", loc), param(api, "scale", scale))
        self.dtype = dtype_name(self.loc)
        super().__init__(self.loc.shape)

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return self.scale ** 2

    def sample(self, shape: Sequence[int] = (), seed: int = 0) -> Tensor:
        shape = self._extend_shape(sample_shape(f"{type(self).__name__}.sample", shape))
        eps = standard_normal(shape, self.dtype, seed)
        return self.loc + self.scale * eps

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = self._extend_shape(sample_shape(f"{type(self).__name__}.rsample", shape))
        return self.loc + self.scale * standard_normal(shape, self.dtype)

    def entropy(self) -> Tensor:
        return self.scale.log() + (0.5 + _HALF_LOG_2PI)

    def log_prob(self, value: Any) -> Tensor:
        x = value_of(f"{type(self).__name__}.log_prob", value, self.loc)
        return -((x - self.loc) ** 2) / (2 * self.scale ** 2) - self.scale.log() - _HALF_LOG_2PI


class LogNormal(TransformedDistribution):
    """LogNormal(loc, scale): ``exp`` of a Normal(loc, scale) (``loc`` and ``scale`` are the normal's), a
    TransformedDistribution by ``ExpTransform`` as in Paddle. Its ``sample`` is differentiable like ``rsample``,
    as in Paddle."""

    def __init__(self, loc: Any, scale: Any) -> None:
        base = Normal(loc, scale)
        base.name = "LogNormal"
        self.loc, self.scale = base.loc, base.scale
        super().__init__(base, [ExpTransform()])

    @property
    def mean(self) -> Tensor:
        return (self.loc + self.scale ** 2 / 2).exp()

    @property
    def variance(self) -> Tensor:
        s2 = self.scale ** 2
        return s2.expm1() * (2 * self.loc + s2).exp()

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        return self._base.sample(sample_shape("LogNormal.sample", shape)).exp()

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        return self._base.rsample(sample_shape("LogNormal.rsample", shape)).exp()

    def entropy(self) -> Tensor:
        return self._base.entropy() + self.loc

    def log_prob(self, value: Any) -> Tensor:
        y = value_of("LogNormal.log_prob", value, self.loc).log()
        return self._base.log_prob(y) - y


class Uniform(Distribution):
    """Uniform(low, high) on ``(low, high)``: ``log_prob`` is ``-inf`` outside the open interval, as in Paddle.
    Paddle leaves ``mean``, ``variance`` and ``rsample`` unimplemented; here they are ``(low + high) / 2``,
    ``(high - low)**2 / 12`` and the (differentiable, as in Paddle) ``sample``."""

    def __init__(self, low: Any, high: Any, name: str | None = None) -> None:
        all_or_no_tensors("Uniform", low=low, high=high)
        self.name = name or "Uniform"
        self.low, self.high = broadcast(param("Uniform", "low", low), param("Uniform", "high", high))
        self.dtype = dtype_name(self.low)
        super().__init__(self.low.shape)

    @property
    def mean(self) -> Tensor:
        return (self.low + self.high) / 2

    @property
    def variance(self) -> Tensor:
        return (self.high - self.low) ** 2 / 12

    def sample(self, shape: Sequence[int] = (), seed: int = 0) -> Tensor:
        shape = self._extend_shape(sample_shape("Uniform.sample", shape))
        u = standard_uniform(shape, self.dtype, seed=seed)
        return self.low + (self.high - self.low) * u

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        return self.sample(sample_shape("Uniform.rsample", shape))

    def entropy(self) -> Tensor:
        return (self.high - self.low).log()

    def log_prob(self, value: Any) -> Tensor:
        return self.prob(value).log()

    def prob(self, value: Any) -> Tensor:
        x = value_of("Uniform.prob", value, self.low)
        inside = ((x > self.low) & (x < self.high)).astype(self.dtype)
        return inside / (self.high - self.low)


class Laplace(Distribution):
    """Laplace(loc, scale); ``sample`` is detached, ``rsample`` differentiable (as in Paddle)."""

    def __init__(self, loc: Any, scale: Any) -> None:
        self.loc, self.scale = broadcast(param("Laplace", "loc", loc), param("Laplace", "scale", scale))
        super().__init__(self.loc.shape)

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return self.scale * math.sqrt(2)

    @property
    def variance(self) -> Tensor:
        return 2 * self.scale ** 2

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        return self.rsample(sample_shape("Laplace.sample", shape)).detach()

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = self._extend_shape(sample_shape("Laplace.rsample", shape))
        dt = dtype_name(self.loc)
        u = standard_uniform(shape, dt, -1.0 + 2 * tiny(dt) ** 0.5, 1.0)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def entropy(self) -> Tensor:
        return (2 * self.scale).log() + 1

    def log_prob(self, value: Any) -> Tensor:
        x = value_of("Laplace.log_prob", value, self.loc)
        return -(2 * self.scale).log() - (x - self.loc).abs() / self.scale

    def cdf(self, value: Any) -> Tensor:
        x = value_of("Laplace.cdf", value, self.loc)
        z = x - self.loc
        return 0.5 - 0.5 * z.sign() * (-z.abs() / self.scale).expm1()

    def icdf(self, value: Any) -> Tensor:
        q = value_of("Laplace.icdf", value, self.loc) - 0.5
        return self.loc - self.scale * q.sign() * (-2 * q.abs()).log1p()


class Gamma(ExponentialFamily):
    """Gamma(concentration, rate); ``rsample`` is differentiable in both parameters (implicit reparameterisation
    of the gamma draw; Paddle's gives no gradient to ``concentration``), ``sample`` detached."""

    def __init__(self, concentration: Any, rate: Any) -> None:
        all_or_no_tensors("Gamma", concentration=concentration, rate=rate)
        self.concentration, self.rate = broadcast(param("Gamma", "concentration", concentration),
                                                  param("Gamma", "rate", rate))
        self.dtype = dtype_name(self.concentration)
        super().__init__(self.concentration.shape)

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.rate

    @property
    def variance(self) -> Tensor:
        return self.concentration / self.rate ** 2

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        return self.rsample(sample_shape("Gamma.sample", shape)).detach()

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = self._extend_shape(sample_shape("Gamma.rsample", shape))
        return draw("random_gamma", self.concentration, shape=list(shape)) / self.rate

    def entropy(self) -> Tensor:
        a = self.concentration
        return a - self.rate.log() + a.lgamma() + (1 - a) * a.digamma()

    def log_prob(self, value: Any) -> Tensor:
        x = value_of("Gamma.log_prob", value, self.concentration)
        a, b = self.concentration, self.rate
        return a * b.log() + (a - 1) * x.log() - b * x - a.lgamma()

    @property
    def _natural_parameters(self) -> tuple[Tensor, Tensor]:
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x: Tensor, y: Tensor) -> Tensor:
        return (x + 1).lgamma() + (x + 1) * (-y.reciprocal()).log()


class Exponential(ExponentialFamily):
    """Exponential(rate); ``rsample`` differentiable, ``sample`` detached. ``log_prob`` is Paddle's
    ``log(rate) - rate * value`` for any value (Paddle does not check the support)."""

    def __init__(self, rate: Any) -> None:
        self.rate = param("Exponential", "rate", rate)
        self.dtype = dtype_name(self.rate)
        super().__init__(self.rate.shape)

    @property
    def mean(self) -> Tensor:
        return 1 / self.rate

    @property
    def variance(self) -> Tensor:
        return self.rate ** -2

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        return self.rsample(sample_shape("Exponential.sample", shape)).detach()

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = self._extend_shape(sample_shape("Exponential.rsample", shape))
        u = standard_uniform(shape, self.dtype, tiny(self.dtype), 1.0)
        return -u.log() / self.rate

    def entropy(self) -> Tensor:
        return 1 - self.rate.log()

    def log_prob(self, value: Any) -> Tensor:
        return self.rate.log() - self.rate * value_of("Exponential.log_prob", value, self.rate)

    def cdf(self, value: Any) -> Tensor:
        return 1 - (-self.rate * value_of("Exponential.cdf", value, self.rate)).exp()

    def icdf(self, value: Any) -> Tensor:
        return -(-value_of("Exponential.icdf", value, self.rate)).log1p() / self.rate

    @property
    def _natural_parameters(self) -> tuple[Tensor]:
        return (-self.rate,)

    def _log_normalizer(self, x: Tensor) -> Tensor:
        return -(-x).log()


class Beta(ExponentialFamily):
    """Beta(alpha, beta); ``rsample`` is differentiable (the ratio of two reparameterised gamma draws; Paddle
    raises NotImplementedError), ``sample`` detached."""

    def __init__(self, alpha: Any, beta: Any) -> None:
        self.alpha, self.beta = broadcast(param("Beta", "alpha", alpha), param("Beta", "beta", beta))
        super().__init__(self.alpha.shape)

    @property
    def mean(self) -> Tensor:
        return self.alpha / (self.alpha + self.beta)

    @property
    def variance(self) -> Tensor:
        s = self.alpha + self.beta
        return self.alpha * self.beta / (s ** 2 * (s + 1))

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        return self.rsample(sample_shape("Beta.sample", shape)).detach()

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = list(self._extend_shape(sample_shape("Beta.rsample", shape)))
        x = draw("random_gamma", self.alpha, shape=shape)
        y = draw("random_gamma", self.beta, shape=shape)
        return x / (x + y)

    def entropy(self) -> Tensor:
        a, b = self.alpha, self.beta
        return (a.lgamma() + b.lgamma() - (a + b).lgamma() - (a - 1) * a.digamma() - (b - 1) * b.digamma()
                + (a + b - 2) * (a + b).digamma())

    def log_prob(self, value: Any) -> Tensor:
        x = value_of("Beta.log_prob", value, self.alpha)
        a, b = self.alpha, self.beta
        return (a - 1) * x.log() + (b - 1) * (-x).log1p() - a.lgamma() - b.lgamma() + (a + b).lgamma()

    @property
    def _natural_parameters(self) -> tuple[Tensor, Tensor]:
        return (self.alpha, self.beta)

    def _log_normalizer(self, x: Tensor, y: Tensor) -> Tensor:
        return x.lgamma() + y.lgamma() - (x + y).lgamma()
