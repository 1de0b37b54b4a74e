"""``optimizer.minimize(loss)`` in static mode: backward pass plus an update operator.

Layer L6. The update operator reads each parameter, its gradient and its optimizer
state (persistable Variables that the startup program fills) and writes the new
parameter and state back; the Executor donates their buffers and stores the results
in the scope after a successful run.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np

from ..optimizer._optimizer import STATIC_MINIMIZE, kernel_for
from ._backward import append_backward
from ._init import Constant
from ._program import InitOp, Operator, default_startup_program
from ._variable import Variable


class UpdateOp(Operator):
    """``(params, states) = <optimizer>(params, grads, states)``; run every time the program runs.

    It runs the optimizer's one jitted update of all parameters (clipping, decay, the rule), as
    ``step()`` does eagerly; the learning rate is the optimizer's current ``get_lr()``.
    """

    side_effect = True
    backward_part = True

    def __init__(
        self, block: Any, optimizer: Any, params: list[Variable], grads: list[Variable], states: list[list[Variable]],
        trees: list[Any],
    ) -> None:
        flat = [s for st in states for s in st]
        super().__init__(block, [*params, *grads, *flat], [*params, *flat], {"learning_rate": optimizer.get_lr()})
        self.type = type(optimizer).__name__.lower()
        self.optimizer = optimizer
        self.params, self.grads, self.states, self.trees = params, grads, states, trees
        self.kernel = kernel_for(type(optimizer), optimizer._specs(params), optimizer._clip_key())

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        lr = ctx.lr(self.optimizer)
        states = [jax.tree.unflatten(t, [env[id(s)] for s in st]) for t, st in zip(self.trees, self.states)]
        new_p, new_s = self.kernel([env[id(p)] for p in self.params], [env[id(g)] for g in self.grads], states, lr)
        for p, v in zip(self.params, new_p):
            env[id(p)] = v
        for st, ns in zip(self.states, new_s):
            for s, v in zip(st, jax.tree.leaves(ns)):
                env[id(s)] = v


def minimize(optimizer: Any, loss: Variable, startup_program: Any, parameters: Any, no_grad_set: Any) -> Any:
    params = parameters if parameters is not None else optimizer._parameter_list
    params_grads = append_backward(loss, params, no_grad_set)
    prog = loss.block.program
    block = prog.global_block()
    startup = startup_program if startup_program is not None else default_startup_program()
    specs = optimizer._specs([p for p, _ in params_grads])
    names = optimizer._state_names()
    states: list[list[Variable]] = []
    trees: list[Any] = []
    for (p, _), spec in zip(params_grads, specs):
        init = optimizer._init_state(spec, p.shape, p.dtype.np_dtype)
        leaves, tree = jax.tree.flatten(init)
        trees.append(tree)
        st = []
        for suffix, leaf in zip(names, leaves):
            name = optimizer._acc_key(p, suffix)
            shape, dtype = list(leaf.shape), np.dtype(leaf.dtype)
            fill = np.asarray(leaf).ravel()[0].item() if leaf.size else 0
            v = Variable(block, name, shape, dtype, stop_gradient=True, kind="state")
            v.persistable = True
            prog.add_var(v)
            sv = Variable(startup.global_block(), name, shape, dtype, stop_gradient=True, kind="state")
            sv.persistable = True
            startup.add_var(sv)
            startup.append_op(InitOp(startup.global_block(), sv, Constant(fill)))
            st.append(v)
        states.append(st)
    op = UpdateOp(block, optimizer, [p for p, _ in params_grads], [g for _, g in params_grads], states, trees)
    prog.append_op(op)
    return [op], params_grads


STATIC_MINIMIZE[:] = [minimize]
