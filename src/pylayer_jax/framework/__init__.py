"""``paddle.framework``: which mode code runs in, flags, and the core's plain facts."""

from .._api.checkpoint import load as load
from .._api.checkpoint import save as save
from .._runtime.flags import get_flags as get_flags
from .._runtime.flags import set_flags as set_flags
from ..base import core as core
from ..static._mode import in_dynamic_mode as in_dynamic_mode
from ..static._mode import in_pir_mode as in_pir_mode

__all__ = ["core", "get_flags", "in_dynamic_mode", "in_pir_mode", "load", "save", "set_flags"]
