"""Program-building utilities of ``paddle.static``: name and device scopes, places, global variables,
``BuildStrategy``/``CompiledProgram``, ``setitem``, and the APIs that need hardware or Paddle internals
this package does not have (IPU, custom C++ operators, ``MetaTensor``), which raise.

Layer L6. ``name_scope`` and ``device_guard`` label the operators recorded inside them (the
``op_namescope`` / ``op_device`` attributes a printed program shows) and change no value: every op
runs in the one XLA computation of its program. ``CompiledProgram`` runs as the program it wraps.
"""

from __future__ import annotations

import contextlib
import enum
import re
from collections.abc import Iterator, Sequence
from typing import Any

import jax.numpy as jnp
import numpy as np

from .._runtime import device as _device
from .._runtime import dtypes as _dtypes
from .._runtime.state import modes
from .._tensor.facade import Tensor
from . import _program as _program_mod
from ._executor import CPUPlace, CUDAPlace
from ._init import Constant
from ._program import InitOp, Program, default_main_program, default_startup_program, unique_name
from ._variable import Variable

# ---- name_scope / device_guard -------------------------------------------------------------------------
_scopes: list[str] = []  # the open name scopes' full paths ("/enc/", "/enc/inner/")
_scope_counts: dict[str, int] = {}  # how often each path was opened (the second "/enc/" is "/enc_1/")
_devices: list[str | None] = []


def current_name_scope() -> str:
    """The ``op_namescope`` of an operator recorded now: ``"/"`` outside every ``name_scope``."""
    return _scopes[-1] if _scopes else "/"


def current_device() -> str | None:
    """The ``op_device`` of an operator recorded now (the innermost ``device_guard``'s), or None."""
    return _devices[-1] if _devices else None


@contextlib.contextmanager
def name_scope(prefix: str | None = None) -> Iterator[None]:
    """Label the operators recorded inside with the scope ``/prefix/`` (nested: ``/outer/inner/``; a
    scope opened again under the same parent gets ``_1``, ``_2``: ``/enc_1/``). It only names: values are
    the same. In dynamic mode it does nothing, as in Paddle."""
    if not modes.static_mode:
        yield
        return
    if not prefix:
        raise ValueError(f"paddle.static.name_scope: the prefix must be a non-empty str, but received {prefix!r}.")
    parent = current_name_scope()
    base = f"{parent}{prefix}"
    n = _scope_counts.get(base, 0)
    _scope_counts[base] = n + 1
    _scopes.append(f"{base}/" if n == 0 else f"{base}_{n}/")
    try:
        yield
    finally:
        _scopes.pop()


_DEVICE = re.compile(r"^(cpu|gpu|xpu|dcu)(:.*)?$")


@contextlib.contextmanager
def device_guard(device: str | None = None) -> Iterator[None]:
    """Ask for the operators recorded inside to run on ``device`` (``"cpu"``, ``"gpu"``, ``"gpu:0"``, ...).

    Paddle uses this to place parts of a program (its own note: a device index is honoured only under
    pipeline parallelism). Here a program is one XLA computation on the executor's device, so the
    request is recorded as each op's ``op_device`` attribute and changes nothing else.
    """
    if device is not None and not isinstance(device, str):
        raise TypeError(f"paddle.static.device_guard: device must be a str or None, but received "
                        f"{type(device).__name__}.")
    if device and not _DEVICE.match(device):
        raise ValueError(
            "paddle.static.device_guard: the device should be 'cpu', 'xpu', 'dcu' or 'gpu' (optionally with ':N'), "
            f"or an empty string or None when there is no need to specify one, but received {device!r}."
        )
    _devices.append(device or None)
    try:
        yield
    finally:
        _devices.pop()


_program_mod._LABELS[:] = [lambda: (current_name_scope(), current_device())]


# ---- places --------------------------------------------------------------------------------------------
def cpu_places(device_count: int | None = None) -> list[CPUPlace]:
    """``device_count`` CPU places (default: the ``CPU_NUM`` environment variable, else 1), as Paddle."""
    if device_count is None:
        import os

        device_count = int(os.environ.get("CPU_NUM", "1"))
    if isinstance(device_count, bool) or not isinstance(device_count, int) or device_count < 0:
        raise ValueError(f"paddle.static.cpu_places: device_count must be a non-negative int, but received "
                         f"{device_count!r}.")
    return [CPUPlace() for _ in range(device_count)]


def cuda_places(device_ids: Sequence[int] | None = None) -> list[CUDAPlace]:
    """One ``CUDAPlace`` per GPU id (default: every visible GPU). Without a GPU this raises, as Paddle built
    without CUDA does."""
    n = _device.device_count("gpu") if _device.is_compiled_with_cuda() else 0
    if n == 0:
        raise AssertionError("paddle.static.cuda_places: not compiled with CUDA (no GPU is visible to JAX); use "
                             "paddle.static.cpu_places() instead.")
    if device_ids is None:
        device_ids = list(range(n))
    if isinstance(device_ids, int):
        device_ids = [device_ids]
    out = []
    for i in device_ids:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n:
            raise ValueError(f"paddle.static.cuda_places: device ids must be ints in [0, {n}), but received {i!r}.")
        out.append(CUDAPlace(i))
    return out


def xpu_places(device_ids: Sequence[int] | None = None) -> list[Any]:
    """XPU places: there is no XPU here, so this raises as Paddle built without XPU does."""
    raise AssertionError(f"paddle.static.xpu_places: not compiled with XPU (received device_ids={device_ids!r}); "
                         "use paddle.static.cpu_places() or cuda_places().")


# ---- global variables ----------------------------------------------------------------------------------
def create_global_var(shape: Sequence[int], value: float, dtype: Any, persistable: bool = False,
                      force_cpu: bool = False, name: str | None = None) -> Any:
    """A Variable of the main program's global block filled with ``value`` by the startup program (named
    ``name``, else ``_generated_var_N``). Its value lives in the scope from the startup run on, so ops may
    read it and ``Variable.set_value`` / ``paddle.assign(..., output=var)`` may update it; ``persistable``
    marks it for ``static.save``/``save_vars``. In dynamic mode a Tensor filled with ``value``.
    ``force_cpu`` only says where Paddle keeps it; every value lives with the program here."""
    api = "paddle.static.create_global_var"
    if not isinstance(shape, list | tuple) or not all(
            isinstance(d, int | np.integer) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise TypeError(f"{api}: shape must be a list of non-negative ints, but received {shape!r}.")
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise TypeError(f"{api}: value must be a number, but received {type(value).__name__}.")
    if not isinstance(persistable, bool) or not isinstance(force_cpu, bool):
        raise TypeError(f"{api}: persistable and force_cpu must be bools, but received {persistable!r} and "
                        f"{force_cpu!r}.")
    dt = _dtypes.to_paddle(dtype)
    if not modes.static_mode:
        return Tensor(jnp.full(tuple(int(d) for d in shape), value, dt.np_dtype))
    name = name or unique_name("_generated_var")
    return make_state(default_main_program(), default_startup_program(), name, [int(d) for d in shape], dt,
                      Constant(value), persistable)


def make_state(main: Program, startup: Program, name: str, shape: list[int], dtype: Any, init: Any,
               persistable: bool = True) -> Variable:
    """A non-parameter Variable whose value lives in the scope (set by ``init`` in the startup program):
    optimizer-like state, counters, metric statistics. ``persistable`` is what ``is_persistable`` reports;
    the executor keeps it in the scope either way."""
    old = main.global_block().vars.get(name)
    if old is not None:
        return old
    v = Variable(main.global_block(), name, shape, dtype, stop_gradient=True, kind="state")
    v.persistable = True
    if not persistable:
        v._unsaved = True  # (kept in the scope, but not persistable for is_persistable and the savers)
    main.add_var(v)
    sv = Variable(startup.global_block(), name, shape, dtype, stop_gradient=True, kind="state")
    sv.persistable = True
    startup.add_var(sv)
    startup.append_op(InitOp(startup.global_block(), sv, init))
    return v


def is_persistable(var: Any) -> bool:
    """Whether ``var`` keeps its value between runs and is saved: parameters, optimizer state, persistable
    global variables (not feeds, temporaries, or ``create_global_var(persistable=False)``)."""
    if not isinstance(var, Variable):
        raise TypeError(f"paddle.static.is_persistable: var must be a Variable of a static program, but received "
                        f"{type(var).__name__}.")
    return bool(var.persistable) and not getattr(var, "_unsaved", False)


# ---- BuildStrategy / CompiledProgram -------------------------------------------------------------------
class ReduceStrategy(enum.IntEnum):
    """How gradients are combined across devices (one device here: either way the same)."""

    AllReduce = 0
    Reduce = 1
    _NoReduce = 2


_BUILD_DEFAULTS: dict[str, Any] = {
    "allow_cuda_graph_capture": False, "async_mode": False, "bkcl_comm_num": 1, "build_cinn_pass": False,
    "cache_runtime_context": False, "debug_graphviz_path": "", "enable_addto": False, "enable_auto_fusion": False,
    "enable_backward_optimizer_op_deps": True, "enable_inplace": True, "fuse_adamw": False,
    "fuse_all_optimizer_ops": False, "fuse_all_reduce_ops": True, "fuse_bn_act_ops": False,
    "fuse_bn_add_act_ops": True, "fuse_broadcast_ops": True, "fuse_dot_product_attention": False,
    "fuse_elewise_add_act_ops": False, "fuse_gemm_epilogue": False, "fuse_relu_depthwise_conv": False,
    "fuse_resunit": False, "fused_attention": False, "fused_feedforward": False,
    "hierarchical_allreduce_inter_nranks": 0, "memory_optimize": None, "mkldnn_enabled_op_types": set(),
    "nccl_comm_num": 1, "num_trainers": 1, "onednn_enabled_op_types": set(),
    "reduce_strategy": ReduceStrategy.AllReduce, "sequential_run": False, "sync_batch_norm": False,
    "trainer_id": 0, "trainers_endpoints": [], "use_hierarchical_allreduce": False,
}


class BuildStrategy:
    """Paddle's graph-build options (operator fusion, in-place reuse, all-reduce layout), with Paddle's
    defaults. XLA fuses and schedules the program itself, so the options are kept and reported but change
    nothing: a ``CompiledProgram`` built with any of them computes what its program computes."""

    ReduceStrategy = ReduceStrategy  # noqa: PIE794  (Paddle's nested name)

    def __init__(self) -> None:
        for k, v in _BUILD_DEFAULTS.items():
            object.__setattr__(self, k, set(v) if isinstance(v, set) else list(v) if isinstance(v, list) else v)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in _BUILD_DEFAULTS:
            raise AttributeError(f"'BuildStrategy' object has no attribute {name!r}")
        default = _BUILD_DEFAULTS[name]
        kinds = {bool: bool, int: int, str: str, set: set | list | tuple, list: list | tuple}
        want = next((k for t, k in kinds.items() if type(default) is t), None)
        if name == "memory_optimize":
            want = bool | type(None)
        elif name == "reduce_strategy":
            want = ReduceStrategy
        if want is not None and (not isinstance(value, want) or (want is int and isinstance(value, bool))):
            raise TypeError(f"BuildStrategy.{name}: expected a value like {default!r}, but received "
                            f"{type(value).__name__} ({value!r}).")
        object.__setattr__(self, name, set(value) if isinstance(default, set) else value)

    def __repr__(self) -> str:
        changed = {k: getattr(self, k) for k, v in _BUILD_DEFAULTS.items() if getattr(self, k) != v}
        return f"BuildStrategy({changed})"


class CompiledProgram:
    """A Program prepared with a ``BuildStrategy``; ``Executor.run`` runs it as the program itself (the
    executor already compiles each program into one XLA computation)."""

    def __init__(self, program_or_graph: Any, build_strategy: BuildStrategy | None = None) -> None:
        if not isinstance(program_or_graph, Program):
            raise TypeError(f"paddle.static.CompiledProgram: program_or_graph must be a paddle.static.Program, but "
                            f"received {type(program_or_graph).__name__}.")
        if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
            raise TypeError(f"paddle.static.CompiledProgram: build_strategy must be a BuildStrategy or None, but "
                            f"received {type(build_strategy).__name__}.")
        self._program = program_or_graph
        self._build_strategy = build_strategy if build_strategy is not None else BuildStrategy()

    def __repr__(self) -> str:
        return f"CompiledProgram({self._program!r})"


# ---- setitem ---------------------------------------------------------------------------------------------
def setitem(x: Any, index: Any, value: Any) -> Any:
    """``x`` with ``x[index] = value`` applied, as a new Variable (static mode) or Tensor; ``x`` itself is
    unchanged in static mode (Paddle's ``paddle.static.setitem``)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"paddle.static.setitem: x must be a Tensor or Variable, but received {type(x).__name__}.")
    if isinstance(x, Variable):
        from .._ops.table import TABLE
        from .._tensor.dispatch import apply_op
        from .._tensor.methods import _split_index

        spec, arrays = _split_index(index, "setitem")
        return apply_op(TABLE["setitem"], (x, arrays, value, spec))
    y = x.clone()
    y[index] = value
    return y


# ---- what needs hardware or Paddle's internals -----------------------------------------------------------
_IPU = ("this package runs programs with XLA on CPU or GPU, and has no IPU (Graphcore) backend; run the program "
        "with paddle.static.Executor as it is")


class IpuStrategy:
    """Graphcore IPU options: not available (no IPU backend)."""

    def __init__(self) -> None:
        raise NotImplementedError(f"paddle.static.IpuStrategy: {_IPU}.")


class IpuCompiledProgram:
    """A program compiled for Graphcore IPUs: not available (no IPU backend)."""

    def __init__(self, program: Any = None, scope: Any = None, ipu_strategy: Any = None) -> None:
        raise NotImplementedError(f"paddle.static.IpuCompiledProgram: {_IPU}.")


def ipu_shard_guard(index: int = -1, stage: int = -1) -> Any:
    """Place ops on an IPU shard: not available (no IPU backend)."""
    raise NotImplementedError(f"paddle.static.ipu_shard_guard: {_IPU}.")


def set_ipu_shard(call_func: Any, index: int = -1, stage: int = -1) -> Any:
    """Place a layer on an IPU shard: not available (no IPU backend)."""
    raise NotImplementedError(f"paddle.static.set_ipu_shard: {_IPU}.")


class MetaTensor:
    """Paddle's C++ shape-inference tensor handed to custom operators' InferMeta functions: not available."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            "paddle.static.MetaTensor: the shape-inference handle of Paddle's C++ custom operators does not exist "
            "here; ops applied to Variables infer their shapes with jax.eval_shape."
        )


def register_op(*args: Any, **kwargs: Any) -> Any:
    """Register a Python operator with Paddle's C++ operator registry: not available."""
    raise NotImplementedError(
        "paddle.static.register_op: there is no C++ operator registry here. Write the computation with paddle ops "
        "(they are recorded into the program), or use paddle.static.py_func / paddle.static.nn.static_pylayer for "
        "custom Python code."
    )
