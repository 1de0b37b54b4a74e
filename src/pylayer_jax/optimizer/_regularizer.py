"""Weight-decay regularizers: ``L1Decay`` and ``L2Decay`` (``paddle.regularizer``).

Layer L5. A regularizer adds a decay term to a parameter's gradient before the optimizer's
rule runs (after gradient clipping, as Paddle does): ``L2Decay(c)`` adds ``c * param``,
``L1Decay(c)`` adds ``c * sign(param)``. As optax transformations they are
``optax.add_decayed_weights`` and :func:`add_l1_decay`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax.numpy as jnp
import optax


class WeightDecayRegularizer:
    """Base class of the regularizers; ``coeff`` is the decay coefficient."""

    kind = ""

    def __init__(self, coeff: float = 0.0) -> None:
        if isinstance(coeff, bool) or not isinstance(coeff, int | float):
            raise TypeError(
                f"{type(self).__name__}: coeff must be a float, but received {type(coeff).__name__}; "
                f"pass e.g. {type(self).__name__}(1e-4)."
            )
        self._coeff = float(coeff)

    @property
    def coeff(self) -> float:
        return self._coeff

    def _key(self) -> tuple[str, float]:
        return (self.kind, self._coeff)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(coeff={self._coeff})"


class L1Decay(WeightDecayRegularizer):
    """L1 weight decay: the gradient gets ``coeff * sign(param)`` added.

    Example::

        opt = pylayer_jax.optimizer.SGD(0.1, parameters=[w], weight_decay=L1Decay(1e-4))
    """

    kind = "l1"


class L2Decay(WeightDecayRegularizer):
    """L2 weight decay: the gradient gets ``coeff * param`` added.

    Example::

        opt = pylayer_jax.optimizer.Momentum(0.1, parameters=[w], weight_decay=L2Decay(1e-4))
    """

    kind = "l2"


class _Empty(NamedTuple):
    pass


def add_l1_decay(coeff: float) -> optax.GradientTransformation:
    """``g + coeff * sign(p)``: L1 decay as an optax transformation."""

    def init(params: Any) -> _Empty:
        return _Empty()

    def update(updates: Any, state: _Empty, params: Any = None) -> tuple[Any, _Empty]:
        return updates + jnp.asarray(coeff, updates.dtype) * jnp.sign(params), state

    return optax.GradientTransformation(init, update)


def decay_transform(key: tuple[str, float] | None) -> optax.GradientTransformation:
    """The transformation of a regularizer key ``(kind, coeff)``; identity for None."""
    if key is None or key[1] == 0.0:
        return optax.identity()
    if key[0] == "l1":
        return add_l1_decay(key[1])
    return optax.add_decayed_weights(key[1])
