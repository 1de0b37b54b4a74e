"""pylayer_jax: Paddle's custom-autograd API (PyLayer, saved_tensors_hooks, static_pylayer) on JAX."""

from . import _tensor_methods as _tensor_methods
from . import autograd as autograd
from ._dtypes import get_default_dtype as get_default_dtype
from ._dtypes import set_default_dtype as set_default_dtype
from ._functional import *  # noqa: F403
from ._grad_mode import enable_grad as enable_grad
from ._grad_mode import is_grad_enabled as is_grad_enabled
from ._grad_mode import no_grad as no_grad
from ._grad_mode import set_grad_enabled as set_grad_enabled
from ._tensor import Tensor as Tensor
from ._tensor import grad as grad
from ._tensor import to_tensor as to_tensor
from . import optimizer as optimizer
from . import static as static
from .static._executor import CPUPlace as CPUPlace
from .static._executor import CUDAPlace as CUDAPlace
from .static._mode import disable_static as disable_static
from .static._mode import enable_static as enable_static
from .static._mode import in_dynamic_mode as in_dynamic_mode
from .static._param import ParamAttr as ParamAttr

for _n, _d in __import__("pylayer_jax._dtypes", fromlist=["DTYPES"]).DTYPES.items():
    globals()[_n] = _d
dtype = type(globals()["float32"])
