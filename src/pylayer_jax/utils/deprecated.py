"""``paddle.utils.deprecated`` (the decorator) and its ``VisibleDeprecationWarning`` (layer L7)."""

from .._runtime.deprecation import VisibleDeprecationWarning as VisibleDeprecationWarning
from .._runtime.deprecation import deprecated as deprecated

__all__: list[str] = []
