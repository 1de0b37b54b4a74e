"""``paddle.amp.auto_cast`` and ``decorate`` (layer L7): mixed precision as Paddle 3.3.1 runs it on a CPU, off.

On a CPU place Paddle's ``auto_cast`` (``amp_guard``, ``autocast``) warns that it "makes no effect" and every op
computes in its inputs' dtype; ``decorate`` leaves the models' parameters as they are, even at level O2. This package
runs on that behaviour on every device: scripts written for mixed precision run and give Paddle's CPU results, in the
parameters' dtypes (on a GPU, Paddle would compute the white-listed ops in float16 or bfloat16). The arguments are
checked as Paddle checks them.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import Any

from ..nn.layer._layers import Layer
from ..optimizer._optimizer import Optimizer

_DTYPES = ("float16", "bfloat16")
_NO_EFFECT = ("mixed precision makes no effect here, as Paddle's on a CPU place: every op computes in its inputs' "
              "dtype (float32 stays float32)")


def _level(api: str, level: Any, allowed: tuple[str, ...]) -> str:
    if not isinstance(level, str) or level.upper() not in allowed:
        raise ValueError(f"{api}: level must be one of {', '.join(allowed)}, but received {level!r}.")
    return level.upper()


def _dtype(api: str, dtype: Any) -> None:
    if dtype not in _DTYPES:
        raise ValueError(f"{api}: dtype must be 'float16' or 'bfloat16' when mixed precision is enabled, but received "
                         f"{dtype!r}.")


@contextlib.contextmanager
def auto_cast(enable: bool = True, custom_white_list: Any = None, custom_black_list: Any = None, level: str = "O1",
              dtype: str = "float16", use_promote: bool = True) -> Iterator[None]:
    """The mixed-precision context of Paddle: checked as Paddle checks it (``level`` O0, OD, O1 or O2; ``dtype``
    float16 or bfloat16; the custom lists must not share an op), then, as Paddle on a CPU, a ``UserWarning`` that it
    makes no effect: the ops inside compute in their inputs' dtypes."""
    api = "paddle.amp.auto_cast"
    lv = _level(api, level, ("O0", "OD", "O1", "O2"))
    if enable:
        _dtype(api, dtype)
    both = set(custom_white_list or ()) & set(custom_black_list or ())
    if both:
        raise ValueError(f"{api}: custom_white_list and custom_black_list both hold {sorted(both)}; an op can be in "
                         "one of them only.")
    if enable and lv != "O0":
        warnings.warn(f"{api}: {_NO_EFFECT}.", UserWarning, stacklevel=3)
    yield


amp_guard = auto_cast


def autocast(device_type: Any = None, dtype: str = "float16", enabled: bool = True,
             cache_enabled: bool = True) -> contextlib.AbstractContextManager:
    """``auto_cast(enable=enabled, dtype=dtype)``, Paddle's torch-style spelling."""
    return auto_cast(enable=enabled, dtype=dtype)


def decorate(models: Any, optimizers: Any = None, level: str = "O1", dtype: str = "float16",
             master_weight: bool | None = None, save_dtype: str | None = None, master_grad: bool = False,
             excluded_layers: Any = None) -> Any:
    """Paddle's preparation of models (and optimizers) for mixed precision: as Paddle on a CPU, it leaves them as
    they are (level O2 does not cast the parameters) and returns ``models``, or ``(models, optimizers)``."""
    api = "paddle.amp.decorate"
    _level(api, level, ("O1", "O2"))
    _dtype(api, dtype)
    for what, value, kind in (("models", models, Layer), ("optimizers", optimizers, Optimizer)):
        items = value if isinstance(value, list | tuple) else [value]
        if value is None and what == "optimizers":
            continue
        for v in items:
            if not isinstance(v, kind):
                raise TypeError(f"{api}: {what} must be a {kind.__name__} or a list of them, but received "
                                f"{type(v).__name__}.")
    return models if optimizers is None else (models, optimizers)


def is_autocast_enabled(device_type: Any = None) -> bool:
    """False: no mixed precision is applied (inside ``auto_cast`` too, as on Paddle's CPU place)."""
    return False


def get_autocast_dtype(device_type: Any = None) -> str:
    """'float16', Paddle's answer on a CPU place (inside ``auto_cast`` too)."""
    return "float16"


get_autocast_cpu_dtype = get_autocast_gpu_dtype = get_autocast_dtype


def is_float16_supported(device: Any = None) -> bool:
    """False, as Paddle answers on a CPU."""
    return False


def is_bfloat16_supported(device: Any = None) -> bool:
    """True, as Paddle answers on a CPU."""
    return True
