"""``paddle.tensor``: Paddle's Tensor functions by the paths Paddle gives them (``paddle.tensor.add``,
``paddle.tensor.math.add``, ``paddle.tensor.creation.to_tensor``, ``paddle.tensor.linalg.matmul``, ...), and, as in
Paddle 3.3.1, a callable: ``paddle.tensor(data, dtype=None, device=None, requires_grad=False)`` makes a Tensor.

Every name is this package's function of that name (``paddle.tensor.add is paddle.add``); which names each
submodule has was recorded from Paddle (``_names.py``; how they resolve: ``_resolve.py``).

>>> import pylayer_jax as paddle
>>> paddle.tensor.math.add is paddle.add, paddle.tensor([1, 2]).dtype
(True, paddle.int64)
"""

import sys as _sys
import types as _types

from .._api.namespace_extras import MmapStorage as MmapStorage
from . import _own
from . import array as array
from . import compat_softmax as compat_softmax
from . import to_string as to_string
from ._resolve import module_dir as _module_dir
from ._resolve import module_getattr as _module_getattr

__all__: list[str] = []
__getattr__ = _module_getattr(__name__, "")
__dir__ = _module_dir(__name__, "")


class _CallableModule(_types.ModuleType):
    """``paddle.tensor``: a module that is also ``paddle.tensor(data, ...)``."""

    def __call__(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN204
        return _own.tensor(*args, **kwargs)


_sys.modules[__name__].__class__ = _CallableModule
