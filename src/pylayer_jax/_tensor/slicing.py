"""``slice``, ``strided_slice``, ``narrow`` and ``crop`` (functions and Tensor methods) whose starts may move.

Layer L4. These take their starts as attributes, so each new start is a new kernel, and a loop that cuts its
minibatches out of one data Tensor with them (``paddle.slice(X, [0], [i * bs], [(i + 1) * bs])``) compiled its
step again for every batch of a first epoch. Under the policy of basic indexing (``methods._moves``) a call is
the op itself (its starts in the kernel's key) while its form (the tensor's shape, the axes, the lengths and
steps taken) has taken at most ``MOVING_KEPT`` positions; from then on it is ``getitem_at``, the positions its
inputs, so a new position compiles nothing. A call goes that way only when the op would accept it (the axes in
range, the starts, ends, lengths and strides ints, or concrete Tensors of ints): the op takes every other call,
and raises what it raises. The positions are normalised here the way each op reads them (Paddle's clamping for
``slice``, Python's slice rule for ``strided_slice``, a negative ``narrow`` start counted from the end), so both
ways give the same values, the same gradients and the same saved tensors (none: an int position is no tensor).
"""

from __future__ import annotations

import builtins
from typing import Any

import jax
import numpy as np

from .._ops.indexing import SPAN
from .._ops.table import TABLE, Op
from .._runtime.state import modes
from . import methods
from .dispatch import apply_op
from .facade import EAGER_TYPES, Tensor
from .views import link

_GETITEM_AT = TABLE["getitem_at"]
_EMPTY = ("slice", 0, 0, None)  # an axis cut to no element: its position does not matter


def _ints(v: Any) -> tuple[int, ...] | None:
    """``v`` (an int, a concrete Tensor or numpy value of ints, or a list or tuple of such ints) as a tuple of
    ints, as the op's attribute normalisation reads it; None for anything else (the op then says what is
    wrong)."""
    if type(v) is list or type(v) is tuple:
        for e in v:
            if type(e) is not int:
                break
        else:
            return tuple(v)
    v = _host(v)
    if type(v) is int:
        return (v,)
    if not isinstance(v, list | tuple):
        return None
    out = []
    for e in v:
        e = _host(e)
        if type(e) is not int:
            return None
        out.append(e)
    return tuple(out)


def _int(v: Any) -> int | None:
    v = _host(v)
    return v if type(v) is int else None


def _host(v: Any) -> Any:
    if isinstance(v, Tensor):
        return None if isinstance(v._v, jax.core.Tracer) else v.tolist()
    if isinstance(v, np.ndarray | np.generic):
        return v.tolist()
    return v


def _bind(op: Op, args: tuple, kwargs: dict) -> dict | None:
    """The call's arguments by parameter name (defaults filled in), when ``x`` is a concrete eager Tensor outside
    a static program; None otherwise."""
    if modes.static_program is not None:
        return None
    params = op.signature.parameters
    if not kwargs and len(args) == len(params):
        a = dict(zip(params, args))
    else:
        kwargs = dict(kwargs)
        kwargs.pop("name", None)
        try:
            bound = op.signature.bind(*args, **kwargs)
        except TypeError:
            return None
        bound.apply_defaults()
        a = bound.arguments
    x = a[op.tensor_names[0]]
    if type(x) not in EAGER_TYPES or isinstance(x._v, jax.core.Tracer):
        return None
    return a


def _axis(a: int, ndim: int) -> int | None:
    return a % ndim if ndim and -ndim <= a < ndim else None


def _span(a: int, length: int, step: int, n: int) -> tuple[Any, int | None]:
    """The ``getitem_at`` entry of ``length`` elements of an axis of size ``n`` from ``a`` on, ``step`` apart, and
    its position (None: the entry has none)."""
    if length == 0:
        return _EMPTY, None
    if step == 1:
        return ((SPAN, length), a) if length < n else (methods._WHOLE, None)
    return (SPAN, length, step), (a if step > 0 else a + (length - 1) * step)


def _route(op: Op, x: Tensor, cuts: dict[int, tuple[int, int, int]], args: tuple, kwargs: dict) -> Any:
    """``x`` cut along each axis of ``cuts`` (axis -> (first index, length, step), in range), through
    ``getitem_at`` once the form has moved, else through ``op`` with the call's own arguments."""
    spec: list[Any] = []
    starts: list[int] = []
    shape = x._v.shape
    for d, n in enumerate(shape[:max(cuts, default=-1) + 1]):
        entry, start = _span(*cuts[d], n) if d in cuts else (methods._WHOLE, None)
        spec.append(entry)
        if start is not None:
            starts.append(start)
    if starts:
        spec_at = tuple(spec)
        if methods._moves(((tuple(shape), spec_at), spec_at, tuple(starts)), "get"):
            r = apply_op(_GETITEM_AT, (x, starts, spec_at))
            return link(r, x, op, args, kwargs) if op is not _CROP else r
    r = apply_op(op, args, kwargs)
    # slice, strided_slice and narrow give views, as in Paddle
    return link(r, x, op, args, kwargs) if op is not _CROP else r


def _clamp(v: int, n: int) -> int:
    return builtins.min(builtins.max(v + n if v < 0 else v, 0), n)


_SLICE = TABLE["slice"]


def slice(*args: Any, **kwargs: Any) -> Any:  # noqa: A001
    a = _bind(_SLICE, args, kwargs)
    if a is not None:
        x = a["input"]
        dims = x._v.shape
        axes, starts, ends = _ints(a["axes"]), _ints(a["starts"]), _ints(a["ends"])
        if axes is not None and starts is not None and ends is not None and len(axes) == len(starts) == len(ends):
            cuts = {}
            for ax, s, e in zip(axes, starts, ends):
                d = _axis(ax, len(dims))
                if d is None or d in cuts:  # (an axis named twice: the op's error)
                    break
                n = dims[d]
                s, e = _clamp(s, n), _clamp(e, n)
                cuts[d] = (s, builtins.max(e - s, 0), 1)
            else:
                return _route(_SLICE, x, cuts, args, kwargs)
    return apply_op(_SLICE, args, kwargs)


_STRIDED_SLICE = TABLE["strided_slice"]


def strided_slice(*args: Any, **kwargs: Any) -> Any:
    a = _bind(_STRIDED_SLICE, args, kwargs)
    if a is not None:
        x = a["x"]
        dims = x._v.shape
        axes, starts, ends, strides = (_ints(a[k]) for k in ("axes", "starts", "ends", "strides"))
        if (axes is not None and starts is not None and ends is not None and strides is not None
                and len(axes) == len(starts) == len(ends) == len(strides)):
            cuts = {}
            for ax, s, e, st in zip(axes, starts, ends, strides):
                d = _axis(ax, len(dims))
                if d is None or st == 0 or ax < 0:  # (a negative axis: the op's error, as Paddle's)
                    break
                first, stop, step = builtins.slice(s, e, st).indices(dims[d])
                cuts[d] = (first, len(range(first, stop, step)), step)
            else:
                return _route(_STRIDED_SLICE, x, cuts, args, kwargs)
    return apply_op(_STRIDED_SLICE, args, kwargs)


_NARROW = TABLE["narrow"]


def narrow(*args: Any, **kwargs: Any) -> Any:
    a = _bind(_NARROW, args, kwargs)
    if a is not None:
        x = a["input"]
        dims = x._v.shape
        dim, start, length = a["dim"], _int(a["start"]), _int(a["length"])
        d = _axis(dim, len(dims)) if type(dim) is int else None
        if d is not None and start is not None and length is not None:
            n = dims[d]
            s = start + n if start < 0 else start
            if 0 <= s <= n and 0 <= length <= n - s:
                return _route(_NARROW, x, {d: (s, length, 1)}, args, kwargs)
    return apply_op(_NARROW, args, kwargs)


_CROP = TABLE["crop"]


def crop(*args: Any, **kwargs: Any) -> Any:
    a = _bind(_CROP, args, kwargs)
    if a is not None:
        x = a["x"]
        dims = x._v.shape
        shape = tuple(dims) if a["shape"] is None else _ints(a["shape"])
        offsets = (0,) * len(dims) if a["offsets"] is None else _ints(a["offsets"])
        if shape is not None and offsets is not None and len(shape) == len(offsets) == len(dims):
            cuts = {}
            for d, (o, s, n) in enumerate(zip(offsets, shape, dims)):
                length = n - o if s == -1 else s
                if not (0 <= o <= n and 0 <= length <= n - o):
                    break
                cuts[d] = (o, length, 1)
            else:
                return _route(_CROP, x, cuts, args, kwargs)
    return apply_op(_CROP, args, kwargs)


def _as_method(fn: Any, op: Op) -> Any:
    def m(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        return fn(self, *args, **kwargs)

    m.__name__ = m.__qualname__ = op.name
    m.__doc__ = op.doc
    return m


for _fn, _op in ((slice, _SLICE), (strided_slice, _STRIDED_SLICE), (narrow, _NARROW), (crop, _CROP)):
    _fn.__doc__, _fn.__signature__ = _op.doc, _op.signature  # type: ignore[attr-defined]
    setattr(Tensor, _op.name, _as_method(_fn, _op))
