"""Saving and loading variables and programs: ``save_vars`` / ``load_vars``, ``serialize_*`` /
``deserialize_*``, ``load_program_state`` / ``set_program_state``, ``normalize_program`` (layer L6).

Variable files use Paddle's tensor format, so they go both ways: ``save_vars`` writes one file per
Variable (``dirname/<name>``, what Paddle's ``save`` op writes) or, with ``filename``, all of them
concatenated in name order (``save_combine``); ``serialize_persistables`` returns those combined
bytes. A tensor record is: uint32 version 0, uint64 LoD level count 0, uint32 version 0, int32 size
of a ``TensorDesc`` protobuf (field 1: data type, field 2: each dimension), then the raw
little-endian data.

Programs are not Paddle protobufs here: ``serialize_program`` returns this package's bytes (the
program exported to StableHLO, as ``save_inference_model`` writes it, and its feed/fetch names),
which ``deserialize_program`` turns back into a runnable Program.
"""

from __future__ import annotations

import os
import pickle
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import jax.numpy as jnp
import numpy as np
from jax import export as jexport

from .._api import checkpoint_format as _fmt
from ._framework import is_persistable
from ._inference_model import _as_list, export_program, program_from_export
from ._lowering import needed_ops
from ._program import Program, default_main_program
from ._scope import global_scope
from ._variable import Parameter, Variable


def tensor_bytes(arr: Any) -> bytes:
    """One tensor in Paddle's serialized form (``_api.checkpoint_format``, what ``paddle.save`` writes in binary)."""
    return _fmt.dense_tensor_bytes(np.asarray(arr), "paddle.static.save_vars",
                                   "cast the variable to one of Paddle's tensor dtypes first")


def read_tensor(buf: bytes, pos: int, what: str) -> tuple[np.ndarray, int]:
    """The tensor at ``buf[pos:]`` and the position after it; a ValueError names ``what`` when it is damaged."""
    try:
        return _fmt.read_dense_tensor(buf, pos)
    except ValueError as e:
        raise ValueError(f"{what} is not a Paddle tensor file or is damaged ({e}).") from e


def _program(api: str, main_program: Any) -> Program:
    p = default_main_program() if main_program is None else main_program
    if not isinstance(p, Program):
        raise TypeError(f"{api}: main_program must be a paddle.static.Program (or None), but received "
                        f"{type(p).__name__}.")
    return p


def _chosen(api: str, program: Program, vars: Any, predicate: Callable[[Any], bool] | None) -> list[Variable]:
    if vars is None:
        if predicate is not None and not callable(predicate):
            raise TypeError(f"{api}: predicate must be callable, but received {type(predicate).__name__}.")
        return [v for v in program.list_vars() if (predicate or is_persistable)(v)]
    items = [vars] if isinstance(vars, Variable) else vars
    if not isinstance(items, list | tuple) or not all(isinstance(v, Variable) for v in items):
        raise TypeError(f"{api}: vars must be a list of Variables, but received {vars!r}.")
    return list(items)


def _scope_of(executor: Any) -> Any:
    return getattr(executor, "_scope", None) or global_scope()


def save_vars(executor: Any, dirname: str | None, main_program: Program | None = None, vars: Any = None,
              predicate: Callable[[Any], bool] | None = None, filename: str | None = None) -> bytes | None:
    """Write the values of ``vars`` (default: the program's Variables for which ``predicate`` holds, else its
    persistable ones) from the scope, in Paddle's tensor format: one file ``dirname/<name>`` each, or all in
    ``dirname/filename`` (name order). With ``dirname`` and ``filename`` both None the combined bytes are
    returned instead."""
    api = "paddle.static.save_vars"
    program = _program(api, main_program)
    chosen = _chosen(api, program, vars, predicate)
    if not chosen:
        warnings.warn(f"{api}: no variable to save; pass vars or a predicate that selects some.", stacklevel=2)
        return None
    scope = _scope_of(executor)
    missing = [v.name for v in chosen if v.name not in scope.values]
    if missing:
        raise RuntimeError(f"{api}: the scope holds no value for {missing}; run the startup program (and the "
                           "program) with an Executor first, and save persistable Variables only.")
    values = {v.name: np.asarray(scope.values[v.name]) for v in chosen}
    if dirname is None and filename is None:
        return b"".join(tensor_bytes(values[n]) for n in sorted(values))
    if not isinstance(dirname, str):
        raise TypeError(f"{api}: dirname must be a str (or None with filename None), but received {dirname!r}.")
    os.makedirs(dirname, exist_ok=True)
    if filename is None:
        for n, a in values.items():
            path = os.path.join(dirname, n)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(tensor_bytes(a))
        return None
    with open(os.path.join(dirname, filename), "wb") as f:
        f.write(b"".join(tensor_bytes(values[n]) for n in sorted(values)))
    return None


def _checked(api: str, v: Variable, arr: np.ndarray, where: str) -> Any:
    if isinstance(v, Parameter) or v.persistable:
        if list(arr.shape) != [d for d in v.shape]:
            raise RuntimeError(f"{api}: the program needs {v.name} with shape {v.shape}, but {where} holds shape "
                               f"{list(arr.shape)}.")
    return jnp.asarray(arr.astype(v.dtype.np_dtype, copy=False))


def load_vars(executor: Any, dirname: str | None, main_program: Program | None = None, vars: Any = None,
              predicate: Callable[[Any], bool] | None = None, filename: Any = None) -> None:
    """Read the values of ``vars`` (default: as ``save_vars`` chooses them) into the scope from the files
    ``save_vars`` (here or in Paddle) wrote: ``dirname/<name>`` each, or the combined ``dirname/filename``; with
    ``dirname`` None, ``filename`` is the combined bytes themselves. Shapes are checked; all or nothing."""
    api = "paddle.static.load_vars"
    program = _program(api, main_program)
    chosen = _chosen(api, program, vars, predicate)
    new: dict[str, Any] = {}
    if filename == "":
        filename = None
    if filename is None:
        if dirname is None:
            raise ValueError(f"{api}: dirname and filename cannot both be None; pass the directory save_vars wrote.")
        for v in chosen:
            path = os.path.join(dirname, v.name)
            if not os.path.isfile(path):
                raise ValueError(f"{api}: {path} does not exist; save_vars writes one file per Variable there.")
            with open(path, "rb") as f:
                buf = f.read()
            arr, _ = read_tensor(buf, 0, path)
            new[v.name] = _checked(api, v, arr, path)
    else:
        if dirname is None:
            if not isinstance(filename, bytes | bytearray):
                raise TypeError(f"{api}: with dirname None, filename must be the bytes save_vars returned, but "
                                f"received {type(filename).__name__}.")
            buf, where = bytes(filename), "the given bytes"
        else:
            where = os.path.join(dirname, filename)
            if not os.path.isfile(where):
                raise ValueError(f"{api}: {where} does not exist.")
            with open(where, "rb") as f:
                buf = f.read()
        pos = 0
        for v in sorted(chosen, key=lambda v: v.name):
            if pos >= len(buf):
                raise ValueError(f"{api}: {where} holds fewer tensors than the {len(chosen)} Variables to load.")
            arr, pos = read_tensor(buf, pos, where)
            new[v.name] = _checked(api, v, arr, where)
        if pos != len(buf):
            raise ValueError(f"{api}: {where} holds more tensors than the {len(chosen)} Variables to load; pass the "
                             "same Variables that were saved.")
    _scope_of(executor).values.update(new)


# ---- programs as bytes -----------------------------------------------------------------------------------
_FORMAT = "pylayer_jax.static.program/1"


def _kwargs(api: str, kwargs: dict[str, Any]) -> Program:
    program = kwargs.pop("program", None)
    legacy = kwargs.pop("legacy_format", False)
    if kwargs:
        raise TypeError(f"{api}: unknown keyword arguments {sorted(kwargs)} (program, legacy_format are accepted).")
    if legacy:
        raise NotImplementedError(f"{api}: legacy_format=True (Paddle's protobuf) is not supported; programs are "
                                  "serialized as StableHLO.")
    return _program(api, program)


def serialize_program(feed_vars: Any, fetch_vars: Any, **kwargs: Any) -> bytes:
    """The part of ``program`` (keyword; default: the main program) that computes ``fetch_vars`` from
    ``feed_vars``, as bytes for ``deserialize_program`` (this package's format, not Paddle's protobuf)."""
    api = "paddle.static.serialize_program"
    program = _kwargs(api, kwargs)
    exported, meta, _ = export_program(api, program, feed_vars, fetch_vars)
    try:
        blob, meta["vjp_order"] = exported.serialize(vjp_order=1), 1
    except Exception:  # noqa: BLE001 - a program that cannot be differentiated: inference only
        blob, meta["vjp_order"] = exported.serialize(vjp_order=0), 0
    return pickle.dumps({"format": _FORMAT, "meta": meta, "exported": bytes(blob)}, protocol=4)


def serialize_persistables(feed_vars: Any, fetch_vars: Any, executor: Any, **kwargs: Any) -> bytes:
    """The values (from the executor's scope) of the persistable Variables that the part of ``program``
    computing ``fetch_vars`` reads, as Paddle's combined tensor bytes (name order)."""
    api = "paddle.static.serialize_persistables"
    program = _kwargs(api, kwargs)
    _, meta, values = export_program(api, program, feed_vars, fetch_vars, _scope_of(executor))
    return b"".join(tensor_bytes(values[n]) for n in sorted(values))


def deserialize_program(data: bytes) -> Program:
    """The Program ``serialize_program`` described: run it with ``Executor.run(program, feed=..., fetch_list=
    [names])`` after ``deserialize_persistables`` put its persistable values into the scope."""
    api = "paddle.static.deserialize_program"
    if not isinstance(data, bytes | bytearray):
        raise TypeError(f"{api}: data must be bytes, but received {type(data).__name__}.")
    try:
        d = pickle.loads(bytes(data))
        if not isinstance(d, dict) or d.get("format") != _FORMAT:
            raise ValueError("no program format tag")
        exported = jexport.deserialize(bytearray(d["exported"]))
    except Exception as e:  # noqa: BLE001 - pickle and flatbuffers raise assorted errors on foreign bytes
        raise ValueError(f"{api}: data is not a program written by paddle.static.serialize_program here ({e}); "
                         "Paddle's own protobuf programs cannot be read.") from e
    prog, _ = program_from_export(exported, d["meta"], "<serialized program>")
    return prog


def deserialize_persistables(program: Program, data: bytes, executor: Any) -> None:
    """Put the values ``serialize_persistables`` (here or in Paddle) wrote into the scope, for the persistable
    Variables of ``program`` (in name order), checking every shape."""
    api = "paddle.static.deserialize_persistables"
    if not isinstance(program, Program):
        raise TypeError(f"{api}: program must be a paddle.static.Program, but received {type(program).__name__}.")
    persist = sorted((v for v in program.list_vars() if is_persistable(v)), key=lambda v: v.name)
    seen: set[str] = set()
    uniq = [v for v in persist if not (v.name in seen or seen.add(v.name))]
    load_vars(executor, None, program, uniq, filename=data)


def save_to_file(path: str, content: bytes) -> None:
    """Write ``content`` (bytes) to ``path``."""
    if not isinstance(content, bytes | bytearray):
        raise ValueError(f"paddle.static.save_to_file: content must be bytes, but received {type(content).__name__}.")
    if not isinstance(path, str) or not path:
        raise ValueError(f"paddle.static.save_to_file: path must be a non-empty str, but received {path!r}.")
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, "wb") as f:
        f.write(content)


def load_from_file(path: str) -> bytes:
    """The bytes of the file at ``path``."""
    if not isinstance(path, str) or not os.path.isfile(path):
        raise ValueError(f"paddle.static.load_from_file: {path!r} is not an existing file.")
    with open(path, "rb") as f:
        return f.read()


def normalize_program(program: Program, feed_vars: Any, fetch_vars: Any, **kwargs: Any) -> Program:
    """A copy of ``program`` cut down for inference: its test form (no backward or update ops, ``training``
    off) keeping only the ops that compute ``fetch_vars`` (``skip_prune_program=True``: all forward ops)."""
    api = "paddle.static.normalize_program"
    if not isinstance(program, Program):
        raise TypeError(f"{api}: program must be a paddle.static.Program, but received {type(program).__name__}.")
    skip = kwargs.pop("skip_prune_program", False)
    if kwargs:
        raise TypeError(f"{api}: unknown keyword arguments {sorted(kwargs)} (skip_prune_program is accepted).")
    _as_list(api, "feed_vars", feed_vars)
    fetches = _as_list(api, "fetch_vars", fetch_vars)
    if not program.global_block().ops:
        raise ValueError(f"{api}: program must not be empty; at least one operator is required.")
    test = program.clone(for_test=True)
    if not skip:
        gb = test.global_block()
        keep = needed_ops([op for op in gb.ops if not getattr(op, "side_effect", False)], fetches)
        gb.ops = keep
        test.version += 1
    return test


# ---- program state ---------------------------------------------------------------------------------------
def load_program_state(model_path: str, var_list: Sequence[Any] | None = None) -> dict[str, np.ndarray]:
    """``{name: ndarray}`` of saved Variables: from ``model_path.pdparams`` (and ``.pdopt``) written by
    ``static.save``; else from a directory written by ``save_vars`` (every file, or those named by
    ``var_list``), or a combined file (then ``var_list`` says what it holds)."""
    api = "paddle.static.load_program_state"
    if not isinstance(model_path, str):
        raise TypeError(f"{api}: model_path must be a str, but received {type(model_path).__name__}.")
    prefix = model_path
    for ext in (".pdparams", ".pdopt", ".pdmodel"):
        if prefix.endswith(ext):
            prefix = prefix[: -len(ext)]
            break
    if os.path.exists(prefix + ".pdparams"):
        out: dict[str, np.ndarray] = {}
        for ext in (".pdparams", ".pdopt"):
            if os.path.exists(prefix + ext):
                with open(prefix + ext, "rb") as f:
                    out.update({k: np.asarray(v) for k, v in pickle.load(f, encoding="latin1").items()})
        return out
    if var_list is not None and (not isinstance(var_list, list | tuple)
                                 or not all(isinstance(v, Variable) for v in var_list)):
        raise TypeError(f"{api}: var_list must be a list of Variables, but received {var_list!r}.")
    if os.path.isfile(model_path):
        if var_list is None:
            raise ValueError(f"{api}: var_list can not be None when model_path is a file (a combined save_vars "
                             "file); pass the Variables it holds.")
        with open(model_path, "rb") as f:
            buf = f.read()
        res, pos = {}, 0
        for v in sorted(var_list, key=lambda v: v.name):
            res[v.name], pos = read_tensor(buf, pos, model_path)
        return res
    if not os.path.isdir(model_path):
        raise ValueError(f"{api}: {prefix + '.pdparams'} does not exist and {model_path!r} is no directory or file "
                         "written by save_vars.")
    names = [v.name for v in var_list] if var_list is not None else sorted(
        os.path.relpath(os.path.join(r, f), model_path).replace("\\", "/")
        for r, _, fs in os.walk(model_path) for f in fs)
    res = {}
    for n in names:
        path = os.path.join(model_path, n)
        if not os.path.isfile(path):
            raise RuntimeError(f"{api}: failed to load {n}: {path} does not exist.")
        with open(path, "rb") as f:
            buf = f.read()
        try:
            res[n], _ = read_tensor(buf, 0, path)
        except ValueError:
            if var_list is not None:
                raise
            warnings.warn(f"{api}: {path} is not a tensor file; skipped.", RuntimeWarning, stacklevel=2)
    return res


def set_program_state(program: Program, state_dict: dict[str, Any]) -> None:
    """Set the persistable Variables of ``program`` named in ``state_dict`` in the scope (shape and dtype must
    match what the scope holds, which the startup program made); names the program lacks are warned about."""
    api = "paddle.static.set_program_state"
    if not isinstance(program, Program):
        raise TypeError(f"{api}: program must be a paddle.static.Program, but received {type(program).__name__}.")
    if not isinstance(state_dict, dict):
        raise TypeError(f"{api}: state_dict must be a dict {{name: ndarray}}, but received "
                        f"{type(state_dict).__name__}.")
    scope = global_scope()
    new, used = {}, set()
    for v in program.list_vars():
        if not is_persistable(v) or v.name in used:
            continue
        if v.name not in scope.values:
            raise RuntimeError(f"{api}: the Variable {v.name} has no value in the scope; run the startup program "
                               "first.")
        if v.name in state_dict:
            old = scope.values[v.name]
            arr = np.asarray(state_dict[v.name])
            if tuple(arr.shape) != tuple(old.shape):
                raise ValueError(f"{api}: the program needs {v.name} with shape {list(old.shape)}, but state_dict "
                                 f"holds shape {list(arr.shape)}.")
            if arr.dtype != np.dtype(old.dtype):
                raise ValueError(f"{api}: the program needs {v.name} with dtype {np.dtype(old.dtype).name}, but "
                                 f"state_dict holds {arr.dtype.name}.")
            new[v.name] = jnp.asarray(arr)
            used.add(v.name)
    unused = [k for k in state_dict if k not in used]
    if unused:
        warnings.warn(f"{api}: these entries were not set, the program has no persistable Variable of that name: "
                      f"{' '.join(unused)}", stacklevel=2)
    scope.values.update(new)

