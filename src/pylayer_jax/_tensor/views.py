"""Views: results of basic indexing and shape ops that share their base's data, as Paddle 3.3.1's do.

Layer L4. In Paddle ``y = x[0]; y.add_(1)`` changes ``x``, and ``x.add_(1)`` changes ``y``: ``y`` is a view of
``x``'s memory. Here every value is an immutable array, so the Tensors that share data form a ``Group``, and each
remembers how its elements lie in the data: its ``_view`` slot holds a ``Link`` (the parent's ``Link`` and the op
call that made it from the parent; a base's has none). The slot is left unset on every other Tensor, so ordinary
ops pay nothing; making a view costs one ``Link``, and no Tensor keeps another alive.

A write (``inplace_assign``, ``set_value``, ``copy_``) to a Tensor of a group moves values, as Paddle's shared
memory does: each member's positions in the data are found once (its chain of ops run on ``arange``), and every
other live member that shares positions with the written Tensor takes its new values there, by ops run through
``apply_op``. A leaf's data is edited as Paddle edits it (values only: it stays a leaf); a Tensor with a history
takes the history of those ops, so its gradient follows its new values. Paddle leaves such a Tensor's history as it
was, and its gradients through it are those of its old values, silently wrong: there ours differ on purpose
(``tests/tensor/test_views.py`` checks them against ``jax.grad`` of the same program written without views). Data
shared through ``detach()`` (``x.data``) is shared outside autograd: a write there moves values only, and the other
Tensor keeps its history, as in Paddle. A base and its views share one version counter, as in Paddle.
"""

from __future__ import annotations

import weakref
from typing import Any

import jax
import numpy as np

from .._ops.indexing import TENSOR, build_index
from .._ops.table import TABLE, Op
from .._runtime.state import grad_mode, modes
from .._runtime.transfer import put
from .dispatch import apply_op
from .facade import Tensor, before_write, grad_written

_GETITEM = TABLE["getitem"]
_SETITEM = TABLE["setitem"]
_RESHAPE = TABLE["reshape"]
# ops whose result is a view only when the parent's elements lie contiguously (Paddle copies otherwise:
# ``x.T.reshape([6])`` is a copy, ``x[0:1].reshape([3])`` a view)
_NEEDS_CONTIGUOUS = frozenset({"reshape", "flatten", "view", "view_as"})
# the table ops whose results are views in Paddle 3.3.1 (``tests/record_paddle_views.py``); basic indexing,
# ``x.T``, ``detach``, ``slice``, ``strided_slice`` and ``narrow`` link their results where they are made
_RESHAPING = frozenset({"reshape", "flatten", "view", "view_as", "squeeze", "unsqueeze", "atleast_1d", "atleast_2d",
                        "atleast_3d"})
# the complex views: Paddle's results read the input's memory as another dtype (two floats as one complex number);
# their sharing is not mirrored (``REFUSED``)
COMPLEX_VIEWS = frozenset({"as_complex", "view_as_complex", "as_real", "view_as_real"})
VIEW_OPS = frozenset({"reshape", "view", "view_as", "flatten", "squeeze", "unsqueeze", "transpose", "t", "moveaxis",
                      "diagonal", "unbind", "permute", "swapaxes", "unfold_windows", "as_strided", *COMPLEX_VIEWS})
# the Link op of a view in Paddle whose sharing is not mirrored here (``view`` with a dtype, a bitcast; the complex
# views): a write to it, or to a tensor sharing data with it, raises
REFUSED = object()


class Group(list):
    """The Tensors sharing one piece of data: weak references to them (dead ones are dropped as it is walked)."""

    __slots__ = ()


class Link:
    """On each Tensor of a group: how its elements lie in the data. A base has ``op`` None and no parent (its
    positions are ``arange`` in its shape); a view has its parent's ``Link`` and the call that made it from the
    parent (the parent Tensor itself left out of ``args``: no Tensor keeps another alive), ``item`` the output
    taken (``unbind``). Positions are computed on the first write that needs them."""

    __slots__ = ("parent", "op", "args", "kwargs", "item", "group", "shape", "idx")

    def __init__(self, parent: Link | None, op: Op | None, args: tuple, kwargs: dict | None, item: int | None,
                 group: Group, shape: tuple) -> None:
        self.parent, self.op, self.args, self.kwargs, self.item = parent, op, args, kwargs, item
        self.group, self.shape = group, shape
        self.idx: Any = None


_PARENT = object()  # in a Link's args: where the parent Tensor went


def link(out: Tensor, parent: Tensor, op: Op | None = None, args: tuple = (), kwargs: dict | None = None,
         item: int | None = None) -> Tensor:
    """Make ``out`` (a new Tensor computed from ``parent`` by ``op(*args, **kwargs)``) a view of ``parent``'s data."""
    if type(out) is not Tensor or modes.static_program is not None:
        return out
    pl = getattr(parent, "_view", None)
    if pl is None:
        group = Group()
        pl = parent._view = Link(None, None, (), None, None, group, tuple(parent._v.shape))
        group.append(weakref.ref(parent))
    group = pl.group
    n = len(group)
    if n >= 16 and (n & (n - 1)) == 0:  # now and then, drop the dead
        group[:] = [r for r in group if r() is not None]
    group.append(weakref.ref(out))
    args = tuple(_PARENT if a is parent else a for a in args)
    if kwargs:
        kwargs = {k: (_PARENT if v is parent else v) for k, v in kwargs.items()}
    out._view = Link(pl, op, args, kwargs, item, group, tuple(out._v.shape))
    out._counter = parent._version_counter()  # one version for the data, as Paddle's
    return out


def _contiguous(p: Any) -> bool:
    return not p.size or bool(np.array_equal(p.ravel(), p.flat[0] + np.arange(p.size)))


def _positions(lk: Link) -> Any:
    """Where the elements of the Tensor with Link ``lk`` lie in the data (an int64 array of its shape), or None
    when it turned out to be a copy (a reshape of elements that do not lie contiguously)."""
    if lk.idx is not None:
        return lk.idx if lk.idx is not False else None
    if lk.parent is None:
        lk.idx = np.arange(int(np.prod(lk.shape, dtype=np.int64)), dtype=np.int64).reshape(lk.shape)
        return lk.idx
    p = _positions(lk.parent)
    op = lk.op
    if p is None or (op is not None and op is not REFUSED and op.name in _NEEDS_CONTIGUOUS and not _contiguous(p)):
        lk.idx = False
        return None
    idx = None if op is not None else p
    if op is REFUSED:  # (never written: check_write refuses first)
        lk.idx = False
        return None
    if op is not None and op.name in _RESHAPING:  # the same order in the view's shape
        idx = p.reshape(lk.shape)
    elif op is not None and op.name == "getitem" and not lk.args[1] and all(
            s is None or s == "..." or type(s) is int or (type(s) is tuple and s[0] == "slice") for s in lk.args[2]):
        idx = p[build_index(lk.args[2], ())]  # basic indexing: numpy's
    elif (op is not None and op.name == "transpose" and not lk.kwargs and len(lk.args) == 2
          and all(type(a) is int for a in lk.args[1])):
        idx = np.transpose(p, [a % p.ndim for a in lk.args[1]]) if p.ndim else p
    if idx is None:  # any other op: run it on the parent's positions
        pt = Tensor(put(p))
        args = tuple(pt if a is _PARENT else a for a in lk.args)
        kwargs = {k: (pt if v is _PARENT else v) for k, v in (lk.kwargs or {}).items()}
        with grad_mode(False):
            r = apply_op(op, args, kwargs)
        if lk.item is not None:
            r = r[lk.item]
        v = r._value
        if isinstance(v, jax.core.Tracer):
            raise _traced_error()
        idx = np.asarray(v)
    if tuple(idx.shape) != lk.shape:
        raise RuntimeError(
            f"pylayer_jax views: the positions of a view made by {op.name if op else 'detach'} have shape "
            f"{list(idx.shape)}, but the view has shape {list(lk.shape)}. Please report this; clone() the view "
            "before writing to it meanwhile."
        )
    lk.idx = idx
    return idx


def _traced_error(api: str = "an in-place write") -> RuntimeError:
    return RuntimeError(
        f"{api}: inside jit.to_static or a JAX transformation, this Tensor shares its data with a view or a base "
        "(basic indexing, reshape, transpose, detach, ...), and pylayer_jax shares that data only in eager code, "
        "so the write would not reach the other. clone() the view before writing to it, or write outside the "
        "compiled function."
    )


def _unlink(t: Tensor) -> None:
    lk = t._view
    t._view = None
    lk.group[:] = [r for r in lk.group if (w := r()) is not None and w is not t]


def _others(t: Tensor) -> list:
    """The other live Tensors of ``t``'s group (dead references dropped)."""
    group = t._view.group
    live = [r for r in group if r() is not None]
    if len(live) != len(group):
        group[:] = live
    return [w for r in live if (w := r()) is not t]


_OVERLAPPING = frozenset({"unfold_windows", "as_strided"})  # view ops whose elements may share a position


def _overlaps(t: Tensor) -> bool:
    """Whether two elements of ``t`` (linked) lie at one position of the data (``unfold`` with a step below its
    size, ``as_strided`` with a zero stride): looked for only below such an op."""
    lk = t._view
    while lk is not None:
        if lk.op is not None and lk.op is not REFUSED and lk.op.name in _OVERLAPPING:
            p = _positions(t._view)
            return p is not None and np.unique(p).size != p.size
        lk = lk.parent
    return False


def check_write(t: Tensor, api: str) -> None:
    """Before an in-place write to ``t`` (linked): refuse what the write could not do as Paddle does."""
    others = _others(t)
    if not others:
        return
    if modes.capture is not None or isinstance(t._v, jax.core.Tracer):
        raise _traced_error(api)
    if _overlaps(t):
        raise RuntimeError(
            f"{api}: this Tensor is a view whose elements overlap in the data it shares (unfold with a step smaller "
            "than its size, as_strided with repeated positions), so which of them a write leaves there is ambiguous "
            "(Paddle loses such a write). clone() the view before writing to it."
        )
    for w in (t, *others):
        if w._view.op is REFUSED:
            raise RuntimeError(
                f"{api}: this Tensor shares its data with a result of Tensor.view(dtype) or of as_complex, as_real, "
                "view_as_complex or view_as_real, which in Paddle is the same memory read as another dtype; "
                "pylayer_jax does not share data with it, so the write would not "
                f"reach {'it' if w is not t else 'the others'}. clone() that result before writing, or write "
                "after it is no longer used."
            )


def _chain(lk: Link) -> list[Link]:
    out = []
    while lk is not None:
        out.append(lk)
        lk = lk.parent
    return out


def _through_detach(a: Link, b: Link) -> bool:
    """Whether the Links ``a`` and ``b`` of one group are joined through a ``detach()`` (a Link with a parent and no
    op) below their lowest common ancestor: data shared outside autograd."""
    ca, cb = _chain(a), _chain(b)
    common = {id(x) for x in ca} & {id(x) for x in cb}
    for c in (ca, cb):
        for x in c:
            if id(x) in common:
                break
            if x.op is None and x.parent is not None:
                return True
    return False


def written(t: Tensor, shape: tuple, dtype: Any) -> None:
    """After an in-place write to ``t`` (linked; ``shape`` and ``dtype`` from before the write): the write
    reaches every other live Tensor of its group that shares elements with it, with gradients off."""
    others = _others(t)
    if not others:
        if tuple(t._v.shape) != shape or t._v.dtype != dtype:
            _unlink(t)  # (nothing shares its data now: its Link would describe the old shape)
        return
    lk = t._view
    v = t._v
    idx = _positions(lk)
    if idx is None or v.dtype != dtype or int(np.prod(v.shape, dtype=np.int64)) != idx.size:
        _unlink(t)  # a copy after all, or new data (``cast_``)
        return
    if tuple(v.shape) != shape:  # an in-place reshape: the same positions in a new shape (a new Link: the
        if not _contiguous(idx):  # views made before keep the old one as their parent)
            _unlink(t)
            return
        lk = t._view = Link(lk.parent, lk.op, lk.args, lk.kwargs, lk.item, lk.group, tuple(v.shape))
        lk.idx = idx.reshape(v.shape)
        idx = lk.idx
    where = None
    flat = None
    grad = modes.grad_enabled
    for w in others:
        wl = w._view
        widx = _positions(wl)
        if widx is None:  # a copy after all
            _unlink(w)
            continue
        if where is None:  # the element of t at each position of the data, -1 where t has none
            where = np.full(int(max(idx.max(initial=-1), 0)) + 1 if idx.size else 0, -1, np.int64)
            where[idx.ravel()] = np.arange(idx.size)
        wr = widx.ravel()
        inside = wr < where.size
        m = np.full(wr.shape, -1, np.int64)
        m[inside] = where[wr[inside]]
        hit = m >= 0
        if not hit.any():
            continue
        # a Tensor with a history (a result, not a leaf) takes the write's history with its new values, so that its
        # gradient follows them (Paddle moves the values only, and its gradients through such a Tensor are then
        # those of its old values: silently wrong); a leaf's data is edited as Paddle edits it (it stays a leaf).
        # Data shared through ``detach()`` (``x.data``) is shared outside autograd: a write there moves the values
        # only and leaves the other's history as it was, as in Paddle (and as ``detach`` asks)
        keep = w._e is not None and _through_detach(lk, wl)
        track = grad and w._e is not None and not keep
        with grad_mode(track):
            if flat is None or (track and flat._e is None and t._e is not None):
                flat = apply_op(_RESHAPE, (t, [-1]))
            if hit.all() and not track:
                nv = apply_op(_GETITEM, (flat, [Tensor(put(m.reshape(widx.shape)))], (TENSOR,)))
            else:  # (a tracked Tensor always through setitem: its old history gets the zero gradient it has now)
                pos = np.nonzero(hit)[0]
                part = apply_op(_GETITEM, (flat, [Tensor(put(m[pos]))], (TENSOR,)))
                nv = apply_op(_SETITEM, (apply_op(_RESHAPE, (w, [-1])), [Tensor(put(pos))], part, (TENSOR,)))
                nv = apply_op(_RESHAPE, (nv, list(widx.shape)))
        before_write(w)
        w._v = nv._v
        if track and nv._e is not None:
            w._edge = nv._edge
        grad_written(w)


def reach(tensors: Any) -> None:
    """After ``tensors`` were rebound to new values of the same shape and dtype outside ``inplace_assign`` (an
    optimizer's update, a compiled training step's write-back): their views made before see the new values, as
    Paddle's views of the same memory do (most Tensors have none: a look at one slot each)."""
    for t in tensors:
        if getattr(t, "_view", None) is not None:
            written(t, tuple(t._v.shape), t._v.dtype)


def is_contiguous(t: Tensor) -> bool:
    """Whether ``t``'s elements lie one after another in row-major order in the data it shares (Paddle's
    ``is_contiguous``): True for a Tensor that is no view, a reshape of one, a slice of leading rows; False for
    ``x.T``, ``x[:, 1:]``, a strided slice."""
    lk = getattr(t, "_view", None)
    if lk is None:
        return True
    p = _positions(lk)
    return p is None or _contiguous(p)


def _is_contiguous(self: Tensor) -> bool:
    """Whether the elements lie one after another in row-major order in the data this Tensor shares (False for
    ``x.T``, ``x[:, 1:]``, a strided slice), as Paddle's."""
    return is_contiguous(self)


def _contiguous_tensor(self: Tensor) -> Tensor:
    """This Tensor where its elements lie contiguously, else a copy of it that shares no data (its gradient flows
    back to this one), as Paddle's ``contiguous``."""
    return self if is_contiguous(self) else apply_op(TABLE["clone"], (self,))


def _detach(self: Tensor) -> Tensor:
    """A new leaf with stop_gradient=True sharing the data: a view, as in Paddle (a write to either reaches the
    other); it keeps ``persistable`` (a detached parameter, a ``state_dict`` entry, is persistable)."""
    t = Tensor(self._v)
    t.persistable = self.persistable
    return link(t, self)


_set_value = Tensor._set_value


def _set_value_of_view(self: Tensor, value: Any) -> Tensor:
    vw = getattr(self, "_view", None)
    if vw is None:
        return _set_value(self, value)
    check_write(self, "Tensor.set_value")
    before = (tuple(self._v.shape), self._v.dtype)
    _set_value(self, value)
    written(self, *before)
    return self


_set_value_of_view.__doc__ = _set_value.__doc__  # (``set_value`` checks its value, then writes through this)
Tensor.detach = _detach  # type: ignore[method-assign]
Tensor.is_contiguous = _is_contiguous  # type: ignore[attr-defined]
Tensor.contiguous = _contiguous_tensor  # type: ignore[attr-defined]
Tensor._set_value = _set_value_of_view  # type: ignore[method-assign]
