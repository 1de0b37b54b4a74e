"""The discrete distributions: Categorical (Paddle's, over ``logits``), Bernoulli and Multinomial."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._api import functional as F
from .._tensor.facade import Tensor, to_tensor
from ._base import (
    Distribution,
    ExponentialFamily,
    draw,
    dtype_name,
    param,
    sample_shape,
    standard_uniform,
    tiny,
    value_of,
)


class Categorical(Distribution):
    """Categorical over the last axis of ``logits``, with Paddle 3.3.1's two readings of them: ``sample``,
    ``entropy`` and ``kl_divergence`` take ``softmax(logits)`` as the probabilities, while ``probs(value)`` and
    ``log_prob(value)`` take ``logits / logits.sum(-1)`` (unnormalised probabilities). ``probs(value)``: for
    1-D logits, the probability of each index in ``value`` (any shape); for batched logits, a 1-D ``value`` is
    looked up in every batch row (``[*batch, len(value)]``), otherwise ``value`` has the batch shape plus a last
    axis of indices. ``kl_divergence`` keeps the category axis (shape ``[*batch, 1]``). ``batch_shape`` is
    ``logits.shape[:-1]`` (Paddle's raises AttributeError); ``mean``/``variance``/``rsample`` are not defined."""

    def __init__(self, logits: Any, name: str | None = None) -> None:
        self.name = name or "Categorical"
        self.logits = param("Categorical", "logits", logits)
        if self.logits.ndim < 1:
            raise ValueError(f"Categorical: logits must have at least one axis (the categories), but received a "
                             f"Tensor of shape {list(self.logits.shape)}.")
        self.dtype = dtype_name(self.logits)
        self._prob = self.logits / self.logits.sum(-1, keepdim=True)
        super().__init__(self.logits.shape[:-1])

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = self._extend_shape(sample_shape("Categorical.sample", shape))
        return draw("random_categorical", self.logits, shape=list(shape))

    def entropy(self) -> Tensor:
        logp = _log_softmax(self.logits)
        return -(logp.exp() * logp).sum(-1)

    def probs(self, value: Any) -> Tensor:
        if not isinstance(value, Tensor):
            value = to_tensor(np.asarray(value, "int64"))
        if dtype_name(value) not in ("int32", "int64"):
            raise ValueError(f"Categorical.probs: value must hold category indices (int32 or int64), but received "
                            f"dtype {dtype_name(value)}; pass value.astype('int64').")
        p = self._prob
        if p.ndim == 1:
            return F.gather(p, value.flatten()).reshape(value.shape)
        batch = list(p.shape[:-1])
        if value.ndim == 1:
            idx = value.reshape([1] * len(batch) + [-1]).expand([*batch, value.shape[0]])
        elif list(value.shape[:-1]) == batch:
            idx = value
        else:
            raise ValueError(f"Categorical.probs: value must be 1-D or have the batch shape {batch} plus a last "
                             f"axis of indices, but received shape {list(value.shape)}.")
        return F.take_along_axis(p, idx, -1)

    def prob(self, value: Any) -> Tensor:
        return self.probs(value)

    def log_prob(self, value: Any) -> Tensor:
        return self.probs(value).log()


def _log_softmax(x: Tensor) -> Tensor:
    return x - F.logsumexp(x, -1, keepdim=True)


def _xlogx(p: Tensor) -> Tensor:
    """``p * log(p)``, 0 at ``p = 0``."""
    return F.where(p > 0, p * F.where(p > 0, p, F.ones_like(p)).log(), F.zeros_like(p))


class Bernoulli(ExponentialFamily):
    """Bernoulli(probs): draws are 0.0/1.0 in the parameter's dtype. As in Paddle, ``probs`` and ``logits`` are
    attributes (Tensors), ``log_prob(value)`` is ``value*log(p) + (1-value)*log(1-p)`` for any value, and
    ``rsample(shape, temperature)`` is the relaxed (Gumbel-sigmoid) draw, differentiable in ``probs``.
    ``name`` is Paddle's op name."""

    def __init__(self, probs: Any, name: str | None = None) -> None:
        self.name = name or "Bernoulli"
        self.probs = param("Bernoulli", "probs", probs)
        self.dtype = dtype_name(self.probs)
        self.logits = self.probs.log() - (-self.probs).log1p()
        super().__init__(self.probs.shape)

    @property
    def mean(self) -> Tensor:
        return self.probs

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = self._extend_shape(sample_shape("Bernoulli.sample", shape))
        return draw("random_bernoulli", self.probs.detach().expand(list(shape)) if shape else self.probs.detach())

    def rsample(self, shape: Sequence[int] = (), temperature: float = 1.0) -> Tensor:
        shape = self._extend_shape(sample_shape("Bernoulli.rsample", shape))
        u = standard_uniform(shape, self.dtype, tiny(self.dtype), 1.0)
        noise = u.log() - (-u).log1p()
        return F.sigmoid((self.logits + noise) / temperature)

    def entropy(self) -> Tensor:
        p = self.probs
        return -(_xlogx(p) + _xlogx(1 - p))

    def log_prob(self, value: Any) -> Tensor:
        x = value_of("Bernoulli.log_prob", value, self.probs)
        return x * self.probs.log() + (1 - x) * (-self.probs).log1p()

    def prob(self, value: Any) -> Tensor:
        return self.log_prob(value).exp()

    def cdf(self, value: Any) -> Tensor:
        x = value_of("Bernoulli.cdf", value, self.probs)
        zero = F.zeros_like(x)
        return F.where(x < 0, zero, F.where(x < 1, (1 - self.probs) + zero, zero + 1))


class Multinomial(Distribution):
    """Multinomial(total_count, probs): counts over the last axis of ``probs`` (normalised to sum 1), in
    ``probs``' dtype. ``total_count`` is a positive int (Paddle raises ValueError otherwise). ``log_prob`` uses
    the total of ``value`` in its factorial term, as Paddle does."""

    def __init__(self, total_count: int, probs: Any) -> None:
        if isinstance(total_count, bool) or not isinstance(total_count, int | np.integer) or total_count < 1:
            raise ValueError(f"Multinomial: total_count must be an int greater than zero, but received "
                             f"{type(total_count).__name__} {total_count!r}.")
        p = param("Multinomial", "probs", probs)
        if p.ndim < 1:
            raise ValueError(f"Multinomial: probs must have at least one axis (the categories), but received a "
                             f"Tensor of shape {list(p.shape)}.")
        self.total_count = int(total_count)
        self.probs = p / p.sum(-1, keepdim=True)
        super().__init__(p.shape[:-1], p.shape[-1:])

    @property
    def mean(self) -> Tensor:
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        shape = sample_shape("Multinomial.sample", shape)
        return draw("random_counts", self.probs.detach(), total_count=self.total_count, shape=list(shape))

    def log_prob(self, value: Any) -> Tensor:
        x = value_of("Multinomial.log_prob", value, self.probs)
        return ((x.sum(-1) + 1).lgamma() - (x + 1).lgamma().sum(-1)
                + (x * self.probs.log()).sum(-1))

    def entropy(self) -> Tensor:
        n = self.total_count
        k = to_tensor(np.arange(n + 1, dtype=dtype_name(self.probs)))
        p = self.probs.unsqueeze(-1)  # [..., K, 1] against k: [n + 1]
        log_binom = (float(np.log(np.arange(1, n + 1)).sum()) - (k + 1).lgamma() - (n - k + 1).lgamma()
                     + k * p.log() + (n - k) * (-p).log1p())
        pmf = log_binom.exp()
        lfact = (k + 1).lgamma()
        cross = (pmf * lfact).sum([-1, -2])
        plogp = _xlogx(self.probs).sum(-1)
        return -float(np.log(np.arange(1, n + 1)).sum()) - n * plogp + cross
