"""``paddle.static.py_func``: a Python function as an operator of a static program (layer L6).

The function runs on the host at every run of the program (``jax.pure_callback`` inside the compiled
program; ``jax.debug.callback`` when it has no outputs, so it runs even though nothing reads it). It
receives numpy arrays and returns arrays (or Tensors) of the output Variables' shapes and dtypes.
With ``backward_func`` the operator is differentiable: it gets the forward inputs, outputs and the
outputs' gradients (minus ``skip_vars_in_backward_input``) and returns one gradient per input (None
for none); without it no gradient flows through.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._runtime import dtypes as _dtypes
from .._tensor.facade import Tensor
from ._program import Operator
from ._variable import Variable


def _as_numpy(r: Any) -> np.ndarray:
    return np.asarray(r.numpy() if isinstance(r, Tensor) else r)


def _results(api: str, what: str, got: Any, want: Sequence[jax.ShapeDtypeStruct], allow_none: bool) -> list[Any]:
    items = list(got) if isinstance(got, list | tuple) else [got]
    if len(items) != len(want):
        raise ValueError(f"{api}: {what} must return {len(want)} value(s), but it returned {len(items)}.")
    out = []
    for i, (r, w) in enumerate(zip(items, want)):
        if r is None:
            if not allow_none:
                raise ValueError(f"{api}: {what} returned None for output {i}; return an array.")
            out.append(np.zeros(w.shape, w.dtype))
            continue
        a = _as_numpy(r)
        if tuple(a.shape) != tuple(w.shape):
            raise ValueError(f"{api}: {what} returned shape {list(a.shape)} for output {i}, but {list(w.shape)} is "
                             "expected.")
        out.append(a.astype(w.dtype, copy=False))
    return out


class PyFuncOp(Operator):
    """``(out...) = py_func(x...)`` calling Python functions on the host."""

    type = "py_func"

    def __init__(self, block: Any, xs: list[Variable], outs: list[Variable], func: Callable[..., Any],
                 backward_func: Callable[..., Any] | None, skip: set[str], dims: list[list[tuple[int, int] | int]]
                 ) -> None:
        super().__init__(block, xs, outs, {"backward_skip_vars": sorted(skip)})
        self.func, self.backward_func, self.skip, self.dims = func, backward_func, skip, dims
        self.always_run = not outs  # a function with no outputs is run for what it does

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        api = "paddle.static.py_func"
        xs = [env[id(v)] for v in self.inputs]
        if not self.outputs:
            jax.debug.callback(lambda *a: self.func(*[np.asarray(v) for v in a]), *xs, ordered=True)
            return
        want = [jax.ShapeDtypeStruct(tuple(jnp.shape(xs[d[0]])[d[1]] if isinstance(d, tuple) else d for d in dims),
                                     np.dtype(o.dtype.np_dtype)) for o, dims in zip(self.outputs, self.dims)]

        def host(*a: Any) -> list[Any]:
            return _results(api, "func", self.func(*[np.asarray(v) for v in a]), want, False)

        x_names = [v.name for v in self.inputs]
        o_names = [v.name for v in self.outputs]
        keep_x = [n not in self.skip for n in x_names]
        keep_o = [n not in self.skip for n in o_names]
        grads_want = [jax.ShapeDtypeStruct(jnp.shape(x), jnp.result_type(x)) for x in xs]
        backward_func = self.backward_func

        def host_bwd(*a: Any) -> list[Any]:
            got = backward_func(*[np.asarray(v) for v in a])
            return _results(api, "backward_func", got, grads_want, True)

        @jax.custom_vjp
        def call(*args: Any) -> list[Any]:
            return jax.pure_callback(host, want, *args)

        def fwd(*args: Any) -> tuple[list[Any], Any]:
            outs = call(*args)
            return outs, (args, outs)

        def bwd(res: Any, gs: Any) -> tuple[Any, ...]:
            args, outs = res
            if backward_func is None:
                grads = [jnp.zeros_like(a) for a in args]
            else:
                feed = [a for a, k in zip(args, keep_x) if k] + [o for o, k in zip(outs, keep_o) if k] + list(gs)
                grads = jax.pure_callback(host_bwd, grads_want, *feed)
            return tuple(g if _dtypes.is_float(jnp.result_type(a)) else np.zeros(jnp.shape(a), jax.dtypes.float0)
                         for g, a in zip(grads, args))

        call.defvjp(fwd, bwd)
        for v, r in zip(self.outputs, call(*xs)):
            env[id(v)] = r


def _vars(api: str, what: str, v: Any) -> list[Variable]:
    if v is None:
        return []
    items = [v] if isinstance(v, Variable) else v
    if not isinstance(items, list | tuple) or not all(isinstance(e, Variable) for e in items):
        raise TypeError(f"{api}: {what} must be a Variable, a list/tuple of Variables or None, but received {v!r}.")
    return list(items)


def py_func(func: Callable[..., Any], x: Any, out: Any, backward_func: Callable[..., Any] | None = None,
            skip_vars_in_backward_input: Any = None) -> Any:
    """Record ``out = func(*x)`` (Python, on numpy arrays) into the program; ``out``: Variables made beforehand
    (``program.current_block().create_var(name=..., shape=..., dtype=...)``) that give the outputs' shapes and
    dtypes (a -1 dimension takes the size of the input dimension at the same position that is -1 too), or None.
    Returns ``out``.

    Example::

        >>> def tanh(x): return np.tanh(x)
        >>> out = main.current_block().create_var(name="y", shape=[-1, 3], dtype="float32")
        >>> paddle.static.py_func(tanh, x, out, backward_func=lambda x, y, dy: dy * (1 - y ** 2))
    """
    api = "paddle.static.py_func"
    if not callable(func):
        raise TypeError(f"{api}: func must be callable, but received {type(func).__name__}.")
    if backward_func is not None and not callable(backward_func):
        raise TypeError(f"{api}: backward_func must be callable or None, but received {type(backward_func).__name__}.")
    xs = _vars(api, "x", x)
    outs = _vars(api, "out", out)
    for o in outs:
        if len(o.shape) == 0 or o.producer is not None:
            raise ValueError(f"{api}: every output must be a fresh Variable with its shape given (create it with "
                             f"block.create_var(shape=...)), but {o.name} has shape {o.shape}"
                             f"{' and is computed by another op' if o.producer is not None else ''}.")
    skip: set[str] = set()
    if skip_vars_in_backward_input is not None:
        if backward_func is None:
            raise ValueError(f"{api}: skip_vars_in_backward_input is read only with a backward_func.")
        names = {v.name for v in xs + outs}
        for v in _vars(api, "skip_vars_in_backward_input", skip_vars_in_backward_input):
            if v.name not in names:
                raise ValueError(f"{api}: {v.name} in skip_vars_in_backward_input is neither an input nor an output "
                                 "of this py_func.")
            skip.add(v.name)
    dims: list[list[tuple[int, int] | int]] = []
    for o in outs:
        row: list[tuple[int, int] | int] = []
        for i, d in enumerate(o.shape):
            if d >= 0:
                row.append(d)
                continue
            src = next((j for j, v in enumerate(xs) if len(v.shape) > i and v.shape[i] < 0), None)
            if src is None:
                raise NotImplementedError(f"{api}: dimension {i} of the output {o.name} is unknown (-1) and no input "
                                          "has an unknown dimension at that position to take its size from; give "
                                          "the output a known shape.")
            row.append((src, i))
        dims.append(row)
    prog = (xs + outs)[0].block.program if xs + outs else None
    if prog is None:
        raise ValueError(f"{api}: x and out cannot both be empty.")
    trains = backward_func is not None and any(not v.stop_gradient for v in xs)
    for o in outs:
        o.stop_gradient = not (trains and _dtypes.is_float(np.dtype(o.dtype.np_dtype)))
    prog.append_op(PyFuncOp(prog.current_block(), xs, outs, func, backward_func, skip, dims))
    return out
