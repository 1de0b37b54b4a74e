"""pylayer_jax: Paddle's custom-autograd API (PyLayer, saved_tensors_hooks, static_pylayer) on JAX."""

from . import _tensor_methods as _tensor_methods
from . import autograd as autograd
from . import jit as jit
from . import linalg as linalg
from . import nn as nn
from . import optimizer as optimizer
from . import static as static
from ._dtypes import get_default_dtype as get_default_dtype
from ._dtypes import set_default_dtype as set_default_dtype
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
from .static._executor import CPUPlace as CPUPlace
from .static._executor import CUDAPlace as CUDAPlace
from .static._mode import disable_static as disable_static
from .static._mode import enable_static as enable_static
from .static._mode import in_dynamic_mode as in_dynamic_mode
from .static._param import ParamAttr as ParamAttr

for _n, _d in __import__("pylayer_jax._dtypes", fromlist=["DTYPES"]).DTYPES.items():
    globals()[_n] = _d
dtype = type(globals()["float32"])
