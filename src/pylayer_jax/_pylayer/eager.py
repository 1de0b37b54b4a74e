"""``PyLayer``: custom forward/backward pairs on the eager tape (layer L5).

``apply`` picks a driver. Concrete Tensors go through the eager driver here: forward runs
once with recording off and concrete Tensors; a ``PyLayerNode`` on the tape keeps the
ctx, and ``.backward()`` calls the user's backward with concrete Tensors (under grad mode
= create_graph, so double backward records backward's own ops). JAX arrays, tracers and
Tensors wrapping tracers go through the traced driver (``_pylayer.traced``), a true
``jax.custom_vjp``/``custom_jvp`` function.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp

from .._autograd.graph import Node, released_error
from .._exec import deferred as lazy
from .._runtime.state import grad_mode, modes
from .._tensor import step_events as _ev
from .._tensor.facade import Tensor
from .._tensor.methods import check_inplace_leaf, inplace_assign
from .._tensor.saved_hooks import SavedSlot, iter_slots
from .ctx import PyLayerContext
from .slots import backward_args, input_slots, output_slots, rebuild_output, split_grads
from .traced import traced_apply

_Tracer = jax.core.Tracer
_zeros = jax.jit(jnp.zeros, static_argnums=(0, 1))  # an eager jnp.zeros costs ~100 us, this ~10


def once_differentiable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a PyLayer backward that is not itself differentiable.

    It runs with gradient recording off; differentiating its result again (a second
    ``paddle.grad`` with create_graph, or ``jax.grad`` of a ``jax.grad``) raises a RuntimeError.
    """

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with grad_mode(False):
            return fn(*args, **kwargs)

    wrapper._once_differentiable = True  # type: ignore[attr-defined]
    return wrapper


class PyLayer:
    """Build a custom op from a forward and a backward staticmethod, run it with ``apply``.

    ``forward(ctx, *args, **kwargs)`` computes the outputs (recording is off inside).
    ``backward(ctx, *grads)`` receives one gradient per output slot and returns one
    gradient (or None) per input slot: each Tensor argument, and each list/tuple (or other
    pytree) of Tensors.

    Example::

        >>> import pylayer_jax as paddle
        >>> from pylayer_jax.autograd import PyLayer
        >>> class Cube(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x * x
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         x, = ctx.saved_tensor()
        ...         return 3 * x * x * dy
        >>> x = paddle.to_tensor([3.0], stop_gradient=False)
        >>> Cube.apply(x).backward()
        >>> x.grad.numpy()
        array([27.], dtype=float32)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or kwargs:  # (Paddle builds an unused PyLayer object and drops the inputs: no output, no gradient)
            name = type(self).__name__
            raise TypeError(
                f"{name}(...): a PyLayer is not called on its inputs, but {name} received "
                f"{len(args) + len(kwargs)} argument(s). Run it with {name}.apply(...), which calls forward and "
                "records backward."
            )

    @staticmethod
    def forward(ctx: PyLayerContext, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for PyLayer.")

    @staticmethod
    def backward(ctx: PyLayerContext, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the backward function for PyLayer.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run forward and, when some Tensor argument needs a gradient, record backward on the tape."""
        if cls.forward is PyLayer.forward:
            raise NotImplementedError(
                f"You must implement the forward function for PyLayer: {cls.__name__} has no forward staticmethod."
            )
        if not kwargs:  # the common case: positional concrete Tensors and Python scalars (a float ``alpha``),
            flat = []  # each Tensor its own slot, as ``input_slots`` makes them (one pass)
            for a in args:
                if type(a) is Tensor:
                    if isinstance(a._v, _Tracer):
                        break
                    flat.append(a)
                elif type(a) not in _SCALAR_ARGS:
                    break
            else:
                return _eager_apply(cls, args, kwargs, None, flat)
        if _any_traced(args, kwargs):
            return traced_apply(cls, args, kwargs)
        slots, flat = input_slots(args, kwargs)
        return _eager_apply(cls, args, kwargs, slots, flat)


_SCALAR_ARGS = frozenset([int, float, bool, str, type(None)])


def _any_traced(args: Sequence[Any], kwargs: dict[str, Any]) -> bool:
    """Raw jax arrays, tracers, or Tensors wrapping tracers anywhere in the arguments."""
    for leaf in jax.tree_util.tree_leaves((args, kwargs), is_leaf=lambda v: isinstance(v, Tensor)):  # Parameters too
        if isinstance(leaf, jax.Array) or (isinstance(leaf, Tensor) and isinstance(leaf._v, _Tracer)):
            return True
    return False


def _layer(cls: type) -> str:
    return f"PyLayer {cls.__name__}"


def _eager_apply(cls: type, args: Sequence[Any], kwargs: dict[str, Any], slots: Any, flat: Sequence[Any]) -> Any:
    m = modes
    prev = m.grad_enabled
    # which Tensors need a gradient (``_sg``: stop_gradient, read without the property), and their edges as they are
    # (a stub stays a stub: a followed apply reads them only if the step leaves its note)
    needs = []
    raw = []
    for t in flat:  # (a loop: a comprehension costs a frame)
        needs.append(prev and not t._sg)
        raw.append(t._e)
    ctx = PyLayerContext()
    if slots is None:
        ctx.needs_input_grad = tuple(needs)
    else:
        pos, nig = 0, []
        for s in slots:
            nig.append(any(needs[pos : pos + s.n]))
            pos += s.n
        ctx.needs_input_grad = tuple(nig)
    # an apply event (a repeated step may replay this apply, or note it): its Tensors in slot order, each its own
    # slot or nested in a list, tuple or dict (other arguments, such as a float, are not compared: forward and
    # backward run for real, and their recorded calls must match the note; the node takes this call's slots, so
    # backward's results are checked against them as always)
    if True in needs:
        follow, noting = _ev.EVENTS.apply_begin(cls, flat)
        # where each input's gradient goes, taken before forward may rewire an input in place (a followed apply
        # has none yet: they stand for nodes not built)
        if follow is None:
            edges = [t.grad_edge() if need else None for t, need in zip(flat, needs)]
    else:
        follow = noting = None

    stack = m.pylayer_forward_ctx  # (the thread's own list, never rebound)
    depth = len(stack)
    try:  # (the modes change inside the try and are restored on both paths: an interrupt anywhere leaves them)
        stack.append(ctx)  # (inside forward: the ctx's forward-only methods look for it there)
        m.grad_enabled = False
        out = cls.forward(ctx, *args, **kwargs)
        m.grad_enabled = prev
        del stack[depth:]  # (here too: an interrupt at a line of ``finally`` skips the rest)
    except BaseException:
        if follow is not None:
            _ev.EVENTS.apply_end(follow, False, flat, None, None)
        raise
    finally:
        m.grad_enabled = prev
        del stack[depth:]

    saved = ctx._saved
    if follow is not None:
        if type(out) is Tensor and saved is None and out._sg and not (ctx._non_diff or ctx._not_inplace):
            # the common case: one fresh output, nothing saved or marked
            node = PyLayerNode.followed(cls, ctx, needs, flat, out, slots)
            if _ev.EVENTS.apply_end(follow, True, flat, out, node):
                return out
        elif type(out) is Tensor:  # one output, saved Tensors without hooks
            ok = saved is None or _plain(saved)
            res = out
            form = 0
            if ok and (ctx._non_diff or ctx._not_inplace or not out._sg):  # an input returned, or marked
                form = _one_output_form(ctx, flat, out)
                res = Tensor(out._v) if form == 2 else out  # (as wiring makes them)
                ok = form != 0
            node = PyLayerNode.followed(cls, ctx, needs, flat, res, slots) if ok else None
            if form == 3:
                node.non_diff = {0}
            if _ev.EVENTS.apply_end(follow, ok, flat, res, node):
                if saved is not None:
                    for sv in saved:  # (``_link_saved``, for one output: the saved output differentiates through it)
                        if sv.ref is out and form == 0:
                            sv.edge, sv.stop_gradient = out._e, False
                        sv.ref = None
                return res
        else:
            outs = _fresh_outputs(out, flat)  # (a tuple or list of fresh Tensors)
            nd = ctx._non_diff  # (outputs marked non-differentiable keep no edge, as wiring leaves them)
            ok = (outs is not None and not ctx._not_inplace and (not saved or _plain(saved))
                  and (not nd or _marked_among(nd, outs)))
            node = None
            if ok:
                node = PyLayerNode(cls, ctx, slots, needs, flat, [None] * len(flat), outs,
                                   output_slots(out, _layer(cls))[0])
                if nd:
                    node.non_diff.update([j for j, o in enumerate(outs) if not _none_is(o, nd)])
            if _ev.EVENTS.apply_end(follow, ok, flat, outs if ok else out, node):
                if saved:
                    _link_saved(saved, outs, outs)
                return out
        # the step left its note: its tape is built, so the stubs the inputs had resolve to nodes now
        edges = [_edge_of(t, e) if need else None for t, need, e in zip(flat, needs, raw)]

    if type(out) is Tensor:
        out_slots, out_flat, how = None, [out], None
    else:
        out_slots, out_flat, how = output_slots(out, _layer(cls))
    if True not in needs:  # nothing to record
        if saved:
            _link_saved(saved, (), ())
        return out

    node = PyLayerNode(cls, ctx, slots, needs, flat, edges, out_flat, out_slots)
    # several fresh outputs may be noted too (before wiring gives them their edges)
    fresh = _fresh_outputs(out, flat) if noting is not None and out_slots is not None else None
    t = out_flat[0]
    common = (
        len(out_flat) == 1
        and type(t) is Tensor
        and t._edge is None
        and t.stop_gradient
        and not ctx._non_diff
        and all(t is not i for i in flat)
    )
    if common:
        t._edge, t.stop_gradient = (node, 0), False  # the common case: one fresh output
        new_flat = out_flat
    else:
        new_flat = _wire_outputs(ctx, node, flat, out_flat, _layer(cls))
    if noting is not None:
        if common:
            plain = not ctx._not_inplace and _plain(saved)
        elif out_slots is None:  # one output: an input returned, or marked non-differentiable
            plain = _one_output_form(ctx, flat, out_flat[0]) != 0 and _plain(saved)
            t = new_flat[0]
        else:
            plain = (fresh is not None and not ctx._not_inplace and _plain(saved)
                     and (not ctx._non_diff or _marked_among(ctx._non_diff, fresh))
                     and len(new_flat) == len(fresh) and all(a is b for a, b in zip(new_flat, fresh)))
            t = fresh
        _ev.EVENTS.apply_noted(noting, cls, flat, needs, t, node if plain else None)
    if saved:
        _link_saved(saved, [o if all(o is not i for i in flat) else None for o in out_flat], new_flat)
    if new_flat is out_flat or all(a is b for a, b in zip(new_flat, out_flat)):
        return out
    return rebuild_output(out, out_slots or [], how, new_flat) if out_slots is not None else new_flat[0]


def _one_output_form(ctx: PyLayerContext, inputs: Sequence[Any], out: Tensor) -> int:
    """Which rarer form forward's one output Tensor ``out`` has, as wiring treats it: 1, an input returned (the
    input, rewired in place); 2, an input returned and marked with ``mark_not_inplace`` (a new Tensor sharing its
    value); 3, a fresh output marked non-differentiable; 0, any other (another input marked, several marked ...)."""
    nd, ni = ctx._non_diff, ctx._not_inplace
    if _none_is(out, inputs):
        return 3 if not ni and len(nd) == 1 and nd[0] is out and out._e is None and out._sg else 0
    if nd:
        return 0
    if not ni:
        return 1 if out._e is not None else 0
    return 2 if len(ni) == 1 and ni[0] is out else 0


def _fresh_outputs(out: Any, inputs: Sequence[Any]) -> list[Any] | None:
    """The items of a tuple or list ``out`` of fresh Tensors (distinct, without history, none of ``inputs``), each
    an output slot of its own; None for any other output."""
    if type(out) not in (tuple, list) or not out:
        return None
    for i, o in enumerate(out):
        if type(o) is not Tensor or o._e is not None or not o.stop_gradient:
            return None
        for x in inputs:
            if o is x:
                return None
        for j in range(i):
            if out[j] is o:
                return None
    return list(out)


def _none_is(x: Any, items: Sequence[Any]) -> bool:
    """Whether ``x`` is none of ``items`` (by identity: ``in`` would compare Tensors by value)."""
    for t in items:
        if t is x:
            return False
    return True


def _marked_among(marked: Sequence[Any], outs: Sequence[Any]) -> bool:
    """Whether each Tensor ``ctx.mark_non_differentiable`` got is one of the fresh outputs ``outs``."""
    for t in marked:
        if _none_is(t, outs):
            return False
    return True


def _link_saved(saved: Any, out_flat: Sequence[Any], new_flat: Sequence[Any]) -> None:
    """A saved fresh forward output differentiates through the node (create_graph); drop the saved objects.

    ``out_flat`` holds None for outputs that are inputs: a saved input keeps its own history.
    """
    for s in saved if _all_slots(saved) else iter_slots(saved):
        if type(s) is not SavedSlot or s.ref is None:
            continue
        for j, o in enumerate(out_flat):
            if o is s.ref and new_flat[j] is o and not o.stop_gradient:
                s.edge, s.stop_gradient = o._e, False  # (a replayed apply's stub until its node is needed)
        s.ref = None


def _all_slots(saved: Any) -> bool:
    """``saved`` is a tuple of SavedSlots (what ``save_for_backward`` of Tensors makes)."""
    for v in saved:
        if type(v) is not SavedSlot:
            return False
    return True


def _plain(saved: Any) -> bool:
    """Nothing saved, or Tensors/arrays saved without hooks (what a replayed step may hold)."""
    for v in saved or ():
        if type(v) is not SavedSlot or v.unpack is not None:
            return False
    return True


def _edge_of(t: Tensor, e: Any) -> Any:
    """The edge an input had before forward (``e``: its raw edge then, None for a leaf), now its tape is built."""
    if e is None:
        return t._leaf_edge()
    return _ev.resolve(e)


def _wire_outputs(
    ctx: PyLayerContext, node: PyLayerNode, inputs: Sequence[Any], outs: list[Any], layer: str
) -> list[Any]:
    """Attach forward's output Tensors to ``node``; returns the Tensors apply hands back."""
    in_ids = {id(t) for t in inputs}
    not_inplace = {id(t) for t in ctx._not_inplace}
    non_diff = {id(t) for t in ctx._non_diff}
    seen: set[int] = set()
    res = []
    for j, t in enumerate(outs):
        if isinstance(t, jax.Array):
            t = Tensor(t)
        if id(t) in non_diff:
            node.non_diff.add(j)
            r = t if id(t) not in seen and t._edge is None else Tensor(t._v)
            r.stop_gradient = True
        elif id(t) in in_ids and id(t) not in not_inplace and id(t) not in seen:
            # returning an unmarked input is an in-place write of that input
            check_inplace_leaf(t, f"{layer}.apply (forward returned its input)")
            r = inplace_assign(t, Tensor(t._v, False, (node, j)), f"{layer}.apply")
        elif id(t) in in_ids or id(t) in seen or t._edge is not None or not t.stop_gradient:
            # a marked input, a repeated output or a tensor with a history of its own: a new Tensor sharing data
            r = Tensor(t._v, False, (node, j))
        else:
            r = t
            r._edge, r.stop_gradient = (node, j), False
        seen.add(id(t))
        res.append(r)
    return res


_new_node = object.__new__
_NO_OUTPUTS: frozenset[int] = frozenset()  # (``PyLayerNode.non_diff`` of a node no wiring marks: never added to)


class PyLayerNode(Node):
    """The tape node of one ``PyLayer.apply`` call: calls the user's backward with Tensors."""

    __slots__ = ("cls", "ctx", "slots", "needs", "in_avals", "out_slots", "non_diff")

    def __init__(
        self,
        cls: type,
        ctx: PyLayerContext,
        slots: Any,
        needs: list[bool],
        inputs: Sequence[Any],
        edges: list[Any],
        out_flat: list[Any],
        out_slots: Any,
    ) -> None:
        super().__init__(edges, [_aval_of(o._v if isinstance(o, Tensor) else o) for o in out_flat])
        self.cls = cls
        self.ctx = ctx
        self.slots = slots
        self.needs = needs
        self.in_avals = [_aval_of(t._v) if need else None for t, need in zip(inputs, needs)]
        self.out_slots = out_slots
        self.non_diff: set[int] | frozenset[int] = set()

    @staticmethod
    def followed(cls: type, ctx: PyLayerContext, needs: list[bool], flat: Sequence[Any], out: Tensor,
                 slots: Any) -> PyLayerNode:
        """The node of an apply a repeated step follows, with one output Tensor: what ``__init__`` makes of it,
        without its generality (its edges stand for nodes not built yet; nothing marks an output non-differentiable).
        Every slot of ``Node`` and of this class is set here as there."""
        node = _new_node(PyLayerNode)
        if len(flat) == 1:  # the common case: one input Tensor (it needs a gradient: the apply records)
            v = flat[0]._v
            node.in_avals = [(v.shape, v.dtype) if type(v) is lazy.Pending else _aval_of(v)]
            node.next_edges = [None]
        else:
            in_avals = []
            for t, need in zip(flat, needs):  # (a loop: a comprehension costs a frame)
                if need:
                    v = t._v
                    in_avals.append((v.shape, v.dtype) if type(v) is lazy.Pending else _aval_of(v))
                else:
                    in_avals.append(None)
            node.in_avals = in_avals
            node.next_edges = [None] * len(flat)
        v = out._v
        node.out_avals = [(v.shape, v.dtype) if type(v) is lazy.Pending else _aval_of(v)]
        node.pre_hooks = node.out_slots = None
        node.released = False
        node.cls, node.ctx, node.slots, node.needs, node.non_diff = cls, ctx, slots, needs, _NO_OUTPUTS
        return node

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"PyLayer {self.cls.__name__}"

    def backward(self, cts: list[Any], diff: Any, walk: Any = None) -> list[Any]:
        if self.released:
            raise released_error(self.name)
        co = _ev.EVENTS.callout_begin(self, cts, walk) if diff is None else None  # a callout event
        out = self._backward(cts, diff)
        if co is not None:
            _ev.EVENTS.callout_end(co, out)
        return out

    def _backward(self, cts: list[Any], diff: Any) -> list[Any]:
        cls, ctx = self.cls, self.ctx
        bwd = cls.backward
        if bwd is PyLayer.backward:
            raise NotImplementedError(
                f"You must implement the backward function for PyLayer: {cls.__name__} has no backward "
                "staticmethod, and a gradient is needed through it."
            )
        once = diff is not None and getattr(bwd, "_once_differentiable", False)  # (without diff: grad mode off)
        non_diff = self.non_diff
        cast = ctx._grad_in_dtype_consistent  # False: a gradient in another dtype arrives as it is
        # as in Paddle, an arriving gradient says stop_gradient=False (a materialised zero gradient True); without
        # create_graph nothing records inside backward, so the flag changes no result
        sg = diff is not None
        if len(cts) == 1 and not non_diff:  # the common case: one output Tensor
            c = cts[0]
            dtype = self.out_avals[0][1]
            if type(c) is lazy.Pending:
                args = [Tensor(c if c.dtype == dtype or not cast else c.get().astype(dtype), sg)]
            elif c is None:
                args = [Tensor(_zeros(*self.out_avals[0])) if ctx._materialize else None]
            elif type(c) is Tensor:
                args = [c if c._v.dtype == dtype or not cast else c.astype(dtype)]
            else:
                args = [Tensor(c if c.dtype == dtype or not cast else c.astype(dtype), sg)]
            if self.out_slots is not None:
                args = backward_args(self.out_slots, args)
        else:
            grads = []
            for j, c in enumerate(cts):
                shape, dtype = self.out_avals[j]
                if c is None or (non_diff and j in non_diff):
                    grads.append(Tensor(_zeros(shape, dtype)) if ctx._materialize else None)
                elif type(c) is Tensor:
                    grads.append(c if c._v.dtype == dtype or not cast else c.astype(dtype))
                else:
                    grads.append(Tensor(c if c.dtype == dtype or not cast else lazy.concrete(c).astype(dtype), sg))
            args = grads if self.out_slots is None else backward_args(self.out_slots, grads)
        m = modes
        prev = m.grad_enabled
        try:  # (set and restored inside the try, on both paths: an interrupt anywhere leaves the mode as it was)
            m.grad_enabled = diff is not None and not once
            result = bwd(ctx, *args)
            m.grad_enabled = prev
        except Exception as e:
            e.add_note(f"(raised inside {cls.__name__}.backward, the backward of a PyLayer)")
            raise
        finally:
            m.grad_enabled = prev
        in_avals = self.in_avals
        if type(result) is Tensor and len(in_avals) == 1 and self.slots is None and in_avals[0] is not None:
            if diff is None:  # the common case: a deferred result of the input's aval
                v = result._v
                aval = in_avals[0]
                if type(v) is lazy.Pending and v.shape == aval[0] and v.dtype == aval[1]:
                    return [v]
            values = [result]
        else:
            slots = self.slots if self.slots is not None else _plain_slots(len(self.needs))
            values = split_grads(result, slots, self.needs, self.name)
        out = []
        err_node = (
            _OnceDifferentiableNode(self.name, self.next_edges, self.in_avals) if once and diff is not None else None
        )
        for k, (g, aval) in enumerate(zip(values, self.in_avals)):
            if g is None or aval is None:
                out.append(None)
                continue
            if diff is None and type(g) is Tensor:  # the common case: a deferred result of the input's aval
                v = g._v
                if type(v) is lazy.Pending and v.shape == aval[0] and v.dtype == aval[1]:
                    out.append(v)
                    continue
            out.append(self._fix(g, aval, k, diff, err_node))
        return out

    def _fix(self, g: Any, aval: tuple, k: int, diff: Any, err_node: Any) -> Any:
        """Check the shape of backward's gradient for input ``k`` and cast it to the input's dtype (unless the
        input is the output of a PyLayer that set ``set_grad_in_dtype_consistent(False)``: as in Paddle, that
        PyLayer's backward then gets the gradient in the dtype this backward returned)."""
        shape, dtype = aval
        t = g if type(g) is Tensor or isinstance(g, Tensor) else Tensor(jnp.asarray(g))
        if tuple(t._v.shape) != shape:
            raise ValueError(
                f"{self.name}: backward returned a gradient of shape {list(t._v.shape)} for input Tensor {k}, "
                f"whose shape is {list(shape)}. Return a gradient with the input's shape."
            )
        if t._v.dtype != dtype and _keeps_grad_dtype(self.next_edges[k]) and jnp.issubdtype(t._v.dtype, jnp.inexact):
            dtype = t._v.dtype
        if diff is None:
            v = t._v
            return v if v.dtype == dtype else lazy.concrete(v).astype(dtype)
        if err_node is not None:
            return Tensor(t._value.astype(dtype), False, (err_node, k))
        return t if t._v.dtype == dtype else t.astype(dtype)

    def release(self) -> None:
        Node.release(self)  # (named: ``super()`` builds a proxy object, every replayed step)
        self.ctx = None  # type: ignore[assignment]


def _aval_of(v: Any) -> tuple:
    """``(shape, dtype)`` of an array or Pending (a Pending's are plain slots)."""
    if type(v) is lazy.Pending:
        return (v.shape, v.dtype)
    if type(v) is lazy._ArrayImpl:  # (one read of its aval: its shape and dtype properties each read it)
        a = v.aval
        return (a.shape, a.dtype)
    return (tuple(v.shape), v.dtype)


def _keeps_grad_dtype(edge: Any) -> bool:
    """The gradient along ``edge`` goes to a PyLayer whose forward set ``set_grad_in_dtype_consistent(False)``."""
    node = edge[0] if edge is not None else None
    return type(node) is PyLayerNode and node.ctx is not None and not node.ctx._grad_in_dtype_consistent


def _plain_slots(n: int) -> list[Any]:
    return _PLAIN[n] if n < len(_PLAIN) else [_SingleSlot] * n


class _SingleSlot:
    tdef = None
    n = 1
    n_all = 1
    tensor_pos = (0,)
    kind = "Tensor"


_PLAIN = [[_SingleSlot] * i for i in range(16)]


class _OnceDifferentiableNode(Node):
    """Stands for a once_differentiable backward's results on the tape; differentiating them raises."""

    __slots__ = ("layer",)

    def __init__(self, layer: str, next_edges: Sequence[Any], in_avals: Sequence[Any]) -> None:
        avals = [((), jnp.float32) if a is None else a for a in in_avals]
        super().__init__(list(next_edges), avals)
        self.layer = layer

    def backward(self, cts: list[Any], diff: Any, walk: Any = None) -> list[Any]:
        raise RuntimeError(
            f"{self.layer}: its backward is decorated with @once_differentiable, so its gradients cannot be "
            "differentiated again (a second paddle.grad / backward through them). Remove the decorator and write "
            "backward with differentiable ops to get higher-order gradients."
        )
