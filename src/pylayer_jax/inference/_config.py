"""``paddle.inference.Config`` and the enums of the deployment API (``DataType``, ``PlaceType``, ``PrecisionType``).

A ``Config`` names the files ``paddle.jit.save`` (or ``paddle.static.save_inference_model``) wrote and holds the
predictor's switches. The path forms are Paddle 3.3.1's: ``Config(prog_file, params_file)`` with
``prog_file = prefix + '.json'`` (Paddle's program file for a prefix; ``prefix + '.pdmodel'`` is accepted too,
both name the same saved model here), ``Config(model_dir, prefix_name)`` (``model_dir/prefix_name.json``), and
``Config(model_dir)``, which in Paddle reads a model saved as separate files (``model_dir/__model__``), a layout
the save functions here never write, so the predictor refuses it as Paddle does for such a directory.

The switches that tune Paddle's own engine (IR passes, oneDNN, memory reuse, thread count, logging) do not
change what the predictor computes and are recorded (``summary()`` shows them) with no further effect, as
JAX's compiler makes those choices itself. Switches that would change the results (reduced precision,
TensorRT, XPU/IPU/ONNXRuntime/OpenVINO engines) raise ``NotImplementedError``.
"""

from __future__ import annotations

import enum
import os
import warnings
from typing import Any

from .._runtime import device as _device


class _Enum(enum.IntEnum):
    """An int enum whose str is ``Class.MEMBER``, as Paddle's enums print."""

    __str__ = enum.Enum.__str__


class PaddleDType(_Enum):
    """The element types of a predictor's Tensor (``paddle.inference.DataType``), with Paddle's values."""

    FLOAT32 = 0
    INT64 = 1
    INT32 = 2
    UINT8 = 3
    INT8 = 4
    FLOAT16 = 5
    BOOL = 6
    FLOAT64 = 7
    BFLOAT16 = 8


class PaddlePlace(_Enum):
    """Where a Tensor lives (``paddle.inference.PlaceType``), with Paddle's values."""

    UNK = -1
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM = 4


class Precision(_Enum):
    """The compute precision of an engine (``paddle.inference.PrecisionType``, also ``Config.Precision``)."""

    Float32 = 0
    Int8 = 1
    Half = 2
    Bfloat16 = 3


DataType = PaddleDType
PlaceType = PaddlePlace
PrecisionType = Precision

# numpy dtype name <-> DataType
NP_OF = {PaddleDType.FLOAT32: "float32", PaddleDType.INT64: "int64", PaddleDType.INT32: "int32",
         PaddleDType.UINT8: "uint8", PaddleDType.INT8: "int8", PaddleDType.FLOAT16: "float16",
         PaddleDType.BOOL: "bool", PaddleDType.FLOAT64: "float64", PaddleDType.BFLOAT16: "bfloat16"}
DTYPE_OF = {v: k for k, v in NP_OF.items()}

_API = "paddle.inference.Config"


def _not_found(path: str) -> RuntimeError:
    return RuntimeError(f"{_API}: the program file {path!r} does not exist (Paddle: '(NotFound) Cannot open file "
                        f"{path}'); pass the prefix + '.json' (or '.pdmodel') file that paddle.jit.save wrote.")


def _check_str(what: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{_API}: {what} must be a str path, but received {type(value).__name__} ({value!r}).")
    return value


def _flag(what: str, x: Any) -> bool:
    if not isinstance(x, bool | int):
        raise TypeError(f"{_API}.{what}: the switch must be a bool, but received {type(x).__name__} ({x!r}).")
    return bool(x)


class Config:
    """The files of a saved model and the predictor's switches (``paddle.inference.Config``).

    ``Config()``, ``Config(other_config)`` (a copy), ``Config(model_dir)``, ``Config(prog_file, params_file)``
    or ``Config(model_dir, prefix_name)``. A config is used by one predictor only, as in Paddle.

    >>> import pylayer_jax as paddle
    >>> from pylayer_jax.inference import Config
    >>> net = paddle.nn.Linear(3, 2)
    >>> paddle.jit.save(net, "/tmp/doc_infer/lin", [paddle.static.InputSpec([None, 3], "float32", "x")])
    >>> config = Config("/tmp/doc_infer/lin.json", "/tmp/doc_infer/lin.pdiparams")
    >>> config.prog_file()
    '/tmp/doc_infer/lin.json'
    """

    Precision = Precision
    Float32 = Precision.Float32
    Int8 = Precision.Int8
    Half = Precision.Half
    Bfloat16 = Precision.Bfloat16

    def __init__(self, *args: Any) -> None:
        self._model_dir = self._prog = self._params = ""
        self._use_gpu = False
        self._gpu_id = 0
        self._pool_mb = 100
        self._mkldnn = True
        self._mkldnn_cache = 10
        self._threads = 1
        self._ir_optim = True
        self._ir_debug = False
        self._memory_optim = False
        self._glog_off = False
        self._profile = False
        self._feed_fetch_ops = False
        self._specify_input_names = False
        self._deleted_passes: list[str] = []
        self._opt_level = 2
        self._used = False
        if len(args) == 1 and isinstance(args[0], Config):
            self.__dict__.update({k: (list(v) if isinstance(v, list) else v) for k, v in vars(args[0]).items()})
            self._used = False
        elif len(args) == 1:
            self._model_dir = _check_str("model_dir", args[0])
        elif len(args) == 2:
            self._set_files(args[0], args[1], check=True)
        elif args:
            raise TypeError(f"{_API}: takes (), (config), (model_dir) or (prog_file, params_file), but received "
                            f"{len(args)} arguments.")

    def _set_files(self, a: Any, b: Any, check: bool) -> None:
        a, b = _check_str("prog_file", a), _check_str("params_file", b)
        if os.path.isdir(a):  # (model_dir, prefix name): Paddle 3.3.1 reads model_dir/prefix.json
            self._prog, self._params = os.path.join(a, b + ".json"), os.path.join(a, b + ".pdiparams")
        else:
            self._prog, self._params = a, b
        self._model_dir = ""
        if check and not os.path.isfile(self._prog):
            raise _not_found(self._prog)

    # ---- the model's files ------------------------------------------------------------------------------
    def set_model(self, *args: Any) -> None:
        """``set_model(model_dir)`` or ``set_model(prog_file, params_file)`` (``(model_dir, prefix_name)`` too)."""
        if len(args) == 1:
            self._model_dir, self._prog, self._params = _check_str("model_dir", args[0]), "", ""
        elif len(args) == 2:
            self._set_files(args[0], args[1], check=False)
        else:
            raise TypeError(f"{_API}.set_model: takes (model_dir) or (prog_file, params_file), but received "
                            f"{len(args)} arguments.")

    def set_prog_file(self, x: str) -> None:
        """Set the program file (``prefix.json`` or ``prefix.pdmodel``)."""
        self._prog = _check_str("prog_file", x)

    def set_params_file(self, x: str) -> None:
        """Set the parameter file (``prefix.pdiparams``)."""
        self._params = _check_str("params_file", x)

    def prog_file(self) -> str:
        """The program file ('' when unset)."""
        return self._prog

    def params_file(self) -> str:
        """The parameter file ('' when unset)."""
        return self._params

    def model_dir(self) -> str:
        """The model directory of ``Config(model_dir)`` ('' when unset)."""
        return self._model_dir

    def set_model_buffer(self, prog_buffer: Any, prog_buffer_size: Any, params_buffer: Any,
                         params_buffer_size: Any) -> None:
        """Not supported: a model is read from its files."""
        raise NotImplementedError(f"{_API}.set_model_buffer: loading a model from memory buffers is not supported "
                                  f"(received buffers of {prog_buffer_size} and {params_buffer_size} bytes, "
                                  f"{type(prog_buffer).__name__}/{type(params_buffer).__name__}); write them to "
                                  "files and pass the paths.")

    def model_from_memory(self) -> bool:
        """Always False: a model is read from files."""
        return False

    # ---- device ------------------------------------------------------------------------------------------
    def enable_use_gpu(self, memory_pool_init_size_mb: int, device_id: int = 0,
                       precision_mode: Precision = Precision.Float32) -> None:
        """Run on GPU ``device_id`` (JAX's GPU devices). Without a GPU the predictor stays on the CPU with a
        warning, as Paddle's CPU build does (it logs 'Please use PaddlePaddle with GPU version.').
        ``memory_pool_init_size_mb`` is recorded only: XLA manages the GPU memory itself. A precision other
        than Float32 raises: the saved program computes in the dtypes it was saved with."""
        api = f"{_API}.enable_use_gpu"
        if not isinstance(memory_pool_init_size_mb, int) or not isinstance(device_id, int):
            raise TypeError(f"{api}: memory_pool_init_size_mb and device_id must be ints, but received "
                            f"{memory_pool_init_size_mb!r} and {device_id!r}.")
        gpus = _device.gpus()
        if not gpus:
            warnings.warn(f"{api}: JAX sees no GPU here, so the predictor runs on the CPU and use_gpu() stays False "
                          "(Paddle's CPU build does the same: 'Please use PaddlePaddle with GPU version.').",
                          UserWarning, stacklevel=2)
            return
        if Precision(precision_mode) != Precision.Float32:
            raise NotImplementedError(f"{api}: precision_mode={Precision(precision_mode).name} is not supported: "
                                      "the saved program computes in the dtypes it was saved with; leave "
                                      "precision_mode at PrecisionType.Float32.")
        if not 0 <= device_id < len(gpus):
            raise ValueError(f"{api}: device_id must be in [0, {len(gpus)}) (the GPUs JAX sees), but received "
                             f"{device_id}.")
        self._use_gpu, self._gpu_id, self._pool_mb = True, device_id, memory_pool_init_size_mb

    def disable_gpu(self) -> None:
        """Run on the CPU."""
        self._use_gpu = False

    def use_gpu(self) -> bool:
        """Whether the predictor runs on a GPU."""
        return self._use_gpu

    def gpu_device_id(self) -> int:
        """The GPU of ``enable_use_gpu`` (0 by default)."""
        return self._gpu_id

    def memory_pool_init_size_mb(self) -> int:
        """The value given to ``enable_use_gpu`` (100 by default; recorded only)."""
        return self._pool_mb

    # ---- switches of Paddle's engine: recorded, no effect on what is computed ------------------------------
    def enable_mkldnn(self) -> None:
        """Recorded only: oneDNN kernels are Paddle's CPU engine; XLA compiles the CPU code here."""
        self._mkldnn = True

    def disable_mkldnn(self) -> None:
        """Recorded only (see ``enable_mkldnn``)."""
        self._mkldnn = False

    def mkldnn_enabled(self) -> bool:
        """The oneDNN switch (True by default, as in Paddle 3.3.1)."""
        return self._mkldnn

    enable_onednn = enable_mkldnn
    disable_onednn = disable_mkldnn
    onednn_enabled = mkldnn_enabled

    def set_mkldnn_cache_capacity(self, capacity: int = 0) -> None:
        """Recorded only: the cache of oneDNN primitives per input shape (XLA keeps one program per shape)."""
        if not isinstance(capacity, int):
            raise TypeError(f"{_API}.set_mkldnn_cache_capacity: capacity must be an int, but received {capacity!r}.")
        self._mkldnn_cache = capacity

    set_onednn_cache_capacity = set_mkldnn_cache_capacity

    def mkldnn_int8_enabled(self) -> bool:
        """Always False: int8 oneDNN kernels are not supported."""
        return False

    onednn_int8_enabled = mkldnn_int8_enabled

    def enable_mkldnn_int8(self, op_list: Any = None) -> None:
        """Not supported: int8 kernels change the results."""
        raise NotImplementedError(f"{_API}.enable_mkldnn_int8: int8 kernels are not supported (op_list={op_list!r}); "
                                  "the predictor computes in the saved dtypes.")

    def enable_mkldnn_bfloat16(self) -> None:
        """Not supported: bfloat16 kernels change the results."""
        raise NotImplementedError(f"{_API}.enable_mkldnn_bfloat16: bfloat16 kernels are not supported; the "
                                  "predictor computes in the saved dtypes.")

    enable_onednn_int8 = enable_mkldnn_int8
    enable_onednn_bfloat16 = enable_mkldnn_bfloat16

    def switch_ir_optim(self, x: bool = True) -> None:
        """Recorded only: Paddle's graph passes; XLA optimises the saved program whatever it holds."""
        self._ir_optim = _flag("switch_ir_optim", x)

    def ir_optim(self) -> bool:
        """The IR-optimisation switch (True by default)."""
        return self._ir_optim

    def switch_ir_debug(self, x: bool = True) -> None:
        """Recorded only: Paddle writes its graph after each pass; there are no passes here."""
        self._ir_debug = _flag("switch_ir_debug", x)

    def enable_memory_optim(self, x: bool = True) -> None:
        """Recorded only: XLA reuses buffers in every compiled program."""
        self._memory_optim = _flag("enable_memory_optim", x)

    def set_cpu_math_library_num_threads(self, cpu_math_library_num_threads: int) -> None:
        """Recorded only: XLA sizes its CPU thread pool when JAX starts."""
        if not isinstance(cpu_math_library_num_threads, int):
            raise TypeError(f"{_API}.set_cpu_math_library_num_threads: the thread count must be an int, but "
                            f"received {cpu_math_library_num_threads!r}.")
        self._threads = cpu_math_library_num_threads

    def cpu_math_library_num_threads(self) -> int:
        """The recorded thread count (1 by default)."""
        return self._threads

    def disable_glog_info(self) -> None:
        """Recorded only: the predictor writes no log."""
        self._glog_off = True

    def glog_info_disabled(self) -> bool:
        """Whether ``disable_glog_info`` was called."""
        return self._glog_off

    def enable_profile(self) -> None:
        """Recorded only: use ``paddle.profiler`` to time the predictor's runs."""
        self._profile = True

    def switch_use_feed_fetch_ops(self, x: bool = True) -> None:
        """Recorded only: inputs and outputs are always passed through the Tensor handles."""
        self._feed_fetch_ops = _flag("switch_use_feed_fetch_ops", x)

    def use_feed_fetch_ops_enabled(self) -> bool:
        """The recorded feed/fetch-op switch (False by default)."""
        return self._feed_fetch_ops

    def switch_specify_input_names(self, x: bool = True) -> None:
        """Recorded only: inputs are always named."""
        self._specify_input_names = _flag("switch_specify_input_names", x)

    def specify_input_name(self) -> bool:
        """The recorded input-name switch (False by default, as in Paddle 3.3.1)."""
        return self._specify_input_names

    def delete_pass(self, pass_name: str) -> None:
        """Recorded only: there are no Paddle passes to delete."""
        self._deleted_passes.append(_check_str("pass_name", pass_name))

    def set_optimization_level(self, opt_level: int = 2) -> None:
        """Recorded only (Paddle's pass level)."""
        if not isinstance(opt_level, int):
            raise TypeError(f"{_API}.set_optimization_level: opt_level must be an int, but received {opt_level!r}.")
        self._opt_level = opt_level

    # ---- engines that are not here --------------------------------------------------------------------
    def _no_engine(self, name: str) -> NotImplementedError:
        return NotImplementedError(f"{_API}.{name}: this engine is not available (the predictor runs the saved "
                                   "StableHLO with XLA on the CPU or a GPU); remove the call.")

    def enable_tensorrt_engine(self, *args: Any, **kwargs: Any) -> None:
        """Not supported: TensorRT."""
        raise self._no_engine(f"enable_tensorrt_engine{(args, kwargs) if args or kwargs else ''}")

    def enable_xpu(self, *args: Any, **kwargs: Any) -> None:
        """Not supported: Kunlun XPUs."""
        raise self._no_engine(f"enable_xpu{(args, kwargs) if args or kwargs else ''}")

    def set_xpu_config(self, config: Any) -> None:
        """Not supported: the settings of a Kunlun XPU (an ``XpuConfig``)."""
        if not isinstance(config, XpuConfig):
            raise TypeError(f"{_API}.set_xpu_config: config must be a paddle.inference.XpuConfig, but received "
                            f"{type(config).__name__}.")
        raise self._no_engine("set_xpu_config")

    def enable_ipu(self, *args: Any, **kwargs: Any) -> None:
        """Not supported: Graphcore IPUs."""
        raise self._no_engine(f"enable_ipu{(args, kwargs) if args or kwargs else ''}")

    def enable_custom_device(self, *args: Any, **kwargs: Any) -> None:
        """Not supported: custom devices."""
        raise self._no_engine(f"enable_custom_device{(args, kwargs) if args or kwargs else ''}")

    def enable_onnxruntime(self) -> None:
        """Not supported: ONNX Runtime."""
        raise self._no_engine("enable_onnxruntime")

    def enable_openvino_engine(self, *args: Any, **kwargs: Any) -> None:
        """Not supported: OpenVINO."""
        raise self._no_engine(f"enable_openvino_engine{(args, kwargs) if args or kwargs else ''}")

    def enable_cinn(self) -> None:
        """Not supported: CINN (XLA compiles the program)."""
        raise self._no_engine("enable_cinn")

    def tensorrt_engine_enabled(self) -> bool:
        """Always False."""
        return False

    def use_xpu(self) -> bool:
        """Always False."""
        return False

    def onnxruntime_enabled(self) -> bool:
        """Always False."""
        return False

    def openvino_engine_enabled(self) -> bool:
        """Always False."""
        return False

    # ---- summary ----------------------------------------------------------------------------------------
    def summary(self) -> str:
        """A table of the config's settings (as Paddle's ``summary()``)."""
        def b(x: bool) -> str:
            return "true" if x else "false"
        groups: list[list[tuple[str, str]]] = []
        files = []
        if self._model_dir:
            files.append(("model_dir", self._model_dir))
        if self._prog:
            files += [("model_file", self._prog), ("params_file", self._params)]
        groups.append(files)
        groups.append([("cpu_math_thread", str(self._threads)), ("enable_mkldnn", b(self._mkldnn)),
                       ("mkldnn_cache_capacity", str(self._mkldnn_cache))])
        gpu = [("use_gpu", b(self._use_gpu))]
        if self._use_gpu:
            gpu += [("gpu_device_id", str(self._gpu_id)), ("memory_pool_init_size", f"{self._pool_mb}MB")]
        groups.append(gpu)
        groups.append([("ir_optim", b(self._ir_optim)), ("ir_debug", b(self._ir_debug)),
                       ("memory_optim", b(self._memory_optim)), ("enable_profile", b(self._profile)),
                       ("enable_log", b(not self._glog_off))])
        rows = [r for g in groups for r in g] + [("Option", "Value")]
        w0 = max(len(k) for k, _ in rows)
        w1 = max(len(v) for _, v in rows)
        sep = f"+{'-' * (w0 + 2)}+{'-' * (w1 + 2)}+"
        out = ["", sep, f"| {'Option':<{w0}} | {'Value':<{w1}} |", sep]
        for g in groups:
            out += [f"| {k:<{w0}} | {v:<{w1}} |" for k, v in g]
            out.append(sep)
        return "\n".join(out) + "\n"


class XpuConfig:
    """The settings of a Kunlun XPU for a predictor (``Config.set_xpu_config``): the device, its L3 cache and
    context, the GEMM precision, the autotuning and the dynamic post-quantization options. This package runs on
    the devices JAX sees and has no XPU backend, so the settings are kept but change nothing; the defaults are
    Paddle 3.3.1's."""

    def __init__(self) -> None:
        self.device_id = 0
        self.l3_size = 0
        self.l3_ptr: Any = None
        self.l3_autotune_size = 0
        self.context_gm_size = -1
        self.context: Any = None
        self.stream: Any = None
        self.conv_autotune_level = 0
        self.conv_autotune_file = ""
        self.conv_autotune_file_writeback = False
        self.fc_autotune_level = 0
        self.fc_autotune_file = ""
        self.fc_autotune_file_writeback = False
        self.gemm_compute_precision = 1
        self.transformer_softmax_optimize_level = 0
        self.transformer_encoder_adaptive_seqlen = True
        self.quant_post_static_gelu_out_threshold = 10.0
        self.quant_post_dynamic_activation_method = 0
        self.quant_post_dynamic_weight_precision = 1
        self.quant_post_dynamic_op_types: list[str] = []

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(self, "quant_post_dynamic_op_types"):  # (made: the settings keep their names and types)
            if name not in _XPU_FIELDS:
                raise AttributeError(f"XpuConfig has no setting {name!r}; its settings are {sorted(_XPU_FIELDS)}.")
            kind = type(getattr(self, name))
            if getattr(self, name) is not None and not (isinstance(value, kind) or kind is float
                                                        and isinstance(value, int)) or isinstance(value, bool) \
                    and kind is not bool:
                raise TypeError(f"XpuConfig.{name} must be a {kind.__name__}, but received {type(value).__name__}.")
        super().__setattr__(name, value)


_XPU_FIELDS = frozenset((
    "device_id", "l3_size", "l3_ptr", "l3_autotune_size", "context_gm_size", "context", "stream",
    "conv_autotune_level", "conv_autotune_file", "conv_autotune_file_writeback", "fc_autotune_level",
    "fc_autotune_file", "fc_autotune_file_writeback", "gemm_compute_precision", "transformer_softmax_optimize_level",
    "transformer_encoder_adaptive_seqlen", "quant_post_static_gelu_out_threshold",
    "quant_post_dynamic_activation_method", "quant_post_dynamic_weight_precision", "quant_post_dynamic_op_types"))
