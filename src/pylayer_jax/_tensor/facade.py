"""The Tensor facade and ``apply_op``, the one place that unwraps and wraps arrays.

Layer L4. A Tensor is a mutable box around an immutable ``jax.Array`` plus its
autograd metadata. Every op goes through ``apply_op``: unwrap the inputs, call the
op's cached jitted kernel, build a tape node if some input needs a gradient, wrap the
outputs. When an input wraps a tracer (under ``jax.jit``/``grad``/``vmap``) the op is
called inline and nothing is recorded; when an input is a static-program Variable the
op is recorded into the program instead.
"""

from __future__ import annotations

import copy
import functools
import itertools
import operator
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._autograd.engine import run_backward
from .._autograd.fused_backward import ONES, add_kernel
from .._autograd.graph import ZEROED, AccumulateGrad, Edge, OpNode, released_error
from .._autograd.saved import SavedValue, VersionCounter
from .._exec import deferred as lazy
from .._exec.deferred import Pending
from .._ops.checks import KIND_TYPE_ERROR, check_kernel
from .._ops.table import TABLE, Op
from .._replay import follow as replay
from .._replay import note as note
from .._runtime import device as _device
from .._runtime import dtypes as _dtypes
from .._runtime.array_protocol import as_numpy
from .._runtime.kernel_cache import SHAPED, KernelCache
from .._runtime.state import current_saved_hooks, grad_mode, modes
from .._runtime.tensor_repr import tensor_repr

_Tracer = jax.core.Tracer
_ArrayImpl = lazy._ArrayImpl
_zeros_like = jax.jit(jnp.zeros_like)  # eager jnp.zeros_like costs ~100 µs, a cached jit ~8
_ZEROS: dict[tuple, Any] = {}  # small zeros arrays by (shape, dtype), shared: arrays are immutable
_ZEROS_FNS = KernelCache(SHAPED)  # one kernel per (shape, dtype): bounded, see _runtime.kernel_cache


def _zeros_of(key: tuple) -> Any:
    """Zeros of a ``(shape, dtype)`` (what ``.grad`` reads after ``clear_grad()``)."""
    z = _ZEROS.get(key)
    if z is None:  # from the shape alone: a deferred value (a parameter just updated) is not run for this
        fn = _ZEROS_FNS.kernel(key, lambda: jax.jit(functools.partial(jnp.zeros, key[0], key[1])))
        z = fn()
        if type(z) is lazy._ArrayImpl and z.size <= 16384 and len(_ZEROS) < 256:  # not a tracer; not large
            _ZEROS[key] = z
    return z
_names = itertools.count()


class Tensor:
    """A Paddle-style tensor: ``stop_gradient``, ``.grad``, ``.backward()`` over a jax array."""

    __slots__ = ("_v", "_sg", "_e", "_acc", "_counter", "_name", "persistable",
                 "_retained", "_grad_t", "__weakref__")
    _symbolic = False

    def _set_stop_gradient(self, value: Any) -> None:
        if value is not True and value is not False:
            if not isinstance(value, np.bool_):
                raise TypeError(
                    f"Tensor.stop_gradient must be a bool, but received {type(value).__name__} ({value!r}). "
                    "Set it to True or False."
                )
            value = bool(value)
        self._sg = value

    # read through a C getter (a plain slot read costs about as much); a write is checked to be a bool, as
    # Paddle checks it (a string such as "no" would otherwise count as True everywhere)
    stop_gradient = property(operator.attrgetter("_sg"), _set_stop_gradient,
                             doc="True when no gradient is computed for this Tensor (Paddle's default).")

    def __init__(self, value: Any, stop_gradient: bool = True, edge: Edge | None = None, name: str | None = None) -> None:
        self._v = value  # a jax array, a tracer, or a Pending result of a deferred call
        if stop_gradient is True or stop_gradient is False:
            self._sg = stop_gradient
        else:
            self.stop_gradient = stop_gradient  # (checked)
        self._e = edge  # (node, output index); a replayed op's stub (step, op index) until its node is needed
        self._acc: AccumulateGrad | None = None
        self._counter: VersionCounter | None = None
        self._name = name
        self.persistable = False
        self._retained: Any = None
        self._grad_t: Tensor | None = None

    @property
    def _value(self) -> Any:
        """The array, after running the deferred calls that compute it."""
        v = self._v
        if type(v) is Pending:
            a = v.get()  # (may wait for another thread's run, which may rebind this Tensor meanwhile)
            if self._v is v:  # keep the array in place of its Pending, unless a write came in between
                self._v = a
            return a
        return v

    @_value.setter
    def _value(self, v: Any) -> None:
        self._v = v

    @property
    def _edge(self) -> Edge | None:
        """Where this tensor's gradient goes: ``(node, output index)``, None for a leaf."""
        e = self._e
        if e is not None and type(e[0]) is replay.Step:
            e = self._e = (replay.resolve(e[0], e[1], _make_node), 0)
        return e

    @_edge.setter
    def _edge(self, edge: Edge | None) -> None:
        e = self._e
        if e is not None and type(e[0]) is replay.Step:
            replay.resolve(e[0], e[1], _make_node)  # a replayed step gets its real tape before history is rewritten
        self._e = edge

    # ---- identity and metadata ------------------------------------------------
    @property
    def name(self) -> str:
        if self._name is None:
            self._name = f"generated_tensor_{next(_names)}"
        return self._name

    @name.setter
    def name(self, v: str) -> None:
        self._name = v

    @property
    def shape(self) -> list[int]:
        return list(self._v.shape)

    @property
    def ndim(self) -> int:
        return len(self._v.shape)

    def dim(self) -> int:
        return len(self._v.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self._v.shape, dtype=np.int64))

    def numel(self) -> Tensor:
        return Tensor(jnp.asarray(self.size, jnp.int64))

    @property
    def dtype(self) -> _dtypes.DType:
        return _dtypes.to_paddle(self._v.dtype)

    @property
    def place(self) -> str:
        return "Place(cpu)" if _platform(self._v) == "cpu" else "Place(gpu:0)"

    @property
    def is_leaf(self) -> bool:
        return self._e is None  # a replayed op's stub is not a leaf either

    @property
    def inplace_version(self) -> int:
        return self._counter.value if self._counter is not None else 0

    def _version_counter(self) -> VersionCounter:
        if self._counter is None:
            self._counter = VersionCounter()
        return self._counter

    def _leaf_edge(self) -> Edge:
        """A leaf's sink ``(AccumulateGrad, 0)``, whatever its stop_gradient is now."""
        if self._acc is None:
            v = self._v
            self._acc = AccumulateGrad((tuple(v.shape), v.dtype))
        return (self._acc, 0)

    def grad_edge(self, stub: bool = False) -> Edge | None:
        """Where a gradient for this tensor flows: its producer's slot, or its leaf sink.

        ``stub=True`` returns a replayed op's stub edge as it is (it resolves to the node when read through
        ``Tensor._edge``), so that keeping it does not make the step build its tape.
        """
        if self.stop_gradient:
            return None
        e = self._e
        if e is not None:
            return e if stub or type(e[0]) is not replay.Step else self._edge
        return self._leaf_edge()

    # ---- gradients ---------------------------------------------------------------
    @property
    def grad(self) -> Tensor | None:
        if self._e is None:
            arr = self._acc.grad if self._acc is not None else None
            if arr is ZEROED:  # stays ZEROED: the next backward stores its gradient without adding zeros
                arr = _zeros_of(self._acc.out_avals[0])
        else:
            arr = self._retained
        if arr is None:
            return None
        if isinstance(arr, Tensor):
            return arr
        gt = self._grad_t
        if gt is None or (gt._v is not arr and not (type(arr) is Pending and gt._v is arr.array)):
            gt = self._grad_t = Tensor(arr)
        return gt

    @grad.setter
    def grad(self, value: Any) -> None:
        arr = None if value is None else unwrap(value)
        if self._e is None:
            if self._acc is None:
                self._acc = AccumulateGrad((tuple(self._v.shape), self._v.dtype))
            self._acc.grad = arr
        else:
            self._retained = arr

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Reset ``.grad``: to zeros (Paddle's default) or to None.

        The zeros are made only when ``.grad`` is read before the next backward; a backward
        simply stores its gradient in their place.
        """
        if self._e is None:
            acc = self._acc
            if acc is not None and acc.grad is not None:
                acc.grad = ZEROED if set_to_zero else None
        elif self._retained is not None:
            self._retained = lazy.call(_zeros_like, (unwrap(self._retained),)) if set_to_zero else None

    clear_gradient = clear_grad

    def retain_grads(self) -> None:
        """Keep this non-leaf tensor's gradient in ``.grad`` after backward."""
        if self._edge is None:
            return
        me = self

        def keep(g: Any) -> Any:
            cur = me._retained
            if cur is None:
                me._retained = g
            elif isinstance(g, Tensor) or isinstance(cur, Tensor):  # create_graph: keep the history
                me._retained = (cur if isinstance(cur, Tensor) else Tensor(cur)) + g
            else:
                me._retained = add_kernel(cur, g)
            return g

        self._edge[0].add_pre_hook(self._edge[1], keep)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> Any:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a Tensor it returns replaces the grad."""
        if not callable(hook):
            raise TypeError(
                f"Tensor.register_hook: hook must be callable (a function taking the gradient), but received "
                f"{type(hook).__name__} ({hook!r})."
            )
        if self.stop_gradient:
            raise RuntimeError(
                f"Tensor.register_hook: {self.name} has stop_gradient=True, so no gradient will ever reach the "
                "hook. Set stop_gradient = False first."
            )
        edge = self.grad_edge()
        assert edge is not None
        edge[0].add_pre_hook(edge[1], _value_hook(hook, "Tensor.register_hook"))
        return _HookHandle(edge[0], edge[1])

    def backward(self, grad_tensor: Any = None, retain_graph: bool = False) -> None:
        """Accumulate d(self)/d(leaf) into every leaf's ``.grad`` (ones as seed, like Paddle).

        On a tensor with ``stop_gradient=True`` it does nothing, as in Paddle.
        """
        if modes.capture is not None:  # inside jit.to_static: the function is a whole training step
            modes.capture.backward_called()
        if self.stop_gradient:
            if isinstance(grad_tensor, Tensor):
                _seed(self, grad_tensor, "backward", None)  # Paddle checks the seed's shape even then
            return
        if grad_tensor is None and not retain_graph:
            if replay.st.step is not None and replay.ENABLED and replay.try_backward(self, _make_node):
                lazy.flush()  # the repeated step's backward, as noted: no walk
                return
            _walk([self], None, False)
            return
        backward([self], [grad_tensor], retain_graph)

    # ---- conversion ---------------------------------------------------------------
    def numpy(self) -> np.ndarray:
        _concrete(self, "Tensor.numpy()")
        return np.asarray(self._value)

    def item(self, *idx: int) -> Any:
        _concrete(self, "Tensor.item()")
        a = np.asarray(self._value)
        if not idx and a.size != 1:
            raise ValueError(f"Tensor.item() needs a tensor with one element, but received shape {self.shape}; index it first.")
        return a.item(*idx)

    def tolist(self) -> Any:
        return self.numpy().tolist()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return as_numpy(self.numpy(), dtype, copy, "Tensor")

    def __jax_array__(self) -> Any:
        return self._value

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        return self._value.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self) -> Any:
        return self._value.__dlpack_device__()

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __bool__(self) -> bool:
        return bool(self.item())

    def __index__(self) -> int:
        if not jnp.issubdtype(self._v.dtype, jnp.integer):
            raise TypeError(f"Only integer tensors can be used as an index, but received dtype {self.dtype}.")
        return int(self.item())

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of a 0-D Tensor is undefined; it has shape [].")
        return self.shape[0]

    def __iter__(self) -> Any:
        if self.ndim == 0:
            raise TypeError("iteration over a 0-D Tensor is undefined; it has shape [].")
        return (self[i] for i in range(self.shape[0]))

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        if isinstance(self._v, _Tracer):
            if modes.capture is not None:  # printing inside jit.to_static: no value until the compiled call runs
                _concrete(self, "printing a Tensor")
            return f"Tensor(shape={self.shape}, dtype={self.dtype.name}, traced={self._v})"
        return tensor_repr(self.shape, self.dtype.name, self.place, self.stop_gradient, np.asarray(self._value))

    __str__ = __repr__

    # ---- copies -------------------------------------------------------------------
    def _leaf_copy(self) -> Tensor:
        cls = type(self)
        t = cls.__new__(cls)
        Tensor.__init__(t, self._v, self.stop_gradient)  # arrays are immutable: the copy shares it
        t.persistable = self.persistable
        return t

    def __copy__(self) -> Tensor:
        """A new leaf with the same values and stop_gradient, no gradient and no history (as Paddle)."""
        t = self._leaf_copy()
        d = getattr(self, "__dict__", None)  # a subclass's attributes (a Parameter's)
        if d:
            t.__dict__.update(d)
        return t

    def __deepcopy__(self, memo: dict) -> Tensor:
        """A new leaf with the same values and stop_gradient; ``.grad`` is not copied (as Paddle)."""
        t = self._leaf_copy()
        memo[id(self)] = t
        d = getattr(self, "__dict__", None)
        if d:
            t.__dict__.update(copy.deepcopy(d, memo))
        return t

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Pickle the values (any protocol): a leaf with the same stop_gradient comes back, as in Paddle."""
        _concrete(self, "pickling a Tensor")
        state = getattr(self, "__dict__", None) or None
        return (_rebuild_tensor, (type(self), np.asarray(self._value), self.stop_gradient, self.persistable), state)

    def detach(self) -> Tensor:
        """A new leaf sharing the data, with stop_gradient=True."""
        return Tensor(self._v)

    def detach_(self) -> Tensor:
        self._edge = None
        self.stop_gradient = True
        return self

    def set_value(self, value: Any) -> Tensor:
        """Overwrite the data in place (shape must match); bumps the version."""
        before_write(self)
        arr = jnp.asarray(unwrap(value), self._value.dtype)
        if tuple(arr.shape) != tuple(self._value.shape):
            raise ValueError(
                f"Tensor.set_value: the new value must have the tensor's shape {self.shape}, but received "
                f"{list(arr.shape)}. Reshape the value first."
            )
        if isinstance(arr, _Tracer):  # traced (to_static): the new value has no history, as eagerly
            arr = jax.lax.stop_gradient(arr)
        self._value = arr
        self._version_counter().value += 1
        return self


def _rebuild_tensor(cls: type, array: np.ndarray, stop_gradient: bool, persistable: bool) -> Tensor:
    """Unpickle a Tensor (see ``Tensor.__reduce_ex__``)."""
    t = cls.__new__(cls)
    Tensor.__init__(t, jnp.asarray(array), stop_gradient)
    t.persistable = persistable
    return t


def _platform(a: Any) -> str:
    if type(a) is Pending:
        return jax.default_backend()
    try:
        return next(iter(a.devices())).platform
    except Exception:  # tracers and placeholders have no device
        return "cpu"


class TracedValueError(RuntimeError):
    """A concrete value (``bool(t)``, ``t.item()``, ``t.numpy()``) was asked of a Tensor that wraps a tracer."""


def _concrete(t: Tensor, api: str) -> None:
    if isinstance(t._v, _Tracer):
        raise TracedValueError(
            f"{api} needs a concrete value, but this Tensor wraps a JAX tracer (it is inside jax.jit, grad, "
            "vmap or a static program trace). Use jax.debug.print, or keep the code outside the transform."
        )


class _HookHandle:
    def __init__(self, node: Any, idx: int) -> None:
        self._node, self._idx = node, idx
        self._fn = node.pre_hooks[idx][-1]

    def remove(self) -> bool:
        hooks = self._node.pre_hooks.get(self._idx, []) if self._node.pre_hooks else []
        if self._fn in hooks:
            hooks.remove(self._fn)
            return True
        return False


def _value_hook(hook: Callable[[Any], Any], api: str) -> Callable[[Any], Any]:
    """Adapt a user hook on Tensors to the engine's values (arrays, or Tensors under create_graph)."""

    def run(g: Any) -> Any:
        gt = g if isinstance(g, Tensor) else Tensor(g)
        with grad_mode(isinstance(g, Tensor) and modes.grad_enabled):
            r = hook(gt)
        if r is None:
            return g
        if not isinstance(r, Tensor):
            raise TypeError(f"{api}: a hook must return a Tensor or None, but it returned {type(r).__name__}.")
        if r.shape != gt.shape:
            raise ValueError(f"{api}: a hook must keep the gradient's shape {gt.shape}, but it returned {r.shape}.")
        return r if isinstance(g, Tensor) else r._v

    return run


# ---- wrapping ----------------------------------------------------------------------
def before_write(t: Tensor | None = None) -> None:
    """Every in-place write calls this first: a replayed step builds its tape before versions change.

    Inside a to_static trace the written tensor ``t`` is noted, so that the compiled function writes
    its new value back after each call (and the trace leaves the tensor as it was)."""
    cap = modes.capture
    if cap is not None and t is not None:
        cap.write(t)
    replay.mark_write(_make_node)


def unwrap(x: Any) -> Any:
    """Tensor -> its array; anything else unchanged."""
    return x._value if isinstance(x, Tensor) else x


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _norm_attr(v: Any) -> Any:
    """Make an attribute hashable and concrete: lists -> tuples, Tensors -> Python values."""
    if v is None or type(v) in (int, float, bool, str):
        return v
    if isinstance(v, Tensor):
        _concrete(v, "an op attribute given as a Tensor")
        v = v.tolist()
    elif isinstance(v, np.ndarray | np.generic):
        v = v.tolist()
    elif isinstance(v, slice):
        return ("slice", _norm_attr(v.start), _norm_attr(v.stop), _norm_attr(v.step))
    if isinstance(v, list | tuple):
        return tuple(_norm_attr(e) for e in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _norm_attr(e)) for k, e in v.items()))
    return v


_PLAIN_ATTRS = (int, float, bool, str, type(None))


_NUMBERS = (bool, int, float, complex)


def _scalar_leaf(x: Any) -> Any:
    """A non-Tensor in a tensor position: Python scalars stay weakly typed; arrays become jax arrays."""
    if isinstance(x, np.ndarray):
        return jnp.asarray(x)
    if isinstance(x, list | tuple):
        return jnp.asarray(np.asarray(x))
    return x


def apply_op(op: Op, args: Sequence[Any], kwargs: dict[str, Any] | None = None) -> Any:
    """Run a table op on Tensors (or arrays, scalars): THE dispatch path.

    The common call (every tensor parameter given a plain Tensor, positionally, and no
    attributes) takes the short path; everything else is normalised by ``_general``.
    """
    n = op.n_in
    if kwargs or len(args) < n or (op.checks is not None and (len(args) > n or op.check_always)):
        return _general(op, args, kwargs)
    if len(args) == n and replay.ENABLED:
        rs = replay.st
        if rs.step is not None or (  # following a noted step (try_op checks each input), or maybe beginning one
                rs.pos == 0 and rs.plan is not None and modes.grad_enabled and modes.static_program is None
                and op.differentiable and _trains(args)):
            t = replay.try_op(op, None, args, _make_node, Tensor)
            if t is not None:
                return t
    arrays = []
    for i in range(n):
        t = args[i]
        if type(t) is not Tensor and type(t) not in EAGER_TYPES:
            return _general(op, args, kwargs)
        arrays.append(t._v)
    if len(args) == n:
        return _run(op, (None, (), (), _dtypes._default.name), args, None, arrays)
    attrs = args[n:]
    for a in attrs:  # plain scalar attributes (``x * 2.0`` is scale(x, 2.0)) need no normalising
        if type(a) not in _PLAIN_ATTRS:
            return _general(op, args, kwargs)
    if modes.static_program is not None:
        return _general(op, args, kwargs)
    return _run(op, (None, tuple(attrs), (), _dtypes._default.name), args[:n], None, arrays)


def _trains(args: Sequence[Any]) -> bool:
    for t in args:
        if (type(t) is Tensor or type(t) in EAGER_TYPES) and not t.stop_gradient:
            return True
    return False


def _general(op: Op, args: Sequence[Any], kwargs: dict[str, Any] | None) -> Any:
    """Normalise a call: tensor parameters given by keyword, attributes, lists of tensors, scalars."""
    n = len(op.tensor_names)
    if kwargs:
        kwargs.pop("name", None)
        if len(args) < n:
            args = list(args)
            for pname in op.tensor_names[len(args):]:
                if pname in kwargs:
                    args.append(kwargs.pop(pname))
                else:
                    p = op.signature.parameters[pname]
                    if p.default is p.empty:
                        raise TypeError(f"{op.name}() is missing its required tensor argument {pname!r}; pass it.")
                    args.append(p.default)
    targs = args[:n]
    public = TABLE.get(op.name) is op  # (a backward recorded as an op passes None for unsaved values)
    for i, t in enumerate(targs):
        if type(t) is not Tensor and public:
            _check_kind(op, op.tensor_names[i], t)
    attr_args = tuple(_norm_attr(a) for a in args[n:])
    attr_kwargs = tuple((k, _norm_attr(v)) for k, v in kwargs.items()) if kwargs else ()
    if op.checks is not None:
        _validate(op, targs, attr_args, attr_kwargs)
    if all(type(t) is Tensor or type(t) in EAGER_TYPES or type(t) in _NUMBERS for t in targs):
        # Tensors and Python numbers (weakly typed inputs, recorded and replayed by type) need no tree
        leaves: list[Any] = list(targs)
        treedef = None
        leaf_param: list[int] | None = None
    else:
        leaves, leaf_param = [], []
        for i, t in enumerate(targs):
            sub = jax.tree_util.tree_leaves(t, is_leaf=_is_tensor)
            leaves.extend(sub)
            leaf_param.extend([i] * len(sub))
        treedef = jax.tree_util.tree_structure(list(targs), is_leaf=_is_tensor)
    key = (treedef, attr_args, attr_kwargs, _dtypes._default.name)
    if modes.static_program is not None and (
            any(isinstance(x, Tensor) and x._symbolic for x in leaves)
            or (modes.static_mode and not any(isinstance(x, Tensor) for x in leaves))):
        # ops on Variables, and creation ops (no tensor input) in static mode, are recorded into the program
        return modes.static_program.record_op(op, key, leaves)
    arrays = [x._v if isinstance(x, Tensor) else _scalar_leaf(x) for x in leaves]
    return _run(op, key, leaves, leaf_param, arrays)


_LIST_DATA_OPS = frozenset({"assign"})  # ops whose tensor argument may be nested lists of numbers (data)
_KINDS = (Tensor, int, float, bool, complex, np.ndarray, np.generic, jax.Array, _Tracer)


def _check_kind(op: Op, pname: str, v: Any) -> None:
    """A tensor parameter takes Tensors, numbers, arrays, lists of Tensors, or None where that is its default
    (Paddle's rule; its error is a ValueError, a TypeError for the ops in KIND_TYPE_ERROR)."""
    if isinstance(v, _KINDS):
        return
    if isinstance(v, list | tuple):
        if op.name in _LIST_DATA_OPS:
            return
        for e in v:
            if isinstance(e, list | tuple):
                _check_kind(op, pname, e)
            elif not isinstance(e, Tensor | np.ndarray | jax.Array | _Tracer):
                raise (TypeError if op.name in KIND_TYPE_ERROR else ValueError)(
                    f"{op.name}: the argument {pname!r} must be a Tensor (or a list of Tensors), but received a "
                    f"{type(v).__name__} holding {type(e).__name__} ({e!r}). Convert it with paddle.to_tensor first."
                )
        return
    if v is None:
        p = op.signature.parameters.get(pname)
        if p is not None and p.default is None:
            return
    raise (TypeError if op.name in KIND_TYPE_ERROR else ValueError)(
        f"{op.name}: the argument {pname!r} must be a Tensor (or a number), but received {type(v).__name__} "
        f"({v!r}). Convert it with paddle.to_tensor first."
    )


def _validate(op: Op, targs: Sequence[Any], attr_args: tuple, attr_kwargs: tuple) -> None:
    """Run the op's argument checks at the call, then the checks on input values (at once where the values
    are concrete; recorded beside the op where they are deferred, raised when the buffer runs)."""
    try:
        arguments = op.bind((*targs, *attr_args), attr_kwargs)
    except TypeError as e:
        raise TypeError(f"{op.name}: {e}. Check the arguments against the function's parameters.") from None
    for c in op.checks(op.name, arguments) or ():
        if c is not None:
            _value_check(c)


def _caller() -> str:
    """``file:line`` of the user code that called into the package."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(_PKG_DIR):
        f = f.f_back
    return "<unknown>" if f is None else f"{f.f_code.co_filename}:{f.f_lineno}"


_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the pylayer_jax package


def _value_check(c: Any) -> None:
    v = c.value
    a = v._v if isinstance(v, Tensor) else v
    if isinstance(a, _Tracer) or (isinstance(v, Tensor) and v._symbolic):
        return  # traced or static: no values to check
    kernel = check_kernel(c.key)
    if type(a) is Pending and a.array is None:
        where = _caller()

        def fail(r: Any, c: Any = c, where: str = where) -> None:
            if bool(r[0]):
                raise c.exc(f"{c.message.format(value=r[1].item())} (called at {where})")

        lazy.add_check(lazy.call(kernel, [a]), fail)
        return
    bad, val = kernel(lazy.concrete(a) if not isinstance(a, list | tuple) else jnp.asarray(np.asarray(a)))
    if bool(bad):
        raise c.exc(c.message.format(value=val.item()))


def _jax_error(e: BaseException) -> bool:
    """An exception raised inside JAX (shape rules), not by the package's own checks."""
    tb = e.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    return last is not None and f"{os.sep}jax{os.sep}" in last.tb_frame.f_code.co_filename


def _shape_error(op: Op, leaves: Sequence[Any], e: BaseException) -> ValueError:
    shapes = ", ".join(str(list(x.shape)) if hasattr(x, "shape") else repr(x) for x in leaves)
    return ValueError(f"{op.name}: the inputs (shapes {shapes}) do not fit the op's rules: {e}")


def _run(op: Op, key: tuple, leaves: Sequence[Any], leaf_param: list[int] | None, arrays: list[Any]) -> Any:
    try:
        return _run_op(op, key, leaves, leaf_param, arrays)
    except (TypeError, ValueError) as e:
        if _jax_error(e):  # JAX's shape rules raise TypeError or ValueError: Paddle's is ValueError
            raise _shape_error(op, leaves, e) from None
        raise


def _run_op(op: Op, key: tuple, leaves: Sequence[Any], leaf_param: list[int] | None, arrays: list[Any]) -> Any:
    """Call the kernel (or the op inline on tracers), record a node if a gradient is needed, wrap."""
    traced = pending = trains = False
    for a in arrays:
        ta = type(a)
        if ta is _ArrayImpl:
            continue
        if ta is Pending:
            pending = True
        elif isinstance(a, _Tracer):
            traced = True
            break
    cap = modes.capture
    if cap is not None:  # inside a to_static trace: Tensors from outside become inputs of the compiled function
        arrays = cap.read(leaves, arrays)
        traced = True
    for x in leaves:  # some input is a tensor that trains: recorded, and a node if grad mode is on
        if isinstance(x, Tensor) and not x.stop_gradient:
            trains = True
            break
    noted = None
    if trains and not traced and replay.ENABLED and modes.grad_enabled and op.differentiable:
        rs = replay.st
        if rs.step is not None or (rs.pos == 0 and rs.plan is not None):  # a repeated step: follow its note
            t = replay.try_op(op, key, leaves, _make_node, Tensor)
            if t is not None:
                return t
        if rs.rec is not None or (rs.pos == 0 and rs.step is None):
            noted = note.mark()
    if traced:
        arrays = [lazy.concrete(a) for a in arrays]
        out = op.call(key[0], key[1], key[2], arrays)
    else:
        kernel = op.forward_kernel(key)
        if pending or trains or not lazy.idle():
            out = lazy.call(kernel, arrays)
        else:  # constants with nothing pending: run at once, as cheap as a plain jitted call
            out = kernel(*arrays)

    needs: tuple[bool, ...] | None = None
    if trains and (not traced or modes.trace_tape) and modes.grad_enabled and op.differentiable:
        needs = _needs(op, leaves, leaf_param)

    if type(out) is not tuple and type(out) is not list:
        if needs is None:
            if noted is not None:
                replay.abort()
            return Tensor(out)
        node = _make_node(op, key, leaves, leaf_param, arrays, needs, [out])
        if noted is not None:
            note.note_op(noted, op, key, leaves, leaf_param, arrays, needs, out, node, Tensor)
        return Tensor(out, False, (node, 0))
    if noted is not None:
        replay.abort()
    out_leaves, out_tree = jax.tree_util.tree_flatten(out)
    if needs is None:
        return jax.tree_util.tree_unflatten(out_tree, [Tensor(o) for o in out_leaves])
    node = _make_node(op, key, leaves, leaf_param, arrays, needs, out_leaves)
    wrapped = [Tensor(o, False, (node, j)) for j, o in enumerate(out_leaves)]
    return jax.tree_util.tree_unflatten(out_tree, wrapped)


def _needs(op: Op, leaves: Sequence[Any], leaf_param: list[int] | None) -> tuple[bool, ...] | None:
    if leaf_param is None and not op.nondiff:
        needs = tuple([isinstance(x, Tensor) and not x.stop_gradient for x in leaves])
    else:
        nondiff = op.nondiff
        names = op.tensor_names
        needs = tuple(
            isinstance(x, Tensor)
            and not x.stop_gradient
            and not (nondiff and names[i if leaf_param is None else leaf_param[i]] in nondiff)
            for i, x in enumerate(leaves)
        )
    return needs if True in needs else None


def _make_node(op: Op, key: tuple, leaves: Sequence[Any], leaf_param: list[int] | None, arrays: Sequence[Any],
               needs: tuple[bool, ...], outs: list[Any], grad_edges: Sequence[Any] | None = None) -> OpNode:
    """The tape node of an op call. A replayed call built later passes ``grad_edges``: its inputs'
    ``grad_edge()`` at the call (a stop_gradient may have changed since)."""
    mask = op.save_mask
    hooks = current_saved_hooks()
    saved: list[Any] = []
    avals: list[Any] = []
    edges: list[Any] = []
    for i, x in enumerate(leaves):
        a = arrays[i]
        if not isinstance(x, Tensor):
            saved.append(a)
            avals.append(None)
            edges.append(None)
            continue
        ge = x.grad_edge() if grad_edges is None else grad_edges[i]
        edges.append(ge if needs[i] else None)
        if mask[i if leaf_param is None else leaf_param[i]]:
            saved.append(_save(a, ge, x._version_counter(), hooks))
            avals.append(None)
        else:
            saved.append(None)
            avals.append((a.shape, a.dtype))
    node = OpNode(op, key, saved, None, tuple(avals), needs, edges, [(o.shape, o.dtype) for o in outs])
    if op.saves_out:
        # outputs have no version of their own: without hooks the bare arrays are the saved values
        # (hooks pack only the outputs ``saves`` names; the others are not kept)
        sel = op.out_saves
        node.saved_outs = outs if hooks is None else [
            _save(o, (node, j), None, hooks) if sel is None or j in sel else None for j, o in enumerate(outs)]
    return node


def _save(arr: Any, edge: Edge | None, counter: VersionCounter | None, hooks: Any) -> SavedValue:
    sv = SavedValue(arr, edge, counter)
    if hooks is not None:
        pack, unpack = hooks
        with grad_mode(False):
            sv.packed = pack(Tensor(arr, edge is None, edge))
        sv.unpack = _unpacker(unpack, arr.shape, arr.dtype, edge, "saved_tensors_hooks unpack_hook")
        sv.array = None
    return sv


def _unpacker(unpack: Callable[[Any], Any], shape: Any, dtype: Any, edge: Edge | None, api: str) -> Callable[[Any], Any]:
    def run(packed: Any) -> tuple[Any, Edge | None]:
        with grad_mode(False):
            r = unpack(packed)
        arr = unwrap(r)
        if not isinstance(arr, jax.Array | np.ndarray):
            raise TypeError(
                f"{api} must return a Tensor (or array) with the saved tensor's content, but it returned "
                f"{type(r).__name__}."
            )
        if tuple(arr.shape) != tuple(shape) or arr.dtype != dtype:
            raise ValueError(
                f"{api} must return the saved tensor's shape {list(shape)} and dtype {_dtypes.to_paddle(dtype).name}, "
                f"but it returned shape {list(arr.shape)} and dtype {_dtypes.to_paddle(arr.dtype).name}."
            )
        return jnp.asarray(arr), edge

    return run


# ---- create_graph: the backward's own ops are recorded --------------------------------
class DiffOps:
    """What the engine needs to run a backward whose values are Tensors (create_graph)."""

    @staticmethod
    def add(a: Tensor, b: Tensor) -> Tensor:
        return a + b

    @staticmethod
    def apply_grad_op(node: OpNode, cts: list[Any]) -> list[Any]:
        name = node.op.name

        def saved(v: Any) -> Any:
            if isinstance(v, SavedValue):
                arr, edge = v.get(name)
                return Tensor(arr, edge is None, edge)
            return v

        leaves = [saved(v) for v in node.saved_leaves]
        outs = None if node.saved_outs is None else [
            saved(v) if isinstance(v, SavedValue) else Tensor(v, False, (node, j)) for j, v in enumerate(node.saved_outs)]
        cts_t = [c if (c is None or isinstance(c, Tensor)) else Tensor(c) for c in cts]
        return apply_op(node.op.grad_op, (leaves, outs, cts_t, node.key, node.avals, node.needs))

    @staticmethod
    def wrap(arr: Any) -> Tensor:
        return arr if isinstance(arr, Tensor) else Tensor(arr)


# ---- backward entry points ---------------------------------------------------------
_ones = jax.jit(jnp.ones_like)


def _seed(t: Tensor, g: Any, api: str, diff: Any) -> Any:
    if g is None:
        return Tensor(_ones(t._value)) if diff is not None else ONES
    if isinstance(g, Tensor):
        if g.shape != t.shape:
            raise ValueError(f"{api}: grad_tensor must have the shape {t.shape} of the tensor it seeds, but received {g.shape}.")
        return g if diff is not None else g._v
    arr = jnp.asarray(g, t._v.dtype)
    return Tensor(arr) if diff is not None else arr


def backward(tensors: Sequence[Tensor], grad_tensors: Sequence[Any] | None = None, retain_graph: bool = False) -> None:
    """Run backward from ``tensors``, accumulating into leaves' ``.grad``."""
    if modes.capture is not None:  # inside jit.to_static: the function is a whole training step
        modes.capture.backward_called()
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    if grad_tensors is not None and isinstance(grad_tensors, Tensor):
        grad_tensors = [grad_tensors]
    if grad_tensors is not None and len(grad_tensors) != len(tensors):
        raise ValueError(
            f"backward: grad_tensors must have one entry per tensor, but received {len(grad_tensors)} for "
            f"{len(tensors)} tensors."
        )
    if any(t.stop_gradient for t in tensors):  # as in Paddle, tensors with stop_gradient=True are skipped
        for t, g in zip(tensors, grad_tensors or ()):
            if t.stop_gradient and isinstance(g, Tensor):
                _seed(t, g, "backward", None)  # (their seeds' shapes still checked, as Paddle does)
        keep = [i for i, t in enumerate(tensors) if not t.stop_gradient]
        tensors = [tensors[i] for i in keep]
        grad_tensors = None if grad_tensors is None else [grad_tensors[i] for i in keep]
        if not tensors:
            return
    if replay.ENABLED and grad_tensors is None and not retain_graph and len(tensors) == 1:
        if replay.try_backward(tensors[0], _make_node):  # the repeated step's backward, as noted: no walk
            lazy.flush()
            return
    _walk(tensors, grad_tensors, retain_graph)


def _walk(tensors: Sequence[Tensor], grad_tensors: Sequence[Any] | None, retain_graph: bool) -> None:
    """``backward()`` through the tape (noted for replay when it may repeat), then the step's run."""
    noted = None
    if replay.ENABLED and grad_tensors is None and not retain_graph and len(tensors) == 1:
        noted = note.backward_mark(tensors[0])
    gm = modes.grad_enabled
    try:
        roots = []
        for i, t in enumerate(tensors):
            edge = t.grad_edge()
            if edge is None:
                raise RuntimeError(
                    f"backward: {t.name} has stop_gradient=True, so it has no gradient graph to run backward "
                    "through. Set stop_gradient = False on the inputs you want gradients for before computing it."
                )
            roots.append((edge, _seed(t, None if grad_tensors is None else grad_tensors[i], "backward", None)))
        with grad_mode(False):
            run_backward(roots, retain_graph)
        if noted is not None:
            note.note_backward(noted)
    finally:
        modes.grad_enabled = gm  # (also when an interrupt lands where the ``with`` exits, before it restores it)
        replay.boundary(_make_node)
    lazy.flush()  # one program per step: the forward recorded so far and this backward


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool = False,
    no_grad_vars: Any = None,
) -> list[Tensor | None]:
    """Gradients of ``outputs`` with respect to ``inputs``, without touching ``.grad``."""
    if not only_inputs:
        raise NotImplementedError("paddle.grad: only_inputs=False (also accumulating the gradients of the other "
                                  "leaves) is not supported, as in Paddle; received only_inputs=False, pass True.")
    outs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    ins = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    if grad_outputs is not None and not isinstance(grad_outputs, list | tuple):
        grad_outputs = [grad_outputs]
    if grad_outputs is not None and len(grad_outputs) != len(outs):
        raise ValueError(
            f"paddle.grad: grad_outputs must have one entry per output, but received {len(grad_outputs)} for "
            f"{len(outs)} outputs."
        )
    if retain_graph is None:
        retain_graph = create_graph
    diff = DiffOps if create_graph else None
    roots = []
    for i, t in enumerate(outs):
        edge = t.grad_edge()
        if edge is None:
            continue
        g = None if grad_outputs is None else grad_outputs[i]
        roots.append((edge, _seed(t, g, "paddle.grad", diff)))
    capture: list[Any] = []
    for t in ins:
        if not isinstance(t, Tensor):
            raise TypeError(f"paddle.grad: inputs must be Tensors, but received {type(t).__name__}.")
        capture.append(t.grad_edge() or (None, 0))
    blocked: list[Edge] = []
    if no_grad_vars is not None:
        nv = [no_grad_vars] if isinstance(no_grad_vars, Tensor) else list(no_grad_vars)
        blocked = [e for e in (v.grad_edge() for v in nv) if e is not None]
    for node, idx in blocked:  # gradients reaching a no_grad_var stop there (dropped for this call only)
        node.add_pre_hook(idx, _drop_grad)
    freed = next((r[0][0] for r in roots if r[0][0].released), None)  # an earlier backward freed it
    try:
        with grad_mode(create_graph):
            got = run_backward(roots, retain_graph, diff, [c for c in capture]) if roots else [None] * len(ins)
        lazy.flush()
    finally:
        for node, idx in blocked:
            node.pre_hooks[idx].remove(_drop_grad)
            if not any(node.pre_hooks.values()):
                node.pre_hooks = None  # hook-free nodes stay fusable
    result: list[Tensor | None] = []
    for t, g in zip(ins, got or [None] * len(ins)):
        if g is None:
            if freed is not None:  # a freed output graph reaches nothing: say why
                raise released_error(freed.name)
            if not allow_unused:
                raise ValueError(
                    f"paddle.grad: the input {t.name} does not appear in the backward graph of the outputs, so "
                    "it has no gradient. Set allow_unused=True to get None for it."
                )
            result.append(None)
        else:
            result.append(g if isinstance(g, Tensor) else Tensor(g))
    return result


def _drop_grad(g: Any) -> None:
    return None


# Tensor and its eager subclasses (nn's Parameter adds itself): they dispatch, record and replay as Tensors do.
# A static Variable is not one: it is recorded into its program.
EAGER_TYPES: set[type] = {Tensor}


# ---- pytree: a function over Tensors can be jitted / vmapped ------------------------
def _flatten(t: Tensor) -> tuple[tuple[Any], bool]:
    return (t._value,), t.stop_gradient


def _unflatten(stop_gradient: bool, children: Sequence[Any]) -> Tensor:
    return Tensor(children[0], stop_gradient)


jax.tree_util.register_pytree_node(Tensor, _flatten, _unflatten)


def to_tensor(data: Any, dtype: Any = None, place: Any = None, stop_gradient: bool = True) -> Tensor:
    """Make a Tensor with Paddle's dtype rules: floats -> default float, ints -> int64, bools -> bool.

    ``place`` (``'cpu'``, ``'gpu:0'``, a Place) puts it on that device. In static mode inside a program
    being built it records a constant into the program and returns its Variable, as Paddle does.
    """
    t = _to_tensor(data, dtype, stop_gradient)
    if place is not None:
        t = Tensor(jax.device_put(t._value, _device.resolve(place, "to_tensor")[1]), stop_gradient)
    if modes.static_mode and modes.static_program is not None and not t._symbolic:
        v = modes.static_program.record_op(TABLE["assign"], (None, (), (), _dtypes._default.name), [t])
        v.stop_gradient = stop_gradient or not _dtypes.is_float(v._value.dtype)
        return v
    return t


def _to_tensor(data: Any, dtype: Any, stop_gradient: bool) -> Tensor:
    if isinstance(data, Tensor):
        arr = data._value
        if dtype is not None:
            arr = arr.astype(_dtypes.to_np(dtype))
        else:
            arr = jnp.array(arr)
        return Tensor(arr, stop_gradient)
    if isinstance(data, jax.Array | _Tracer):
        arr = data if dtype is None else data.astype(_dtypes.to_np(dtype))
        return Tensor(arr, stop_gradient)
    try:
        np_arr = np.asarray(data)
    except ValueError as e:  # a ragged nested list (Paddle: numpy's ValueError)
        raise ValueError(
            f"to_tensor: data must be rectangular (every nested list of one level the same length), but the "
            f"nested lists received are ragged: {e} Pad the rows to one length or pass a list of Tensors."
        ) from None
    if dtype is not None:
        target = _dtypes.to_np(dtype)
    elif isinstance(data, np.ndarray | np.generic):
        target = np_arr.dtype
    elif np_arr.dtype.kind == "f":
        target = _dtypes.default_float()
    elif np_arr.dtype.kind in "iu":
        target = np.dtype("int64")
    elif np_arr.dtype.kind == "c":
        target = np.dtype("complex64") if _dtypes.get_default_dtype() == "float32" else np.dtype("complex128")
    elif np_arr.dtype.kind == "b":
        target = np.dtype("bool")
    else:
        raise TypeError(
            f"to_tensor: data of type {type(data).__name__} (numpy kind {np_arr.dtype.kind!r}) cannot become a "
            "Tensor; pass numbers, nested lists of numbers, a numpy array or a Tensor."
        )
    return Tensor(jnp.asarray(np_arr.astype(target, copy=False)), stop_gradient)
