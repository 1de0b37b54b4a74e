"""``saved_tensors_hooks`` and how ``ctx.save_for_backward`` stores values (layer L5).

Built-in ops pack through the same thread-local hook stack in ``_tensor._save``. Here:
the public context manager, and the storage of PyLayer-saved values. A saved Tensor
keeps its array as it was when saved (an in-place write afterwards cannot change it)
and its place in the graph (so create_graph can differentiate through it). Under a
hook pair the pack hook gets the very Tensor object at save time and the unpack hook
runs on every ``ctx.saved_tensor()`` call. Lists, tuples and dicts keep their
structure; non-Tensors are stored as they are, without hooks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from .._autograd.graph import AccumulateGrad, Edge
from .._runtime import dtypes as _dtypes
from .._runtime.state import current_saved_hooks, grad_mode, modes
from .facade import Tensor

_Tracer = jax.core.Tracer
_CONCRETE_ERRORS = (
    jax.errors.ConcretizationTypeError,
    jax.errors.TracerArrayConversionError,
    jax.errors.TracerBoolConversionError,
    jax.errors.TracerIntegerConversionError,
)


class saved_tensors_hooks:  # noqa: N801
    """Register a pack/unpack hook pair for tensors saved for backward.

    ``pack_hook(tensor)`` runs when an op (or ``ctx.save_for_backward``) saves a tensor;
    what it returns is stored instead. ``unpack_hook(packed)`` runs when backward needs the
    tensor and must return a Tensor with the same shape and dtype. The pair is
    thread-local; nested blocks are allowed and the innermost pair applies.

    Example::

        >>> import pylayer_jax as paddle
        >>> a = paddle.ones([3, 3]); a.stop_gradient = False
        >>> with paddle.autograd.saved_tensors_hooks(lambda x: x.numpy(), paddle.to_tensor):
        ...     y = paddle.multiply(a, a)
        >>> y.sum().backward()
    """

    def __init__(self, pack_hook: Callable[[Tensor], Any], unpack_hook: Callable[[Any], Any]) -> None:
        for what, fn in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
            if not callable(fn):
                raise TypeError(
                    f"saved_tensors_hooks: {what} must be callable, but received {type(fn).__name__}. Pass a "
                    "function taking one argument."
                )
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> saved_tensors_hooks:
        modes.saved_hooks.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc: Any) -> None:
        modes.saved_hooks.pop()


def _hook_name(fn: Any) -> str:
    return getattr(fn, "__qualname__", None) or type(fn).__name__


def _traced(x: Any) -> bool:
    return isinstance(x._v if isinstance(x, Tensor) else x, _Tracer)


def call_hook(fn: Callable[[Any], Any], arg: Any, what: str, traced: bool) -> Any:
    """Run a hook with recording off; under a JAX trace, say clearly why .numpy() fails."""
    try:
        with grad_mode(False):
            return fn(arg)
    except (*_CONCRETE_ERRORS, RuntimeError) as e:
        if not traced or (isinstance(e, RuntimeError) and "concrete value" not in str(e)):
            raise
        raise RuntimeError(
            f"saved_tensors_hooks {what} {_hook_name(fn)!r} needs a concrete value, but under jax.jit/grad/vmap "
            "hooks run at trace time on traced tensors. Keep the hook free of .numpy()/float() (store the "
            "Tensor itself), or run the PyLayer outside the transform."
        ) from e


class SavedSlot:
    """One Tensor (or jax array) saved by ``save_for_backward``.

    ``array``/``packed``: the value, raw or as the pack hook returned it. ``edge``/``acc``:
    where gradients of the saved tensor flow (updated by apply when the saved tensor turns
    out to be one of forward's outputs). ``ref``: the saved object until apply has matched it.
    """

    __slots__ = ("array", "packed", "unpack", "shape", "dtype", "as_tensor", "stop_gradient", "edge", "ref")

    def __init__(self, x: Any, hooks: tuple[Any, Any] | None) -> None:
        self.as_tensor = isinstance(x, Tensor)
        arr = x._v if self.as_tensor else x
        self.shape, self.dtype = tuple(arr.shape), arr.dtype
        self.stop_gradient = x.stop_gradient if self.as_tensor else True
        self.edge: Edge | None = x.grad_edge(stub=True) if self.as_tensor and not x.stop_gradient else None
        self.ref: Any = x
        if hooks is None:
            self.array, self.packed, self.unpack = arr, None, None
        else:
            pack, self.unpack = hooks
            self.array = None
            self.packed = call_hook(pack, x if self.as_tensor else Tensor(arr), "pack_hook", _traced(x))

    def value(self) -> Any:
        """The saved tensor for backward: a fresh Tensor with the saved array and history."""
        if self.unpack is None:
            arr = self.array
        else:
            r = call_hook(self.unpack, self.packed, "unpack_hook", False)
            arr = check_unpacked(r, self.shape, self.dtype, self.unpack)
        if not self.as_tensor:
            return arr
        if self.edge is None:
            return Tensor(arr, self.stop_gradient)
        node = self.edge[0]
        if type(node) is AccumulateGrad:  # a leaf that needs grad: share its accumulator
            t = Tensor(arr, False)
            t._acc = node
            return t
        return Tensor(arr, False, self.edge)


def check_unpacked(r: Any, shape: tuple, dtype: Any, unpack: Any) -> Any:
    """The array of what the unpack hook ``unpack`` returned, checked to be the saved tensor's (shape, dtype)."""
    arr = r._value if isinstance(r, Tensor) else r
    api = f"saved_tensors_hooks unpack_hook {_hook_name(unpack)!r}: an unpack_hook"
    if not isinstance(arr, jax.Array | np.ndarray):
        raise TypeError(
            f"{api} must return a Tensor (or array) with the saved tensor's content, but it returned "
            f"{type(r).__name__}. Return paddle.to_tensor(packed) or the saved Tensor."
        )
    if tuple(arr.shape) != tuple(shape) or arr.dtype != dtype:
        raise ValueError(
            f"{api} must return the saved tensor's shape {list(shape)} and dtype {_dtypes.to_paddle(dtype).name}, "
            f"but it returned shape {list(arr.shape)} and dtype {_dtypes.to_paddle(arr.dtype).name}."
        )
    return jax.numpy.asarray(arr)


def save_values(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """Store what ``save_for_backward`` got: Tensors/arrays as SavedSlots, containers mapped."""
    hooks = current_saved_hooks()
    if hooks is None:
        for v in values:  # the common case: Tensors, no hooks
            if type(v) is not Tensor:
                break
        else:
            return tuple([SavedSlot(v, None) for v in values])
    return tuple([_save_one(v, hooks) for v in values])


def _save_one(v: Any, hooks: Any) -> Any:
    if type(v) is Tensor or isinstance(v, Tensor | jax.Array):
        return SavedSlot(v, hooks)
    if type(v) in (list, tuple):
        return type(v)(_save_one(e, hooks) for e in v)
    if type(v) is dict:
        return {k: _save_one(e, hooks) for k, e in v.items()}
    return v


def load_values(saved: Any) -> Any:
    """The inverse of ``save_values``: unpack (running unpack hooks) every SavedSlot."""
    if type(saved) is tuple:
        for e in saved:  # the common case: SavedSlots only (checked before any unpack hook runs)
            if type(e) is not SavedSlot:
                break
        else:
            return tuple([e.value() for e in saved])
    if isinstance(saved, SavedSlot):
        return saved.value()
    if type(saved) in (list, tuple):
        return type(saved)(load_values(e) for e in saved)
    if type(saved) is dict:
        return {k: load_values(e) for k, e in saved.items()}
    return saved


def iter_slots(saved: Any) -> Any:
    """Every SavedSlot inside a saved structure."""
    if isinstance(saved, SavedSlot):
        yield saved
    elif type(saved) in (list, tuple):
        for e in saved:
            yield from iter_slots(e)
    elif type(saved) is dict:
        for e in saved.values():
            yield from iter_slots(e)


def _slot_flatten(s: SavedSlot) -> tuple[tuple, tuple]:
    aux = (s.unpack, s.shape, s.dtype, s.as_tensor, s.stop_gradient)
    return (s.array, s.packed), aux


def _slot_unflatten(aux: tuple, children: tuple) -> SavedSlot:
    s = SavedSlot.__new__(SavedSlot)
    s.unpack, s.shape, s.dtype, s.as_tensor, s.stop_gradient = aux
    s.array, s.packed = children
    s.edge = None
    s.ref = None
    return s


# Under jit the ctx is carried from forward to backward as a pytree: arrays are residuals.
jax.tree_util.register_pytree_node(SavedSlot, _slot_flatten, _slot_unflatten)
