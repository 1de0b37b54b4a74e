"""The learning-rate scheduler base class and its argument checks (layer L5).

A scheduler is a small Python state machine: ``step()`` moves ``last_epoch`` on and stores
the new ``last_lr`` (a Python float); calling the scheduler returns ``last_lr``. Optimizers
read ``sched()`` every step, so a new rate never recompiles their update kernel (the rate is
a kernel input, not a constant).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._tensor.facade import Tensor


def _number(api: str, name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"{api}: {name} must be a float or an int, but received {type(value).__name__}.")
    return float(value)


def _positive_int(api: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{api}: {name} must be a positive int, but received {type(value).__name__}.")
    if value <= 0:
        raise ValueError(f"{api}: {name} must be a positive int, but received {value}.")
    return int(value)


def _check(api: str, ok: bool, rule: str) -> None:
    if not ok:
        raise ValueError(f"{api}: {rule}")


class LRScheduler:
    """Base class of the learning-rate schedulers (``paddle.optimizer.lr.LRScheduler``).

    Subclasses define ``get_lr()`` from ``self.base_lr`` and ``self.last_epoch``. The
    constructor takes one ``step()``, so a fresh scheduler has ``last_epoch == 0`` (for the
    default ``last_epoch=-1``) and ``last_lr == get_lr()`` at that epoch.

    >>> from pylayer_jax.optimizer import lr
    >>> class Half(lr.LRScheduler):
    ...     def get_lr(self):
    ...         return self.base_lr * 0.5 ** self.last_epoch
    >>> s = Half(1.0); s.step(); s()
    0.5
    """

    base_lr: float
    last_lr: float
    last_epoch: int
    verbose: bool

    def __init__(self, learning_rate: float = 0.1, last_epoch: int = -1, verbose: bool = False) -> None:
        api = type(self).__name__
        lr = _number(api, "learning_rate", learning_rate)
        if lr < 0:
            raise ValueError(f"{api}: learning_rate must be >= 0, but received {learning_rate}.")
        if isinstance(last_epoch, bool) or not isinstance(last_epoch, int | np.integer):
            raise TypeError(f"{api}: last_epoch must be an int, but received {type(last_epoch).__name__}.")
        self.base_lr = lr
        self.last_lr = lr
        self.last_epoch = int(last_epoch)
        self.verbose = verbose
        self.step()

    def __call__(self) -> float:
        """The current learning rate (``last_lr``)."""
        return self.last_lr

    def _announce(self) -> None:
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to {self.last_lr}.")

    def step(self, epoch: int | None = None) -> None:
        """Move to the next epoch, or to ``epoch`` when given, and update ``last_lr``."""
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            if isinstance(epoch, bool) or not isinstance(epoch, int | float | np.integer | np.floating):
                raise TypeError(
                    f"{type(self).__name__}.step: epoch must be an int or None, but received {type(epoch).__name__}."
                )
            self.last_epoch = epoch  # type: ignore[assignment]
            closed = getattr(self, "_get_closed_form_lr", None)
            self.last_lr = closed() if closed is not None else self.get_lr()
        self._announce()

    def get_lr(self) -> float:
        """The rate at ``self.last_epoch``; subclasses must define it."""
        raise NotImplementedError(
            f"{type(self).__name__}.get_lr: a subclass of LRScheduler must define get_lr() returning the "
            "learning rate at self.last_epoch."
        )

    def state_keys(self) -> None:
        """Set ``self.keys``, the attributes ``state_dict`` saves."""
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self) -> dict[str, Any]:
        """The attributes named by ``state_keys`` (one-element Tensors become floats)."""
        self.state_keys()
        out: dict[str, Any] = {}
        for key in self.keys:
            if key not in self.__dict__:
                continue
            value = self.__dict__[key]
            if isinstance(value, Tensor):
                if value.size != 1:
                    raise ValueError(
                        f"{type(self).__name__}.state_dict: the Tensor attribute {key!r} must hold one element, "
                        f"but it has shape {list(value.shape)}."
                    )
                value = float(value.item())  # (also of shape [1], where Paddle's float() fails: a ReduceOnPlateau best)
            out[key] = value
        return out

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the attributes saved by ``state_dict``."""
        if not isinstance(state_dict, dict):
            raise TypeError(
                f"{type(self).__name__}.set_state_dict: state_dict must be a dict from state_dict(), but received "
                f"{type(state_dict).__name__}."
            )
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise RuntimeError(
                    f"{type(self).__name__}.set_state_dict: the state_dict has no {key!r} entry; pass the dict "
                    "returned by state_dict() of the same kind of scheduler."
                )
            self.__dict__[key] = state_dict[key]
        if len(state_dict) > len(self.keys):
            warnings.warn(
                f"{type(self).__name__}.set_state_dict: some entries of state_dict were not used "
                f"({sorted(set(state_dict) - set(self.keys))}); was it saved from another kind of scheduler?",
                stacklevel=2,
            )

    set_dict = set_state_dict
