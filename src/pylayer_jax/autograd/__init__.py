"""``paddle.autograd``: custom autograd (PyLayer, saved-tensor hooks) and the backward entry points."""

from .._check_pylayer import check_pylayer as check_pylayer
from .._grad_mode import enable_grad as enable_grad
from .._grad_mode import is_grad_enabled as is_grad_enabled
from .._grad_mode import no_grad as no_grad
from .._grad_mode import set_grad_enabled as set_grad_enabled
from .._py_layer import PyLayer as PyLayer
from .._py_layer import once_differentiable as once_differentiable
from .._py_layer_ctx import PyLayerContext as PyLayerContext
from .._saved_hooks import saved_tensors_hooks as saved_tensors_hooks
from .._tensor import backward as backward
from .._tensor import grad as grad

__all__ = [
    "PyLayer",
    "PyLayerContext",
    "backward",
    "check_pylayer",
    "enable_grad",
    "grad",
    "is_grad_enabled",
    "no_grad",
    "once_differentiable",
    "saved_tensors_hooks",
    "set_grad_enabled",
]
