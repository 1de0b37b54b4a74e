"""How an op's leading (batch) axis flows: the ``rows`` metadata of the op table (layer L1).

A step whose batch size changes every time would compile a program per size. When every op that meets the
batch says how its rows flow, the step runs padded instead: its batch inputs get rows up to a bucket size (copies
of the last true row), one program per bucket serves every batch size in it, and the padded rows are cut off
(``_autograd.row_buckets``). An op declares it once, with ``defop(rows=...)``:

- ``MAP``: output row i depends only on row i of each input that has the batch axis, and such an input has the
  output's rank (so broadcasting aligns its axis 0 with the output's): elementwise ops, activations, ``linear``,
  ``matmul`` with the weight on the right. Padded rows compute copies of a true row: finite where the true rows
  are, and cut off.
- a rule ``rule(args) -> plan``, ``args`` the call's arguments by parameter name with each tensor parameter given
  as its rank (None when absent). The plan: ``MAP``; ``KEEP`` (rows go from input axis 0 to output axis 0 whatever
  the ranks: a softmax or a mean over other axes); ``INDEX`` (rows are those of the index tensors, which pick from
  a first input that has no batch axis: ``x[idx]`` with ``idx`` of the batch's length, as a boolean mask's
  selection makes it, ``out[out > 0].mean()``: its padded rows pick a true row's element again); ``Reduce(kind)`` (the op sums or averages over the batch axis);
  ``Loss(kind)`` (a loss whose ``reduction`` is ``kind``: its rows are the ``reduction='none'`` output's); or None
  (rows mix: a softmax along the batch axis; the step then runs unpadded). The rule makers below build them:
  ``reduce_rule``, ``along_rule``, ``loss_rule``, ``index_rule``, ``when`` (a plan for calls whose attributes pass a test, such as
  a concat off axis 0) and ``draws_rule`` (random draws, dropout). A list of tensors (concat) is given as a list
  of ranks, and its rows may only map or be kept.

A ``Reduce`` or ``Loss`` op runs in the padded program as :func:`masked` makes it: it reduces the true rows only,
given their count ``n`` as a runtime value (one program for every ``n`` of a bucket), and its derivative sends
exactly zero to the padded rows, so that they add nothing to a weight's gradient.

A step whose changing size is another axis (a sequence length: token ids ``[16, T]``) pads that axis the same way,
with copies of its last true slice, where every op that meets it declares ``defop(axes=...)``, given the axis of
each tensor argument (None where it has none), which is where the shapes put it against the family's first step:

- ``POINTWISE``: each output element depends only on the same element of each input after broadcasting (the
  axis is at the same place from the right in every value that has it): elementwise ops, activations;
- a rule ``rule(args, axes) -> plan``, ``args`` as above and ``axes`` the tensor arguments' axes by name. The
  plan: ``MAP`` (values along the axis do not mix: position j of the output comes from position j of the
  inputs, wherever the shapes put the axis: ``linear`` off its contracted axis, an embedding's ids, a softmax or
  layer_norm over other axes, a transpose), ``Reduce(kind)`` (a sum or mean over the axis, masked to its first
  ``n`` positions), ``Loss(kind)`` (a loss whose 'none' output keeps the axis where its first input has it),
  ``Along(axis)`` (a softmax along the axis: the padded positions' inputs count as -inf, their outputs are copies
  of the last true position's, and their derivative is zero), or None. The rule makers: ``off_axes`` (an op that
  mixes along some axes only), ``softmax_axes``, ``reduce_axes``, ``loss_axes``.

Ops without ``axes`` (convolutions and pools, which mix along every axis but the first; dropout, whose draws
follow the flat index; reshapes; indexing) decline, and the step runs as before: compiled for its shapes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._runtime import host_random

MAP = "map"
KEEP = "keep"
INDEX = "index"  # output row i is picked by row i of the op's index tensors from a first input without the batch
POINTWISE = "pointwise"  # an ``axes`` declaration: every output element from the same element of each input


class Reduce(tuple):
    """The op sums (``"sum"``) or averages (``"mean"``) over the batch axis (among others); ``axis``: the padded axis
    of its first input (0: the leading one)."""

    def __new__(cls, kind: str, axis: int = 0) -> Reduce:
        return super().__new__(cls, ("reduce", kind, axis))


class Along(tuple):
    """The op mixes values along the changing axis ``axis`` (a softmax over a sequence): computed on the true
    positions only, the padded ones given copies of the last true one, its derivative zero on them."""

    def __new__(cls, axis: int) -> Along:
        return super().__new__(cls, ("along", "", axis))


class Loss(tuple):
    """A loss reduced by ``kind`` (``"mean"``, ``"sum"``): the true rows of its ``reduction='none'`` output, whose
    padded axis is ``axis``."""

    def __new__(cls, kind: str, axis: int = 0) -> Loss:
        return super().__new__(cls, ("loss", kind, axis))


def _axes(axis: Any, rank: int) -> tuple[int, ...] | None:
    if axis is None:
        return None
    items = axis if isinstance(axis, tuple | list) else (axis,)
    return tuple(int(a) % max(rank, 1) for a in items)


def reduce_rule(kind: str, param: str = "axis") -> Callable[[dict], Any]:
    """A reduction over ``param`` (None: every axis): masked when it reduces axis 0, else rows are kept."""

    def rule(a: dict) -> Any:
        x = a.get("x")
        if type(x) is not int or x == 0:
            return None
        axes = _axes(a.get(param), x)
        if axes is not None and len(axes) == 0:  # an empty axis list: Paddle reduces every axis
            axes = None
        return Reduce(kind) if axes is None or 0 in axes else KEEP

    return rule


def along_rule(param: str = "axis", first: str = "x") -> Callable[[dict], Any]:
    """An op that mixes values along ``param`` only (a softmax): rows are kept unless that is axis 0."""

    def rule(a: dict) -> Any:
        r = a.get(first)
        if type(r) is not int or r == 0:
            return None
        axes = _axes(a.get(param), r)
        return None if axes is None or 0 in axes else MAP

    return rule


def loss_rule(ok: Callable[[dict], bool] | None = None, classes: str | None = None) -> Callable[[dict], Any]:
    """A loss with a ``reduction`` attribute; ``ok(args)`` says when its 'mean' is the plain mean of the
    'none' output (not a weighted one); ``classes``, the parameter of a class axis that must not be axis 0."""

    def rule(a: dict) -> Any:
        r = a.get("input")
        if type(r) is not int or r == 0:
            return None
        if classes is not None and (_axes(a.get(classes), r) or (0,))[0] == 0:
            return None
        red = a.get("reduction")
        if red == "none":
            return KEEP
        if red == "sum" or (red == "mean" and (ok is None or ok(a))):
            return Loss(red)
        return None

    return rule


def _batched(r: Any) -> bool:
    """Whether a tensor argument given as its rank (a list of ranks for a list of tensors) can have a batch axis."""
    if isinstance(r, list | tuple):
        return bool(r) and all(_batched(e) for e in r)
    return type(r) is int and r > 0


def _rank_of(r: Any) -> int:
    return r[0] if isinstance(r, list | tuple) else r


def when(ok: Callable[[dict], bool], plan: Any = KEEP, first: str = "x") -> Callable[[dict], Any]:
    """``plan`` for a call whose ``first`` tensor (or list of tensors) has a batch axis and whose arguments pass
    ``ok(args)`` (given the rank of ``first`` as ``args[first]``, a list's first rank); else None."""

    def rule(a: dict) -> Any:
        r = a.get(first)
        if not _batched(r):
            return None
        return plan if ok({**a, first: _rank_of(r)}) else None

    return rule


def off_axis0(param: str = "axis", default: int = 0, extra: int = 0) -> Callable[[dict], bool]:
    """``ok`` of an op that moves or mixes values along ``param`` only (None: ``default``): not axis 0. ``extra``: the
    output has that many more axes (a stack's new axis counts from the output's)."""

    def ok(a: dict) -> bool:
        axis = a.get(param)
        axis = default if axis is None else axis
        return isinstance(axis, int) and not isinstance(axis, bool) and axis % (a["x"] + extra) != 0

    return ok


def index_rule(spec: str, indices: str) -> Callable[[dict], Any]:
    """An indexing op whose ``spec`` attribute says where its index tensors go: ``INDEX`` for one 1-D index tensor
    on axis 0 (``x[idx]``), else None."""

    def rule(a: dict) -> Any:
        ix = a.get(indices)
        if a.get(spec) == ("T",) and isinstance(ix, list | tuple) and list(ix) == [1] and _batched(a.get("x")):
            return INDEX
        return None

    return rule


def draws_rule(first: str = "x") -> Callable[[dict], Any]:
    """An elementwise op with random draws (dropout): ``MAP`` when the draws of a row do not depend on how many rows
    follow. JAX's partitionable threefry stream draws element i of a shape from counter i (its flat index), so the
    true rows of a padded batch draw what the unpadded batch draws; the other streams draw from counters that depend
    on the whole shape, and then the op declines."""
    return when(lambda a: host_random.usable(), MAP, first)


# ---- rules for a varying axis other than the leading one (``defop(axes=...)``) -------------------------------------
def _only(axes: dict, name: str) -> int | None:
    """The axis of tensor argument ``name`` when it is the only one that has the varying axis, else None."""
    k = axes.get(name)
    if k is None or any(v is not None for n, v in axes.items() if n != name):
        return None
    return k


def off_axes(mixed: Callable[[dict], Sequence[int] | None], first: str = "x",
             ok: Callable[[dict], bool] | None = None) -> Callable[[dict, dict], Any]:
    """``MAP`` for an op that mixes values along the axes ``mixed(args)`` of its ``first`` tensor only (None: all of
    them), when ``first`` alone has the varying axis, which is none of them, and ``ok(args)`` (if given) holds."""

    def rule(a: dict, axes: dict) -> Any:
        k = _only(axes, first)
        r = a.get(first)
        if k is None or type(r) is not int or (ok is not None and not ok(a)):
            return None
        m = mixed(a)
        if m is None or k in {int(i) % r for i in m}:
            return None
        return MAP

    return rule


def softmax_axes(param: str = "axis") -> Callable[[dict, dict], Any]:
    """A softmax (or log-softmax) along ``param``: ``MAP`` off the changing axis, ``Along`` on it (masked: the padded
    positions take no share)."""

    def rule(a: dict, axes: dict) -> Any:
        k = _only(axes, "x")
        r = a.get("x")
        ax = a.get(param)
        if k is None or type(r) is not int or not isinstance(ax, int) or isinstance(ax, bool):
            return None
        return Along(k) if ax % r == k else MAP

    return rule


def reduce_axes(kind: str, param: str = "axis") -> Callable[[dict, dict], Any]:
    """A sum or mean over ``param`` (None or empty: every axis): masked when that includes the varying axis, else
    the axis is kept (``MAP``)."""

    def rule(a: dict, axes: dict) -> Any:
        k = _only(axes, "x")
        r = a.get("x")
        if k is None or type(r) is not int:
            return None
        ax = _axes(a.get(param), r)
        return Reduce(kind, k) if not ax or k in ax else MAP

    return rule


def loss_axes(ok: Callable[[dict], bool] | None = None, classes: str | None = None,
              label: str = "label") -> Callable[[dict, dict], Any]:
    """A loss with a ``reduction`` attribute, as ``loss_rule`` (``ok``, ``classes``), whose input and ``label`` have the
    varying axis at the same place from the left (its 'none' output keeps it there); with a class axis ``classes``,
    that must be the last axis and the varying axis another."""

    def rule(a: dict, axes: dict) -> Any:
        k = axes.get("input")
        r = a.get("input")
        if k is None or type(r) is not int or axes.get(label) != k:
            return None
        if any(v is not None for n, v in axes.items() if n not in ("input", label)):
            return None
        if classes is not None and (k == r - 1 or (_axes(a.get(classes), r) or (0,))[0] != r - 1):
            return None
        red = a.get("reduction")
        if red == "none":
            return MAP
        if red == "sum" or (red == "mean" and (ok is None or ok(a))):
            return Loss(red, k)
        return None

    return rule


# ---- the masked ops of a padded program ---------------------------------------------------------------------------
def row_mask(shape: tuple, n: Any, axis: int = 0) -> Any:
    """True on the first ``n`` positions of axis ``axis`` of an array of ``shape``, broadcastable to it."""
    return (jnp.arange(shape[axis]) < n).reshape((1,) * axis + (shape[axis],) + (1,) * (len(shape) - 1 - axis))


def _count(shape: tuple, axes: tuple | None, n: Any, axis: int = 0) -> Any:
    rest = int(np.prod([d for i, d in enumerate(shape) if i != axis and (axes is None or i in axes)]))
    return n * rest


def masked_reduce(x: Any, kind: str, n: Any, axes: tuple | None = None, keepdim: bool = False, axis: int = 0) -> Any:
    """``sum``/``mean`` of ``x`` over ``axes`` (None: all; they include ``axis``) counting the first ``n`` positions of
    its axis ``axis`` only."""
    inexact = jnp.issubdtype(x.dtype, jnp.inexact)
    xs = x if inexact or kind == "sum" else x.astype(jnp.float64)
    s = jnp.sum(jnp.where(row_mask(x.shape, n, axis), xs, jnp.zeros((), xs.dtype)), axis=axes, keepdims=keepdim)
    if kind == "sum":
        return s
    out = s / _count(x.shape, axes, n, axis).astype(s.dtype)
    return out if inexact else out.astype(x.dtype)


def _reduce_ct(g: Any, shape: tuple, kind: str, n: Any, axis: int = 0) -> Any:
    """The cotangent of a loss's 'none' output (of ``shape``) from that of its masked ``kind`` reduction."""
    if kind == "mean":
        g = g / _count(shape, None, n, axis).astype(g.dtype)
    return jnp.where(row_mask(shape, n, axis), jnp.broadcast_to(g, shape), jnp.zeros((), g.dtype))


def masked(op: Any, plan: Any, n: Any, in_avals: tuple, attr_args: tuple, attr_kwargs: tuple) -> Any:
    """A copy of ``op`` (a table entry with a ``Reduce``, ``Loss`` or ``Along`` plan for this call) computing the call
    on padded rows from its first ``n`` rows only, with a derivative that sends zero to the others. ``in_avals``: the (padded)
    shapes and dtypes of the tensor arguments (None where absent); the attributes as the kernel key holds them."""
    kind, axis = plan[1], plan[2]
    out = copy.copy(op)
    names = [p for p in op.signature.parameters if p not in op.tensor_names]
    base = dict(zip(names, attr_args))
    base.update(attr_kwargs)
    if plan[0] == "along":
        return _masked_along(op, n, axis, names)
    if plan[0] == "reduce":
        x_name = op.tensor_names[0]

        def fn(*args: Any, **kw: Any) -> Any:
            a = op.bind(args, tuple(kw.items()))
            x = a[x_name]
            axes = _axes(a.get("axis"), x.ndim)
            if axes is not None and not axes:
                axes = None
            if kind == "sum":  # the op itself on zeros in the padded rows: its dtype rules stay
                a[x_name] = jnp.where(row_mask(x.shape, n, axis), x, jnp.zeros((), x.dtype))
                return op.fn(**a)
            return masked_reduce(x, kind, n, axes, bool(a.get("keepdim", False)), axis)

        out.fn, out.vjp = fn, None  # mean and sum derive their VJP from the function (they save nothing)
        return out
    none = {**base, "reduction": "none"}
    specs = [None if a is None else jax.ShapeDtypeStruct(a[0], a[1]) for a in in_avals]
    first = jax.eval_shape(lambda *t: op.fn(*t, **none), *specs)
    first = first[0] if op.hidden else first

    def loss_fn(*args: Any, **kw: Any) -> Any:
        a = op.bind(args, tuple(kw.items()))
        a["reduction"] = "none"
        o = op.fn(**a)
        red = masked_reduce(o[0] if op.hidden else o, kind, n, None, False, axis)
        return (red, *o[1:]) if op.hidden else red

    out.fn = loss_fn
    if op.vjp is not None:
        rule = op.vjp

        def vjp(saved: dict, ct: Any, *args: Any, **kw: Any) -> Any:
            attrs = dict(zip(names, args))
            attrs.update(kw)
            attrs["reduction"] = "none"
            if type(ct) is tuple:
                ct = (_reduce_ct(ct[0], first.shape, kind, n, axis), *ct[1:])
            else:
                ct = _reduce_ct(ct, first.shape, kind, n, axis)
            return rule(saved, ct, **attrs)

        out.vjp = vjp
    return out


def _last_copied(y: Any, n: Any, axis: int) -> Any:
    """``y`` with each position from ``n`` on along ``axis`` replaced by a copy of position ``n - 1``."""
    idx = jnp.minimum(jnp.arange(y.shape[axis]), n - 1)
    return jnp.take(y, idx, axis=axis)


def _masked_along(op: Any, n: Any, axis: int, names: list) -> Any:
    """``op`` (a softmax whose ``Along`` plan mixes along the padded ``axis``) over the first ``n`` positions only: the
    others enter as -inf (no share of the sum) and come out as copies of the last true position (finite, as padded
    values are everywhere); its VJP (the op's own, from the saved output) is given zero cotangents there and sends
    zero back to them."""
    out = copy.copy(op)
    x_name = op.tensor_names[0]

    def fn(*args: Any, **kw: Any) -> Any:
        a = op.bind(args, tuple(kw.items()))
        x = a[x_name]
        a[x_name] = jnp.where(row_mask(x.shape, n, axis), x, jnp.full((), -jnp.inf, x.dtype))
        return _last_copied(op.fn(**a), n, axis)

    rule = op.vjp

    def vjp(saved: dict, ct: Any, *args: Any, **kw: Any) -> Any:
        mask = row_mask(ct.shape, n, axis)
        attrs = dict(zip(names, args))
        attrs.update(kw)
        dx = rule(saved, jnp.where(mask, ct, jnp.zeros((), ct.dtype)), **attrs)
        return jnp.where(mask, dx, jnp.zeros((), dx.dtype))

    out.fn, out.vjp = fn, vjp
    return out
