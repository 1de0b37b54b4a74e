"""``paddle.framework``: which mode code runs in."""

from ..static._mode import in_dynamic_mode as in_dynamic_mode
from ..static._mode import in_pir_mode as in_pir_mode

__all__ = ["in_dynamic_mode", "in_pir_mode"]
