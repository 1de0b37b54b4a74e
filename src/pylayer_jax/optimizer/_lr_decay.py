"""Decaying learning-rate schedulers: a rate computed from ``base_lr`` and ``last_epoch`` (layer L5).

Each rate is Paddle's formula in Python floats (a compiled schedule may divide by multiplying with a
reciprocal: ``(1 - 5 / 5) ** 0.5`` then came out NaN); Paddle's stepping (``step()``, ``step(epoch)``,
``last_epoch``, ``last_lr``) is the base class's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ._lr_base import LRScheduler, _check, _number, _positive_int


class NoamDecay(LRScheduler):
    """``lr = base * d_model**-0.5 * min(epoch**-0.5, warmup_steps**-1.5 * epoch)`` (epoch 0: ``min(1, 0)``)."""

    def __init__(
        self, d_model: int, warmup_steps: int, learning_rate: float = 1.0, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        _check("NoamDecay", _number("NoamDecay", "d_model", d_model) > 0, f"d_model must be > 0, but received {d_model}.")
        _number("NoamDecay", "warmup_steps", warmup_steps)
        self.d_model = d_model
        self.warmup_steps = warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        a = 1 if self.last_epoch == 0 else self.last_epoch ** (-0.5)
        b = self.warmup_steps ** (-1.5) * self.last_epoch
        return self.base_lr * self.d_model ** (-0.5) * min(a, b)


class PiecewiseDecay(LRScheduler):
    """``values[i]`` while ``last_epoch < boundaries[i]``; ``values[-1]`` after the last boundary."""

    def __init__(
        self, boundaries: Sequence[int], values: Sequence[float], last_epoch: int = -1, verbose: bool = False
    ) -> None:
        for name, seq in (("boundaries", boundaries), ("values", values)):
            if not isinstance(seq, list | tuple):
                raise TypeError(f"PiecewiseDecay: {name} must be a list or tuple, but received {type(seq).__name__}.")
        _check("PiecewiseDecay", len(boundaries) > 0, "boundaries must not be empty.")
        _check(
            "PiecewiseDecay",
            len(values) > len(boundaries),
            f"values needs one more element than boundaries, but received {len(values)} values for "
            f"{len(boundaries)} boundaries.",
        )
        self.boundaries = boundaries
        self.values = values
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self) -> float:
        for bound, value in zip(self.boundaries, self.values):
            if self.last_epoch < bound:
                return value
        return self.values[-1]


class NaturalExpDecay(LRScheduler):
    """``lr = base * exp(-gamma * epoch)``."""

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        g = _number("NaturalExpDecay", "gamma", gamma)
        _check("NaturalExpDecay", g > 0.0, f"gamma must be > 0 so that the rate decays, but received {gamma}.")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    """``lr = base / (1 + gamma * epoch)``."""

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        _number("InverseTimeDecay", "gamma", gamma)
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    """``(base - end_lr) * (1 - epoch / decay_steps) ** power + end_lr``; with ``cycle`` the horizon grows
    to the next multiple of ``decay_steps``, otherwise the rate stays at ``end_lr`` after it."""

    def __init__(
        self,
        learning_rate: float,
        decay_steps: int,
        end_lr: float = 0.0001,
        power: float = 1.0,
        cycle: bool = False,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        self.decay_steps = _positive_int("PolynomialDecay", "decay_steps", decay_steps)
        self.end_lr = _number("PolynomialDecay", "end_lr", end_lr)
        p = _number("PolynomialDecay", "power", power)
        _check("PolynomialDecay", p > 0.0, f"power must be > 0 so that the rate decays, but received {power}.")
        self.power = power
        self.cycle = bool(cycle)
        _number("PolynomialDecay", "learning_rate", learning_rate)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        epoch, horizon = self.last_epoch, self.decay_steps
        if not self.cycle:
            epoch = min(epoch, horizon)
        elif epoch > 0:
            horizon = self.decay_steps * math.ceil(float(epoch) / float(self.decay_steps))
        frac = 1 - float(epoch) / float(horizon)
        return (self.base_lr - self.end_lr) * frac**self.power + self.end_lr


class LinearWarmup(LRScheduler):
    """A linear ramp from ``start_lr`` to ``end_lr`` over ``warmup_steps``, then ``learning_rate``
    (a float, or a scheduler stepped to ``epoch - warmup_steps``)."""

    def __init__(
        self,
        learning_rate: float | LRScheduler,
        warmup_steps: int,
        start_lr: float,
        end_lr: float,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, int | float | LRScheduler):
            raise TypeError(
                "LinearWarmup: learning_rate must be a float, an int or an LRScheduler, but received "
                f"{type(learning_rate).__name__}."
            )
        self.learning_rate = learning_rate
        self.warmup_steps = _positive_int("LinearWarmup", "warmup_steps", warmup_steps)
        self.start_lr = _number("LinearWarmup", "start_lr", start_lr)
        self.end_lr = _number("LinearWarmup", "end_lr", end_lr)
        _check(
            "LinearWarmup", end_lr > start_lr, f"end_lr must be greater than start_lr, but received {end_lr} <= {start_lr}."
        )
        super().__init__(start_lr, last_epoch, verbose)

    def state_dict(self) -> dict[str, Any]:
        """The base entries plus ``LinearWarmup_LR``, the wrapped scheduler's state, when there is one."""
        out = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            out["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore this scheduler and the wrapped one."""
        super().set_state_dict(state_dict)
        if isinstance(self.learning_rate, LRScheduler):
            if "LinearWarmup_LR" not in state_dict:  # (a KeyError, as Paddle's lookup of the entry)
                raise KeyError(
                    "LinearWarmup.set_state_dict: the state_dict has no 'LinearWarmup_LR' entry for the wrapped "
                    "scheduler; pass the dict returned by state_dict() of a LinearWarmup around a scheduler."
                )
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])

    set_dict = set_state_dict

    def get_lr(self) -> float:
        if self.last_epoch < self.warmup_steps:
            return (self.end_lr - self.start_lr) * float(self.last_epoch) / float(self.warmup_steps) + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate


class ExponentialDecay(LRScheduler):
    """``lr = base * gamma ** epoch`` with ``0 < gamma < 1``."""

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        g = _number("ExponentialDecay", "gamma", gamma)
        _check("ExponentialDecay", 0.0 < g < 1.0, f"gamma must lie in (0, 1) so that the rate decays, but received {gamma}.")
        self.gamma = gamma
        _number("ExponentialDecay", "learning_rate", learning_rate)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.gamma**self.last_epoch


class MultiStepDecay(LRScheduler):
    """``lr = base * gamma ** (number of milestones <= epoch)``."""

    def __init__(
        self, learning_rate: float, milestones: Sequence[int], gamma: float = 0.1, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        if not isinstance(milestones, list | tuple):
            raise TypeError(f"MultiStepDecay: milestones must be a list or tuple, but received {type(milestones).__name__}.")
        _check(
            "MultiStepDecay",
            all(a < b for a, b in zip(milestones[:-1], milestones[1:])),
            f"milestones must increase strictly, but received {list(milestones)}.",
        )
        _check("MultiStepDecay", _number("MultiStepDecay", "gamma", gamma) < 1.0, f"gamma must be < 1, but received {gamma}.")
        self.milestones = milestones
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        for i, m in enumerate(self.milestones):
            if self.last_epoch < m:
                return self.base_lr * self.gamma**i
        return self.base_lr * self.gamma ** len(self.milestones)


class StepDecay(LRScheduler):
    """``lr = base * gamma ** (epoch // step_size)``."""

    def __init__(
        self, learning_rate: float, step_size: int, gamma: float = 0.1, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        self.step_size = _positive_int("StepDecay", "step_size", step_size)
        _check("StepDecay", _number("StepDecay", "gamma", gamma) < 1.0, f"gamma must be < 1, but received {gamma}.")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.gamma ** (self.last_epoch // self.step_size)


class LambdaDecay(LRScheduler):
    """``lr = base * lr_lambda(epoch)``."""

    def __init__(
        self, learning_rate: float, lr_lambda: Callable[[int], float], last_epoch: int = -1, verbose: bool = False
    ) -> None:
        if not callable(lr_lambda):
            raise TypeError(f"LambdaDecay: lr_lambda must be a function of the epoch, but received {type(lr_lambda).__name__}.")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    """``lr = base * lr_lambda(1) * ... * lr_lambda(epoch)``."""

    def __init__(
        self, learning_rate: float, lr_lambda: Callable[[int], float], last_epoch: int = -1, verbose: bool = False
    ) -> None:
        if not callable(lr_lambda):
            raise TypeError(
                f"MultiplicativeDecay: lr_lambda must be a function of the epoch, but received {type(lr_lambda).__name__}."
            )
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        lr = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            lr = lr * self.lr_lambda(epoch)
        return lr


class LinearLR(LRScheduler):
    """The rate moves linearly from ``base * start_factor`` to ``base * end_factor`` over ``total_steps``
    (computed step by step from ``last_lr``, as Paddle does)."""

    def __init__(
        self,
        learning_rate: float,
        total_steps: int,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        sf = _number("LinearLR", "start_factor", start_factor)
        ef = _number("LinearLR", "end_factor", end_factor)
        _check("LinearLR", 0 < sf <= 1.0, f"start_factor must lie in (0, 1], but received {start_factor}.")
        _check("LinearLR", 0 <= ef <= 1.0, f"end_factor must lie in [0, 1], but received {end_factor}.")
        self.total_steps = _positive_int("LinearLR", "total_steps", total_steps)
        self.start_factor = start_factor
        self.end_factor = end_factor
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        if self.last_epoch == 0:
            return self.base_lr * self.start_factor
        if self.last_epoch > self.total_steps:
            return self.last_lr
        span = self.end_factor - self.start_factor
        return self.last_lr * (1.0 + span / (self.total_steps * self.start_factor + (self.last_epoch - 1) * span))
