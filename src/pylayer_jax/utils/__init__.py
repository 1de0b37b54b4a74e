"""``paddle.utils`` import path (layer L7): ``unique_name``."""

from . import unique_name as unique_name
