"""``paddle.static.save`` / ``paddle.static.load``: a program's persistable values as Paddle's files.

Layer L6. ``save`` pickles ``{name: ndarray}`` of the program's parameters (``.pdparams``) and of
its other persistable Variables, the optimizer's accumulators (``.pdopt``), from the current scope,
the format Paddle's Program-IR ``static.save`` writes, so files go both ways. Paddle's third
file, the ``.pdmodel`` protobuf of the program, is not written (it is only read for deployment).
``load`` reads them back into the scope, checking every shape.
"""

from __future__ import annotations

import os
import pickle
from typing import Any

import jax.numpy as jnp
import numpy as np

from ._program import Program
from ._scope import global_scope
from ._variable import Parameter, Variable


def _check_program(api: str, program: Any) -> None:
    if not isinstance(program, Program):
        raise TypeError(f"{api}: program must be a paddle.static.Program, but received {type(program).__name__}.")


def _split(program: Program) -> tuple[list[Variable], list[Variable]]:
    params = [v for v in program.list_vars() if isinstance(v, Parameter)]
    opt = [v for v in program.list_vars() if v.persistable and not isinstance(v, Parameter) and v.kind == "state"
           and not getattr(v, "_unsaved", False)]  # (create_global_var(persistable=False) is not saved)
    return params, opt


def save(program: Program, model_path: str, protocol: int = 4, **configs: Any) -> None:
    """Write ``model_path.pdparams`` (parameters) and ``model_path.pdopt`` (optimizer state) from the scope."""
    api = "paddle.static.save"
    _check_program(api, program)
    if not isinstance(model_path, str) or os.path.basename(model_path) == "":
        raise ValueError(f"{api}: model_path must be 'dirname/file_prefix' with a non-empty prefix, but received "
                         f"{model_path!r}.")
    if configs:
        raise TypeError(f"{api}: unknown keyword arguments {sorted(configs)}; only protocol is accepted.")
    if isinstance(protocol, bool) or not isinstance(protocol, int) or not 2 <= protocol <= 4:
        raise ValueError(f"{api}: protocol must be an int in [2, 4] (a pickle protocol), but received {protocol!r}.")
    scope = global_scope()
    params, opt = _split(program)
    missing = [v.name for v in params + opt if v.name not in scope.values]
    if missing:
        raise RuntimeError(f"{api}: the scope holds no value for {missing}; run the startup program (and the "
                           "program, for optimizer state) with an Executor before saving.")
    d = os.path.dirname(model_path)
    if d:
        os.makedirs(d, exist_ok=True)
    for suffix, vs in ((".pdparams", params), (".pdopt", opt)):
        with open(model_path + suffix, "wb") as f:
            pickle.dump({v.name: np.asarray(scope.values[v.name]) for v in vs}, f, protocol=protocol)


def _selected(api: str, program: Program, var_list: Any, params: list[Variable],
              opt: list[Variable]) -> tuple[list[Variable], list[Variable]]:
    """The parameters and optimizer-state Variables named by ``var_list`` (all of them when it is None)."""
    if var_list is None:
        return params, opt
    if not isinstance(var_list, list | tuple):
        raise TypeError(f"{api}: var_list must be a list of the program's Variables, but received "
                        f"{type(var_list).__name__}.")
    names = set()
    known = {v.name for v in program.list_vars()}
    loadable = {v.name for v in params + opt}
    for v in var_list:
        if not isinstance(v, Variable):
            raise TypeError(f"{api}: var_list must hold Variables of the program, but received "
                            f"{type(v).__name__} ({v!r}).")
        if v.name not in known:
            raise LookupError(f"{api}: the variable {v.name} in var_list is not in the program's variable list; pass "
                              "Variables of the program being loaded.")
        if v.name not in loadable:
            raise ValueError(f"{api}: the variable {v.name} in var_list is not persistable (neither a parameter nor "
                             "optimizer state), so no file holds it; pass parameters or optimizer state.")
        names.add(v.name)
    return [v for v in params if v.name in names], [v for v in opt if v.name in names]


def load(program: Program, model_path: str, executor: Any = None, var_list: Any = None) -> None:
    """Set the program's parameters (and optimizer state, when ``.pdopt`` exists) in the scope from the files
    ``save`` (here or in Paddle) wrote.

    ``var_list``: a list of the program's parameters / optimizer-state Variables to load (the others keep their
    values in the scope); None loads them all. (Paddle 3.3.1 reads ``var_list`` only for files written by
    ``save_vars`` and loads every variable of a ``.pdparams`` file whatever it holds.)
    """
    api = "paddle.static.load"
    _check_program(api, program)
    prefix = model_path
    for ext in (".pdparams", ".pdopt", ".pdmodel", ".json"):
        if prefix.endswith(ext):
            prefix = prefix[: -len(ext)]
            break
    if not os.path.exists(prefix + ".pdparams"):
        raise ValueError(f"{api}: {prefix + '.pdparams'} does not exist; pass the prefix given to "
                         "paddle.static.save.")
    params, opt = _selected(api, program, var_list, *_split(program))
    scope = global_scope()
    todo = [(".pdparams", params)]
    if opt and os.path.exists(prefix + ".pdopt"):
        todo.append((".pdopt", opt))
    elif opt and var_list is not None:
        raise ValueError(f"{api}: var_list names optimizer state ({[v.name for v in opt]}) but "
                         f"{prefix + '.pdopt'} does not exist.")
    new = {}
    for suffix, vs in todo:
        if not vs:
            continue
        with open(prefix + suffix, "rb") as f:
            saved = pickle.load(f, encoding="latin1")
        for v in vs:
            if v.name not in saved:
                raise ValueError(f"{api}: {prefix + suffix} has no value for {v.name}; it was saved from another "
                                 "program.")
            arr = np.asarray(saved[v.name])
            if list(arr.shape) != v.shape:
                raise ValueError(f"{api}: {v.name} has shape {list(arr.shape)} in {prefix + suffix}, but the program "
                                 f"declares {v.shape}.")
            new[v.name] = jnp.asarray(arr.astype(v.dtype.np_dtype))
    scope.values.update(new)  # all or nothing: a failed check leaves the scope as it was
