"""The ``paddle.fft`` functions (layer L5): Paddle 3.3.1's argument rules over the three transform ops of
``_ops.fft`` (``fft_c2c``, ``fft_r2c``, ``fft_c2r``), plus fftfreq, rfftfreq, fftshift and ifftshift.

Each function checks its arguments as Paddle's Python layer does (its exception types, with sentences saying what
to pass), resolves ``n``/``s`` and ``axis``/``axes`` as Paddle does (``fftn``'s default axes: all of them, or the last
``len(s)``), and calls the op, so gradients flow through the table like any op's. ``input`` and ``dim`` are
Paddle's keyword aliases of ``x`` and ``axis``/``axes``; ``out=`` receives a copy of the result, as in Paddle.

Where Paddle 3.3.1 crashes or gives no sane result, these raise or compute the sane thing instead (see
``tests/fft/test_fft.py``): a repeated axis (Paddle aborts the process), an empty ``axes`` or ``s`` and a 0-D input
of the n-D transforms (Paddle segfaults) and a zero-length real transform are ValueErrors; integer inputs of irfft
and hfft are transformed as those of fft are (Paddle's kernel refuses the float32 it casts them to); a numpy
integer is an integer; fftshift and ifftshift take ``axes`` as documented (Paddle's raise a SystemError for any
``axes`` and for a 1-D input).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._ops.aliases import unalias
from .._ops.table import TABLE
from .._runtime import dtypes as _dtypes
from .._tensor.device import placed
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from .functional import assign as _assign

_NORMS = ("backward", "ortho", "forward")
_INTS = ("int8", "int16", "int32", "int64", "uint8")
# the input dtypes each kernel family takes (Paddle casts integers first; float16, bfloat16 and bool have no
# kernel, a RuntimeError in Paddle)
_TAKES = {
    "c2c": (*_INTS, "float32", "float64", "complex64", "complex128"),
    "r2c": (*_INTS, "float32", "float64"),
    "c2r": (*_INTS, "float32", "float64", "complex64", "complex128"),
}
_WHAT = {
    "c2c": "a real or complex tensor (float32, float64, complex64, complex128 or an integer dtype)",
    "r2c": "a real tensor (float32, float64 or an integer dtype)",
    "c2r": "a real or complex tensor (float32, float64, complex64, complex128 or an integer dtype)",
}


def _aliased(api: str, kwargs: dict[str, Any], axis_name: str) -> dict[str, Any]:
    """``input``/``dim``, Paddle's keyword aliases of ``x`` and the axis argument (a call giving both is a
    TypeError, as Paddle's ``param_two_alias`` makes it)."""
    if kwargs and ("input" in kwargs or "dim" in kwargs):
        kwargs = unalias((f"paddle.fft.{api}", {"input": "x", "dim": axis_name}, TypeError), dict(kwargs))
    return kwargs


def _tensor(api: str, x: Any, kind: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(
            f"paddle.fft.{api}: x must be a Tensor, but received {type(x).__name__}. Make one with "
            "paddle.to_tensor(...) first."
        )
    name = x.dtype.name
    if name not in _TAKES[kind]:
        fix = "x.astype('complex64')" if kind != "r2c" and name in ("bool", "float16", "bfloat16") else (
            "x.astype('float32')" if kind != "r2c" else
            "paddle.real(x) for the real part, or paddle.fft.fft for a complex input"
            if name.startswith("complex") else "x.astype('float32')")
        raise RuntimeError(
            f"paddle.fft.{api}: x must be {_WHAT[kind]}, but received dtype {name}. Convert it, e.g. with {fix}."
        )
    return x


def _norm(api: str, norm: Any) -> str:
    if not isinstance(norm, str) or norm not in _NORMS:
        raise ValueError(
            f"paddle.fft.{api}: norm must be 'backward', 'ortho' or 'forward', but received {norm!r}. Pass one of "
            "them (the default 'backward' scales the inverse transform by 1/n)."
        )
    return norm


def _int(api: str, what: str, v: Any) -> int:
    """``v`` as a Python int (a numpy integer too); a bool is a TypeError, anything else a ValueError (Paddle's)."""
    if isinstance(v, bool | np.bool_):
        raise TypeError(f"paddle.fft.{api}: {what} must be an integer, but received the bool {v!r}. Pass an int.")
    if isinstance(v, int | np.integer):
        return operator.index(v)
    raise ValueError(f"paddle.fft.{api}: {what} must be an integer, but received {v!r} ({type(v).__name__}). "
                     "Pass an int.")


def _axis(api: str, x: Tensor, axis: Any, what: str = "axis") -> int:
    a = _int(api, what, axis)
    nd = x.ndim
    if not -nd <= a < nd:
        raise ValueError(
            f"paddle.fft.{api}: {what} {a} is out of range for a {nd}-D input; it must be in [-{nd}, {nd}). "
            + ("Pass a tensor of at least 1 dimension." if nd == 0 else "Pass an axis of x.")
        )
    return a % nd


def _size(api: str, what: str, v: Any) -> int:
    n = _int(api, what, v)
    if n <= 0:
        raise ValueError(f"paddle.fft.{api}: {what} must be a positive transform length, but received {n}. "
                         "Pass n >= 1 (or None for the input's length).")
    return n


def _seq(api: str, what: str, v: Any, count: int | None) -> tuple:
    if not isinstance(v, Sequence) or isinstance(v, str):
        need = f"a list or tuple of {count} integers" if count else "a list or tuple of integers"
        raise ValueError(f"paddle.fft.{api}: {what} must be {need}, but received {v!r}. Pass {need}.")
    if count is not None and len(v) != count:
        raise ValueError(f"paddle.fft.{api}: {what} must be a list or tuple of {count} integers, but received "
                         f"{list(v)!r} ({len(v)} entries). Pass {count} of them.")
    if len(v) == 0:
        raise ValueError(f"paddle.fft.{api}: {what} must name at least one axis, but received an empty {what}. "
                         f"Pass None for the default {what}.")
    return tuple(v)


def _axes_sizes(api: str, x: Tensor, s: Any, axes: Any, count: int | None) -> tuple[tuple[int, ...], Any]:
    """The resolved (non-negative axes, sizes or None) of an n-D transform (``count``: 2 for the 2-D ones)."""
    nd = x.ndim
    if count is not None and nd < count:
        raise ValueError(f"paddle.fft.{api}: x must have at least {count} dimensions, but received a {nd}-D "
                         f"tensor of shape {list(x.shape)}. Use the 1-D transform, or reshape x.")
    if nd == 0:
        raise ValueError(f"paddle.fft.{api}: x must have at least 1 dimension, but received a 0-D tensor. "
                         "Reshape it to [1] first.")
    if s is not None:
        s = _seq(api, "s", s, count)
        if len(s) > nd:
            raise ValueError(f"paddle.fft.{api}: s must not have more entries than x has dimensions, but received "
                             f"s={list(s)} for a {nd}-D input. Give one size per transformed axis.")
        s = tuple(_size(api, "each entry of s", v) for v in s)
    if axes is None:
        axes = tuple(range(nd)) if s is None else tuple(range(nd - len(s), nd))
    else:
        given = _seq(api, "axes", axes, count)
        if len(given) > nd:
            raise ValueError(f"paddle.fft.{api}: axes must not have more entries than x has dimensions, but "
                             f"received axes={list(given)} for a {nd}-D input. Name each axis at most once.")
        axes = tuple(_axis(api, x, a, "each entry of axes") for a in given)
        if len(set(axes)) != len(axes):
            raise ValueError(f"paddle.fft.{api}: axes {list(given)} names the same axis twice; name each axis "
                             "once.")
        if s is not None and len(s) != len(axes):
            raise ValueError(f"paddle.fft.{api}: s and axes must have the same length, but received "
                             f"{len(s)} sizes {list(s)} and {len(axes)} axes {list(given)}. Give one size per axis.")
    return axes, s


def _out(api: str, ret: Tensor, out: Any) -> Tensor:
    if out is not None:
        if not isinstance(out, Tensor):
            raise TypeError(f"paddle.fft.{api}: out must be a Tensor to write the result into, but received "
                            f"{type(out).__name__}. Pass a Tensor, or leave out=None and use the returned one.")
        _assign(ret, out)
    return ret


def _run(api: str, kind: str, x: Tensor, axes: tuple, s: Any, norm: str, forward: bool, out: Any) -> Tensor:
    last = axes[-1]
    if kind == "r2c" and (s[-1] if s is not None else x.shape[last]) == 0:
        raise ValueError(f"paddle.fft.{api}: the transformed axis {last} of x has length 0; a real transform "
                         "needs at least one point. Pass a non-empty x (or n >= 1).")
    if kind == "c2r" and s is None and 2 * (x.shape[last] - 1) <= 0:
        raise ValueError(f"paddle.fft.{api}: the output length along axis {last} defaults to 2 * (m - 1) = "
                         f"{2 * (x.shape[last] - 1)} for the input length m = {x.shape[last]}, which is no length. "
                         "Pass the output length (n, or s) explicitly.")
    op = TABLE["fft_" + kind]
    ret = apply_op(op, (x,), {"axes": axes, "s": s, "norm": norm, "forward": forward})
    return _out(api, ret, out)


def _one_d(api: str, kind: str, forward: bool, x: Any, n: Any, axis: Any, norm: Any, out: Any) -> Tensor:
    x = _tensor(api, x, kind)
    norm = _norm(api, norm)
    a = _axis(api, x, -1 if axis is None else axis)
    s = None if n is None else (_size(api, "n", n),)
    return _run(api, kind, x, (a,), s, norm, forward, out)


def _n_d(api: str, kind: str, forward: bool, x: Any, s: Any, axes: Any, norm: Any, out: Any,
         count: int | None) -> Tensor:
    x = _tensor(api, x, kind)
    norm = _norm(api, norm)
    axes, s = _axes_sizes(api, x, s, axes, count)
    return _run(api, kind, x, axes, s, norm, forward, out)


def _with_aliases(api: str, aliases: dict[str, Any], where: str, x: Any, axes: Any, default: Any) -> tuple[Any, Any]:
    """``x`` and the axis argument ``where`` (``axis`` or ``axes``) with Paddle's keyword aliases (``input``,
    ``dim``) applied: given twice, or an unknown keyword, is a TypeError."""
    a = _aliased(api, aliases, where)
    extra = set(a) - {"x", where}
    if extra:
        raise TypeError(f"paddle.fft.{api}() got an unexpected keyword argument {sorted(extra)[0]!r}.")
    if "x" in a:
        if x is not None:
            raise TypeError(f"paddle.fft.{api}() got multiple values for argument 'x'; pass x or input.")
        x = a["x"]
    if where in a:
        if axes != default:
            raise TypeError(f"paddle.fft.{api}() got both {where!r} and its alias 'dim'; pass one of them.")
        axes = a[where]
    return x, axes


# ---- 1-D -------------------------------------------------------------------------------------------------------
def _make_1d(api: str, kind: str, forward: bool, doc: str) -> Any:
    def fn(x: Any = None, n: int | None = None, axis: int = -1, norm: str = "backward", name: str | None = None,
           *, out: Tensor | None = None, **aliases: Any) -> Tensor:
        if aliases:
            x, axis = _with_aliases(api, aliases, "axis", x, axis, -1)
        return _one_d(api, kind, forward, x, n, axis, norm, out)

    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = doc
    return fn


def _make_nd(api: str, kind: str, forward: bool, count: int | None, doc: str) -> Any:
    default_axes = (-2, -1) if count == 2 else None

    def fn(x: Any = None, s: Sequence[int] | None = None, axes: Sequence[int] | None = default_axes,
           norm: str = "backward", name: str | None = None, *, out: Tensor | None = None, **aliases: Any) -> Tensor:
        if aliases:
            x, axes = _with_aliases(api, aliases, "axes", x, axes, default_axes)
        return _n_d(api, kind, forward, x, s, axes, norm, out, count)

    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = doc
    return fn


fft = _make_1d("fft", "c2c", True, "The 1-D discrete Fourier transform of x along axis (length n).")
ifft = _make_1d("ifft", "c2c", False, "The 1-D inverse discrete Fourier transform of x along axis (length n).")
rfft = _make_1d("rfft", "r2c", True, "The one-sided 1-D transform of the real x along axis (n // 2 + 1 outputs).")
irfft = _make_1d("irfft", "c2r", False,
                 "The real inverse of rfft: n real outputs (default 2 * (m - 1)) from a one-sided spectrum.")
hfft = _make_1d("hfft", "c2r", True,
                "The real transform of a Hermitian-symmetric signal given by its first half (n outputs).")
ihfft = _make_1d("ihfft", "r2c", False, "The inverse of hfft: the one-sided inverse transform of the real x.")
fft2 = _make_nd("fft2", "c2c", True, 2, "The 2-D discrete Fourier transform over axes (default the last two).")
ifft2 = _make_nd("ifft2", "c2c", False, 2, "The 2-D inverse discrete Fourier transform over axes.")
rfft2 = _make_nd("rfft2", "r2c", True, 2, "The 2-D transform of the real x, one-sided along the last axis.")
irfft2 = _make_nd("irfft2", "c2r", False, 2, "The real inverse of rfft2.")
hfft2 = _make_nd("hfft2", "c2r", True, 2, "The 2-D real transform of a Hermitian-symmetric signal.")
ihfft2 = _make_nd("ihfft2", "r2c", False, 2, "The inverse of hfft2.")
fftn = _make_nd("fftn", "c2c", True, None,
                "The n-D discrete Fourier transform over axes (default all, or the last len(s)).")
ifftn = _make_nd("ifftn", "c2c", False, None, "The n-D inverse discrete Fourier transform over axes.")
rfftn = _make_nd("rfftn", "r2c", True, None, "The n-D transform of the real x, one-sided along the last axis.")
irfftn = _make_nd("irfftn", "c2r", False, None, "The real inverse of rfftn.")
hfftn = _make_nd("hfftn", "c2r", True, None, "The n-D real transform of a Hermitian-symmetric signal.")
ihfftn = _make_nd("ihfftn", "r2c", False, None, "The inverse of hfftn.")


# ---- frequencies -----------------------------------------------------------------------------------------------
def _freq_args(api: str, n: Any, d: Any, dtype: Any) -> tuple[int, float, Any]:
    if api == "rfftfreq" and isinstance(n, float) and n.is_integer():
        n = int(n)  # (Paddle's rfftfreq computes with an integral float n; its fftfreq refuses one)
    if isinstance(n, bool | np.bool_) or not isinstance(n, int | np.integer):
        raise TypeError(f"paddle.fft.{api}: n must be an int (the number of samples), but received {n!r} "
                        f"({type(n).__name__}). Pass an int, e.g. int(n).")
    n = int(n)
    if isinstance(d, Tensor):
        d = d.item()
    if isinstance(d, bool) or not isinstance(d, int | float | np.integer | np.floating):
        raise TypeError(f"paddle.fft.{api}: d must be a number (the sample spacing), but received {d!r} "
                        f"({type(d).__name__}). Pass a float.")
    if n * d == 0:
        raise ValueError(f"paddle.fft.{api}: n and d must be nonzero, but received n={n}, d={d}. Pass n >= 1 and "
                         "a nonzero spacing d.")
    if n < 0:
        raise ValueError(f"paddle.fft.{api}: n must be a positive number of samples, but received {n}. Pass n >= 1.")
    name = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_paddle(dtype).name
    if name not in ("float32", "float64", *_INTS[:4]):
        raise RuntimeError(f"paddle.fft.{api}: dtype must be float32, float64 or an integer dtype (whose "
                           f"frequencies are of the default float dtype), but received {name}. Pass 'float32' or "
                           "'float64'.")
    return n, float(d), name


def _freq(api: str, start: int, stop: int, shift: int, val: float, dtype: str, out: Any, device: Any,
          requires_grad: Any) -> Tensor:
    # Paddle's computation: arange in dtype, rolled, times the Python float 1 / (n * d)
    idx = apply_op(TABLE["arange"], (start, stop, 1, dtype), {})
    if shift:
        idx = apply_op(TABLE["roll"], (idx, shift), {})
    ret = placed(idx * val, f"paddle.fft.{api}", device, requires_grad)
    return _out(api, ret, out)


def fftfreq(n: int, d: float = 1.0, dtype: Any = None, name: str | None = None, *, out: Tensor | None = None,
            device: Any = None, requires_grad: bool = False) -> Tensor:
    """The sample frequencies of an n-point DFT with spacing d: ``[0, 1, ..., -2, -1] / (d * n)``."""
    n, d, dtype = _freq_args("fftfreq", n, d, dtype)
    return _freq("fftfreq", -(n // 2), (n + 1) // 2, -(n // 2), 1.0 / (n * d), dtype, out, device, requires_grad)


def rfftfreq(n: int, d: float = 1.0, dtype: Any = None, name: str | None = None, *, out: Tensor | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """The sample frequencies of rfft's n // 2 + 1 outputs with spacing d: ``[0, 1, ..., n // 2] / (d * n)``."""
    n, d, dtype = _freq_args("rfftfreq", n, d, dtype)
    return _freq("rfftfreq", 0, n // 2 + 1, 0, 1.0 / (n * d), dtype, out, device, requires_grad)


# ---- shifts ----------------------------------------------------------------------------------------------------
def _shift(api: str, x: Any, axes: Any, kwargs: dict[str, Any], inverse: bool) -> Tensor:
    if kwargs:
        x, axes = _with_aliases(api, kwargs, "axes", x, axes, None)
    if not isinstance(x, Tensor):
        raise TypeError(f"paddle.fft.{api}: x must be a Tensor, but received {type(x).__name__}. Make one with "
                        "paddle.to_tensor(...) first.")
    if x.ndim == 0:
        raise ValueError(f"paddle.fft.{api}: x must have at least 1 dimension, but received a 0-D tensor; there "
                         "is nothing to shift. Reshape it to [1], or leave it as it is.")
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, Sequence) and not isinstance(axes, str):
        axes = tuple(axes)
    else:
        axes = (axes,)
    axes = tuple(_axis(api, x, a, "each entry of axes") for a in axes)
    shape = x.shape
    shifts = tuple((shape[a] + 1) // 2 if inverse else shape[a] // 2 for a in axes)
    return apply_op(TABLE["roll"], (x, shifts, axes), {})


def fftshift(x: Any = None, axes: Sequence[int] | int | None = None, name: str | None = None,
             **aliases: Any) -> Tensor:
    """x with the zero-frequency entry moved to the centre along axes (default all): each rolled by half its size."""
    return _shift("fftshift", x, axes, aliases, False)


def ifftshift(x: Any = None, axes: Sequence[int] | int | None = None, name: str | None = None,
              **aliases: Any) -> Tensor:
    """The inverse of fftshift: each axis rolled back by half its size, rounded up."""
    return _shift("ifftshift", x, axes, aliases, True)
