"""Cyclic, annealing and metric-driven learning-rate schedulers (layer L5)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .._ops.checks import AssertionValueError
from .._tensor.facade import Tensor
from ._lr_base import LRScheduler, _check, _number, _positive_int


class CosineAnnealingDecay(LRScheduler):
    """Cosine annealing from ``base`` to ``eta_min`` over ``T_max`` epochs.

    ``step()`` uses Paddle's recursive form (each rate from the previous ``last_lr``), so the
    rate rises again after ``T_max``; ``step(epoch)`` uses the closed form
    ``eta_min + (base - eta_min) * (1 + cos(pi * epoch / T_max)) / 2``.
    """

    def __init__(
        self, learning_rate: float, T_max: int, eta_min: float = 0, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        self.T_max = _positive_int("CosineAnnealingDecay", "T_max", T_max)
        self.eta_min = _number("CosineAnnealingDecay", "eta_min", eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        t, T = self.last_epoch, self.T_max
        if t == 0:
            return self.base_lr
        if (t - 1 - T) % (2 * T) == 0:
            return self.last_lr + (self.base_lr - self.eta_min) * (1 - math.cos(math.pi / T)) / 2
        ratio = (1 + math.cos(math.pi * t / T)) / (1 + math.cos(math.pi * (t - 1) / T))
        return ratio * (self.last_lr - self.eta_min) + self.eta_min

    def _get_closed_form_lr(self) -> float:
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing that restarts at ``base`` after ``T_0``, then ``T_0 * T_mult``, ... epochs."""

    def __init__(
        self,
        learning_rate: float,
        T_0: int,
        T_mult: int = 1,
        eta_min: float = 0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        # Paddle raises ValueError for a T_0 or T_mult that is not a positive int, whatever its type
        for name, v in (("T_0", T_0), ("T_mult", T_mult)):
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1:
                raise ValueError(f"CosineAnnealingWarmRestarts: {name} must be a positive int, but received {v!r}.")
        self.T_0 = int(T_0)
        self.T_mult = int(T_mult)
        self.T_i = self.T_0
        self.eta_min = _number("CosineAnnealingWarmRestarts", "eta_min", eta_min)
        self.T_cur: float = last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch (restarting when a period ends), or jump to ``epoch``."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        else:
            if isinstance(epoch, bool) or not isinstance(epoch, int | float | np.integer | np.floating):
                raise TypeError(
                    f"CosineAnnealingWarmRestarts.step: epoch must be an int or None, but received {type(epoch).__name__}."
                )
            if epoch < 0:
                raise ValueError(f"CosineAnnealingWarmRestarts.step: epoch must be >= 0, but received {epoch}.")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult**n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()
        self._announce()


class OneCycleLR(LRScheduler):
    """One cycle: from ``max_learning_rate / divide_factor`` up to ``max_learning_rate`` over
    ``phase_pct * total_steps`` steps, then down to ``end_learning_rate`` (three phases: back to
    the initial rate first), annealed by cosine or linearly."""

    def __init__(
        self,
        max_learning_rate: float,
        total_steps: int,
        divide_factor: float = 25.0,
        end_learning_rate: float = 0.0001,
        phase_pct: float = 0.3,
        anneal_strategy: str = "cos",
        three_phase: bool = False,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        api = "OneCycleLR"
        max_lr = _number(api, "max_learning_rate", max_learning_rate)
        _check(api, max_lr >= 0, f"max_learning_rate must be >= 0, but received {max_learning_rate}.")
        end = _number(api, "end_learning_rate", end_learning_rate)
        _check(api, end >= 0, f"end_learning_rate must be >= 0, but received {end_learning_rate}.")
        self.total_steps = _positive_int(api, "total_steps", total_steps)
        if not isinstance(phase_pct, float):
            raise TypeError(f"{api}: phase_pct must be a float, but received {type(phase_pct).__name__}.")
        _check(api, 0 <= phase_pct <= 1, f"phase_pct must lie in [0, 1], but received {phase_pct}.")
        initial = max_lr / _number(api, "divide_factor", divide_factor)
        n = self.total_steps
        if three_phase:
            _check(api, phase_pct < 0.5, f"phase_pct must be < 0.5 when three_phase is True, but received {phase_pct}.")
            self._step_config = [0, phase_pct * n - 1, 2 * phase_pct * n - 2, n - 1, n - 1]
            self._lr_config = [initial, max_lr, initial, end]
        else:
            self._step_config = [0, phase_pct * n - 1, n - 1, n - 1]
            self._lr_config = [initial, max_lr, end]
        c = self._step_config
        self._steps_size = [c[i + 1] - c[i] for i in range(len(c) - 2)]
        self._steps_size.append(self._steps_size[-1])
        if anneal_strategy == "cos":
            self.anneal_func: Callable[[float, float, float], float] = self._cos_annealing
        elif anneal_strategy == "linear":
            self.anneal_func = self._linear_annealing
        else:
            raise ValueError(f"{api}: anneal_strategy must be 'cos' or 'linear', but received {anneal_strategy!r}.")
        super().__init__(initial, last_epoch, verbose)

    @staticmethod
    def _cos_annealing(start_lr: float, end_lr: float, pct: float) -> float:
        return end_lr + (start_lr - end_lr) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _linear_annealing(start_lr: float, end_lr: float, pct: float) -> float:
        return (end_lr - start_lr) * pct + start_lr

    def get_lr(self) -> float:
        t = self.last_epoch
        if t > self.total_steps:
            raise ValueError(
                f"OneCycleLR.step: stepped to {t}, past total_steps={self.total_steps}; make total_steps cover "
                "every step of training."
            )
        last = len(self._lr_config) - 2
        for i, (end_step, size) in enumerate(zip(self._step_config[1:], self._steps_size)):
            if t <= end_step or i == last:
                return self.anneal_func(self._lr_config[i], self._lr_config[i + 1], (t - self._step_config[i]) / size)
        raise AssertionError("unreachable: the last phase always returns")


class CyclicLR(LRScheduler):
    """Cycles between ``base_learning_rate`` and ``max_learning_rate`` (triangular, triangular2,
    exp_range, or a custom ``scale_fn`` over cycles or iterations)."""

    def __init__(
        self,
        base_learning_rate: float,
        max_learning_rate: float,
        step_size_up: int,
        step_size_down: int | None = None,
        mode: str = "triangular",
        exp_gamma: float = 1.0,
        scale_fn: Callable[[float], float] | None = None,
        scale_mode: str = "cycle",
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        api = "CyclicLR"
        self.max_lr = _number(api, "max_learning_rate", max_learning_rate)
        _check(api, self.max_lr >= 0, f"max_learning_rate must be >= 0, but received {max_learning_rate}.")
        up = float(_positive_int(api, "step_size_up", step_size_up))
        down = up if step_size_down is None else float(_positive_int(api, "step_size_down", step_size_down))
        if not isinstance(exp_gamma, float):
            raise TypeError(f"{api}: exp_gamma must be a float, but received {type(exp_gamma).__name__}.")
        self.cycle_size = up + down
        self.step_up_pct = up / self.cycle_size
        self.amplitude = self.max_lr - _number(api, "base_learning_rate", base_learning_rate)
        if scale_fn is None and mode not in ("triangular", "triangular2", "exp_range"):
            raise ValueError(
                f"{api}: mode must be 'triangular', 'triangular2' or 'exp_range' (or pass scale_fn), but received {mode!r}."
            )
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError(f"{api}: scale_mode must be 'cycle' or 'iterations', but received {scale_mode!r}.")
        if scale_fn is not None and not callable(scale_fn):
            raise TypeError(f"{api}: scale_fn must be a function, but received {type(scale_fn).__name__}.")
        self.mode = mode
        self.gamma = exp_gamma
        if scale_fn is not None:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        elif mode == "triangular":
            self.scale_fn, self.scale_mode = (lambda x: 1.0), "cycle"
        elif mode == "triangular2":
            self.scale_fn, self.scale_mode = (lambda x: 1 / (2.0 ** (x - 1))), "cycle"
        else:
            self.scale_fn, self.scale_mode = (lambda x: self.gamma**x), "iterations"
        super().__init__(base_learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        iterations = self.last_epoch
        cycle = 1 + iterations // self.cycle_size
        pct = 1.0 + iterations / self.cycle_size - cycle
        if pct <= self.step_up_pct:
            scale = pct / self.step_up_pct
        else:
            scale = (1 - pct) / (1 - self.step_up_pct)
        x = cycle if self.scale_mode == "cycle" else iterations
        return self.base_lr + self.amplitude * scale * self.scale_fn(x)


def _metric_value(metrics: Any) -> Any:
    if isinstance(metrics, Tensor | np.ndarray):
        if metrics.size != 1:  # (Paddle asserts it: an AssertionError that is also the ValueError raised before)
            raise AssertionValueError(
                f"ReduceOnPlateau.step: metrics must hold one value, but received shape {list(metrics.shape)}; "
                "reduce it first, e.g. with paddle.mean."
            )
        return float(metrics.reshape([]) if isinstance(metrics, np.ndarray) else metrics.item())
    if isinstance(metrics, bool) or not isinstance(metrics, int | float | np.integer | np.floating):
        raise TypeError(
            "ReduceOnPlateau.step: metrics must be an int, a float, a numpy scalar or array, or a one-element "
            f"Tensor, but received {type(metrics).__name__}."
        )
    return metrics


class ReduceOnPlateau(LRScheduler):
    """Multiply the rate by ``factor`` when the metric given to ``step(metrics)`` has not improved
    for more than ``patience`` epochs, then wait ``cooldown`` epochs; never below ``min_lr``, and
    changes smaller than ``epsilon`` are skipped."""

    def __init__(
        self,
        learning_rate: float,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: str = "rel",
        cooldown: int = 0,
        min_lr: float = 0,
        epsilon: float = 1e-8,
        verbose: bool = False,
    ) -> None:
        api = "ReduceOnPlateau"
        if not isinstance(mode, str) or mode.lower() not in ("min", "max"):
            raise ValueError(f"{api}: mode must be 'min' or 'max', but received {mode!r}.")
        _check(api, _number(api, "factor", factor) < 1.0, f"factor must be < 1, but received {factor}.")
        if not isinstance(threshold_mode, str) or threshold_mode.lower() not in ("rel", "abs"):
            raise ValueError(f"{api}: threshold_mode must be 'rel' or 'abs', but received {threshold_mode!r}.")
        lr = _number(api, "learning_rate", learning_rate)
        self.mode = mode.lower()
        self.factor = factor
        self.threshold_mode = threshold_mode.lower()
        self.patience = patience
        self.threshold = threshold
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.epsilon = epsilon
        self.cooldown_counter = 0
        self.best: Any = None
        self.num_bad_epochs = 0
        self.base_lr = lr
        self.last_lr = lr
        self.last_epoch = 0
        self.verbose = verbose

    def state_keys(self) -> None:
        """``cooldown_counter``, ``best``, ``num_bad_epochs``, ``last_epoch``, ``last_lr``."""
        self.keys = ["cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr"]

    def get_lr(self) -> float:
        return self.last_lr

    def step(self, metrics: Any = None, epoch: int | None = None) -> None:  # type: ignore[override]
        """Feed this epoch's metric (a loss: a float or a one-element Tensor)."""
        if metrics is None:
            raise TypeError("ReduceOnPlateau.step: metrics is required; call step(loss) with this epoch's metric.")
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        _metric_value(metrics)  # checked; kept as given (Paddle's ``best`` is the Tensor / array / number passed)
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or bool(self._is_better(metrics, self.best)):
            self.best = metrics
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                self._announce()

    def _is_better(self, current: Any, best: Any) -> Any:
        if self.mode == "min":
            bar = best - best * self.threshold if self.threshold_mode == "rel" else best - self.threshold
            return current < bar
        bar = best + best * self.threshold if self.threshold_mode == "rel" else best + self.threshold
        return current > bar
