"""Program, Block and Operator: what static-mode code records.

Layer L6. While a program is being built, ``_state.modes.static_program`` holds a
Program; ``apply_op`` hands every op applied to a Variable to ``Program.record_op``,
which infers the output shapes with ``jax.eval_shape`` (at two placeholder sizes, so
unknown dimensions show as -1) and appends a ``TableOp``. Other operators (pylayer,
grad, optimizer updates, initializers) subclass ``Operator``; each knows how to
``run`` itself on jax arrays during lowering and how to render itself for ``print``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._ops.table import TABLE, Op
from .._runtime import dtypes as _dtypes
from .._runtime import unique_name as _unique_name
from .._runtime.exact_key import FALSE, plain
from .._runtime.state import modes
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from ._variable import Parameter, Variable


def unique_name(prefix: str) -> str:
    """``prefix_0``, ``prefix_1``, ... (process-wide, like Paddle's unique_name)."""
    return _unique_name.generate(prefix)


def call_table_op(op: Op, key: tuple, vals: Sequence[Any]) -> Any:
    """Run a table op on arrays or tracers under the default dtype it was recorded with."""
    treedef, attr_args, attr_kwargs, default_dtype = key
    prev = _dtypes._default.name
    _dtypes._default.name = default_dtype
    try:
        return op.call(treedef, attr_args, attr_kwargs, vals)
    finally:
        _dtypes._default.name = prev


def _fmt(x: Any) -> str:
    if isinstance(x, Variable):
        return x.name
    if isinstance(x, Tensor):
        return f"const{list(x._value.shape)}"
    if isinstance(x, jax.Array | np.ndarray):
        return f"const{list(x.shape)}"
    return repr(x)


class Operator:
    """One recorded operation: input Variables (or constants), output Variables, attributes."""

    type = "op"

    def __init__(self, block: Block, inputs: Sequence[Any], outputs: Sequence[Variable], attrs: dict[str, Any]) -> None:
        self.block = block
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.attrs = attrs
        for v in self.outputs:
            if v.producer is None:
                v.producer = self

    def input_vars(self) -> list[Variable]:
        return [v for v in self.inputs if isinstance(v, Variable)]

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        """Compute the outputs from ``env`` (id(Variable) -> array) and store them there."""
        raise NotImplementedError

    def render(self) -> list[str]:
        outs = ", ".join(v.describe() for v in self.outputs)
        ins = ", ".join(_fmt(x) for x in self.inputs)
        attrs = ", ".join(f"{k}={v!r}" for k, v in self.attrs.items())
        return [f"({outs}) = {self.type}({ins})" + (f" {{{attrs}}}" if attrs else "")]


class TableOp(Operator):
    """A call of a table op on Variables."""

    def __init__(self, block: Block, op: Op, key: tuple, leaves: Sequence[Any], outputs: Sequence[Variable]) -> None:
        attrs = dict(zip(list(op.signature.parameters)[op.n_tensors :], plain(key[1])))
        attrs.update(dict(plain(key[2])))
        super().__init__(block, leaves, outputs, attrs)
        self.type = op.name
        self.op = op
        self.key = key

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        vals = [env[id(x)] if isinstance(x, Variable) else x for x in self.inputs]
        outs = jax.tree_util.tree_leaves(call_table_op(self.op, self.key, vals))
        for v, o in zip(self.outputs, outs):
            env[id(v)] = o


class InitOp(Operator):
    """Startup: give a persistable Variable its first value with an initializer."""

    type = "init"

    def __init__(self, block: Block, var: Variable, initializer: Any) -> None:
        super().__init__(block, [], [var], {"initializer": initializer})
        self.initializer = initializer


class WriteOp(Operator):
    """``target = value`` for a persistable Variable (a layer's running statistics): the new value is written
    back to the scope after every run of the program. Only a training program runs it: ``clone(for_test=True)``
    drops it, as Paddle's test programs leave batch-norm statistics alone."""

    type = "assign_to"
    side_effect = True
    train_only = True

    def __init__(self, block: Block, target: Variable, value: Any) -> None:
        super().__init__(block, [value], [target], {})
        self.target = target

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        v = self.inputs[0]
        val = env[id(v)] if isinstance(v, Variable) else v
        env[id(self.target)] = jnp.asarray(val).astype(self.target.dtype.np_dtype)


class InplaceOp(WriteOp):
    """``target = value`` for an in-place op on a Variable (``y[i] = v``, ``y.add_(z)``, ``paddle.assign(x,
    output=y)``): the ops recorded after it read the new value. Part of the forward computation, so test clones
    keep it and gradients flow through it (unless ``detach``: ``write_values``); a persistable target keeps the
    value in the scope after each run."""

    type = "assign_inplace"
    train_only = False

    def __init__(self, block: Block, target: Variable, value: Any, detach: bool) -> None:
        super().__init__(block, target, value)
        self.detach = detach
        self.side_effect = bool(target.persistable)  # (else it runs when what reads the target is needed)

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        super().run(env, ctx)
        if self.detach:
            env[id(self.target)] = jax.lax.stop_gradient(env[id(self.target)])


class Block:
    """A list of operators and the Variables they define."""

    def __init__(self, program: Program, idx: int, parent_idx: int = -1, title: str = "") -> None:
        self.program = program
        self.idx = idx
        self.parent_idx = parent_idx
        self.title = title
        self.ops: list[Operator] = []
        self.vars: dict[str, Variable] = {}
        self.body: Any = None  # a jaxpr rendering for pylayer sub-blocks

    def var(self, name: str) -> Variable:
        if name not in self.vars:
            raise ValueError(f"Block.var: block {self.idx} has no variable named {name!r}.")
        return self.vars[name]

    def all_parameters(self) -> list[Parameter]:
        return [v for v in self.vars.values() if isinstance(v, Parameter)]

    def has_var(self, name: str) -> bool:
        return name in self.vars

    def create_var(self, name: str | None = None, shape: Sequence[int] | None = None, dtype: Any = None,
                   persistable: bool = False, stop_gradient: bool = False, lod_level: int = 0,
                   type: Any = None) -> Variable:  # noqa: A002  (Paddle's keyword)
        """A new Variable of this block (Paddle's ``Block.create_var``): the output of ``py_func``, or a value
        that ops or ``Variable.set_value`` write. ``shape`` uses -1 (or None) for unknown dimensions."""
        api = "Block.create_var"
        if shape is None or not isinstance(shape, list | tuple):
            raise ValueError(f"{api}: shape must be a list of dimensions (-1 or None for unknown ones), but received "
                             f"{shape!r}.")
        if lod_level != 0:
            raise NotImplementedError(f"{api}: lod_level={lod_level!r}: LoD tensors do not exist here; use 0.")
        if type is not None and "DENSE_TENSOR" not in str(type) and "LOD_TENSOR" not in str(type):
            raise NotImplementedError(f"{api}: only dense tensor Variables can be created, but type is {type!r}.")
        v = Variable(self, name or unique_name("_generated_var"), [-1 if d is None else int(d) for d in shape],
                     _dtypes.to_paddle(dtype if dtype is not None else _dtypes.get_default_dtype()),
                     stop_gradient=stop_gradient, kind="state" if persistable else "tmp")
        v.persistable = bool(persistable)
        self.vars[v.name] = v
        self.program.version += 1
        return v

    def render(self) -> list[str]:
        head = (
            f"block {self.idx}"
            + (f" ({self.title})" if self.title else "")
            + (f", parent block {self.parent_idx}" if self.parent_idx >= 0 else "")
        )
        lines = [head + " {"]
        for v in self.vars.values():
            if v.kind in ("data", "param", "state"):
                extra = "persistable" if v.persistable else f"stop_gradient={v.stop_gradient}"
                lines.append(f"    var {v.describe()} ({v.kind}, {extra})")
        for op in self.ops:
            lines.extend("    " + s for s in op.render())
        if self.body is not None:
            lines.extend("    " + s for s in str(self.body).splitlines())
        lines.append("}")
        return lines


# ``() -> (name scope, device)`` of the op recorded now, registered by ``_framework`` (name_scope, device_guard)
_LABELS: list[Any] = []

RNG_KEY = "@rng_key"  # the per-run key input of a program with random ops (fed by the Executor)


class Program:
    """A static program: blocks of recorded operators (``paddle.static.Program``)."""

    def __init__(self) -> None:
        self.blocks: list[Block] = [Block(self, 0, -1, "global")]
        self.version = 0
        self.random_seed = 0
        self._exe_cache: dict[Any, Any] = {}
        self._recording: list[Block] = []  # sub-blocks being recorded into (a cond's branches), innermost last
        self._random_ops = 0  # random ops recorded so far: each gets its own key from the run's key

    # ---- structure ---------------------------------------------------------------
    def global_block(self) -> Block:
        return self.blocks[0]

    def block(self, idx: int) -> Block:
        return self.blocks[idx]

    def current_block(self) -> Block:
        """The block ops are recorded into: a cond branch's block while it is traced, else the global block."""
        return self._recording[-1] if self._recording else self.blocks[0]

    @contextlib.contextmanager
    def recording_into(self, block: Block) -> Iterator[Block]:
        """Record ops into ``block`` (a control-flow sub-block) inside the ``with``."""
        self._recording.append(block)
        try:
            yield block
        finally:
            self._recording.pop()

    @property
    def num_blocks(self) -> int:
        return len(self.blocks)

    def new_block(self, title: str, parent_idx: int = 0) -> Block:
        b = Block(self, len(self.blocks), parent_idx, title)
        self.blocks.append(b)
        self.version += 1
        return b

    def list_vars(self) -> Iterator[Variable]:
        for b in self.blocks:
            yield from b.vars.values()

    def all_parameters(self) -> list[Parameter]:
        return self.global_block().all_parameters()

    def find_var(self, name: str) -> Variable | None:
        for b in self.blocks:
            if name in b.vars:
                return b.vars[name]
        return None

    def add_var(self, var: Variable) -> Variable:
        self.global_block().vars[var.name] = var
        self.version += 1
        return var

    def append_op(self, op: Operator) -> Operator:
        if _LABELS:  # (name_scope / device_guard: labels only)
            scope, device = _LABELS[0]()
            if scope != "/":
                op.attrs = {**op.attrs, "op_namescope": scope}
            if device:
                op.attrs = {**op.attrs, "op_device": device}
        op.block.ops.append(op)
        for v in op.outputs:
            op.block.vars.setdefault(v.name, v)
        self.version += 1
        return op

    def clone(self, for_test: bool = False) -> Program:
        """A copy sharing the Variables; ``for_test=True`` keeps only the forward part (no grad/update ops)."""
        p = Program()
        p.blocks = []
        for b in self.blocks:
            nb = Block(p, b.idx, b.parent_idx, b.title)
            nb.vars = dict(b.vars)
            nb.body = b.body
            if for_test:
                nb.ops = [_for_test(op) for op in b.ops
                          if not (getattr(op, "backward_part", False) or getattr(op, "train_only", False))]
            else:
                nb.ops = list(b.ops)
            p.blocks.append(nb)
        p.random_seed = self.random_seed
        p._random_ops = self._random_ops
        return p

    def random_key(self) -> Any:
        """The key of a random op recorded into this program: derived inside the program from the key the
        Executor feeds at every run (``RNG_KEY``, from the global generator), so each run draws anew and
        ``paddle.seed`` makes runs repeat, while the compiled program is reused."""
        v = self.global_block().vars.get(RNG_KEY)
        if v is None:
            v = self.add_var(Variable(self.global_block(), RNG_KEY, [2], _dtypes.to_paddle("int64"),
                                      stop_gradient=True, kind="data"))
        self._random_ops += 1
        return apply_op(TABLE["rng_fold_in"], (v,), {"index": self._random_ops})

    # ---- recording -----------------------------------------------------------------
    def record_write(self, target: Variable, value: Any) -> None:
        """Record ``target = value`` (``Variable.set_value`` with a Variable): a persistable target keeps the new
        value in the scope after each run."""
        if list(np.shape(value._value) if isinstance(value, Variable) else np.shape(value)) != list(
                target._value.shape):
            raise ValueError(
                f"Variable.set_value: the value must have the shape {target.shape} of {target.name}, but it has "
                f"{value.shape if isinstance(value, Variable) else list(np.shape(value))}."
            )
        block = self.current_block()
        self.append_op(WriteOp(block, target, value))

    def record_inplace(self, target: Variable, value: Any, api: str, detach: bool) -> Variable:
        """Record an in-place write into ``target`` (see ``InplaceOp``); returns ``target``."""
        shape = list(value.shape) if isinstance(value, Tensor) else list(np.shape(value))
        if isinstance(value, Variable):
            shape = value.shape
        if shape != target.shape:
            raise ValueError(f"{api}: the value written into the Variable {target.name} must have its shape "
                             f"{target.shape}, but it has {shape}.")
        if not isinstance(value, Variable):
            value = value._value if isinstance(value, Tensor) else jnp.asarray(value)
        self.append_op(InplaceOp(self.current_block(), target, value, detach))
        if not detach and isinstance(value, Variable) and not value.stop_gradient:
            target.stop_gradient = False
        return target

    def record_op(self, op: Op, key: tuple, leaves: list[Any]) -> Any:
        """Record a table op applied to Variables; returns the output Variables (apply_op's hook)."""
        first = next((x for x in leaves if isinstance(x, Variable)), None)
        return (self if first is None else first.block.program)._record(op, key, leaves)

    def _record(self, op: Op, key: tuple, leaves: list[Any]) -> Any:
        inputs: list[Any] = []
        dyn: list[int] = []
        for i, x in enumerate(leaves):
            if isinstance(x, Variable):
                dyn.append(i)
                inputs.append(x)
            elif isinstance(x, Tensor):
                inputs.append(x._value)
            elif isinstance(x, np.ndarray):
                inputs.append(jnp.asarray(x))
            else:
                inputs.append(x)

        def f(*d: Any) -> Any:
            vals = list(inputs)
            for i, a in zip(dyn, d):
                vals[i] = a
            return call_table_op(op, key, vals)

        try:
            out_a = jax.eval_shape(f, *[leaves[i]._value for i in dyn])
            out_b = jax.eval_shape(f, *[leaves[i]._alt for i in dyn])
        except Exception as e:
            shapes = ", ".join(f"{leaves[i].name}{leaves[i].shape}" for i in dyn)
            raise ValueError(
                f"static program: the op {op.name} cannot be applied to the Variables {shapes}: {e}"
            ) from e
        la, tree = jax.tree_util.tree_flatten(out_a)
        lb = jax.tree_util.tree_leaves(out_b)
        params = _leaf_params(op, key[0], len(leaves))
        needs = any(not leaves[i].stop_gradient and op.tensor_names[params[i]] not in op.nondiff for i in dyn)
        stop = not (op.differentiable and needs)
        block = self.current_block()
        n = unique_name(op.name)
        outs = []
        for j, (a, b) in enumerate(zip(la, lb)):
            v = Variable.from_structs(block, f"{n}.tmp_{j}", a, b, stop or not _dtypes.is_float(a.dtype))
            outs.append(v)
        self.append_op(TableOp(block, op, key, inputs, outs))
        return jax.tree_util.tree_unflatten(tree, outs)

    # ---- display -------------------------------------------------------------------
    def __str__(self) -> str:
        lines = [f"Program(num_blocks={self.num_blocks}, version={self.version}) {{"]
        for b in self.blocks:
            lines.extend("    " + s for s in b.render())
        lines.append("}")
        return "\n".join(lines)

    def to_string(self, throw_on_error: bool = True, with_details: bool = False) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"<Program num_blocks={self.num_blocks} ops={len(self.global_block().ops)} version={self.version}>"


def _for_test(op: Operator) -> Operator:
    """The op as a test program runs it: a table op with a ``training`` attribute (dropout, batch norm) gets
    ``training=False``, as Paddle's ``clone(for_test=True)`` sets ``is_test``."""
    if not isinstance(op, TableOp):
        return op
    treedef, attr_args, attr_kwargs, dt = op.key
    names = list(op.op.signature.parameters)[op.op.n_tensors:]
    if plain(dict(attr_kwargs).get("training")) is True:
        attr_kwargs = tuple((k, FALSE if k == "training" else v) for k, v in attr_kwargs)
    elif "training" in names[:len(attr_args)] and plain(attr_args[names.index("training")]) is True:
        attr_args = tuple(FALSE if i == names.index("training") else a for i, a in enumerate(attr_args))
    else:
        return op
    new = TableOp.__new__(TableOp)
    new.__dict__.update(op.__dict__)
    new.key = (treedef, attr_args, attr_kwargs, dt)
    new.attrs = dict(op.attrs, training=False)
    return new


def _leaf_params(op: Op, treedef: Any, n: int) -> list[int]:
    """The tensor parameter index of each flat leaf."""
    if treedef is None:
        return list(range(n))
    nested = jax.tree_util.tree_unflatten(treedef, list(range(n)))
    out = [0] * n
    for p, sub in enumerate(nested):
        for leaf in jax.tree_util.tree_leaves(sub):
            out[leaf] = p
    return out


# ---- the current programs --------------------------------------------------------------
class _Programs:
    def __init__(self) -> None:
        self.main = Program()
        self.startup = Program()
        self.stack: list[tuple[Program, Program]] = []


_programs = _Programs()


def default_main_program() -> Program:
    """The program ops are recorded into (the innermost ``program_guard``'s main program)."""
    return _programs.stack[-1][0] if _programs.stack else _programs.main


def default_startup_program() -> Program:
    """The program that initializes parameters (the innermost ``program_guard``'s startup program)."""
    return _programs.stack[-1][1] if _programs.stack else _programs.startup


@contextlib.contextmanager
def program_guard(main_program: Program, startup_program: Program | None = None) -> Iterator[None]:
    """Record into ``main_program`` (and put initializers into ``startup_program``) inside the block."""
    for what, p in (("main_program", main_program), ("startup_program", startup_program)):
        if p is not None and not isinstance(p, Program):
            raise TypeError(f"program_guard: {what} must be a paddle.static.Program, but received {type(p).__name__}.")
    startup = startup_program if startup_program is not None else default_startup_program()
    _programs.stack.append((main_program, startup))
    prev = modes.static_program
    modes.static_program = main_program
    try:
        yield
    finally:
        _programs.stack.pop()
        modes.static_program = prev


def data(name: str, shape: Sequence[int | None], dtype: Any = None, lod_level: int = 0) -> Variable:
    """Declare an input of the main program; ``None`` or -1 marks a dimension known only when fed."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"paddle.static.data: name must be a non-empty str, but received {name!r}.")
    if not isinstance(shape, list | tuple):
        raise TypeError(f"paddle.static.data: shape must be a list or tuple, but received {type(shape).__name__}.")
    dims = []
    for d in shape:
        if d is None:
            dims.append(-1)
        elif isinstance(d, int | np.integer) and not isinstance(d, bool) and d >= -1:
            dims.append(int(d))
        else:
            raise TypeError(
                f"paddle.static.data: every dimension of {name!r} must be an int >= 0, -1 or None, but shape is "
                f"{list(shape)}."
            )
    prog = default_main_program()
    dt = _dtypes.to_paddle(dtype if dtype is not None else _dtypes.get_default_dtype())
    v = Variable(prog.global_block(), name, dims, dt, stop_gradient=True, kind="data")
    return prog.add_var(v)  # type: ignore[return-value]
