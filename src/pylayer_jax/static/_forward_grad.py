"""A recorded forward-mode derivative (``paddle.incubate.autograd.forward_grad``), layer L6.

The operator remembers the forward operators on a differentiable path from its inputs to its targets; run, it
re-expresses that part of the program as a function of the inputs and takes ``jax.jvp`` of it at the inputs'
values with the given tangents (ones when none are given).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from ._backward import path_function, path_ops, suffixed_name
from ._program import Operator
from ._variable import Variable


def _dot_name(block: Any, base: str) -> str:
    return suffixed_name(block, base, "DOT")


class ForwardGradOp(Operator):
    """``(y@DOT, ...) = forward_grad(targets, inputs, input_tangents)``."""

    type = "forward_grad"
    backward_part = True

    def __init__(self, block: Any, targets: list[Variable], wrt: list[Variable], tangents: list[Variable | None],
                 sub_ops: list[Operator], outputs: list[Variable]) -> None:
        super().__init__(block, [*targets, *wrt, *[t for t in tangents if t is not None]], outputs,
                         {"targets": [t.name for t in targets], "inputs": [v.name for v in wrt]})
        self.targets, self.wrt, self.tangents, self.sub_ops = targets, wrt, tangents, sub_ops

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        targets, wrt, sub_ops = self.targets, self.wrt, self.sub_ops
        produced, f = path_function(env, ctx, targets, wrt, sub_ops)

        primals = [jnp.zeros_like(env[id(v)]) if id(v) in produced else env[id(v)] for v in wrt]
        tangents = [jnp.ones_like(p) if t is None else env[id(t)].astype(p.dtype)
                    for p, t in zip(primals, self.tangents)]
        before = getattr(ctx, "recomputing", False)
        if ctx is not None:
            ctx.recomputing = True  # (a print operator re-run here does not print the value again)
        try:
            _, dots = jax.jvp(f, tuple(primals), tuple(tangents))
        finally:
            if ctx is not None:
                ctx.recomputing = before
        for v, d in zip(self.outputs, dots):
            env[id(v)] = d


def forward_gradients(api: str, targets: list[Variable], inputs: list[Variable],
                      tangents: list[Variable | None]) -> list[Variable | None]:
    """Record the forward-mode derivatives of ``targets`` along ``tangents`` of ``inputs``: one Variable per target
    (None for a target that does not depend on the inputs)."""
    for t in [*targets, *inputs, *[g for g in tangents if g is not None]]:
        if not isinstance(t, Variable):
            raise TypeError(f"{api}: outputs, inputs and grad_inputs must be Variables of a static program, but "
                            f"received {type(t).__name__}.")
    for x, g in zip(inputs, tangents):
        if g is not None and list(g.shape) != list(x.shape):
            raise ValueError(f"{api}: each of grad_inputs must have its input's shape, but {g.name} has "
                             f"{list(g.shape)} for {x.name} of shape {list(x.shape)}.")
    block = targets[0].block.program.global_block()
    sub, useful = path_ops(block, targets, inputs, set())
    reached = [t for t in targets if id(t) in useful]
    if not reached:
        return [None] * len(targets)
    outs = {id(t): Variable(block, _dot_name(block, t.name), t.shape, t.dtype, stop_gradient=True, kind="grad")
            for t in reached}
    block.program.append_op(ForwardGradOp(block, reached, list(inputs), list(tangents), sub,
                                          [outs[id(t)] for t in reached]))
    return [outs.get(id(t)) for t in targets]
