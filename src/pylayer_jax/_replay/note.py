"""Taking the note of a step that may repeat (``_replay.follow`` follows it in the steps after).

Layer L5, beside ``_replay.follow``. While a step runs normally, each op that makes a tape node
(``note_op``) and each ``PyLayer.apply`` (``note_layer``) becomes an event: what must match
next time and the buffer calls it recorded. ``backward_mark``/``note_backward`` around the
normal ``backward()`` note its calls, the leaves' gradients it wrote, and for each PyLayer's
backward (``callout_begin``/``callout_end``) where it ran between those calls and what the walk
held then. A note that cannot say what the next step must repeat is dropped (``abort``).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

import jax

from .._autograd.graph import OpNode
from .._autograd.saved import SavedValue
from .._exec import deferred as lazy
from .._exec.deferred import Pending
from .._runtime.state import modes
from .._tensor.facade import Tensor
from .follow import (
    _NO,
    _SCALARS,
    ARRAY,
    AT_START,
    BEGIN,
    IN_STEP,
    MAX_EVENTS,
    OFF,
    OUTSIDE,
    SCALAR,
    THROUGH,
    Backward,
    BackwardMark,
    Callout,
    CalloutNote,
    CalloutStart,
    Event,
    Inner,
    LayerEvent,
    LeafNote,
    Mark,
    Plan,
    Segment,
    Src,
    Waiting,
    _ArrayImpl,
    _aval,
    _current_buf,
    _first_with,
    _grad_state,
    _no_node,
    _same_state,
    _tls,
    abort,
)


def mark() -> Mark:
    """The buffer's state before an op that may be noted."""
    buf = lazy._buffer()  # the buffer the op records into
    n_calls, n_refs, n_ext = buf.size()
    return Mark(buf, n_calls, n_ext, n_refs)


class InnerMark:
    """The token of an op inside the user code of an apply or PyLayer backward being noted (``note_inner``)."""

    __slots__ = ("mark",)

    def __init__(self, mark: Mark) -> None:
        self.mark = mark


def inner_mark() -> InnerMark:
    """The buffer's state before an op inside the forward of the apply being noted, or inside the PyLayer
    backward being noted."""
    return InnerMark(mark())


def note_inner(before: Mark, op: Any, key: tuple, leaves: Sequence[Any], arrays: Sequence[Any], out: Any) -> None:
    """Note an op of user code inside a noted apply or PyLayer backward: one call, one result, no node. One that
    cannot be noted so ends the noting of that user code's ops (its calls are still noted whole)."""
    s = _tls.s
    inner = s.rec_inner
    if inner is None:
        return
    buf0, nc, ne, nr = before
    buf = _current_buf()
    if (buf is not buf0 or buf is None or buf.done or type(out) is not Pending or out.buf is not buf
            or out.idx != nr or len(buf.calls) != nc + 1 or len(buf.refs) != nr + 1 or modes.saved_hooks
            or len(inner) >= MAX_EVENTS):
        s.rec_inner = None
        return
    call = buf.calls[nc]
    srcs = []
    for i, t in enumerate(leaves):
        r = call[2][i]
        if r >= 0:
            srcs.append((IN_STEP, r, None))
            continue
        j = -1 - r
        a = arrays[i]
        if type(a) in _SCALARS and a is t:
            srcs.append((SCALAR, j, type(a)))
        elif type(a) is _ArrayImpl or type(a) is Pending:
            srcs.append((OUTSIDE, j, buf.ext_avals[j]))
        else:
            s.rec_inner = None
            return
    inner.append(Inner(op, key, tuple(srcs), call, nr, nc, out.aval))


def _checked_inner(inner: list | None, calls: tuple, nc: int, nr: int) -> tuple | None:
    """The noted ops of user code that recorded ``calls`` (from the buffer's ``nc`` calls and ``nr`` results on), if
    they are exactly those calls, one result each; else None."""
    if not inner or len(inner) != len(calls):
        return None
    for k, (ie, c) in enumerate(zip(inner, calls)):
        if ie.call is not c or ie.n_calls != nc + k or ie.slot != nr + k:
            return None
    return tuple(inner)


def plain_mark() -> Mark | None:
    """The buffer's state before an op that makes no node, where it may be noted: inside a note being taken,
    outside a PyLayer's forward and before the step's ``backward()`` (a plain op never begins a note)."""
    s = _tls.s
    if s.rec is None or s.rec_co is not None or modes.pylayer_forward_ctx:
        return None
    return mark()


def note_op(before: Mark, op: Any, key: tuple, leaves: Sequence[Any], leaf_param: Any, arrays: Sequence[Any],
            needs: tuple | None, out: Any, node: OpNode | None) -> None:
    """Note an op that normal dispatch just ran and recorded: one that gave a node, or a plain one (``node``
    None, ``needs`` None: no node, one result)."""
    buf0, nc, ne, nr = before
    buf = _current_buf()
    # a read from another thread may run the buffer at any moment, which empties it: read its new calls once,
    # and give up on a buffer that has run
    calls = None if buf is None else buf.calls_since(nc)
    out_tree = None
    if type(out) is Pending:
        aval, n_out, ok = out.aval, 1, out.buf is buf
    else:  # several outputs, each a result of this call in order
        outs, out_tree = jax.tree_util.tree_flatten(out)
        aval, n_out = tuple([getattr(o, "aval", None) for o in outs]), len(outs)
        ok = n_out > 0 and all(
            type(o) is Pending and o.buf is buf and o.idx == nr + j for j, o in enumerate(outs))
    if (buf is None or buf is not buf0 or buf.done or not ok
            or len(calls) != 1 or buf.size()[1] != nr + n_out or (node is None) != (needs is None)
            or modes.saved_hooks):  # a packed saved value is not replayed
        abort()
        return
    if not _open_note(buf, nc, ne, nr):
        return
    call = calls[0]
    srcs = []
    for i, t in enumerate(leaves):
        r = call[2][i]
        src = None
        if type(t) is Tensor or isinstance(t, Tensor):  # a Parameter too
            need = needs is not None and needs[i]
            src = _src(t, need, r, None, -1) if r >= 0 else _src(t, need, None, arrays[i], -1 - r)
        elif type(t) in _SCALARS and r < 0 and (needs is None or not needs[i]) and arrays[i] is t:
            # a Python number: a buffer input
            src = Src(SCALAR, -1 - r, True, -1, type(t))
        elif type(t) is _ArrayImpl and r < 0 and arrays[i] is t:  # a jax array: a buffer input of its shape and dtype
            src = Src(ARRAY, -1 - r, True, -1, _aval(t))
        if src is None:
            abort()
            return
        srcs.append(src)
    _add_event(Event(op, key, tuple(srcs), needs, call, nr, aval, node, leaf_param, modes.grad_enabled, out_tree),
               nr, node, nr + n_out, None if out_tree is None else n_out)


def note_layer(before: Mark, cls: type, inputs: Sequence[Any], needs: Sequence[bool], out: Any, node: Any) -> None:
    """Note a ``PyLayer.apply`` that ran normally: positional Tensors in, no saved hooks, and out one fresh Tensor
    (perhaps marked non-differentiable), a list of them, or one of its inputs (``_note_through``)."""
    buf0, nc, ne, nr = before
    buf = _current_buf()
    s = _tls.s
    inner, s.rec_inner = s.rec_inner, None
    if type(out) is not list and not _fresh(out, inputs):
        _note_through(before, cls, inputs, needs, out, node, inner)
        return
    outs = out if type(out) is list else [out]  # (a list: several fresh output Tensors)
    vs = [o._v for o in outs]
    if (buf is None or buf is not buf0 or buf.done or modes.saved_hooks or len({id(v) for v in vs}) != len(vs)
            or any(type(v) is not Pending or v.buf is not buf or v.array is not None or v.idx < nr for v in vs)):
        abort()
        return
    if not _open_note(buf, nc, ne, nr):
        return
    srcs = []
    for t, need in zip(inputs, needs):
        w = t._v
        src = None
        if t.stop_gradient != need:  # (forward did not change it)
            if type(w) is Pending and w.buf is buf and w.array is None:
                src = _src(t, need, w.idx, None, -1)
            else:  # forward enters the array into the buffer where it uses it
                src = _src(t, need, None, w, -1)
        if src is None:
            abort()
            return
        srcs.append(src)
    n_refs = buf.size()[1]
    if type(out) is list:
        ev = LayerEvent(cls, tuple(srcs), tuple(needs), buf.calls_since(nc), buf.input_avals_since(ne),
                        n_refs - nr, (nc, ne, nr), tuple([v.idx for v in vs]), tuple([v.aval for v in vs]), len(vs))
        ev.inner = _checked_inner(inner, ev.calls, nc, nr)
        if node.non_diff:
            ev.non_diff = frozenset(node.non_diff)
        _add_event(ev, None, node, n_refs, [v.idx for v in vs])
        return
    v = vs[0]
    ev = LayerEvent(cls, tuple(srcs), tuple(needs), buf.calls_since(nc), buf.input_avals_since(ne),
                    n_refs - nr, (nc, ne, nr), v.idx, v.aval)
    ev.inner = _checked_inner(inner, ev.calls, nc, nr)
    if node.non_diff:  # its one output marked non-differentiable: no edge to the node, whose backward never runs
        if out._e is not None or not out.stop_gradient:
            abort()
            return
        ev.non_diff = frozenset(node.non_diff)
    _add_event(ev, v.idx, node, n_refs)


def _fresh(out: Any, inputs: Sequence[Any]) -> bool:
    """Whether the one output Tensor ``out`` is none of ``inputs`` and shares none of their values."""
    v = out._v
    for t in inputs:
        if t is out or t._v is v:
            return False
    return True


def _note_through(before: Mark, cls: type, inputs: Sequence[Any], needs: Sequence[bool], out: Any, node: Any,
                  inner: list | None) -> None:
    """Note an apply whose one output is one of its inputs (an identity, a straight-through estimator): the input
    Tensor itself, which wiring rewired to the node in place, or a new Tensor sharing its value (the input marked
    with ``mark_not_inplace``). A later op reading the output is noted with a ``THROUGH`` source (``_through_src``).
    Not noted: an input that needs no gradient, an output marked non-differentiable, and an input rewired in place
    that an earlier op of the note saved (its backward checks the version the rewiring bumps)."""
    buf0, nc, ne, nr = before
    buf = _current_buf()
    in_place = _first_with(inputs, out, True) >= 0
    i = _first_with(inputs, out, in_place)
    if (buf is None or buf is not buf0 or buf.done or modes.saved_hooks or node.non_diff or i < 0 or not needs[i]
            or out.stop_gradient or type(out._e) is not tuple or out._e[0] is not node or out._e[1] != 0):
        abort()
        return
    if in_place and _saved_by_note(out):
        abort()
        return
    if not _open_note(buf, nc, ne, nr):
        return
    srcs = []
    for n, (t, need) in enumerate(zip(inputs, needs)):
        w = t._v
        src = None
        e = node.next_edges[n] if t is out and in_place else t._e  # (the rewired input's edge before forward)
        if t.stop_gradient != need or t is out and in_place:
            if type(w) is Pending and w.buf is buf and w.array is None:
                src = _src(t, need, w.idx, None, -1, e)
            else:
                src = _src(t, need, None, w, -1, e)
        if src is None:
            abort()
            return
        srcs.append(src)
    n_refs = buf.size()[1]
    ev = LayerEvent(cls, tuple(srcs), tuple(needs), buf.calls_since(nc), buf.input_avals_since(ne),
                    n_refs - nr, (nc, ne, nr), None, None)
    ev.inner = _checked_inner(inner, ev.calls, nc, nr)
    ev.through = (i, in_place)
    _add_event(ev, None, node, n_refs, ())  # (no slot of its own: a reader's source says whose value it is)


def _saved_by_note(t: Any) -> bool:
    """Whether a node of the note being taken saved Tensor ``t`` with its version (an in-place write of ``t``
    makes that node's backward fail)."""
    c = t._counter
    if c is None:
        return False
    for ref in _tls.s.rec_nodes:
        n = ref()
        for sv in getattr(n, "saved_leaves", None) or ():
            if type(sv) is SavedValue and sv.counter is c:
                return True
    return False


def _open_note(buf: Any, nc: int, ne: int, nr: int) -> bool:
    """Whether the event beginning at this buffer state goes into a note (begun now if the step begins here)."""
    s = _tls.s
    if s.rec is None:
        if s.pos is not BEGIN or s.step is not None:
            return False
        s.pos = OFF
        # one assignment, the list last: an interrupt leaves no note begun with another note's start
        start = (buf.calls_since(0)[:nc], buf.input_avals_since(0)[:ne], nr)
        s.rec_buf, s.rec_start, s.rec_end, s.rec = buf, start, nr, []
        return True
    if buf is not s.rec_buf or nr != s.rec_end or len(s.rec) >= MAX_EVENTS:
        abort()
        return False
    return True


def _src(t: Any, need: bool, r: int | None, v: Any, ext_idx: int, e: Any = _NO) -> Src | None:
    """Where input ``t`` of a noted event comes from: buffer slot ``r``, or else the outside array ``v`` (buffer
    input ``ext_idx``); None when the note cannot say (the step is not noted further). ``e``: its edge, if not
    the one it has now."""
    s = _tls.s
    sg = t.stop_gradient
    if e is _NO:
        e = t._e
    n_leaf = -1
    if need and e is None:  # a leaf the event sends a gradient to: numbered in order of first use
        n_leaf = s.rec_leaf_ids.get(id(t), -1)
        if n_leaf >= 0 and s.rec_leaves[n_leaf]() is not t:  # an earlier leaf died and its id came back
            return None
        if n_leaf < 0:
            n_leaf = s.rec_leaf_ids[id(t)] = len(s.rec_leaves)
            s.rec_leaves.append(weakref.ref(t))
    if r is not None:
        k = s.rec_slots.get(r)
        if k is not None:
            j = None
            if type(k) is tuple:  # output j of an op with several outputs
                k, j = k
            if not sg and (e is None or e[0] is not s.rec_nodes[k]() or e[1] != (j or 0)):
                return _through_src(e, sg, r, None, -1)
            return Src(IN_STEP, r, sg, k, j)
        if r < s.rec_start[2] and (e is None or sg):
            return Src(AT_START, r, sg, n_leaf, None)
        return _through_src(e, sg, r, None, -1)
    if type(v) is Pending:
        v = v.array
    if type(v) is not _ArrayImpl or (e is not None and not sg):
        return _through_src(e, sg, None, v, ext_idx)
    return Src(OUTSIDE, ext_idx, sg, n_leaf, _aval(v))


def _through_src(e: Any, sg: bool, r: int | None, v: Any, ext_idx: int) -> Src | None:
    """The source of an input with edge ``e`` that is the output of a noted apply returning one of its inputs
    (``_note_through``), whose value is in buffer slot ``r`` or is the array ``v`` (buffer input ``ext_idx``); None
    if it is not one."""
    s = _tls.s
    if e is None or sg or e[1] != 0:
        return None
    k = s.rec_node_idx.get(id(e[0]))
    if k is None or s.rec_nodes[k]() is not e[0]:
        return None
    ev = s.rec[k]
    if type(ev) is not LayerEvent or ev.through is None:
        return None
    src = ev.srcs[ev.through[0]]  # where the apply's input came from: the same value
    slot = src.index if src.kind in (IN_STEP, AT_START) or (src.kind == THROUGH and src.aval[1] is None) else None
    if r is not None:
        return Src(THROUGH, r, False, -1, (k, None)) if r == slot else None
    if slot is not None or type(v) is not _ArrayImpl:
        return None
    return Src(THROUGH, ext_idx, False, -1, (k, _aval(v)))


def _add_event(ev: Any, out_slot: int | None, node: Any, end: int, n_out: Any = None) -> None:
    """Add ``ev`` to the note: its result in ``out_slot``; several results: ``n_out`` of them in the slots from
    ``out_slot`` on, or (a list) in those slots."""
    s = _tls.s
    try:
        k = len(s.rec)
        if n_out is None:
            s.rec_slots[out_slot] = k
        else:
            for j, slot in enumerate(range(out_slot, out_slot + n_out) if type(n_out) is int else n_out):
                s.rec_slots[slot] = (k, j)
        if node is None:
            s.rec_nodes.append(_no_node)
        else:
            s.rec_node_idx[id(node)] = len(s.rec)
            s.rec_nodes.append(weakref.ref(node))
        s.rec.append(ev)
        s.rec_end = end
    except BaseException:  # interrupted with the event half noted: no note of this step
        abort()
        raise


def backward_mark(t: Any) -> BackwardMark | None:
    """Before a normal ``backward()`` from ``t``: what the note needs of the moment, or None (not noted)."""
    s = _tls.s
    if s.rec is None:
        return None
    buf = s.rec_buf
    e = t._e
    root = None if e is None else s.rec_node_idx.get(id(e[0]))
    if (root is None or s.rec_nodes[root]() is not e[0] or t.stop_gradient or _current_buf() is not buf or buf.done
            or buf.size()[1] != s.rec_end):
        return None
    for ref in s.rec_nodes:
        node = ref()
        if node is not None and (node.pre_hooks or node.released):
            return None
    states = []
    for ref in s.rec_leaves:
        leaf = ref()
        if leaf is None:  # a leaf the step used is gone: nothing to follow
            return None
        acc = leaf._acc
        if acc.pre_hooks:
            return None
        g = _grad_state(acc.grad, buf)
        if g is _NO:
            return None
        states.append(g)
    n_calls, n_refs, n_ext = buf.size()
    s.rec_co = []
    s.rec_bwd_refs = n_refs
    return BackwardMark(root, n_calls, n_ext, n_refs, states)


def callout_begin(node: Any, cts: Sequence[Any], walk: Any) -> tuple[CalloutStart, list] | None:
    """A PyLayer's backward is about to run inside the ``backward()`` being noted (``walk``: the engine's running
    walk): what the note needs of it."""
    s = _tls.s
    buf = s.rec_buf
    k = s.rec_node_idx.get(id(node))
    if k is None or s.rec_nodes[k]() is not node or _current_buf() is not buf or buf.done:
        s.rec_co = None
        return None
    cs = []
    for c in cts:  # each gradient it receives is a result of this backward's calls, or None (an output not used)
        if c is None:
            cs.append((-1, None))
            continue
        if type(c) is not Pending or c.buf is not buf or c.array is not None:
            s.rec_co = None
            return None
        cs.append((c.idx, c.aval))
    # what the walk has done by now and holds (a replayed step may have to go on from here): the nodes it has
    # run (freed), the leaves whose gradients it has stored, the gradients waiting for the nodes still to run,
    # and those nodes in its order
    freed = tuple([j for j, ref in enumerate(s.rec_nodes) if (n := ref()) is not None and n.released])
    accs = {}
    reached = []
    for n, ref in enumerate(s.rec_leaves):
        leaf = ref()
        acc = None if leaf is None else leaf._acc
        if acc is not None:
            accs[id(acc)] = n
            g = acc.grad
            if type(g) is Pending and g.buf is buf and g.array is None and g.idx >= s.rec_bwd_refs:
                reached.append(n)
    pending = []
    for nid, gs in (walk.grads if walk is not None else {}).items():
        where = _where(nid, accs)
        if where is None:  # a node outside the noted step
            s.rec_co = None
            return None
        for oj, g in enumerate(gs):
            if g is None:
                continue
            if type(g) is not Pending or g.buf is not buf or g.array is not None:
                s.rec_co = None
                return None
            pending.append(Waiting(*where, oj, g.idx, g.aval))
    rest = [_where(id(nd), accs) for nd in (walk.rev[walk.i:] if walk is not None else [])]
    if None in rest:
        s.rec_co = None
        return None
    n_calls, n_refs, n_ext = buf.size()
    s.rec_inner = []  # its ops (``note_inner``)
    return CalloutStart(k, tuple(cs), n_calls, n_refs, n_ext, freed, tuple(pending), tuple(reached),
                        tuple(rest)), _leaf_state()


def _where(nid: int, accs: dict[int, int]) -> tuple[int, int] | None:
    """A node of the noted step by id: (0, its event) or (1, the leaf it accumulates into); None if not one."""
    s = _tls.s
    j = s.rec_node_idx.get(nid)
    if j is not None and id(s.rec_nodes[j]()) == nid:
        return (0, j)
    n = accs.get(nid)
    return None if n is None else (1, n)


def _leaf_state() -> list:
    """The noted step's leaves' gradients and hooks (a PyLayer's backward must not change them in a noted step:
    the note keeps which leaves the backward wrote from what they hold at its end)."""
    state = []
    for ref in _tls.s.rec_leaves:
        leaf = ref()
        acc = None if leaf is None else leaf._acc
        state.append(None if acc is None else (acc.grad, bool(acc.pre_hooks)))
    return state


def callout_end(co: tuple[CalloutStart, list], grads: Sequence[Any]) -> None:
    """The PyLayer's backward returned ``grads`` (one per input: None, or an array to pass on)."""
    s = _tls.s
    buf = s.rec_buf
    co, before = co
    inner, s.rec_inner = s.rec_inner, None
    if s.rec_co is None or _current_buf() is not buf or buf.done or not _same_leaf_state(before, _leaf_state()):
        s.rec_co = None
        return
    slots = []
    for g in grads:
        if g is None:
            slots.append(-1)
        elif type(g) is Pending and g.buf is buf and g.array is None:
            slots.append(g.idx)
        else:  # an array computed at once, or a result of an earlier run: not a slot of this step
            s.rec_co = None
            return
    n_calls, n_refs, n_ext = buf.size()
    s.rec_co.append(CalloutNote(co, n_calls, n_refs, n_ext, tuple(slots),
                                _checked_inner(inner, buf.calls_since(co.c0), co.c0, co.r0)))


def _same_leaf_state(a: list, b: list) -> bool:
    return len(a) == len(b) and all(x is y or (x is not None and y is not None and x[0] is y[0] and x[1] == y[1])
                                    for x, y in zip(a, b))


def note_backward(before: BackwardMark) -> None:
    """After the normal ``backward()`` (before its flush): finish the note; the next step follows it."""
    buf = _tls.s.rec_buf
    if buf is None:
        return
    # under the buffer's lock: a read from another thread that ran the buffer meanwhile would empty its lists
    # between the note's reads of them (a note with calls and results that do not match)
    lock = buf.lock
    lock.acquire()
    try:
        _note_backward(before)
    finally:
        lock.release()


def _note_backward(before: BackwardMark) -> None:
    s = _tls.s
    root, nc, ne, nr, states = before
    buf = s.rec_buf
    if s.rec is None or _current_buf() is not buf or buf.done:
        return
    reached = {root}  # the ops that lead to the root (a replayed backward frees them all)
    for k in range(root, -1, -1):
        if k in reached:
            ev = s.rec[k]
            for src, need in zip(ev.srcs, ev.needs):
                if need and src.kind == IN_STEP:
                    reached.add(src.ref)
                elif need and src.kind == THROUGH:
                    reached.add(src.aval[0])
    # an op that does not lead to the root (an LSTM's last states, say) keeps its node unfreed: a replayed step
    # builds it when its backward ends; a PyLayer's must have run its backward
    unreached = []
    for k, (ev, ref) in enumerate(zip(s.rec, s.rec_nodes)):
        node = ref()
        if k in reached:
            if node is not None and not node.released:  # a backward without retain_graph frees every node it ran
                return
        elif type(ev) is LayerEvent:
            if _differentiable(ev):  # (an apply whose outputs are all marked non-differentiable: nothing reaches it)
                return
        elif ev.needs is not None:  # (a plain event made no node)
            if node is not None and node.released:
                return
            unreached.append(k)
    leaves = []
    written = set()
    entered = set()
    for ref, g0 in zip(s.rec_leaves, states):
        leaf = ref()
        if leaf is None:
            return
        acc = leaf._acc
        before = g0
        if type(g0) is _ArrayImpl:  # an array gradient: the buffer input it became, if this backward read it
            j = buf.input_index(g0)
            before = (j, _aval(g0))
            if j is not None:
                entered.add(j)
        g = acc.grad
        if type(g) is Pending and g.buf is buf and g.idx >= nr and g.array is None:
            leaves.append(LeafNote(before, g.idx, g.aval))
            written.add(g.idx)
        elif _same_state(_grad_state(g, buf), g0) and (type(g0) is not _ArrayImpl or before[0] is None):
            leaves.append(LeafNote(before, -1, None))  # not reached by this backward
        else:
            return
    parts = _split_at_callouts(s.rec, s.rec_co, buf, nc, ne, nr)
    if parts is None:
        return
    segs, callouts, ext_tail = parts
    # every new buffer input is a PyLayer backward's or, after the last of them, a leaf's gradient
    _, n_refs, n_ext = buf.size()
    if not set(range(ext_tail, n_ext)) <= entered or any(j < ext_tail for j in entered):
        return
    for j in range(nr, n_refs):
        if j not in written and buf.result_held(j):  # something else holds a backward result
            return
    bwd = Backward(root, nc, ne, nr, buf.calls_since(nc), n_refs - nr, tuple(leaves), n_ext, segs, callouts, ext_tail)
    s.plan = Plan(s.rec_start, tuple(s.rec), bwd, tuple(s.rec_leaves), tuple(unreached))


def _differentiable(ev: LayerEvent) -> bool:
    """Whether some output of a noted apply is not marked non-differentiable (its backward may run)."""
    return len(ev.non_diff) < (1 if ev.out_tree is None else ev.out_tree)


def _split_at_callouts(events: list, co: list | None, buf: Any, nc: int, ne: int, nr: int) -> tuple | None:
    """(segments, callouts, buffer inputs before the leaves' gradients) of a noted backward; None if it cannot be
    replayed (a PyLayer backward the note could not follow, buffer inputs entered outside the callouts)."""
    n_layers = sum(type(ev) is LayerEvent and _differentiable(ev) for ev in events)
    if co is None or len(co) != n_layers:  # every apply's backward ran once, and was noted
        return None
    if not co:
        return (), (), ne
    segs, callouts = [], []
    pc, pr, pe = nc, nr, ne
    all_calls, all_avals = buf.calls_since(0), buf.input_avals_since(0)
    for c in co:
        b = c.start
        if type(events[b.k]) is not LayerEvent or b.e0 != pe or b.c0 < pc:
            return None
        segs.append(Segment(all_calls[pc:b.c0], b.r0 - pr))
        callout = Callout(b.k, b.cts, all_calls[b.c0:c.c1], all_avals[b.e0:c.e1], c.r1 - b.r0, b.e0, c.grads,
                          b.freed, b.pending, b.reached, b.rest)
        callout.inner = c.inner
        callouts.append(callout)
        pc, pr, pe = c.c1, c.r1, c.e1
    segs.append(Segment(all_calls[pc:], buf.size()[1] - pr))
    return tuple(segs), tuple(callouts), pe
