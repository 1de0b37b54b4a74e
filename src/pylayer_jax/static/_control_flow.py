"""``paddle.static.nn.cond`` and ``while_loop`` (layer L6).

Three ways in, as for every op:

- eager Tensors with values: plain Python (``if``/``while`` on the predicate's value), as
  Paddle's dynamic mode does; ``while_loop`` writes the results back into ``loop_vars``;
- Tensors wrapping JAX tracers (inside ``static_pylayer``'s functions, ``jax.jit``):
  ``lax.cond`` / ``lax.while_loop``;
- Variables of a static program being built: a ``cond`` operator whose two branches are
  recorded into sub-blocks and lowered to ``lax.cond``; ``while_loop`` traces ``cond`` and
  ``body`` into a ``while`` operator lowered to ``lax.while_loop`` (differentiable: see
  ``_while_grad``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._runtime import dtypes as _dtypes
from .._tensor.facade import Tensor
from .._tensor.methods import inplace_assign
from ._lowering import run_ops
from ._program import Operator, unique_name
from ._variable import Variable, merge_shape
from ._while_grad import while_loop_vjp


def _check_callable(fn: Any, what: str, api: str) -> None:
    if fn is not None and not callable(fn):
        raise TypeError(f"{api}: {what} must be callable (a function of no arguments), but received {type(fn).__name__}.")


def _check_pred(pred: Any, api: str) -> None:
    if not isinstance(pred, Tensor):
        raise TypeError(
            f"{api}: pred must be a boolean Tensor with one element (e.g. x < 5), but received {type(pred).__name__}."
        )
    if int(np.prod(pred.shape)) != 1:
        raise ValueError(f"{api}: pred must have exactly one element, but its shape is {list(pred.shape)}.")


def _is_traced(t: Tensor) -> bool:
    return isinstance(t._v, jax.core.Tracer)


def _flat(out: Any) -> tuple[list[Any], Any]:
    return jax.tree_util.tree_flatten(out, is_leaf=lambda x: isinstance(x, Tensor))


def _as_array(x: Any, api: str, what: str) -> Any:
    if isinstance(x, Tensor):
        return x._value
    if isinstance(x, bool | int | float | np.ndarray | np.generic | jax.Array):
        return jnp.asarray(x)
    raise TypeError(f"{api}: {what} must return Tensors (or numbers), but it returned a {type(x).__name__}.")


_NONE = jax.tree_util.tree_structure(None)


def _merge_check(api: str, ta: Any, fa: Any) -> None:
    if ta is None and fa is None:
        return
    if ta is None or fa is None:
        which = "true_fn returns None while false_fn returns non-None" if ta is None else (
            "true_fn returns non-None while false_fn returns None")
        raise ValueError(f"{api}: incompatible return values of true_fn and false_fn: {which}. Return the same "
                         "structure from both.")


def cond(pred: Any, true_fn: Callable[[], Any] | None = None, false_fn: Callable[[], Any] | None = None,
         name: str | None = None, return_names: Any = None) -> Any:
    """``true_fn()`` if ``pred`` else ``false_fn()``; both branches must return the same structure.

    Eagerly only the chosen branch runs; under a JAX trace or in a static program both
    branches are traced and the choice is ``lax.cond``.

    Example::

        >>> import pylayer_jax as paddle
        >>> x = paddle.to_tensor([3.0])
        >>> paddle.static.nn.cond(x < 5.0, lambda: x + x, lambda: x - x)   # [6.]  # doctest: +SKIP
    """
    api = "paddle.static.nn.cond"
    _check_pred(pred, api)
    _check_callable(true_fn, "true_fn", api)
    _check_callable(false_fn, "false_fn", api)
    if pred._symbolic:
        return _record_cond(api, pred, true_fn, false_fn)
    if _is_traced(pred):
        return _traced_cond(api, pred, true_fn, false_fn)
    fn = true_fn if bool(pred.item()) else false_fn
    return fn() if fn is not None else None


def _traced_cond(api: str, pred: Tensor, true_fn: Any, false_fn: Any) -> Any:
    trees: dict[str, Any] = {}

    def branch(fn: Any, key: str) -> Callable[[Any], Any]:
        def run(_: Any) -> list[Any]:
            out = fn() if fn is not None else None
            leaves, trees[key] = _flat(out)
            return [_as_array(x, api, key) for x in leaves]
        return run

    # shapes first, to give a clear error where lax.cond would give a terse one
    ta = jax.eval_shape(branch(true_fn, "true_fn"), None)
    fa = jax.eval_shape(branch(false_fn, "false_fn"), None)
    _merge_check(api, None if trees["true_fn"] == _NONE else ta, None if trees["false_fn"] == _NONE else fa)
    if trees["true_fn"] != trees["false_fn"]:
        raise ValueError(f"{api}: true_fn and false_fn must return the same structure, but true_fn returns "
                         f"{trees['true_fn']} and false_fn {trees['false_fn']}.")
    for i, (a, b) in enumerate(zip(ta, fa)):
        if a.shape != b.shape or a.dtype != b.dtype:
            raise ValueError(
                f"{api}: output {i} of true_fn ({_dtypes.to_paddle(a.dtype).name}{list(a.shape)}) and of false_fn "
                f"({_dtypes.to_paddle(b.dtype).name}{list(b.shape)}) must have the same shape and dtype."
            )
    outs = jax.lax.cond(jnp.reshape(pred._value, ()), branch(true_fn, "true_fn"), branch(false_fn, "false_fn"), None)
    if trees["true_fn"] == _NONE:
        return None
    return jax.tree_util.tree_unflatten(trees["true_fn"], [Tensor(o) for o in outs])


class CondOp(Operator):
    """``(outs) = cond(pred, captured...)`` with a true and a false block, lowered to ``lax.cond``."""

    type = "cond"

    def __init__(self, block: Any, pred: Variable, captured: Sequence[Variable], outputs: Sequence[Variable],
                 branches: Sequence[tuple[Any, list[Any]]]) -> None:
        super().__init__(block, [pred, *captured], outputs,
                         {"true_block": branches[0][0].idx, "false_block": branches[1][0].idx})
        self.pred = pred
        self.branches = branches

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        def branch(sub_block: Any, outs: list[Any]) -> Callable[[Any], list[Any]]:
            def f(_: Any) -> list[Any]:
                local = dict(env)
                run_ops(sub_block.ops, local, ctx)
                return [local[id(o)] if isinstance(o, Variable) else o for o in outs]
            return f

        p = jnp.reshape(env[id(self.pred)], ()).astype(bool)
        res = jax.lax.cond(p, branch(*self.branches[0]), branch(*self.branches[1]), None)
        for v, r in zip(self.outputs, res):
            env[id(v)] = r


def _record_branch(prog: Any, fn: Any, title: str, api: str) -> tuple[Any, Any, list[Any]]:
    block = prog.new_block(title, prog.current_block().idx)
    with prog.recording_into(block):
        out = fn() if fn is not None else None
    leaves, tree = _flat(out)
    vals = []
    for x in leaves:
        if isinstance(x, Variable):
            vals.append(x)
        else:
            vals.append(_as_array(x, api, title.split(" ")[0]))
    return block, tree, vals


def _captured(blocks: Sequence[Any], outs: Sequence[Any]) -> list[Variable]:
    """The Variables from outside that the branch blocks read (or return)."""
    made: set[int] = set()
    seen: dict[int, Variable] = {}
    for b in blocks:
        for op in b.ops:
            for v in op.input_vars():
                if id(v) not in made:
                    seen.setdefault(id(v), v)
            made.update(id(v) for v in op.outputs)
    for o in outs:
        if isinstance(o, Variable) and id(o) not in made:
            seen.setdefault(id(o), o)
    return list(seen.values())


def _struct(x: Any) -> tuple[Any, Any]:
    if isinstance(x, Variable):
        return x._value, x._alt
    s = jax.ShapeDtypeStruct(jnp.shape(x), jnp.result_type(x))
    return s, s


def _record_cond(api: str, pred: Variable, true_fn: Any, false_fn: Any) -> Any:
    prog = pred.block.program
    base = unique_name("cond")
    tb, ttree, touts = _record_branch(prog, true_fn, f"true_fn of {base}", api)
    fb, ftree, fouts = _record_branch(prog, false_fn, f"false_fn of {base}", api)
    _merge_check(api, None if ttree == _NONE else touts, None if ftree == _NONE else fouts)
    if ttree != ftree:
        raise ValueError(f"{api}: true_fn and false_fn must return the same structure, but true_fn returns {ttree} "
                         f"and false_fn {ftree}.")
    block = prog.current_block()
    outs = []
    for i, (a, b) in enumerate(zip(touts, fouts)):
        (a1, a2), (b1, b2) = _struct(a), _struct(b)
        if merge_shape(a1.shape, a2.shape) != merge_shape(b1.shape, b2.shape) or a1.dtype != b1.dtype:
            raise ValueError(
                f"{api}: output {i} of true_fn ({_dtypes.to_paddle(a1.dtype).name}{merge_shape(a1.shape, a2.shape)}) "
                f"and of false_fn ({_dtypes.to_paddle(b1.dtype).name}{merge_shape(b1.shape, b2.shape)}) must have the "
                "same shape and dtype."
            )
        stop = all(not isinstance(x, Variable) or x.stop_gradient for x in (a, b))
        outs.append(Variable.from_structs(block, f"{base}.tmp_{i}", a1, a2, stop or not _dtypes.is_float(a1.dtype)))
    if not outs:
        return None
    captured = _captured([tb, fb], [*touts, *fouts])
    prog.append_op(CondOp(block, pred, captured, outs, [(tb, touts), (fb, fouts)]))
    return jax.tree_util.tree_unflatten(ttree, outs)


# ---- while_loop ----------------------------------------------------------------------------------
def _check_loop(cond_fn: Any, body: Any, loop_vars: Any, api: str) -> None:
    if not callable(cond_fn):
        raise TypeError(f"{api}: cond must be callable, but received {type(cond_fn).__name__}.")
    if not callable(body):
        raise TypeError(f"{api}: body must be callable, but received {type(body).__name__}.")
    if not isinstance(loop_vars, list | tuple):
        raise TypeError(f"{api}: loop_vars must be a list or tuple, but received {type(loop_vars).__name__}.")
    if len(loop_vars) == 0:
        raise ValueError(f"{api}: loop_vars must not be empty; pass the values the loop carries.")


def _check_cond_value(c: Any, api: str) -> None:
    if not isinstance(c, Tensor) or c.dtype.name != "bool":
        got = c.dtype.name if isinstance(c, Tensor) else type(c).__name__
        raise TypeError(f"{api}: cond must return a bool Tensor (e.g. i < 10), but it returned {got}.")
    if int(np.prod(c.shape)) != 1:
        raise TypeError(f"{api}: the Tensor returned by cond must have one element, but its shape is {list(c.shape)}.")


def _as_list(out: Any, n: int, api: str) -> list[Any]:
    out = list(out) if isinstance(out, list | tuple) else [out]
    if len(out) != n:
        raise ValueError(
            f"{api}: body must return the same arity (length and structure) as loop_vars ({n}), but it returned "
            f"{len(out)} values."
        )
    return out


def while_loop(cond: Callable[..., Any], body: Callable[..., Any], loop_vars: Sequence[Any], is_test: bool = False,
               name: str | None = None) -> Any:
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)``; returns the final ``loop_vars``.

    Eagerly it is a Python loop that writes the results back into the Tensors of ``loop_vars``
    (as Paddle's dynamic mode does) and returns ``loop_vars`` itself, differentiable like the
    ops it ran; traced or in a static program it is ``lax.while_loop`` given a reverse-mode rule
    (``_while_grad``: the backward recomputes each trip's state from the initial values), so
    ``append_backward``/``gradients`` in a static program and ``jax.grad`` of a traced one go
    through it, to the loop variables and to the float Variables the body reads, as in Paddle.

    Example::

        >>> import pylayer_jax as paddle
        >>> i, s = paddle.full([1], 0, "int64"), paddle.full([1], 1.0)
        >>> paddle.static.nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s * 2.0], [i, s])  # s == 8
        ... # doctest: +SKIP
    """
    api = "paddle.static.nn.while_loop"
    _check_loop(cond, body, loop_vars, api)
    tensors = [x for x in loop_vars if isinstance(x, Tensor)]
    if any(t._symbolic for t in tensors):
        return _record_while(api, cond, body, loop_vars)
    pre = cond(*loop_vars)
    _check_cond_value(pre, api)
    if any(_is_traced(t) for t in tensors) or _is_traced(pre):
        return _traced_while(api, cond, body, list(loop_vars))
    now = bool(pre.item())
    current = list(loop_vars)
    while now:
        current = _as_list(body(*current), len(loop_vars), api)
        c = cond(*current)
        _check_cond_value(c, api)
        now = bool(c.item())
    results = []
    for old, new in zip(loop_vars, current):
        if isinstance(old, Tensor) and isinstance(new, Tensor) and old is not new:
            inplace_assign(old, new, api)
            results.append(old)
        else:
            results.append(new)
    if isinstance(loop_vars, list):
        loop_vars[:] = results
        return loop_vars
    return tuple(results) if any(a is not b for a, b in zip(results, loop_vars)) else loop_vars


def _loop_fns(api: str, cond_fn: Any, body: Any, template: list[Any]) -> tuple[Callable, Callable]:
    dtypes = [jnp.result_type(_as_array(x, api, "loop_vars")) for x in template]

    def wrap(vals: Sequence[Any]) -> list[Any]:
        return [Tensor(v) for v in vals]

    def c(vals: Sequence[Any]) -> Any:
        out = cond_fn(*wrap(vals))
        _check_cond_value(out, api)
        return jnp.reshape(out._value, ())

    def b(vals: Sequence[Any]) -> list[Any]:
        out = _as_list(body(*wrap(vals)), len(template), api)
        res = []
        for i, (o, v) in enumerate(zip(out, vals)):
            arr = _as_array(o, api, "body")
            if jnp.shape(arr) != jnp.shape(v):
                raise ValueError(
                    f"{api}: body must keep the shape of each loop variable, but loop variable {i} has shape "
                    f"{list(jnp.shape(v))} and body returned {list(jnp.shape(arr))}."
                )
            res.append(arr.astype(dtypes[i]))
        return res

    return c, b


def _traced_while(api: str, cond_fn: Any, body: Any, loop_vars: list[Any]) -> list[Any]:
    init = [_as_array(x, api, "loop_vars") for x in loop_vars]
    c, b = _loop_fns(api, cond_fn, body, loop_vars)
    return [Tensor(v) for v in while_loop_vjp(c, b, init)]


class WhileOp(Operator):
    """``(outs) = while(loop_vars..., captured...)`` with a cond and a body block, lowered to ``lax.while_loop``."""

    type = "while"

    def __init__(self, block: Any, loop_vars: Sequence[Any], captured: Sequence[Variable], outputs: Sequence[Variable],
                 holders: Sequence[Variable], cond: tuple[Any, Variable], body: tuple[Any, list[Any]], api: str) -> None:
        super().__init__(block, [*loop_vars, *captured], outputs, {"cond_block": cond[0].idx, "body_block": body[0].idx})
        self.loop_vars, self.holders, self.cond, self.body, self.api = list(loop_vars), list(holders), cond, body, api

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        init = [env[id(x)] if isinstance(x, Variable) else _as_array(x, self.api, "loop_vars") for x in self.loop_vars]
        dtypes = [jnp.result_type(v) for v in init]

        def local(vals: Sequence[Any]) -> dict[int, Any]:
            e = dict(env)
            e.update((id(h), v) for h, v in zip(self.holders, vals))
            return e

        def c(vals: Sequence[Any]) -> Any:
            e = local(vals)
            run_ops(self.cond[0].ops, e, ctx)
            return jnp.reshape(e[id(self.cond[1])], ()).astype(bool)

        def b(vals: Sequence[Any]) -> list[Any]:
            e = local(vals)
            run_ops(self.body[0].ops, e, ctx)
            outs = [e[id(o)] if isinstance(o, Variable) else o for o in self.body[1]]
            return [jnp.reshape(jnp.asarray(o), jnp.shape(v)).astype(dt) for o, v, dt in zip(outs, vals, dtypes)]

        for v, r in zip(self.outputs, while_loop_vjp(c, b, init)):
            env[id(v)] = r


def _record_while(api: str, cond_fn: Any, body: Any, loop_vars: Sequence[Any]) -> list[Any]:
    for x in loop_vars:
        if isinstance(x, Tensor) and not x._symbolic:
            raise NotImplementedError(
                f"{api}: in a static program every Tensor in loop_vars must be a Variable of the program; pass "
                "paddle.full(...) or paddle.static.data(...) values instead of eager Tensors."
            )
    prog = next(x for x in loop_vars if isinstance(x, Variable)).block.program
    parent = prog.current_block()
    base = unique_name("while")
    cb = prog.new_block(f"cond of {base}", parent.idx)
    bb = prog.new_block(f"body of {base}", parent.idx)
    # Variables that stand for the carried values inside the cond and body blocks
    holders = []
    for k, x in enumerate(loop_vars):
        a, a2 = _struct(x if isinstance(x, Variable) else _as_array(x, api, "loop_vars"))
        h = Variable.from_structs(bb, f"{base}.carry_{k}", a, a2, True)
        holders.append(h)
    with prog.recording_into(cb):
        c = cond_fn(*holders)
    _check_cond_value(c, api)
    with prog.recording_into(bb):
        outs = _as_list(body(*holders), len(loop_vars), api)
    for k, (o, h) in enumerate(zip(outs, holders)):
        (o1, o2), (h1, h2) = _struct(o if isinstance(o, Variable) else _as_array(o, api, "body")), (h._value, h._alt)
        if merge_shape(o1.shape, o2.shape) != merge_shape(h1.shape, h2.shape) or (
                isinstance(o, Variable) and o1.dtype != h1.dtype):
            raise ValueError(
                f"{api}: body must keep the shape and dtype of each loop variable, but loop variable {k} is "
                f"{h.dtype.name}{h.shape} and body returned {_dtypes.to_paddle(o1.dtype).name}"
                f"{merge_shape(o1.shape, o2.shape)}."
            )
    held = {id(h) for h in holders}
    captured = [v for v in _captured([cb, bb], [c, *outs]) if id(v) not in held]
    # as in Paddle, a float result carries a gradient when a loop variable or a Variable the loop reads does
    trains = any(isinstance(v, Variable) and not v.stop_gradient and _dtypes.is_float(v._value.dtype)
                 for v in [*loop_vars, *captured])
    results = [Variable.from_structs(parent, f"{base}.tmp_{k}", h._value, h._alt,
                                     not (trains and _dtypes.is_float(h._value.dtype))) for k, h in enumerate(holders)]
    prog.append_op(WhileOp(parent, list(loop_vars), captured, results, holders, (cb, c), (bb, outs), api))
    return results
