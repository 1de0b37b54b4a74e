"""Whole training steps as one XLA program: ``to_static`` of a function that calls ``backward()``.

Layer L6 (``jit``). A function that runs the forward, ``loss.backward()``, ``opt.step()`` and
``opt.clear_grad()`` is traced once per call signature into one jitted function:

- the state it reads and writes is found while tracing (as ``to_static``'s implicit inputs are):
  the Tensors its ops read (parameters, buffers, closures), the Tensors written in place, the
  parameters an optimizer updates, their gradients (``.grad``: none, zeroed or an array) and each
  optimizer's per-parameter state and learning rate;
- inside the trace those Tensors hold tracers in place of their arrays, so the eager machinery runs
  as it is: the tape records nodes on tracers (``modes.trace_tape``), ``backward()`` walks them,
  PyLayers run their traced driver as one node, the optimizer's update is called on tracers;
  afterwards every Tensor, gradient and optimizer state is put back as it was;
- the compiled function takes that state as inputs (read afresh at every call) and returns what the
  step wrote; the inputs it overwrites are donated, and the results are written back after the call
  (a Tensor's version moves on as the step moved it). The learning rate is an input: a scheduler
  changes it without a new compile.

A value read inside (``.item()``, ``.numpy()``, ``float()``, ``print``, an ``if`` on a Tensor) raises a
``RuntimeError`` naming the line: inside the step no Tensor has a value yet. Return it and read it
after the call. With ``full_graph=False`` such a step runs eagerly instead.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._autograd.graph import ZEROED
from .._exec.deferred import Pending
from .._runtime.rng import generator
from .._runtime.state import modes
from .._tensor import step_events as _ev
from .._tensor.facade import HELD, Tensor, before_write, follow_grads
from .._tensor.views import reach
from ._paths import CONTROL_FLOW_ERRORS, Implicit, control_flow_error, find_paths, resolver

_Tracer = jax.core.Tracer
_tls = threading.local()  # .call: the call being traced (its Tensors and optimizers)
_NO_GRAD, _ZERO_GRAD, _GRAD = 0, 1, 2  # a state Tensor's .grad when the step begins
_MAX_ROUNDS = 64
_MAX_PROGRAMS = 16  # compiled programs kept per step function and call structure (oldest dropped)
MISS = object()  # a fast call found something changed: take the full path


class StepFound(Exception):  # noqa: N818 - internal signal, never seen by users
    """A to_static trace called ``backward()`` or an optimizer's ``step()``: the function is a training step."""


class NewState(Exception):  # noqa: N818 - internal signal
    """A step trace met Tensors or optimizers that are not inputs yet: trace again with them."""

    def __init__(self, tensors: list[Tensor], opts: list[Any], rng: bool, states: list[tuple[Any, Tensor]]) -> None:
        super().__init__("to_static: new state of a training step")
        self.tensors, self.opts, self.rng, self.states = tensors, opts, rng, states


def _snapshot(t: Tensor) -> tuple:
    acc = t._acc
    return (t, t._v, t._e, t._sg, acc, None if acc is None else acc.grad, t._counter,
            None if t._counter is None else t._counter.value, t._grad_t, t._retained)


def _restore(snap: tuple) -> None:
    t, v, e, sg, acc, grad, counter, version, grad_t, retained = snap
    t._v, t._e, t._sg, t._grad_t, t._retained = v, e, sg, grad_t, retained
    if acc is None:
        t._acc = None
    else:
        t._acc = acc
        acc.grad = grad
    t._counter = counter
    if counter is not None:
        counter.value = version


class _StepCapture:
    """``modes.capture`` while a step is traced: finds state that is not an input yet, swaps in the rates."""

    def __init__(self, given: set[int], lrs: dict[int, Any]) -> None:
        self.given = given  # ids of the Tensors holding tracers
        self.lrs = lrs  # id(optimizer) -> the tracer of its learning rate
        self.found: dict[int, Tensor] = {}
        self.new_opts: dict[int, Any] = {}
        self.new_states: list[tuple[Any, Tensor]] = []  # (optimizer, parameter) whose state the step would create
        self.snaps: dict[int, tuple] = {}  # Tensors from outside touched by this (thrown away) trace
        self.undo: list[Callable[[], None]] = []  # attributes set to Tensors of the trace: put back at its end

    def _outside(self, t: Tensor) -> None:
        if id(t) not in self.found:
            self.found[id(t)] = t
            self.snaps[id(t)] = _snapshot(t)

    def read(self, leaves: Any, arrays: list[Any]) -> list[Any]:
        for x in leaves:
            if isinstance(x, Tensor) and not isinstance(x._v, _Tracer):
                self._outside(x)
        return arrays

    def write(self, t: Tensor) -> None:
        if id(t) not in self.given and not isinstance(t._v, _Tracer):
            self._outside(t)

    def backward_called(self) -> None:
        pass

    def optimizer_step(self, opt: Any, params: list[Tensor], lr: Any) -> Any:
        acc = opt._accumulators
        for p in params:
            if id(p) not in self.given:
                self._outside(p)
            if id(p) not in acc:
                self.new_states.append((opt, p))
        lr_in = self.lrs.get(id(opt))
        if lr_in is None:
            if id(opt) not in self.new_opts:
                self.new_opts[id(opt)] = (opt, dict(opt._accumulators))
            return lr
        return lr_in


class _Call:
    """What one call of a step hands its trace: the state Tensors, optimizers, arguments."""

    __slots__ = ("step", "tensors", "opts", "opt_ids", "args_tree", "leaves", "rng")

    def __init__(self, step: WholeStep, tensors: list[Tensor], opts: list[Any], opt_ids: list[tuple[int, ...]],
                 args_tree: Any, leaves: list[Any], rng: bool) -> None:
        self.step, self.tensors, self.opts, self.opt_ids = step, tensors, opts, opt_ids
        self.args_tree, self.leaves, self.rng = args_tree, leaves, rng


class _Program:
    """One compiled step: its trace function, what it writes (learnt while tracing), the jitted callable."""

    def __init__(self, step: WholeStep, kinds: tuple[int, ...], state_tree: Any) -> None:
        self.step = step
        self.kinds = kinds  # per state Tensor: its .grad when the step begins (_NO_GRAD, _ZERO_GRAD, _GRAD)
        self.state_tree = state_tree  # the optimizers' states given: per optimizer, per parameter with state
        # learnt by the trace (see ``_outputs``): what comes out after the function's own results
        self.value_out: list[int] = []  # state Tensors whose array the step rebinds
        self.version: list[tuple[int, int]] = []  # (state Tensor, how far the step moves its version)
        self.grad_out: list[tuple[int, Any]] = []  # (state Tensor, its .grad after: None, ZEROED or _GRAD)
        self.state_ids: list[list[int]] = []  # per optimizer: the parameters whose state comes out
        self.state_out: Any = None  # their treedef
        self.rng_out = False
        self.out_tree: Any = None
        self.out_static: list[Any] = []
        self.n_user = 0
        self.write_states = False  # whether the states that come out are written back (not when none has arrays)
        self.single = False  # the function returns one Tensor
        self.donate: tuple[int, ...] = ()
        self.fn: Callable[..., Any] | None = None
        self.n_in = 0
        self.jaxpr: Any = None  # the trace (a ClosedJaxpr): programs of other signatures that equal it share it
        self.consts: list[Any] = []
        self._text: str | None = None

    # ---- the trace -------------------------------------------------------------------------
    def body(self, *flat: Any) -> tuple:
        c = getattr(_tls, "call", None)
        if c is None or c.step is not self.step:  # a fast call (``_Fast``), which sets no _tls.call, traces again
            c = self.step._fast_call()
        it = iter(flat)
        snaps = [_snapshot(t) for t in c.tensors]
        acc_before = [dict(o._accumulators) for o in c.opts]
        rng_before = generator._state
        prev = (modes.capture, modes.trace_tape)
        lrs: dict[int, Any] = {}
        cap = _StepCapture({id(t) for t in c.tensors}, lrs)
        try:
            given = []
            for t in c.tensors:
                t._v = next(it)
                given.append(t._v)
                if t._e is not None:  # a Tensor with history from outside the step: a constant here
                    t._e, t._sg = None, True
            given_grads = []
            for t, kind in zip(c.tensors, self.kinds):
                g = next(it) if kind == _GRAD else (ZEROED if kind == _ZERO_GRAD else None)
                if g is not None:
                    t._leaf_edge()
                    t._acc.grad = g
                t._grad_t = None
                given_grads.append(g)
            states = jax.tree_util.tree_unflatten(self.state_tree, [next(it) for _ in range(self.state_tree.num_leaves)])
            for o, ids, sts in zip(c.opts, c.opt_ids, states):
                o._accumulators.update(zip(ids, sts))
            for o in c.opts:
                lrs[id(o)] = next(it)
            if c.rng:
                generator._state = next(it)
            rng_in = generator._state
            a, kw = jax.tree_util.tree_unflatten(c.args_tree, c.leaves)  # the argument Tensors hold tracers now
            _ev.EVENTS.write()  # no replayed eager step spans the trace (a live one builds its tape now)
            modes.capture, modes.trace_tape = cap, True
            try:
                out = self.step.fn(*a, **dict(kw))
            except CONTROL_FLOW_ERRORS as e:
                raise control_flow_error(self.step.name, e, step=True) from e
            finally:
                modes.capture, modes.trace_tape = prev
            drew = generator._state is not rng_in
            if cap.found or cap.new_opts or cap.new_states or (drew and not c.rng):
                raise NewState(list(cap.found.values()), [o for o, _ in cap.new_opts.values()], drew and not c.rng,
                               cap.new_states)
            return self._outputs(c, out, given, given_grads, snaps)
        finally:
            modes.capture, modes.trace_tape = prev
            for f in reversed(cap.undo):
                f()
            for s in cap.snaps.values():
                _restore(s)
            for o, before in [*zip(c.opts, acc_before), *cap.new_opts.values()]:
                o._accumulators.clear()
                o._accumulators.update(before)
            for s in snaps:
                _restore(s)
            generator._state = rng_before

    def _outputs(self, c: _Call, out: Any, given: list[Any], given_grads: list[Any], snaps: list[tuple]) -> tuple:
        res: list[Any] = []
        leaves, self.out_tree = jax.tree_util.tree_flatten(out, is_leaf=lambda v: isinstance(v, Tensor))
        self.out_static = []
        for v in leaves:
            if isinstance(v, Tensor):
                res.append(v._v)
                self.out_static.append(None)
            elif isinstance(v, jax.Array):
                raise TypeError(f"{self.step.name}: a training step must return Tensors (or Python values), but it "
                                f"returned a {type(v).__name__}; wrap it with paddle.to_tensor.")
            else:
                self.out_static.append(v)
        self.n_user = len(res)
        self.value_out, self.version, self.grad_out = [], [], []
        for i, (t, g0, s) in enumerate(zip(c.tensors, given, snaps)):
            if t._v is not g0:
                self.value_out.append(i)
                res.append(t._v)
            before = s[7] or 0
            after = t._counter.value if t._counter is not None else 0
            moved = after - before if t._counter is s[6] else after
            if moved:  # (a counter made at version 0 is the same as none)
                self.version.append((i, moved))
        for i, (t, g0) in enumerate(zip(c.tensors, given_grads)):
            g = t._acc.grad if t._acc is not None else None
            if g is g0 and not isinstance(g, _Tracer):
                continue
            if isinstance(g, _Tracer):
                self.grad_out.append((i, _GRAD))
                res.append(g)
            elif g is None or g is ZEROED:
                self.grad_out.append((i, g))
            else:
                raise RuntimeError(f"{self.step.name}: the gradient of {t.name} was set to a value from outside "
                                   "the step; set gradients from Tensors computed inside it.")
        self.state_ids = [[id(t) for t in c.tensors if id(t) in o._accumulators] for o in c.opts]
        sl, self.state_out = jax.tree_util.tree_flatten(
            [[o._accumulators[i] for i in ids] for o, ids in zip(c.opts, self.state_ids)])
        res.extend(sl)
        self.write_states = (bool(sl) or self.state_tree.num_leaves > 0
                             or [list(ids) for ids in c.opt_ids] != self.state_ids)
        self.single = self.n_user == 1 and len(self.out_static) == 1
        self.rng_out = c.rng
        if c.rng:
            res.append(generator._state)
        return tuple(res)

    def serves(self, new: _Program) -> bool:
        """Whether this program can run the calls ``new`` (traced for another signature) was traced for: the
        same jaxpr and constants, the same writes. A step traced once with gradients of None and once with
        zeroed ones (the first call and the next, after ``clear_grad()``) is one program, compiled once."""
        try:
            same = (self.meta() == new.meta() and len(self.consts) == len(new.consts)
                    and all(a is b or (getattr(a, "shape", None) == getattr(b, "shape", None)
                                       and bool(np.array_equal(np.asarray(a), np.asarray(b))))
                            for a, b in zip(self.consts, new.consts)))
        except Exception:  # noqa: BLE001 - an output value that cannot be compared: not the same
            return False
        # each .grad ends as ``new`` leaves it (a gradient left as it was ends as it began)
        return (same and _grads_after(new.kinds, self.grad_out) == _grads_after(new.kinds, new.grad_out)
                and self.text() == new.text())

    def meta(self) -> tuple:
        return (self.n_in, self.n_user, tuple(self.value_out), tuple(self.version), sum(k == _GRAD for _, k in self.grad_out),
                tuple(map(tuple, self.state_ids)), self.state_out, self.write_states, self.rng_out, self.out_tree,
                tuple(map(type, self.out_static)), tuple(self.out_static), self.donate)

    def text(self) -> str:
        if self._text is None:
            self._text = str(self.jaxpr)
        return self._text

    # ---- a call -------------------------------------------------------------------------------
    def run(self, c: _Call, flat: list[Any]) -> tuple:
        """Call the compiled step on ``flat`` and write back what it wrote; the raw results."""
        for j in self.donate:  # an array someone else holds too (a detached copy, a state_dict) is not consumed
            if sys.getrefcount(flat[j]) > 3:
                flat[j] = jnp.copy(flat[j])
        before_write()  # a replayed eager step that reads these Tensors builds its tape first
        prev = getattr(_tls, "call", None)
        _tls.call = c  # (read only if the call traces)
        try:
            res = self.fn(*flat)  # type: ignore[misc]
        finally:
            _tls.call = prev
        self.write_back(c.tensors, c.opts, res)
        return res

    def write_back(self, tensors: list[Tensor], opts: list[Any], res: tuple) -> None:
        """Put what the step wrote (in the raw results ``res``) into its Tensors, gradients and optimizers."""
        pos = self.n_user
        for i in self.value_out:
            tensors[i]._v = res[pos]
            pos += 1
        reach([tensors[i] for i in self.value_out])  # (views made before, in eager code, see the new values)
        for i, d in self.version:
            tensors[i]._version_counter().value += d
        for i, kind in self.grad_out:
            t = tensors[i]
            if kind == _GRAD:
                t._leaf_edge()
                t._acc.grad = res[pos]  # type: ignore[union-attr]
                pos += 1
            elif kind is ZEROED:
                t._leaf_edge()
                t._acc.grad = ZEROED  # type: ignore[union-attr]
            elif t._acc is not None:
                t._acc.grad = None
        if self.write_states:  # (states without arrays that were given stay as they are)
            states = self.state_out.unflatten(res[pos:pos + self.state_out.num_leaves])
            for o, ids, sts in zip(opts, self.state_ids, states):
                o._accumulators.update(zip(ids, sts))
        if self.rng_out:
            generator.set_state(res[-1])
        if HELD:  # the Tensors .grad handed out follow the new gradients
            follow_grads()

    def user(self, res: tuple) -> Any:
        """The function's own results, as Tensors."""
        if self.single:
            return Tensor(res[0])
        user = iter(res[:self.n_user])
        return jax.tree_util.tree_unflatten(self.out_tree, [Tensor(next(user)) if s is None else s
                                                            for s in self.out_static])


def _grads_after(kinds: tuple[int, ...], grad_out: list[tuple[int, Any]]) -> tuple:
    """Each state Tensor's .grad after a call that began with ``kinds``: None, ZEROED, the array it had ("kept")
    or one the program returns (_GRAD)."""
    start = {_NO_GRAD: None, _ZERO_GRAD: ZEROED, _GRAD: "kept"}
    end = [start[k] for k in kinds]
    for i, kind in grad_out:
        end[i] = kind
    return tuple(end)




class _Fast:
    """What the last call of a step left behind, for the next call to check cheaply and reuse.

    After a call, each state Tensor holds the array the program returned, each optimizer state the
    one it returned; if nothing has replaced them (same implicit Tensors, same ``stop_gradient``, same
    kind of ``.grad``, the same optimizer state objects), the next call is the same program on them:
    no key is computed, no pytree flattened. Anything else takes the full path, which looks again.

    The whole call (the checks, the compiled program, the write-back) is one generated function
    (``call``): straight-line Python for this step's Tensors and optimizers, which calls the jitted
    program with its arrays as positional arguments (jax's C++ dispatch).
    """

    __slots__ = ("prog", "call", "positions", "eids", "imp_ids", "imp_set", "sgs", "leafs", "kinds", "avals", "accs",
                 "acc_lens", "state_keys", "state_objs", "state_leaves", "opt_ids", "exp_state", "args_tree", "leaves")

    def __init__(self, step: WholeStep, prog: _Program, positions: tuple[int, ...], tensors: list[Tensor],
                 n_exp: int, desc: tuple, flat: list[Any], opts: list[Any], args_tree: Any) -> None:
        _ids, sgs, leafs, kinds, opt_ids, _tree, _grads, state_leaves = desc
        self.prog = prog
        self.positions = positions
        self.args_tree = args_tree
        self.leaves: list[Any] | None = None  # the arguments of the call in progress (for a trace it may need)
        self.eids = tuple(map(id, tensors[:n_exp]))
        self.imp_ids = tuple(map(id, tensors[n_exp:]))
        self.imp_set = frozenset(self.imp_ids)
        self.sgs, self.leafs, self.kinds = sgs, leafs, kinds
        self.avals = tuple((v.shape, v.dtype) for v in flat[:n_exp])
        self.accs = [o._accumulators for o in opts]
        self.acc_lens = [(a, len(a)) for a in self.accs]
        self.state_keys = [(a, i) for a, ids in zip(self.accs, opt_ids) for i in ids]
        self.state_objs = [a[i] for a, i in self.state_keys]
        self.state_leaves: tuple | list = tuple(state_leaves)
        self.opt_ids = opt_ids
        self.exp_state = any(i in a for a in self.accs for i in self.eids)
        self.call = self.compile_call(step, opts)

    def compile_call(self, step: WholeStep, opts: list[Any]) -> Callable[[list[Any]], Any]:
        """``call(leaves)`` written out for this call's Tensors and optimizers as straight-line Python (compiled
        once): ``MISS`` where something changed since the last call (nothing is touched then), else the
        program run on the next call's arrays, its writes put back, and the function's results."""
        prog = self.prog
        n_exp = len(self.eids)
        n_imp = len(self.imp_ids)
        m_acc = {id(a): m for m, a in enumerate(self.accs)}
        env: dict[str, Any] = {"fast": self, "step": step, "get": step._get, "ZEROED": ZEROED, "Pending": Pending,
                               "gen": generator, "opts": opts, "lrs": [step._lrs[id(o)] for o in opts], "jnp": jnp,
                               "accs": self.accs, "MISS": MISS, "refs": sys.getrefcount, "events": _ev,
                               "fn": prog.fn, "Tensor": Tensor, "user": prog.user, "state_out": prog.state_out,
                               "sids": [tuple(ids) for ids in prog.state_ids], "slow": self._slow,
                               "reach": reach, "HELD": HELD, "follow_grads": follow_grads}
        names = [f"e{k}" for k in range(n_exp)] + [f"i{k}" for k in range(n_imp)]
        lines = ["def call(leaves):", "    try:"]
        if n_imp:
            lines.append(f"        {''.join(n + ', ' for n in names[n_exp:])}= get()")
        else:
            lines.append("        pass")
        lines += ["    except Exception:", "        return MISS"]
        for k, i in enumerate(self.imp_ids):
            lines.append(f"    if id(i{k}) != {i}: return MISS")
        for k, p in enumerate(self.positions):
            lines.append(f"    e{k} = leaves[{p}]")
        if n_exp:
            tup = "".join(f"id(e{k}), " for k in range(n_exp))
            lines += [f"    eids = ({tup})", "    if eids != fast.eids and not fast.new_args(eids): return MISS"]
        args = [f"v{k}" for k in range(len(names))]
        grads = []
        for k, (n, sg, leaf, kind) in enumerate(zip(names, self.sgs, self.leafs, self.kinds)):
            lines.append(f"    if {n}._sg is not {sg} or {n}._e is {'not ' if leaf else ''}None: return MISS")
            if kind == _NO_GRAD:
                lines.append(f"    if {n}._acc is not None and {n}._acc.grad is not None: return MISS")
            elif kind == _ZERO_GRAD:
                lines.append(f"    if {n}._acc is None or {n}._acc.grad is not ZEROED: return MISS")
            else:
                lines += [f"    if {n}._acc is None: return MISS", f"    g{k} = {n}._acc.grad",
                          f"    if g{k} is None or g{k} is ZEROED: return MISS",
                          f"    if type(g{k}) is Pending: g{k} = g{k}.get()"]
                grads.append(f"g{k}")
            lines += [f"    v{k} = {n}._v", f"    if type(v{k}) is Pending: v{k} = {n}._value"]
        for k, (shape, dtype) in enumerate(self.avals):
            env[f"shape{k}"], env[f"dtype{k}"] = shape, dtype
            lines.append(f"    if v{k}.shape != shape{k} or v{k}.dtype != dtype{k}: return MISS")
        for k, (_a, n) in enumerate(self.acc_lens):
            lines.append(f"    if len(accs[{k}]) != {n}: return MISS")
        if self.state_keys:
            lines.append("    so = fast.state_objs")
            for k, (a, i) in enumerate(self.state_keys):
                lines.append(f"    if accs[{m_acc[id(a)]}].get({i}) is not so[{k}]: return MISS")
        args += grads
        n_states = len(self.state_leaves)
        states = [f"s{k}" for k in range(n_states)]
        if n_states:
            lines.append(f"    {''.join(n + ', ' for n in states)}= fast.state_leaves")
        args += states
        for k in range(len(opts)):
            lines += [f"    lr = float(opts[{k}].get_lr())", f"    c = lrs[{k}]",
                      "    if c[0] != lr:", "        c[0], c[1] = lr, jnp.asarray(lr)", f"    lr{k} = c[1]"]
            args.append(f"lr{k}")
        if step.rng:
            lines.append("    rng = gen.get_state()")
            args.append("rng")
        # ---- the call: nothing above has changed anything
        if n_exp:
            lines.append("    fast.eids = eids")
        if n_states:
            lines.append("    fast.state_leaves = ()  # (held only by the states now: the program may consume them)")
        for j in prog.donate:  # an array someone else holds too (a detached copy, a state_dict) is not consumed
            lines.append(f"    if refs({args[j]}) > 3: {args[j]} = jnp.copy({args[j]})")
        lines += ["    events.EVENTS.write()  # (before_write: a replayed eager step reading these builds its tape first)",
                  "    fast.leaves = leaves", f"    res = fn({', '.join(args)})", "    fast.leaves = None",
                  f"    if step._fast is not fast: return slow(res, [{', '.join(names)}])  # (it traced again)"]
        # ---- the write-back (``_Program.write_back`` written out)
        pos = prog.n_user
        for i in prog.value_out:
            lines.append(f"    {names[i]}._v = res[{pos}]")
            pos += 1
        if prog.value_out:  # (views made before, in eager code, see the new values)
            lines.append(f"    reach(({''.join(names[i] + ', ' for i in prog.value_out)}))")
        for i, d in prog.version:
            lines.append(f"    {names[i]}._version_counter().value += {d}")
        for i, kind in prog.grad_out:  # (a .grad the call began with as it ends is left alone)
            n, began = names[i], self.kinds[i]
            edge = [] if began != _NO_GRAD else [f"    {n}._leaf_edge()"]  # (a .grad checked above: it has a sink)
            if kind == _GRAD:
                lines += [*edge, f"    {n}._acc.grad = res[{pos}]"]
                pos += 1
            elif kind is ZEROED:
                if began != _ZERO_GRAD:
                    lines += [*edge, f"    {n}._acc.grad = ZEROED"]
            elif began != _NO_GRAD:
                lines.append(f"    {n}._acc.grad = None")
        if prog.write_states:
            end = pos + prog.state_out.num_leaves
            lines.append(f"    sts = state_out.unflatten(res[{pos}:{end}])")
            lines += [f"    accs[{k}].update(zip(sids[{k}], sts[{k}]))" for k in range(len(opts))]
            objs = ", ".join(f"accs[{m_acc[id(a)]}][{i}]" for a, i in self.state_keys)
            lines += [f"    fast.state_objs = [{objs}]", f"    fast.state_leaves = res[{pos}:{end}]"]
        if prog.rng_out:
            lines.append("    gen.set_state(res[-1])")
        if prog.grad_out:  # (the Tensors .grad handed out follow the new gradients)
            lines.append("    if HELD: follow_grads()")
        lines.append("    return Tensor(res[0])" if prog.single else "    return user(res)")
        exec("\n".join(lines) + "\n", env)  # noqa: S102 - built from ids, flags and counts
        return env["call"]

    def _slow(self, res: tuple, tensors: list[Tensor]) -> Any:
        """The write-back of a fast call whose program traced again (new shapes): what that trace learnt."""
        prog = self.prog
        prog.write_back(tensors, prog.step.opts, res)
        return prog.user(res)

    def new_args(self, eids: tuple[int, ...]) -> bool:
        """Other argument Tensors than last time: none may be a state Tensor or have optimizer state."""
        if self.exp_state or len(set(eids)) != len(eids) or not self.imp_set.isdisjoint(eids):
            return False
        return not any(i in a for a in self.accs for i in eids)


class WholeStep:
    """The compiled training steps of one ``to_static`` function and call structure."""

    def __init__(self, fn: Callable[..., Any], name: str) -> None:
        self.fn = fn
        self.name = name
        self.implicit: list[Implicit] = []
        self._get: Callable[[], list[Any]] | None = None  # finds every implicit input again (``resolver``)
        self.opts: list[Any] = []  # the optimizers it steps (held like a closure holds them)
        self.rng = False
        self.programs: dict[Any, _Program] = {}
        self._fast: _Fast | None = None
        self._lrs: dict[int, list[Any]] = {}  # id(optimizer) -> [its last rate as a Python float, as an array]

    def _implicit_tensors(self) -> list[Tensor]:
        get = self._get
        if get is None:
            get = self._get = resolver(self.fn, self.implicit)
        try:
            found = get()
        except Exception:  # noqa: BLE001 - a path leads nowhere now: ask each, drop what is gone
            found = None
        if found is None or not all(isinstance(t, Tensor) for t in found):
            found = [imp.get(self.fn) for imp in self.implicit]
            if any(t is None for t in found):
                self.implicit = [imp for imp, t in zip(self.implicit, found) if t is not None]
                self._get = None
                self._fast = None
                found = [t for t in found if t is not None]
        return found

    def _rates(self, flat: list[Any]) -> None:
        """Append each optimizer's learning rate: an array input (the same one while the rate stays)."""
        lrs = self._lrs
        for o in self.opts:
            lr = float(o.get_lr())
            got = lrs.get(id(o))
            if got is None:
                got = lrs[id(o)] = [None, None]
            if got[0] != lr:
                got[0], got[1] = lr, jnp.asarray(lr)  # a weakly typed scalar, as the Python float is
            flat.append(got[1])

    def _describe(self, tensors: list[Tensor]) -> tuple:
        """What a call's key is made of: ids, stop_gradient and leaf flags, .grad kinds, optimizer states."""
        for o in self.opts:  # state an eager step left packed is read per parameter here
            o._unpack()
        ids = tuple(map(id, tensors))
        kinds = []
        grads = []
        for t in tensors:
            acc = t._acc
            g = None if acc is None else acc.grad
            if g is None:
                kinds.append(_NO_GRAD)
            elif g is ZEROED:
                kinds.append(_ZERO_GRAD)
            else:
                kinds.append(_GRAD)
                grads.append(g.get() if type(g) is Pending else g)
        opt_ids = [tuple(i for i in ids if i in o._accumulators) for o in self.opts]
        sl, state_tree = jax.tree_util.tree_flatten(
            [[o._accumulators[i] for i in oi] for o, oi in zip(self.opts, opt_ids)])
        sl = [v.get() if type(v) is Pending else v for v in sl]  # (state an eager step left deferred)
        return (ids, tuple(t._sg for t in tensors), tuple(t._e is None for t in tensors), tuple(kinds),
                tuple(opt_ids), state_tree, grads, sl)

    def __call__(self, args_tree: Any, leaves: list[Any], positions: tuple[int, ...]) -> Any:
        f = self._fast
        if f is not None:
            try:
                out = f.call(leaves)
            except BaseException:
                f.leaves = None
                self._fast = None
                raise
            if out is not MISS:
                return out
            self._fast = None
        return self._full(args_tree, leaves, positions)

    def _fast_call(self) -> _Call:
        """The ``_Call`` of the fast call in progress, for its program's trace (the jitted function met new input
        shapes): the Tensors found again. The fast path is dropped: the next call looks again."""
        f = self._fast
        if f is None or f.leaves is None:
            raise RuntimeError(f"{self.name}: a compiled training step traced with no call in progress.")
        self._fast = None
        leaves = f.leaves
        tensors = [leaves[p] for p in f.positions] + self._implicit_tensors()
        return _Call(self, tensors, self.opts, list(f.opt_ids), f.args_tree, leaves, self.rng)

    def _full(self, args_tree: Any, leaves: list[Any], positions: tuple[int, ...]) -> Any:
        for _ in range(_MAX_ROUNDS):
            explicit = [leaves[p] for p in positions]
            implicit = self._implicit_tensors()
            tensors = explicit + implicit
            ids = tuple(map(id, tensors))
            distinct = len(set(ids)) == len(ids)
            if not distinct:  # a Tensor passed and also read from outside, or passed twice
                seen: set[int] = set()
                tensors = [t for t in tensors if not (id(t) in seen or seen.add(id(t)))]  # type: ignore[func-returns-value]
            desc = self._describe(tensors)
            _ids, sgs, leafs, kinds, opt_ids, state_tree, grads, sl = desc
            flat: list[Any] = [t._value for t in tensors]
            flat += grads
            flat += sl
            del desc, grads, sl
            self._rates(flat)
            if self.rng:
                flat.append(generator.get_state())
            key = (_ids, sgs, leafs, kinds, opt_ids, state_tree, self.rng,
                   tuple((v.shape, v.dtype) for v in flat[:len(explicit)]))
            c = _Call(self, tensors, self.opts, list(opt_ids), args_tree, leaves, self.rng)
            prog = self.programs.get(key)
            if prog is None:
                try:
                    prog = self._build(c, kinds, state_tree, flat)
                except NewState as e:
                    self._learn(e)
                    continue
                if len(self.programs) >= _MAX_PROGRAMS:
                    self.programs.pop(next(iter(self.programs)))
                self.programs[key] = prog
            res = prog.run(c, flat)
            del flat
            if distinct:
                self._remember(prog, positions, tensors, len(explicit), key, args_tree)
            return prog.user(res)
        raise RuntimeError(f"{self.name}: the state of the training step kept changing over {_MAX_ROUNDS} traces.")

    def _remember(self, prog: _Program, positions: tuple[int, ...], tensors: list[Tensor], n_exp: int,
                  key: tuple, args_tree: Any) -> None:
        """Keep what the next call needs to skip the full path, where it would meet the same program: the call
        left every Tensor, gradient kind and optimizer state as the program expects them."""
        desc = self._describe(tensors)
        if desc[:6] != key[:6]:
            return
        flat_exp = [t._value for t in tensors[:n_exp]]
        self._fast = _Fast(self, prog, positions, tensors, n_exp, desc, flat_exp, self.opts, args_tree)

    def _learn(self, e: NewState) -> None:
        self._fast = None
        if e.rng:
            self.rng = True
        if e.tensors:
            paths = find_paths(self.fn, {id(t): t for t in e.tensors})
            self.implicit.extend(Implicit(paths.get(id(t)), t) for t in e.tensors)
            self._get = None
        for o in e.opts:
            if all(o is not p for p in self.opts):
                self.opts.append(o)
        fresh: dict[int, tuple[Any, dict[int, Any]]] = {}  # the parameters without state, per optimizer
        for o, p in e.states:
            if id(p) not in o._accumulators:
                fresh.setdefault(id(o), (o, {}))[1][id(p)] = p
        for o, ps in fresh.values():  # created now, as the optimizer's first step would (one program for them all):
            # the compiled step takes them as inputs
            o._accumulators.update(zip(ps, o._first_states(list(ps.values()))))

    def _build(self, c: _Call, kinds: tuple[int, ...], state_tree: Any, flat: list[Any]) -> _Program:
        prog = _Program(self, kinds, state_tree)
        prev = getattr(_tls, "call", None)
        _tls.call = c
        try:
            closed = jax.make_jaxpr(prog.body)(*flat)  # finds new state (NewState) or learns what the step writes
        finally:
            _tls.call = prev
        # the inputs the step overwrites are donated: the values it rebinds (not the caller's arguments), the
        # gradients it replaces, the optimizer states
        n = len(c.tensors)
        donate = [i for i in prog.value_out if not any(c.leaves[p] is c.tensors[i] for p in range(len(c.leaves)))]
        written = {i for i, _ in prog.grad_out}
        pos = n
        for i, kind in enumerate(kinds):
            if kind == _GRAD:
                if i in written:
                    donate.append(pos)
                pos += 1
        if prog.state_out.num_leaves == state_tree.num_leaves:  # (every state given comes out again)
            donate.extend(range(pos, pos + state_tree.num_leaves))
        prog.donate = tuple(donate)
        prog.n_in = len(flat)
        prog.jaxpr, prog.consts = closed.jaxpr, list(closed.consts)
        for other in self.programs.values():
            if other.serves(prog):
                return other
        prog.fn = jax.jit(prog.body, donate_argnums=prog.donate)
        return prog
