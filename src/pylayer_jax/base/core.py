"""``paddle.base.core``: the plain facts Paddle code reads from its C++ core."""

from .._runtime.device import device_count as get_cuda_device_count
from .._runtime.device import is_compiled_with_cuda as is_compiled_with_cuda
from .._runtime.device import is_compiled_with_rocm as is_compiled_with_rocm
from .._runtime.device import is_compiled_with_xpu as is_compiled_with_xpu


def grad_var_suffix() -> str:
    """The suffix of gradient Variable names in static programs: ``'@GRAD'`` (``x.grad_name == x.name + '@GRAD'``)."""
    return "@GRAD"


__all__ = ["get_cuda_device_count", "grad_var_suffix", "is_compiled_with_cuda", "is_compiled_with_rocm",
           "is_compiled_with_xpu"]
