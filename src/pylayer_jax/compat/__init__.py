"""``paddle.compat``: Paddle 3.3.1's functions with PyTorch's signatures and return types (``dim`` / ``input``
for ``axis`` / ``x``, named tuples of values and indices, ``split`` by chunk size). Each refuses the Paddle keyword
names (``x``, ``axis``) with a TypeError that names the Paddle function to use instead, as Paddle's do.

>>> import pylayer_jax as paddle
>>> x = paddle.to_tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
>>> paddle.compat.max(x, dim=1).indices.tolist()
[1, 2]
>>> [list(t.shape) for t in paddle.compat.split(x, 2, dim=1)]
[[2, 2], [2, 1]]

Layer: public API above ``nn`` (``compat.nn``'s layers derive from its layers); the functions resolve the package root's.
"""

from __future__ import annotations

import builtins
import contextlib as _contextlib
import random as _random
import sys as _sys
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from .._api import torch_compat as _torch_compat
from . import nn as nn
from ._forbid import forbid as _forbid

# the torch proxy's switches, under their names here (the very functions ``paddle.enable_compat`` /
# ``paddle.disable_compat``, as in Paddle)
enable_torch_proxy = _torch_compat.enable_compat
disable_torch_proxy = _torch_compat.disable_compat

_ROOT = _sys.modules[__name__.rpartition(".")[0]]

__all__ = ["equal", "max", "median", "min", "nanmedian", "seed", "slogdet", "sort", "split", "unique"]


class MinMaxRetType(NamedTuple):
    """``compat.min`` / ``compat.max`` along a dim: the values and their int64 indices."""

    values: Any
    indices: Any


class MedianRetType(NamedTuple):
    """``compat.median`` / ``compat.nanmedian`` along a dim: the values and their int64 indices."""

    values: Any
    indices: Any


class SortRetType(NamedTuple):
    """``compat.sort``: the sorted values and the int64 indices they came from."""

    values: Any
    indices: Any


class SlogdetResult(NamedTuple):
    """``compat.slogdet``: the sign of the determinant and the log of its absolute value."""

    sign: Any
    logabsdet: Any


@_contextlib.contextmanager
def use_torch_proxy_guard(*, enable: bool = True, scope: Any = None, silent: bool = False) -> Iterator[None]:
    """Within the ``with`` block the torch proxy is on (``enable``) or off, and afterwards as it was before."""
    if not isinstance(enable, bool):
        raise TypeError(f"use_torch_proxy_guard: enable must be a bool, but received {enable!r}.")
    if scope is not None:
        raise NotImplementedError("use_torch_proxy_guard: a scope (proxying torch only inside some modules) is not "
                                  "supported by pylayer_jax; leave scope out to switch the proxy everywhere.")
    was_on = _torch_compat._FINDER in _sys.meta_path
    if enable == was_on:
        yield
        return
    if enable:
        enable_torch_proxy(silent=silent)
    else:
        disable_torch_proxy()
    try:
        yield
    finally:
        if enable:
            disable_torch_proxy()
        else:
            enable_torch_proxy(silent=True)


def extend_torch_proxy_blocked_modules(modules: Any) -> None:
    """Not supported: the torch proxy here is global, with no list of modules that keep the real torch."""
    raise NotImplementedError(f"extend_torch_proxy_blocked_modules({list(modules)!r}): pylayer_jax's torch proxy is "
                              "global, with no blocked modules; disable it (paddle.disable_compat) around code that "
                              "needs the real torch.")


def _check_out(api: str, out: Any, pair: bool) -> None:
    Tensor = _ROOT.Tensor
    if out is None:
        return
    if pair:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"paddle.compat.{api}: out must be a list or tuple of two Tensors (values, indices) when "
                            f"a dim is given, but received {type(out).__name__}; pass (values, indices) buffers.")
        if not (isinstance(out[0], Tensor) and isinstance(out[1], Tensor)):
            raise TypeError(f"paddle.compat.{api}: out must hold two Tensors, but received ({type(out[0]).__name__}, "
                            f"{type(out[1]).__name__}); pass (values, indices) Tensors.")
    elif not isinstance(out, Tensor):
        raise TypeError(f"paddle.compat.{api}: out must be a single Tensor for this call, but received "
                        f"{type(out).__name__}; pass one Tensor (a pair is for calls with a dim).")


def _write_out(out: Any, ret: Any) -> None:
    if out is None:
        return
    if isinstance(ret, tuple):
        _ROOT.assign(ret[0], out[0])
        _ROOT.assign(ret[1], out[1])
    else:
        _ROOT.assign(ret, out)


_ORDER = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")


def _common_dtype(a: str, b: str) -> str:
    """The dtype two others promote to (PyTorch's table, which Paddle's compat functions document)."""
    if {a, b} == {"uint8", "int8"}:
        return "int16"
    if {a, b} == {"float16", "bfloat16"}:
        return "float32"
    if a not in _ORDER or b not in _ORDER:  # complex: the wider one
        return a if "complex" in a and (b not in ("complex64",) or a == "complex128") else b
    return builtins.max(a, b, key=_ORDER.index)


@_forbid({"x", "y"}, "equal", "paddle.equal")
def equal(input: Any, other: Any) -> bool:
    """True when ``input`` and ``other`` have the same shape and elements (after promoting to a common dtype); a
    NaN is equal to nothing. Returns a Python bool."""
    if input.dtype != other.dtype:
        common = _common_dtype(str(input.dtype).replace("paddle.", ""), str(other.dtype).replace("paddle.", ""))
        input, other = input.astype(common), other.astype(common)
    return bool(_ROOT.equal_all(input, other).item())


def _median(api: str, fn: Any, input: Any, dim: Any, keepdim: bool, out: Any) -> Any:
    if dim is None:
        _check_out(api, out, False)
        ret = fn(input, axis=None, keepdim=keepdim, mode="min")
        if out is not None:
            _ROOT.assign(ret, out)
            return out
        return ret
    _check_out(api, out, True)
    values, indices = fn(input, axis=dim, keepdim=keepdim, mode="min")
    if api == "nanmedian":  # a row of NaNs: index 0, as PyTorch (Paddle's own nanmedian gives -1)
        indices = _ROOT.maximum(indices, _ROOT.zeros_like(indices))
    if out is not None:
        _write_out(out, (values, indices))
        return MedianRetType(out[0], out[1])
    return MedianRetType(values, indices)


@_forbid({"x", "axis"}, "median", "paddle.median")
def median(input: Any, dim: int | None = None, keepdim: bool = False, *, out: Any = None) -> Any:
    """The median of ``input`` (the lower of the two middle values for an even count; NaN when a NaN is present):
    a Tensor over all elements when ``dim`` is None, else ``MedianRetType(values, indices)`` along ``dim``."""
    return _median("median", _ROOT.median, input, dim, keepdim, out)


@_forbid({"x", "axis"}, "nanmedian", "paddle.nanmedian")
def nanmedian(input: Any, dim: int | None = None, keepdim: bool = False, *, out: Any = None) -> Any:
    """``median`` ignoring NaNs (NaN, at index 0, for a row of NaNs only)."""
    return _median("nanmedian", _ROOT.nanmedian, input, dim, keepdim, out)


def seed() -> int:
    """Seed the generator with a fresh non-deterministic 64-bit number, and return it."""
    s = _random.SystemRandom().getrandbits(63)
    _ROOT.seed(s)
    return s


def _minmax_args(api: str, args: tuple, kwargs: dict) -> tuple[Any, bool]:
    """(dim or other Tensor or None, keepdim) from torch's three call forms."""
    Tensor = _ROOT.Tensor

    def bad(why: str = "") -> TypeError:
        got = ", ".join([type(v).__name__ for v in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        return TypeError(f"paddle.compat.{api}: invalid arguments (input, {got}). {why}It takes (input) to reduce "
                         f"all dims, (input, other: Tensor) as paddle.{api}imum, or (input, dim: int, keepdim=False).")

    if builtins.len(args) + builtins.len(kwargs) > 2 or set(kwargs) - {"dim", "keepdim", "other"}:
        raise bad()
    keepdim = False
    if builtins.len(args) + builtins.len(kwargs) == 2:
        if "other" in kwargs:
            raise bad("keepdim does not go with another Tensor. ")
        rest = list(args) + [kwargs[k] for k in ("dim", "keepdim") if k in kwargs]
        if builtins.len(args) == 0 and "dim" not in kwargs or builtins.len(args) == 1 and "keepdim" not in kwargs:
            raise bad()
        dim_or_other, keepdim = rest
        if dim_or_other is None or isinstance(dim_or_other, Tensor):
            raise bad("dim must be an int when keepdim is given. ")
    elif args:
        dim_or_other = args[0]
    elif "dim" in kwargs:
        dim_or_other = kwargs["dim"]
    elif "other" in kwargs:
        dim_or_other = kwargs["other"]
        if not isinstance(dim_or_other, Tensor):
            raise bad("other must be a Tensor. ")
    elif kwargs:
        raise bad("keepdim needs a dim. ")
    else:
        return None, False
    if dim_or_other is None:
        raise bad("dim cannot be None (leave it out to reduce all dims). ")
    if not isinstance(dim_or_other, Tensor) and type(dim_or_other) is not int:
        raise bad(f"The second argument must be an int dim or a Tensor, but received {type(dim_or_other).__name__}. ")
    return dim_or_other, keepdim


def _minmax(api: str, input: Any, args: tuple, out: Any, kwargs: dict) -> Any:
    R = _ROOT
    if not isinstance(input, R.Tensor):
        raise TypeError(f"paddle.compat.{api}: input must be a Tensor, but received {type(input).__name__}; wrap it "
                        "with paddle.to_tensor.")
    if str(input.dtype).replace("paddle.", "") in ("int16", "int32", "int64", "uint8") and not input.stop_gradient:
        raise TypeError(f"paddle.compat.{api}: a Tensor of integer type ({input.dtype}) cannot require a gradient "
                        "(stop_gradient=False); set stop_gradient=True.")
    dim_or_other, keepdim = _minmax_args(api, args, kwargs)
    if dim_or_other is None:
        _check_out(api, out, False)
        ret = getattr(R, api)(input)
    elif isinstance(dim_or_other, int):
        _check_out(api, out, True)
        if input.ndim == 0:
            ret = MinMaxRetType(input, R.zeros([], dtype="int64"))
        else:  # the gradient goes to the returned index only (not shared among equal extremes), as in PyTorch
            idx = getattr(R, f"arg{api}")(input, axis=dim_or_other, keepdim=True)
            values = R.take_along_axis(input, idx, axis=dim_or_other)
            if not keepdim:
                values, idx = values.squeeze(dim_or_other), idx.squeeze(dim_or_other)
            ret = MinMaxRetType(values, idx)
    else:
        _check_out(api, out, False)
        ret = getattr(R, f"{api}imum")(input, dim_or_other)
    _write_out(out, ret)
    return ret


@_forbid({"x", "axis"}, "min", "paddle.min")
def min(input: Any, *args: Any, out: Any = None, **kwargs: Any) -> Any:
    """PyTorch's ``min``: ``min(input)`` the smallest element (0-D); ``min(input, dim, keepdim=False)``
    ``MinMaxRetType(values, indices)`` along ``dim`` (the gradient reaches the returned index only);
    ``min(input, other)`` the elementwise ``paddle.minimum``."""
    return _minmax("min", input, args, out, kwargs)


@_forbid({"x", "axis"}, "max", "paddle.max")
def max(input: Any, *args: Any, out: Any = None, **kwargs: Any) -> Any:
    """PyTorch's ``max``: ``max(input)``, ``max(input, dim, keepdim=False)`` -> ``MinMaxRetType`` or
    ``max(input, other)`` (``paddle.maximum``); see ``min``."""
    return _minmax("max", input, args, out, kwargs)


def slogdet(x: Any, out: Any = None) -> SlogdetResult:
    """``SlogdetResult(sign, logabsdet)`` of a square matrix or a batch of them (``(0, -inf)`` for a singular
    one)."""
    _check_out("slogdet", out, True)
    both = _ROOT.linalg.slogdet(x)
    ret = SlogdetResult(both[0], _ROOT.real(both[1]) if both.is_complex() else both[1])
    if out is not None:
        _write_out(out, ret)
    return ret


@_forbid({"x", "axis"}, "sort", "paddle.sort")
def sort(input: Any, dim: int = -1, descending: bool = False, stable: bool = False, out: Any = None) -> SortRetType:
    """``SortRetType(values, indices)``: ``input`` sorted along ``dim`` (ascending unless ``descending``; equal
    values keep their order when ``stable``)."""
    _check_out("sort", out, True)
    idx = _ROOT.argsort(input, axis=dim, descending=descending, stable=stable)
    ret = SortRetType(_ROOT.take_along_axis(input, idx, axis=dim), idx)
    _write_out(out, ret)
    return ret


@_forbid({"x", "axis"}, "unique", "paddle.unique")
def unique(input: Any, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
           dim: int | None = None) -> Any:
    """The sorted unique elements of ``input`` (of its slices along ``dim`` when given), with the inverse indices
    and counts when asked (``sorted`` changes nothing, as in PyTorch)."""
    return _ROOT.unique(input, return_inverse=return_inverse, return_counts=return_counts, axis=dim, sorted=sorted)


@_forbid({"x", "num_or_sections", "axis", "name"}, "split", "paddle.split")
def split(tensor: Any, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple:
    """``tensor`` split along ``dim`` into chunks of ``split_size_or_sections`` (the last one smaller when it
    does not divide), or into pieces of the listed sizes (which must sum to the dim's size). Returns a tuple."""
    if isinstance(dim, _ROOT.Tensor):
        dim = int(dim.item())
    rank = tensor.ndim
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s.item()) if isinstance(s, _ROOT.Tensor) else s for s in split_size_or_sections]
        for i, s in enumerate(sizes):
            if s < 0:
                raise ValueError(f"paddle.compat.split: the section sizes must be non-negative, but size {s} was "
                                 f"given at position {i}; list the sizes explicitly.")
    elif type(split_size_or_sections) is int:
        sizes = None
        if split_size_or_sections <= 0:
            raise ValueError("paddle.compat.split: split_size_or_sections must be greater than 0, but received "
                             f"{split_size_or_sections}; give a positive chunk size.")
    else:
        raise TypeError("paddle.compat.split: split_size_or_sections must be an int or a list / tuple of ints, but "
                        f"received {type(split_size_or_sections).__name__}.")
    if not -rank <= dim < rank:
        raise ValueError(f"paddle.compat.split: dim must be in [-{rank}, {rank}), but received {dim}.")
    dim = dim % rank
    n = tensor.shape[dim]
    if sizes is None:
        size = split_size_or_sections
        sizes = [size] * (n // size) + ([n % size] if n % size else [])
    if builtins.sum(sizes) != n:
        raise ValueError(f"paddle.compat.split: the section sizes {sizes} must sum to the size {n} of dim {dim}; "
                         "fix the sizes.")
    return tuple(_ROOT.split(tensor, sizes, axis=dim))
