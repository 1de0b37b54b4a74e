"""Lowering: a Program's operators -> one pure jax function.

Layer L6. ``lower`` keeps only the operators the fetches and the parameter updates
need, sorts what the function reads into feeds, persistable values that the program
updates (donated buffers) and persistable values it only reads, and returns a
``Lowered`` whose ``fn(state, read_only, feeds, lrs)`` returns ``(fetches, new_state)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._program import Operator, Program
from ._variable import Variable


class Context:
    """What operators may consult while they run inside the traced function."""

    def __init__(self, lrs: Sequence[Any], lr_index: dict[int, int]) -> None:
        self.lrs = lrs
        self.lr_index = lr_index
        self.recomputing = False  # True while a grad operator re-runs the forward ops inside its VJP

    def lr(self, optimizer: Any) -> Any:
        return self.lrs[self.lr_index[id(optimizer)]]


class Lowered:
    """A program cut down to what one fetch list needs, as a pure function."""

    def __init__(
        self,
        ops: list[Operator],
        feeds: list[Variable],
        state: list[Variable],
        read_only: list[Variable],
        fetches: list[Variable],
        optimizers: list[Any],
    ) -> None:
        self.ops = ops
        self.feeds = feeds
        self.state = state
        self.read_only = read_only
        self.fetches = fetches
        self.optimizers = optimizers
        self.lr_index = {id(o): i for i, o in enumerate(optimizers)}

    def __call__(
        self, state: Sequence[Any], read_only: Sequence[Any], feeds: Sequence[Any], lrs: Sequence[Any]
    ) -> tuple[list[Any], list[Any]]:
        env: dict[int, Any] = {}
        for group, vals in ((self.state, state), (self.read_only, read_only), (self.feeds, feeds)):
            for v, a in zip(group, vals):
                env[id(v)] = a
        run_ops(self.ops, env, Context(lrs, self.lr_index))
        return [env[id(v)] for v in self.fetches], [env[id(v)] for v in self.state]


def run_ops(ops: Sequence[Operator], env: dict[int, Any], ctx: Any) -> None:
    for op in ops:
        op.run(env, ctx)


def needed_ops(ops: Sequence[Operator], roots: Sequence[Variable]) -> list[Operator]:
    """The operators (in program order) that compute ``roots``, update persistable values or always run (print)."""
    want = {id(v) for v in roots}
    keep: list[Operator] = []
    for op in reversed(ops):
        if getattr(op, "side_effect", False) or getattr(op, "always_run", False) or any(
                id(v) in want for v in op.outputs):
            keep.append(op)
            for v in op.input_vars():
                want.add(id(v))
    keep.reverse()
    return keep


def lower(program: Program, fetches: list[Variable], fed: set[str]) -> Lowered:
    """Cut ``program`` down to ``fetches`` and its updates and sort its free Variables."""
    ops = needed_ops(program.global_block().ops, fetches)
    produced: set[int] = set()
    written: dict[int, Variable] = {}
    optimizers: list[Any] = []
    free: dict[int, Variable] = {}
    for op in ops:
        for v in op.input_vars():
            if id(v) not in produced:
                free.setdefault(id(v), v)
        for v in op.outputs:
            if v.persistable:
                written[id(v)] = v
            produced.add(id(v))
        opt = getattr(op, "optimizer", None)
        if opt is not None and all(o is not opt for o in optimizers):
            optimizers.append(opt)
    for v in fetches:
        if id(v) not in produced:
            free.setdefault(id(v), v)
    feeds: list[Variable] = []
    state: list[Variable] = []
    read_only: list[Variable] = []
    for v in free.values():
        if v.persistable:
            (state if id(v) in written else read_only).append(v)
        elif v.name in fed:
            feeds.append(v)
        elif v.kind == "data":
            raise ValueError(
                f"Executor.run: the program needs the input Variable {v.name!r} (shape {v.shape}, dtype "
                f"{v.dtype.name}) but feed has no entry for it; add feed={{{v.name!r}: array}}."
            )
        else:
            raise ValueError(
                f"Executor.run: the Variable {v.name!r} is neither fed nor computed by any operator of this program; "
                "it probably belongs to another program. Fetch Variables of the program you run."
            )
    for v in written.values():
        if id(v) not in free:
            state.append(v)
    return Lowered(ops, feeds, state, read_only, fetches, optimizers)
