"""``paddle.tensor.linalg``: the functions Paddle 3.3.1 puts there, each this package's function of that name (see
``tensor/_resolve.py``)."""

from ._resolve import module_dir as _module_dir
from ._resolve import module_getattr as _module_getattr

__all__: list[str] = []
__getattr__ = _module_getattr(__name__, "linalg")
__dir__ = _module_dir(__name__, "linalg")
