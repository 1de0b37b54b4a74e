"""Replaying a repeated eager step without rebuilding its tape.

Layer L5, above the Tensor layer: the core never calls it, ``_replay.events`` hands it the core's step
events (``_tensor.step_events``). A training loop runs the same step
again and again: the same ops on the same kinds of inputs, then ``backward()``. While a step
runs normally it is *noted* (``_replay.note``): for each op that made a tape node, the op and its
attributes, where each input came from (an earlier op of the step, a result the buffer held
when the step began, an outside array of some shape and dtype, or the output of an apply whose
forward returned one of its inputs, which holds that input's value) and the call it recorded into
the deferred buffer (``_exec.deferred``); for each ``PyLayer.apply``, the same of its inputs and the calls
its forward recorded; then the calls ``backward()`` recorded, which leaves' gradients they wrote,
and where between those calls each PyLayer's backward ran.

The next step *follows* the note. An op that matches it (same op and attributes, inputs from
the same places, the same leaf Tensors, grad mode on, no saved-tensor hooks, the buffer in the
noted state) appends the noted call to the buffer and returns its Tensor with the *stub* edge
``(step, event index)`` where ``(node, 0)`` would be: no shape inference, no node, no saved
values. A PyLayer's forward is the user's code and runs every step; it must record the noted
calls, and its output gets a stub edge too. ``backward()`` on the noted root, with the leaves'
gradients in the noted state and no hooks anywhere, appends the noted backward calls and stores
the leaves' new gradients without walking a tape; each PyLayer's backward runs where the walk
ran it, on the state the walk had made by then, and must record the noted calls. The buffer
then runs as always, so the step computes exactly what normal dispatch computes (the same
calls, the same program). A replayed backward frees exactly what the normal one frees: the nodes of
the ops that lead to the loss; an op that does not (an LSTM's last states) gets its node, unfreed, when
the replayed backward ends. An op that records a call but makes no node (a comparison, an op on
constants) is a *plain* event of the note, followed like the others.

Anything else first *materialises* the step: the tape nodes of the ops replayed so far are
built as normal dispatch builds them and replace the stubs; the step goes on normally. That
covers another op or input, buffer activity the note does not have (a value read that runs
the buffer, an op without a node), any read of a stub's history (the Tensor's ``_edge``
property: ``register_hook``, ``paddle.grad``), and any write that rebinds a Tensor's array or
bumps its version, from any thread (``mark_write``): the nodes then save the arrays and
versions the ops saw. Inside a PyLayer's backward the tape is built as the walk has left it
there, and the walk goes on from the gradients it held (the PyLayer's results are reused: the
user's backward runs once per step). A step that diverged drops the note; the next one is noted
afresh, but for an op off the note: the step is noted from there on, its first events the very ones of the note it
left, which stays among the thread's kept notes (``MAX_PLANS``). A step begins following the kept note its buffer
and first op match (``_begin``), and an op off that note goes on with another kept note that has the same events
before it and this op next (``_switch``): steps in turn that part midway (a GAN's discriminator and generator
steps) each replay. What a replayed op or backward adds to the buffer (calls, inputs, results, the leaves'
gradients) goes in whole or not at all: an interrupt halfway takes it out again, and the next op
leaves the note. Set ``PYLAYER_JAX_REPLAY=0`` to turn replay off.
"""

from __future__ import annotations

import enum
import os
import threading
import weakref
from collections.abc import Sequence
from typing import Any, NamedTuple

import jax

from .._autograd.engine import walk_on
from .._autograd.graph import ZEROED, OpNode
from .._exec import deferred as lazy
from .._exec.deferred import Pending
from .._runtime import dtypes as _dtypes
from .._runtime.state import grad_mode, modes
from .._tensor.dispatch import make_node
from .._tensor.facade import EAGER_TYPES, Tensor
from .._tensor.facade import result as _result
from .._tensor.step_events import Stub

ENABLED = os.environ.get("PYLAYER_JAX_REPLAY", "1") != "0"
MAX_EVENTS = 256  # a longer step is not noted
# steps whose backward was replayed, and replayed steps that had to build their tape (for tests and tuning)
STATS = {"steps": 0, "materialised": 0}
# the steps being replayed, in every thread (a write from any thread materialises them), weakly: a step its thread
# left halfway (the thread ended) goes with its tensors
_LIVE: dict[int, Any] = {}

_ArrayImpl = lazy._ArrayImpl
_wref = weakref.ref
# kinds of input source in a note
IN_STEP, AT_START, OUTSIDE, SCALAR, ARRAY, THROUGH = 0, 1, 2, 3, 4, 5
_SCALARS = (bool, int, float, complex)  # a Python number where a Tensor goes: a weakly typed buffer input


# ---- records of a note ---------------------------------------------------------------------------
class Src(NamedTuple):
    """Where an input of a noted event comes from."""

    # IN_STEP, AT_START, OUTSIDE, SCALAR, ARRAY (a jax array passed as it is: a dropout's key) or THROUGH (the output
    # of an apply whose forward returned one of its inputs: its value is that input's)
    kind: int
    # IN_STEP, AT_START: the buffer slot; OUTSIDE, SCALAR, ARRAY: the buffer input's index; THROUGH: either, as its
    # aval says
    index: int
    stop_gradient: bool
    # IN_STEP: the event that made it; AT_START, OUTSIDE: the number of the step's leaf it sends a gradient to
    # (-1: none); SCALAR, THROUGH: -1
    ref: int
    # OUTSIDE, ARRAY: its (shape, dtype, weak_type); SCALAR: its Python type (any value of it replays); IN_STEP:
    # None, or which output of an op with several outputs it is; THROUGH: (the apply's event, None) for a value in
    # buffer slot ``index``, (the apply's event, (shape, dtype, weak_type)) for an array entered as buffer input
    # ``index``
    aval: Any


class Mark(NamedTuple):
    """The buffer and its size before an event that may be noted."""

    buf: Any
    n_calls: int
    n_ext: int
    n_refs: int


class BackwardMark(NamedTuple):
    """What a noted ``backward()`` needs of the moment it began."""

    root: int  # the event whose result it runs from
    n_calls: int
    n_ext: int
    n_refs: int
    states: list  # the leaves' gradients then (``_grad_state``)


class Waiting(NamedTuple):
    """A gradient the walk held for a node it had yet to run, when a PyLayer's backward began."""

    kind: int  # 0: an event's node; 1: a leaf's AccumulateGrad
    j: int  # the event or the leaf
    out: int  # the node's output it is for
    slot: int  # its buffer slot
    aval: tuple


class CalloutStart(NamedTuple):
    """A PyLayer's backward in a noted ``backward()``, when it began (see ``Callout`` for the fields)."""

    k: int
    cts: tuple
    c0: int  # the buffer's calls, results and inputs then
    r0: int
    e0: int
    freed: tuple
    pending: tuple
    reached: tuple
    rest: tuple


class CalloutNote(NamedTuple):
    """A PyLayer's backward in a noted ``backward()``: when it began, and when it returned what."""

    start: CalloutStart
    c1: int  # the buffer's calls, results and inputs when it returned
    r1: int
    e1: int
    grads: tuple  # per input: the slot of the gradient it returned, or -1 for None
    inner: tuple | None = None  # its calls as ``Inner`` events, or None


class LeafNote(NamedTuple):
    """A leaf of a noted step in its ``backward()``."""

    before: Any  # its gradient before: None (none or zeroed), a buffer slot, or (buffer input or None, aval)
    slot: int  # the slot of the gradient the backward wrote, or -1
    aval: Any


class Segment(NamedTuple):
    """Calls of a noted ``backward()`` before a PyLayer's backward, or after the last one."""

    calls: tuple
    n_new: int  # the results they make


class Event:
    """One noted op: what must match, and the buffer call it recorded.

    An op that made no tape node but recorded its call into the step's buffer (a comparison, an op on
    constants, an op under ``no_grad``) is an event too, a *plain* one (``needs`` None): it is followed the
    same way, and its result has no edge."""

    __slots__ = ("op", "key", "plain", "srcs", "n_in", "needs", "call", "slot", "aval", "node_avals", "out_avals",
                 "leaf_param", "grad", "out_tree", "match")

    def __init__(self, op: Any, key: tuple, srcs: tuple, needs: tuple | None, call: tuple, slot: int, aval: Any,
                 node: OpNode | None, leaf_param: Any, grad: bool, out_tree: Any = None) -> None:
        self.op = op
        self.key = key
        # a call of Tensors (or numbers) without attributes under this default dtype (compared without its key)
        self.plain = key[3] if key[0] is None and key[1] == () and key[2] == () else None
        self.srcs = srcs  # per input leaf, a ``Src``
        self.n_in = len(srcs)
        self.needs = needs
        self.call = call
        self.slot = slot  # the buffer slot of the result (the buffer held this many results before)
        self.aval = aval  # the result's aval; with several outputs, a tuple of them
        # None: one result; else the structure of several (the results are slots ``slot``, ``slot + 1``, ...)
        self.out_tree = out_tree
        self.node_avals = None if node is None else node.avals
        self.out_avals = None if node is None else node.out_avals
        self.leaf_param = leaf_param  # the parameter of each input leaf (None: one leaf per parameter)
        self.grad = grad  # grad mode at the call (True for an op that made a node)
        self.match: Any = self._first_match  # the check of its inputs (``_matcher``), made when first followed

    def _first_match(self, leaves: Sequence[Any], log: list, step: Step, buf: Any) -> Any:
        self.match = match = _matcher(self.srcs)
        return match(leaves, log, step, buf)


class LayerEvent:
    """One noted ``PyLayer.apply``: what must match before forward runs, and what forward must record.

    Forward itself runs every step (it is the user's code); the calls it records must be the noted ones.
    """

    __slots__ = ("cls", "srcs", "n_in", "needs", "calls", "ext_avals", "n_new", "slot", "n_calls", "n_ext",
                 "out_slot", "aval", "out_tree", "inner", "non_diff", "through", "at", "end")
    op = None  # an op never matches it

    def __init__(self, cls: type, srcs: tuple, needs: tuple, calls: tuple, ext_avals: tuple, n_new: int,
                 start: tuple, out_slot: Any, aval: Any, n_out: int | None = None) -> None:
        self.cls = cls
        self.srcs = srcs  # as an Event's (an outside input's ext index is -1: forward enters it where it uses it)
        self.n_in = len(srcs)
        self.needs = needs
        self.calls = calls  # the calls forward recorded, the buffer inputs it entered, the results it made
        self.ext_avals = ext_avals
        self.n_new = n_new
        self.n_calls, self.n_ext, self.slot = start  # the buffer's size before forward
        # the buffer's size (calls, results, inputs: ``size()``) before forward, and after it
        self.at = (self.n_calls, self.slot, self.n_ext)
        self.end = (self.n_calls + len(calls), self.slot + n_new, self.n_ext + len(ext_avals))
        self.out_slot = out_slot  # its output's slot and aval; with several outputs (``out_tree``), tuples of them
        self.aval = aval
        self.out_tree = n_out  # None: one output Tensor; else how many (a tuple or list of fresh Tensors)
        self.inner: tuple | None = None  # forward's calls as ``Inner`` events, where each was an op of its own
        # with several outputs: those forward marked non-differentiable (they get no stub edge, as wiring gives them
        # no edge), as the node's ``non_diff``
        self.non_diff: frozenset[int] = _NO_OUTPUTS
        # one output that is one of its inputs: (that input's index, True if it is the input Tensor itself, rewired in
        # place; False: a new Tensor sharing its value, the input marked with ``mark_not_inplace``); its output slot
        # and aval are then None
        self.through: tuple[int, bool] | None = None


_NO_OUTPUTS: frozenset[int] = frozenset()


class Callout:
    """A PyLayer's backward within a noted ``backward()``: the user's function runs, its calls must match."""

    __slots__ = ("k", "cts", "calls", "ext_avals", "n_new", "n_ext", "grads", "freed", "pending", "reached", "rest",
                 "inner", "at", "end")

    def __init__(self, k: int, cts: tuple, calls: tuple, ext_avals: tuple, n_new: int, n_ext: int,
                 grads: tuple, freed: tuple, pending: tuple, reached: tuple, rest: tuple) -> None:
        self.k = k  # the apply's event
        self.cts = cts  # per output: (slot, aval) of the gradient it receives; (-1, None): none (an output not used)
        self.calls, self.ext_avals, self.n_new = calls, ext_avals, n_new
        self.n_ext = n_ext  # buffer inputs before it
        self.grads = grads  # per input: the slot of the gradient it returns, or -1 for None
        self.freed = freed  # the events whose nodes the backward had freed when it began
        # what the walk held then, for the nodes it had yet to run: gradients, as (0, event, output, slot, aval) or
        # (1, leaf, 0, slot, aval); the leaves whose gradients it had stored; the nodes still to run, in its order,
        # as (0, event) or (1, leaf). A step that leaves its note here walks on from them
        self.pending = pending
        self.reached = reached
        self.rest = rest
        self.inner: tuple | None = None  # the backward's calls as ``Inner`` events (see ``LayerEvent.inner``)
        # the buffer's size (calls, results, inputs) before the calls that precede it, and when it returned (set by
        # ``Backward``, which knows those calls)
        self.at: tuple = ()
        self.end: tuple = ()


class Inner:
    """An op inside a PyLayer's forward or backward that recorded one call with one result (no node): a followed
    apply or callout appends the noted call for it, as normal dispatch would record it, without looking up its
    kernel and output shape. What the user code records is checked as a whole when it returns, as always: an op
    that does not match ends the following there (the rest dispatch normally)."""

    __slots__ = ("op", "plain", "key", "srcs", "n_in", "call", "slot", "n_calls", "aval", "match")

    def __init__(self, op: Any, key: tuple, srcs: tuple, call: tuple, slot: int, n_calls: int, aval: tuple) -> None:
        self.op = op
        self.key = key
        self.plain = key[3] if key[0] is None and key[1] == () and key[2] == () else None  # (as ``Event.plain``)
        self.srcs = srcs  # per input: (IN_STEP, slot, None), (OUTSIDE, buffer input, aval) or (SCALAR, input, type)
        self.n_in = len(srcs)
        self.call = call
        self.slot = slot  # the buffer's results and calls before it
        self.n_calls = n_calls
        self.aval = aval
        self.match: Any = self._first_match  # the check of its inputs (``_inner_matcher``), made when first followed

    def _first_match(self, leaves: Sequence[Any], buf: Any) -> Any:
        self.match = match = _inner_matcher(self.srcs)
        return match(leaves, buf)


class Backward:
    """A noted ``backward()``: its root, the buffer's size then, its calls and the leaves it wrote."""

    __slots__ = ("root", "n_calls", "n_ext", "n_refs", "calls", "n_new", "leaves", "n_ext_after", "segs",
                 "callouts", "ext_tail", "tail_at")

    def __init__(self, root: int, n_calls: int, n_ext: int, n_refs: int, calls: tuple, n_new: int,
                 leaves: tuple, n_ext_after: int, segs: tuple, callouts: tuple, ext_tail: int) -> None:
        self.root = root
        self.n_calls, self.n_ext, self.n_refs = n_calls, n_ext, n_refs
        self.calls = calls  # without PyLayers: all its calls, and the results they made
        self.n_new = n_new
        # with PyLayers: (calls, results) before each callout and after the last one
        self.segs = segs
        self.callouts = callouts
        self.ext_tail = ext_tail  # buffer inputs before the leaves' gradients are entered
        # per leaf of the step: (its gradient before, slot written or -1, its aval); the gradient before is
        # None (none or zeroed), a slot of the buffer, or (buffer input index or None if not read, aval) for an array
        self.leaves = leaves
        self.n_ext_after = n_ext_after
        nc, nr = n_calls, n_refs
        made = set()  # the slots the callouts make Pendings for
        for co, (seg, n) in zip(callouts, segs):  # each callout's sizes, from the noted counts
            co.at = (nc, nr, co.n_ext)
            nc, nr = nc + len(seg) + len(co.calls), nr + n + co.n_new
            co.end = (nc, nr, co.n_ext + len(co.ext_avals))
            made.update([w[3] for w in co.pending], [c[0] for c in co.cts], [leaves[i][1] for i in co.reached])
        # the buffer's size before the calls after the last callout, when the leaves' gradients they make are all
        # new Pendings (``extend_replayed`` makes them: no callout reached a leaf or made a Pending of the slot);
        # else None
        self.tail_at = None
        if callouts and all(leaf[1] < 0 or leaf[1] not in made for leaf in leaves):
            self.tail_at = (nc, nr, ext_tail)


class Plan:
    """A noted step: the buffer's state when it began, its ops, its backward."""

    __slots__ = ("start_calls", "start_ext_avals", "start_refs", "events", "bwd", "programs", "leaf_refs",
                 "unreached")

    def __init__(self, start: tuple, events: tuple, bwd: Backward, leaf_refs: tuple, unreached: tuple = ()) -> None:
        self.start_calls, self.start_ext_avals, self.start_refs = start
        self.events = events
        self.bwd = bwd
        # the leaves the step sends gradients to (weakly: a note keeps no model alive); a step follows the
        # note only with these very Tensors, so gradients go where the noted backward sent them
        self.leaf_refs = leaf_refs
        # the step's compiled program per set of live results: a replayed step's buffer holds exactly the
        # noted calls on inputs of the noted shapes, so its program key is known without building it
        self.programs: dict[tuple, Any] = {}
        # the ops (with nodes) that do not lead to the loss: the backward leaves their nodes unfreed
        self.unreached = unreached


class Step(Stub):
    """A step being replayed. A Tensor its op ``k`` returned has the stub edge ``(step, k)``; output ``j`` of an op
    with several outputs has ``(step, (k, j))``."""

    __slots__ = ("plan", "events", "leaf_refs", "buf", "log", "nodes", "live", "freed", "__weakref__")

    def __init__(self, plan: Plan, buf: Any) -> None:
        self.plan = plan
        self.events = plan.events
        self.leaf_refs = plan.leaf_refs
        self.buf = buf
        # per replayed op: (input Tensors, output Tensor), for materialising. Their arrays and
        # versions need no record: a write that rebinds an array or bumps a version (set_value, an in-place op,
        # an optimizer step), from any thread, materialises every live step first (``mark_write``).
        self.log: list[tuple] = []
        self.nodes: dict[int, OpNode] = {}  # the real node of op k, once needed
        self.live = True  # still replaying: the stubs stand for nodes not built yet
        # inside a PyLayer's replayed backward: the events whose nodes the normal walk has freed by then (built
        # freed, should the step build its tape there)
        self.freed: tuple = ()

    def edge(self, k: Any) -> tuple:
        """The real edge the stub edge ``(self, k)`` stands for: see ``resolve``."""
        if type(k) is tuple:
            return (resolve(self, k[0]), k[1])
        return (resolve(self, k), 0)

    # a copied Tensor shares its step (its nodes are built once, for both)
    def __copy__(self) -> Step:
        return self

    def __deepcopy__(self, memo: dict) -> Step:
        return self


class Pos(enum.Enum):
    """Where a thread is in its step, as replay sees it (``_State.pos``).

    ``BEGIN``: the next op or apply that trains begins a step; ``OFF``: this step is not followed (a note is
    taken of it, or it neither follows nor is noted); ``SUSPENDED``: user code (a PyLayer's forward or backward)
    runs inside a replayed step, whose ops record their calls and are not events of the step.

    Transitions (``step``: the step being replayed, ``rec``: the note being taken):

    - BEGIN, no step -> BEGIN with ``step``: an op or apply that trains, the buffer as when the plan (or another kept
      plan, ``plans``) began and the plan's first op this one (``_begin``)
    - BEGIN, no step -> OFF with ``rec``: the first event of a note (``note._open_note``)
    - BEGIN, no step -> OFF: the step cannot be noted (``abort``)
    - BEGIN with ``step`` -> OFF: an op, apply or history read off the note (``diverge``, ``materialise``)
    - BEGIN with ``step`` -> SUSPENDED: a followed apply's forward, a replayed backward's PyLayer backward
    - SUSPENDED -> BEGIN with ``step``: that user code returned (``_resume``)
    - any -> BEGIN, no step: ``backward()`` ended or failed (``boundary``), or was replayed (``try_backward``)
    """

    BEGIN = 0
    OFF = -1
    SUSPENDED = -2


BEGIN, OFF, SUSPENDED = Pos.BEGIN, Pos.OFF, Pos.SUSPENDED


class _State:
    """A thread's replay state (see ``Pos``): a plain object, one per thread (``_tls.s``), whose attributes cost a
    slot read where a ``threading.local``'s cost a per-thread dictionary lookup."""

    __slots__ = ("plan", "plans", "pos", "step", "rec", "rec_nodes", "rec_node_idx", "rec_slots", "rec_leaves",
                 "rec_leaf_ids", "rec_buf", "rec_start", "rec_end", "rec_co", "rec_bwd_refs", "rec_inner",
                 "inner", "inner_i", "inner_buf")

    def __init__(self) -> None:
        self.plan: Plan | None = None  # the note the next step follows
        # other notes of this thread's recent steps, most recent first: a step that does not begin as ``plan`` does
        # (its buffer, its first op) may begin as one of them (``_begin``): the steps of gradient accumulation, whose
        # buffer holds an optimizer's update or a backward's results by turns
        self.plans: list[Plan] = []
        self.pos = BEGIN  # see ``Pos``
        self.step: Step | None = None  # the step being replayed
        self.rec: list[Event] | None = None  # the note being taken
        self.rec_nodes: list[Any] = []  # weak references: a note never keeps a tape alive
        self.rec_node_idx: dict[int, int] = {}
        self.rec_slots: dict[int, int] = {}
        self.rec_leaves: list[Any] = []  # weak references to the leaves the step sends gradients to
        self.rec_leaf_ids: dict[int, int] = {}  # id(leaf) -> its number
        self.rec_buf: Any = None
        self.rec_start: tuple = ()
        self.rec_end = 0
        self.rec_co: list[tuple] | None = None  # the PyLayer backwards of the backward() being noted
        self.rec_bwd_refs = 0  # the buffer's results when that backward() began
        self.rec_inner: list | None = None  # the ops of the noted apply's forward or PyLayer backward running now
        # inside a followed apply's forward or a replayed PyLayer backward: its noted ops (``Inner``), the next
        # one's index, the step's buffer
        self.inner: tuple | None = None
        self.inner_i = 0
        self.inner_buf: Any = None


class _Local(threading.local):
    def __init__(self) -> None:
        self.s = _State()


_tls = _Local()  # ``_tls.s``: this thread's state (read once per event, then its slots)


class _StateView:
    """``st``: this thread's state by attribute, for the rare paths and tests (``st.plan``)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        return getattr(_tls.s, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(_tls.s, name, value)


st = _StateView()


def reset() -> None:
    """Forget this thread's note and the step it follows, if any (the state of a fresh thread): for tests that
    must not follow a note an earlier test left. The stubs of a step being followed stay as they are."""
    _tls.s = _State()


_AVALS: dict[int, tuple[Any, tuple]] = {}  # id(array) -> (weak reference, aval): inputs seen step after step


def _aval(v: Any) -> tuple:
    """``(shape, dtype, weak_type)`` of a jax array (its properties cost ~0.1 µs each; a repeated input, one lookup)."""
    c = _AVALS.get(id(v))
    if c is not None and c[0]() is v:
        return c[1]
    a = v.aval  # (one attribute: the array's shape, dtype and weak_type properties read it three times over)
    av = (a.shape, a.dtype, a.weak_type)
    if len(_AVALS) > 4096:
        _AVALS.clear()
    _AVALS[id(v)] = (weakref.ref(v), av)
    return av


def _current_buf() -> Any:
    return lazy._local.__dict__.get("buf")


# ---- following a note ------------------------------------------------------------------
MAX_PLANS = 4  # the notes a thread keeps: the one its next step follows (``_State.plan``) and others (``plans``)


def _begin(op: Any = None, cls: Any = None) -> Step | None:
    """A step begins with op ``op`` (or an apply of PyLayer ``cls``): it follows the note if the buffer holds what it
    held when the noted step began and the note begins with that op, else another recent note that does; if none
    does, the step is noted (the notes kept, up to ``MAX_PLANS``)."""
    s = _tls.s
    if s.pos is not BEGIN:
        return None
    plan = s.plan
    if plan is None:
        return None
    buf = lazy._buffer()
    # the buffer holds what it held when the noted step began (an optimizer's update, say; most often nothing)
    if not (buf.holds(plan.start_calls, plan.start_ext_avals, plan.start_refs) and _begins(plan, op, cls)):
        others = s.plans
        for other in others:
            if buf.holds(other.start_calls, other.start_ext_avals, other.start_refs) and _begins(other, op, cls):
                others.remove(other)
                others.insert(0, plan)
                s.plan = plan = other
                break
        else:  # this step begins differently: it is noted instead
            others.insert(0, plan)
            del others[MAX_PLANS - 1:]
            s.plan = None
            return None
    step = s.step = Step(plan, buf)
    _LIVE[id(step)] = _wref(step)
    return step


def _begins(plan: Plan, op: Any, cls: Any) -> bool:
    """Whether the note ``plan`` begins with op ``op`` (or an apply of ``cls``; neither given: any)."""
    ev = plan.events[0]
    if op is not None:
        return ev.op is op
    return cls is None or (type(ev) is LayerEvent and ev.cls is cls)


def _trains(args: Sequence[Any]) -> bool:
    for t in args:
        if (type(t) is Tensor or type(t) in EAGER_TYPES) and not t._sg:  # (``stop_gradient``'s slot)
            return True
    return False


def may_begin(s: _State) -> bool:
    """A step may begin following the note with the next event (none is followed now)."""
    return s.pos is BEGIN and s.plan is not None


def may_note(s: _State) -> bool:
    """A note is being taken, or may begin with the next event."""
    return s.rec is not None or (s.pos is BEGIN and s.step is None)


def _same_key(noted: tuple, key: tuple) -> bool:
    """Whether an op's kernel key (its attributes, tree and default dtype) is the noted one."""
    try:
        return noted == key
    except Exception:  # an attribute whose comparison raises: not the noted call
        return False


# ---- each event's check of its inputs ------------------------------------------------------
# A replayed op checks that its inputs come from where the note says. Written as one loop over the event's ``Src``
# records, that cost most of the op's Python (unpacking each record, comparing its kind); instead each event gets a
# function written for its sources, made once (``_matcher``): ``match(leaves, log, step, buf)`` returns the inputs
# from outside the buffer's results as ``(value, aval, j)`` (an empty tuple if none), or None where an input is not
# the noted one (or there are not as many). It only reads: the caller, holding the buffer's lock, appends. Its text
# depends only on the kinds, slots and flags of the sources (their avals and types are arguments), so one text is
# compiled once for every event of its form. Each outside array input keeps (weakly) the array it last matched: the
# same array again (a parameter, a data batch reused) has the noted aval without looking it up.
_MATCHERS: dict[str, Any] = {}  # source text -> the function making an event's check from its avals
_MAX_MATCHERS = 1024


def _matcher(srcs: Sequence[Src]) -> Any:
    """The check of an event's inputs (see above) for its sources ``srcs``."""
    lines = []
    consts = []
    out = []
    cells: list[str] = []
    for i, (kind, j, sg, n, av) in enumerate(srcs):
        t = f"t{i}"
        c = f"A{len(consts)}"
        if kind == IN_STEP:  # its very Tensor (no write changed it: a write materialises first), or one sharing its
            # value (and stub, if it trains)
            lines.append(f"r = log[{n}][1]" + ("" if av is None else f"[{av}]"))
            same = f"{t}._v is not r._v" + ("" if sg else f" or {t}._e is not r._e")
            lines.append(f"if ({t} is not r and (type({t}) is not Tensor and not isinstance({t}, Tensor) or {same}))"
                         f" or {t}._sg is not {sg}:")
            lines.append("    return None")
            continue
        consts.append(av)
        if kind == THROUGH:  # the output of an apply that is one of its inputs
            lines.append(f"if type({t}) is not Tensor and not isinstance({t}, Tensor):")
            lines.append("    return None")
            if av[1] is None:  # its value in buffer slot j
                lines.append(f"if _through_value(step, buf, {t}, {j}, {sg}, {c}) is not None:")
                lines.append("    return None")
            else:  # an array entered as buffer input j
                lines.append(f"x{i} = _through_value(step, buf, {t}, {j}, {sg}, {c})")
                lines.append(f"if x{i} is _NO:")
                lines.append("    return None")
                out.append(f"(x{i}, {c}[1], {j})")
            continue
        if kind in (SCALAR, ARRAY) and n >= 0:  # (never noted: a leaf is a Tensor)
            lines.append("return None")
            continue
        if kind == SCALAR:  # a Python number of the noted type: any value replays
            lines += _number_check(t, c, av)
            out.append(f"({t}, {c}, {j})")
            continue
        if kind == ARRAY:  # a jax array passed as it is, a new one each step (a fresh random key)
            lines.append(f"if type({t}) is not _ArrayImpl or _aval({t}) != {c}:")
            lines.append("    return None")
            out.append(f"({t}, {c}, {j})")
            continue
        # AT_START, OUTSIDE: a Tensor (a leaf the op sends a gradient to: the noted one)
        if n >= 0:
            lines.append(f"if step.leaf_refs[{n}]() is not {t}:")
        else:
            lines.append(f"if type({t}) is not Tensor and not isinstance({t}, Tensor):")
        lines.append("    return None")
        lines.append(f"if {t}._sg is not {sg}" + ("" if sg else f" or {t}._e is not None") + ":")
        lines.append("    return None")
        lines.append(f"v{i} = {t}._v")
        v = f"v{i}"
        if kind == AT_START:  # held by the buffer at the start
            lines.append(f"if type({v}) is not Pending or {v}.buf is not buf or {v}.idx != {j} or {v}.array is not None:")
            lines.append("    return None")
            continue
        if kind != OUTSIDE:  # (no other kind is noted)
            lines.append("return None")
            continue
        cells.append(f"L{i}")
        lines += _array_check(v, c, f"L{i}")
        out.append(f"({v}, {c}, {j})")
    return _made_matcher("leaves, log, step, buf", len(srcs), len(consts), lines, out, cells)(*consts)


def _inner_matcher(srcs: Sequence[tuple]) -> Any:
    """The check of an ``Inner`` event's inputs, written for its sources as ``_matcher`` writes an event's:
    ``match(leaves, buf)`` returns the inputs from outside the buffer's results as ``(value, aval, j)`` (an empty
    tuple if none), or None where an input is not where the note has it: a result of the buffer not run (its slot
    ``j``), a Python number of the noted type, or an array of the noted aval (a Tensor's, or a result of an earlier
    run's)."""
    lines = []
    consts = []
    out = []
    cells: list[str] = []
    for i, (kind, j, av) in enumerate(srcs):
        t = f"t{i}"
        if kind == IN_STEP:  # a result of the user code's calls, or of the step's, not run
            lines += [f"if type({t}) is not Tensor and not isinstance({t}, Tensor):", "    return None",
                      f"v = {t}._v",
                      f"if type(v) is not Pending or v.buf is not buf or v.idx != {j} or v.array is not None:",
                      "    return None"]
            continue
        c = f"A{len(consts)}"
        consts.append(av)
        if kind == SCALAR:  # a Python number of the noted type
            lines += _number_check(t, c, av)
            out.append(f"({t}, {c}, {j})")
            continue
        v = f"v{i}"  # an outside array of the noted aval (a Tensor's, or passed as it is)
        cells.append(f"L{i}")
        lines.append(f"{v} = {t}._v if type({t}) is Tensor or isinstance({t}, Tensor) else {t}")
        lines += _array_check(v, c, f"L{i}")
        out.append(f"({v}, {c}, {j})")
    return _made_matcher("leaves, buf", len(srcs), len(consts), lines, out, cells)(*consts)


def _number_check(t: str, c: str, av: type) -> list[str]:
    """The lines of a check that input ``t`` is a Python number of the noted type ``c`` (``av``; an int in int64)."""
    return [f"if type({t}) is not {c}" + (f" or not -(2**63) <= {t} < 2**63:" if av is int else ":"), "    return None"]


def _array_check(v: str, c: str, last: str) -> list[str]:
    """The lines of a check that value ``v`` is an array of the noted aval ``c`` (then ``v`` is that array): a jax
    array (the one ``last`` held weakly when it last matched needs no aval lookup), or a result of a run buffer (a
    parameter after a step: the array, with the aval its Pending was recorded with)."""
    return [f"if type({v}) is _ArrayImpl:",
            f"    if {last}() is not {v}:",
            f"        c = _AVALS_get(id({v}))  # (``_aval``, written out)",
            f"        a = c[1] if c is not None and c[0]() is {v} else _aval({v})",
            f"        if a is not {c} and a != {c}:",
            "            return None",
            f"        {last} = _wref({v})",
            f"elif type({v}) is Pending and type({v}.array) is _ArrayImpl:",
            f"    a = {v}.aval",
            f"    {v} = {v}.array",
            f"    if a is not {c} and a != {c}:",
            "        return None",
            "else:",
            "    return None"]


def _made_matcher(params: str, n_in: int, n_consts: int, lines: list[str], out: list[str], cells: list[str]) -> Any:
    """The function ``make(A0, A1, ...)`` (``n_consts`` of them: the noted avals and types) returning
    ``match(<params>)``: it unpacks ``leaves`` into ``t0``, ``t1``, ... (another number of inputs: None), runs
    ``lines`` and returns the tuples ``out``; each of ``cells`` starts as a dead weak reference. Compiled once per
    text (``_MATCHERS``)."""
    names = ", ".join(f"t{i}" for i in range(n_in))
    head = ["try:", f"    {names}, = leaves", "except ValueError:", "    return None"] if n_in else [
        "if leaves:", "    return None"]
    if cells:
        head.insert(0, f"nonlocal {', '.join(cells)}")
    ret = f"[{', '.join(out)}]" if out else "()"
    body = "\n".join("        " + line for line in [*head, *lines, f"return {ret}"])
    init = "".join(f"    {cell} = _DEAD\n" for cell in cells)
    src = (f"def make({', '.join(f'A{k}' for k in range(n_consts))}):\n{init}"
           f"    def match({params}):\n{body}\n    return match\n")
    make = _MATCHERS.get(src)
    if make is None:
        if len(_MATCHERS) >= _MAX_MATCHERS:
            _MATCHERS.clear()
        space: dict[str, Any] = {}
        exec(src, globals(), space)  # noqa: S102 - written from the kinds, slots and flags of noted sources
        make = _MATCHERS[src] = space["make"]
    return make


_AVALS_get = _AVALS.get
_DEAD = lazy._DEAD  # (a weak reference whose object is gone)


def try_op(op: Any, key: tuple | None, leaves: Sequence[Any], early: bool = False) -> Any:
    """The op event (``StepEvents.op``): replay one op of the noted step; its Tensor, or None (then dispatch
    normally).

    ``key`` is the kernel key, or None for a call of tensors alone under the current default dtype, asked before
    dispatch knows that an input trains (as is a call with plain attributes, ``early``). Only an op that makes a
    tape node can begin a step (the noted inputs' stop_gradient flags say one trains).
    """
    s = _tls.s
    step = s.step
    if step is None:  # may a step begin here? (asked before dispatch: only with an input that trains)
        if s.inner is not None:  # an op of a followed apply's forward or PyLayer backward
            return try_inner(s, op, key, leaves)
        if not ENABLED or s.pos is not BEGIN or s.plan is None:  # (``may_begin``, written out: every op)
            return None
        if key is None or early:
            m = modes
            if not (m.grad_enabled and m.static_program is None and op.differentiable and _trains(leaves)):
                return None
        step = _begin(op)
        if step is None:
            return None
    elif not ENABLED:
        return None
    log = step.log
    k = len(log)
    try:
        ev = step.events[k]
    except IndexError:  # more ops than the note has
        ev = None
    m = modes
    # (the number of inputs: ``ev.match``; the buffer's size and state: under its lock, ``append_replayed``)
    if (ev is None or ev.op is not op or (ev.plain != _dtypes._default.name if key is None  # (None: not plain)
                                          else not _same_key(ev.key, key))):
        s = _tls.s
        if not (s.plans and _switch(s, step, k, op, key)):  # another kept note parts from this one here?
            return _off_note(leaves)
        ev = step.events[k]
    if m.grad_enabled is not ev.grad or m.saved_hooks or m.static_program is not None:
        return _off_note(leaves)
    buf = step.buf
    # under the buffer's lock: another thread that runs the buffer or builds the step's tape (``materialise``) sees
    # the op all in or not at all
    lock = buf.lock
    lock.acquire()  # (acquire/release: a third of what ``with`` costs on an RLock)
    try:
        if not step.live:  # another thread built the step's tape meanwhile
            return _off_note(leaves)
        # the inputs come from where the note says (the event's own check, ``_matcher``); those from outside the
        # buffer's results are ``(value, aval, j)`` for ``append_replayed``, which checks, as it enters them, that
        # each is the buffer's input j already or new to the buffer and its next input
        ins = ev.match(leaves, log, step, buf)
        if ins is None:
            s = _tls.s
            if not (s.plans and _switch(s, step, k, op, key, leaves)):  # (another kept note, its inputs here?)
                return _off_note(leaves)
            ev = step.events[k]
            ins = ev.match(leaves, log, step, buf)
            if ins is None or m.grad_enabled is not ev.grad:
                return _off_note(leaves)
        if ev.out_tree is None:
            p = Pending(ev.aval, buf, ev.slot)
            out = _result(p) if ev.needs is None else _result(p, (step, k))  # (plain: no node, no edge)
            if buf.append_replayed(ev.call, ev.slot, p, ins, log, (leaves, out)):
                return out
        else:  # several outputs, each with its stub edge (none for a plain event)
            ps = [Pending(av, buf, ev.slot + j) for j, av in enumerate(ev.aval)]
            if ev.needs is None:
                outs = [_result(p) for p in ps]
            else:
                outs = [_result(p, (step, (k, j))) for j, p in enumerate(ps)]
            if buf.append_replayed(ev.call, ev.slot, ps, ins, log, (leaves, outs)):
                return jax.tree_util.tree_unflatten(ev.out_tree, outs)
    finally:
        lock.release()
    return _off_note(leaves)


def _switch(s: _State, step: Step, k: int, op: Any, key: tuple | None, leaves: Sequence[Any] | None = None) -> bool:
    """At event ``k`` of a followed step whose op (``op``, kernel key ``key``; given ``leaves``: its inputs) is not
    its note's: follow instead a kept note with the very same first ``k`` events (a note taken from this one's
    parting there: ``_note_from``) whose event ``k`` is that op (on those inputs). True if the step now follows
    it."""
    plan = step.plan
    mine = plan.events
    for other in s.plans:
        evs = other.events
        if len(evs) <= k or type(evs[k]) is not Event or evs[k].op is not op:
            continue
        ev = evs[k]
        if (ev.plain != _dtypes._default.name) if key is None else not _same_key(ev.key, key):
            continue
        for i in range(k):
            if evs[i] is not mine[i]:
                break
        else:
            if other.start_refs != plan.start_refs or other.start_calls != plan.start_calls:
                continue
            lock = step.buf.lock
            lock.acquire()
            try:  # (under the lock: a materialise from another thread reads the events; the first k are the same)
                if not step.live:
                    return False
                step.plan, step.events, step.leaf_refs = other, evs, other.leaf_refs
                # (its inputs checked against that note: its leaves, numbered as it numbers them)
                if leaves is not None and ev.match(leaves, step.log, step, step.buf) is None:
                    step.plan, step.events, step.leaf_refs = plan, mine, plan.leaf_refs
                    continue
            finally:
                lock.release()
            s.plans.remove(other)
            s.plans.insert(0, plan)
            s.plan = other
            return True
    return False


def _no_node() -> None:
    """The weak reference a plain event (no node) has in a note's ``rec_nodes``."""
    return None


def _note_from(s: _State, step: Step, k: int) -> None:
    """A followed step left its note at event ``k`` (its first ``k`` events replayed, their nodes built now): the
    note of this step goes on from there, its first ``k`` events the very ones of the note it left (so that a later
    step following either note can go on with the other where they part: ``_switch``), and the note it left stays
    among the kept ones. Not when the note cannot say where the events' results are (nothing then)."""
    buf = step.buf
    if buf.done or lazy._local.__dict__.get("buf") is not buf or modes.saved_hooks or s.rec is not None:
        return
    plan = step.plan
    events = plan.events[:k]
    rec_nodes: list[Any] = []
    node_idx: dict[int, int] = {}
    slots: dict[int, Any] = {}
    end = plan.start_refs
    n_leaves = 0
    for i, ev in enumerate(events):
        node = step.nodes.get(i)
        if type(ev) is LayerEvent:
            if node is None:
                return
            if ev.through is None:
                if ev.out_tree is None:
                    slots[ev.out_slot] = i
                else:
                    for j, slot in enumerate(ev.out_slot):
                        slots[slot] = (i, j)
            end = ev.end[1]
        else:
            n_out = 1 if ev.out_tree is None else len(ev.aval)
            if ev.out_tree is None:
                slots[ev.slot] = i
            else:
                for j in range(n_out):
                    slots[ev.slot + j] = (i, j)
            end = ev.slot + n_out
            if ev.needs is None:
                node = None
            elif node is None:
                return
        if node is None:
            rec_nodes.append(_no_node)
        else:
            node_idx[id(node)] = i
            rec_nodes.append(weakref.ref(node))
        for src in ev.srcs:
            if src.kind in (AT_START, OUTSIDE) and src.ref >= n_leaves:
                n_leaves = src.ref + 1
    if end != buf.size()[1]:
        return
    leaves = list(plan.leaf_refs[:n_leaves])
    ids = {}
    for n, ref in enumerate(leaves):
        t = ref()
        if t is None:
            return
        ids[id(t)] = n
    s.rec_nodes, s.rec_node_idx, s.rec_slots, s.rec_leaves, s.rec_leaf_ids = rec_nodes, node_idx, slots, leaves, ids
    s.rec_buf, s.rec_start, s.rec_end = buf, (plan.start_calls, plan.start_ext_avals, plan.start_refs), end
    s.rec = list(events)  # (last: the note begun)
    s.plans.insert(0, plan)
    del s.plans[MAX_PLANS - 1:]


def try_inner(s: _State, op: Any, key: tuple | None, leaves: Sequence[Any]) -> Any:
    """An op inside the user code of a followed apply or callout (``s.inner`` set): its result Tensor if it is the
    next noted ``Inner`` event (its call appended as normal dispatch appends it), else None: the following ends
    there and the op and the rest dispatch normally (the user code's calls are checked as a whole when it
    returns)."""
    try:
        ev = s.inner[s.inner_i]
    except IndexError:  # more ops than the note has
        s.inner = None
        return None
    m = modes
    if (ev.op is not op or m.grad_enabled or m.saved_hooks or m.static_program is not None
            or m.capture is not None
            or (ev.plain != _dtypes._default.name if key is None  # (``plain`` None: not a plain call)
                else not _same_key(ev.key, key))):
        s.inner = None
        return None
    buf = s.inner_buf
    lock = buf.lock
    lock.acquire()
    try:
        # (a buffer not done is still this thread's current one: a new one is made only after a run)
        if len(buf.calls) == ev.n_calls:
            # the inputs from where the note has them (the event's own check); those from outside the buffer's
            # results are ``(value, aval, j)`` for ``append_replayed``, which enters them (already input j, or new to
            # the buffer and entered as j)
            ins = ev.match(leaves, buf)
            if ins is not None:
                p = Pending(ev.aval, buf, ev.slot)
                if buf.append_replayed(ev.call, ev.slot, p, ins):
                    s.inner_i += 1
                    return _result(p)
    finally:
        lock.release()
    s.inner = None
    return None


def _off_note(leaves: Sequence[Any]) -> None:
    """An op that does not match the note: the step leaves it, unless the op only traces (a JAX transform
    inside the step records nothing, so the step may still follow its note)."""
    for t in leaves:
        if isinstance(getattr(t, "_v", None), jax.core.Tracer):
            return None
    diverge(True)
    return None


def layer_begin(s: _State, cls: type, inputs: Sequence[Any]) -> tuple | None:
    """Before the forward of a ``PyLayer.apply`` (its Tensors ``inputs``, a gradient needed) in a step that may
    follow its note (``s``: this thread's state): the tokens ``((step, k, s, ev), None)`` if the apply matches the
    note's next event ``ev`` (forward then runs with the step suspended, so its ops record calls and are not
    events), else None (the step left its note)."""
    step = s.step or _begin(None, cls)
    if step is None:
        return None
    log = step.log
    k = len(log)
    try:
        ev = step.events[k]
    except IndexError:  # more events than the note has
        ev = None
    buf = step.buf
    m = modes
    if (type(ev) is not LayerEvent or ev.cls is not cls or m.grad_enabled is not True or m.saved_hooks
            or m.static_program is not None or buf.done or buf.size() != ev.at or len(inputs) != ev.n_in):
        diverge()
        return None
    # each input from where the note has it (in one pass, as ``try_op`` checks an op's; they are Tensors): the
    # result of an event of the step, or an outside array of the noted shape and dtype (forward enters what it
    # uses), sending its gradient to the noted leaf
    for t, (kind, j, sg, n, av) in zip(inputs, ev.srcs):
        if t._sg is not sg:
            break
        if kind == IN_STEP:  # the result of replayed event n: its very Tensor, or one sharing its value and stub
            r = log[n][1] if av is None else log[n][1][av]
            if t is not r and (t._v is not r._v or (not sg and t._e is not r._e)):
                break
            continue
        if kind == THROUGH:  # the output of an apply that is one of its inputs
            if _through_value(step, buf, t, j, sg, av) is _NO:
                break
            continue
        if (n >= 0 and step.leaf_refs[n]() is not t) or (not sg and t._e is not None):
            break
        v = t._v
        if kind == OUTSIDE:
            if type(v) is _ArrayImpl:
                c = _AVALS.get(id(v))  # (``_aval``, written out: a repeated input)
                if (c[1] if c is not None and c[0]() is v else _aval(v)) != av:
                    break
            elif type(v) is not Pending or type(v.array) is not _ArrayImpl or v.aval != av:  # a result of a run
                break
        elif kind != AT_START or type(v) is not Pending or v.buf is not buf or v.idx != j or v.array is not None:
            break  # AT_START: held by the buffer when the step began
    else:
        s.step, s.pos, s.plan = None, SUSPENDED, None  # suspended while forward runs
        if ev.inner is not None:
            s.inner, s.inner_i, s.inner_buf = ev.inner, 0, buf
        return ((step, k, s, ev), None)
    diverge()
    return None


def _forward_recorded(step: Step, buf: Any, ev: LayerEvent, replayed: bool) -> bool:
    """At ``layer_end``, under the buffer's lock: the step still follows its note in this thread's buffer, and the
    apply's forward recorded there the noted calls and new slots, and nothing else. ``replayed``: each of forward's
    ops was the next of the noted ones (``try_inner`` appended its call, and entered its new inputs with their
    noted signatures, where the note has them): then only the counts are compared."""
    if not (step.live and not buf.done and lazy._local.__dict__.get("buf") is buf):
        return False
    if replayed:
        return buf.size() == ev.end
    end = ev.end
    return (len(buf.refs) == end[1] and len(buf.calls) == end[0]
            and buf.same_since(ev.n_calls, ev.n_ext, ev.calls, ev.ext_avals))


def layer_end(token: tuple, ok: bool, inputs: Sequence[Any], out: Any, node: Any) -> bool:
    """After the forward of an apply that ``layer_begin`` let through: True if forward recorded the noted calls
    and returned one fresh Tensor where the note has it (``ok``: and nothing else of the ctx differs); that
    Tensor then gets the stub edge of the apply, ``node`` is kept for its backward. False: the step left its
    note (its tape is built; the caller wires the apply as usual)."""
    step, k, s, ev = token  # (``s``: this thread's state, as ``layer_begin`` found it; ``ev``: the apply's event)
    inner = ev.inner  # each of forward's ops was the next noted one (none left the following)
    replayed = inner is not None and s.inner is inner and s.inner_i == len(inner)
    nested = s.step is not None or s.rec is not None  # (``_resume``, written out: every followed apply)
    if nested:
        _resume(step)
    else:
        s.step, s.pos, s.plan = step, BEGIN, step.plan
        s.inner = None
    if ev.out_tree is not None:
        return _layer_end_outs(step, k, ev, ok and not nested, inputs, out, node, replayed)
    if ev.through is not None or ev.non_diff:  # an input returned, or the output marked non-differentiable
        return _layer_end_one(step, k, ev, ok and not nested, inputs, out, node, replayed)
    if ok and not nested:  # (``ok``: ``out`` is a Tensor)
        buf = step.buf
        v = out._v
        if (type(v) is Pending and v.buf is buf and v.idx == ev.out_slot and v.array is None and v.aval == ev.aval
                and out._e is None and out._sg):
            lock = buf.lock
            lock.acquire()
            try:  # (a buffer that ran meanwhile is done: ``_forward_recorded`` checks that under the lock)
                if (step.live and not buf.done and lazy._local.__dict__.get("buf") is buf and buf.size() == ev.end
                        if replayed else _forward_recorded(step, buf, ev, False)):  # (the first, written out)
                    for t in inputs:  # (``_none_is(out, inputs)``, written out) not an input returned
                        if t is out:
                            break
                    else:
                        out._e = (step, k)
                        out._sg = False  # (``stop_gradient = False``)
                        step.log.append((inputs, out, node))  # under the lock: a materialise sees all or none
                        return True
            finally:
                lock.release()
    diverge()
    return False


def _none_is(x: Any, items: Sequence[Any]) -> bool:
    """Whether ``x`` is none of ``items`` (by identity: ``in`` would compare Tensors by value)."""
    for t in items:
        if t is x:
            return False
    return True


def _layer_end_outs(step: Step, k: int, ev: LayerEvent, ok: bool, inputs: Sequence[Any], outs: Any,
                    node: Any, replayed: bool) -> bool:
    """``layer_end`` for an apply noted with several outputs: ``outs``, the list of its fresh output Tensors, must
    be results of the noted slots; each gets its stub edge ``(step, (k, j))``."""
    buf = step.buf
    lock = buf.lock
    lock.acquire()
    try:
        nd = ev.non_diff
        if (ok and type(outs) is list and len(outs) == ev.out_tree and node.non_diff == nd
                and _forward_recorded(step, buf, ev, replayed)):
            for o, slot, aval in zip(outs, ev.out_slot, ev.aval):
                v = o._v
                if (type(v) is not Pending or v.buf is not buf or v.idx != slot or v.array is not None
                        or v.aval != aval):
                    break
            else:
                for j, o in enumerate(outs):
                    if j in nd:  # marked non-differentiable: no edge, stop_gradient stays True
                        continue
                    o._e = (step, (k, j))
                    o.stop_gradient = False
                step.log.append((inputs, outs, node))  # under the lock: a materialise sees all or none
                return True
    finally:
        lock.release()
    diverge()
    return False


def _layer_end_one(step: Step, k: int, ev: LayerEvent, ok: bool, inputs: Sequence[Any], out: Any,
                   node: Any, replayed: bool) -> bool:
    """``layer_end`` for an apply noted with one output that is one of its inputs (``ev.through``), or marked
    non-differentiable (``ev.non_diff``): ``out`` is what wiring makes of it (the input itself, rewired in place and
    its version bumped; a new Tensor sharing the input's value; the fresh output, which keeps no edge and
    stop_gradient=True), as in the noted step."""
    buf = step.buf
    lock = buf.lock
    lock.acquire()
    try:
        if (ok and isinstance(out, Tensor) and node.non_diff == ev.non_diff
                and _forward_recorded(step, buf, ev, replayed)):
            th = ev.through
            if th is None:  # a fresh output marked non-differentiable
                v = out._v
                if (type(v) is Pending and v.buf is buf and v.idx == ev.out_slot and v.array is None
                        and v.aval == ev.aval and out._e is None and out._sg and _none_is(out, inputs)):
                    step.log.append((inputs, out, node))  # under the lock: a materialise sees all or none
                    return True
            else:
                i, in_place = th
                x = inputs[i] if i < len(inputs) else None
                if (x is not None and (out is x) is in_place and out._v is x._v and _first_with(inputs, out, in_place) == i
                        and (in_place or (out._e is None and out._sg))):
                    if in_place:  # (``inplace_assign``'s write, as the noted step made it: no op saved the input)
                        counter = out._version_counter()
                        counter.value += 1
                        counter.name = out.name
                    out._e = (step, k)
                    out._sg = False  # (``stop_gradient = False``)
                    step.log.append((inputs, out, node))
                    return True
    finally:
        lock.release()
    diverge()
    return False


def _first_with(inputs: Sequence[Any], out: Any, same: bool) -> int:
    """The index of the first of ``inputs`` that is ``out`` (``same``), or else shares its value; -1 if none."""
    v = out._v
    for i, t in enumerate(inputs):
        if t is out if same else t._v is v:
            return i
    return -1


_NO = object()  # not what the note has: an input (``_through_value``), a gradient state (``_grad_state``)


def _through_value(step: Step, buf: Any, t: Any, j: int, sg: bool, av: tuple) -> Any:
    """For an input noted as the output of apply ``av[0]`` that is one of that apply's inputs (``THROUGH``): whether
    it is that very Tensor (or one sharing its value and stub) with its value in buffer slot ``j`` (``av[1]``
    None: returns None), or an array of the noted aval (returned: an op's input enters it as buffer input ``j``);
    ``_NO`` if not."""
    k, xav = av
    r = step.log[k][1]
    if (t is not r and (t._v is not r._v or t._e is not r._e)) or t._sg is not sg:
        return _NO
    v = t._v
    if xav is None:
        return None if type(v) is Pending and v.buf is buf and v.idx == j and v.array is None else _NO
    vav = None
    if type(v) is not _ArrayImpl:  # a result of a run buffer: its array, with the Pending's aval
        if type(v) is not Pending or type(v.array) is not _ArrayImpl:
            return _NO
        vav = v.aval
        v = v.array
    return v if (_aval(v) if vav is None else vav) == xav else _NO


def try_backward(t: Any) -> bool:
    """Replay the noted ``backward()`` from ``t``; False when it does not match (run it normally)."""
    s = _tls.s
    step = s.step
    if step is None or not step.live or not ENABLED:
        return False
    plan = step.plan
    b = plan.bwd
    e = t._e
    buf = step.buf
    # (the buffer's size and state: under its lock, ``extend_replayed``, or before the PyLayers' backwards run)
    if (len(step.log) != len(plan.events) or e is None or e[0] is not step or e[1] != b.root or t._sg
            or lazy._local.__dict__.get("buf") is not buf):
        return False
    accs = []
    gs = []  # the leaves' gradients now (a PyLayer's backward must leave them as they are)
    entered: list[tuple[int, Any, tuple]] | None = None  # gradients held as arrays, entered as buffer inputs
    for ref, (before, _, _) in zip(plan.leaf_refs, b.leaves):
        leaf = ref()
        if leaf is None:
            return False
        acc = leaf._acc
        if acc is None or acc.pre_hooks:
            return False
        g = acc.grad
        gs.append(g)
        accs.append(acc)
        if before is None and (g is None or g is ZEROED):  # the common case: no gradient yet, or cleared
            continue
        g = _grad_state(g, buf)
        if type(before) is tuple:
            if type(g) is not _ArrayImpl:
                return False
            if before[0] is not None:
                if entered is None:
                    entered = []
                entered.append((before[0], g, before[1]))
        elif not _same_state(g, before):  # None, or the same slot of the buffer
            return False
    new: list[tuple[Any, tuple]] = []
    tail = b.ext_tail
    if entered is not None:  # in the order normal dispatch entered them, with the same sharing
        new_ids: dict[int, int] = {}
        if len(entered) > 1:
            entered.sort(key=lambda e: e[0])
        for j, v, aval in entered:
            jj = buf.input_index(v)
            if jj is None:
                jj = new_ids.get(id(v))
                if jj is None:
                    if _aval(v) != aval:
                        return False
                    jj = new_ids[id(v)] = tail + len(new)
                    new.append((v, aval))
            if jj != j:
                return False
        if tail + len(new) != b.n_ext_after:
            return False
    elif b.n_ext_after != tail:
        return False
    if not b.callouts:  # the whole backward's calls, then the leaves' gradients: one buffer call
        at = (b.n_calls, b.n_refs, b.n_ext)  # the buffer's size now, as noted (``extend_replayed`` checks it)
        if not _extend_tail(step, buf, at, new, b.calls, b.n_new, accs, gs):
            return False
        return _replayed(s, step)
    # PyLayers' backwards: each runs where the walk ran it, between the noted calls; then the last calls and the
    # leaves' gradients
    return _callouts(s, step, b, buf, accs, gs, new)


def _replayed(s: _State, step: Step) -> bool:
    """The end of a replayed backward: the step's nodes count as freed, the next op begins a new step. True."""
    step.live = False  # its nodes are freed now, as the normal backward frees them
    _LIVE.pop(id(step), None)
    if step.plan.unreached:
        _build_unreached(step)
    step.log = []
    s.step = None
    s.pos = BEGIN  # the next op begins a new step
    STATS["steps"] += 1
    return True


def _extend_tail(step: Step, buf: Any, at: tuple, new: list, calls: Sequence[tuple], n_new: int, accs: list,
                 gs: list) -> bool:
    """The last ``calls`` of a replayed backward (the buffer inputs ``new`` entered first) and the leaves' gradients,
    all new Pendings, as one buffer call when the buffer is of size ``at`` (``extend_replayed``), each gradient then
    stored in its leaf's sink: True, or False if the buffer was not as noted (nothing done). An interrupt halfway
    leaves the buffer and the leaves' gradients as they were."""
    lock = buf.lock
    lock.acquire()
    try:
        # (not live: another thread built the step's tape meanwhile; a buffer that ran: see ``extend_replayed``)
        ps = buf.extend_replayed(at, new, calls, n_new, step.plan.programs, step.plan.bwd.leaves) if step.live else None
        if ps is None:
            return False
        try:
            for acc, p in zip(accs, ps):
                if p is not None:
                    acc.grad = p
        except BaseException:
            buf.take_back(at)
            _undo(buf, at, accs, gs)
            raise
    finally:
        lock.release()
    return True


def _callouts(s: _State, step: Step, b: Backward, buf: Any, accs: list, gs: list, new: list) -> bool:
    """Run the PyLayers' backwards of a replayed ``backward()`` between its noted calls, then its last calls (the
    buffer inputs ``new`` entered first) and the leaves' gradients, as ``try_backward`` does without PyLayers.

    Before each, the state is what the normal walk has made of it by then: the leaves it has stored hold
    their gradients (user code may read or change them), the nodes it has run count as freed. Returns True (the
    step replayed; or it left its note on the way and walked on from there, ``_rest``), or False: nothing was done
    (the backward is to be walked from its root).
    """
    log = step.log
    leaves = b.leaves
    written = [False] * len(accs)
    made: dict[int, Any] = {}  # one Pending per buffer slot (``_made``)
    state = None  # (callout, Pendings made, what the PyLayer's backward returned)
    lock = buf.lock
    for co, (calls, n_new) in zip(b.callouts, b.segs):
        lock.acquire()
        ok = whole = False
        try:
            at = buf.size()
            # the buffer as the noted walk had it here (else another thread ran it or built the step's tape)
            ok = at == co.at and not buf.done and step.live
            if ok:
                buf.extend_calls(calls, n_new)
                for i in co.reached:
                    if not written[i]:
                        accs[i].grad = _made(made, buf, leaves[i][1], leaves[i][2])
                        written[i] = True
                step.freed = co.freed
                for _, _, _, slot, aval in co.pending:  # kept alive: a walk may have to go on from them
                    _made(made, buf, slot, aval)
                cts = []
                for slot, aval in co.cts:
                    if slot < 0:  # an output no op used: no gradient, as the walk gave it
                        cts.append(None)
                        continue
                    p = made.get(slot)  # (``_made``, written out)
                    if p is None:
                        p = made[slot] = buf.pending(slot, aval)
                    cts.append(p)
            whole = True
        except BaseException:  # interrupted halfway: the buffer and the leaves' gradients as before this part
            if not whole and ok:
                _undo(buf, at, accs, gs)
            raise
        finally:
            lock.release()
        if not ok:
            return _rest(step, state, accs)
        node = log[co.k][2]
        s.step, s.pos, s.plan = None, SUSPENDED, None  # suspended: its ops record calls, not events
        inner = co.inner
        if inner is not None:
            s.inner, s.inner_i, s.inner_buf = inner, 0, buf
        try:  # (its backward itself: the callout events concern a backward being noted, and its node is live)
            grads = node._backward(cts, None)
        except BaseException:
            _resume(step)
            diverge()  # the tape as the normal walk leaves it when this raises
            s.pos = BEGIN  # as after a failed backward() (the next op begins a new step)
            raise
        state = (co, made, grads)
        # each of its ops was the next noted one (see ``_forward_recorded``)
        replayed = inner is not None and s.inner is inner and s.inner_i == len(inner)
        if s.step is not None or s.rec is not None:  # (``_resume``, written out: every callout) user code nested a step
            _resume(step)
            return _rest(step, state, accs)
        s.step, s.pos, s.plan = step, BEGIN, step.plan
        s.inner = None
        # what the PyLayer's backward recorded and returned is the noted, and the leaves the walk has yet to reach
        # have the gradients and no hooks they had (user code ran); a buffer not done is still this thread's
        # current one: a new one is made only after a run
        end = co.end
        if (buf.done or not step.live or len(grads) != len(co.grads)
                or (buf.size() != end if replayed
                    else len(buf.refs) != end[1] or len(buf.calls) != end[0]
                    or not buf.same_since(end[0] - len(co.calls), co.n_ext, co.calls, co.ext_avals))):
            return _rest(step, state, accs)
        for g, j in zip(grads, co.grads):  # each gradient in its noted slot, or None where the note has none
            if j < 0:
                if g is not None:
                    return _rest(step, state, accs)
            elif type(g) is not Pending or g.buf is not buf or g.idx != j or g.array is not None:
                return _rest(step, state, accs)
        for acc, g, w, (_, slot, _) in zip(accs, gs, written, leaves):
            if slot >= 0 and not w and (acc.pre_hooks or acc.grad is not g):
                return _rest(step, state, accs)
    # the calls after the last PyLayer's backward, and the leaves' gradients
    at = b.tail_at
    if at is not None:  # the leaves' gradients all new Pendings: one buffer call, as without PyLayers
        if not _extend_tail(step, buf, at, new, *b.segs[-1], accs, gs):
            return _rest(step, state, accs)
    else:
        lock.acquire()
        at = buf.size()
        memo = None
        ok = whole = False
        try:
            # else another thread ran the buffer or built the step's tape meanwhile; after the PyLayers' backwards,
            # the leaves' gradients still go in as noted
            ok = not buf.done and step.live and at[2] == b.ext_tail
            for v, _ in new:
                if buf.input_index(v) is not None:
                    ok = False
            if ok:
                for v, aval in new:
                    buf.enter(v, aval)
                buf.extend_calls(*b.segs[-1])
                memo = buf.use_programs(step.plan.programs)
                for i, (acc, (_, slot, aval)) in enumerate(zip(accs, leaves)):
                    if slot >= 0 and not written[i]:
                        acc.grad = _made(made, buf, slot, aval)
            whole = True
        except BaseException:  # interrupted halfway: the buffer and the leaves' gradients as they were
            if not whole and ok:
                _undo(buf, at, accs, gs)
                buf.use_programs(memo)
            raise
        finally:
            lock.release()
        if not ok:
            return _rest(step, state, accs)
    for co in b.callouts:
        node = log[co.k][2]
        node.release()
        step.nodes[co.k] = node
    return _replayed(s, step)


def _build_unreached(step: Step) -> None:
    """After a replayed backward: the nodes of the ops that do not lead to the loss, unfreed, as the normal
    backward leaves them (their inputs' nodes freed)."""
    hooks, modes.saved_hooks = modes.saved_hooks, []  # (as ``_materialise``: the ops ran before any hook entered)
    try:
        for k in step.plan.unreached:
            ev = step.events[k]
            leaves, t = step.log[k][0], step.log[k][1]
            edges = []
            for x, src in zip(leaves, ev.srcs):
                if src.stop_gradient:
                    edges.append(None)
                elif src.kind == IN_STEP:
                    edges.append((resolve(step, src.ref), src.aval or 0))
                elif src.kind == THROUGH:
                    edges.append((resolve(step, src.aval[0]), 0))
                else:
                    edges.append(x._leaf_edge())
            arrays = [x._v if isinstance(x, Tensor) else x for x in leaves]
            outs = [t] if ev.out_tree is None else t
            step.nodes[k] = make_node(ev.op, ev.key, leaves, ev.leaf_param, arrays, ev.needs, [o._v for o in outs],
                                      edges)
    finally:
        modes.saved_hooks = hooks


def _undo(buf: Any, at: tuple, accs: list, gs: list) -> None:
    """Take back an interrupted part of a replayed backward: the buffer to its size ``at`` (``lazy.mark``), and a
    leaf whose gradient became a result taken back gets the gradient it had before the backward."""
    lazy.rollback(buf, at)
    for acc, g0 in zip(accs, gs):
        g = acc.grad
        if type(g) is Pending and g.buf is buf and g.idx >= at[1]:
            acc.grad = g0


def _made(made: dict[int, Any], buf: Any, slot: int, aval: tuple) -> Any:
    """The Pending of a buffer slot, made once (a second one would leave the first without its value)."""
    p = made.get(slot)
    if p is None:
        p = made[slot] = buf.pending(slot, aval)
    return p


def _rest(step: Step, state: tuple | None, accs: list) -> bool:
    """The replayed backward leaves its note after a PyLayer's backward (``state``): build the tape as the
    normal walk has left it there (the nodes it ran are freed), send that PyLayer's gradients on (its backward
    is not called again) and walk on over the nodes the walk had yet to run, in its order, from the gradients
    it held. Returns True; False if no PyLayer's backward has run (then nothing was done and the caller walks
    from the root)."""
    s = _tls.s
    s.step, s.pos, s.plan = step, BEGIN, step.plan
    diverge()
    if state is None:
        return False
    co, made, grads = state
    node = step.nodes[co.k]
    waiting = [((step.nodes[j] if kind == 0 else accs[j], oj), made[slot]) for kind, j, oj, slot, _ in co.pending]
    waiting += [(e, g) for e, g in zip(node.next_edges, grads) if e is not None and g is not None]
    node.release()
    try:
        with grad_mode(False):
            walk_on([step.nodes[j] if kind == 0 else accs[j] for kind, j in co.rest], waiting)
    finally:
        s.pos = BEGIN  # the next op begins a new step (as after backward())
    return True


def _resume(step: Step) -> bool:
    """Back from user code run with the step suspended; True if that code began a step or note of its own."""
    s = _tls.s
    nested = s.step is not None or s.rec is not None
    if nested:
        if s.step is not None:
            materialise(s.step)
        abort()
    s.step, s.pos, s.plan = step, BEGIN, step.plan
    s.inner = None
    return nested


def _grad_state(g: Any, buf: Any) -> Any:
    """A leaf's gradient as the note sees it: None (none or zeroed), a slot of ``buf``, an array, or _NO."""
    if g is None or g is ZEROED:
        return None
    if type(g) is Pending:
        if g.buf is buf:
            return g.idx if g.array is None else _NO
        g = g.array  # a result of an earlier run
    return g if type(g) is _ArrayImpl else _NO


def _same_state(a: Any, b: Any) -> bool:
    return type(a) is type(b) and (a is b or (type(a) is int and a == b))


def diverge(noting: bool = False) -> None:
    """The step leaves the note: build its real tape so far; drop the note (the next step is noted). ``noting``: an
    op of the step that is not the note's: the note of this step goes on from there (``_note_from``), the note it
    left kept."""
    s = _tls.s
    step = s.step
    s.step = None
    s.pos = OFF
    s.plan = None
    abort()
    if step is not None:
        k = len(step.log) if noting and step.live and step.events[0].op is not None else 0
        materialise(step)
        if k:
            _note_from(s, step, k)


def materialise(step: Step) -> None:
    """Build the tape nodes of a replayed step, as normal dispatch would have, in place of its stubs."""
    lock = step.buf.lock  # (held: another thread resolving a stub of this step waits for a replayed op)
    lock.acquire()
    try:
        _materialise(step)
    finally:
        lock.release()


def _materialise(step: Step) -> None:
    if not step.live:
        return
    step.live = False
    _LIVE.pop(id(step), None)
    STATS["materialised"] += 1
    s = _tls.s
    if s.step is step:
        s.step = None
        s.pos = OFF
        s.plan = None
    hooks, modes.saved_hooks = modes.saved_hooks, []  # the ops ran before any hook entered since: none packs
    try:
        for k, entry in enumerate(step.log):
            ev = step.plan.events[k]
            leaves, t = entry[0], entry[1]
            edges = []  # each input's grad_edge() at the call, from the note (stop_gradient may have changed)
            for x, src in zip(leaves, ev.srcs):
                if src.stop_gradient:
                    edges.append(None)
                elif src.kind == IN_STEP:
                    edges.append((step.nodes[src.ref], src.aval or 0))
                elif src.kind == THROUGH:  # the apply's output: its node's only output
                    edges.append((step.nodes[src.aval[0]], 0))
                else:
                    edges.append(x._leaf_edge())
            if type(ev) is LayerEvent:  # the apply's node was made with it: it gets its edges now
                node = entry[2]
                node.next_edges = edges
            elif ev.needs is None:  # a plain event made no node
                continue
            else:
                arrays = [x._v if isinstance(x, Tensor) else x for x in leaves]  # (numbers, arrays as they are)
                outs = [t] if ev.out_tree is None else t
                node = make_node(ev.op, ev.key, leaves, ev.leaf_param, arrays, ev.needs, [o._v for o in outs], edges)
            step.nodes[k] = node
            if ev.out_tree is None:
                e = t._e
                if e is not None and e[0] is step and e[1] == k:
                    t._e = (node, 0)
            else:
                for j, o in enumerate(t):
                    e = o._e
                    if e is not None and e[0] is step and e[1] == (k, j):
                        o._e = (node, j)
        for k in step.freed:
            step.nodes[k].release()
    finally:
        modes.saved_hooks = hooks
        step.log = []


def resolve(step: Step, k: int) -> OpNode:
    """The real node the stub edge ``(step, k)`` stands for (built now, or a freed one after a replayed backward)."""
    node = step.nodes.get(k)
    if node is None:
        if step.live:
            materialise(step)
        node = step.nodes.get(k)
        if node is None:  # freed by the replayed backward: a node that says so
            ev = step.plan.events[k]
            node = OpNode(ev.op, ev.key, [], None, ev.node_avals, ev.needs, [None] * len(ev.needs), list(ev.out_avals))
            node.release()
            step.nodes[k] = node
    return node


def mark_write(t: Any = None) -> None:
    """A write that rebinds a Tensor's array or bumps its version is about to happen: every live step, of any
    thread, materialises first (its nodes save the versions and arrays its ops saw; backward checks them), unless
    the Tensor written (``t``) is no input of an op of the step that made a node nor of a PyLayer's apply: a
    BatchNorm's running statistics, read by a plain op (no node) and written each step."""
    s = _tls.s
    step = s.step
    if step is not None and not _untouched(step, t):
        diverge()
    if _LIVE:
        for ref in list(_LIVE.values()):
            step = ref()
            if step is not None and not _untouched(step, t):
                materialise(step)


def _untouched(step: Step, t: Any) -> bool:
    """Whether the step's tape (when built) would hold nothing of Tensor ``t`` (False when ``t`` is None)."""
    if t is None:
        return False
    events = step.events
    for k, entry in enumerate(list(step.log)):  # (a copy: another thread may append meanwhile)
        ev = events[k]
        if type(ev) is not LayerEvent and ev.needs is None:  # a plain op: no node saves its inputs
            continue
        for x in entry[0]:
            if x is t:
                return False
        outs = entry[1]
        if outs is t or (type(outs) is list and any(o is t for o in outs)):
            return False
    return True


def abort() -> None:
    """Stop taking the note of this step."""
    s = _tls.s
    s.rec_co = s.rec_inner = s.inner = None
    if s.rec is not None:  # (one assignment: an interrupt leaves all or none of it)
        s.rec, s.rec_nodes, s.rec_node_idx, s.rec_slots, s.rec_leaves, s.rec_leaf_ids, s.rec_buf = (
            None, [], {}, {}, [], {}, None)
    if s.pos is BEGIN and s.step is None:
        s.pos = OFF


def boundary() -> None:
    """A backward ended (or failed): the next op begins a new step."""
    s = _tls.s
    step = s.step
    if step is not None:
        s.step = None
        materialise(step)
    abort()
    s.pos = BEGIN
