"""``static.gradients`` and ``static.append_backward``: a recorded ``grad`` operator.

Layer L6. The grad operator remembers the forward operators on a differentiable path
from its inputs to its targets. Lowered, it re-expresses that part of the program as a
function of the inputs and takes ``jax.vjp`` of it (XLA merges the recomputed forward
with the original one); a pylayer operator on the path contributes its backward_fn
through its ``jax.custom_vjp``. Inputs with no such path get no gradient (None).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp

from .._ops.table import conj_complex
from ._program import Operator
from ._pylayer import PylayerOp
from ._variable import Variable


def _as_list(x: Any, api: str, what: str) -> list[Any]:
    if isinstance(x, Variable):
        return [x]
    if isinstance(x, list | tuple):
        return list(x)
    raise TypeError(f"{api}: {what} must be a Variable or a list of Variables, but received {type(x).__name__}.")


def suffixed_name(block: Any, base: str, suffix: str) -> str:
    """A name for a new Variable of ``block`` derived from ``base``: ``base@SUFFIX``, numbered if taken."""
    name = f"{base}@{suffix}"
    k = 0
    while name in block.vars:
        k += 1
        name = f"{base}@{suffix}_{k}"
    return name


def _grad_name(block: Any, base: str) -> str:
    return suffixed_name(block, base, "GRAD")


class GradOp(Operator):
    """``(x@GRAD, ...) = grad(targets, inputs, target_gradients)``."""

    type = "grad"
    backward_part = True

    def __init__(
        self,
        block: Any,
        targets: list[Variable],
        wrt: list[Variable],
        target_grads: list[Variable | None],
        sub_ops: list[Operator],
        outputs: list[Variable],
    ) -> None:
        tg = [g for g in target_grads if g is not None]
        super().__init__(
            block,
            [*targets, *wrt, *tg],
            outputs,
            {"targets": [t.name for t in targets], "inputs": [v.name for v in wrt]},
        )
        self.targets = targets
        self.wrt = wrt
        self.target_grads = target_grads
        self.sub_ops = sub_ops

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        targets, wrt, sub_ops = self.targets, self.wrt, self.sub_ops

        produced, f = path_function(env, ctx, targets, wrt, sub_ops)
        primals = [jnp.zeros_like(env[id(v)]) if id(v) in produced else env[id(v)] for v in wrt]
        before = getattr(ctx, "recomputing", False)
        if ctx is not None:
            ctx.recomputing = True  # (a print operator re-run here prints the gradient, not the value again)
        try:
            outs, pullback = jax.vjp(f, *primals)
        finally:
            if ctx is not None:
                ctx.recomputing = before
        cts = [jnp.ones_like(o) if g is None else env[id(g)].astype(o.dtype) for o, g in zip(outs, self.target_grads)]
        # Paddle's gradients: complex ones are the conjugates of JAX's cotangents (``_ops.table.vjp_call``)
        for v, g in zip(self.outputs, pullback([conj_complex(c) for c in cts])):
            env[id(v)] = conj_complex(g)


def path_ops(block: Any, targets: list[Variable], inputs: list[Variable],
             no_grad: set[int]) -> tuple[list[Operator], set[int]]:
    """The operators of ``block`` on a differentiable path from ``inputs`` to ``targets`` (in program order), and
    the ids of the Variables on such a path."""
    ops = list(block.ops)
    skip = ("grad", "forward_grad", "init")
    # forward: which Variables carry a gradient from the inputs; as in Paddle, an input with stop_gradient=True
    # (a static.data left as declared, a Variable marked so) gets none, and such a Variable cuts the paths through it
    carry = {id(v) for v in inputs if not v.stop_gradient}
    for op in ops:
        if op.type in skip or getattr(op, "side_effect", False):
            continue
        if any(id(v) in carry for v in op.input_vars()):
            for v in op.outputs:
                if not v.stop_gradient and id(v) not in no_grad:
                    carry.add(id(v))
    # backward: which of those reach a target
    useful = {id(t) for t in targets if id(t) in carry}
    sub: list[Operator] = []
    for op in reversed(ops):
        if op.type in skip or getattr(op, "side_effect", False):
            continue
        if any(id(v) in useful for v in op.outputs):
            ins = [v for v in op.input_vars() if id(v) in carry]
            if ins:
                sub.append(op)
                useful.update(id(v) for v in ins)
    sub.reverse()
    return sub, useful


def path_function(env: dict[int, Any], ctx: Any, targets: list[Variable], wrt: list[Variable],
                  sub_ops: list[Operator]) -> tuple[set[int], Any]:
    """``(produced, f)``: the ids of the Variables ``sub_ops`` compute, and ``f(*xs)``, the ``targets`` as functions
    of the ``wrt`` Variables (the rest of ``env`` fixed) by running ``sub_ops`` again. An input the ops compute (an
    intermediate Variable) enters through a value added to its result: differentiate ``f`` at zero for it."""
    produced = {id(o) for op in sub_ops for o in op.outputs}

    def f(*xs: Any) -> list[Any]:
        e = dict(env)
        added = {}
        for v, x in zip(wrt, xs):
            if id(v) in produced:
                added[id(v)] = x
            else:
                e[id(v)] = x
        for op in sub_ops:
            op.run(e, ctx)
            for o in op.outputs:
                if id(o) in added:
                    e[id(o)] = e[id(o)] + added[id(o)]
        return [e[id(t)] for t in targets]

    return produced, f


def _differentiate(
    api: str, targets: list[Variable], inputs: list[Variable], target_grads: list[Any], no_grad: set[int]
) -> list[Variable | None]:
    for t in [*targets, *inputs]:
        if not isinstance(t, Variable):
            raise TypeError(
                f"{api}: targets and inputs must be Variables of a static program, but received {type(t).__name__}."
            )
    block = targets[0].block.program.global_block()
    sub, useful = path_ops(block, targets, inputs, no_grad)
    for op in sub:
        if isinstance(op, PylayerOp) and op.backward_fn is not None:
            op.build_backward()
    wrt = [v for v in inputs if id(v) in useful]
    if not wrt:
        return [None] * len(inputs)
    prog = block.program
    grads = {}
    outs = []
    for v in wrt:
        if id(v) not in grads:
            g = Variable(block, _grad_name(block, v.name), v.shape, v.dtype, stop_gradient=True, kind="grad")
            grads[id(v)] = g
            outs.append(g)
    uniq = list({id(v): v for v in wrt}.values())
    op = GradOp(block, targets, uniq, target_grads, sub, [grads[id(v)] for v in uniq])
    if any(getattr(o, "prints_gradient", False) for o in sub):
        op.always_run = True  # (a Print on the way prints the gradient at every run, fetched or not)
    prog.append_op(op)
    return [grads.get(id(v)) for v in inputs]


def _no_grad_ids(block: Any, no_grad_set: Any) -> set[int]:
    if no_grad_set is None:
        return set()
    out = set()
    for x in no_grad_set:
        v = block.program.find_var(x) if isinstance(x, str) else x
        if v is not None:
            out.add(id(v))
    return out


def gradients(
    targets: Any, inputs: Any, target_gradients: Any = None, no_grad_set: Any = None
) -> list[Variable | None]:
    """Record the gradients of ``targets`` with respect to ``inputs``; one Variable (``X@GRAD``) or None each (None
    for an input with stop_gradient=True, or with no path to the targets but through such Variables).

    Example::

        >>> x = paddle.static.data("X", [None, 5], "float32"); x.stop_gradient = False
        >>> y = paddle.exp(x)
        >>> (gx,) = paddle.static.gradients([y], x)   # gx.name == "X@GRAD"
    """
    api = "paddle.static.gradients"
    targets = _as_list(targets, api, "targets")
    inputs = _as_list(inputs, api, "inputs")
    if target_gradients is None:
        tg: list[Any] = [None] * len(targets)
    else:
        tg = _as_list(target_gradients, api, "target_gradients")
        if len(tg) != len(targets):
            raise ValueError(
                f"{api}: target_gradients must have one entry per target, but received {len(tg)} for "
                f"{len(targets)} targets."
            )
        for t, g in zip(targets, tg):
            if g is not None and g.shape != t.shape:
                raise ValueError(
                    f"{api}: the target gradient {g.name} must have the shape {t.shape} of target "
                    f"{t.name}, but has {g.shape}."
                )
    if not targets:
        raise ValueError(f"{api}: targets must not be empty.")
    return _differentiate(api, targets, inputs, tg, _no_grad_ids(targets[0].block, no_grad_set))


def append_backward(
    loss: Variable, parameter_list: Sequence[Any] | None = None, no_grad_set: Any = None, callbacks: Any = None
) -> list[tuple[Variable, Variable]]:
    """Record the gradient of ``loss`` for each parameter; returns ``[(param, param@GRAD)]`` for those with one."""
    api = "paddle.static.append_backward"
    if callbacks is not None:
        raise NotImplementedError(f"{api}: callbacks (functions run while the backward ops are built) are not "
                                  f"supported; received {callbacks!r}, pass None.")
    if not isinstance(loss, Variable):
        raise TypeError(f"{api}: loss must be a Variable of a static program, but received {type(loss).__name__}.")
    prog = loss.block.program
    if parameter_list is None:
        params: list[Variable] = [p for p in prog.all_parameters() if p.trainable]
    else:
        params = []
        for p in parameter_list:
            v = prog.find_var(p) if isinstance(p, str) else p
            if not isinstance(v, Variable):
                raise ValueError(f"{api}: parameter_list entry {p!r} is not a Variable of the loss's program.")
            params.append(v)
    # as Paddle, the backward also reaches the inputs that take a gradient (data with stop_gradient=False):
    # their X@GRAD can be fetched by name, and a Print on the way prints its gradient
    extra = [] if parameter_list is not None else [
        v for v in prog.global_block().vars.values() if v.kind == "data" and not v.stop_gradient]
    grads = _differentiate(api, [loss], params + extra, [None], _no_grad_ids(loss.block, no_grad_set))
    return [(p, g) for p, g in zip(params, grads[:len(params)]) if g is not None]
