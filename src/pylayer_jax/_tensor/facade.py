"""The Tensor facade: a mutable box around an array and its autograd metadata.

Layer L4. A Tensor holds an immutable ``jax.Array`` (or a tracer under ``jax.jit``/``grad``/``vmap``,
or a ``Pending`` result of a deferred call), its ``stop_gradient`` flag, where its gradient goes
(a tape edge, or a leaf's ``AccumulateGrad``) and its ``.grad``. Ops on Tensors go through
``_tensor.dispatch.apply_op``; ``backward()`` and ``paddle.grad`` are in ``_tensor.backward_entry``.
"""

from __future__ import annotations

import copy
import functools
import itertools
import operator
from collections.abc import Callable, Sequence
from threading import get_ident as _thread_id
from typing import Any
from weakref import ref as _wref

import jax
import jax.numpy as jnp
import numpy as np

from .._autograd.fused_backward import add_kernel
from .._autograd.graph import ZEROED, AccumulateGrad, Edge
from .._autograd.saved import VersionCounter
from .._exec import deferred as lazy
from .._exec.deferred import Pending
from .._ops.table import TABLE
from .._runtime import device as _device
from .._runtime import dtypes as _dtypes
from .._runtime import unique_name as _unique_name
from .._runtime.array_protocol import as_numpy
from .._runtime.kernel_cache import SHAPED, KernelCache
from .._runtime.size import Size, TensorSize
from .._runtime.state import grad_mode, modes
from .._runtime.tensor_repr import tensor_repr
from .._runtime.transfer import own, put
from . import step_events as _ev

_Tracer = jax.core.Tracer
_ArrayImpl = lazy._ArrayImpl
_zeros_like = jax.jit(jnp.zeros_like)  # eager jnp.zeros_like costs ~100 µs, a cached jit ~8
_ZEROS: dict[tuple, Any] = {}  # small zeros arrays by (shape, dtype), shared: arrays are immutable


def _numpy_scalars_need_0d() -> bool:
    """Whether this NumPy converts only a 0-D array to a Python int or float (NumPy 2.3 on; older ones took any
    one-element array, warning)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            int(np.zeros(1))
        except TypeError:
            return True
    return False


_SCALARS_NEED_0D = _numpy_scalars_need_0d()
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

    # ``_view`` (``_tensor.views``) is set on views and their bases only, ``_sink`` on the Tensors ``.grad`` hands
    # out (``grad_written``): unset, they cost an ordinary op nothing
    __slots__ = ("_v", "_sg", "_e", "_acc", "_counter", "_name", "persistable",
                 "_retained", "_grad_t", "_view", "_sink", "__weakref__")
    _symbolic = False
    # numpy defers to the Tensor's operators: ``np.float64(2.5) * x`` is ``x.__rmul__(2.5)``, a Tensor, as in Paddle
    # (numpy would otherwise convert x and answer with a float64 ndarray)
    __array_priority__ = 100
    # where ``paddle.distributed.shard_tensor`` placed a tensor: None for every other tensor (Paddle's answers);
    # a distributed tensor or parameter holds its own in its ``__dict__``
    process_mesh = None
    placements = None

    def is_dist(self) -> bool:
        """True for a tensor placed on a ProcessMesh by ``paddle.distributed.shard_tensor``."""
        return self.process_mesh is not None

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
        if type(value) is np.ndarray:  # ``paddle.Tensor(array)``: a copy of its own (JAX may keep using host memory)
            value = own(value)
        self._v = value  # a jax array, a tracer, or a Pending result of a deferred call
        if stop_gradient is True or stop_gradient is False:
            self._sg = stop_gradient
        else:
            self.stop_gradient = stop_gradient  # (checked)
        self._e = edge  # (node, output index); a replayed op's stub (step, op index) until its node is needed
        self._name = name
        self.persistable = False
        # a leaf's gradient sink (``AccumulateGrad``), version counter, a non-leaf's retained gradient, the Tensor
        # ``.grad`` last returned: none yet (one chained assignment: every op's result passes here)
        self._acc = self._counter = self._retained = self._grad_t = None

    @property
    def _value(self) -> Any:
        """The array, after running the deferred calls that compute it."""
        v = self._v
        if type(v) is Pending:
            a = v.get()  # (may wait for another thread's run, which may rebind this Tensor meanwhile)
            # the array takes the place of its Pending, unless a write came in between; only in the thread that
            # recorded it, which is the one rebinding the Tensor: in another thread a switch between the check and
            # the write could let a rebinding in, which the write would undo (the Pending keeps the array anyway)
            if self._v is v and v.buf.owner == _thread_id():
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
        if e is not None and type(e[0]) is _ev.STUB:  # a step-event observer's stub: its node now
            e = self._e = e[0].edge(e[1])
        return e

    @_edge.setter
    def _edge(self, edge: Edge | None) -> None:
        e = self._e
        if e is not None and type(e[0]) is _ev.STUB:
            e[0].edge(e[1])  # a replayed step gets its real tape before history is rewritten
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
    def shape(self) -> Size:
        return Size(self._v.shape)

    @property
    def ndim(self) -> int:
        return len(self._v.shape)

    def dim(self) -> int:
        return len(self._v.shape)

    @property
    def size(self) -> TensorSize:
        return TensorSize(self._v.shape)

    def numel(self) -> Tensor:
        return Tensor(jnp.asarray(self.size, jnp.int64))

    @property
    def dtype(self) -> _dtypes.DType:
        return _dtypes.to_paddle(self._v.dtype)

    @property
    def place(self) -> Any:
        """Where the values live: a ``CPUPlace`` or ``CUDAPlace`` (``str()`` is ``Place(cpu)``; it equals
        ``paddle.CPUPlace()``, not the string, and answers ``is_gpu_place()``, as Paddle's Place)."""
        kind = _platform(self._v)
        if kind == "cpu":
            return _device.CPUPlace()
        v = self._v
        dev = next(iter(v.devices()), None) if hasattr(v, "devices") else None
        if kind != "gpu":  # (a TPU, say)
            return _device.CustomPlace(kind, getattr(dev, "id", 0))
        devs = _device.gpus()
        return _device.CUDAPlace(devs.index(dev) if dev in devs else 0)

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
            return e if stub or type(e[0]) is not _ev.STUB else self._edge
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
        # the Tensor last handed out: a leaf's gradient's held weakly (one nobody keeps is not followed, nor kept for
        # a step's program to return), the zeros of a cleared one and a non-leaf's held here
        gt = self._grad_t
        if gt is not None and type(gt) is not Tensor:
            gt = gt()
        if gt is None or (gt._v is not arr and not (type(arr) is Pending and gt._v is arr.array)):
            gt = Tensor(arr)
            # a write to it is a write to this gradient while it holds the gradient (``grad_written``)
            gt._sink = (_wref(self), self._acc.grad if self._e is None else self._retained)
            if self._e is None and self._acc.grad is not ZEROED:  # a leaf's: it follows the gradient's later
                ref = self._grad_t = _wref(gt, _unheld)  # changes (``follow_grads``; the zeros of a cleared one
                HELD[id(ref)] = ref  # stay: the next backward gives it a new gradient, as in Paddle)
            else:
                self._grad_t = gt
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
            # a Tensor ``.grad`` handed out that someone keeps shows the zeros now (``_follow``); one nobody keeps is
            # gone, so a step's program that runs after ``clear_grad`` does not return the cleared gradient
            ref = self._grad_t
            if ref is not None and id(ref) in HELD and modes.capture is None:
                _follow(id(ref), ref)
        elif self._retained is not None:
            self._retained = lazy.call(_zeros_like, (unwrap(self._retained),)) if set_to_zero else None

    clear_gradient = clear_grad

    # Paddle's second name for ``grad`` (the same getter and setter)
    grad_ = grad

    def gradient(self) -> np.ndarray | None:
        """The gradient as a numpy array, or None before any backward reached this tensor (Paddle's older spelling
        of ``x.grad.numpy()``)."""
        g = self.grad
        return None if g is None else np.array(g._value)

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
        if self._sg:  # (``stop_gradient``'s slot)
            if isinstance(grad_tensor, Tensor):
                from .backward_entry import _seed  # (the entry points import this module)

                _seed(self, grad_tensor, "backward", None)  # Paddle checks the seed's shape even then
            return
        if grad_tensor is None and not retain_graph and _ev.EVENTS.backward(self):
            lazy.end_backward()  # an observer ran it (a repeated step's backward, as noted): no walk
            if HELD:
                follow_grads()
            return
        _tensor_backward(self, grad_tensor, retain_graph)

    # ---- conversion ---------------------------------------------------------------
    def numpy(self) -> np.ndarray:
        """The values as a new, writable numpy array (as Paddle's: writing it leaves the Tensor as it is)."""
        _concrete(self, "Tensor.numpy()")
        return np.array(self._value)

    def item(self, *idx: int) -> Any:
        _concrete(self, "Tensor.item()")
        a = np.asarray(self._value)
        if not idx and a.size != 1:
            raise ValueError(f"Tensor.item() needs a tensor with one element, but received shape {self.shape}; index it first.")
        return a.item(*idx)

    def tolist(self) -> Any:
        return self.numpy().tolist()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        # a writable copy, as ``numpy()`` and Paddle's give (``np.asarray(t)[0] = 1`` works and leaves the Tensor as it
        # is); copy=False: the array's own host memory, read-only
        if copy is False:
            _concrete(self, "Tensor.__array__")
            return as_numpy(np.asarray(self._value), dtype, copy, "Tensor")
        return as_numpy(self.numpy(), dtype, None, "Tensor")

    def __jax_array__(self) -> Any:
        return self._value

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        return self._value.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self) -> Any:
        return self._value.__dlpack_device__()

    def _scalar(self, kind: str, numpy_rule: bool = True) -> Any:
        """The one element for ``int()``, ``float()``, ``bool()`` or an index. As Paddle's: a Tensor of several
        elements is an AssertionError; then Paddle converts through NumPy (``int(np.array(x))``), so a Tensor of
        shape [1] converts only where NumPy converts a one-element array (a TypeError from NumPy 2.3 on);
        ``bool()`` takes it."""
        if self.size != 1:
            raise AssertionError(
                f"{kind} of a Tensor needs exactly one element, but this one has shape {list(self.shape)}. Reduce it "
                "first (x.any(), x.all(), x.sum()) or index one element."
            )
        if numpy_rule and self.ndim and _SCALARS_NEED_0D:
            raise TypeError(
                f"{kind} of a Tensor: only a 0-D Tensor converts to a Python scalar, but this one has shape "
                f"{list(self.shape)}. Take x.item() for its one element, or index it (x[0])."
            )
        return self.item()

    def __float__(self) -> float:
        return float(self._scalar("float()"))

    def __int__(self) -> int:
        return int(self._scalar("int()"))

    def __bool__(self) -> bool:
        return bool(self._scalar("bool()", numpy_rule=False))

    def __index__(self) -> int:
        if not jnp.issubdtype(self._v.dtype, jnp.integer):
            raise TypeError(f"Only integer tensors can be used as an index, but received dtype {self.dtype}.")
        return int(self._scalar("Using as an index"))

    def __len__(self) -> int:
        if self.ndim == 0:  # an AssertionError, as Paddle's
            raise AssertionError("len() of a 0-D Tensor is undefined: it has shape [] and no first axis. Take "
                                 "x.item() for its value, or x.reshape([1]) for a Tensor of one element.")
        return self.shape[0]

    def __iter__(self) -> Any:
        if self.ndim == 0:  # an AssertionError, as Paddle's
            raise AssertionError("iteration over a 0-D Tensor is undefined: it has shape [] and no first axis. "
                                 "Take x.item() for its value, or x.reshape([1]) for a Tensor of one element.")
        return (self[i] for i in range(self.shape[0]))

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        if isinstance(self._v, _Tracer):
            if modes.capture is not None:  # printing inside jit.to_static: no value until the compiled call runs
                _concrete(self, "printing a Tensor")
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype.name}, traced={self._v})"
        return tensor_repr(self.shape, self.dtype.name, str(self.place), self.stop_gradient, np.asarray(self._value))

    __str__ = __repr__

    def __format__(self, format_spec: str) -> str:
        """As Paddle's: a 0-D Tensor formats as its Python number (``f"{loss:.4f}"``, and ``f"{loss}"`` gives the
        number); any other formats as ``str()`` with an empty spec, and a spec is a TypeError."""
        if self.ndim == 0:
            return format(self.item(), format_spec)
        return object.__format__(self, format_spec)

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
        """A new leaf with the same values and stop_gradient; ``.grad`` is not copied; its name is this one's with
        ``_deepcopy_<n>`` added (``linear_0.w_0_deepcopy_0``), as in Paddle."""
        t = self._leaf_copy()
        memo[id(self)] = t
        d = getattr(self, "__dict__", None)
        if d:
            t.__dict__.update(copy.deepcopy(d, memo))
        t._name = self.name + _unique_name.generate("_deepcopy")
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

    def set_value(self, value: Any) -> None:
        """Overwrite the data in place with ``value`` (a Tensor or a numpy array of this tensor's shape and dtype:
        as in Paddle, nothing is cast or broadcast, other values raise AssertionError, and it returns None); bumps
        the version."""
        if not isinstance(value, Tensor | np.ndarray | jax.Array):
            raise AssertionError(
                f"Tensor.set_value: the value must be a Tensor or a numpy array (as in Paddle), but received "
                f"{type(value).__name__}. Wrap it first, e.g. np.asarray(value, dtype='{self.dtype.name}')."
            )
        shape = list(value.shape)
        if shape != list(self._v.shape):
            raise AssertionError(
                f"Tensor.set_value: the value must have the tensor's shape {list(self._v.shape)}, but received "
                f"{shape} (nothing is broadcast). Reshape the value first."
            )
        got = value.dtype if isinstance(value, Tensor) else _dtypes.to_paddle(value.dtype)
        if got != self.dtype:
            raise AssertionError(
                f"Tensor.set_value: the value must have the tensor's dtype {self.dtype.name}, but received "
                f"{got.name} (values are not cast). Cast it first, e.g. value.astype('{self.dtype.name}')."
            )
        self._set_value(value)

    def _set_value(self, value: Any) -> Tensor:
        """``set_value`` for the library's own writes: any array-like, cast to this tensor's dtype (the shape must
        match)."""
        before_write(self)
        v, mine = getattr(value, "_v", None), self._v
        if (type(v) is Pending and v.array is None and isinstance(value, Tensor) and modes.capture is None
                and v.dtype == mine.dtype and tuple(v.shape) == tuple(mine.shape) and not v.aval[2]):
            # a value not computed yet, of this dtype and shape (a BatchNorm's running statistics): the Tensor takes
            # it as it is, so the write does not run the calls recorded so far
            self._v = v
            self._version_counter().value += 1
            grad_written(self)  # (a gradient handed out by ``x.grad`` passes the write on to ``x``'s gradient)
            return self
        u = unwrap(value)
        # (a numpy array is copied: ``jnp.asarray`` with a dtype may keep using the caller's memory)
        arr = own(u, self._value.dtype) if isinstance(u, np.ndarray | np.generic) else jnp.asarray(u, self._value.dtype)
        if tuple(arr.shape) != tuple(self._value.shape):
            raise ValueError(
                f"Tensor.set_value: the new value must have the tensor's shape {self.shape}, but received "
                f"{list(arr.shape)}. Reshape the value first."
            )
        if isinstance(arr, _Tracer):  # traced (to_static): the new value has no history, as eagerly
            arr = jax.lax.stop_gradient(arr)
        self._value = arr
        self._version_counter().value += 1
        grad_written(self)
        return self


_new = object.__new__


def result(value: Any, edge: Edge | None = None) -> Tensor:
    """The Tensor over an op's result: ``Tensor(value)``, or with ``edge`` ``Tensor(value, False, edge)``, made
    without the type call and the checks ``__init__`` makes of a caller's arguments (every op of a replayed step
    makes one). It sets every slot ``__init__`` sets."""
    t = _new(Tensor)
    t._v = value
    t._sg = edge is None
    t._e = edge
    t.persistable = False
    t._name = t._acc = t._counter = t._retained = t._grad_t = None
    return t


def _tensor_backward(t: Tensor, grad_tensor: Any, retain_graph: bool) -> None:
    """``backward_entry.tensor_backward``, bound here on first use (that module imports this one)."""
    global _tensor_backward
    from .backward_entry import tensor_backward

    _tensor_backward = tensor_backward
    tensor_backward(t, grad_tensor, retain_graph)


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
        if r._v.dtype != gt._v.dtype:  # (a RuntimeError, as Paddle's)
            raise RuntimeError(
                f"{api}: a hook must keep the gradient's dtype {gt.dtype.name}, but it returned {r.dtype.name}. "
                "Cast the hook's result back (g.astype(...)) or return None."
            )
        return r if isinstance(g, Tensor) else r._v

    return run


# ---- gradients handed out ---------------------------------------------------------------
HELD: dict[int, Any] = {}  # the Tensors a leaf's ``.grad`` handed out that are still alive (weak references)


def _unheld(ref: Any, _pop: Any = HELD.pop) -> None:
    _pop(id(ref), None)


def follow_grads() -> None:
    """The Tensors ``x.grad`` handed out follow the gradient as Paddle's, which share its memory, do: a later
    backward that accumulates into it and an in-place clip show in them; ``clear_grad()`` zeroes them (after which
    the next backward gives ``x`` a new gradient, which they no longer follow); ``clear_grad(set_to_zero=False)``
    leaves them as they were. Called after each backward, ``clear_grad`` and in-place clip while any is alive."""
    if modes.capture is not None:  # inside a to_static trace: the compiled step's call follows them after its run
        return
    for key, ref in list(HELD.items()):
        _follow(key, ref)


def _follow(key: int, ref: Any) -> None:
    """``follow_grads`` for one Tensor ``.grad`` handed out (``ref``, held weakly, under ``key`` in ``HELD``)."""
    t = ref()
    sink = None if t is None else t._sink
    owner = None if sink is None else sink[0]()
    if owner is None or owner._e is not None:
        HELD.pop(key, None)
        return
    acc = owner._acc
    now = None if acc is None else acc.grad
    held = sink[1]
    if now is held:
        return
    if now is None or held is ZEROED:  # cleared to None: it keeps its values; zeros: a backward gave the Tensor a
        HELD.pop(key, None)  # new gradient, which it does not show (a write to it reaches nothing: it raises)
        return
    before_write(t)
    if now is ZEROED:  # zeroed in place: it shows zeros, and a write to it is a write to the zeroed gradient
        t._v = _zeros_of(acc.out_avals[0])
        HELD.pop(key, None)
    else:
        t._v = now
    t._sink = (sink[0], now)
    counter = t._counter
    if counter is not None:
        counter.value += 1


# ---- wrapping ----------------------------------------------------------------------
def grad_written(t: Tensor) -> None:
    """After a write to ``t`` (an in-place op, ``set_value``, ``copy_``, ``assign(x, output=t)``, a write to a view of
    it): if ``t`` is what ``x.grad`` handed out, ``x``'s gradient takes the new value, as in Paddle, where ``x.grad``
    shares the gradient's memory (``x.grad.set_value(g)``, ``x.grad[mask] = 0`` under ``no_grad``,
    ``x.grad.scale_(0.5)`` change what the optimizer applies). The gradient must still be the one ``t`` was handed
    out with: a later ``backward()`` or ``clear_grad()`` gave ``x`` a new one, which ``t`` does not show (Paddle's
    would), so the write raises rather than undo it; so does a value of another shape."""
    sink = getattr(t, "_sink", None)
    if sink is None:
        return
    ref, held = sink
    owner = ref()
    if owner is None:
        return
    leaf = owner._e is None
    if leaf:
        acc = owner._acc
        now = acc.grad if acc is not None else None
    else:
        now = owner._retained
    v = t._v
    shape = tuple(owner._v.shape)
    stale = now is not held
    if stale or tuple(v.shape) != shape:
        t._sink = None
        if stale:
            raise RuntimeError(
                "Tensor.grad: this Tensor is a gradient read before a later backward() or clear_grad() gave its "
                "Tensor a new one, so the write does not reach the gradient the optimizer applies (in Paddle it "
                "would edit the new one). Read x.grad again and write to that."
            )
        raise ValueError(
            f"Tensor.grad: a write gave the gradient shape {list(v.shape)}, but a gradient keeps its Tensor's shape "
            f"{list(shape)}; the gradient is left as it was. Write a value of that shape."
        )
    if leaf:
        acc.grad = v
        r = owner._grad_t
        if r is None or type(r) is Tensor or r() is not t:  # (it is the gradient now: it follows it, as ``.grad``
            r = owner._grad_t = _wref(t, _unheld)  # would hand it out)
        HELD[id(r)] = r
    else:
        owner._retained = v
    t._sink = (ref, v)


def before_write(t: Tensor | None = None) -> None:
    """Every in-place write calls this first: a replayed step builds its tape before versions change.

    Inside a to_static trace the written tensor ``t`` is noted, so that the compiled function writes
    its new value back after each call (and the trace leaves the tensor as it was)."""
    cap = modes.capture
    if cap is not None and t is not None:
        cap.write(t)
    _ev.EVENTS.write(t)


def unwrap(x: Any) -> Any:
    """Tensor -> its array; anything else unchanged."""
    return x._value if isinstance(x, Tensor) else x



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


def _holds_tensor(items: Sequence[Any]) -> bool:
    for v in items:
        if isinstance(v, Tensor):
            return True
    return False


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
    if np_arr.dtype == np.uint64 and dtype is None and not isinstance(data, np.ndarray | np.generic):
        # Python ints in [2**63, 2**64): numpy makes them uint64, which wrapped to negative int64 (Paddle: a
        # ValueError)
        raise ValueError(
            "to_tensor: a Python int in data does not fit int64 (the range is -2**63 to 2**63 - 1); pass it as a "
            "float (float(n)) or a dtype='float32'/'float64' tensor, or reduce it first (n % 2**63)."
        )
    if dtype is not None:
        target = _dtypes.to_np(dtype)
    elif isinstance(data, np.ndarray | np.generic) or (isinstance(data, list | tuple) and _holds_tensor(data)):
        # a list with a Tensor item takes numpy's dtype for it, as Paddle's (``[f32 Tensor, 2]`` is float64,
        # ``[int32 Tensor, int32 Tensor]`` int32)
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
        big = next((v for v in np_arr.flat if isinstance(v, int) and not -2**63 <= v < 2**64), None)
        if big is not None:  # Paddle: a ValueError (no dtype holds it)
            raise ValueError(
                f"to_tensor: the integer {big} does not fit in int64 (or uint64), so no tensor dtype holds it; "
                "pass it as a float (float(v)) or split it into smaller integers."
            )
        raise TypeError(
            f"to_tensor: data of type {type(data).__name__} (numpy kind {np_arr.dtype.kind!r}) cannot become a "
            "Tensor; pass numbers, nested lists of numbers, a numpy array or a Tensor."
        )
    # a transfer (``put``: ``jax.device_put``'s C++ call; jnp.asarray would compile a copy program for each new shape:
    # a new batch size). JAX's CPU client may keep using the memory of an aligned numpy array instead of copying it,
    # so memory the caller can still write (the array passed, or a view) is copied first: the Tensor never changes
    # with the caller's array
    owned = np_arr is not data and np_arr.base is None
    return Tensor(put(np_arr.astype(target, copy=not owned)), stop_gradient)
