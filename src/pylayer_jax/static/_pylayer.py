"""``static.nn.static_pylayer``: a custom-gradient region of a static program.

Layer L6. forward_fn is traced with ``jax.make_jaxpr`` into the forward block of a
``pylayer`` operator; backward_fn is traced into its backward block when
``gradients``/``append_backward`` first differentiate through it (that is also when a
wrong number, shape or dtype of gradients is reported). Lowered, the operator is a
``jax.custom_vjp`` function whose forward runs forward_fn and whose backward runs
backward_fn on the output gradients. A forward_fn or backward_fn that draws random numbers
(dropout, ``paddle.rand``) gets a key input derived from the program's per-run key (backward_fn
from a key folded off it), so each ``Executor.run`` draws anew and ``paddle.seed`` repeats a
run, as for the program's other random ops.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._ops.table import conj_complex
from .._runtime import dtypes as _dtypes
from .._runtime.rng import keys_from
from .._runtime.state import static_recording_paused
from .._tensor.facade import Tensor
from ._program import Operator, unique_name
from ._variable import Variable, merge_shape

_PLACEHOLDER_KEY = np.zeros(2, np.int64)


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _flat_outputs(out: Any, api: str) -> tuple[list[Any], Any]:
    """forward_fn's nested output -> (flat arrays, structure); None leaves are dropped by the flattening."""
    leaves, tree = jax.tree_util.tree_flatten(out, is_leaf=_is_tensor)
    arrays = []
    for x in leaves:
        if not isinstance(x, Tensor):
            raise TypeError(
                f"{api} must return a Variable, a tuple or list of Variables, or None, but it returned a "
                f"{type(x).__name__} inside its result."
            )
        arrays.append(x._value)
    return arrays, tree


def _display_jaxpr(fn: Callable[..., Any], args: Sequence[Any], shapes: Sequence[list[int]]) -> Any:
    """A jaxpr of ``fn`` with unknown dimensions shown as the symbol N (placeholder sizes if that fails)."""
    try:
        scope = jax.export.SymbolicScope()
        specs = [
            jax.ShapeDtypeStruct(
                jax.export.symbolic_shape(",".join("N" if d < 0 else str(d) for d in s) or "", scope=scope)
                if s
                else (),
                a.dtype,
            )
            for a, s in zip(args, shapes)
        ]
        return jax.make_jaxpr(fn)(*specs)
    except Exception:
        return jax.make_jaxpr(fn)(*args)


class PylayerOp(Operator):
    """``(outs) = pylayer(inputs)`` with a forward block and, once differentiated, a backward block."""

    type = "pylayer"

    def __init__(
        self,
        block: Any,
        forward_fn: Callable[..., Any],
        backward_fn: Callable[..., Any] | None,
        inputs: Sequence[Any],
        outputs: Sequence[Variable],
        out_tree: Any,
        fwd_block: Any,
        key_var: Variable | None = None,
    ) -> None:
        super().__init__(block, inputs, outputs, {"forward_block": fwd_block.idx})
        # the per-run key of a forward_fn or backward_fn that draws random numbers (None when neither draws)
        self.key_var: Variable | None = None
        if key_var is not None:
            self._set_key(key_var)
        self.forward_fn = forward_fn
        self.backward_fn = backward_fn
        self.out_tree = out_tree
        self.fwd_block = fwd_block
        self.bwd_block: Any = None
        self.backward_draws = 0  # random draws of backward_fn (counted when traced with a key)

    def _set_key(self, key_var: Variable) -> None:
        self.key_var = key_var
        self.attrs["rng_key"] = key_var.name

    def _add_key(self) -> None:
        """A per-run key for a backward_fn that draws when forward_fn does not: derived in the program as the
        other random ops' keys, by an op placed just before this one."""
        prog = self.block.program
        key_var = prog.random_key()
        make = key_var.producer
        make.block.ops.remove(make)
        make.block = self.block
        self.block.ops.insert(self.block.ops.index(self), make)
        self._set_key(key_var)

    def data_vars(self) -> list[Variable]:
        """The Variable inputs of forward_fn (those that get gradients)."""
        return [v for v in self.inputs if isinstance(v, Variable)]

    def input_vars(self) -> list[Variable]:
        """What the operator reads: forward_fn's Variables and the per-run key (lowering feeds both)."""
        return self.data_vars() + ([self.key_var] if self.key_var is not None else [])

    # ---- calling the user's functions on arrays ------------------------------------------
    def call_forward(self, arrays: Sequence[Any], key: Any = None) -> list[Any]:
        it = iter(arrays)
        args = [Tensor(next(it), x.stop_gradient) if isinstance(x, Variable) else x for x in self.inputs]
        with static_recording_paused(), keys_from(key):
            out, _ = _flat_outputs(self.forward_fn(*args), "static_pylayer: forward_fn")
        return out

    def call_backward(self, cts: Sequence[Any], key: Any = None) -> list[Any]:
        """backward_fn on output gradients -> one gradient (or None) per Variable input, checked. Its random
        draws derive from ``key`` (the op's per-run key; from the global generator where None)."""
        fn = self.backward_fn
        assert fn is not None
        try:
            inspect.signature(fn).bind(*cts)
        except TypeError:
            raise TypeError(
                f"static_pylayer: backward_fn must take one gradient per output of forward_fn ({len(cts)}), but its "
                f"signature is {fn.__name__}{inspect.signature(fn)}."
            ) from None
        except ValueError:  # builtins without a signature: let the call decide
            pass
        with static_recording_paused(), keys_from(None if key is None else _backward_key(key)) as k:
            res = fn(*[Tensor(c) for c in cts])
            self.backward_draws = max(self.backward_draws, k.count)
        grads = list(res) if isinstance(res, list | tuple) else [res]
        n_in = len(self.data_vars())
        if len(grads) != n_in:
            raise ValueError(
                f"static_pylayer: backward_fn must return one gradient per Variable input of forward_fn. The number "
                f"of input grads should be equal to the number of inputs, but got {len(grads)} and {n_in}."
            )
        out = []
        for g, v in zip(grads, self.data_vars()):
            if g is not None and not isinstance(g, Tensor):
                raise TypeError(
                    f"static_pylayer: backward_fn must return Variables (or None), but the gradient for input "
                    f"{v.name} is a {type(g).__name__}."
                )
            out.append(None if g is None else g._value)
        return out

    # ---- backward block (built when differentiated) ---------------------------------------
    def build_backward(self) -> None:
        """Trace backward_fn into the backward block, checking the gradients against the inputs."""
        if self.bwd_block is not None:
            return
        ins = self.data_vars()
        ct_a = [v._value for v in self.outputs]
        ct_b = [v._alt for v in self.outputs]
        # traced with a placeholder key, which counts the random draws (the real key comes per run)
        ga = jax.eval_shape(lambda *c: self.call_backward(c, _PLACEHOLDER_KEY), *ct_a)
        gb = jax.eval_shape(lambda *c: self.call_backward(c, _PLACEHOLDER_KEY), *ct_b)
        for v, a, b in zip(ins, ga, gb):
            if a is None:
                continue
            shape = merge_shape(a.shape, b.shape)
            if shape != v.shape or a.dtype != v.dtype.np_dtype:
                raise ValueError(
                    f"static_pylayer: backward_fn's gradient for input {v.name} must have the input's shape "
                    f"{v.shape} and dtype {v.dtype.name}, but it has shape {shape} and dtype "
                    f"{_dtypes.to_paddle(a.dtype).name}."
                )
        if self.backward_draws and self.key_var is None:
            self._add_key()
        prog = self.block.program
        self.bwd_block = prog.new_block(
            f"backward of {self.outputs[0].name if self.outputs else 'pylayer'}", self.block.idx
        )
        self.bwd_block.body = _display_jaxpr(lambda *c: self.call_backward(c, _PLACEHOLDER_KEY), ct_a,
                                             [v.shape for v in self.outputs])
        self.attrs["backward_block"] = self.bwd_block.idx

    # ---- lowering -------------------------------------------------------------------------
    def run(self, env: dict[int, Any], ctx: Any) -> None:
        xs = [env[id(v)] for v in self.data_vars()]
        key = None if self.key_var is None else env[id(self.key_var)]
        if self.backward_fn is None:
            outs = [jax.lax.stop_gradient(o) for o in self.call_forward(xs, key)]
        else:
            outs = self._custom_vjp()(key, *xs)
        for v, o in zip(self.outputs, outs):
            env[id(v)] = o

    def _custom_vjp(self) -> Callable[..., Any]:
        op = self
        avals: list[Any] = []

        # the key (None, or an int64 [2]) is an argument like the inputs, so that no traced value is closed over
        @jax.custom_vjp
        def f(key: Any, *xs: Any) -> tuple[Any, ...]:
            return tuple(op.call_forward(xs, key))

        def fwd(key: Any, *xs: Any) -> tuple[tuple[Any, ...], Any]:
            avals[:] = [(jnp.shape(x), jnp.result_type(x)) for x in xs]
            return tuple(op.call_forward(xs, key)), key

        def bwd(key: Any, cts: tuple[Any, ...]) -> tuple[Any, ...]:
            # backward_fn takes and returns Paddle's gradients: complex ones are JAX's conjugated (``vjp_call``)
            grads = [conj_complex(g) for g in op.call_backward(tuple(conj_complex(c) for c in cts), key)]
            res: list[Any] = [None if op.key_var is None else np.zeros((2,), jax.dtypes.float0)]
            for g, (shape, dt) in zip(grads, avals):
                if not jnp.issubdtype(dt, jnp.inexact):
                    res.append(np.zeros(shape, jax.dtypes.float0))
                elif g is None:
                    res.append(jnp.zeros(shape, dt))
                else:
                    res.append(g.astype(dt))
            return tuple(res)

        f.defvjp(fwd, bwd)
        return f


def _backward_key(key: Any) -> Any:
    """backward_fn's key, folded off the op's per-run key (forward_fn's draws use ``fold_in(key, i)``, i >= 1)."""
    return jax.random.fold_in(jnp.asarray(key).astype(jnp.uint32), 0).astype(jnp.int64)


def record_pylayer(
    forward_fn: Callable[..., Any], inputs: Sequence[Any], backward_fn: Callable[..., Any] | None, name: str | None
) -> Any:
    """The static path of static_pylayer: trace forward_fn and append a pylayer operator."""
    var_inputs = [x for x in inputs if isinstance(x, Variable)]
    if not var_inputs:
        raise ValueError("static_pylayer: inputs must contain at least one Variable of the program being built.")
    if backward_fn is None:
        bad = [v.name for v in var_inputs if not v.stop_gradient]
        if bad:
            raise ValueError(
                "static_pylayer: ``stop_gradient`` attr of all inputs to ``forward_fn`` are expected to be True, when "
                f"``backward_fn == None``, but {', '.join(bad)} has stop_gradient=False. Pass a backward_fn, or set "
                "stop_gradient = True on those inputs."
            )
    prog = var_inputs[0].block.program
    block = prog.global_block()
    draws = [0]  # random draws of forward_fn (traced with a placeholder key: the real one comes per run)

    def fwd(*xs: Any) -> Any:
        it = iter(xs)
        args = [Tensor(next(it), x.stop_gradient) if isinstance(x, Variable) else x for x in inputs]
        with static_recording_paused(), keys_from(_PLACEHOLDER_KEY) as k:
            out, _ = _flat_outputs(forward_fn(*args), "static_pylayer: forward_fn")
            draws[0] = max(draws[0], k.count)
        return out

    try:
        out_a = jax.eval_shape(fwd, *[v._value for v in var_inputs])
        out_b = jax.eval_shape(fwd, *[v._alt for v in var_inputs])
    except (TypeError, ValueError) as e:
        if "static_pylayer" in str(e):
            raise
        raise ValueError(
            f"static_pylayer: forward_fn failed on the inputs "
            f"{', '.join(f'{v.name}{v.shape}' for v in var_inputs)}: {e}"
        ) from e
    # the output structure (a second, cheap trace with the wrapped outputs kept)
    tree_box: list[Any] = []

    def fwd_tree(*xs: Any) -> Any:
        it = iter(xs)
        args = [Tensor(next(it), x.stop_gradient) if isinstance(x, Variable) else x for x in inputs]
        with static_recording_paused(), keys_from(_PLACEHOLDER_KEY):
            arrays, tree = _flat_outputs(forward_fn(*args), "static_pylayer: forward_fn")
        tree_box.append(tree)
        return arrays

    jaxpr = _display_jaxpr(fwd_tree, [v._value for v in var_inputs], [v.shape for v in var_inputs])
    tree = tree_box[-1]
    base = name or unique_name("pylayer")
    stop = backward_fn is None or all(v.stop_gradient for v in var_inputs)
    outs = [
        Variable.from_structs(block, f"{base}.tmp_{j}", a, b, stop or not _dtypes.is_float(a.dtype))
        for j, (a, b) in enumerate(zip(out_a, out_b))
    ]
    fb = prog.new_block(f"forward of {base}", block.idx)
    fb.body = jaxpr
    key_var = prog.random_key() if draws[0] else None  # derived in the program from the run's key
    op = PylayerOp(block, forward_fn, backward_fn, list(inputs), outs, tree, fb, key_var)
    prog.append_op(op)
    return jax.tree_util.tree_unflatten(tree, outs)
