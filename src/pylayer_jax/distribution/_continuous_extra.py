"""More one-dimensional continuous distributions: Cauchy, Gumbel, StudentT, Chi2 (a Gamma) and
ContinuousBernoulli, each with Paddle 3.3.1's argument rules and formulas."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._api import functional as F
from .._tensor.facade import Tensor, to_tensor
from ._base import (
    Distribution,
    broadcast,
    dtype_name,
    eps,
    param,
    real_param,
    sample_shape,
    standard_normal,
    standard_uniform,
    value_of,
)
from ._continuous import Gamma, Uniform
from ._transformed import TransformedDistribution

_EULER = float(np.euler_gamma)
_F32 = np.finfo(np.float32)


def _tensor_value(api: str, value: Any, like: Tensor) -> Tensor:
    """Cauchy's rule: ``value`` must be a Tensor (Paddle raises TypeError otherwise); cast to the parameters'
    dtype."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{api}: value must be a Tensor, but received {type(value).__name__}; pass "
                        f"paddle.to_tensor(value).")
    return value_of(api, value, like)


class Cauchy(Distribution):
    """Cauchy(loc, scale): each a real number (a float32 0-D Tensor) or a Tensor; a list is refused (TypeError,
    as in Paddle). ``mean``, ``variance`` and ``stddev`` do not exist (ValueError, as in Paddle); ``rsample`` is
    ``loc + scale * tan(pi * (u - 0.5))``, differentiable, ``sample`` the same detached. ``log_prob``, ``prob`` and
    ``cdf`` take a Tensor (broadcast with the parameters). ``name`` is Paddle's op name."""

    def __init__(self, loc: Any, scale: Any, name: str | None = None) -> None:
        self.name = name if name is not None else "Cauchy"
        self.loc, self.scale = broadcast(real_param("Cauchy", "loc", loc), real_param("Cauchy", "scale", scale))
        self.dtype = dtype_name(self.loc)
        super().__init__(self.loc.shape)

    @property
    def mean(self) -> Tensor:
        raise ValueError("Cauchy.mean: the Cauchy distribution has no mean (its tails are too heavy); use loc, "
                         "its median.")

    @property
    def variance(self) -> Tensor:
        raise ValueError("Cauchy.variance: the Cauchy distribution has no variance (its tails are too heavy); "
                         "use scale, its half interquartile range.")

    @property
    def stddev(self) -> Tensor:
        raise ValueError("Cauchy.stddev: the Cauchy distribution has no standard deviation (its tails are too "
                         "heavy); use scale, its half interquartile range.")

    def sample(self, shape: Sequence[int] = (), name: str | None = None) -> Tensor:
        return self.rsample(sample_shape("Cauchy.sample", shape, True)).detach()

    def rsample(self, shape: Sequence[int] = (), name: str | None = None) -> Tensor:
        shape = self._extend_shape(sample_shape("Cauchy.rsample", shape, True))
        u = standard_uniform(shape, self.dtype)
        return self.loc + self.scale * (math.pi * (u - 0.5)).tan()

    def _standardised(self, api: str, value: Any) -> Tensor:
        v = _tensor_value(api, value, self.loc)
        loc, scale, v = F.broadcast_tensors([self.loc, self.scale, v])
        return (v - loc) / scale, scale

    def prob(self, value: Tensor) -> Tensor:
        _tensor_value("Cauchy.prob", value, self.loc)
        return self.log_prob(value).exp()

    def log_prob(self, value: Tensor) -> Tensor:
        z, scale = self._standardised("Cauchy.log_prob", value)
        return -(z ** 2).log1p() - (scale.log() + math.log(math.pi))

    def cdf(self, value: Tensor) -> Tensor:
        z, _ = self._standardised("Cauchy.cdf", value)
        return z.atan() / math.pi + 0.5

    def entropy(self) -> Tensor:
        return F.full(list(self.loc.shape), math.log(4 * math.pi), dtype=self.dtype) + self.scale.log()

    def kl_divergence(self, other: Distribution) -> Tensor:
        if not isinstance(other, Cauchy):
            raise TypeError(f"Cauchy.kl_divergence: other must be a Cauchy, but received {type(other).__name__}.")
        return _kl_cauchy(self, other)


def _kl_cauchy(p: Cauchy, q: Cauchy) -> Tensor:
    t1 = ((p.scale + q.scale) ** 2 + (p.loc - q.loc) ** 2).log()
    return t1 - (4 * p.scale * q.scale).log()


class Gumbel(TransformedDistribution):
    """Gumbel(loc, scale) (each a real number or a Tensor; a list is refused, as in Paddle): a
    TransformedDistribution over Uniform(tiny, 1 - eps) (float32's), drawn as ``loc - scale * log(-log(u))``;
    ``rsample`` is differentiable, ``sample`` the same detached. ``log_prob`` is ``log(prob)`` (as Paddle
    computes it, so it reaches ``-inf`` where the density underflows) and ``cdf`` is computed in ``value``'s
    dtype."""

    def __init__(self, loc: Any, scale: Any) -> None:
        self.loc, self.scale = broadcast(real_param("Gumbel", "loc", loc), real_param("Gumbel", "scale", scale))
        self.base_dist = Uniform(F.full_like(self.loc, float(_F32.tiny)), F.full_like(self.loc, float(1 - _F32.eps)))
        super().__init__(self.base_dist, ())

    @property
    def mean(self) -> Tensor:
        return self.loc + self.scale * _EULER

    @property
    def variance(self) -> Tensor:
        return self.scale ** 2 * F.full(list(self.loc.shape), math.pi ** 2, dtype=dtype_name(self.scale)) / 6

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def prob(self, value: Any) -> Tensor:
        y = (self.loc - value_of("Gumbel.prob", value, self.loc)) / self.scale
        return (y - y.exp()).exp() / self.scale

    def log_prob(self, value: Any) -> Tensor:
        return self.prob(value).log()

    def cdf(self, value: Any) -> Tensor:
        if isinstance(value, Tensor):
            dt = dtype_name(value)
            loc, scale = self.loc.astype(dt), self.scale.astype(dt)
        else:
            value, loc, scale = value_of("Gumbel.cdf", value, self.loc), self.loc, self.scale
        return (-(-(value - loc) / scale).exp()).exp()

    def entropy(self) -> Tensor:
        return self.scale.log() + (1 + _EULER)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        return self.rsample(sample_shape("Gumbel.sample", shape, True)).detach()

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        u = self.base_dist.sample(sample_shape("Gumbel.rsample", shape, True))
        return self.loc - self.scale * (-u.log()).log()


def _paddle_floats(api: str, **params: Any) -> list[Tensor]:
    """Paddle's ``_broadcast_all`` (StudentT): floats, lists, tuples, numpy arrays or Tensors (an int is refused
    with a TypeError, as in Paddle); the non-Tensors take the first Tensor's dtype, else float32; then all are
    broadcast together."""
    dtype = next((dtype_name(v) for v in params.values() if isinstance(v, Tensor)), "float32")
    out = []
    for k, v in params.items():
        if isinstance(v, Tensor):
            out.append(v if dtype_name(v) == dtype else v.astype(dtype))
            continue
        if isinstance(v, bool) or not isinstance(v, float | np.floating | list | tuple | np.ndarray):
            raise TypeError(f"{api}: {k} must be a float, a list, a tuple, a numpy.ndarray or a Tensor, but "
                            f"received {type(v).__name__} {v!r}; write {k}={float(v) if _real(v) else '...'} for a "
                            f"number.")
        out.append(param(api, k, v, dtype))
    return broadcast(*out)


def _real(v: Any) -> bool:
    return isinstance(v, int | float | np.number) and not isinstance(v, bool)


def _check_nonnegative(api: str, name: str, t: Tensor) -> None:
    if not bool((t >= 0.0).all()):
        raise ValueError(f"{api}: every element of {name} must be non-negative, but received "
                         f"{np.asarray(t.numpy()).tolist()}.")


class StudentT(Distribution):
    """StudentT(df, loc, scale): floats, lists, numpy arrays or Tensors (an int is refused, as in Paddle),
    broadcast together; ``df`` and ``scale`` must be non-negative (ValueError). ``mean`` is NaN where
    ``df <= 1``; ``variance`` is ``inf`` for ``1 < df <= 2`` and NaN for ``df <= 1`` (and, as in Paddle, passes
    no gradient to ``df``). ``sample`` is ``loc + scale * z / sqrt(chi2 / df)`` with the chi-square draw
    detached (so, as in Paddle, it carries gradients to ``loc``, ``scale`` and ``df``); ``rsample``
    (Paddle has none) reparameterises the chi-square draw too."""

    def __init__(self, df: Any, loc: Any, scale: Any, name: str | None = None) -> None:
        self.name = name if name is not None else "StudentT"
        self.df, self.loc, self.scale = _paddle_floats("StudentT", df=df, loc=loc, scale=scale)
        _check_nonnegative("StudentT", "df", self.df)
        _check_nonnegative("StudentT", "scale", self.scale)
        self.dtype = dtype_name(self.df)
        super().__init__(self.df.shape)
        self._chi2 = Gamma(0.5 * self.df, F.full_like(self.df, 0.5))

    @property
    def mean(self) -> Tensor:
        return F.where(self.df > 1.0, self.loc, F.full_like(self.loc, math.nan))

    @property
    def variance(self) -> Tensor:
        df = self.df.detach()
        var = F.where(df > 2.0, self.scale ** 2 * df / (df - 2), F.full_like(df, math.nan))
        return F.where((df <= 2.0) & (df > 1.0), F.full_like(var, math.inf), var)

    def _draw(self, shape: tuple[int, ...], chi2: Tensor) -> Tensor:
        z = standard_normal(self._extend_shape(shape), self.dtype)
        return self.loc + self.scale * (z * (chi2 / self.df).rsqrt())

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = sample_shape("StudentT.sample", shape, True)
        return self._draw(shape, self._chi2.sample(shape))

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = sample_shape("StudentT.rsample", shape, True)
        return self._draw(shape, self._chi2.rsample(shape))

    def entropy(self) -> Tensor:
        df = self.df
        lbeta = (0.5 * df).lgamma() + math.lgamma(0.5) - (0.5 * (df + 1)).lgamma()
        return (self.scale.log() + 0.5 * (df + 1) * ((0.5 * (df + 1)).digamma() - (0.5 * df).digamma())
                + 0.5 * df.log() + lbeta)

    def log_prob(self, value: Any) -> Tensor:
        v = value_of("StudentT.log_prob", value, self.df)
        y = (v - self.loc) / self.scale
        z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + (0.5 * self.df).lgamma()
             - (0.5 * (self.df + 1.0)).lgamma())
        return -0.5 * (self.df + 1.0) * (y ** 2 / self.df).log1p() - z

    def prob(self, value: Any) -> Tensor:
        return self.log_prob(value).exp()


class Chi2(Gamma):
    """Chi2(df): the Gamma(df / 2, 1 / 2). ``df`` is a float, a list, a numpy array (all taken as float32, as in
    Paddle) or a Tensor; an int is refused (TypeError) and ``df`` must be positive (ValueError), as in Paddle."""

    def __init__(self, df: Any) -> None:
        if isinstance(df, Tensor):
            d = df if dtype_name(df) in ("float16", "bfloat16", "float32", "float64") else df.astype("float32")
        else:
            if isinstance(df, bool) or not isinstance(df, float | np.floating | list | tuple | np.ndarray):
                raise TypeError(f"Chi2: df must be a float, a list, a tuple, a numpy.ndarray or a Tensor, but "
                                f"received {type(df).__name__} {df!r}"
                                + (f"; write {float(df)} for a number." if _real(df) else "."))
            d = param("Chi2", "df", df, "float32")
            if dtype_name(d) != "float32":
                d = d.astype("float32")
        if not bool((d > 0).all()):
            raise ValueError(f"Chi2: df must be positive, but received {np.asarray(d.numpy()).tolist()}.")
        self.df = d
        super().__init__(d * 0.5, F.full_like(d, 0.5))


class ContinuousBernoulli(Distribution):
    """ContinuousBernoulli(probs, lims=(0.499, 0.501)) on ``[0, 1]``, density proportional to
    ``p**x (1-p)**(1-x)``. A Python number becomes a float32 Tensor of shape ``[1]`` (as in Paddle); ``probs``
    is clipped to ``[eps, 1 - eps]``. Within ``lims`` of 1/2 the normaliser, mean and variance use Paddle's
    Taylor expansions. ``rsample`` is ``icdf`` of a uniform draw (differentiable), ``sample`` detached."""

    def __init__(self, probs: Any, lims: Sequence[float] = (0.499, 0.501)) -> None:
        if _real(probs):
            p = to_tensor(np.asarray([probs], "float32"))
        else:
            p = param("ContinuousBernoulli", "probs", probs)
        self.dtype = dtype_name(p)
        self.lims = to_tensor(np.asarray(lims, self.dtype))
        e = eps(self.dtype)
        self.probs = p.clip(e, 1 - e)
        super().__init__(self.probs.shape)

    def _outside(self) -> Tensor:
        return (self.probs <= self.lims[0]) | (self.probs > self.lims[1])

    def _cut_probs(self) -> Tensor:
        return F.where(self._outside(), self.probs, self.lims[0] * F.ones_like(self.probs))

    @staticmethod
    def _atanh(v: Tensor) -> Tensor:
        return 0.5 * (v.log1p() - (-v).log1p())

    def _log_constant(self) -> Tensor:
        cut = self._cut_probs()
        low = F.where(cut <= 0.5, cut, F.zeros_like(cut))
        high = F.where(cut >= 0.5, cut, F.ones_like(cut))
        proposed = ((2.0 * self._atanh(1.0 - 2.0 * cut).abs()).log()
                    - F.where(cut <= 0.5, (-2.0 * low).log1p(), (2.0 * high - 1.0).log()))
        x = (self.probs - 0.5) ** 2
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return F.where(self._outside(), proposed, taylor)

    @property
    def mean(self) -> Tensor:
        cut = self._cut_probs()
        proposed = cut / (2.0 * cut - 1.0) + 1.0 / (2.0 * self._atanh(1.0 - 2.0 * cut))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * x ** 2) * x
        return F.where(self._outside(), proposed, taylor)

    @property
    def variance(self) -> Tensor:
        cut = self._cut_probs()
        proposed = (cut * (cut - 1.0) / (1.0 - 2.0 * cut) ** 2
                    + 1.0 / ((-cut).log1p() - cut.log()) ** 2)
        x = (self.probs - 0.5) ** 2
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return F.where(self._outside(), proposed, taylor)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        return self.rsample(sample_shape("ContinuousBernoulli.sample", shape, True)).detach()

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = self._extend_shape(sample_shape("ContinuousBernoulli.rsample", shape, True))
        return self.icdf(standard_uniform(shape, self.dtype))

    def log_prob(self, value: Any) -> Tensor:
        v = value_of("ContinuousBernoulli.log_prob", value, self.probs)
        cross = F.nan_to_num(v * self.probs.log() + (1.0 - v) * (1 - self.probs).log(), neginf=-eps(self.dtype))
        return self._log_constant() + cross

    def prob(self, value: Any) -> Tensor:
        return self.log_prob(value).exp()

    def entropy(self) -> Tensor:
        log_p, log_q = self.probs.log(), (-self.probs).log1p()
        h = -self._log_constant() + self.mean * (log_q - log_p) - log_q
        return F.where(self.probs == 0.5, F.zeros_like(self.probs), h)

    def cdf(self, value: Any) -> Tensor:
        v = value_of("ContinuousBernoulli.cdf", value, self.probs)
        cut = self._cut_probs()
        cdfs = (cut.pow(v) * (1.0 - cut).pow(1.0 - v) + cut - 1.0) / (2.0 * cut - 1.0)
        inner = F.where(self._outside(), cdfs, v)
        return F.where(v <= 0.0, F.zeros_like(v), F.where(v >= 1.0, F.ones_like(v), inner))

    def icdf(self, value: Any) -> Tensor:
        v = value_of("ContinuousBernoulli.icdf", value, self.probs)
        cut = self._cut_probs()
        x = ((-cut + v * (2.0 * cut - 1.0)).log1p() - (-cut).log1p()) / (cut.log() - (-cut).log1p())
        return F.where(self._outside(), x, v)

    def kl_divergence(self, other: ContinuousBernoulli) -> Tensor:
        return _kl_continuous_bernoulli(self, other)


def _kl_continuous_bernoulli(p: ContinuousBernoulli, q: ContinuousBernoulli) -> Tensor:
    if tuple(p.batch_shape) != tuple(q.batch_shape):
        raise ValueError(f"ContinuousBernoulli.kl_divergence: the two distributions must have the same "
                         f"batch_shape, but received {list(p.batch_shape)} and {list(q.batch_shape)}.")
    log_q, log_1q = q.probs.log(), (-q.probs).log1p()
    return -p.entropy() - (q._log_constant() + p.mean * (log_q - log_1q) + log_1q)
