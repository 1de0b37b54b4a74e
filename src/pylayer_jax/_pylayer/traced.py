"""The traced PyLayer driver: ``apply`` on jax arrays or tracers is a JAX custom-derivative function.

Layer L5. The call's leaves split into dynamic arrays (the custom function's arguments;
floating ones are differentiable) and static Python values (closed over). forward's ctx
is flattened into residual arrays plus static data, so ``ctx.func = paddle.square``
survives ``jax.jit``. Two routes share ``_Run``:

- reverse only, ``jax.custom_vjp`` with symbolic zeros: backward sees None/zeros exactly as
  in eager mode (``set_materialize_grads``), and ``ctx.needs_input_grad`` says which inputs
  JAX actually differentiates;
- reverse and forward, ``jax.custom_jvp`` whose tangent rule is ``jax.linear_transpose`` of
  backward (JAX transposes it back for reverse mode). Used when backward is linear in its
  incoming gradients (checked once per signature by tracing) and grads are materialised,
  so ``jax.jvp``, ``jax.jacfwd`` and ``jax.hessian`` work.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._ops.table import Op, conj_complex
from .._runtime.exact_key import exact
from .._runtime.state import grad_mode, modes
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from .._tensor.saved_hooks import iter_slots
from .ctx import PyLayerContext
from .slots import backward_args, input_slots, output_slots, rebuild_output, split_grads

_SymbolicZero = jax.custom_derivatives.SymbolicZero
_float0 = jax.dtypes.float0
_ROUTES: dict[Any, tuple[bool, str]] = {}
_SKIP_CTX = ("_in_forward", "_not_inplace", "_non_diff")


def _inexact(dtype: Any) -> bool:
    return bool(jnp.issubdtype(dtype, jnp.inexact))


class _Aux:
    """Static facts one forward trace leaves for backward."""

    __slots__ = (
        "ctx_def",
        "ctx_static",
        "out_slots",
        "how",
        "template",
        "out_tensor",
        "out_avals",
        "non_diff",
        "materialize",
    )


class _Run:
    """One traced ``apply``: rebuilds the call from dynamic arrays and runs forward/backward."""

    def __init__(self, cls: type, args: Sequence[Any], kwargs: dict[str, Any]) -> None:
        self.cls = cls
        self.layer = f"PyLayer {cls.__name__}"
        self.keys = tuple(kwargs)
        self.leaves, self.tdef = jax.tree_util.tree_flatten((tuple(args), tuple(kwargs.values())))
        self.dyn_idx = [i for i, v in enumerate(self.leaves) if isinstance(v, jax.Array)]
        self.slots, flat = input_slots(args, kwargs)
        assert len(flat) == len(self.dyn_idx), (len(flat), len(self.dyn_idx))
        self.flat = flat
        self.dyn = [self.leaves[i] for i in self.dyn_idx]
        # outputs are Tensors when the caller passed Tensors, jax arrays when it passed only arrays
        self.tensor_io = any(isinstance(t, Tensor) for t in flat)
        self.aux: _Aux | None = None

    def key(self) -> Any:
        static = tuple(exact(v) for v in self.leaves if not isinstance(v, jax.Array))
        avals = tuple((jnp.shape(d), jnp.result_type(d)) for d in self.dyn)
        try:
            k = (self.cls, self.tdef, avals, static)
            hash(k)
            return k
        except TypeError:
            return None

    # ---- forward ----------------------------------------------------------------
    def forward(self, dyn: Sequence[Any], perturbed: Sequence[bool]) -> tuple[tuple, list[Any]]:
        vals = list(self.leaves)
        for i, v in zip(self.dyn_idx, dyn):
            vals[i] = v
        args, kw_vals = jax.tree_util.tree_unflatten(self.tdef, vals)
        kwargs = dict(zip(self.keys, kw_vals))
        ctx = PyLayerContext()
        nig, pos = [], 0
        for s in self.slots:
            nig.append(any(perturbed[pos : pos + s.n]))
            pos += s.n
        ctx.needs_input_grad = tuple(nig)
        ctx._in_forward = True
        modes.pylayer_forward_ctx.append(ctx)
        modes.pylayer_user += 1
        try:
            with grad_mode(False):
                out = self.cls.forward(ctx, *args, **kwargs)
        finally:
            modes.pylayer_user -= 1
            modes.pylayer_forward_ctx.pop()
            ctx._in_forward = False
        out_slots, out_flat, how = output_slots(out, self.layer)
        aux = _Aux()
        aux.out_slots, aux.how = out_slots, how
        aux.template = rebuild_output(out, out_slots, how, [None] * len(out_flat))
        aux.out_tensor = [isinstance(o, Tensor) for o in out_flat]
        outs = tuple(o._value if isinstance(o, Tensor) else o for o in out_flat)
        aux.out_avals = [(o.shape, o.dtype) for o in outs]
        nd = {id(t) for t in ctx._non_diff}
        aux.non_diff = frozenset(j for j, o in enumerate(out_flat) if id(o) in nd)
        aux.materialize = ctx._materialize
        for s in iter_slots(ctx._saved):
            s.ref, s.edge = None, None
        state = {k: v for k, v in ctx.__dict__.items() if k not in _SKIP_CTX}
        st_leaves, aux.ctx_def = jax.tree_util.tree_flatten(state)
        res = [v for v in st_leaves if isinstance(v, jax.Array)]
        aux.ctx_static = [_RES if isinstance(v, jax.Array) else v for v in st_leaves]
        self.aux = aux
        return outs, res

    def outputs(self, outs: Sequence[Any]) -> Any:
        aux = self.aux
        assert aux is not None
        new = [Tensor(o, j in aux.non_diff) if self.tensor_io else o for j, o in enumerate(outs)]
        return rebuild_output(aux.template, aux.out_slots, aux.how, new)

    # ---- backward ---------------------------------------------------------------
    def backward(self, res: Sequence[Any], cts: Sequence[Any], guard: bool = False) -> list[Any]:
        aux = self.aux
        assert aux is not None
        it = iter(res)
        st_leaves = [next(it) if v is _RES else v for v in aux.ctx_static]
        ctx = PyLayerContext()
        ctx.__dict__.update(jax.tree_util.tree_unflatten(aux.ctx_def, st_leaves))
        grads: list[Any] = []
        for j, c in enumerate(cts):
            shape, dtype = aux.out_avals[j]
            if c is None or isinstance(c, _SymbolicZero) or j in aux.non_diff or c.dtype == _float0:
                g = jnp.zeros(shape, dtype) if aux.materialize else None
            else:
                g = c if c.dtype == dtype else c.astype(dtype)
            grads.append(Tensor(g) if g is not None and aux.out_tensor[j] else g)
        args = backward_args(aux.out_slots, grads)
        bwd = self.cls.backward
        if bwd.__qualname__ == "PyLayer.backward":
            raise NotImplementedError(
                f"You must implement the backward function for PyLayer: {self.cls.__name__} has no backward "
                "staticmethod, and a gradient is needed through it."
            )
        modes.pylayer_user += 1
        try:
            with grad_mode(False):
                result = bwd(ctx, *args)
        except Exception as e:
            e.add_note(f"(raised inside {self.cls.__name__}.backward, the backward of a PyLayer, under a JAX trace)")
            raise
        finally:
            modes.pylayer_user -= 1
        values = split_grads(result, self.slots, None, self.layer)
        out: list[Any] = []
        for k, (g, d) in enumerate(zip(values, self.dyn)):
            dt = jnp.result_type(d)
            if g is None or not _inexact(dt):
                out.append(None)
                continue
            a = g._value if isinstance(g, Tensor) else jnp.asarray(g)
            if tuple(a.shape) != tuple(jnp.shape(d)):
                raise ValueError(
                    f"{self.layer}: backward returned a gradient of shape {list(a.shape)} for input Tensor {k}, "
                    f"whose shape is {list(jnp.shape(d))}. Return a gradient with the input's shape."
                )
            a = a if a.dtype == dt else a.astype(dt)
            out.append(_once_guard(self.layer)(a) if guard else a)
        return out


_RES = object()  # marks where a residual array goes back into the ctx pytree


def _once_guard(layer: str) -> Any:
    @jax.custom_jvp
    def guard(x: Any) -> Any:
        return x

    @guard.defjvp
    def _guard_jvp(primals: Any, tangents: Any) -> Any:
        raise RuntimeError(
            f"{layer}: its backward is decorated with @once_differentiable, so its gradients cannot be "
            "differentiated again (jax.grad of jax.grad, jax.hessian, ...). Remove the decorator and write "
            "backward with differentiable ops to get higher-order gradients."
        )

    return guard


# ---- the two routes ----------------------------------------------------------------
def _vjp_function(run: _Run, once: bool) -> Any:
    n = len(run.dyn)

    @jax.custom_vjp
    def f(*dyn: Any) -> Any:
        return run.forward(dyn, [_inexact(jnp.result_type(d)) for d in dyn])[0]

    def f_fwd(*primals: Any) -> Any:
        vals = [p.value for p in primals]
        return run.forward(vals, [bool(p.perturbed) for p in primals])

    def f_bwd(res: Any, cts: Any) -> Any:
        # the user's backward takes and returns Paddle's gradients: complex ones are the conjugates of JAX's
        # cotangents (``_ops.table.vjp_call``)
        cts = jax.tree_util.tree_map(lambda c: c if isinstance(c, _SymbolicZero) else conj_complex(c), cts,
                                     is_leaf=lambda c: isinstance(c, _SymbolicZero))
        g = run.backward(res, cts, guard=once)
        return tuple(conj_complex(g[k]) for k in range(n))

    f.defvjp(f_fwd, f_bwd, symbolic_zeros=True)
    return f


def _jvp_function(run: _Run) -> Any:
    @jax.custom_jvp
    def f(*dyn: Any) -> Any:
        return run.forward(dyn, [_inexact(jnp.result_type(d)) for d in dyn])[0]

    def f_jvp(primals: Any, tangents: Any) -> Any:
        perturbed = [
            not isinstance(t, _SymbolicZero) and _inexact(jnp.result_type(p)) for p, t in zip(primals, tangents)
        ]
        outs, res = run.forward(primals, perturbed)
        return outs, _tangents(run, primals, perturbed, tangents, outs, res)

    f.defjvp(f_jvp, symbolic_zeros=True)
    return f


def _tangents(
    run: _Run,
    primals: Sequence[Any],
    perturbed: Sequence[bool],
    tangents: Sequence[Any],
    outs: Sequence[Any],
    res: Sequence[Any],
) -> tuple:
    """Output tangents: the transpose of backward (a linear map from output grads to input grads)."""
    aux = run.aux
    assert aux is not None
    in_k = [k for k, p in enumerate(perturbed) if p]
    out_j = [j for j, o in enumerate(outs) if _inexact(o.dtype) and j not in aux.non_diff]
    sel: Sequence[Any] = ()
    if in_k and out_j:
        lin = _linear_backward(run, primals, in_k, out_j, len(outs), res)
        avals = [jax.ShapeDtypeStruct(outs[j].shape, outs[j].dtype) for j in out_j]
        sel = jax.linear_transpose(lin, *avals)(tuple(tangents[k] for k in in_k))
    result: list[Any] = []
    for j, o in enumerate(outs):
        if j in out_j:
            result.append(sel[out_j.index(j)] if in_k else jnp.zeros(o.shape, o.dtype))
        elif _inexact(o.dtype):
            result.append(jnp.zeros(o.shape, o.dtype))
        else:
            result.append(np.zeros(o.shape, _float0))
    return tuple(result)


def _linear_backward(
    run: _Run, primals: Sequence[Any], in_k: list[int], out_j: list[int], n_out: int, res: Sequence[Any]
) -> Any:
    def lin(*cts_sel: Any) -> tuple:  # (backward in JAX's convention: complex values conjugated in and out)
        cts: list[Any] = [None] * n_out
        for j, c in zip(out_j, cts_sel):
            cts[j] = conj_complex(c)
        grads = run.backward(res, cts)
        return tuple(
            conj_complex(grads[k]) if grads[k] is not None else jnp.zeros(jnp.shape(primals[k]),
                                                                           jnp.result_type(primals[k]))
            for k in in_k
        )

    return lin


def _probe_linear(run: _Run) -> tuple[bool, str]:
    """Whether backward is linear in its incoming gradients (so the JVP is its transpose)."""
    if getattr(run.cls.backward, "_once_differentiable", False):
        return False, "its backward is decorated with @once_differentiable"
    avals = [jax.ShapeDtypeStruct(jnp.shape(d), jnp.result_type(d)) for d in run.dyn]
    probe_run = _Run.__new__(_Run)
    probe_run.__dict__.update(run.__dict__)

    def probe(*dyn: Any) -> None:
        perturbed = [_inexact(jnp.result_type(d)) for d in dyn]
        outs, res = probe_run.forward(dyn, perturbed)
        if not probe_run.aux.materialize:  # type: ignore[union-attr]
            raise _NotLinear("it calls ctx.set_materialize_grads(False), so backward must see None, not zeros")
        tangents = [jnp.zeros(jnp.shape(d), jnp.result_type(d)) for d in dyn]
        _tangents(probe_run, dyn, perturbed, tangents, outs, res)

    try:
        jax.eval_shape(probe, *avals)
    except _NotLinear as e:
        return False, str(e)
    except Exception as e:  # noqa: BLE001 - any failure to transpose means: not usable for forward mode
        return False, f"transposing its backward failed with {type(e).__name__}: {(str(e).splitlines() or [''])[0][:200]}"
    return True, ""


class _NotLinear(Exception):
    pass


def _forward_mode(dyn: Sequence[Any]) -> bool:
    """Whether some input is being pushed forward by jax.jvp (visible outside jit only)."""
    stack = list(dyn)
    while stack:
        t = stack.pop()
        if type(t).__name__ == "JVPTracer":
            return True
        for attr in ("primal", "val"):
            v = getattr(t, attr, None)
            if isinstance(v, jax.core.Tracer):
                stack.append(v)
    return False


def traced_apply(cls: type, args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
    """``cls.apply`` on jax arrays / tracers / Tensors wrapping tracers."""
    run = _Run(cls, args, kwargs)
    key = run.key()
    route = _ROUTES.get(key) if key is not None else None
    if route is None:
        route = _probe_linear(run)
        if key is not None:
            _ROUTES[key] = route
    linear, why = route
    if linear:
        f = _jvp_function(run)
    else:
        if _forward_mode(run.dyn):
            raise TypeError(
                f"{run.layer}: forward-mode differentiation (jax.jvp, jax.jacfwd, jax.hessian) of a PyLayer uses the "
                f"transpose of its backward, which needs backward to be linear in its incoming gradients, but {why}. "
                "Use reverse mode (jax.grad, jax.jacrev) or make backward linear in its gradient arguments."
            )
        f = _vjp_function(run, bool(getattr(cls.backward, "_once_differentiable", False)))
    if modes.trace_tape and modes.grad_enabled and run.tensor_io:
        return _on_tape(run, f)
    outs = f(*run.dyn)
    return run.outputs(outs)


def _on_tape(run: _Run, f: Any) -> Any:
    """Inside a whole training step being traced (``jit.to_static``), the custom function is one op on the
    tape: its node's VJP is JAX's derivative of ``f``, which runs the user's backward (traced)."""
    ins = [t if isinstance(t, Tensor) else Tensor(t) for t in run.flat]
    if all(t.stop_gradient for t in ins):
        return run.outputs(f(*run.dyn))
    op = Op(run.layer, lambda tensors: tuple(f(*tensors)), ("tensors",), ("tensors",), None, (), False, False, True)
    outs = apply_op(op, (ins,))
    aux = run.aux
    assert aux is not None
    new = [Tensor(o._v) if j in aux.non_diff else o for j, o in enumerate(outs)]
    return rebuild_output(aux.template, aux.out_slots, aux.how, new)
