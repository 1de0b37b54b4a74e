"""``optimizer.minimize(loss)`` in static mode: backward pass plus an update operator.

Layer L6. The update operator reads each parameter, its gradient and its optimizer
state (persistable Variables that the startup program fills) and writes the new
parameter and state back; the Executor donates their buffers and stores the results
in the scope after a successful run.
"""

from __future__ import annotations

from typing import Any

from ..optimizer._optimizer import STATIC_MINIMIZE
from ._backward import append_backward
from ._init import Constant
from ._program import InitOp, Operator, default_startup_program
from ._variable import Variable


class UpdateOp(Operator):
    """``(params, states) = <optimizer>(params, grads, states)``; run every time the program runs."""

    side_effect = True
    backward_part = True

    def __init__(
        self, block: Any, optimizer: Any, params: list[Variable], grads: list[Variable], states: list[list[Variable]]
    ) -> None:
        flat = [s for st in states for s in st]
        super().__init__(block, [*params, *grads, *flat], [*params, *flat], {"learning_rate": optimizer.get_lr()})
        self.type = type(optimizer).__name__.lower()
        self.optimizer = optimizer
        self.params, self.grads, self.states = params, grads, states

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        lr = ctx.lr(self.optimizer)
        for p, g, st in zip(self.params, self.grads, self.states):
            scale = p.optimize_attr.get("learning_rate", 1.0) if hasattr(p, "optimize_attr") else 1.0
            new_p, new_s = self.optimizer.update(env[id(p)], env[id(g)], tuple(env[id(s)] for s in st), lr * scale)
            env[id(p)] = new_p
            for s, v in zip(st, new_s):
                env[id(s)] = v


def minimize(optimizer: Any, loss: Variable, startup_program: Any, parameters: Any, no_grad_set: Any) -> Any:
    params = parameters if parameters is not None else optimizer._parameter_list
    params_grads = append_backward(loss, params, no_grad_set)
    prog = loss.block.program
    block = prog.global_block()
    startup = startup_program if startup_program is not None else default_startup_program()
    states: list[list[Variable]] = []
    for p, _ in params_grads:
        st = []
        for suffix, shape, dtype, fill in optimizer.state_spec(p.shape, p.dtype.np_dtype):
            name = f"{p.name}_{suffix}"
            v = Variable(block, name, shape, dtype, stop_gradient=True, kind="state")
            v.persistable = True
            prog.add_var(v)
            sv = Variable(startup.global_block(), name, shape, dtype, stop_gradient=True, kind="state")
            sv.persistable = True
            startup.add_var(sv)
            startup.append_op(InitOp(startup.global_block(), sv, Constant(fill)))
            st.append(v)
        states.append(st)
    op = UpdateOp(block, optimizer, [p for p, _ in params_grads], [g for _, g in params_grads], states)
    prog.append_op(op)
    return [op], params_grads


STATIC_MINIMIZE[:] = [minimize]
