"""``paddle.utils`` import path (layer L7): ``unique_name``, ``dlpack``."""

from . import dlpack as dlpack
from . import unique_name as unique_name
