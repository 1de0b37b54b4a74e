"""The count distributions: Binomial, Poisson and Geometric (the number of failures before the first success),
with Paddle 3.3.1's argument rules and formulas (entropies and KL divergences summed over the support)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._api import functional as F
from .._tensor.facade import Tensor, to_tensor
from ._base import (
    Distribution,
    draw,
    dtype_name,
    eps,
    param,
    real_param,
    sample_shape,
    standard_uniform,
    value_of,
)

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_TINY32 = float(np.finfo(np.float32).tiny)


def _float_tensor(api: str, pname: str, v: Any, shape_one: bool = False) -> Tensor:
    """A Python float (or int) as a float32 Tensor (of shape [1] for ``shape_one``, Paddle's Poisson), a Tensor
    in its floating dtype (float32 for an integer one), a list or numpy array through ``param`` (Paddle raises
    AttributeError for those; they are accepted here)."""
    if isinstance(v, float | int) and not isinstance(v, bool):
        return to_tensor(np.asarray([v] if shape_one else v, "float32"))
    if isinstance(v, Tensor):
        return v if dtype_name(v) in _FLOATS else v.astype("float32")
    return param(api, pname, v)


def _log_support(lp: Tensor, dtype: str) -> Tensor:
    """Paddle's cleaning of a log-mass: NaN to 0, ``-inf`` to ``-eps``, ``inf`` to the dtype's largest."""
    return F.nan_to_num(lp, neginf=-eps(dtype))


class Binomial(Distribution):
    """Binomial(total_count, probs): successes in ``total_count`` trials. ``total_count`` is an int or a Tensor
    (cast to ``probs``' dtype; a float is refused with a ValueError, as in Paddle), ``probs`` a float (float32) or
    a Tensor; the two are broadcast. Draws are counts in ``probs``' dtype (no gradient). ``log_prob`` clips
    ``probs`` to ``[eps, 1 - eps]`` and, as Paddle, turns an impossible value's ``-inf`` into ``-eps``;
    ``entropy`` and ``kl_divergence`` sum over ``0 .. max(total_count)``."""

    def __init__(self, total_count: Any, probs: Any) -> None:
        p = _float_tensor("Binomial", "probs", probs)
        self.dtype = dtype_name(p)
        if isinstance(total_count, Tensor):
            n = total_count.astype(self.dtype)
        elif isinstance(total_count, int | np.integer) and not isinstance(total_count, bool):
            n = to_tensor(np.asarray(total_count, self.dtype))
        else:
            raise ValueError(f"Binomial: total_count must be an int or a Tensor, but received "
                             f"{type(total_count).__name__} {total_count!r}; pass an int (or "
                             f"paddle.to_tensor for several counts).")
        self.total_count, self.probs = F.broadcast_tensors([n, p])
        super().__init__(self.total_count.shape)

    @property
    def mean(self) -> Tensor:
        return self.total_count * self.probs

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        out = self._extend_shape(sample_shape("Binomial.sample", shape, True))
        n = self.total_count.detach().expand(list(out))
        return draw("random_binomial", n, self.probs.detach().expand(list(out)))

    def _support(self) -> Tensor:
        top = int(np.max(self.total_count.numpy())) if self.total_count.size else 0
        return F.arange(top + 1, dtype=self.dtype).reshape([-1] + [1] * len(self.batch_shape))

    def entropy(self) -> Tensor:
        lp = self.log_prob(self._support())
        return -(lp.exp() * lp).sum(0)

    def log_prob(self, value: Any) -> Tensor:
        v = value_of("Binomial.log_prob", value, self.probs)
        n = self.total_count
        log_comb = (n + 1.0).lgamma() - (n - v + 1.0).lgamma() - (v + 1.0).lgamma()
        e = eps(self.dtype)
        p = self.probs.clip(e, 1 - e)
        return _log_support(log_comb + v * p.log() + (n - v) * (1 - p).log(), self.dtype)

    def prob(self, value: Any) -> Tensor:
        return self.log_prob(value).exp()

    def kl_divergence(self, other: Binomial) -> Tensor:
        return _kl_binomial(self, other)


def _kl_binomial(p: Binomial, q: Binomial) -> Tensor:
    support = p._support()
    lp, lq = p.log_prob(support), q.log_prob(support)
    return (lp.exp() * (lp - lq)).sum(0)


class Poisson(Distribution):
    """Poisson(rate): a Python number becomes a float32 Tensor of shape ``[1]`` (as in Paddle), a Tensor keeps
    its dtype. Draws (no gradient) are counts in the rate's dtype. ``log_prob`` turns ``-inf`` into ``-eps`` as
    Paddle; ``entropy`` (0 where the rate is 0) and ``kl_divergence`` (between distributions of the same
    ``batch_shape``, ValueError otherwise) sum over a support bounded at ``rate + 30 * sqrt(rate)``, as
    Paddle's."""

    def __init__(self, rate: Any) -> None:
        self.rate = _float_tensor("Poisson", "rate", rate, shape_one=True)
        self.dtype = dtype_name(self.rate)
        super().__init__(self.rate.shape)

    @property
    def mean(self) -> Tensor:
        return self.rate

    @property
    def variance(self) -> Tensor:
        return self.rate

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        out = self._extend_shape(sample_shape("Poisson.sample", shape, True))
        return draw("random_poisson", self.rate.detach().expand(list(out)))

    def _bound(self, rate: np.ndarray) -> int:
        """Paddle's upper end (exclusive) of the support: ``max(int(rate + 30 * s))`` with ``s`` the square root
        of the largest rate where that is at least 1, else 1."""
        dt = np.dtype(self.dtype if self.dtype in ("float32", "float64") else "float32")
        rate = np.asarray(rate, dt)
        top = rate.max() if rate.size else dt.type(0)
        s = np.sqrt(top) if top >= 1 else np.ones_like(rate)
        return int(np.max((rate + dt.type(30) * s).astype(np.int32)))

    def _values(self, upper: int) -> Tensor:
        return F.arange(0, upper, dtype=self.dtype).reshape([-1] + [1] * len(self.batch_shape))

    def entropy(self) -> Tensor:
        lp = self.log_prob(self._values(self._bound(self.rate.numpy())))
        proposed = -(lp.exp() * lp).sum(0)
        return proposed * (self.rate != 0.0).astype(self.dtype)

    def log_prob(self, value: Any) -> Tensor:
        v = value_of("Poisson.log_prob", value, self.rate)
        return _log_support(-self.rate + v * self.rate.log() - (v + 1).lgamma(), self.dtype)

    def prob(self, value: Any) -> Tensor:
        return self.log_prob(value).exp()

    def kl_divergence(self, other: Poisson) -> Tensor:
        return _kl_poisson(self, other)


def _kl_poisson(p: Poisson, q: Poisson) -> Tensor:
    if tuple(p.batch_shape) != tuple(q.batch_shape):
        raise ValueError(f"Poisson.kl_divergence: the two distributions must have the same batch_shape, but "
                         f"received {list(p.batch_shape)} and {list(q.batch_shape)}.")
    top = np.maximum(p.rate.numpy(), q.rate.numpy().astype(p.rate.numpy().dtype)).max()
    # Paddle sums over 0 .. (its support's last value) - 1
    values = p._values(p._bound(np.asarray(top)) - 1)
    lp, lq = p.log_prob(values), q.log_prob(values)
    return (lp.exp() * (lp - lq)).sum(0)


def _count(api: str, k: Any, like: Tensor) -> Any:
    """``k`` of Geometric's pmf/cdf: an int (kept a Python number) or a Tensor (cast to the probabilities'
    dtype; Paddle's refuses an integer Tensor); a float is refused with a TypeError, as in Paddle."""
    if isinstance(k, Tensor):
        return value_of(api, k, like)
    if isinstance(k, numbers.Integral) and not isinstance(k, bool):
        return int(k)
    raise TypeError(f"{api}: k must be an int or a Tensor, but received {type(k).__name__} {k!r}; pass an int "
                    f"number of failures or paddle.to_tensor(k).")


class Geometric(Distribution):
    """Geometric(probs): the number of failures before the first success (support ``0, 1, 2, ...``), with
    success probability ``probs`` (a real number, a float32 0-D Tensor, or a Tensor; a list is refused, as in
    Paddle). ``pmf``/``log_pmf``/``cdf`` take an int or a Tensor of counts; ``log_prob``/``prob`` are the same
    (Paddle's raise NotImplementedError). Draws are ``floor(log(u) / log(1 - p))`` in probs' dtype (``rsample``
    has a zero gradient, as in Paddle; ``sample`` is detached). ``kl_divergence`` is Paddle's formula
    ``p log(p/q) + (1-p) log((1-p)/(1-q))``, which is ``p`` times the divergence of the two geometric laws."""

    def __init__(self, probs: Any) -> None:
        self.probs = real_param("Geometric", "probs", probs)
        super().__init__(self.probs.shape)

    @property
    def mean(self) -> Tensor:
        return 1.0 / self.probs - 1.0

    @property
    def variance(self) -> Tensor:
        return (1.0 / self.probs - 1.0) / self.probs

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def pmf(self, k: Any) -> Tensor:
        return (1.0 - self.probs).pow(_count("Geometric.pmf", k, self.probs)) * self.probs

    def log_pmf(self, k: Any) -> Tensor:
        return self.pmf(_count("Geometric.log_pmf", k, self.probs)).log()

    def prob(self, value: Any) -> Tensor:
        return self.pmf(_count("Geometric.prob", value, self.probs))

    def log_prob(self, value: Any) -> Tensor:
        return self.log_pmf(_count("Geometric.log_prob", value, self.probs))

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        return self.rsample(sample_shape("Geometric.sample", shape, True)).detach()

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        out = self._extend_shape(sample_shape("Geometric.rsample", shape, True))
        u = standard_uniform(out, dtype_name(self.probs), _TINY32, 1.0)
        return (u.log() / (-self.probs).log1p()).floor()

    def entropy(self) -> Tensor:
        p = self.probs
        return -((1.0 - p) * (1.0 - p).log() + p * p.log()) / p

    def cdf(self, k: Any) -> Tensor:
        return 1.0 - (1.0 - self.probs).pow(_count("Geometric.cdf", k, self.probs) + 1)

    def kl_divergence(self, other: Distribution) -> Tensor:
        if not isinstance(other, Geometric):
            raise TypeError(f"Geometric.kl_divergence: other must be a Geometric, but received "
                            f"{type(other).__name__}.")
        return _kl_geometric(self, other)


def _kl_geometric(p: Geometric, q: Geometric) -> Tensor:
    """``sum_k p(k) log(p(k) / q(k))`` over the failures ``k``: ``log(a / b) + (1 - a) / a * log((1 - a) / (1 - b))``.
    (Paddle 3.3.1 returns ``a`` times this, the Bernoulli divergence: not mirrored.)"""
    a, b = p.probs, q.probs
    return (a / b).log() + (1.0 - a) / a * ((1.0 - a) / (1.0 - b)).log()
