"""``jit.to_static``: an eager-style function compiled by XLA, one node on the eager tape.

Layer L5. The function is turned into an ``Op`` of its own (not registered in the table):
its tensor parameter is the list of Tensor arguments, its static attribute the rest of the
call. ``apply_op`` then gives it what every op has: a cached jitted forward, a cached
jitted VJP when an input needs a gradient, and a tape node, so ``.backward()`` through a
to_static function works, including through the PyLayers it applies (they run their
traced driver inside).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jax

from ._op_table import Op
from ._tensor import Tensor, apply_op, unwrap

_enabled = [True]


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


class StaticFunction:
    """What ``to_static(fn)`` returns: call it like ``fn``; it runs compiled."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.dygraph_function = fn
        self._op = Op(f"to_static({getattr(fn, '__name__', 'fn')})", self._pure, ("tensors",), ("tensors",), None,
                      (), False, False, True)
        functools.update_wrapper(self, fn)

    def _pure(self, tensors: list[Any], spec: tuple) -> list[Any]:
        treedef, statics, positions, stop = spec
        leaves = list(statics)
        for p, a, s in zip(positions, tensors, stop):
            leaves[p] = Tensor(a, s)
        args, kwargs = jax.tree_util.tree_unflatten(treedef, leaves)
        out = self.dygraph_function(*args, **dict(kwargs))
        return [jax.tree_util.tree_map(unwrap, out, is_leaf=_is_tensor)]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not _enabled[0]:
            return self.dygraph_function(*args, **kwargs)
        leaves, treedef = jax.tree_util.tree_flatten((args, tuple(kwargs.items())), is_leaf=_is_tensor)
        positions = tuple(i for i, v in enumerate(leaves) if isinstance(v, Tensor))
        tensors = [leaves[i] for i in positions]
        statics = tuple(None if isinstance(v, Tensor) else v for v in leaves)
        try:
            hash(statics)
        except TypeError:
            raise TypeError(
                f"to_static({self._op.name}): non-Tensor arguments become compile-time constants and must be "
                "hashable, but one of them is not. Pass arrays as Tensors."
            ) from None
        stop = tuple(t.stop_gradient for t in tensors)
        return apply_op(self._op, (tensors, (treedef, statics, positions, stop)))[0]

    def rollback(self) -> Callable[..., Any]:
        """The original Python function."""
        return self.dygraph_function


def to_static(function: Callable[..., Any] | None = None, input_spec: Any = None, build_strategy: Any = None,
              backend: Any = None, **kwargs: Any) -> Any:
    """Compile an eager-style function with XLA: ``@paddle.jit.to_static`` or ``to_static(fn)``.

    >>> import pylayer_jax as paddle
    >>> @paddle.jit.to_static
    ... def f(x):
    ...     return paddle.tanh(x) * 2
    >>> x = paddle.to_tensor([0.5], stop_gradient=False)
    >>> f(x).backward()
    """
    if function is None:
        return lambda fn: StaticFunction(fn)
    return StaticFunction(function)


def enable_to_static(enable: bool) -> None:
    """Globally switch to_static functions between compiled (True) and plain eager (False)."""
    _enabled[0] = bool(enable)


def not_to_static(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a function to stay Python; here every function called inside to_static is traced anyway."""
    return fn
