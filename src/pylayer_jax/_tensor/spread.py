"""Paddle's call forms that spread a shape or axes over the positional arguments (layer L3).

``x.reshape(3, 2)``, ``x.view(-1, 4)``, ``x.expand(2, 2, 3)``, ``x.repeat(2, 1)`` and ``paddle.zeros(2, 3)`` give
the shape one entry at a time; ``x.transpose(0, 1)`` names two axes to swap; and Paddle's functions take their
trailing ``name`` positionally (``paddle.tile(x, 2, None)``: the extra argument is that name, whatever it holds,
so ``x.tile(2, 1)`` repeats the last axis twice, as in Paddle). ``spread`` turns such a call into the table op's
own form before dispatch. ``checked_shape`` / ``checked_fill`` read a creation function's shape and fill value by
Paddle's rules.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .facade import Tensor

# how each op's call may spread (see ``spread``): "shape" (entries one by one after x, Paddle's int-or-0-D-Tensor
# test), "repeats" (the same when the first one is an int), "swap" (two ints: the axes to exchange), "name" (only
# the trailing positional name)
SPREAD = {
    "reshape": "shape", "view": "shape", "expand": "shape", "repeat": "repeats", "transpose": "swap",
    "tile": "name", "broadcast_to": "name", "block_diag": "name", "flip": "name", "squeeze": "name",
    "unsqueeze": "name",
}


def _is_dim(v: Any) -> bool:
    """An entry of a spread shape: an int, or a 0-D integer Tensor (as Paddle tests it)."""
    if isinstance(v, Tensor):
        return v.ndim == 0 and np.issubdtype(np.dtype(v._v.dtype), np.integer)
    return isinstance(v, int) and not isinstance(v, bool)


def spread(kind: str, n_params: int, args: tuple) -> tuple:
    """The positional ``args`` (the tensor first) of a call of an op with ``n_params`` parameters in the op's own
    form: a spread shape gathered into one list, two axes to swap made a permutation, a trailing positional name
    dropped."""
    if kind == "shape" and len(args) > 2 and all(_is_dim(a) for a in args[1:]):
        return (args[0], list(args[1:]))
    if kind == "repeats" and len(args) > 2 and isinstance(args[1], int) and not isinstance(args[1], bool):
        return (args[0], list(args[1:]))
    if kind == "swap" and len(args) == 3 and all(isinstance(a, int) and not isinstance(a, bool) for a in args[1:]):
        ndim = args[0].ndim if isinstance(args[0], Tensor) else np.ndim(args[0])
        perm = list(range(ndim))
        for a in args[1:]:
            if not -max(ndim, 1) <= a < max(ndim, 1):
                raise ValueError(
                    f"transpose: the axes to swap must be in [{-max(ndim, 1)}, {max(ndim, 1)}) for a {ndim}-D "
                    f"tensor, but received {args[1]} and {args[2]}. Pass two axes of the tensor."
                )
        i, j = args[1] % max(ndim, 1), args[2] % max(ndim, 1)
        perm[i], perm[j] = perm[j], perm[i]
        return (args[0], perm)
    if len(args) == n_params + 1:  # Paddle's trailing ``name``, given positionally
        return args[:-1]
    return args


def _integer(dt: Any) -> bool:
    return bool(np.issubdtype(np.dtype(dt), np.integer))


def checked_shape(api: str, shape: Any, param: str = "shape", float_tensor: bool = False) -> Any:
    """``shape`` as Paddle 3.3.1's creation functions take it: an int (or numpy integer), a list or tuple of ints,
    numpy integers or one-element integer Tensors (each made 0-D here), or an integer numpy array or Tensor.

    A float, bool, str or None, alone or as an entry, is a TypeError there (``paddle.zeros([2.0])``,
    ``paddle.ones(True)``), and so is a float numpy array. A float Tensor is a ValueError in ``zeros`` / ``ones`` /
    ``full`` (Paddle reads its values as -1); ``float_tensor=True`` lets one through for the functions that take it
    (``empty``)."""
    if isinstance(shape, Tensor | np.ndarray):
        dt = shape.dtype if isinstance(shape, np.ndarray) else shape._v.dtype
        if _integer(dt) or (float_tensor and isinstance(shape, Tensor)):
            return shape
        if isinstance(shape, np.ndarray):
            raise TypeError(f"{api}: a numpy {param} must hold integers in Paddle, but received an array of dtype "
                            f"{dt}; pass {param}.astype('int64') or a list of ints such as [2, 3].")
        raise ValueError(f"{api}: a {param} Tensor must have an integer dtype (int32 or int64) in Paddle, but received "
                         f"one of dtype {np.dtype(dt).name}; pass {param}.astype('int64') or a list of ints.")
    entries = shape if isinstance(shape, list | tuple) else [shape]
    out = []
    for d in entries:
        if isinstance(d, Tensor) and d.size == 1 and _integer(d._v.dtype):
            out.append(d.reshape([]) if d.ndim else d)
        elif isinstance(d, int | np.integer) and not isinstance(d, bool):
            out.append(d)
        else:
            kind = f"a {np.dtype(d._v.dtype).name} Tensor of shape {list(d.shape)}" if isinstance(d, Tensor) \
                else type(d).__name__
            raise TypeError(f"{api}: {param} must be an int or a list or tuple of ints, but received {shape!r} (an "
                            f"entry of type {kind}); pass integer sizes such as [2, 3].")
    return out if isinstance(shape, list | tuple) else shape


def checked_fill(api: str, fill: Any) -> Any:
    """A creation function's ``fill_value`` as Paddle 3.3.1 takes it: a number, a numpy number, a numeric str
    (``'inf'``, ``'1.5'``: read as a float) or a one-element Tensor (made 0-D); a numpy bool or None is a TypeError
    there, and a str that is no number (Paddle fills 0 with it) a ValueError here."""
    if isinstance(fill, str):
        try:
            return float(fill)
        except ValueError:
            raise ValueError(f"{api}: a str fill_value must spell a number (such as 'inf' or '1.5'), but received "
                             f"{fill!r}; pass a number.") from None
    if isinstance(fill, Tensor):
        return fill.reshape([]) if fill.ndim and fill.size == 1 else fill
    if fill is None or isinstance(fill, np.bool_):
        raise TypeError(f"{api}: fill_value must be a number, a numeric str or a Tensor in Paddle, but received "
                        f"{type(fill).__name__} {fill!r}; pass {'bool(fill_value)' if fill is not None else 'a number'}.")
    return fill


def spread_sizes(args: tuple, kwargs: dict[str, Any]) -> tuple[tuple, dict[str, Any]]:
    """A creation call's arguments with Paddle's shape spellings read: ``zeros(2, 3)`` (the positional arguments
    are the shape when each is an int), ``size=`` for ``shape=``, and a lone int shape."""
    if "size" in kwargs:
        if "shape" in kwargs:
            raise TypeError("size is another name for shape, and both were given. Pass only one of them.")
        kwargs = dict(kwargs)
        kwargs["shape"] = kwargs.pop("size")
    elif len(args) > 1 and all(_is_dim(a) for a in args):  # (``zeros(4, 'int32')``: a shape and a dtype)
        if "shape" in kwargs:
            raise TypeError(f"the shape was given both one entry at a time {list(args)} and as shape=; pass one.")
        kwargs = dict(kwargs)
        kwargs["shape"] = list(args)
        args = ()
    return args, kwargs


def with_sizes(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` (a creation function taking ``shape`` first) that also reads the spellings of ``spread_sizes``."""

    def call(*args: Any, **kwargs: Any) -> Any:
        args, kwargs = spread_sizes(args, kwargs)
        return fn(*args, **kwargs)

    call.__name__ = call.__qualname__ = fn.__name__
    call.__doc__ = fn.__doc__
    call.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    return call
