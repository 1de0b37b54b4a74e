"""Implicit inputs of a compiled function: the paths they are found again by, and the line that needs a value.

Layer L6 (``jit``). A Tensor a compiled function reads without being passed it is found again
before every call by the path it was first reached by (``self._sub_layers['fc']._parameters['weight']``,
a closure cell, a global), so a Tensor replaced between calls is the one read.
"""

from __future__ import annotations

import keyword
import os
import traceback
import types
import weakref
from collections.abc import Callable
from typing import Any

import jax

from .._tensor.facade import Tensor, TracedValueError

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the pylayer_jax package
_MAX_DEPTH = 5  # how deep the paths to implicit inputs are searched (self._sub_layers['l']._parameters['w'])
_MAX_NODES = 20000
CONTROL_FLOW_ERRORS = (TracedValueError, jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError,
                       jax.errors.TracerIntegerConversionError, jax.errors.TracerArrayConversionError)


def _roots(fn: Any) -> list[tuple[tuple, Any]]:
    """Where a function's implicit inputs can be reached from: its bound object, closure cells, globals."""
    roots: list[tuple[tuple, Any]] = []
    if isinstance(fn, types.MethodType):
        roots.append(((("self", None),), fn.__self__))
        fn = fn.__func__
    code = getattr(fn, "__code__", None)
    if code is None:
        return roots
    for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
        try:
            roots.append(((("cell", name),), cell.cell_contents))
        except ValueError:  # an empty cell
            pass
    g = getattr(fn, "__globals__", {})
    for name in code.co_names:
        if name in g:
            roots.append(((("global", name),), g[name]))
    return roots


def _children(obj: Any) -> Any:
    if isinstance(obj, dict):
        return ((("item", k), v) for k, v in obj.items() if isinstance(k, str | int))
    if isinstance(obj, list | tuple):
        return ((("item", i), v) for i, v in enumerate(obj))
    d = getattr(obj, "__dict__", None)
    if isinstance(d, dict):
        return ((("attr", k), v) for k, v in d.items())
    return ()


def _skip(obj: Any) -> bool:
    return isinstance(obj, types.ModuleType | type | types.FunctionType | types.BuiltinFunctionType
                      | types.MethodType | str | bytes | int | float | bool | jax.Array) or obj is None


def find_paths(fn: Any, wanted: dict[int, Tensor]) -> dict[int, tuple]:
    """A path from ``fn``'s roots to each wanted Tensor (breadth first, bounded)."""
    paths: dict[int, tuple] = {}
    seen: set[int] = set()
    level = _roots(fn)
    depth = nodes = 0
    while level and depth <= _MAX_DEPTH and len(paths) < len(wanted):
        nxt = []
        for path, obj in level:
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            nodes += 1
            if isinstance(obj, Tensor):
                if id(obj) in wanted and id(obj) not in paths:
                    paths[id(obj)] = path
                continue
            if _skip(obj) or nodes > _MAX_NODES:
                continue
            nxt.extend((path + (step,), child) for step, child in _children(obj))
        level = nxt
        depth += 1
    return paths


def _resolve(fn: Any, path: tuple) -> Any:
    kind = path[0]
    if kind[0] == "self":
        obj = fn.__self__
    else:
        f = fn.__func__ if isinstance(fn, types.MethodType) else fn
        if kind[0] == "cell":
            obj = f.__closure__[f.__code__.co_freevars.index(kind[1])].cell_contents
        else:
            obj = f.__globals__[kind[1]]
    for step, k in path[1:]:
        obj = obj[k] if step == "item" else getattr(obj, k)
    return obj


class Implicit:
    """One implicit input: the path it is found by (None: held by identity only) and the last Tensor found."""

    __slots__ = ("path", "ref")

    def __init__(self, path: tuple | None, t: Tensor) -> None:
        self.path, self.ref = path, weakref.ref(t)

    def get(self, fn: Any) -> Tensor | None:
        if self.path is not None:
            try:
                t = _resolve(fn, self.path)
            except (AttributeError, KeyError, IndexError, TypeError, ValueError):
                return None
            if isinstance(t, Tensor):
                self.ref = weakref.ref(t)
                return t
            return None
        return self.ref()


def user_line(tb: Any) -> str:
    """The innermost frame of the user's code in a traceback: ``file:line: source``."""
    where = ""
    for frame, lineno in traceback.walk_tb(tb):
        fname = frame.f_code.co_filename
        if not os.path.abspath(fname).startswith(_PKG_DIR) and f"{os.sep}jax{os.sep}" not in fname:
            src = traceback.extract_tb(tb)  # for the source text
            line = next((s.line for s in src if s.filename == fname and s.lineno == lineno), "")
            where = f"{fname}:{lineno}: {line}"
    return where


class ControlFlowError(RuntimeError):
    """A compiled function needs a Tensor's value in Python; ``where`` is the line (``file:line: source``)."""

    where = ""


def control_flow_error(name: str, e: BaseException, step: bool = False) -> ControlFlowError:
    """The error for a value read while tracing ``name``: ``e`` (its traceback gives the user's line); ``step``:
    inside a whole training step, whose Tensors can be returned and read after the call."""
    where = user_line(e.__traceback__) or "(line unknown)"
    if step:
        text = (f"{name}: {where} needs a Tensor's value in Python (.item(), .numpy(), float(), print, or an "
                "if/while on a Tensor), but inside a compiled training step a Tensor has no value until the step "
                "has run. Return the Tensor from the step and read it after the call (loss = step(x, y); "
                "loss.item()), use paddle.where or paddle.static.nn.cond for a branch, or pass full_graph=False to "
                "run this step eagerly.")
    else:
        text = (f"{name}: the compiled function needs a Tensor's value in Python at {where}; inside to_static a "
                "Tensor has no value yet (Python `if`/`while`/`int()`/`.numpy()`/`.item()` on a Tensor). Use "
                "paddle.where or paddle.static.nn.cond for a branch, or pass full_graph=False to run such a "
                "function eagerly.")
    err = ControlFlowError(text)
    err.where = where
    return err


def resolver(fn: Any, implicit: list[Implicit]) -> Callable[[], list[Any]]:
    """One function that finds every implicit input again (a call's hot path): the paths written out as
    Python expressions (``g['net']._sub_layers['0']._parameters['weight']``), compiled once. It raises where
    a path leads nowhere now; ``Implicit.get`` then says which."""
    f = fn.__func__ if isinstance(fn, types.MethodType) else fn
    env: dict[str, Any] = {"fn": fn, "refs": [imp.ref for imp in implicit], "cells": getattr(f, "__closure__", None),
                           "g": getattr(f, "__globals__", None)}
    exprs = []
    for k, imp in enumerate(implicit):
        path = imp.path
        if path is None:
            exprs.append(f"refs[{k}]()")
            continue
        kind = path[0]
        if kind[0] == "self":
            e = "fn.__self__"
        elif kind[0] == "cell":
            e = f"cells[{f.__code__.co_freevars.index(kind[1])}].cell_contents"
        else:
            e = f"g[{kind[1]!r}]"
        for step, key in path[1:]:
            if step == "item":
                e = f"{e}[{key!r}]"
            elif isinstance(key, str) and key.isidentifier() and not keyword.iskeyword(key):
                e = f"{e}.{key}"
            else:
                e = f"getattr({e}, {key!r})"
        exprs.append(e)
    exec(f"def get():\n    return [{', '.join(exprs)}]\n", env)  # noqa: S102 - built from attribute names and keys
    return env["get"]
