"""The one op table.

Layer L1. Each op is a function on jax arrays with Paddle's parameter names, plus the
metadata dispatch needs: which leading parameters take tensors, which of them (and
whether the output) the backward needs saved, an optional explicit VJP rule, and which
inputs never get gradients. The same entry serves eager dispatch (cached ``jax.jit``
kernels), JAX tracing (the function called inline) and static recording.

Why kernels are cached jitted functions: an eager ``jax.vjp`` costs milliseconds, a
cached ``jax.jit`` call about ten microseconds.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._runtime.exact_key import plain
from .._runtime.kernel_cache import MAX_SHAPES, SHAPED, KernelCache
from .checks import default_checks

OUT = "out"


class NumberInput:
    """In a kernel key, an attribute named in the op's ``numbers`` whose value is the call's input ``leaf``: a
    Python float passed to the kernel as a traced (weakly typed) input, so one kernel serves every value."""

    __slots__ = ("leaf",)

    def __init__(self, leaf: int) -> None:
        self.leaf = leaf

    def __eq__(self, other: object) -> bool:
        return type(other) is NumberInput and other.leaf == self.leaf

    def __hash__(self) -> int:
        return hash((NumberInput, self.leaf))

    def __repr__(self) -> str:
        return f"<number input {self.leaf}>"


def tensor_leaves(n: int, attr_args: tuple, attr_kwargs: tuple) -> int:
    """How many of a call's ``n`` input leaves are its tensors' (the rest are its number inputs, ``NumberInput``)."""
    for v in (*attr_args, *(v for _, v in attr_kwargs)):
        if type(v) is NumberInput:
            n = min(n, v.leaf)
    return n


def spliced(leaves: Sequence[Any], attr_args: tuple, attr_kwargs: dict[str, Any]) -> tuple[Sequence[Any], tuple, dict]:
    """The tensor leaves, attributes and keyword attributes of a call whose ``NumberInput`` attributes take their
    values from the trailing ``leaves`` (unchanged where it has none)."""
    args = tuple([leaves[v.leaf] if type(v) is NumberInput else v for v in attr_args])
    kwargs = {k: leaves[v.leaf] if type(v) is NumberInput else v for k, v in attr_kwargs.items()}
    return leaves[:tensor_leaves(len(leaves), attr_args, tuple(attr_kwargs.items()))], args, kwargs


class Op:
    """One table entry. ``fn(*tensor_params, *attrs, **attrs)`` works on jax arrays."""

    __slots__ = (
        "name", "fn", "tensor_names", "saves", "vjp", "nondiff", "method", "inplace",
        "differentiable", "signature", "doc", "_fwd", "_bwd", "_grad_op", "save_mask", "saves_out", "n_in", "checks", "check_always",
        "_params", "hidden", "out_saves", "rows", "axes", "numbers", "number_at", "numbers_if", "derived", "aliases", "out_checks", "__weakref__",
    )

    def __init__(
        self,
        name: str,
        fn: Callable[..., Any],
        tensor_names: tuple[str, ...],
        saves: tuple[str, ...],
        vjp: Callable[..., Any] | None,
        nondiff: tuple[str, ...],
        method: bool,
        inplace: bool,
        differentiable: bool,
        checks: Callable[..., Any] | None = None,
        hidden: int = 0,
        rows: Any = None,
        axes: Any = None,
    ) -> None:
        self.name = name
        # how the leading (batch) axis of the inputs flows to the outputs (``_ops.rows``): None (not known: a step
        # with this op on a batch is never padded), ``rows.MAP``, or a rule of the call's arguments
        self.rows = rows
        # how an axis other than the leading one whose size changes (a sequence length) flows: None (not known),
        # ``rows.POINTWISE``, or a rule of the call's arguments and that axis (``_ops.rows``)
        self.axes = axes
        # attribute parameters whose Python float values the kernel takes as traced inputs (``defop``'s ``numbers``)
        self.numbers: frozenset[str] = frozenset()
        self.number_at: dict[int, str] = {}  # the same, by position in the signature
        # ``numbers_if(dtype, name, value) -> bool``: whether a number that would go to the kernel as an input may
        # (else it stays in the key); None: always (``defop``'s ``numbers_if``)
        self.numbers_if: Callable[[Any, str, float], bool] | None = None
        # attribute parameters passed as number inputs beside the others, their values computed in Python from the
        # call's arguments, whenever one of ``numbers`` is an input (``defop``'s ``derived``)
        self.derived: dict[str, Callable[[dict[str, Any], Any], float]] = {}
        # PyTorch-style keyword aliases Paddle accepts (``_ops.aliases``): (api name, {alias: parameter}, the
        # exception type for a call giving both, or None where the alias silently wins); None: no aliases
        self.aliases: tuple[str, dict[str, str], type[Exception] | None] | None = None
        # ``checks(name, args) -> list[ValueCheck]``: validates the call's arguments (``args`` maps parameter
        # names to the Tensors and attributes given, defaults filled in) before anything is recorded, raising
        # on a bad shape or attribute, and returns the checks on input values (index ranges, divisors)
        self.checks = checks
        # ``out_checks(args) -> OutCheck | None``: the rule on the results of an eager call with the arguments
        # ``args`` (by parameter name; the tensors as arrays), such as a matrix found singular (``defop``'s)
        self.out_checks: Callable[[dict[str, Any]], Any] | None = None
        self.check_always = checks is not None and not getattr(checks, "attrs_only", False)
        self.fn = fn
        self.tensor_names = tensor_names
        self.n_in = len(tensor_names)  # (read on every dispatch)
        self.saves = saves
        self.vjp = vjp
        self.nondiff = frozenset(nondiff)
        self.method = method
        self.inplace = inplace
        self.differentiable = differentiable
        self.save_mask = tuple(n in saves for n in tensor_names)  # per tensor parameter: saved for backward
        # outputs saved for backward: "out" saves every output; "out0", "out1", ... one output each (out_saves
        # lists their indices in the order ``saves`` names them, the order hooks pack them; None when every
        # output or none is saved)
        indexed = tuple(int(n[3:]) for n in saves if n.startswith(OUT) and n[3:].isdigit())
        self.out_saves = indexed if indexed and OUT not in saves else None
        self.saves_out = OUT in saves or bool(indexed)
        # trailing outputs of fn that only feed the backward (a kernel's intermediates, such as layer_norm's mean
        # and variance): the public function and method leave them out (see ``visible``)
        self.hidden = hidden
        self.signature = inspect.signature(fn)
        plain = all(p.kind is p.POSITIONAL_OR_KEYWORD for p in self.signature.parameters.values())
        # (name, default) per parameter, for a quick ``bind`` (None where a parameter kind needs inspect's)
        self._params = tuple((p.name, p.default) for p in self.signature.parameters.values()) if plain else None
        self.doc = fn.__doc__
        self._fwd = KernelCache()  # bounded: see _runtime.kernel_cache
        self._bwd = KernelCache(SHAPED, shaped=True)  # keyed by input avals too
        self._grad_op: Op | None = None

    def __repr__(self) -> str:
        return f"<op {self.name}>"

    def visible(self, out: Any) -> Any:
        """The outputs a caller sees: ``out`` without the op's hidden trailing outputs."""
        if not self.hidden:
            return out
        n = len(out) - self.hidden
        return out[0] if n == 1 else tuple(out[:n])

    def bind(self, args: Sequence[Any], kwargs: tuple) -> dict[str, Any]:
        """The call's arguments by parameter name, defaults filled in (``inspect``'s bind, quicker: the
        checks run on every call); a TypeError for arguments that do not fit the parameters."""
        params = self._params
        if params is not None and len(args) <= len(params):
            out = {name: a for (name, _), a in zip(params, args)}
            ok = True
            for k, v in kwargs:
                if k in out:
                    ok = False
                    break
                out[k] = v
            if ok and len(out) <= len(params):
                for name, default in params[len(args):]:
                    if name not in out:
                        if default is inspect.Parameter.empty:
                            ok = False
                            break
                        out[name] = default
                if ok and len(out) == len(params):
                    return out
        bound = self.signature.bind(*args, **dict(kwargs))  # raises the TypeError that names the problem
        bound.apply_defaults()
        return dict(bound.arguments)

    @property
    def n_tensors(self) -> int:
        return len(self.tensor_names)

    # ---- forward -------------------------------------------------------------
    def call(self, treedef: Any, attr_args: tuple, attr_kwargs: tuple, leaves: Sequence[Any]) -> Any:
        """Run the op on jax arrays (or tracers): the traced path, no cache. The attributes are a key's
        (``exact_key``: their wrappers come off here)."""
        args, kwargs = plain(attr_args), dict(plain(attr_kwargs))
        if self.numbers:
            leaves, args, kwargs = spliced(leaves, args, kwargs)
        targs = jax.tree_util.tree_unflatten(treedef, leaves) if treedef is not None else leaves
        return self.fn(*targs, *args, **kwargs)

    def _call_flat(self, treedef: Any, attr_args: tuple, attr_kwargs: tuple, *leaves: Any) -> Any:
        # positional leaves: jit's C++ fast path dispatches them quicker than one tuple argument
        return self.call(treedef, attr_args, attr_kwargs, leaves)

    def forward_kernel(self, key: tuple) -> Callable[..., Any]:
        """The cached jitted forward for one (treedef, attrs) key."""
        k = self._fwd.get(key)
        if k is not None and k._cache_size() <= MAX_SHAPES:  # the hot path: no LRU bookkeeping
            return k
        treedef, attr_args, attr_kwargs, _ = key
        return self._fwd.kernel(key, lambda: jax.jit(functools.partial(self._call_flat, treedef, attr_args, attr_kwargs)))

    # ---- backward ------------------------------------------------------------
    def backward_kernel(self, key: tuple, avals: tuple, needs: tuple) -> Callable[..., Any]:
        """Cached jitted ``(leaves, outs, cts) -> grads`` for a forward key.

        ``leaves`` holds the saved input arrays (None where not saved: rebuilt inside as
        zeros of ``avals``, which is exact because the op's VJP does not read them);
        ``outs`` the saved outputs (or None); ``cts`` one cotangent per output leaf or None.
        """
        bkey = (key, avals, needs)
        return self._bwd.kernel(bkey, lambda: jax.jit(functools.partial(vjp_call, self, key, avals, needs)))

    @property
    def grad_op(self) -> Op:
        """The backward as an op of its own, so create_graph can record and differentiate it."""
        if self._grad_op is None:
            base = self

            def grad_fn(leaves, outs, cts, key, avals, needs):  # noqa: ANN001, ANN202
                return vjp_call(base, key, avals, needs, leaves, outs, cts)

            self._grad_op = Op(
                f"{self.name}_grad", grad_fn, ("leaves", "outs", "cts"), ("leaves", "outs", "cts"),
                None, (), False, False, True,
            )
        return self._grad_op


def _zeros_for(aval: Any) -> Any:
    shape, dtype = aval
    return jnp.zeros(shape, dtype)


def vjp_call(op: Op, key: tuple, avals: tuple, needs: tuple, leaves: Sequence[Any], outs: Any, cts: Sequence[Any]) -> list[Any]:
    """Gradients for the tensor leaves of one op call (None where not needed).

    The tape carries Paddle's gradients: for a complex tensor, the conjugate of JAX's cotangent (Paddle, as PyTorch,
    gives ``dL/dRe + i dL/dIm``, the direction of steepest ascent, so ``x - lr * x.grad`` descends; JAX's cotangent is
    its conjugate). The op's VJP is JAX's: complex cotangents are conjugated on the way in and complex gradients on
    the way out (real ones are left as they are)."""
    cts = [conj_complex(c) for c in cts]
    return [conj_complex(g) for g in _vjp_call(op, key, avals, needs, leaves, outs, cts)]


def conj_complex(x: Any) -> Any:
    """``x`` conjugated if it is a complex array (the change between JAX's cotangents and Paddle's gradients)."""
    return jnp.conj(x) if x is not None and hasattr(x, "dtype") and jnp.issubdtype(x.dtype, jnp.complexfloating) else x


def _vjp_call(op: Op, key: tuple, avals: tuple, needs: tuple, leaves: Sequence[Any], outs: Any,
              cts: Sequence[Any]) -> list[Any]:
    """``vjp_call`` in JAX's convention."""
    treedef, attr_args, attr_kwargs, _ = key
    full = [_zeros_for(a) if v is None and a is not None else v for v, a in zip(leaves, avals)]
    if outs is not None and op.out_saves is not None:  # the rule sees only the outputs ``saves`` names
        outs = [o if j in op.out_saves else None for j, o in enumerate(outs)]
    if op.vjp is not None:
        return _explicit_vjp(op, treedef, attr_args, attr_kwargs, full, outs, cts, needs)
    idx = [i for i, n in enumerate(needs) if n]

    def f(*diff):
        vals = list(full)
        for i, d in zip(idx, diff):
            vals[i] = d
        return op.call(treedef, attr_args, attr_kwargs, vals)

    out, pullback = jax.vjp(f, *[full[i] for i in idx])
    out_leaves, out_tree = jax.tree_util.tree_flatten(out)
    ct_leaves = [_ct_for(o, c) for o, c in zip(out_leaves, cts)]
    grads = pullback(jax.tree_util.tree_unflatten(out_tree, ct_leaves))
    res: list[Any] = [None] * len(full)
    for i, g in zip(idx, grads):
        res[i] = _fix_grad(g, full[i])
    return res


def _ct_for(out: Any, ct: Any) -> Any:
    if not jnp.issubdtype(out.dtype, jnp.inexact):
        return np.zeros(out.shape, jax.dtypes.float0)
    if ct is None:
        return jnp.zeros(out.shape, out.dtype)
    return ct.astype(out.dtype)


def _fix_grad(g: Any, primal: Any) -> Any:
    dt = jnp.result_type(primal)
    if g.dtype == jax.dtypes.float0:
        return jnp.zeros(jnp.shape(primal), dt)
    return g.astype(dt) if g.dtype != dt else g


def _explicit_vjp(op, treedef, attr_args, attr_kwargs, full, outs, cts, needs):  # noqa: ANN001, ANN202
    """Call an op's hand-written rule with the saved values by parameter name."""
    args, kwargs = plain(attr_args), dict(plain(attr_kwargs))
    n_all = len(full)
    if op.numbers:  # (the number inputs, after the tensors: saved as they are, no gradient)
        full, args, kwargs = spliced(full, args, kwargs)
    targs = jax.tree_util.tree_unflatten(treedef, full) if treedef is not None else full
    saved = {n: v for n, v in zip(op.tensor_names, targs) if n in op.saves}
    out_leaves = outs if outs is not None else []
    if OUT in op.saves:
        saved[OUT] = out_leaves[0] if len(out_leaves) == 1 else tuple(out_leaves)
    elif op.out_saves is not None:
        saved.update((f"{OUT}{j}", out_leaves[j]) for j in op.out_saves)
    cts_m = [c if c is not None or outs is None or outs[i] is None else jnp.zeros_like(outs[i])
             for i, c in enumerate(cts)]
    ct = cts_m[0] if len(cts_m) == 1 else tuple(cts_m)
    grads = op.vjp(saved, ct, *args, **kwargs)
    if not isinstance(grads, (tuple, list)):
        grads = (grads,)
    if len(grads) == len(targs):  # one entry per tensor parameter: None for one given but without a gradient
        gleaves: list[Any] = []
        for t, g in zip(targs, grads):
            n = len(jax.tree_util.tree_leaves(t))
            gleaves.extend([None] * n if g is None else jax.tree_util.tree_leaves(g))
    else:
        gleaves = jax.tree_util.tree_leaves(list(grads))
    out = [_fix_grad(_unbroadcast(g, p), p) if n and g is not None else None for g, p, n in zip(gleaves, full, needs)]
    return out + [None] * (n_all - len(out))


def _unbroadcast(g: Any, primal: Any) -> Any:
    """A rule's gradient of the broadcast shape summed back to the input's shape (trace-time check)."""
    shape = jnp.shape(primal)
    if jnp.shape(g) == shape or g.dtype == jax.dtypes.float0:
        return g
    lead = g.ndim - len(shape)
    g = jnp.sum(g, axis=tuple(range(lead))) if lead > 0 else g
    keep = tuple(i for i, (a, b) in enumerate(zip(g.shape, shape)) if b == 1 and a != 1)
    return jnp.sum(g, axis=keep, keepdims=True) if keep else g


TABLE: dict[str, Op] = {}


def defop(
    tensors: int | Sequence[str] = 1,
    *,
    saves: Sequence[str] = (),
    vjp: Callable[..., Any] | None = None,
    nondiff: Sequence[str] = (),
    name: str | None = None,
    method: bool = True,
    inplace: bool = False,
    differentiable: bool = True,
    checks: Callable[..., Any] | None = None,
    hidden: int = 0,
    rows: Any = None,
    axes: Any = None,
    numbers: Sequence[str] = (),
    numbers_if: Callable[[Any, str, float], bool] | None = None,
    derived: dict[str, Callable[[dict[str, Any], Any], float]] | None = None,
    out_checks: Callable[[dict[str, Any]], Any] | None = None,
) -> Callable[[Callable[..., Any]], Op]:
    """Register ``fn`` as an op.

    ``tensors``: how many leading parameters take tensors (or their names). Each may be
    given a Tensor, a list of Tensors, a Python scalar or None.
    ``saves``: names of tensor parameters, and/or ``"out"`` (every output) or ``"out0"``,
    ``"out1"``, ... (one output each), that backward needs; these are what saved-tensor
    hooks pack, so they mirror what Paddle's kernel saves. Hooks pack the saved inputs first (in
    parameter order), then the saved outputs in the order ``saves`` names them. The default VJP is ``jax.vjp`` of ``fn`` with the
    non-saved inputs replaced by zeros, so list exactly what the derivative reads.
    ``vjp``: an explicit rule ``vjp(saved: dict, ct, *attrs) -> grads`` (needed when the
    op saves its output instead of its input).
    ``checks``: argument validation run at the call, before recording (see ``Op.checks``).
    ``hidden``: how many trailing outputs of ``fn`` only feed the backward (Paddle's kernel
    intermediates: layer_norm's mean and variance, cross_entropy's softmax). They are real
    outputs of the kernel, so the backward reads them instead of recomputing them, but the
    public function returns the others. An op with hidden outputs has an explicit ``vjp``
    that also takes their cotangents (a create_graph backward sends them).
    ``rows``: how the leading (batch) axis flows (see ``_ops.rows``): ``rows.MAP`` for an op whose output row i
    depends only on row i of the inputs with a batch axis (elementwise, matmul with the weight on the right), or
    a rule of the call's arguments. A step on a batch whose every op says so may run padded to a bucket size.
    ``axes``: the same for a varying axis other than the leading one (a sequence length; see ``_ops.rows``):
    ``rows.POINTWISE`` for an elementwise op, or a rule of the call's arguments and the axis of each tensor.
    ``numbers``: attribute parameters whose Python float values may go to the kernel as traced inputs instead of into
    its key (dispatch passes them so once the attribute has taken more than a few values: a slope or margin that
    changes every step then compiles nothing new); ``fn`` and ``vjp`` must take a traced scalar there (arithmetic
    only, no Python branch on it).
    ``numbers_if(dtype, name, value)``: whether the float ``value`` of the number attribute ``name`` may go to the
    kernel as an input, given the dtype of the call's first input (None for a Python number); where it says no,
    the value stays compiled into the key as before: for the values whose traced form would not be the compiled
    one bit for bit (``_util.exact_input``: a float16 tensor; a factor of magnitude 1, which XLA folds away, keeping
    the subnormals its multiply flushes), or on which ``fn`` takes a Python branch (a dropout rate of 0 or 1).
    ``derived``: attribute parameters (which callers never pass) mapped to functions ``(arguments, dtype)`` of the
    call's arguments by name and its first input's dtype: whenever one of ``numbers`` goes as an input, each is
    computed in Python and passed as a number input too (the ``1 / (1 - p)`` of a dropout rate: computed inside
    the kernel it costs more than the mask; the reciprocal of a divisor, which XLA multiplies by where the divisor
    is a constant, inverted in the dtype as XLA inverts it). Where none does, ``fn`` gets the parameter's default
    and computes the value itself.
    ``out_checks(args)``: the ``checks.OutCheck`` on the results of an eager call whose arguments (by parameter
    name, the tensors as arrays) are ``args``, or None where the call has none: an error Paddle's kernel raises
    that only the computation shows (a singular matrix). Calls traced by JAX, to_static or a static program are
    not checked (no concrete values).
    """

    def deco(fn: Callable[..., Any]) -> Op:
        params = list(inspect.signature(fn).parameters)
        tnames = tuple(params[:tensors]) if isinstance(tensors, int) else tuple(tensors)
        chk = checks
        if chk is None:
            axis_param = next((p for p in ("axis", "dim") if p in params[len(tnames):]), None)
            chk = default_checks(axis_param) if axis_param is not None and tnames else None
        if hidden and vjp is None:
            raise ValueError(f"defop: {fn.__name__} has hidden outputs, so it needs an explicit vjp rule.")
        op = Op(name or fn.__name__.rstrip("_"), fn, tnames, tuple(saves), vjp, tuple(nondiff), method,
                inplace, differentiable, chk, hidden, rows, axes)
        unknown = [p for p in numbers if p not in params[len(tnames):]]
        if unknown:
            raise ValueError(f"defop: {fn.__name__}'s numbers must name attribute parameters; {unknown} are not.")
        op.numbers = frozenset(numbers)
        op.number_at = {params.index(p): p for p in numbers}
        bad = [p for p in (derived or {}) if p not in params[len(tnames):] or p in op.numbers]
        if bad or (derived and not numbers):
            raise ValueError(f"defop: {fn.__name__}'s derived must name attribute parameters not in its numbers (and "
                             f"it needs numbers); {bad or list(derived or ())} are not.")
        op.numbers_if = numbers_if
        op.derived = dict(derived or {})
        op.out_checks = out_checks
        if op.name in TABLE:
            raise ValueError(f"defop: an op named {op.name!r} is already registered; pick another name.")
        TABLE[op.name] = op
        return op

    return deco


def visible_op(op: Op, name: str, saves: Sequence[str]) -> Op:
    """``op`` without its hidden outputs, as an op of its own named ``name`` that saves ``saves`` (inputs) and
    derives its VJP from the function. Eager dispatch runs this plain form (one output: the step replay takes
    it); ``nn.functional`` switches to ``op`` while saved-tensor hooks are active, so that hooks see what
    Paddle's kernel keeps."""

    @functools.wraps(op.fn)
    def fn(*args: Any, **kwargs: Any) -> Any:
        return op.visible(op.fn(*args, **kwargs))

    return defop(op.tensor_names, saves=saves, nondiff=tuple(op.nondiff), name=name, method=op.method,
                 checks=op.checks, rows=op.rows, axes=op.axes, numbers=tuple(op.numbers), numbers_if=op.numbers_if,
                 derived=op.derived or None)(fn)

