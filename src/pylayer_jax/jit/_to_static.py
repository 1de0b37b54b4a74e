"""``jit.to_static``: an eager-style function compiled by XLA, one node on the eager tape.

Layer L5. The function is turned into an ``Op`` of its own (not registered in the table):
its tensor parameter is the list of Tensor arguments, its static attribute the rest of the
call. ``apply_op`` then gives it what every op has: a cached jitted forward, a cached
jitted VJP when an input needs a gradient, and a tape node, so ``.backward()`` through a
to_static function works, including through the PyLayers it applies (they run their
traced driver inside).

**Implicit inputs.** A Tensor the function reads without being given it (a closure variable,
``self.weight``, a sublayer's parameters, a buffer) is an input too. While the function is
traced, ``modes.capture`` holds a ``_Capture``: ``apply_op`` hands it every Tensor an op reads
whose value is concrete (a Tensor made inside the trace is a tracer), and ``before_write``
every Tensor written in place. The first trace of a call signature finds them (with zeros in
their place) and is thrown away; the function is then called with them as extra Tensor
inputs, so their current values are read at every call and their gradients flow like an
argument's. A Tensor written inside (a running mean updated with ``set_value`` or an in-place
op) becomes an extra output that is written back after the call, detached (as ``set_value``
does). Each implicit input is found again before every call by the path it was reached by
(``self._parameters['weight']``, a closure cell, a global): a Tensor replaced between calls
(``self.w = new``) is the one read.
"""

from __future__ import annotations

import collections
import functools
import threading
import types
import warnings
import weakref
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._autograd.saved import SavedValue
from .._ops.table import Op
from .._runtime.exact_key import exact
from .._runtime.rng import generator
from .._runtime.state import modes
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, before_write, unwrap
from ._paths import CONTROL_FLOW_ERRORS, ControlFlowError, Implicit, control_flow_error, find_paths
from ._step import MISS, StepFound, WholeStep

_enabled = [True]
_tls = threading.local()  # .strict: the StaticFunction whose forward trace may ask for a new signature


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _out_key(spec: tuple) -> tuple:
    """A call structure's ``spec`` as a dict key: its constants compared exactly (every NaN alike, -0.0 not 0.0)."""
    return (spec[0], tuple([exact(v) for v in spec[1]]), *spec[2:])


def _avals(arrays: list[Any]) -> tuple:
    """The shapes and dtypes of a call's inputs: with its static attributes, what a trace is made for (the result's
    non-Tensor parts, ``x.shape[0]``, are those of the trace of the same shapes)."""
    return tuple((tuple(a.shape), str(a.dtype)) for a in arrays)


class _ArrayArg:
    """A numpy array passed to a compiled function: a constant of the call, as Paddle treats it (the function
    computes with it in numpy), compared by its dtype, shape and bytes."""

    __slots__ = ("array", "_key")

    def __init__(self, array: np.ndarray) -> None:
        self.array = array.copy()
        self._key = (array.dtype.str, array.shape, array.tobytes())

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:
        return type(other) is _ArrayArg and self._key == other._key


class _Rediscover(Exception):  # noqa: N818 - internal signal, never seen by users
    """A forward trace met Tensors from outside that are not inputs yet: call again with them."""

    def __init__(self, owner: Any, found: list[Tensor], rng: bool) -> None:
        super().__init__("to_static: new implicit inputs")
        self.owner, self.found, self.rng = owner, found, rng


class _Capture:
    """Implicit inputs of one trace: Tensor id -> the array (tracer) standing for it."""

    def __init__(self, given: dict[int, Any], strict: bool) -> None:
        self.given = given
        self.strict = strict
        self.found: dict[int, Tensor] = {}  # read or written, not given: the next call makes them inputs
        self.written: dict[int, tuple[Tensor, tuple]] = {}  # id -> (tensor, its state before the trace)
        self.baked: dict[int, tuple[Tensor, Any]] = {}  # read as constants inside a PyLayer: id -> (tensor, array)
        self.undo: list[Callable[[], None]] = []  # attributes set to Tensors of the trace: put back at its end

    def read(self, leaves: Any, arrays: list[Any]) -> list[Any]:
        out = None
        for i, x in enumerate(leaves):
            if not isinstance(x, Tensor) or isinstance(x._v, jax.core.Tracer):
                continue
            if modes.pylayer_user:  # a PyLayer's own code: a constant (its gradient reaches only its inputs)
                self.baked.setdefault(id(x), (x, x._value))  # the call is traced again once its value changes
                continue
            a = self.given.get(id(x))
            if a is None:
                if not self.strict:  # a later trace (the VJP) of a call whose inputs are fixed: a constant
                    continue
                self.found[id(x)] = x
                a = jnp.zeros(x._v.shape, x._v.dtype)  # a stand-in: this trace is thrown away
            if out is None:
                out = list(arrays)
            out[i] = a
        return arrays if out is None else out

    def write(self, t: Tensor) -> None:
        if id(t) in self.written or (isinstance(t._v, jax.core.Tracer) and id(t) not in self.given):
            return  # written already, or made inside the trace
        self.written[id(t)] = (t, (t._v, t._e, t.stop_gradient, t._counter.value if t._counter else None))
        if id(t) not in self.given and not isinstance(t._v, jax.core.Tracer) and self.strict:
            self.found[id(t)] = t
        elif id(t) in self.given:  # reads after the write see the written value; before it, the input
            t._v = self.given[id(t)]

    def backward_called(self) -> None:
        raise StepFound  # a training step: traced again as one (``_step``)

    def optimizer_step(self, opt: Any, params: list[Tensor], lr: Any) -> Any:
        raise StepFound

    def restore(self) -> None:
        for f in reversed(self.undo):
            f()
        for t, (v, e, sg, version) in self.written.values():
            t._v, t._e, t.stop_gradient = v, e, sg
            if version is not None:
                t._counter.value = version
            elif t._counter is not None:
                t._counter.value = 0


def _training(fn: Any) -> Any:
    """The train/eval flags of a bound Layer-like object and its sublayers: part of the cache key (read at every
    call of a method; a Layer's sublayers are walked through their ``_sub_layers`` dicts, breadth first)."""
    obj = getattr(fn, "__self__", None)
    if obj is None:
        return None
    d = getattr(obj, "__dict__", None)
    subs = d.get("_sub_layers") if type(d) is dict else None
    if type(subs) is not collections.OrderedDict and type(subs) is not dict:
        if not hasattr(obj, "training"):
            return None
        subs = obj.sublayers() if callable(getattr(obj, "sublayers", None)) else ()
        return (bool(obj.training), *(bool(getattr(s, "training", True)) for s in subs))
    flags = [bool(obj.training)]
    seen = {id(obj)}
    todo = [subs]
    for level in todo:  # (grows while walked)
        for s in level.values():
            if s is None or id(s) in seen:
                continue
            seen.add(id(s))
            flags.append(bool(getattr(s, "training", True)))
            more = getattr(s, "__dict__", {}).get("_sub_layers")
            if more:
                todo.append(more)
    return tuple(flags)


class StaticFunction:
    """What ``to_static(fn)`` returns: call it like ``fn``; it runs compiled.

    Used on a method (``@paddle.jit.to_static`` inside a class body) it binds like a function:
    ``obj.method`` is a StaticFunction of the bound method, made once per object.
    """

    def __init__(self, fn: Callable[..., Any], input_spec: Any = None, full_graph: bool = False) -> None:
        self.dygraph_function = fn
        self._input_spec = None if input_spec is None else list(input_spec)
        self._full_graph = bool(full_graph)
        self._op = Op(f"to_static({getattr(fn, '__name__', 'fn')})", self._pure, ("tensors",), ("tensors",), None,
                      (), False, False, True)
        self._implicit: dict[Any, list[Implicit]] = {}  # per call structure
        self._eager: set[Any] = set()  # call structures that run eagerly (full_graph=False after control flow)
        self._baked: dict[Any, dict[int, tuple[Any, Any]]] = {}  # per call structure: id -> (weakref, array)
        self._last_baked: dict[int, tuple[Tensor, Any]] | None = None
        self._rng: set[Any] = set()  # call structures whose function draws random numbers
        self._gen = 0  # bumped when a Tensor read as a constant inside a PyLayer changes: everything is traced again
        self._bound: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._steps: dict[Any, WholeStep] = {}  # call structures that are whole training steps
        # the last training step called with Tensors only: (how many, its WholeStep, treedef, positions, signature)
        self._last_step: tuple[int, WholeStep, Any, tuple[int, ...], Any] | None = None
        self._owner: tuple[weakref.ref, str] | None = None  # (the object, its attribute) this function was set on
        self._py_out: dict[Any, tuple[Any, tuple]] = {}  # per trace: the result's structure and non-Tensor leaves
        self._last_call_spec: list[Any] | None = None  # the last call's Tensors' shapes, when it passed only Tensors
        functools.update_wrapper(self, fn)

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:  # not weak-referenceable or not hashable: a fresh binding (its cache is per binding)
            bound = None
        if bound is None:
            bound = StaticFunction(self.dygraph_function.__get__(instance, owner), self._input_spec,
                                   self._full_graph)
            try:
                self._bound[instance] = bound
                bound._owner = (weakref.ref(instance), self.dygraph_function.__name__)
            except TypeError:
                pass
        return bound

    def _pure(self, tensors: list[Any], spec: tuple) -> list[Any]:
        treedef, statics, positions, stop, ids, rng, _gen = spec
        n = len(positions)
        leaves = [v.array if type(v) is _ArrayArg else v for v in statics]
        for p, a, s in zip(positions, tensors[:n], stop):
            leaves[p] = Tensor(a, s)
        args, kwargs = jax.tree_util.tree_unflatten(treedef, leaves)
        cap = _Capture(dict(zip(ids, tensors[n:n + len(ids)])), getattr(_tls, "strict", None) is self)
        prev, modes.capture = modes.capture, cap
        state = generator._state  # the RNG state is an input and an output of a function that draws
        if rng:
            generator._state = tensors[-1]
        rng_in = generator._state
        try:
            res = self.dygraph_function(*args, **dict(kwargs))
            # what the function returns besides Tensors (``x.shape[0]``, a flag, a string) is a constant of the
            # trace: it is given back as it is (as Paddle), not as a Tensor, and only the Tensors are outputs
            flat, tdef = jax.tree_util.tree_flatten(res, is_leaf=_is_tensor)
            arrays = [isinstance(v, Tensor | jax.Array) for v in flat]
            key = _out_key(spec)
            self._py_out[(key, _avals(tensors))] = self._py_out[key] = (
                tdef, tuple(None if a else v for a, v in zip(arrays, flat)))
            out = [unwrap(v) for a, v in zip(arrays, flat) if a]
            written = {ids.index(i): t._v for i, (t, _) in cap.written.items() if i in ids}
            drew = generator._state is not rng_in
            rng_out = generator._state if rng else None
            if cap.strict:
                self._last_baked = cap.baked
        except CONTROL_FLOW_ERRORS as e:
            raise control_flow_error(self._op.name, e) from e
        finally:
            modes.capture = prev
            generator._state = state
            cap.restore()
        if cap.found or (drew and not rng and cap.strict):
            raise _Rediscover(self, list(cap.found.values()), drew and not rng)
        return [out, written, rng_out]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        last = self._last_step
        if last is not None and not kwargs and len(args) == last[0] and _enabled[0]:
            # a training step called as last time, with Tensors only: its signature needs no flattening
            for a in args:
                if not isinstance(a, Tensor):
                    break
            else:
                sig = last[4]
                if sig[2] is None or _training(self.dygraph_function) == sig[2]:
                    if self._input_spec is not None:
                        _check_spec(self._op.name, self._input_spec, args)
                    step = last[1]
                    fast = step._fast
                    if fast is not None:  # (``WholeStep.__call__``'s fast call, one frame less)
                        try:
                            out = fast.call(args)
                        except BaseException as e:
                            fast.leaves = None
                            step._fast = None
                            if not isinstance(e, ControlFlowError):
                                raise
                            return self._step_eager(sig, e, args, kwargs, 3)
                        if out is not MISS:
                            return out
                        step._fast = None
                    return self._run_step(sig, step, last[2], list(args), last[3], args, kwargs)
        if not _enabled[0]:
            return self.dygraph_function(*args, **kwargs)
        if not kwargs and args and all(isinstance(a, Tensor) for a in args):  # (what jit.save without a spec traces)
            self._last_call_spec = [jax.ShapeDtypeStruct(tuple(a.shape), a._value.dtype) for a in args]
        leaves, treedef = jax.tree_util.tree_flatten((args, tuple(kwargs.items())), is_leaf=_is_tensor)
        positions = tuple(i for i, v in enumerate(leaves) if isinstance(v, Tensor))
        tensors = [leaves[i] for i in positions]
        if self._input_spec is not None:
            _check_spec(self._op.name, self._input_spec, args)
        statics = tuple(None if isinstance(v, Tensor) else _ArrayArg(v) if isinstance(v, np.ndarray) else v
                        for v in leaves)
        try:
            hash(statics)
        except TypeError:
            raise TypeError(
                f"{self._op.name}: non-Tensor arguments become compile-time constants and must be "
                "hashable, but one of them is not. Pass arrays as Tensors."
            ) from None
        sig = (treedef, tuple([exact(v) for v in statics]), _training(self.dygraph_function))  # (-0.0 is not 0.0)
        if sig in self._eager:
            return self.dygraph_function(*args, **kwargs)
        step = self._steps.get(sig)
        if step is not None:
            if not kwargs and len(positions) == len(args):
                self._last_step = (len(args), step, treedef, positions, sig)
            return self._run_step(sig, step, treedef, leaves, positions, args, kwargs)
        stop = tuple(t.stop_gradient for t in tensors)
        baked = self._baked.get(sig)
        if baked and any(r() is None or r()._v is not a for r, a in baked.values()):
            self._gen += 1  # a PyLayer read a Tensor's value as a constant, and it has changed: trace again
            self._baked.clear()
            self._op._fwd.clear()
            self._op._bwd.clear()
        implicit = self._implicit.setdefault(sig, [])
        for _ in range(64):
            found = [imp.get(self.dygraph_function) for imp in implicit]
            if any(t is None for t in found):  # a path leads nowhere now, or a tensor died: look again
                implicit[:] = [imp for imp, t in zip(implicit, found) if t is not None]
                found = [t for t in found if t is not None]
            ids = tuple(id(t) for t in found)
            rng = sig in self._rng
            spec = (treedef, statics, positions, stop, ids, rng, self._gen)
            prev, _tls.strict = getattr(_tls, "strict", None), self
            self._last_baked = None
            try:
                ins = tensors + found + ([Tensor(generator.get_state())] if rng else [])
                out, written, rng_out = apply_op(self._op, (ins, spec))
            except StepFound:  # it calls backward() or an optimizer's step(): a whole training step
                step = self._steps[sig] = WholeStep(self.dygraph_function, self._op.name)
                return self._run_step(sig, step, treedef, leaves, positions, args, kwargs)
            except _Rediscover as e:
                if e.owner is not self:
                    raise
                if e.rng:
                    self._rng.add(sig)
                paths = find_paths(self.dygraph_function, {id(t): t for t in e.found})
                implicit.extend(Implicit(paths.get(id(t)), t) for t in e.found)
                continue
            except ControlFlowError as e:
                if self._full_graph:
                    raise
                warnings.warn(f"{self._op.name}: Python control flow on a Tensor value at {e.where}; this call "
                              "structure runs eagerly (full_graph=False).", stacklevel=2)
                self._eager.add(sig)
                self._last_step = None
                return self.dygraph_function(*args, **kwargs)
            finally:
                _tls.strict = prev
            if self._last_baked:
                self._baked.setdefault(sig, {}).update(
                    (i, (weakref.ref(t), a)) for i, (t, a) in self._last_baked.items())
            if rng_out is not None:
                generator.set_state(rng_out._value)  # the draws made inside move the global generator on
            # (the last trace of the call structure where no trace had these shapes: a padded replay of the step)
            key = _out_key(spec)
            tdef, consts = self._py_out.get((key, _avals([t._v for t in ins]))) or self._py_out[key]
            tensors_out = iter(out)
            out = jax.tree_util.tree_unflatten(tdef, [next(tensors_out) if c is None else c for c in consts])
            for pos, r in written.items():  # buffers written inside: their new values, detached
                t = found[pos]
                before_write(t)
                t._v = r._v
                counter = t._version_counter()
                e = r._edge
                for sv in getattr(e[0], "saved_leaves", ()) if e is not None else ():
                    if isinstance(sv, SavedValue) and sv.counter is counter:
                        sv.counter = None  # the call saved t's old array, which this write cannot reach
                counter.value += 1
            return out
        raise RuntimeError(f"{self._op.name}: the implicit inputs kept changing over 64 traces.")  # pragma: no cover

    def _run_step(self, sig: Any, step: WholeStep, treedef: Any, leaves: list[Any], positions: tuple[int, ...],
                  args: tuple, kwargs: dict[str, Any]) -> Any:
        try:
            return step(treedef, leaves, positions)
        except ControlFlowError as e:
            return self._step_eager(sig, e, args, kwargs, 4)

    def _step_eager(self, sig: Any, e: ControlFlowError, args: tuple, kwargs: dict[str, Any], level: int) -> Any:
        """A training step that needs a Tensor's value in Python: the error, or (``full_graph=False``) eager runs."""
        if self._full_graph:
            raise e
        warnings.warn(f"{self._op.name}: a Tensor's value is needed in Python at {e.where}; this training step "
                      "runs eagerly (full_graph=False).", stacklevel=level)
        self._eager.add(sig)
        self._last_step = None
        return self.dygraph_function(*args, **kwargs)

    def rollback(self) -> Callable[..., Any]:
        """The original Python function. As in Paddle, on an object's compiled method (``to_static(layer)``'s
        ``forward``, or a method decorated in its class) the object's attribute is set back to the original method,
        so that later calls run eagerly; returns it."""
        obj = self._owner[0]() if self._owner is not None else None
        if obj is None:
            return self.dygraph_function
        setattr(obj, self._owner[1], self.dygraph_function)
        return getattr(obj, self._owner[1])


def _check_spec(name: str, spec: list[Any], args: tuple) -> None:
    """A call must match ``input_spec``: each spec's shape (None or -1: any size) and dtype."""
    if len(args) < len(spec):
        raise ValueError(f"{name}: input_spec describes {len(spec)} inputs, but the call passed {len(args)}.")
    for i, (s, a) in enumerate(zip(spec, args)):
        if s is None:
            continue
        shape = getattr(s, "shape", None)
        dtype = getattr(s, "dtype", None)
        if not isinstance(a, Tensor):
            raise TypeError(f"{name}: input_spec[{i}] describes a Tensor, but the call passed {type(a).__name__}.")
        if shape is not None:
            shape = list(shape)
            ok = len(shape) == len(a.shape) and all(d is None or d == -1 or d == e for d, e in zip(shape, a.shape))
            if not ok:
                raise ValueError(
                    f"{name}: input {i} has shape {a.shape}, which does not match input_spec shape {shape} "
                    "(None or -1 matches any size)."
                )
        if dtype is not None and str(a.dtype.name) != str(getattr(dtype, "name", dtype)).replace("paddle.", ""):
            raise ValueError(f"{name}: input {i} has dtype {a.dtype.name}, but input_spec says {dtype}.")


def to_static(function: Any = None, input_spec: Any = None, build_strategy: Any = None, backend: Any = None,
              full_graph: bool | None = None, **kwargs: Any) -> Any:
    """Compile an eager-style function with XLA: ``@paddle.jit.to_static`` or ``to_static(fn)``.

    ``function`` may be a function, a method (decorated in the class body), or an object with a
    ``forward`` (a Layer): its ``forward`` is replaced by the compiled one and the object returned.
    Tensors the function reads without being passed them (parameters, buffers, closures) are inputs
    of the compiled function: read afresh at every call and differentiated. ``input_spec`` (a list of
    ``InputSpec``) is checked against every call; a ``None`` dimension accepts any size, and each new
    size is compiled once. Python control flow on a Tensor's value (an ``if`` on a Tensor, ``.item()``,
    ``print``) makes that call structure run eagerly, with one warning naming the line (``full_graph=False``,
    Paddle's default), or raises an error naming the line (``full_graph=True``).

    >>> import pylayer_jax as paddle
    >>> @paddle.jit.to_static
    ... def f(x):
    ...     return paddle.tanh(x) * 2
    >>> x = paddle.to_tensor([0.5], stop_gradient=False)
    >>> f(x).backward()
    """
    if kwargs:
        raise TypeError(f"to_static: unexpected keyword arguments {sorted(kwargs)}.")
    if build_strategy is not None:
        raise NotImplementedError("to_static: build_strategy is not supported (XLA chooses fusion); pass None.")
    if backend not in (None, "CINN"):
        raise NotImplementedError(f"to_static: backend={backend!r} is not supported; pass None (XLA compiles).")
    fg = False if full_graph is None else bool(full_graph)

    def wrap(fn: Any) -> Any:
        if isinstance(fn, StaticFunction):
            return fn
        if not callable(fn) or isinstance(fn, type):
            raise TypeError(f"to_static: expected a function, a method or a Layer, but received {type(fn).__name__}.")
        if not isinstance(fn, types.FunctionType | types.MethodType | functools.partial) and callable(
                getattr(fn, "forward", None)):
            sf = StaticFunction(fn.forward, input_spec, fg)  # a Layer: its calls go through forward
            fn.forward = sf
            try:
                sf._owner = (weakref.ref(fn), "forward")
            except TypeError:  # not weak-referenceable: rollback returns the original without setting it back
                pass
            return fn
        return StaticFunction(fn, input_spec, fg)

    if function is None:
        return wrap
    return wrap(function)


def enable_to_static(enable: bool) -> None:
    """Globally switch to_static functions between compiled (True) and plain eager (False)."""
    _enabled[0] = bool(enable)


def not_to_static(fn: Callable[..., Any] | None = None) -> Any:
    """Mark a function not to be converted. Nothing is converted here: functions called inside a
    to_static function are traced as they are, so this returns ``fn`` unchanged."""
    if fn is None:
        return not_to_static
    return fn


def ignore_module(modules: list[Any]) -> None:
    """Paddle skips converting functions of these modules; nothing is converted here (functions are
    traced as they are), so only the argument is checked."""
    if not isinstance(modules, list | tuple) or not all(isinstance(m, types.ModuleType) for m in modules):
        raise TypeError(f"ignore_module: expected a list of modules, but received {modules!r}.")
