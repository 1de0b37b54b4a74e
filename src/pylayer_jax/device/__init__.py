"""``paddle.device``: where tensors live (``set_device``, ``get_device``) and what the machine has."""

from .._runtime.device import get_device as get_device
from .._runtime.device import is_compiled_with_cuda as is_compiled_with_cuda
from .._runtime.device import is_compiled_with_rocm as is_compiled_with_rocm
from .._runtime.device import is_compiled_with_xpu as is_compiled_with_xpu
from .._runtime.device import set_device as set_device
from . import cuda as cuda

__all__ = ["cuda", "get_device", "is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
           "set_device"]
