"""pylayer_jax: Paddle's custom-autograd API (PyLayer, saved_tensors_hooks, static_pylayer) on JAX.

What a plain eager script uses (Tensor, the ops, ``nn``, ``autograd``) is imported here; the static graph,
``jit``, the high-level API and the rest load on first use (``pylayer_jax.static``, ``pylayer_jax.Model``: see
``_LAZY`` below), which keeps ``import pylayer_jax`` short. ``dir(pylayer_jax)`` lists both.
"""

import importlib as _importlib

from ._runtime import import_gc as _import_gc

# the collector pauses while the package and JAX load, and the objects they made are frozen at the end
# (see _runtime/import_gc.py)
_gc_paused = _import_gc.pause()
try:
    from . import autograd as autograd
    from . import device as device
    from . import linalg as linalg
    from . import nn as nn
    from . import utils as utils
    from ._api import sparse_tensor as _sparse_tensor  # noqa: F401  (installs Tensor.to_sparse_coo/csr, is_sparse)
    from ._api.checkpoint import load as load
    from ._api.checkpoint import save as save
    from ._api.compat import as_tensor as as_tensor
    from ._api.compat import asarray as asarray
    from ._api.compat import column_stack as column_stack
    from ._api.compat import dstack as dstack
    from ._api.compat import from_numpy as from_numpy
    from ._api.compat import hstack as hstack
    from ._api.compat import row_stack as row_stack
    from ._api.compat import vstack as vstack
    from ._api.functional import *  # noqa: F403
    from ._api.histogramdd import histogramdd as histogramdd
    from ._api.irregular import argwhere as argwhere
    from ._api.irregular import bincount as bincount
    from ._api.irregular import broadcast_shape as broadcast_shape
    from ._api.irregular import broadcast_shapes as broadcast_shapes
    from ._api.irregular import cast_ as cast_
    from ._api.irregular import diff as diff
    from ._api.irregular import flatten_ as flatten_
    from ._api.irregular import histogram as histogram
    from ._api.irregular import index_add as index_add
    from ._api.irregular import index_add_ as index_add_
    from ._api.irregular import index_fill as index_fill
    from ._api.irregular import index_fill_ as index_fill_
    from ._api.irregular import is_complex as is_complex
    from ._api.irregular import is_floating_point as is_floating_point
    from ._api.irregular import is_integer as is_integer
    from ._api.irregular import is_tensor as is_tensor
    from ._api.irregular import nonzero as nonzero
    from ._api.irregular import rank as rank
    from ._api.irregular import reshape_ as reshape_
    from ._api.irregular import scatter_add as scatter_add
    from ._api.irregular import scatter_add_ as scatter_add_
    from ._api.irregular import scatter_reduce as scatter_reduce
    from ._api.irregular import shape as shape
    from ._api.irregular import squeeze_ as squeeze_
    from ._api.irregular import t_ as t_
    from ._api.irregular import take as take
    from ._api.irregular import transpose_ as transpose_
    from ._api.irregular import unique as unique
    from ._api.irregular import unique_consecutive as unique_consecutive
    from ._api.irregular import unsqueeze_ as unsqueeze_
    from ._api.irregular import where as where
    from ._api.irregular import where_ as where_
    from ._api.linalg import triangular_solve as triangular_solve
    from ._api.linalg import vecdot as vecdot
    from ._api.linalg_lowrank import cov as cov
    from ._api.linalg_lowrank import pca_lowrank as pca_lowrank
    from ._api.linalg_lowrank import svd_lowrank as svd_lowrank
    from ._api.namespace_extras import BFloat16Tensor as BFloat16Tensor
    from ._api.namespace_extras import BoolTensor as BoolTensor
    from ._api.namespace_extras import ByteTensor as ByteTensor
    from ._api.namespace_extras import CharTensor as CharTensor
    from ._api.namespace_extras import CUDAPinnedPlace as CUDAPinnedPlace
    from ._api.namespace_extras import DoubleTensor as DoubleTensor
    from ._api.namespace_extras import FloatTensor as FloatTensor
    from ._api.namespace_extras import Generator as Generator
    from ._api.namespace_extras import HalfTensor as HalfTensor
    from ._api.namespace_extras import IntTensor as IntTensor
    from ._api.namespace_extras import LongTensor as LongTensor
    from ._api.namespace_extras import MmapStorage as MmapStorage
    from ._api.namespace_extras import ShortTensor as ShortTensor
    from ._api.namespace_extras import XPUPinnedPlace as XPUPinnedPlace
    from ._api.namespace_extras import binomial as binomial
    from ._api.namespace_extras import check_shape as check_shape
    from ._api.namespace_extras import log_normal as log_normal
    from ._api.namespace_extras import manual_seed as manual_seed
    from ._api.namespace_extras import positive as positive
    from ._api.namespace_extras import standard_gamma as standard_gamma
    from ._api.namespace_extras import tolist as tolist
    from ._api.random import bernoulli as bernoulli
    from ._api.random import get_cuda_rng_state as get_cuda_rng_state
    from ._api.random import get_rng_state as get_rng_state
    from ._api.random import multinomial as multinomial
    from ._api.random import normal as normal
    from ._api.random import poisson as poisson
    from ._api.random import rand as rand
    from ._api.random import rand_like as rand_like
    from ._api.random import randint as randint
    from ._api.random import randint_like as randint_like
    from ._api.random import randn as randn
    from ._api.random import randn_like as randn_like
    from ._api.random import randperm as randperm
    from ._api.random import seed as seed
    from ._api.random import set_cuda_rng_state as set_cuda_rng_state
    from ._api.random import set_rng_state as set_rng_state
    from ._api.random import standard_normal as standard_normal
    from ._api.random import uniform as uniform
    from ._api.random_fills import bernoulli_ as bernoulli_
    from ._api.random_fills import cauchy_ as cauchy_
    from ._api.random_fills import exponential_ as exponential_
    from ._api.random_fills import geometric_ as geometric_
    from ._api.random_fills import log_normal_ as log_normal_
    from ._api.random_fills import normal_ as normal_
    from ._api.random_fills import random_ as random_
    from ._api.sampling import top_p_sampling as top_p_sampling
    from ._api.signal import istft as istft
    from ._api.signal import stft as stft
    from ._api.storage import create_tensor as create_tensor
    from ._api.storage import resize_ as resize_
    from ._api.storage import set_ as set_
    from ._api.surface import index_put as index_put
    from ._api.surface import index_put_ as index_put_
    from ._api.surface import norm as norm
    from ._api.surface import uniform_ as uniform_
    from ._api.torch_compat import disable_compat as disable_compat
    from ._api.torch_compat import enable_compat as enable_compat
    from ._api.variadic import atleast_1d as atleast_1d
    from ._api.variadic import atleast_2d as atleast_2d
    from ._api.variadic import atleast_3d as atleast_3d
    from ._api.variadic import einsum as einsum
    from ._api.variadic import masked_select as masked_select
    from ._autograd.grad_mode import enable_grad as enable_grad
    from ._autograd.grad_mode import is_grad_enabled as is_grad_enabled
    from ._autograd.grad_mode import no_grad as no_grad
    from ._autograd.grad_mode import set_grad_enabled as set_grad_enabled
    from ._replay.events import install as _install_replay
    from ._runtime.device import get_device as get_device
    from ._runtime.device import is_compiled_with_cuda as is_compiled_with_cuda
    from ._runtime.device import is_compiled_with_rocm as is_compiled_with_rocm
    from ._runtime.device import is_compiled_with_xpu as is_compiled_with_xpu
    from ._runtime.device import set_device as set_device
    from ._runtime.dtype_info import finfo as finfo
    from ._runtime.dtype_info import iinfo as iinfo
    from ._runtime.dtypes import get_default_dtype as get_default_dtype
    from ._runtime.dtypes import set_default_dtype as set_default_dtype
    from ._runtime.flags import disable_signal_handler as disable_signal_handler
    from ._runtime.flags import get_flags as get_flags
    from ._runtime.flags import set_flags as set_flags
    from ._runtime.size import Size as Size
    from ._runtime.tensor_repr import set_printoptions as set_printoptions
    from ._tensor import device as _tensor_device  # noqa: F401  (installs Tensor.cpu/cuda/to/pin_memory)
    from ._tensor import methods as _tensor_methods  # noqa: F401  (installs the Tensor methods)
    from ._tensor.backward_entry import grad as grad
    from ._tensor.dlpack import from_dlpack as from_dlpack
    from ._tensor.dlpack import to_dlpack as to_dlpack
    from ._tensor.facade import Tensor as Tensor
    from ._tensor.facade import to_tensor as to_tensor
    from .device import is_compiled_with_cinn as is_compiled_with_cinn
    from .device import is_compiled_with_custom_device as is_compiled_with_custom_device
    from .device import is_compiled_with_distribute as is_compiled_with_distribute
    from .device import is_compiled_with_ipu as is_compiled_with_ipu
    from .nn.initializer.lazy_init import LazyGuard as LazyGuard
    from .nn.layer._param import ParamAttr as ParamAttr

    for _n, _d in __import__("pylayer_jax._runtime.dtypes", fromlist=["DTYPES"]).DTYPES.items():
        globals()[_n] = _d
    dtype = type(globals()["float32"])
    # Paddle's constants (``paddle.pi``, ``paddle.newaxis``: None, for indexing)
    pi, e, inf, nan, newaxis = 3.141592653589793, 2.718281828459045, float("inf"), float("nan"), None
    globals().update(__import__("pylayer_jax._runtime.dtypes", fromlist=["UNUSUAL"]).UNUSUAL)

    from ._ops import aliases as _aliases

    # PyTorch-style keyword aliases Paddle accepts (``sum(x, dim=0)``), and its alternative names (``cat``)
    _aliases.install({"": globals(), "Tensor.": Tensor, "nn.functional.": nn.functional, "linalg.": linalg})
    # Paddle's second names of functions, bound to the very objects (with their keyword aliases installed)
    ger = outer  # noqa: F405  (``paddle.ger is paddle.outer``)
    adaptive_avg_pool1d, conv1d, conv2d, conv3d = (getattr(nn.functional, n) for n in (
        "adaptive_avg_pool1d", "conv1d", "conv2d", "conv3d"))
    group_norm, layer_norm, pdist = nn.functional.group_norm, nn.functional.layer_norm, nn.functional.pdist

    # Paddle's other names of dtypes (the objects themselves: ``paddle.float is paddle.float32``), bound last: from
    # here on ``float`` and ``range`` in this module are Paddle's
    _d = __import__("pylayer_jax._runtime.dtypes", fromlist=["DTYPES"]).DTYPES
    float, double, half, cfloat, cdouble = (_d[n] for n in ("float32", "float64", "float16", "complex64",  # noqa: A001
                                                            "complex128"))
    from ._api.namespace_extras import range as range  # noqa: A004

    _install_replay()  # step replay observes eager steps: this line and ``_replay/`` are all of it

    try:
        __version__ = __import__("importlib.metadata", fromlist=["version"]).version("pylayer_jax")
    except Exception:  # running from a source tree that was never installed
        __version__ = "0+unknown"
finally:
    _import_gc.resume(_gc_paused)


# submodules and names loaded on first use: name -> (module, attribute or None for the module itself)
_LAZY = {
    "amp": ("amp", None), "distributed": ("distributed", None), "DataParallel": ("distributed", "DataParallel"),
    "base": ("base", None), "callbacks": ("callbacks", None), "fft": ("fft", None), "framework": ("framework", None),
    "distribution": ("distribution", None), "vision": ("vision", None), "incubate": ("incubate", None),
    "hapi": ("hapi", None), "io": ("io", None), "jit": ("jit", None), "metric": ("metric", None),
    "optimizer": ("optimizer", None), "regularizer": ("regularizer", None), "static": ("static", None),
    "signal": ("signal", None), "tensor": ("tensor", None), "version": ("version", None),
    "profiler": ("profiler", None), "reader": ("reader", None), "batch": ("reader", "batch"),
    "hub": ("hub", None), "special": ("special", None), "functional": ("functional", None),
    "random": ("random", None), "cuda": ("cuda", None),
    "inference": ("inference", None), "text": ("text", None), "audio": ("audio", None),
    "geometric": ("geometric", None), "sparse": ("sparse", None), "compat": ("compat", None),
    "sysconfig": ("sysconfig", None), "onnx": ("onnx", None), "cost_model": ("cost_model", None),
    "decomposition": ("decomposition", None), "quantization": ("quantization", None),
    "Model": ("hapi", "Model"), "summary": ("hapi", "summary"), "flops": ("hapi", "flops"),
    "autocast": ("amp", "autocast"), "is_autocast_enabled": ("amp", "is_autocast_enabled"),
    "get_autocast_dtype": ("amp", "get_autocast_dtype"), "get_autocast_cpu_dtype": ("amp", "get_autocast_cpu_dtype"),
    "get_autocast_gpu_dtype": ("amp", "get_autocast_gpu_dtype"),
    "CPUPlace": ("static._executor", "CPUPlace"), "CUDAPlace": ("static._executor", "CUDAPlace"),
    "disable_static": ("static._mode", "disable_static"), "enable_static": ("static._mode", "enable_static"),
    "in_dynamic_mode": ("static._mode", "in_dynamic_mode"), "create_parameter": ("static._param", "create_parameter"),
}


def __getattr__(name: str):  # noqa: ANN202  (PEP 562: the names of ``_LAZY``, imported on first use)
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'pylayer_jax' has no attribute {name!r}")
    mod = _importlib.import_module(f".{where[0]}", __name__)
    value = mod if where[1] is None else getattr(mod, where[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Paddle's public names, without this package's private modules and helpers."""
    return sorted({n for n in globals() if not n.startswith("_") or n == "__version__"} | set(_LAZY))
