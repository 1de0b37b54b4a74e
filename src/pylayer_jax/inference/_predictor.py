"""``paddle.inference.create_predictor``: run a saved model through named input and output handles.

Layer L8 (beside ``vision``). The predictor reads the three files ``paddle.jit.save`` (or
``paddle.static.save_inference_model``) wrote with ``jit``'s reader, puts the parameters on the config's device
once, and runs the saved StableHLO (``jax.export``) under ``jax.jit`` (one compiled program per input shape).
Inputs are named as Paddle names them (the InputSpec names, else the forward's parameter names); outputs
``fetch_name_0``, ``fetch_name_1``, ... in the order of the flattened outputs (dict keys sorted), as Paddle's.

Paddle checks an input's shape and dtype only when a kernel meets it, so its errors come from inside the run; here
``run()`` checks each input against the saved spec first and raises ``ValueError`` (the type Paddle raises) naming
the input, what it holds and what the model takes.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._runtime import device as _device
from .._runtime.rng import generator
from .._tensor.facade import Tensor as _PaddleTensor
from ..jit._save import read_artifact
from ..version import commit as _commit
from ..version import full_version as _full_version
from ._config import DTYPE_OF, NP_OF, Config, PaddleDType, PaddlePlace, Precision

_NO_KEY = np.zeros(2, np.int64)  # the generator-state argument of an artifact whose forward draws nothing
_WIDEN = {"int16": "int32", "uint16": "int32", "uint32": "int64"}  # as Paddle's copy_from_cpu converts them


def _model_of(config: Config) -> tuple[str, str]:
    """(prefix, params file) of the saved model a config names."""
    api = "paddle.inference.create_predictor"
    if config.model_dir():
        d = config.model_dir()
        raise RuntimeError(
            f"{api}: Config(model_dir) reads a model saved as separate files (Paddle opens {os.path.join(d, '__model__')!r}), "
            "a layout paddle.jit.save does not write; pass the files of the saved prefix: "
            "Config(prefix + '.json', prefix + '.pdiparams') or Config(model_dir, prefix_name)."
        )
    prog, params = config.prog_file(), config.params_file()
    if not prog:
        raise ValueError(f"{api}: the config names no model (Paddle: 'Either model_dir or (prog_file, param_file) "
                         "should be set'); pass Config(prefix + '.json', prefix + '.pdiparams').")
    root, ext = os.path.splitext(prog)
    if ext not in (".json", ".pdmodel"):
        raise ValueError(f"{api}: the program file {prog!r} must end in '.json' or '.pdmodel' (the files "
                         "paddle.jit.save writes for a prefix), but it ends in " f"{ext or 'no extension'!r}.")
    if not os.path.isfile(prog):
        raise RuntimeError(f"{api}: the program file {prog!r} does not exist; pass the prefix + '.json' file that "
                           "paddle.jit.save wrote.")
    if not params or not os.path.isfile(params):
        raise RuntimeError(f"{api}: the parameter file {params!r} does not exist; pass the prefix + '.pdiparams' "
                           "file that paddle.jit.save wrote.")
    return root, params


class _Model:
    """What the clones of one predictor share: the saved program, its parameters on the device, the specs."""

    def __init__(self, config: Config) -> None:
        prefix, params = _model_of(config)
        exported, meta, arrays = read_artifact("paddle.inference.create_predictor", prefix, params)
        self.meta = meta
        self.inputs = meta["inputs"]
        self.outputs = meta.get("outputs", [])
        self.rng = bool(meta.get("rng_arg"))
        self.draws = bool(meta.get("draws_random"))
        self.device = (_device.gpus()[config.gpu_device_id()] if config.use_gpu()
                       else jax.devices("cpu")[0])
        self.params = [jax.device_put(arrays[p["name"]], self.device) for p in meta["params"]]
        self.call = jax.jit(exported.call)
        self.input_names = [s["name"] for s in self.inputs]
        self.output_names = [f"fetch_name_{i}" for i in range(len(self.outputs))]


class Tensor:
    """A named input or output of a predictor (``paddle.inference.Tensor``): ``copy_from_cpu`` /
    ``share_external_data`` fill an input, ``copy_to_cpu`` reads an output after ``run()``. A handle is a view of
    the predictor's slot: two handles of the same name see the same data."""

    def __init__(self, predictor: Predictor, name: str, is_input: bool) -> None:
        self._pred, self._name, self._is_input = predictor, name, is_input

    def _slot(self) -> dict[str, Any]:
        return (self._pred._in if self._is_input else self._pred._out)[self._name]

    def _api(self, method: str) -> str:
        return f"paddle.inference.Tensor.{method} ({'input' if self._is_input else 'output'} {self._name!r})"

    def name(self) -> str:
        """The input's or output's name."""
        return self._name

    def copy_from_cpu(self, data: Any) -> None:
        """Fill the input with a copy of the numpy array ``data`` (its shape and dtype become the input's)."""
        api = self._api("copy_from_cpu")
        if isinstance(data, list) and data and isinstance(data[0], str):
            raise NotImplementedError(f"{api}: string inputs (list[str]) are not supported; pass a numpy array.")
        if not isinstance(data, np.ndarray):
            raise TypeError(f"{api}: In copy_from_cpu, we only support numpy ndarray and list[str] data type; "
                            f"received {type(data).__name__}, pass numpy.asarray(data).")
        if not self._is_input:
            raise RuntimeError(f"{api}: this handle is an output of the model; fill the inputs "
                               "(predictor.get_input_handle(name)) and read outputs with copy_to_cpu().")
        name = _WIDEN.get(data.dtype.name, data.dtype.name)
        if name not in DTYPE_OF:
            raise TypeError(f"{api}: numpy arrays of dtype {data.dtype} are not supported; the supported dtypes are "
                            f"{sorted(DTYPE_OF)}.")
        self._slot().update(data=np.array(data, dtype=name, copy=True), shape=list(data.shape),
                            dtype=DTYPE_OF[name])

    def share_external_data(self, data: Any) -> None:
        """Fill the input with the paddle Tensor ``data`` without a copy (its array is used as it is)."""
        api = self._api("share_external_data")
        if not isinstance(data, _PaddleTensor):
            from ..static._variable import Variable  # (loaded only to name the static-graph misuse)

            if isinstance(data, Variable):
                raise TypeError(f"{api}: The interface 'share_external_data' can only be used in dynamic graph mode; "
                                "received a static Variable. Use 'copy_from_cpu' instead.")
            raise TypeError(f"{api}: In share_external_data, we only support Tensor and DenseTensor; received "
                            f"{type(data).__name__}, pass paddle.to_tensor(data) or use copy_from_cpu.")
        if not self._is_input:
            raise RuntimeError(f"{api}: this handle is an output of the model; share data into an input handle.")
        v = data._value
        name = np.dtype(v.dtype).name
        if name not in DTYPE_OF:
            raise TypeError(f"{api}: Tensors of dtype {name} are not supported; the supported dtypes are "
                            f"{sorted(DTYPE_OF)}.")
        self._slot().update(data=v, shape=list(v.shape), dtype=DTYPE_OF[name])

    def reshape(self, shape: Sequence[int]) -> None:
        """Set the input's shape (the data written next fills it). Data already held keeps its values when
        the element count is the same; otherwise it is dropped and the input must be filled again."""
        api = self._api("reshape")
        if not isinstance(shape, list | tuple) or not all(isinstance(d, int | np.integer) for d in shape):
            raise TypeError(f"{api}: shape must be a list of ints, but received {shape!r}.")
        if any(d < 0 for d in shape):
            raise ValueError(f"{api}: every size must be >= 0 (a handle holds concrete data, -1 is not a size), but "
                             f"received {list(shape)}.")
        if not self._is_input:
            raise RuntimeError(f"{api}: this handle is an output of the model; its shape is set by run().")
        slot = self._slot()
        shape = [int(d) for d in shape]
        data = slot["data"]
        if data is not None and int(np.prod(shape)) == int(np.prod(slot["shape"])):
            slot["data"] = data.reshape(shape)
        elif data is not None:
            slot["data"] = None
        slot["shape"] = shape

    def copy_to_cpu(self) -> np.ndarray:
        """A numpy copy of the data (an output's after ``run()``)."""
        data = self._slot()["data"]
        if data is None:
            what = ("it was never filled (call copy_from_cpu first)" if self._is_input
                    else "the predictor has not run yet (call predictor.run() first)")
            raise RuntimeError(f"{self._api('copy_to_cpu')}: the Tensor holds no data: {what}.")
        return np.array(data, copy=True)

    def shape(self) -> list[int]:
        """The data's shape ([0] before anything was written, as Paddle reports an empty tensor)."""
        return list(self._slot()["shape"])

    def type(self) -> PaddleDType:
        """The data's ``DataType`` (FLOAT32 before anything is written, as Paddle reports)."""
        return self._slot()["dtype"]

    def lod(self) -> list[list[int]]:
        """The level-of-detail offsets: always empty (sequences are padded Tensors here)."""
        return []

    def set_lod(self, x: Sequence[Sequence[int]]) -> None:
        """Only an empty LoD is accepted: LoD Tensors are not supported."""
        if x not in ([], ()):
            raise NotImplementedError(f"{self._api('set_lod')}: LoD (variable-length) Tensors are not supported; "
                                      f"received {x!r}. Pad the sequences and pass their lengths as an input.")

    def __repr__(self) -> str:
        return f"<paddle.inference.Tensor {self._name!r} shape={self.shape()} type={self.type().name}>"


def _empty_slot() -> dict[str, Any]:
    """A slot with no data: Paddle reports shape [0] and FLOAT32 (its empty tensor's) whatever the model declares."""
    return {"data": None, "shape": [0], "dtype": PaddleDType.FLOAT32}


class Predictor:
    """Runs a saved model (``paddle.inference.Predictor``; made by ``create_predictor(config)``)."""

    def __init__(self, model: _Model) -> None:
        self._model = model
        self._in = {s["name"]: _empty_slot() for s in model.inputs}
        self._out = {n: _empty_slot() for n in model.output_names}

    def get_input_names(self) -> list[str]:
        """The inputs' names, in the order the model takes them."""
        return list(self._model.input_names)

    def get_output_names(self) -> list[str]:
        """The outputs' names: ``fetch_name_0``, ``fetch_name_1``, ..."""
        return list(self._model.output_names)

    def _handle(self, name: Any, is_input: bool) -> Tensor:
        method = "get_input_handle" if is_input else "get_output_handle"
        if not isinstance(name, str):
            raise TypeError(f"paddle.inference.Predictor.{method}: the name must be a str, but received "
                            f"{type(name).__name__} ({name!r}).")
        table = self._in if is_input else self._out
        if name not in table:
            kind = "input" if is_input else "output"
            raise RuntimeError(f"paddle.inference.Predictor.{method}: the model has no {kind} named {name!r} "
                               f"(Paddle: 'The variable named {name} is not found in the scope of the executor'); "
                               f"its {kind}s are {list(table)}.")
        return Tensor(self, name, is_input)

    def get_input_handle(self, name: str) -> Tensor:
        """The handle of the input ``name``."""
        return self._handle(name, True)

    def get_output_handle(self, name: str) -> Tensor:
        """The handle of the output ``name``."""
        return self._handle(name, False)

    def _check(self, name: str, shape: list[int], dtype: str, spec: dict[str, Any]) -> None:
        want = spec["shape"]
        if len(shape) != len(want) or any(w >= 0 and w != d for w, d in zip(want, shape)):
            raise ValueError(f"paddle.inference.Predictor.run: input {name!r} holds shape {shape}, but the model "
                             f"takes shape {want} (-1: any size); reshape or fill it with data of that shape.")
        if dtype != spec["dtype"]:
            raise ValueError(f"paddle.inference.Predictor.run: input {name!r} holds {dtype} data, but the model "
                             f"takes {spec['dtype']}; cast the array (x.astype({spec['dtype']!r})) before "
                             "copy_from_cpu.")

    def run(self, inputs: Sequence[Any] | None = None) -> list[_PaddleTensor] | None:
        """Run the model: ``run()`` on the filled input handles (the outputs go to the output handles; returns
        None), or ``run([tensor, ...])`` on paddle Tensors in input order (returns the outputs as paddle Tensors,
        and fills the handles too)."""
        api = "paddle.inference.Predictor.run"
        m = self._model
        if inputs is not None:
            if not isinstance(inputs, list | tuple) or not all(isinstance(t, _PaddleTensor) for t in inputs):
                raise TypeError(f"{api}: inputs must be a list of paddle Tensors, but received "
                                f"{[type(t).__name__ for t in inputs] if isinstance(inputs, list | tuple) else type(inputs).__name__}; "
                                "wrap numpy arrays with paddle.to_tensor.")
            if len(inputs) != len(m.inputs):
                raise ValueError(f"{api}: wrong feed input size, need {len(m.inputs)} ({m.input_names}) but get "
                                 f"{len(inputs)}.")
            for n, t in zip(m.input_names, inputs):
                Tensor(self, n, True).share_external_data(t)
        args = []
        for spec in m.inputs:
            slot = self._in[spec["name"]]
            if slot["data"] is None:
                raise ValueError(f"{api}: input {spec['name']!r} holds no data; fill it with "
                                 f"predictor.get_input_handle({spec['name']!r}).copy_from_cpu(array) before run().")
            self._check(spec["name"], list(slot["shape"]), NP_OF[slot["dtype"]], spec)
            args.append(jax.device_put(slot["data"], m.device))
        if m.rng:
            args.append(jnp.asarray(generator.get_state()) if m.draws else jax.device_put(_NO_KEY, m.device))
        try:
            result = m.call(*m.params, *args)
        except (ValueError, TypeError) as e:  # sizes the saved program's symbolic shapes do not allow
            shapes = {n: self._in[n]["shape"] for n in m.input_names}
            raise ValueError(f"{api}: the saved model does not accept the input shapes {shapes}: {e}") from e
        leaves = jax.tree_util.tree_leaves(result)
        if m.rng and m.draws:
            generator.set_state(leaves[-1])
        outs = leaves[:len(m.outputs)]
        for n, o in zip(m.output_names, outs):
            self._out[n].update(data=o, shape=list(o.shape), dtype=DTYPE_OF.get(np.dtype(o.dtype).name,
                                                                                 PaddleDType.FLOAT32))
        if inputs is None:
            return None
        return [_PaddleTensor(o, True) for o in outs]

    def clone(self) -> Predictor:
        """A predictor sharing this one's program and parameters, with handles of its own (empty)."""
        return Predictor(self._model)

    def try_shrink_memory(self) -> int:
        """Returns 0: XLA frees a run's intermediate buffers itself."""
        return 0

    def clear_intermediate_tensor(self) -> None:
        """Nothing to clear: intermediate buffers live only during a run."""
        return None

    def register_input_hook(self, hookfunc: Any) -> None:
        """Not supported: the saved program runs as one compiled function, with no per-operator hook point."""
        raise NotImplementedError(f"paddle.inference.Predictor.register_input_hook: per-operator hooks are not "
                                  f"supported (received {hookfunc!r}); the saved program runs as one compiled "
                                  "function. Read the outputs with copy_to_cpu().")

    def register_output_hook(self, hookfunc: Any) -> None:
        """Not supported (see ``register_input_hook``)."""
        raise NotImplementedError(f"paddle.inference.Predictor.register_output_hook: per-operator hooks are not "
                                  f"supported (received {hookfunc!r}); the saved program runs as one compiled "
                                  "function. Read the outputs with copy_to_cpu().")


def create_predictor(config: Config) -> Predictor:
    """A ``Predictor`` for the model ``config`` names (each config makes one predictor, as in Paddle)."""
    api = "paddle.inference.create_predictor"
    if not isinstance(config, Config):
        raise TypeError(f"{api}: config must be a paddle.inference.Config, but received {type(config).__name__}.")
    if config._used:
        raise ValueError(f"{api}: Each config can only be used for one predictor (as in Paddle); make another "
                         "Config, or use predictor.clone().")
    model = _Model(config)
    config._used = True
    return Predictor(model)


class PredictorPool:
    """``size`` predictors of one config (``retrieve(i)`` gives the i-th); they share the program and parameters."""

    def __init__(self, config: Config, size: int = 1) -> None:
        if not isinstance(size, int) or size < 1:
            raise ValueError(f"paddle.inference.PredictorPool: size must be an int >= 1, but received {size!r}.")
        first = create_predictor(config)
        self._preds = [first] + [first.clone() for _ in range(size - 1)]

    def retrieve(self, idx: int) -> Predictor:
        """The ``idx``-th predictor of the pool."""
        if not isinstance(idx, int) or not 0 <= idx < len(self._preds):
            raise IndexError(f"paddle.inference.PredictorPool.retrieve: idx must be in [0, {len(self._preds)}), but "
                             f"received {idx!r}.")
        return self._preds[idx]


def get_version() -> str:
    """The version text (``version: ...``, ``commit: ...``, ``branch: ...`` lines, as Paddle's)."""
    return f"version: {_full_version}\ncommit: {_commit}\nbranch: HEAD\n"


_NUM_BYTES = {PaddleDType.FLOAT32: 4, PaddleDType.INT64: 8, PaddleDType.INT32: 4, PaddleDType.UINT8: 1}


def get_num_bytes_of_data_type(dtype: PaddleDType) -> int:
    """Bytes per element of ``dtype`` as Paddle 3.3.1 reports them: 4, 8, 4 and 1 for FLOAT32, INT64, INT32 and
    UINT8, and -1 for the other types (Paddle's function knows only those four)."""
    try:
        dt = PaddleDType(dtype)
    except ValueError:
        raise TypeError(f"paddle.inference.get_num_bytes_of_data_type: dtype must be a paddle.inference.DataType, "
                        f"but received {dtype!r}.") from None
    return _NUM_BYTES.get(dt, -1)


def get_trt_compile_version() -> tuple[int, int, int]:
    """(0, 0, 0): built without TensorRT (as Paddle's CPU build reports)."""
    return (0, 0, 0)


def get_trt_runtime_version() -> tuple[int, int, int]:
    """(0, 0, 0): no TensorRT at run time."""
    return (0, 0, 0)


def convert_to_mixed_precision(model_file: str, params_file: str, mixed_model_file: str, mixed_params_file: str,
                               mixed_precision: Precision, backend: PaddlePlace, keep_io_types: bool = True,
                               black_list: Any = frozenset(), **kwargs: Any) -> None:
    """Not supported: the saved StableHLO fixes the dtype of every operation, so its precision cannot be lowered
    after saving (Paddle 3.3.1's own converter reads only the old ``.pdmodel`` program format)."""
    raise NotImplementedError(
        f"paddle.inference.convert_to_mixed_precision: converting {model_file!r} (params {params_file!r}) to "
        f"{Precision(mixed_precision).name} for {PaddlePlace(backend).name} into {mixed_model_file!r} / "
        f"{mixed_params_file!r} (keep_io_types={keep_io_types}, black_list={set(black_list)}, {kwargs}) is not "
        "supported: the saved program fixes each operation's dtype. Cast the model before saving "
        "(model.to(dtype='float16') or paddle.amp.decorate) and save it again with paddle.jit.save."
    )
