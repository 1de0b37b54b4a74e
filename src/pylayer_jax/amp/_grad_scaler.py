"""``paddle.amp.GradScaler`` / ``AmpScaler`` (layer L7): loss scaling as Paddle 3.3.1 runs it on a CPU, off.

On a CPU place Paddle's scaler warns that it "makes no effect": ``scale(loss)`` returns the loss itself, ``step``
and ``minimize`` are the optimizer's, ``update`` and ``unscale_`` do nothing, ``state_dict()`` is empty. So here:
scripts written for mixed precision train as on Paddle's CPU. (Paddle's disabled scaler raises an AttributeError
from ``get_incr_ratio`` and the other getters but ``get_init_loss_scaling``; here they return the settings.)
"""

from __future__ import annotations

import warnings
from typing import Any


class AmpScaler:
    """Paddle's loss scaler, as it runs on a CPU: no scaling (see the module's docstring)."""

    _DEFAULTS = (32768.0, 1000)

    def __init__(self, enable: bool = True, init_loss_scaling: float | None = None, incr_ratio: float = 2.0,
                 decr_ratio: float = 0.5, incr_every_n_steps: int | None = None, decr_every_n_nan_or_inf: int = 1,
                 use_dynamic_loss_scaling: bool = True) -> None:
        name = type(self).__name__
        if enable:
            warnings.warn(f"paddle.amp.{name}: loss scaling makes no effect here, as Paddle's on a CPU place: "
                          "scale() returns the loss itself.", UserWarning, stacklevel=2)
        init, every = self._DEFAULTS
        self._settings = {
            "init_loss_scaling": float(init if init_loss_scaling is None else init_loss_scaling),
            "incr_ratio": float(incr_ratio), "decr_ratio": float(decr_ratio),
            "incr_every_n_steps": int(every if incr_every_n_steps is None else incr_every_n_steps),
            "decr_every_n_nan_or_inf": int(decr_every_n_nan_or_inf),
        }
        self._dynamic = bool(use_dynamic_loss_scaling)  # (reported as False: a scaler that scales nothing)
        self._init_scale = 1.0  # (Paddle's disabled scaler's answer, the scale it applies, until a set_ call)

    def scale(self, var: Any) -> Any:
        """The loss as it is (no scaling)."""
        return var

    def minimize(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """``optimizer.minimize(*args, **kwargs)``."""
        return optimizer.minimize(*args, **kwargs)

    def step(self, optimizer: Any) -> None:
        """``optimizer.step()``."""
        optimizer.step()

    def update(self) -> None:
        """Nothing to update: no scale is kept."""

    def unscale_(self, optimizer: Any) -> None:
        """Nothing to unscale: the gradients were not scaled."""

    def is_enable(self) -> bool:
        return False

    def is_use_dynamic_loss_scaling(self) -> bool:
        return False

    def get_init_loss_scaling(self) -> float:
        """1.0 (the scale applied: none), or what ``set_init_loss_scaling`` set, as Paddle's disabled scaler."""
        return self._init_scale

    def set_init_loss_scaling(self, new_init_loss_scaling: float) -> None:
        """Kept and given back by ``get_init_loss_scaling`` (the loss is still not scaled, as in Paddle on a
        CPU)."""
        self._settings["init_loss_scaling"] = float(new_init_loss_scaling)
        self._init_scale = new_init_loss_scaling

    def get_incr_ratio(self) -> float:
        return self._settings["incr_ratio"]

    def set_incr_ratio(self, new_incr_ratio: float) -> None:
        self._settings["incr_ratio"] = float(new_incr_ratio)

    def get_decr_ratio(self) -> float:
        return self._settings["decr_ratio"]

    def set_decr_ratio(self, new_decr_ratio: float) -> None:
        self._settings["decr_ratio"] = float(new_decr_ratio)

    def get_incr_every_n_steps(self) -> int:
        return self._settings["incr_every_n_steps"]

    def set_incr_every_n_steps(self, new_incr_every_n_steps: int) -> None:
        self._settings["incr_every_n_steps"] = int(new_incr_every_n_steps)

    def get_decr_every_n_nan_or_inf(self) -> int:
        return self._settings["decr_every_n_nan_or_inf"]

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf: int) -> None:
        self._settings["decr_every_n_nan_or_inf"] = int(new_decr_every_n_nan_or_inf)

    def state_dict(self) -> dict[str, Any]:
        """Empty, as a disabled scaler's in Paddle."""
        return {}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Nothing to load (a disabled scaler keeps no state), as in Paddle."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"paddle.amp.{type(self).__name__}.load_state_dict: state_dict must be a dict, but "
                            f"received {type(state_dict).__name__}.")


class GradScaler(AmpScaler):
    """Paddle's ``GradScaler`` (``init_loss_scaling`` 65536, ``incr_every_n_steps`` 2000 by default), as it runs on
    a CPU: no scaling."""

    _DEFAULTS = (65536.0, 2000)
