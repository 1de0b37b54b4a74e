"""Deferred kernel calls: eager ops are recorded, then run together.

Layer L1. Every eager kernel call (an op's forward, a backward, an accumulation) is
appended to a per-thread buffer instead of being dispatched; its results are
``Pending`` placeholders that already know their shape and dtype. The buffer runs when
a value is needed (``numpy()``, printing, a JAX transform, the end of ``backward()``, or
in a training loop the optimizer's ``clear_grad()``: see ``end_backward``) or when it grows
long. Running it:

- the buffer's structure (which kernels, how results feed later calls, which results
  are still referenced) is its signature;
- a signature of a new family (below) with at least ``FUSE_FIRST_CALLS`` (4) calls is a new
  step: it is one cached ``jax.jit`` program from its first sighting, a training step
  (forward, backward, accumulation, optimizer update) a single XLA dispatch. Run call by
  call, its first sightings would compile a kernel per op and per shape, then the
  program at the third: a script's first run compiled 8 programs for a 64x8 MLP's SGD
  steps where 2 do (the first step's, without an optimizer update, and the loop's).
  When ``MAX_UNREPEATED`` (4) such programs in a row are never seen again (a Python loop
  unrolled to a new length each time, new combinations of ops in a notebook), new
  families run call by call, as below, until a signature repeats;
- another signature (a few ops on data, an expression) runs call by call the first times
  it is seen (each call a cached ``jax.jit`` kernel, shared by every buffer that calls it);
  from the third time on (``PYLAYER_JAX_FUSE_AFTER``) it is one program too;
- a signature seen for the first time whose *family* (the signature with every shape
  replaced by its rank, see ``_runtime.kernel_cache.family``) ran before is a known step on
  inputs of new sizes (a smaller last batch, a batch size that changes every step): it is
  compiled as one program at once. Run call by call it would compile every kernel for the
  new shapes, several times what the one program costs, and a shape that never repeats
  would never reach the third sighting. Such a program is compiled quickly (XLA's backend
  optimisation off: about two thirds of the compile time, for code run once); if the
  signature is seen again until its third sighting, it is compiled again, optimised. At most
  ``MAX_QUICK`` (16) quick programs are kept, least recent dropped first; a signature whose
  quick program was dropped and that is seen again (more shapes in turn than that: sequence
  lengths) repeats, so its sightings count on: a small step's program is kept from then, another's
  from its third sighting;
- a *small* step (every input and every call's result under ``SMALL_BYTES``, 256 KiB), new or
  on new shapes, is compiled with ``_SMALL_OPTIONS`` (backend optimisation and XLA's CPU fusion
  emitters off: a few times faster to compile, a script's first step most of all) and keeps
  that program when it repeats, until it has run ``UPGRADE_AFTER`` (200) times: then it is
  compiled again with XLA's defaults (it runs ~10% slower before, more for larger steps);
- before that, such a signature that differs from one of its family only in its batch size is given to the
  bucket runner (``set_bucket_runner``: ``_autograd.row_buckets``), which runs it padded to a bucket size by one
  program per bucket when the op table knows how each call's rows flow (``BUCKETS``, ``PYLAYER_JAX_BUCKETS=0``:
  off); its calls' output shapes then come from ``set_shape_rule``'s rule instead of tracing each call. Such a
  signature seen again soon (``REPEAT_WINDOW``) runs padded until its third sighting, then as its own program,
  optimised (a size that repeats, a smaller last batch every epoch, costs less so than padded on the host each time).

A buffer runs under its lock (a reader in another thread waits) and outside any JAX trace
(a Tensor closed over by a jitted function gets its value, not a tracer). A run that fails
is redone call by call, so results that do not depend on the failing call keep their values.
A run that an interrupt stops (``KeyboardInterrupt``, any ``BaseException``) first gives every
result still referenced its value, call by call, then lets the interrupt go on: a Tensor that a
deferred write rebound (a parameter after an optimizer step) has its new value, never none.
Recording is all or nothing: a call interrupted while it enters the buffer is taken out again.

Results nobody references any more are never returned (XLA drops the work that only
fed them). An op whose inputs are concrete and do not train (``stop_gradient=True``)
while nothing is recorded runs at once (the Tensor layer decides): data preparation and
one-off ops cost a plain jitted call. Set ``PYLAYER_JAX_LAZY=0`` to dispatch every call at
once instead.
"""

from __future__ import annotations

import copy
import functools
import os
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from itertools import compress as _compress
from operator import call as _call
from typing import Any

import jax
import numpy as np

from .._runtime import jax_setup as _jax_setup  # noqa: F401  (x64 and the CPU dispatch mode, before any array)
from .._runtime.array_protocol import as_numpy
from .._runtime.kernel_cache import (
    SHAPED,
    BoundedDict,
    KernelCache,
    LazyJit,
    erase_shapes,
    family,
    traced_new_shapes,
)
from .._runtime.transfer import put_number
from .._runtime.transfer import trace_state_clean as _trace_state_clean

ENABLED = os.environ.get("PYLAYER_JAX_LAZY", "1") != "0"
FUSE_AFTER = int(os.environ.get("PYLAYER_JAX_FUSE_AFTER", "3"))  # sightings before a buffer is compiled
FUSE_FIRST_CALLS = 4  # a buffer of a new family with at least this many calls is compiled at its first sighting,
MAX_UNREPEATED = 4  # unless this many such programs in a row were never seen again
MAX_CALLS = 512  # a buffer this long runs on its own
JOIN = True  # an optimizer's update joins the program of the backward before it (False: backward's end runs it)
_MAX_SEEN = 4096

_tree_flatten = jax.tree_util.tree_flatten
_RLock = getattr(threading, "_CRLock", None) or threading.RLock  # (the C class: threading.RLock wraps it in a call)
_get_ident = threading.get_ident
_wref = weakref.ref
_tree_unflatten = jax.tree_util.tree_unflatten
_ArrayImpl = type(jax.device_put(np.zeros(())))  # (a transfer: it compiles nothing, unlike jnp.zeros)


class Pending:
    """The future result of a recorded call: shape and dtype now, the array after the run."""

    __slots__ = ("shape", "dtype", "aval", "buf", "idx", "array", "__weakref__")

    def __init__(self, aval: tuple, buf: _Buffer, idx: int) -> None:
        self.aval = aval
        self.shape, self.dtype = aval[0], aval[1]
        self.buf = buf
        self.idx = idx
        self.array: Any = None

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def get(self) -> Any:
        """The array, running the buffer that computes it if it has not run yet."""
        if self.array is None:
            self.buf.run()
            if self.array is None:
                raise RuntimeError(
                    "A deferred computation failed earlier (see the exception raised then), so this tensor has no "
                    f"value: {self.buf.error!r}. Recompute it."
                )
        return self.array

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return as_numpy(np.asarray(self.get()), dtype, copy, "Tensor")

    def __jax_array__(self) -> Any:
        return self.get()

    # copies and pickles hold the value, not the buffer
    def __copy__(self) -> Any:
        return self.get()

    def __deepcopy__(self, memo: dict) -> Any:
        return copy.deepcopy(self.get(), memo)

    def __reduce__(self) -> Any:
        return self.get().__reduce__()

    def __repr__(self) -> str:
        return f"Pending(shape={list(self.shape)}, dtype={self.dtype})"


def concrete(v: Any) -> Any:
    """``v`` with a Pending replaced by its array."""
    return v.get() if type(v) is Pending else v


def concrete_or_none(v: Any) -> Any:
    """``v``'s array if it has one now (None for a Pending not computed yet), without running anything."""
    return v.array if type(v) is Pending else v


_FAILED = object()  # a slot whose call raised while a failed buffer was salvaged


class _Gone:
    pass


_DEAD = weakref.ref(_Gone())  # a result nobody holds (what a dropped Pending's weakref is)


class _Buffer:
    __slots__ = ("calls", "ext", "ext_avals", "ext_ids", "refs", "done", "error", "lock", "memo", "checks", "owner",
                 "memo_at", "cut", "fallback")

    def __init__(self) -> None:
        self.calls: list[tuple] = []  # (kernel, treedef or None, input refs, number of outputs)
        self.ext: list[Any] = []  # concrete inputs (arrays, Python scalars)
        self.ext_avals: list[Any] = []  # their shapes and dtypes (part of the signature)
        self.ext_ids: dict[int, int] = {}  # id(input) -> its index in ext: an array used twice is passed once
        self.refs: list[Any] = []  # one weakref per result
        self.done = False
        self.error: BaseException | None = None
        # held while recording into or running the buffer: a reader in another thread waits for the run
        self.lock = _RLock()
        self.owner = _get_ident()  # the thread recording into it (see ``Tensor._value``)
        # set when the calls are known to repeat a noted step (``_replay.follow``): live results -> (its compiled
        # program, the indices of its inputs that are Python numbers)
        self.memo: dict[tuple, Any] | None = None
        # (Pending results of a recorded value check, the function raising its error): see ``add_check``
        self.checks: list[tuple[Any, Callable[[Any], None]]] = []
        self.memo_at = (0, 0)  # the calls and inputs the buffer held when ``memo`` was set
        # a backward's end left the buffer to run before the next call that does not join it (see ``end_backward``)
        self.cut = False
        self.fallback: list[tuple[int, Sequence[Any]]] | None = None  # (first slot, values): see ``join``

    # ---- what a replay of noted calls (``_replay.follow``) may do; the caller holds ``lock`` ----------
    def size(self) -> tuple[int, int, int]:
        """(calls, results, inputs): what ``rollback`` takes the buffer back to (see ``mark``)."""
        return (len(self.calls), len(self.refs), len(self.ext))

    def input_index(self, v: Any) -> int | None:
        """The index of ``v`` among the buffer's inputs, or None if it is not one."""
        return self.ext_ids.get(id(v))

    def enter(self, v: Any, aval: Any) -> None:
        """Make ``v`` (of signature ``aval``) the buffer's next input: each object is entered once."""
        self.ext_ids[id(v)] = len(self.ext)
        self.ext.append(v)
        self.ext_avals.append(aval)

    def append_replayed(self, call: tuple, slot: int, out: Any, ins: Sequence[tuple], log: list | None = None,
                        entry: Any = None) -> bool:
        """Append a replayed op's noted ``call``, whose result ``out`` (a Pending of this buffer for ``slot``; several
        results: a list of them, for the slots from ``slot`` on) is not made yet, when the buffer holds ``slot``
        results and has not run, with the call's inputs from outside the buffer ``ins``: ``(value, aval, j)`` each,
        already the buffer's input ``j`` or new to the buffer and its next input (entered then: in order, an object
        used twice once, as ``call`` enters them); then ``entry`` to ``log`` (the replay's record of the op; no
        ``log``: an op of a PyLayer's code, whole once its result slot is in). All of it (True), or none of it
        (False: the buffer is not as the call needs it): an interrupt halfway takes out what went in. The caller
        holds ``lock``."""
        refs = self.refs
        if len(refs) != slot or self.done:
            return False
        calls = self.calls
        n_calls = len(calls)
        ext = self.ext
        n = n_ext = len(ext)
        try:
            if ins:
                ids = self.ext_ids
                avals = self.ext_avals
                for v, av, j in ins:
                    if j == n:  # new to the buffer: its next input
                        i = id(v)
                        if i not in ids:
                            ids[i] = n
                            ext.append(v)
                            avals.append(av)
                            n += 1
                            continue
                    elif j < n and ext[j] is v:  # already input j
                        continue
                    rollback(self, (n_calls, slot, n_ext))  # not the noted inputs
                    return False
            calls.append(call)
            if type(out) is Pending:
                refs.append(_wref(out))
            else:
                refs.extend([_wref(p) for p in out])
            if log is not None:
                log.append(entry)
        except BaseException:
            # (the entry goes in last: once it is in, the call is whole; with no log, once its slot is)
            if len(refs) == slot if log is None else not log or log[-1] is not entry:
                rollback(self, (n_calls, slot, n_ext))
            raise
        return True

    def extend_replayed(self, at: tuple[int, int, int], ins: Sequence[tuple], calls: Sequence[tuple], n_new: int,
                        programs: dict[tuple, Any], leaves: Sequence[tuple]) -> list[Any] | None:
        """Append a replayed backward's noted ``calls`` (making ``n_new`` results), when the buffer is of size ``at``
        (calls, results, inputs: ``size()``), has not run and no backward was replayed into it yet: first its
        inputs new to the buffer ``ins`` (``(value, aval)`` each, entered in order), then the calls; the run then
        uses ``programs`` (``use_programs``). ``leaves``: per leaf of the step, a triple whose last two items are
        the slot of the gradient the backward writes to it (-1: none) and its aval. Returns a Pending per leaf
        (None where it has no slot), or None (nothing done). All or nothing: an interrupt halfway takes out what
        went in. The caller holds ``lock``."""
        calls_ = self.calls
        refs = self.refs
        ext = self.ext
        if (self.done or self.memo is not None or len(calls_) != at[0] or len(refs) != at[1]
                or len(ext) != at[2]):
            return None
        try:
            if ins:
                ids = self.ext_ids
                for v, av in ins:
                    if id(v) in ids:
                        rollback(self, at)
                        return None
                    ids[id(v)] = len(ext)
                    ext.append(v)
                    self.ext_avals.append(av)
            calls_.extend(calls)
            refs.extend([_DEAD] * n_new)
            self.memo = programs
            self.memo_at = (len(calls_), len(ext))
            out = []
            for _, slot, aval in leaves:
                if slot >= 0:
                    p = Pending(aval, self, slot)
                    refs[slot] = _wref(p)
                    out.append(p)
                else:
                    out.append(None)
        except BaseException:
            self.take_back(at)
            raise
        return out

    def take_back(self, at: tuple[int, int, int]) -> None:
        """Undo a replayed backward (``extend_replayed``) interrupted before it was whole: the buffer to its size
        ``at``, without programs. The caller holds ``lock``."""
        rollback(self, at)
        self.memo = None

    def extend_calls(self, calls: Sequence[tuple], n_results: int) -> None:
        """Append recorded ``calls`` making ``n_results`` results, none of them held yet (see ``pending``)."""
        self.calls.extend(calls)
        self.refs.extend([_DEAD] * n_results)

    def pending(self, slot: int, aval: tuple) -> Pending:
        """A Pending for the result in ``slot``, which the run then computes (one per slot: a second Pending
        would take the first one's place)."""
        p = Pending(aval, self, slot)
        self.refs[slot] = _wref(p)
        return p

    def result_held(self, slot: int) -> bool:
        """Whether the result in ``slot`` is still referenced."""
        return self.refs[slot]() is not None

    def same_since(self, n_calls: int, n_ext: int, calls: tuple, ext_avals: tuple) -> bool:
        """Whether the calls from the ``n_calls``-th on are ``calls`` and the inputs' signatures from the
        ``n_ext``-th on are ``ext_avals``."""
        try:
            return tuple(self.calls[n_calls:]) == calls and tuple(self.ext_avals[n_ext:]) == ext_avals
        except Exception:  # a part whose comparison raises (a pytree structure against None): not the same
            return False

    def holds(self, calls: tuple, ext_avals: tuple, n_results: int) -> bool:
        """Whether the buffer holds exactly ``calls``, inputs of signatures ``ext_avals`` and ``n_results`` results."""
        if not (n_results or calls or ext_avals):  # (most often: a step begins on an empty buffer)
            return not (self.refs or self.calls or self.ext)
        if len(self.refs) != n_results or len(self.calls) != len(calls) or len(self.ext) != len(ext_avals):
            return False
        return not (calls or ext_avals) or self.same_since(0, 0, calls, ext_avals)

    def calls_since(self, n: int) -> tuple:
        """The recorded calls from the ``n``-th on (the whole list for 0)."""
        return tuple(self.calls[n:])

    def input_avals_since(self, n: int) -> tuple:
        """The signatures of the inputs from the ``n``-th on."""
        return tuple(self.ext_avals[n:])

    def use_programs(self, programs: dict[tuple, Any] | None) -> dict[tuple, Any] | None:
        """The calls are known to repeat a noted step: ``programs`` maps live results to its compiled program (the
        run uses it without building the key, and stores one it compiles). Returns what was set before."""
        before, self.memo = self.memo, programs
        self.memo_at = (len(self.calls), len(self.ext))
        return before

    def run(self, compile_ok: bool = True) -> None:
        lock = self.lock
        lock.acquire()  # (acquire/release: a third of what ``with`` costs on an RLock)
        try:
            if self.done:
                return
            self.done = True
            d = _local.__dict__
            if d.get("buf") is self:
                d["buf"] = None  # the next recorded call starts a new buffer
            if self.calls:
                if _trace_state_clean():
                    self._run(compile_ok)
                else:  # a read while jax.jit traces a function closing over the Tensor: run concretely
                    with jax.ensure_compile_time_eval():
                        self._run(compile_ok)
            checks = self.checks  # (``_drop`` gives the buffer an empty list)
            self._drop()
            if checks:
                for result, fail in checks:  # an input's values broke an op's rule: raised now, once
                    fail(jax.tree_util.tree_map(concrete, result))
        except Exception:  # (``_run`` kept what does not depend on the failing call)
            self._drop()
            raise
        except BaseException as e:
            # an interrupt (KeyboardInterrupt) anywhere in the run: the results still referenced get their values
            # call by call first, so that a Tensor a deferred write rebound (a parameter after an optimizer step)
            # never loses its value; then the interrupt goes on
            self._finish(e)
            raise
        finally:
            lock.release()

    def _fallbacks(self) -> dict[int, Any]:
        """slot -> the value its result takes if its call fails (``join``)."""
        out = {}
        for base, values in self.fallback or ():
            for j, v in enumerate(values):
                if v is not None:
                    out[base + j] = v
        return out

    def _drop(self) -> None:
        """A buffer that ran keeps only its error, not its inputs. (Its lists are one shared empty list: whatever
        adds to a buffer checks under its lock that it has not run, ``done``.)"""
        self.calls = self.ext = self.ext_avals = self.refs = self.checks = []
        self.ext_ids = {}
        self.fallback = None

    def _finish(self, interrupt: BaseException) -> None:
        """After an interrupted run: every result still referenced and without its array gets it, call by call."""
        self.done = True
        if _local.__dict__.get("buf") is self:
            _local.buf = None
        res = [r() for r in self.refs]
        live = tuple([i for i, p in enumerate(res) if p is not None and p.array is None])
        if live:
            try:
                with jax.ensure_compile_time_eval():
                    outs = _salvage(tuple(self.calls), live, self.ext)
            except BaseException:  # a second interrupt stops the recovery: what is left has no value
                outs = [_FAILED] * len(live)
            failed = False
            fb = self._fallbacks()
            for i, arr in zip(live, outs):
                if arr is _FAILED:
                    arr = fb.get(i, _FAILED)
                if arr is _FAILED:
                    failed = True
                else:
                    res[i].array = arr
            if failed and self.error is None:
                self.error = interrupt
        self._drop()

    def _run(self, compile_ok: bool) -> None:
        calls = self.calls
        res = list(map(_call, self.refs))  # the results still referenced, and their slots (a Pending is true)
        live = tuple(_compress(range(len(res)), res))
        try:
            memo = self.memo
            prog = tail = None
            if memo is not None:
                n_calls, n_ext = self.memo_at
                if len(calls) == n_calls:
                    prog = memo.get(live)
                else:  # calls joined after the noted step (an optimizer's update): compared, not hashed (cheaper)
                    tail = (calls[n_calls:], self.ext_avals[n_ext:])
                    for t_calls, t_avals, p in memo.get((live, len(tail[0])), ()):
                        if t_calls == tail[0] and t_avals == tail[1]:
                            prog = p
                            break
            if prog is not None:  # a replayed step: its program without building and hashing the key
                STATS["programs"] += 1
                prog, numbers = prog
                if not numbers:
                    outs = prog(*self.ext)
                elif type(numbers) is _Numbers:
                    outs = numbers.call(prog, self.ext, calls, live)
                else:
                    outs = prog(*_device_numbers(self.ext, numbers))
            elif len(calls) == 1:  # one call: its own cached kernel is the program
                outs = _interpret(tuple(calls), live, *self.ext)
            else:
                # input shapes are part of the key: a shape seen once (a varying batch) runs call by call
                # instead of compiling a program it would use once
                key = (tuple(calls), live, tuple(self.ext_avals))
                outs = _execute(key, self.ext, compile_ok)
                if memo is not None and compile_ok and type(_PROGRAMS.get(key)) in _STEP_PROGRAMS:
                    # (not a quick one: it is replaced if it repeats) with where its Python numbers are: the inputs
                    # of a replayed step have the noted avals, a number's its type
                    at = tuple([i for i, a in enumerate(self.ext_avals) if a is float or a is int])
                    entry = (_PROGRAMS[key], _Numbers(at, _COMPILE_S.pop(key, FOLD_COST_S)) if at else ())
                    if tail is None:
                        memo[live] = entry
                    else:
                        tails = memo.setdefault((live, len(tail[0])), [])
                        if len(tails) < 8:
                            tails.append((list(tail[0]), list(tail[1]), entry))
        except Exception as e:
            self.error = e
            # keep what does not depend on the failing call (a parameter updated beside it, say); a result with a
            # fallback (a parameter an update joined to a failing step would write) keeps its value from before
            outs = _salvage(tuple(calls), live, self.ext)
            fb = self._fallbacks()
            for i, arr in zip(live, outs):
                if arr is _FAILED:
                    arr = fb.get(i, _FAILED)
                if arr is not _FAILED:
                    res[i].array = arr
            raise
        for i, arr in zip(live, outs):
            res[i].array = arr


class _Numbers:
    """Where a replayed step's program takes Python numbers (``at``, indices of the buffer's inputs), and the same
    program with those that stayed the same compiled in (``folded``: jit's static arguments): each input costs
    jit's dispatch, and ``_device_numbers`` its Python, ~2 us a run. Compiling the folded program costs what the
    step's program cost (``cost``, seconds), so it is made only once the step has run with the same numbers for as
    many runs as that saving takes to pay it back (checked every ``FOLD_CHECK`` runs: a short script never pays
    for a second compile; a long training loop does once, early). A run whose compiled-in numbers are exactly those
    (the same type and value, the sign of a zero too) takes it; one where one differs takes the program that takes
    the numbers as inputs (a schedule's value changes every step), and after ``MAX_FOLD_MISSES`` such runs no
    numbers are compiled in any more for it."""

    __slots__ = ("at", "runs", "need", "seen", "same", "fixed", "rest", "folded", "misses")

    def __init__(self, at: tuple[int, ...], cost: float) -> None:
        self.at = at
        self.runs = 0
        self.need = max(1, int(cost / (FOLD_SAVING_S * len(at) * FOLD_CHECK)))  # checks in a row with the same
        self.seen: tuple | None = None  # (index, number) of the numbers at the last check
        self.same = 0  # checks in a row where some of them were the same as at the check before
        self.fixed: tuple[tuple[int, Any], ...] = ()  # (index, number) compiled in; before, the candidates
        self.rest: tuple[int, ...] = at  # the numbers the folded program takes as inputs
        self.folded: Any = None
        self.misses = 0

    def call(self, prog: Any, ext: list[Any], calls: Sequence[tuple], live: tuple) -> Any:
        """The run of ``prog`` (numbers as inputs) on ``ext``, or of the folded program where it fits."""
        f = self.folded
        if f is not None:
            for i, c in self.fixed:
                e = ext[i]
                if e is not c and not _same_number(e, c):
                    break
            else:
                rest = self.rest
                return f(*_device_numbers(ext, rest)) if rest else f(*ext)
            self.folded = None  # a compiled-in number changed
            self.misses += 1
            self.same = 0
        elif self.misses < MAX_FOLD_MISSES:
            self.runs = n = self.runs + 1
            if not n % FOLD_CHECK:
                now = tuple([(i, ext[i]) for i in self.at])
                last = self.seen
                self.seen = now
                if last is not None:
                    fixed = tuple([b for a, b in zip(last, now) if _same_number(a[1], b[1])])
                    if not fixed or fixed != self.fixed:  # (a set that changed: counted anew)
                        self.fixed = fixed
                        self.same = 0
                    elif (same := self.same + 1) < self.need:
                        self.same = same
                    else:
                        self.rest = tuple([i for i in self.at if all(i != j for j, _ in fixed)])
                        self.folded = f = jax.jit(functools.partial(_interpret, tuple(calls), live),
                                                  static_argnums=[i for i, _ in fixed])
                        try:  # (compiled now)
                            return f(*_device_numbers(ext, self.rest)) if self.rest else f(*ext)
                        except Exception:  # the program as it was says what is wrong, if anything is
                            self.folded = None
                            self.misses = MAX_FOLD_MISSES
        return prog(*_device_numbers(ext, self.at))


FOLD_CHECK = 32  # runs between two looks at a replayed step's numbers
FOLD_SAVING_S = 2e-6  # what a number passed as an input costs a run (jit's dispatch and ``_device_numbers``)
FOLD_COST_S = 0.2  # a step program's compile time where it is not known (compiled before the step was noted)
MAX_FOLD_MISSES = 2  # runs whose compiled-in numbers differed, before a replayed step's numbers stay inputs


def _same_number(a: Any, b: Any) -> bool:
    """Whether Python numbers ``a`` and ``b`` are exactly the same: type, value and a zero's sign (never NaN: jit
    would not find its program again)."""
    return type(a) is type(b) and a == b and (a != 0 or str(a) == str(b))


# Python numbers that were inputs of two runs of a replayed step's program, as weakly typed device arrays (the
# aval jit gives the number itself): passing a number costs jit's dispatch ~2 us each run to convert, an array
# nothing; a number that changes every run (a schedule's value) stays a number (making its array costs more)
_NUMBER_ARRAYS: dict[tuple, Any] = {}
_NUMBERS_SEEN: dict[tuple, bool] = {}
_MAX_NUMBERS = 1024


def _device_numbers(ext: list[Any], at: Sequence[int] | None = None) -> list[Any]:
    """``ext`` with each int or float seen in an earlier run replaced by its device array (same aval, same
    program: jit reuses the executable it compiled for the number). ``at``: the indices to look at (all: None)."""
    out = None
    for i in range(len(ext)) if at is None else at:
        e = ext[i]
        t = type(e)
        if t is not float and t is not int:
            continue
        if t is float:
            if e != e:  # NaN: no key finds it again
                continue
            key: tuple = (t, e, e == 0.0 and str(e))  # (-0.0 and 0.0 are equal keys otherwise)
        else:
            key = (t, e)
        a = _NUMBER_ARRAYS.get(key)
        if a is None or a.is_deleted():  # (deleted: a program that donated its inputs took it)
            if key not in _NUMBERS_SEEN:
                if len(_NUMBERS_SEEN) >= _MAX_NUMBERS:
                    _NUMBERS_SEEN.clear()
                _NUMBERS_SEEN[key] = True
                continue
            if len(_NUMBER_ARRAYS) >= _MAX_NUMBERS:
                _NUMBER_ARRAYS.clear()
            a = _NUMBER_ARRAYS[key] = put_number(e)  # (jnp.asarray would compile a program)
        if out is None:
            out = list(ext)
        out[i] = a
    return ext if out is None else out


def _salvage(calls: tuple, live: tuple, ext: Sequence[Any]) -> list[Any]:
    """Run a buffer call by call (the calls ``live`` needs); the results of a failing call and of all it feeds
    are _FAILED."""
    keep = _needed(calls, live)
    slots: list[Any] = []
    for k, (fn, tree, refs, nout) in enumerate(calls):
        args = [slots[r] if r >= 0 else ext[-1 - r] for r in refs] if keep[k] else ()
        if not keep[k] or any(a is _FAILED for a in args):
            slots.extend([_FAILED] * nout)
            continue
        try:
            slots.extend(_out_leaves(_invoke(fn, tree, args)))
        except Exception:
            slots.extend([_FAILED] * nout)
    return [slots[i] for i in live]


_local = threading.local()


def mark(buf: _Buffer) -> tuple[int, int, int]:
    """The buffer's size (calls, results, inputs), to ``rollback`` to if what is added next is interrupted."""
    return (len(buf.calls), len(buf.refs), len(buf.ext))


def rollback(buf: _Buffer, at: tuple[int, int, int]) -> None:
    """Undo what an interrupted addition entered into the buffer after ``mark`` (the caller holds its lock)."""
    n_calls, n_refs, n_ext = at
    del buf.calls[n_calls:]
    del buf.refs[n_refs:]
    del buf.ext[n_ext:]
    del buf.ext_avals[n_ext:]
    ids = buf.ext_ids
    for k in [k for k, j in ids.items() if j >= n_ext]:
        del ids[k]


def _buffer() -> _Buffer:
    buf = _local.__dict__.get("buf")
    if buf is None or buf.done:  # done: another thread ran it
        buf = _local.buf = _Buffer()
    elif buf.cut:  # a backward's calls left to run for an update to join: this call is not one, they run now
        buf.run()
        buf = _local.buf = _Buffer()
    return buf


def idle() -> bool:
    """Nothing recorded and not yet run on this thread."""
    buf = _local.__dict__.get("buf")
    return buf is None or buf.done or not buf.calls


def flush() -> None:
    """Run this thread's recorded calls now."""
    buf = _local.__dict__.get("buf")
    if buf is not None:
        buf.run()


# ---- a step's end: backward's calls and the optimizer's update in one run ---------------------
# A training step ends with ``backward()``, ``opt.step()`` and ``opt.clear_grad()``. Run at backward's end, the
# step's program returns every gradient (the update reads them), and the update runs in the next program (it takes
# them back in). When the last backward of the thread was followed by an optimizer's update, backward's end only
# marks its buffer as *cut* (``end_backward``): the update then joins it (``join``), and it runs before the next
# call that does not join it (``_buffer``), when a value is read, or at ``run_cut`` (the optimizer's
# ``clear_grad``): one program computes the step and the update, and gradients that ``clear_grad`` dropped are
# never returned. A buffer holding a value check (``add_check``) runs at backward's end, so that the check's
# error comes before the update, as it did.


def end_backward() -> None:
    """What ``backward()`` does at its end: run this thread's recorded calls, or leave them for the optimizer's
    update to join when the last backward was followed by one (``expect_join``)."""
    d = _local.__dict__
    buf = d.get("buf")
    if buf is None or buf.done:
        return
    owner = d.get("join")
    if owner is not None:
        d["join"] = None  # (each update that joins, or follows a backward's run, renews it)
        if JOIN and owner() is not None and buf.calls and not buf.checks:
            buf.cut = True
            return
    buf.run()


def expect_join(owner: Any) -> None:
    """An optimizer's update (of ``owner``) follows this thread's backward: the next backward leaves its calls for
    the update to join (``end_backward``), while ``owner`` lives."""
    _local.join = weakref.ref(owner)


def cut_buffer() -> _Buffer | None:
    """This thread's buffer, if a backward left it for an update to join (``end_backward``); else None."""
    buf = _local.__dict__.get("buf")
    return buf if buf is not None and buf.cut and not buf.done else None


def run_cut() -> None:
    """Run this thread's buffer if a backward left it for an update (the step's end: ``clear_grad``)."""
    buf = _local.__dict__.get("buf")
    if buf is not None and buf.cut:
        buf.run()


def join_known(buf: _Buffer, fn: Callable[..., Any], leaves: Sequence[Any], avals: Sequence[Any],
               out_avals: Sequence[tuple], fallback: Sequence[Any]) -> list[Pending] | None:
    """``join`` for a caller that knows the call's signature from an earlier ``call`` of ``fn`` (``avals`` its
    inputs', ``out_avals`` its results': ``fn`` returns a flat list or tuple of arrays): a Pending per result, or
    None (nothing recorded) when ``buf`` is no longer cut or an input is not a Pending of ``buf`` or an array.

    What ``call`` records, without inferring the signature: a step that repeats (an optimizer's update) costs a
    few list operations per input. A step that repeats the last join of ``fn`` exactly (a replayed training step:
    the buffer of the same size, each input where the last one's was: the same result slots, the same buffer
    inputs, the new inputs new to the buffer) records the last one's entry again (``_JOINED``), checked input by
    input without building it, and the run then finds the entry of its program by identity."""
    lock = buf.lock
    lock.acquire()
    try:
        if buf.done or not buf.cut or _local.__dict__.get("buf") is not buf:
            return None
        ids = buf.ext_ids
        ext = buf.ext
        n_ext = len(ext)
        base = len(buf.refs)
        entry = None
        last = _JOINED.get(fn)
        if (last is not None and last[1] == n_ext and last[2] == base and len(leaves) == len(last[0][2])
                and last[0][3] == len(out_avals)):
            entry = last[0]
            new = []
            for a, av, r in zip(leaves, avals, entry[2]):
                if r >= 0:  # the result in slot r, not computed yet
                    if type(a) is not Pending or a.buf is not buf or a.idx != r or a.array is not None:
                        entry = None
                        break
                elif r >= -n_ext:  # an input of the buffer already: that very one
                    if ext[-1 - r] is not a:
                        entry = None
                        break
                else:  # a new input, entered in order
                    ta = type(a)
                    if -1 - r != n_ext + len(new) or (ta is not _ArrayImpl and ta is not float) or id(a) in ids:
                        entry = None
                        break
                    new.append((a, av))
            if entry is not None and len(new) > 1 and len({id(a) for a, _ in new}) != len(new):
                entry = None  # (the same object twice: entered once)
        if entry is None:
            refs: list[int] = []
            new = []
            new_ids: dict[int, int] = {}
            for a, av in zip(leaves, avals):
                ta = type(a)
                if ta is Pending:
                    if a.buf is not buf or a.array is not None:
                        return None
                    refs.append(a.idx)
                    continue
                if ta is not _ArrayImpl and ta is not float:
                    return None
                k = id(a)
                j = ids.get(k)
                if j is None:
                    j = new_ids.get(k)
                    if j is None:
                        j = new_ids[k] = n_ext + len(new)
                        new.append((a, av))
                refs.append(-1 - j)
            entry = (fn, None, tuple(refs), len(out_avals))
            if len(_JOINED) >= _MAX_JOINED:
                _JOINED.clear()
            _JOINED[fn] = (entry, n_ext, base)
        outs = [Pending(av, buf, base + j) for j, av in enumerate(out_avals)]
        try:  # all or nothing, as ``call``
            for a, av in new:
                ids[id(a)] = len(ext)
                ext.append(a)
                buf.ext_avals.append(av)
            buf.refs.extend(map(weakref.ref, outs))
            buf.calls.append(entry)
        except BaseException:
            calls = buf.calls
            if len(calls) == 0 or calls[-1] is not entry:
                rollback(buf, (len(calls), base, n_ext))
            raise
        if buf.fallback is None:
            buf.fallback = [(base, fallback)]
        else:
            buf.fallback.append((base, fallback))
        STATS["joined"] += 1
    finally:
        lock.release()
    if len(buf.calls) >= MAX_CALLS:
        buf.run(compile_ok=False)
    return outs


# fn -> (the entry its last ``join_known`` recorded, the buffer's inputs and results before it): what a repeated join
# records again
_JOINED: dict[Any, tuple] = {}
_MAX_JOINED = 64


def join(buf: _Buffer, fn: Callable[..., Any], leaves: Sequence[Any], fallback: Sequence[Any]) -> Any:
    """``call(fn, leaves)`` recorded into ``buf`` (``cut_buffer()``), which stays cut. ``fallback`` has one entry
    per output of ``fn``: the value that output takes if its call fails (the run raises all the same), or None."""
    lock = buf.lock
    lock.acquire()
    try:
        if buf.done or not buf.cut or _local.__dict__.get("buf") is not buf:
            return call(fn, leaves)
        base = len(buf.refs)
        buf.cut = False
        try:
            out = call(fn, leaves)
        finally:
            if not buf.done:
                buf.cut = True
        if not buf.done and len(buf.refs) == base + len(fallback):
            if buf.fallback is None:
                buf.fallback = [(base, fallback)]
            else:
                buf.fallback.append((base, fallback))
            STATS["joined"] += 1
        return out
    finally:
        lock.release()


# ---- running a buffer ---------------------------------------------------------------
_PROGRAMS = KernelCache(SHAPED)  # bounded: see _runtime.kernel_cache
# runs of a compiled buffer, runs call by call, calls dispatched in those, programs compiled (made) and, of
# those, programs made at the first sighting of a known family on new shapes (for tests and tuning)
STATS = {"programs": 0, "one_by_one": 0, "calls_run": 0, "compiled": 0, "new_shape": 0, "joined": 0, "bucketed": 0}
_SEEN = BoundedDict(_MAX_SEEN)
# families of the signatures run so far (see ``_family``) -> the first ``_FAMILY_KEYS`` signatures run unpadded:
# what a new batch size is told from (``set_bucket_runner``)
_FAMILIES_RUN = BoundedDict(_MAX_SEEN)
_FAMILY_KEYS = 4
# signatures run padded (by the bucket runner) at their last sighting -> (their family's first signatures, the count
# of padded runs then): a padded step seen again with at most REPEAT_WINDOW other padded runs between is run padded
# until its ``FUSE_AFTER``-th such sighting, then as its own program (a size that repeats, a smaller last batch,
# costs less unpadded than padding it on the host each time); sizes that come back only after many others (a loop
# over hundreds of sizes) stay padded: their programs would not outlive the cache of programs
_BUCKETED = BoundedDict(_MAX_SEEN)
REPEAT_WINDOW = 16
# a step's last REPEAT_WINDOW padded signatures (their hashes): one padded at more than VARIED_SIZES sizes among
# them (the count of a boolean mask's selection, which moves with the data) keeps each size padded, where a size
# that repeats among few others (a smaller last batch) becomes its own program; each such program compiled cost
# ~50-100 ms where a padded run costs tens of microseconds more
_PADDED_RECENT = BoundedDict(_MAX_SEEN)
VARIED_SIZES = 2


def _padded_sizes(key: tuple, refs: Sequence[tuple]) -> int:
    """Note a padded run of ``key``; how many signatures the last REPEAT_WINDOW padded runs of its step had (its
    family with its inputs' shapes but their changing dimensions, told against the signature of ``refs`` (its
    family's) from which it differs in one size only: the batch, or a sequence length; a model of another width is
    another)."""
    rows = None
    for ref in refs:
        rows = _changing_erased(key[2], ref[2])
        if rows is not None:
            break
    if rows is None:  # (no such signature: the inputs but their first axes)
        rows = tuple([(a[0][1:], *a[1:]) if type(a) is tuple and a and type(a[0]) is tuple and a[0] else a
                      for a in key[2]])
    k = (_family(key), rows)
    recent = _PADDED_RECENT.get(k)
    if recent is None:
        recent = deque(maxlen=REPEAT_WINDOW)
        _PADDED_RECENT.put(k, recent)
    recent.append(hash(key))
    return len(set(recent))


def _changing_erased(avals: tuple, ravals: tuple) -> tuple | None:
    """The input signatures ``avals`` with each dimension that differs from ``ravals`` (another step of the family)
    written as -1, where every such dimension has one size here and one there (one size changes); else None."""
    if len(avals) != len(ravals):
        return None
    pair = None
    out = []
    for a, r in zip(avals, ravals):
        if a == r:
            out.append(a)
            continue
        if type(a) is not tuple or type(r) is not tuple or not a or type(a[0]) is not tuple \
                or type(r[0]) is not tuple or len(a[0]) != len(r[0]) or a[1:] != r[1:]:
            return None
        dims = []
        for x, y in zip(a[0], r[0]):
            if x != y:
                if pair is None:
                    pair = (x, y)
                elif pair != (x, y):
                    return None
                x = -1
            dims.append(x)
        out.append((tuple(dims), *a[1:]))
    return tuple(out)
# the signatures compiled at their first sighting (``FUSE_FIRST_CALLS``) not seen again yet, and how many such
# programs were compiled since one was seen again: past ``MAX_UNREPEATED`` new families run call by call
_UNREPEATED: OrderedDict[tuple, None] = OrderedDict()
_STREAK = [0]


def _needed(calls: tuple, live: tuple) -> list[bool]:
    """Which calls feed a live result (the others are skipped when running call by call)."""
    need = set(live)
    ends = []
    n = 0
    for c in calls:
        n += c[3]
        ends.append(n)
    keep = [False] * len(calls)
    for k in range(len(calls) - 1, -1, -1):
        fn, tree, refs, nout = calls[k]
        end = ends[k]
        if any(i in need for i in range(end - nout, end)):
            keep[k] = True
            need.update(r for r in refs if r >= 0)
    return keep


def _invoke(fn: Callable[..., Any], tree: Any, args: Sequence[Any]) -> Any:
    """One recorded call on its argument leaves."""
    return fn(*args) if tree is None else fn(*_tree_unflatten(tree, args))


def _out_leaves(out: Any) -> list[Any]:
    if type(out) is _ArrayImpl or isinstance(out, jax.core.Tracer):
        return [out]
    return jax.tree_util.tree_leaves(out)


invoke = _invoke
out_leaves = _out_leaves


def slot_avals(calls: Sequence[tuple], ext_avals: Sequence[Any]) -> list[Any] | None:
    """The signature ``(shape, dtype, weak_type)`` of every result of ``calls`` on inputs of ``ext_avals`` (from the
    shape inference of recording, cached; inferred again when evicted), or None if a call's results do not fit."""
    slots: list[Any] = []
    for fn, tree, refs, nout in calls:
        akey = tuple([slots[r] if r >= 0 else ext_avals[-1 - r] for r in refs])
        r = _SHAPES.get((fn, tree, akey))
        if r is None:  # (a Python scalar's aval is its type: a stand-in of that type infers the same)
            r = _infer_avals(fn, tree, [None if type(a) is tuple else a(1) for a in akey], akey)
        if len(r[1]) != nout:
            return None
        slots.extend(r[1])
    return slots


# steps of a known family on a new batch size: ``runner(key, earlier keys of the family, ext) -> results or None``, set
# by ``_autograd.row_buckets`` (which pads the batch to a bucket size); None or PYLAYER_JAX_BUCKETS=0: not used
BUCKETS = os.environ.get("PYLAYER_JAX_BUCKETS", "1") != "0"
_bucket_runner: list[Callable[..., Any] | None] = [None]


def set_bucket_runner(runner: Callable[..., Any] | None) -> None:
    """Install the runner of known steps on new batch sizes (see ``BUCKETS``)."""
    _bucket_runner[0] = runner


# the output shapes of a call on a new batch size without tracing it, for kernels whose rows are known: an object with
# ``predict(fn, tree, akey) -> (out_tree, avals) or None`` and ``note(fn, tree, akey, (out_tree, avals))`` (each
# shape inference), set by ``_autograd.row_buckets``; tracing every call of a step for its shapes would cost more
# than the padded step's run
_shape_rule: list[Any] = [None]


def set_shape_rule(rule: Any) -> None:
    """Install the shape rule of calls on new batch sizes (see ``_shape_rule``)."""
    _shape_rule[0] = rule


def _interpret(calls: tuple, live: tuple, *ext: Any, keep: Sequence[bool] | None = None) -> list[Any]:
    """The recorded calls in order; traced once per signature, or run directly on arrays."""
    slots: list[Any] = []
    for k, (fn, tree, refs, nout) in enumerate(calls):
        if keep is not None and not keep[k]:
            slots.extend([None] * nout)
            continue
        slots.extend(_out_leaves(_invoke(fn, tree, [slots[r] if r >= 0 else ext[-1 - r] for r in refs])))
    return [slots[i] for i in live]


def _execute(key: tuple, ext: Sequence[Any], compile_ok: bool) -> list[Any]:
    calls, live, _ = key
    if not compile_ok:
        return _run_calls(calls, live, ext)
    prog = _PROGRAMS.get(key)
    if prog is None:
        new_step = False
        seen = _SEEN.get(key, 0) + 1
        padded = _BUCKETED.get(key) if seen > 1 else None
        dropped = _DROPPED_QUICK.pop(key, None) if _DROPPED_QUICK else None
        if dropped is not None:  # its quick program was dropped for others (many shapes in turn): it repeats
            seen = min(dropped + 1, FUSE_AFTER)
            if seen < FUSE_AFTER and not _small(key):  # compiled quickly again, its sightings counted on
                prog = _quick_program(key, calls, live, seen)
            else:  # kept from now on, as a signature seen a third time is (a small step's program compiles as
                seen, new_step = FUSE_AFTER, True  # quickly as a quick one)
            padded = None
        if prog is not None:
            pass
        elif padded is not None:  # run padded before: it repeats (a smaller last batch)
            refs, at = padded
            if STATS["bucketed"] - at > REPEAT_WINDOW:
                seen = 1  # seen again only after many other padded steps (sizes cycling): its count starts anew
            if _padded_sizes(key, refs) > VARIED_SIZES:  # its family pads many sizes in turn: it stays padded too
                seen = min(seen, FUSE_AFTER - 1)
            if seen < FUSE_AFTER:
                runner = _bucket_runner[0]
                outs = runner(key, refs, ext) if BUCKETS and runner is not None else None
                if outs is not None:
                    STATS["bucketed"] += 1
                    _SEEN.put(key, seen)
                    _BUCKETED.put(key, (refs, STATS["bucketed"]))
                    return outs
            _BUCKETED.pop(key, None)
            _STREAK[0] = 0
            seen = FUSE_AFTER  # from its third sighting (or when it no longer pads): its own program, optimised
        elif seen < FUSE_AFTER and seen == 1:  # a new signature: a known step on new shapes is compiled now
            fam = _family(key)
            known = _FAMILIES_RUN.get(fam)
            if known is not None:
                _FAMILIES_RUN.move_to_end(fam)
                runner = _bucket_runner[0]
                if BUCKETS and runner is not None:  # on a new batch size: padded to a bucket, if its rows allow
                    outs = runner(key, known, ext)
                    if outs is not None:
                        _padded_sizes(key, known)
                        STATS["bucketed"] += 1
                        _SEEN.put(key, 1)
                        _BUCKETED.put(key, (known, STATS["bucketed"]))
                        return outs
                STATS["new_shape"] += 1
                seen = FUSE_AFTER + 1
                # (the same step of other sizes: a model of another width, whose new batch sizes then pad against
                # it; the most recent first, so that a process that trains many widths keeps finding its own)
                known.insert(0, key)
                del known[_FAMILY_KEYS:]
            else:
                _FAMILIES_RUN.put(fam, [key])
                if len(calls) >= FUSE_FIRST_CALLS and _STREAK[0] < MAX_UNREPEATED:
                    seen = FUSE_AFTER  # a new step: one program now, not a kernel compiled per call
                    new_step = True
                    _STREAK[0] += 1
                    _UNREPEATED[key] = None
                    if len(_UNREPEATED) > MAX_UNREPEATED:
                        _UNREPEATED.pop(next(iter(_UNREPEATED), None), None)  # (another thread may empty it)
        elif seen == FUSE_AFTER:  # a signature seen a third time: steps repeat again
            _STREAK[0] = 0
        if prog is not None:  # (a dropped quick program, compiled again)
            pass
        elif seen >= FUSE_AFTER:
            STATS["compiled"] += 1
            small = (seen > FUSE_AFTER or new_step) and _small(key)
            if seen > FUSE_AFTER:  # a new shape of a known step: compiled quickly, as it may never repeat
                STATS["compiled"] -= 1  # (counted by ``_quick_program``)
                prog = _quick_program(key, calls, live, 1, small)
            elif small:  # a new step, small: compiled quickly, and kept when it repeats
                prog = _Small(_jit(calls, live, _small_options()), functools.partial(_jit, calls, live))
                _PROGRAMS.put(key, prog)
            else:
                prog = _PROGRAMS.kernel(key, lambda: _jit(calls, live))
            _SEEN.pop(key, None)
            if small and _SMALL_OK[0] is None:  # the first program with _SMALL_OPTIONS: XLA may not know one
                return _first_small(key, prog, ext)
            if type(prog) is _JIT and prog._cache_size() == 0:  # compiled now, with XLA's defaults
                return _first_timed(key, prog, ext)
        else:
            _SEEN.put(key, seen)
            return _run_calls(calls, live, ext)
    elif _UNREPEATED and _UNREPEATED.pop(key, _DEAD) is not _DEAD:  # compiled at its first sighting, run again
        _STREAK[0] = 0
        _UNREPEATED.clear()  # (a new count starts: the check above then costs nothing per step)
    elif type(prog) is _Quick:
        prog.seen += 1
        _QUICK_KEYS[key] = True
        _QUICK_KEYS.move_to_end(key)
        if prog.seen >= FUSE_AFTER and prog.small:  # a small step repeats: its program stays, as a step's
            _QUICK_KEYS.pop(key, None)
            prog = _Small(prog.fn, functools.partial(_jit, calls, live))
            _PROGRAMS.put(key, prog)
        elif prog.seen >= FUSE_AFTER:  # it repeats after all: the optimised program from now on
            STATS["compiled"] += 1
            _QUICK_KEYS.pop(key, None)
            _PROGRAMS.pop(key).clear_cache()
            prog = _PROGRAMS.kernel(key, lambda: _jit(calls, live))
    STATS["programs"] += 1
    return prog(*ext)


# seconds a step program's first call took (its compile, mostly), by key, for the memo of a replayed step
_COMPILE_S: dict[tuple, float] = {}
MAX_COMPILE_S = 256

# XLA's options for a program that may run once: no backend (LLVM) optimisation, a third less compile time
_QUICK_OPTIONS = {"xla_backend_optimization_level": 0}
# a small step (every input and every call's result under SMALL_BYTES), a new step or a known step on new shapes:
# no backend optimisation and no CPU fusion emitters, both (either alone saves little), per program, never
# process-wide. A DANN step's two first programs compile in ~0.2 s instead of ~0.9-1.8 s (CPU, loaded machine); a
# small step's program then runs ~10% slower in the eager step rows, up to twice as slow for an Adam MLP step of
# 64-128 wide in plain JAX: kept when it repeats (a short script never pays the optimised compile), compiled again
# with XLA's defaults after UPGRADE_AFTER runs (200 runs at 10-340 us extra cost less than the ~0.2 s it saved)
_SMALL_OPTIONS = {"xla_backend_optimization_level": 0, "xla_cpu_use_fusion_emitters": False}
SMALL_BYTES = 256 * 1024
UPGRADE_AFTER = 200  # runs of a small step's program, then it is compiled with XLA's defaults (see _Small)
_SMALL_OK: list[bool | None] = [None]  # whether XLA took _SMALL_OPTIONS (None: not compiled with them yet)
_JIT = type(jax.jit(abs))
MAX_QUICK = 16  # quick programs kept (of the SHAPED in _PROGRAMS), least recent dropped: one-off shapes age out fast
_QUICK_KEYS: OrderedDict[tuple, bool] = OrderedDict()  # the keys of the quick programs in _PROGRAMS, least recent first
# the sightings of signatures whose quick program was dropped for more recent ones, least recent first
_DROPPED_QUICK = BoundedDict(_MAX_SEEN)


def _jit(calls: tuple, live: tuple, options: dict[str, Any] | None = None) -> Any:
    """The program of a signature, compiled (at its first call) with XLA's ``options`` (None: its defaults)."""
    return jax.jit(functools.partial(_interpret, calls, live), compiler_options=options)


def _small_options() -> dict[str, Any]:
    return _QUICK_OPTIONS if _SMALL_OK[0] is False else _SMALL_OPTIONS


def _small(key: tuple) -> bool:
    """Whether every input of the signature ``key`` and every result of its calls is under ``SMALL_BYTES``."""
    calls, _, ext_avals = key
    try:
        slots = slot_avals(calls, ext_avals)
    except Exception:  # (a shape inference evicted and failing now: the step is compiled as before)
        return False
    return slots is not None and small_values(ext_avals) and small_values(slots)


def small_values(avals: Sequence[Any]) -> bool:
    """Whether every array of ``avals`` (``(shape, dtype, weak_type)``; a Python scalar's type) is under
    ``SMALL_BYTES``."""
    for av in avals:
        if type(av) is tuple and np.dtype(av[1]).itemsize * int(np.prod(av[0], dtype=np.int64)) >= SMALL_BYTES:
            return False
    return True


def small_options() -> dict[str, Any] | None:
    """``_SMALL_OPTIONS`` once XLA has taken them (a program of a small step compiled), else None."""
    return _SMALL_OPTIONS if _SMALL_OK[0] is True else None


def _first_timed(key: tuple, prog: Any, ext: Sequence[Any]) -> list[Any]:
    """The first run of a step's program compiled with XLA's defaults, its time (the compile, mostly) kept in
    ``_COMPILE_S``: what compiling the step again costs, which a replayed step's ``_Numbers`` weighs."""
    t0 = time.perf_counter()
    outs = prog(*ext)
    _COMPILE_S[key] = time.perf_counter() - t0
    if len(_COMPILE_S) > MAX_COMPILE_S:
        _COMPILE_S.pop(next(iter(_COMPILE_S)), None)
    STATS["programs"] += 1
    return outs


def _first_small(key: tuple, prog: Any, ext: Sequence[Any]) -> list[Any]:
    """The first run of a program compiled with ``_SMALL_OPTIONS``: if XLA does not know an option (another
    jaxlib), small steps are compiled with ``_QUICK_OPTIONS`` from now on, this one too."""
    try:
        outs = prog(*ext)
    except jax.errors.JaxRuntimeError as e:
        if "compile option" not in str(e):
            raise
        _SMALL_OK[0] = False
        calls, live, _ = key
        fn = _jit(calls, live, _QUICK_OPTIONS)
        if type(prog) is _Quick or type(prog) is _Small:
            prog.fn = fn
        else:
            _PROGRAMS.put(key, fn)
            prog = fn
        outs = prog(*ext)
    else:
        _SMALL_OK[0] = True
    STATS["programs"] += 1
    return outs


def _quick_program(key: tuple, calls: tuple, live: tuple, seen: int, small: bool | None = None) -> _Quick:
    """Compile ``key``'s program quickly (a new shape of a known step, which may never repeat) and keep it among the
    ``MAX_QUICK`` most recent quick programs; the least recent one leaves (~2 MiB each on CPU), its sightings noted
    in ``_DROPPED_QUICK``, so that a signature seen again after many others (sequence lengths in turn) is known to
    repeat and is kept at its third sighting instead of compiled quickly each time."""
    STATS["compiled"] += 1
    if small is None:
        small = _small(key)
    prog = _Quick(_jit(calls, live, _small_options() if small else _QUICK_OPTIONS), key, small)
    prog.seen = seen
    _PROGRAMS.put(key, prog)
    _QUICK_KEYS[key] = True
    while len(_QUICK_KEYS) > MAX_QUICK:
        old = _PROGRAMS.get(_QUICK_KEYS.popitem(last=False)[0])
        if type(old) is _Quick:
            _PROGRAMS.pop(old.key)
            old.clear_cache()
            _DROPPED_QUICK.put(old.key, old.seen)
    return prog


class _Quick:
    """A program compiled quickly (a new shape of a known step: with ``_QUICK_OPTIONS``, or ``_SMALL_OPTIONS`` when
    ``small``) and its sightings so far."""

    __slots__ = ("fn", "seen", "key", "small")

    def __init__(self, fn: Any, key: tuple, small: bool = False) -> None:
        self.fn = fn
        self.seen = 1
        self.key = key
        self.small = small

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args)

    def _cache_size(self) -> int:
        return self.fn._cache_size()

    def clear_cache(self) -> None:
        self.fn.clear_cache()


class _Small:
    """A small step's program: compiled with ``_SMALL_OPTIONS`` until it has run ``UPGRADE_AFTER`` times, then with
    XLA's defaults (a step run that often has paid back the optimised compile)."""

    __slots__ = ("fn", "left", "remake")

    def __init__(self, fn: Any, remake: Callable[[], Any]) -> None:
        self.fn = fn  # the program compiled quickly
        self.left = UPGRADE_AFTER
        self.remake = remake  # makes the program with XLA's defaults

    def __call__(self, *args: Any) -> Any:
        self.left -= 1
        if self.left <= 0:
            self.upgrade()
        return self.fn(*args)

    def upgrade(self) -> None:
        self.left = 1 << 62
        STATS["compiled"] += 1
        old, self.fn = self.fn, self.remake()
        old.clear_cache()

    def _cache_size(self) -> int:
        return self.fn._cache_size()

    def clear_cache(self) -> None:
        self.fn.clear_cache()


Small = _Small
_STEP_PROGRAMS = (_JIT, _Small)  # the programs a replayed step notes (not a quick one: it is replaced if it repeats)


def _family(key: tuple) -> tuple:
    """A buffer signature without its shapes: each kernel by its family, each input by its rank and dtype."""
    calls, live, ext_avals = key
    return (tuple([(family(fn), tree, refs, nout) for fn, tree, refs, nout in calls]), live,
            erase_shapes(ext_avals))


def _run_calls(calls: tuple, live: tuple, ext: Sequence[Any]) -> list[Any]:
    keep = _needed(calls, live)
    STATS["one_by_one"] += 1
    STATS["calls_run"] += sum(keep)
    return _interpret(calls, live, *ext, keep=keep)


# ---- recording ----------------------------------------------------------------------
_SHAPES = BoundedDict(4096)  # eval_shape results per (function, input avals): least recent dropped


_SCALARS = (bool, int, float, complex)


def _aval_of(a: Any) -> Any:
    """What a concrete input contributes to a call's signature, or None: not recordable, call at once."""
    if type(a) is _ArrayImpl:
        av = a.aval  # (the array's shape, dtype and weak_type properties each read it: ~1 us for three)
        return (av.shape, av.dtype, av.weak_type)
    if isinstance(a, np.ndarray | np.generic):
        return (a.shape, a.dtype, False)
    t = type(a)
    if t is int and not -(2**63) <= a < 2**63:
        return None  # out of int64's range: the call itself raises JAX's OverflowError
    if t in _SCALARS:
        return t  # a Python scalar: weakly typed, its value is not part of the structure
    return None


def _spec(a: Any, aval: Any) -> Any:
    if type(aval) is tuple:
        return jax.ShapeDtypeStruct(aval[0], aval[1], weak_type=aval[2])
    return a


def _infer_avals(fn: Callable[..., Any], tree: Any, leaves: Sequence[Any], akey: tuple) -> tuple[Any, list[tuple]]:
    """(output treedef, or None for one array; output avals) of a call, cached in _SHAPES."""
    specs = [_spec(a, av) for a, av in zip(leaves, akey)]
    # (a LazyJit's traces are jax.jit's: the call then reuses them; the result is cached under the LazyJit itself,
    # the function that ``call`` and ``slot_avals`` look up)
    f = fn.jitted() if type(fn) is LazyJit else fn
    out = jax.eval_shape(f, *specs) if tree is None else jax.eval_shape(f, *_tree_unflatten(tree, specs))
    out_leaves, out_tree = _tree_flatten(out)
    avals = [(tuple(o.shape), o.dtype, bool(getattr(o, "weak_type", False))) for o in out_leaves]
    r = (None if out_tree.num_leaves == 1 and out_tree.num_nodes == 1 else out_tree, avals)
    _SHAPES.put((fn, tree, akey), r)
    traced_new_shapes()  # (JAX keeps the trace: see _runtime.kernel_cache)
    return r


def _call_now(fn: Callable[..., Any], leaves: Sequence[Any], tree: Any) -> Any:
    return _invoke(fn, tree, [concrete(a) for a in leaves])


def call(fn: Callable[..., Any], leaves: Sequence[Any], tree: Any = None) -> Any:
    """``fn(*leaves)`` (or ``fn(*unflatten(tree, leaves))``), recorded: returns Pendings in the output's structure."""
    if not ENABLED:
        return _call_now(fn, leaves, tree)
    buf = _buffer()
    lock = buf.lock
    lock.acquire()  # (acquire/release: a third of what ``with`` costs on an RLock)
    try:
        if buf.done:  # another thread ran it meanwhile
            return call(fn, leaves, tree)
        refs: list[int] = []
        akey: list[Any] = []
        new_ext: list[Any] = []  # inputs new to the buffer: entered only once the call is known to record
        new_ids: dict[int, int] = {}
        ids = buf.ext_ids
        for a in leaves:
            ta = type(a)
            if ta is Pending:
                if a.buf is buf and a.array is None:
                    refs.append(a.idx)
                    akey.append(a.aval)
                    continue
                # a result of a run buffer (a parameter or optimizer state after the last step): its array, with
                # the aval the Pending already holds (reading an array's shape, dtype and weak type costs ~1 µs)
                av = a.aval
                a = a.get()
            elif ta is _ArrayImpl:
                av = a.aval  # (one read, where the three properties read it three times)
                av = (av.shape, av.dtype, av.weak_type)
            else:
                av = _aval_of(a)
                if av is None:  # not recordable: call at once
                    return _call_now(fn, leaves, tree)
            akey.append(av)
            j = ids.get(id(a))
            if j is None:
                j = new_ids.get(id(a))
                if j is None:
                    j = new_ids[id(a)] = len(buf.ext) + len(new_ext)
                    new_ext.append((a, av))
            refs.append(-1 - j)
        akey_t = tuple(akey)
        r = _SHAPES.get((fn, tree, akey_t))
        if r is None:
            rule = _shape_rule[0] if BUCKETS else None
            r = None if rule is None else rule.predict(fn, tree, akey_t)
            if r is None:
                # a shape error raises here, before the buffer is touched; tracing fn may run user code that
                # reads a deferred value and so runs this very buffer: then record into the next one
                r = _infer_avals(fn, tree, leaves, akey_t)
                if buf.done:
                    return call(fn, leaves, tree)
                if rule is not None:
                    rule.note(fn, tree, akey_t, r)
            else:
                _SHAPES.put((fn, tree, akey_t), r)
        out_tree, avals = r
        base = len(buf.refs)
        entry = None
        try:  # the buffer takes the call whole or not at all: an interrupt before its entry is in is undone
            for a, av in new_ext:  # (``_Buffer.enter``, written out: every recorded call passes here)
                ids[id(a)] = len(buf.ext)
                buf.ext.append(a)
                buf.ext_avals.append(av)
            if out_tree is None:  # one array out
                result = Pending(avals[0], buf, base)
                buf.refs.append(weakref.ref(result))
                entry = (fn, tree, tuple(refs), 1)
            else:
                outs = [Pending(av, buf, base + j) for j, av in enumerate(avals)]
                buf.refs.extend([weakref.ref(p) for p in outs])
                entry = (fn, tree, tuple(refs), len(outs))
                result = _tree_unflatten(out_tree, outs)
            buf.calls.append(entry)
        except BaseException:
            calls = buf.calls
            if entry is None or len(calls) == 0 or calls[-1] is not entry:  # (a new tuple: ``is`` tells)
                rollback(buf, (len(calls), base, min(new_ids.values()) if new_ext else len(buf.ext)))
            raise
    finally:
        lock.release()
    if len(buf.calls) >= MAX_CALLS:  # a long buffer runs call by call: its cut points need not repeat
        buf.run(compile_ok=False)
    return result


_FIRST_REFS: dict[int, tuple[int, ...]] = {}  # n -> the refs of a first call on n distinct inputs


def call_first(fn: Callable[..., Any], arrays: Sequence[Any], avals: Sequence[Any],
               out_avals: Sequence[tuple]) -> list[Pending] | None:
    """``fn(*arrays)`` recorded as the first call of this thread's buffer, when the caller knows its signature from
    an earlier ``call`` of ``fn``: ``avals`` the inputs' (what ``call`` enters for them), ``out_avals`` its results'
    (``fn`` returns a flat list or tuple of arrays). Returns a Pending per result; or None when the buffer already
    holds calls, the inputs are not distinct objects or recording is off (the caller then uses ``call``).

    What ``call`` records for the same inputs in an empty buffer, without its per-input work: a step that repeats
    (an optimizer's update, the first call after a run) costs a few list operations."""
    if not ENABLED:
        return None
    buf = _buffer()
    lock = buf.lock
    lock.acquire()
    try:
        if buf.done or buf.calls or buf.ext or buf.refs:
            return None
        n = len(arrays)
        ids = dict(zip(map(id, arrays), range(n)))
        if len(ids) != n:
            return None
        refs = _FIRST_REFS.get(n)
        if refs is None:
            refs = _FIRST_REFS[n] = tuple(range(-1, -n - 1, -1))
        outs = [Pending(av, buf, j) for j, av in enumerate(out_avals)]
        whole = False
        try:  # all or nothing, as ``call``
            buf.ext_ids = ids
            buf.ext = list(arrays)
            buf.ext_avals = list(avals)
            buf.refs = list(map(weakref.ref, outs))
            buf.calls = [(fn, None, refs, len(outs))]
            whole = True
        finally:
            if not whole:
                rollback(buf, (0, 0, 0))
    finally:
        lock.release()
    return outs


def add_check(result: Any, fail: Callable[[Any], None]) -> None:
    """Call ``fail(values)`` with the arrays of ``result`` (Pendings of this thread's buffer, recorded by
    ``call``) when the buffer has run; ``fail`` raises when the values show an error. The check's
    results stay referenced, so the run computes them."""
    leaves = jax.tree_util.tree_leaves(result)
    if not leaves or type(leaves[0]) is not Pending:
        fail(result)
        return
    buf = leaves[0].buf
    lock = buf.lock
    lock.acquire()  # (a run takes the buffer's checks under its lock)
    try:
        if not buf.done:
            buf.checks.append((result, fail))
            return
    finally:
        lock.release()
    # another thread ran the buffer since ``result`` was recorded (it read a value): the check is made now, once
    fail(jax.tree_util.tree_map(concrete, result))


def call_tree(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` for nested arguments (lists, tuples, None), recorded."""
    leaves, tree = _tree_flatten(args)
    return call(fn, leaves, tree)
