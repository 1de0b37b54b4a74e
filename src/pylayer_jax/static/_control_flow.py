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


# ---- case / switch_case --------------------------------------------------------------------------------
def _check_pairs(pred_fn_pairs: Any, default: Any, api: str) -> tuple[list[tuple[Any, Any]], Any]:
    if not isinstance(pred_fn_pairs, list | tuple):
        raise TypeError(f"{api}: pred_fn_pairs must be a list or tuple of (pred, fn) pairs, but received "
                        f"{type(pred_fn_pairs).__name__}.")
    pairs = []
    for pf in pred_fn_pairs:
        if not isinstance(pf, tuple):
            raise TypeError(f"{api}: every element of pred_fn_pairs must be a tuple (pred, fn), but received "
                            f"{type(pf).__name__}.")
        if len(pf) != 2:
            raise TypeError(f"{api}: every element of pred_fn_pairs must be a 2-tuple (pred, fn), but received a "
                            f"{len(pf)}-tuple.")
        pred, fn = pf
        if not callable(fn):
            raise TypeError(f"{api}: the fn of each (pred, fn) pair must be callable, but received "
                            f"{type(fn).__name__}.")
        _check_pred(pred, api)
        pairs.append((pred, fn))
    if not pairs:
        raise ValueError(f"{api}: pred_fn_pairs must not be empty.")
    if default is None:  # as Paddle: the last pair's fn is the default, its pred is not looked at
        default = pairs[-1][1]
        pairs = pairs[:-1]
    elif not callable(default):
        raise TypeError(f"{api}: default must be callable (or None), but received {type(default).__name__}.")
    return pairs, default


def case(pred_fn_pairs: Sequence[tuple[Any, Callable[[], Any]]], default: Callable[[], Any] | None = None,
         name: str | None = None) -> Any:
    """Run the fn of the first pair whose pred is true, else ``default()``; with ``default=None`` the last
    pair's fn is the default (its pred is not consulted), as in Paddle.

    Eagerly only the chosen fn runs; under a JAX trace or in a static program every fn is traced and
    the choice is one ``lax.switch`` (each fn must then return the same structure, shapes and dtypes).

    Example::

        >>> import pylayer_jax as paddle
        >>> x = paddle.to_tensor([0.3])
        >>> paddle.static.nn.case([(x < 0.1, lambda: x * 0), (x < 0.5, lambda: x * 2)], lambda: x)  # [0.6]
        ... # doctest: +SKIP
    """
    api = "paddle.static.nn.case"
    pairs, default = _check_pairs(pred_fn_pairs, default, api)
    preds = [p for p, _ in pairs]
    fns = [f for _, f in pairs] + [default]
    if any(p._symbolic for p in preds):
        return _record_switch(api, "case", preds, [], fns)
    if any(_is_traced(p) for p in preds):
        return _traced_switch(api, _case_index([p._value for p in preds]), fns)
    for p, f in pairs:
        if bool(p.item()):
            return f()
    return default()


def _check_branches(branch_fns: Any, default: Any, api: str) -> tuple[list[int], list[Any], Any]:
    if isinstance(branch_fns, dict):
        items = list(branch_fns.items())
    elif isinstance(branch_fns, list | tuple):
        items = list(branch_fns)
        if all(callable(f) for f in items):
            items = list(enumerate(items))
    else:
        raise TypeError(f"{api}: branch_fns must be a dict {{index: fn}}, a list of (index, fn) tuples or a list of "
                        f"fns, but received {type(branch_fns).__name__}.")
    keys: list[int] = []
    for kv in items:
        if not isinstance(kv, tuple):
            raise TypeError(f"{api}: every element of branch_fns must be a tuple (index, fn), but received "
                            f"{type(kv).__name__}.")
        if len(kv) != 2:
            raise TypeError(f"{api}: every element of branch_fns must be a 2-tuple (index, fn), but received a "
                            f"{len(kv)}-tuple.")
        k, f = kv
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError(f"{api}: every key of branch_fns must be an int, but received {type(k).__name__}.")
        if k in keys:
            raise ValueError(f"{api}: the keys of branch_fns must be unique, but {k} appears more than once.")
        if not callable(f):
            raise TypeError(f"{api}: the fn for key {k} must be callable, but received {type(f).__name__}.")
        keys.append(k)
    if not items:
        raise ValueError(f"{api}: branch_fns must not be empty.")
    items.sort(key=lambda kv: kv[0])
    if default is None:  # as Paddle: the fn of the largest key is the default
        default = items[-1][1]
        items = items[:-1]
    elif not callable(default):
        raise TypeError(f"{api}: default must be callable (or None), but received {type(default).__name__}.")
    return [k for k, _ in items], [f for _, f in items], default


def switch_case(branch_index: Any, branch_fns: Any, default: Callable[[], Any] | None = None,
                name: str | None = None) -> Any:
    """Run the fn whose key equals ``branch_index`` (an int Tensor with one element), else ``default()``.

    ``branch_fns``: a dict ``{key: fn}``, a list of ``(key, fn)`` tuples, or a list of fns (keys 0, 1, ...).
    With ``default=None`` the fn of the largest key is the default, as in Paddle. Eagerly only the chosen
    fn runs; traced or in a static program the choice is one ``lax.switch`` over every fn.

    Example::

        >>> import pylayer_jax as paddle
        >>> i = paddle.to_tensor([1])
        >>> paddle.static.nn.switch_case(i, {0: lambda: paddle.zeros([1]), 1: lambda: paddle.ones([1])})
        ... # doctest: +SKIP
    """
    api = "paddle.static.nn.switch_case"
    if not isinstance(branch_index, Tensor):
        raise TypeError(f"{api}: branch_index must be an int Tensor with one element, but received "
                        f"{type(branch_index).__name__}.")
    if branch_index.dtype.name not in ("int32", "int64", "uint8", "int8", "int16"):
        raise TypeError(f"{api}: branch_index must have an integer dtype (int32 or int64), but it is "
                        f"{branch_index.dtype.name}.")
    if int(np.prod(branch_index.shape)) != 1:
        raise ValueError(f"{api}: branch_index must have exactly one element, but its shape is "
                         f"{list(branch_index.shape)}.")
    keys, fns, default = _check_branches(branch_fns, default, api)
    if branch_index._symbolic:
        return _record_switch(api, "switch", [branch_index], keys, [*fns, default])
    if _is_traced(branch_index):
        return _traced_switch(api, _switch_index(branch_index._value, keys), [*fns, default])
    i = int(branch_index.item())
    return (fns[keys.index(i)] if i in keys else default)()


def _case_index(preds: Sequence[Any]) -> Any:
    """The branch ``lax.switch`` runs for ``case``: the first true pred's, else the default (the last)."""
    idx = jnp.asarray(len(preds), jnp.int32)
    for i in reversed(range(len(preds))):
        idx = jnp.where(jnp.reshape(preds[i], ()).astype(bool), i, idx)
    return idx


def _switch_index(index: Any, keys: Sequence[int]) -> Any:
    """The branch for ``switch_case``: the position of the key equal to ``index``, else the default (the last)."""
    v = jnp.reshape(index, ()).astype(jnp.int64)
    idx = jnp.asarray(len(keys), jnp.int32)
    for i, k in enumerate(keys):
        idx = jnp.where(v == k, i, idx)
    return idx


def _check_same(api: str, trees: Sequence[Any], shapes: Sequence[Sequence[tuple[list[int], Any]]]) -> None:
    """Every branch returns the structure, shapes and dtypes of the first."""
    for j in range(1, len(trees)):
        if trees[j] != trees[0]:
            raise ValueError(f"{api}: every branch must return the same structure, but branch 0 returns "
                             f"{trees[0]} and branch {j} returns {trees[j]}.")
        for i, (a, b) in enumerate(zip(shapes[0], shapes[j])):
            if a[0] != b[0] or np.dtype(a[1]) != np.dtype(b[1]):
                raise ValueError(
                    f"{api}: output {i} of branch 0 ({_dtypes.to_paddle(a[1]).name}{a[0]}) and of branch {j} "
                    f"({_dtypes.to_paddle(b[1]).name}{b[0]}) must have the same shape and dtype."
                )


def _traced_switch(api: str, index: Any, fns: Sequence[Any]) -> Any:
    trees: dict[int, Any] = {}

    def branch(j: int) -> Callable[[Any], list[Any]]:
        def run(_: Any) -> list[Any]:
            leaves, trees[j] = _flat(fns[j]())
            return [_as_array(x, api, "each fn") for x in leaves]
        return run

    structs = [jax.eval_shape(branch(j), None) for j in range(len(fns))]
    _check_same(api, [trees[j] for j in range(len(fns))],
                [[(list(s.shape), s.dtype) for s in st] for st in structs])
    outs = jax.lax.switch(index, [branch(j) for j in range(len(fns))], None)
    if trees[0] == _NONE:
        return None
    return jax.tree_util.tree_unflatten(trees[0], [Tensor(o) for o in outs])


class SwitchOp(Operator):
    """``(outs) = case(preds..., captured...)`` or ``switch_case(index, captured...)`` with one block per branch
    (the default last), lowered to one ``lax.switch``."""

    def __init__(self, block: Any, mode: str, selectors: Sequence[Variable], keys: Sequence[int],
                 captured: Sequence[Variable], outputs: Sequence[Variable],
                 branches: Sequence[tuple[Any, list[Any]]]) -> None:
        attrs = {"branch_blocks": [b.idx for b, _ in branches]}
        if mode == "switch":
            attrs["keys"] = list(keys)
        super().__init__(block, [*selectors, *captured], outputs, attrs)
        self.type = "case" if mode == "case" else "switch_case"
        self.mode, self.selectors, self.keys, self.branches = mode, list(selectors), list(keys), list(branches)

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        def branch(sub_block: Any, outs: list[Any]) -> Callable[[Any], list[Any]]:
            def f(_: Any) -> list[Any]:
                local = dict(env)
                run_ops(sub_block.ops, local, ctx)
                return [jnp.asarray(local[id(o)] if isinstance(o, Variable) else o) for o in outs]
            return f

        sel = [env[id(s)] if isinstance(s, Variable) else s._value for s in self.selectors]
        idx = _case_index(sel) if self.mode == "case" else _switch_index(sel[0], self.keys)
        res = jax.lax.switch(idx, [branch(*b) for b in self.branches], None)
        for v, r in zip(self.outputs, res):
            env[id(v)] = r


def _record_switch(api: str, mode: str, selectors: Sequence[Tensor], keys: Sequence[int],
                   fns: Sequence[Any]) -> Any:
    prog = next(s for s in selectors if s._symbolic).block.program
    base = unique_name(mode if mode == "case" else "switch_case")
    recorded = []
    for j, fn in enumerate(fns):
        title = f"{'default' if j == len(fns) - 1 else f'branch {j}'} of {base}"
        recorded.append(_record_branch(prog, fn, title, api))
    trees = [t for _, t, _ in recorded]
    shapes = [[(merge_shape(*(s.shape for s in _struct(o))), _struct(o)[0].dtype) for o in outs]
              for _, _, outs in recorded]
    if any(t == _NONE for t in trees) and not all(t == _NONE for t in trees):
        raise ValueError(f"{api}: either every branch returns None or none does, but branches "
                         f"{[j for j, t in enumerate(trees) if t == _NONE]} return None and the others do not.")
    _check_same(api, trees, shapes)
    if trees[0] == _NONE:
        return None
    block = prog.current_block()
    outs = []
    for i, (_shape, dtype) in enumerate(shapes[0]):
        a1, a2 = _struct(recorded[0][2][i])
        stop = all(not isinstance(r[2][i], Variable) or r[2][i].stop_gradient for r in recorded)
        outs.append(Variable.from_structs(block, f"{base}.tmp_{i}", a1, a2, stop or not _dtypes.is_float(dtype)))
    captured = _captured([b for b, _, _ in recorded], [o for _, _, os in recorded for o in os])
    sel_vars = [s for s in selectors if isinstance(s, Variable)]
    captured = [v for v in captured if all(v is not s for s in sel_vars)]
    prog.append_op(SwitchOp(block, mode, selectors, keys, captured, outs, [(b, os) for b, _, os in recorded]))
    return jax.tree_util.tree_unflatten(trees[0], outs)
