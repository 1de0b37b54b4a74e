"""Distributions built from others: ``Independent`` (batch axes taken into the event) and
``TransformedDistribution`` (a base distribution pushed through a chain of transforms)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._tensor.facade import Tensor
from ._base import Distribution, sum_rightmost
from ._transform import ChainTransform, Transform


class Independent(Distribution):
    """``base`` with its ``reinterpreted_batch_rank`` rightmost batch axes taken as event axes: ``log_prob`` and
    ``entropy`` sum over them; ``mean``, ``variance`` and draws are the base's. ``rsample`` is the base's
    (Paddle's Independent has none)."""

    def __init__(self, base: Distribution, reinterpreted_batch_rank: int) -> None:
        if not isinstance(base, Distribution):
            raise TypeError(f"Independent: base must be a Distribution, but received {type(base).__name__}.")
        n = len(base.batch_shape)
        if isinstance(reinterpreted_batch_rank, bool) or not isinstance(reinterpreted_batch_rank, int):
            raise TypeError(f"Independent: reinterpreted_batch_rank must be an int, but received "
                            f"{type(reinterpreted_batch_rank).__name__}.")
        if not 0 < reinterpreted_batch_rank <= n:
            raise ValueError(f"Independent: reinterpreted_batch_rank must satisfy 0 < reinterpreted_batch_rank <= "
                             f"{n} (the base's batch rank), but received {reinterpreted_batch_rank}.")
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        shape = tuple(base.batch_shape) + tuple(base.event_shape)
        super().__init__(shape[: n - reinterpreted_batch_rank], shape[n - reinterpreted_batch_rank:])

    @property
    def base(self) -> Distribution:
        return self._base

    @property
    def reinterpreted_batch_rank(self) -> int:
        return self._reinterpreted_batch_rank

    @property
    def mean(self) -> Tensor:
        return self._base.mean

    @property
    def variance(self) -> Tensor:
        return self._base.variance

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        return self._base.sample(shape)

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        return self._base.rsample(shape)

    def log_prob(self, value: Any) -> Tensor:
        return sum_rightmost(self._base.log_prob(value), self._reinterpreted_batch_rank)

    def prob(self, value: Any) -> Tensor:
        return self.log_prob(value).exp()

    def entropy(self) -> Tensor:
        return sum_rightmost(self._base.entropy(), self._reinterpreted_batch_rank)


class TransformedDistribution(Distribution):
    """The distribution of ``y = t_n(...t_1(x))`` for ``x`` drawn from ``base`` and ``transforms`` ``[t_1, ...,
    t_n]``: draws are pushed through the transforms, ``log_prob(y)`` is the base's at ``x = f^-1(y)`` minus the
    log-Jacobians (summed over the event axes). Where the chain's domain has more event axes than the base, the
    base's rightmost batch axes become event axes (an ``Independent``)."""

    def __init__(self, base: Distribution, transforms: Sequence[Transform]) -> None:
        if not isinstance(base, Distribution):
            raise TypeError(f"TransformedDistribution: base must be a Distribution, but received "
                            f"{type(base).__name__}.")
        if not isinstance(transforms, Sequence) or isinstance(transforms, str):
            raise TypeError(f"TransformedDistribution: transforms must be a sequence of Transforms, but received "
                            f"{type(transforms).__name__}; wrap one transform in a list.")
        bad = [type(t).__name__ for t in transforms if not isinstance(t, Transform)]
        if bad:
            raise TypeError(f"TransformedDistribution: every element of transforms must be a Transform, but "
                            f"received {', '.join(bad)}.")
        self._base = base
        self._transforms = list(transforms)
        if not transforms:
            super().__init__(base.batch_shape, base.event_shape)
            return
        chain = ChainTransform(transforms)
        shape = tuple(base.batch_shape) + tuple(base.event_shape)
        rank = chain._domain.event_rank
        if len(shape) < rank:
            raise ValueError(f"TransformedDistribution: the transforms need values of at least {rank} axes, but the "
                             f"base's draws have shape {list(shape)}.")
        if rank > len(base.event_shape):
            base = Independent(base, rank - len(base.event_shape))
        out = tuple(chain.forward_shape(tuple(base.batch_shape) + tuple(base.event_shape)))
        out_rank = chain._codomain.event_rank + max(len(base.event_shape) - rank, 0)
        super().__init__(out[: len(out) - out_rank], out[len(out) - out_rank:])

    @property
    def base(self) -> Distribution:
        return self._base

    @property
    def transforms(self) -> list[Transform]:
        return self._transforms

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        x = self._base.sample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        x = self._base.rsample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def log_prob(self, value: Any) -> Tensor:
        log_prob: Any = 0.0
        y = value
        rank = len(self.event_shape)
        for t in reversed(self._transforms):
            x = t.inverse(y)
            rank += t._domain.event_rank - t._codomain.event_rank
            log_prob = log_prob - sum_rightmost(t.forward_log_det_jacobian(x), rank - t._domain.event_rank)
            y = x
        return log_prob + sum_rightmost(self._base.log_prob(y), rank - len(self._base.event_shape))
