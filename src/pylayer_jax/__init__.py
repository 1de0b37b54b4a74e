"""pylayer_jax: Paddle's custom-autograd API (PyLayer, saved_tensors_hooks, static_pylayer) on JAX."""

from . import _tensor_device as _tensor_device  # Tensor.cpu/cuda/to/pin_memory
from . import _tensor_methods as _tensor_methods
from . import autograd as autograd
from . import base as base
from . import callbacks as callbacks
from . import device as device
from . import framework as framework
from . import hapi as hapi
from . import io as io
from . import jit as jit
from . import linalg as linalg
from . import metric as metric
from . import nn as nn
from . import optimizer as optimizer
from . import regularizer as regularizer
from . import static as static
from . import utils as utils
from ._checkpoint import load as load
from ._checkpoint import save as save
from ._coverage_api import argwhere as argwhere
from ._coverage_api import bincount as bincount
from ._coverage_api import broadcast_shape as broadcast_shape
from ._coverage_api import broadcast_shapes as broadcast_shapes
from ._coverage_api import cast_ as cast_
from ._coverage_api import diff as diff
from ._coverage_api import flatten_ as flatten_
from ._coverage_api import histogram as histogram
from ._coverage_api import index_add as index_add
from ._coverage_api import index_add_ as index_add_
from ._coverage_api import index_fill as index_fill
from ._coverage_api import index_fill_ as index_fill_
from ._coverage_api import is_complex as is_complex
from ._coverage_api import is_floating_point as is_floating_point
from ._coverage_api import is_integer as is_integer
from ._coverage_api import is_tensor as is_tensor
from ._coverage_api import nonzero as nonzero
from ._coverage_api import rank as rank
from ._coverage_api import reshape_ as reshape_
from ._coverage_api import scatter_add as scatter_add
from ._coverage_api import scatter_add_ as scatter_add_
from ._coverage_api import scatter_reduce as scatter_reduce
from ._coverage_api import shape as shape
from ._coverage_api import squeeze_ as squeeze_
from ._coverage_api import t_ as t_
from ._coverage_api import take as take
from ._coverage_api import transpose_ as transpose_
from ._coverage_api import unique as unique
from ._coverage_api import unique_consecutive as unique_consecutive
from ._coverage_api import unsqueeze_ as unsqueeze_
from ._coverage_api import where_ as where_
from ._device import get_device as get_device
from ._device import is_compiled_with_cuda as is_compiled_with_cuda
from ._device import is_compiled_with_rocm as is_compiled_with_rocm
from ._device import is_compiled_with_xpu as is_compiled_with_xpu
from ._device import set_device as set_device
from ._dlpack import from_dlpack as from_dlpack
from ._dlpack import to_dlpack as to_dlpack
from ._dtypes import get_default_dtype as get_default_dtype
from ._dtypes import set_default_dtype as set_default_dtype
from ._flags import get_flags as get_flags
from ._flags import set_flags as set_flags
from ._functional import *  # noqa: F403
from ._grad_mode import enable_grad as enable_grad
from ._grad_mode import is_grad_enabled as is_grad_enabled
from ._grad_mode import no_grad as no_grad
from ._grad_mode import set_grad_enabled as set_grad_enabled
from ._random import bernoulli as bernoulli
from ._random import get_rng_state as get_rng_state
from ._random import multinomial as multinomial
from ._random import normal as normal
from ._random import poisson as poisson
from ._random import rand as rand
from ._random import rand_like as rand_like
from ._random import randint as randint
from ._random import randint_like as randint_like
from ._random import randn as randn
from ._random import randn_like as randn_like
from ._random import randperm as randperm
from ._random import seed as seed
from ._random import set_rng_state as set_rng_state
from ._random import standard_normal as standard_normal
from ._random import uniform as uniform
from ._special import atleast_1d as atleast_1d
from ._special import atleast_2d as atleast_2d
from ._special import atleast_3d as atleast_3d
from ._special import einsum as einsum
from ._special import masked_select as masked_select
from ._tensor import Tensor as Tensor
from ._tensor import grad as grad
from ._tensor import to_tensor as to_tensor
from .hapi import Model as Model
from .hapi import summary as summary
from .static._executor import CPUPlace as CPUPlace
from .static._executor import CUDAPlace as CUDAPlace
from .static._mode import disable_static as disable_static
from .static._mode import enable_static as enable_static
from .static._mode import in_dynamic_mode as in_dynamic_mode
from .static._param import ParamAttr as ParamAttr
from .static._param import create_parameter as create_parameter

for _n, _d in __import__("pylayer_jax._dtypes", fromlist=["DTYPES"]).DTYPES.items():
    globals()[_n] = _d
dtype = type(globals()["float32"])

try:
    __version__ = __import__("importlib.metadata", fromlist=["version"]).version("pylayer_jax")
except Exception:  # running from a source tree that was never installed
    __version__ = "0+unknown"


def __dir__() -> list[str]:
    """Paddle's public names, without this package's private modules and helpers."""
    return sorted(n for n in globals() if not n.startswith("_") or n == "__version__")
