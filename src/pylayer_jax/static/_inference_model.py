"""``save_inference_model`` / ``load_inference_model``: a static Program as a deployable artifact.

Layer L6. Saving lowers the program to the feeds and fetches asked for (``lower``, as ``Executor.run``
does), exports the pure function ``(persistables..., feeds...) -> fetches`` with ``jax.export`` (a -1
feed dimension becomes a symbolic size) and writes the same three files as ``jit.save``
(``prefix.pdmodel``, ``prefix.pdiparams`` with the persistable values from the scope, ``prefix.json``
with the feed and fetch names). Loading builds a new Program: the feed Variables under their saved
names, the persistables as persistable Variables whose values go into the scope, and one operator
(``ExportedOperator``) that calls the artifact and defines the fetch Variables under their saved names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..jit._save import _NO_KEY, ExportedHandle, export_flat, read_artifact, write_artifact
from ._lowering import lower
from ._program import Block, Operator, Program, default_main_program
from ._scope import global_scope
from ._variable import Variable


class ExportedOperator(Operator):
    """A loaded inference model: calls the saved StableHLO on its inputs (persistables, then feeds)."""

    type = "exported_inference_model"

    def __init__(self, block: Block, inputs: Sequence[Variable], outputs: Sequence[Variable],
                 handle: ExportedHandle, path: str, key_arg: bool = False) -> None:
        super().__init__(block, inputs, outputs, {"path": path})
        self.handle = handle
        self.key_arg = key_arg  # a paddle.jit.save artifact: its last argument is the generator's state

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        args = [env[id(v)] for v in self.inputs] + ([_NO_KEY] if self.key_arg else [])
        outs = jax.tree_util.tree_leaves(self.handle.exported.call(*args))  # (a key argument's new state: last)
        for v, o in zip(self.outputs, outs):
            env[id(v)] = o


def _as_list(api: str, what: str, x: Any) -> list[Variable]:
    items = [x] if isinstance(x, Variable) else x
    if not isinstance(items, list | tuple) or not items or not all(isinstance(v, Variable) for v in items):
        raise TypeError(f"{api}: {what} must be a Variable or a non-empty list of Variables of the program, but "
                        f"received {x!r}.")
    return list(items)


def export_program(api: str, program: Any, feed_vars: Any, fetch_vars: Any,
                   scope: Any = None) -> tuple[Any, dict[str, Any], dict[str, np.ndarray]]:
    """The part of ``program`` that computes ``fetch_vars`` from ``feed_vars`` (its test form) exported as
    ``(persistables..., feeds...) -> fetches``: ``(Exported, meta, {name: value})``. The persistable values come
    from ``scope`` (None: only their shapes are needed, and no values are returned)."""
    if not isinstance(program, Program):
        raise TypeError(f"{api}: program must be a paddle.static.Program, but received {type(program).__name__}.")
    feeds = _as_list(api, "feed_vars", feed_vars)
    fetches = _as_list(api, "fetch_vars", fetch_vars)
    lowered = lower(program.clone(for_test=True), fetches, {v.name for v in feeds})
    if lowered.optimizers:
        raise ValueError(f"{api}: the fetches depend on optimizer updates; save the forward program "
                         "(program.clone(for_test=True)) instead.")
    persist = list(lowered.state) + list(lowered.read_only)
    values: dict[str, np.ndarray] = {}
    if scope is not None:
        for v in persist:
            if v.name not in scope.values:
                raise RuntimeError(f"{api}: the persistable Variable {v.name!r} has no value in the scope; run the "
                                   "startup program (exe.run(paddle.static.default_startup_program())) first.")
            values[v.name] = np.asarray(scope.values[v.name])
    ns = len(lowered.state)
    feed_pos = {v.name: i for i, v in enumerate(feeds)}

    def pure(*args: Any) -> list[Any]:
        p, f = args[:len(persist)], args[len(persist):]
        fetched, _ = lowered(p[:ns], p[ns:], [f[feed_pos[v.name]] for v in lowered.feeds], [])
        return list(fetched)

    specs = [([None if d < 0 else d for d in v.shape], np.dtype(v.dtype.np_dtype), v.name) for v in feeds]
    fixed = [jax.ShapeDtypeStruct(tuple(v.shape), np.dtype(v.dtype.np_dtype)) for v in persist]
    exported, notes = export_flat(api, pure, fixed, specs)
    meta = {
        "kind": "program",
        "inputs": [{"name": v.name, "shape": list(v.shape), "dtype": v.dtype.name} for v in feeds],
        "fetch_names": [v.name for v in fetches],
        "params": [{"name": v.name, "param_name": v.name, "is_param": v.kind == "param", "persistable": True,
                    "trainable": not v.stop_gradient, "shape": list(v.shape), "dtype": v.dtype.name}
                   for v in persist],
        "notes": notes,
        "outputs": [{"shape": [int(d) if isinstance(d, int) else -1 for d in a.shape], "dtype": np.dtype(a.dtype).name}
                    for a in exported.out_avals],
    }
    return exported, meta, values


def program_from_export(exported: Any, meta: dict[str, Any], path: str) -> tuple[Program, list[Variable]]:
    """A Program that runs an exported program (or a ``paddle.jit.save`` artifact of a layer or function): its
    persistables and feeds under their saved names, one operator calling the export, and the fetch Variables
    (returned too; a jit artifact's are named ``fetch_name_<i>``, as Paddle's predictor names them)."""
    if meta.get("draws_random"):
        raise NotImplementedError(
            f"paddle.static.load_inference_model: {path!r} was saved by paddle.jit.save from a forward that draws "
            "random numbers in eval mode; a static program cannot feed it the global generator. Load it with "
            "paddle.jit.load(path) instead.")
    prog = Program()
    block = prog.global_block()
    ins: list[Variable] = []
    for p in meta["params"]:
        v = Variable(block, p["name"], p["shape"], p["dtype"], stop_gradient=True, kind="state")
        v.persistable = True
        prog.add_var(v)
        ins.append(v)
    feeds = []
    for s in meta["inputs"]:
        feeds.append(prog.add_var(Variable(block, s["name"], s["shape"], s["dtype"], stop_gradient=True, kind="data")))
    names = meta.get("fetch_names") or [f"fetch_name_{i}" for i in range(len(meta["outputs"]))]
    outs = [Variable(block, n, o["shape"], o["dtype"]) for n, o in zip(names, meta["outputs"])]
    prog.append_op(ExportedOperator(block, ins + feeds, outs, ExportedHandle(exported), path,
                                    bool(meta.get("rng_arg"))))
    return prog, outs


def save_inference_model(path_prefix: str, feed_vars: Any, fetch_vars: Any, executor: Any,
                         **kwargs: Any) -> None:
    """Save the part of ``program`` (default: the main program) that computes ``fetch_vars`` from
    ``feed_vars`` as StableHLO plus the persistable values the executor's scope holds."""
    api = "paddle.static.save_inference_model"
    program = kwargs.pop("program", None)
    for k, v in kwargs.items():
        if k == "clip_extra":
            continue  # drops Paddle's extra operator attributes from the file: a StableHLO export has none
        if k == "legacy_format" and not v:
            continue
        if k == "legacy_format":
            raise NotImplementedError(f"{api}: legacy_format=True (Paddle's old protobuf format) is not supported; "
                                      "the program is saved as StableHLO.")
        raise ValueError(f"{api}: the keyword argument {k!r} is not supported (program, clip_extra, "
                         f"legacy_format are).")
    program = default_main_program() if program is None else program
    scope = getattr(executor, "_scope", None) or global_scope()
    exported, meta, values = export_program(api, program, feed_vars, fetch_vars, scope)
    write_artifact(api, path_prefix, exported, meta, values)


def load_inference_model(path_prefix: str, executor: Any, **kwargs: Any) -> list[Any]:
    """Load what ``save_inference_model`` (or ``paddle.jit.save``) wrote: ``[program, feed_target_names,
    fetch_targets]``; the persistable (parameter) values go into the scope under their saved names, and ``exe.run(program, feed=..., fetch_list=fetch_targets)`` runs it."""
    api = "paddle.static.load_inference_model"
    if kwargs:
        raise NotImplementedError(f"{api}: the keyword arguments {sorted(kwargs)} are not supported; the files are "
                                  "always prefix.pdmodel, prefix.pdiparams and prefix.json.")
    exported, meta, arrays = read_artifact(api, path_prefix)
    scope = getattr(executor, "_scope", None) or global_scope()
    prog, outs = program_from_export(exported, meta, path_prefix)
    for p in meta["params"]:
        scope.values[p["name"]] = jnp.asarray(arrays[p["name"]])
    return [prog, [s["name"] for s in meta["inputs"]], outs]
