"""``paddle.autograd``: custom autograd (PyLayer, saved-tensor hooks) and the backward entry points."""

from .._autograd.grad_mode import enable_grad as enable_grad
from .._autograd.grad_mode import is_grad_enabled as is_grad_enabled
from .._autograd.grad_mode import no_grad as no_grad
from .._autograd.grad_mode import set_grad_enabled as set_grad_enabled
from .._pylayer.check import check_pylayer as check_pylayer
from .._pylayer.ctx import PyLayerContext as PyLayerContext
from .._pylayer.eager import PyLayer as PyLayer
from .._pylayer.eager import once_differentiable as once_differentiable
from .._tensor.backward_entry import backward as backward
from .._tensor.backward_entry import grad as grad
from .._tensor.saved_hooks import saved_tensors_hooks as saved_tensors_hooks
from .autograd import hessian as hessian
from .autograd import jacobian as jacobian

Function = PyLayer  # (Paddle's other name for PyLayer)

__all__ = [
    "Function",
    "PyLayer",
    "PyLayerContext",
    "backward",
    "check_pylayer",
    "enable_grad",
    "grad",
    "hessian",
    "is_grad_enabled",
    "jacobian",
    "no_grad",
    "once_differentiable",
    "saved_tensors_hooks",
    "set_grad_enabled",
]
