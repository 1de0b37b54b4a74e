"""Tensors whose shape changes in place, and an empty one to fill (layer L5): ``Tensor.resize_`` and ``Tensor.set_``
(also ``paddle.tensor.resize_`` / ``set_``, as functions of ``x``) and ``paddle.tensor.create_tensor``.

In Paddle 3.3.1 ``x.set_(source, shape, stride, offset)`` makes ``x`` a view of ``source``'s memory with the shape,
strides and byte offset given, and ``x.resize_(shape)`` is ``x.set_(x, shape)`` (a longer ``shape`` with ``fill_zero``
takes a zero-padded copy). Here a Tensor holds an immutable array, and Tensors sharing memory form a group
(``_tensor.views``): ``set_`` takes ``source``'s elements (``as_strided``'s rule over its row-major elements) and
joins ``source``'s group, so that a later write to either reaches the other, as in Paddle; ``resize_`` keeps ``x`` in
its group where it keeps its first elements. Both bump ``x``'s version (``x`` keeps its own counter: in Paddle
``source``'s is not shared either).

Gradients: Paddle's ``set_`` has no backward, so ``x`` keeps its history (a leaf stays a leaf, no gradient reaches
``source``); where that history's shape would no longer be ``x``'s, this raises instead (Paddle's gradients there have
the old shape). ``resize_`` is recorded as an op here (the gradient of a kept element flows to it, a dropped one gets
none); Paddle keeps the old history there too, whose gradient has the old shape.

Where Paddle reads memory it does not own or gives undefined values, these raise or define them instead (tested in
``tests/tensor/test_storage.py``):

- ``resize_`` to a larger size without ``fill_zero`` ("the filled value will be undetermined"): zeros;
- ``set_`` positions past the end of ``source``, or an offset that is no whole number of elements: an IndexError /
  ValueError (Paddle reads past the memory);
- a ``source`` of another dtype: a TypeError (Paddle reads its bytes as ``x``'s dtype);
- ``set_`` with ``shape``/``stride``/``offset`` over a ``source`` whose elements do not lie contiguously (a
  transpose, a column slice): a ValueError (Paddle counts from the start of the memory behind it, giving another
  Tensor's values); ``x.resize_(...)`` of a contiguous view keeps its own first elements (Paddle's start again at the
  start of the memory: ``base[2:].resize_([2])`` gives ``base[:2]``);
- ``resize_`` of an empty Tensor to a larger size with ``fill_zero``: zeros (Paddle divides by zero).
"""

from __future__ import annotations

import math
import operator
import weakref
from collections.abc import Sequence
from typing import Any

import jax
import numpy as np

from .._ops.shape import _strided_positions
from .._ops.table import TABLE
from .._runtime import dtypes as _dtypes
from .._runtime import unique_name
from .._runtime.state import grad_mode, modes
from .._runtime.transfer import put
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, before_write, grad_written
from .._tensor.methods import inplace_assign
from .._tensor.views import Link, _positions, _unlink, check_write, is_contiguous, link


def _dynamic(api: str) -> None:
    if modes.static_mode:  # (Paddle 3.3.1 falls back to an out-of-place form that does not exist: AttributeError)
        raise NotImplementedError(f"{api} changes a Tensor in place, which only dynamic mode does (Paddle 3.3.1 has "
                                  "no static form of it either). Call it after paddle.disable_static().")


def _leaf_check(api: str, x: Tensor) -> None:
    """Paddle's check (under ``no_grad`` too): a leaf that trains cannot change in place."""
    if x._edge is None and not x.stop_gradient:
        raise ValueError(f"{api}: (InvalidArgument) Leaf Tensor {x.name} that doesn't stop gradient can't use inplace "
                         "strategy. Change a copy (x.detach().clone()), or set x.stop_gradient = True first.")


def _shape(api: str, shape: Any, what: str = "shape") -> list[int]:
    if not isinstance(shape, list | tuple):
        raise ValueError(f"{api}: Input ({what}) should be list or tuple but received {type(shape)}. Pass e.g. "
                         f"[2, 3].")
    out = []
    for i, d in enumerate(shape):
        if isinstance(d, bool | np.bool_) or not isinstance(d, int | np.integer):
            raise TypeError(f"{api}: every entry of {what} must be an int, but {what}[{i}] is {d!r} "
                            f"({type(d).__name__}). Pass ints.")
        out.append(operator.index(d))
    bad = [i for i, d in enumerate(out) if d < 0]
    if bad and what == "shape":
        raise ValueError(f"{api}: each value of shape is expected to be no less than 0, but received shape[{bad[0]}] "
                         f"= {out[bad[0]]}; shape = {out}. Pass sizes >= 0.")
    return out


def _contiguous_strides(shape: Sequence[int]) -> list[int]:
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(d, 1)
    return strides[::-1]


def _relink(x: Tensor, positions: np.ndarray, group: Any) -> None:
    """Put ``x`` (its value now of ``positions``' shape) back into ``group`` at ``positions`` of the shared data."""
    lk = Link(None, None, (), None, None, group, tuple(positions.shape))
    lk.idx = positions
    x._view = lk
    if not any(r() is x for r in group):
        group.append(weakref.ref(x))


def resize_(x: Tensor, shape: Sequence[int], fill_zero: bool = False, name: str | None = None) -> Tensor:
    """Give ``x`` the shape ``shape`` in place and return it: its first ``prod(shape)`` elements (row-major) where
    that is no more than it has; else all of them followed by zeros (``fill_zero``; Paddle leaves the new elements
    undetermined without it, zeros here too). ``x`` stays a view of the Tensors it shares data with where it keeps
    its own first elements; a Tensor whose elements do not lie contiguously (``x.T``, ``x[:, 1:]``) can only be
    resized to its own shape, as in Paddle."""
    api = "Tensor.resize_"
    _dynamic(api)
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: x must be a Tensor (it is changed in place), but received {type(x).__name__}.")
    shape = _shape(api, shape)
    _leaf_check(api, x)
    old_shape = list(x.shape)
    old, new = math.prod(old_shape), math.prod(shape)
    lk = getattr(x, "_view", None)
    if shape != old_shape and not is_contiguous(x):
        raise ValueError(f"{api}: x is a view whose elements do not lie one after another in memory (x.T, x[:, 1:], "
                         f"a strided slice), which Paddle resizes only to its own shape {old_shape}, but received "
                         f"{shape}. Resize a contiguous copy: x = x.contiguous(); x.resize_(...).")
    if shape != old_shape and x._edge is not None and not modes.grad_enabled:
        raise ValueError(f"{api}: x has a history (it is the result of ops that need gradients) of shape {old_shape}, "
                         f"and under no_grad it would keep it with the new shape {shape} (Paddle then gives "
                         "gradients of the old shape). Resize it with gradients enabled, or x.detach() it first.")
    positions = None
    if lk is not None and new <= old:
        check_write(x, api)
        p = _positions(lk)
        positions = None if p is None else p.reshape(-1)[:new].reshape(shape)
    if new <= old:
        r = apply_op(TABLE["as_strided"], (x, shape, _contiguous_strides(shape), 0))
    else:
        flat = apply_op(TABLE["reshape"], (x, [-1]))
        zeros = Tensor(put(np.zeros(new - old, x.dtype.np_dtype)))
        r = apply_op(TABLE["reshape"], (apply_op(TABLE["concat"], ([flat, zeros], 0)), shape))
    group = lk.group if lk is not None else None
    inplace_assign(x, r, api)  # (a changed size leaves x's group: it is relinked below where it keeps its elements)
    if positions is not None and group is not None:
        if getattr(x, "_view", None) is not None:
            _unlink(x)
        _relink(x, positions, group)
    return x


def _set_checks(api: str, x: Tensor, source: Tensor, shape: Any, stride: Any, offset: Any) -> tuple:
    if source.dtype != x.dtype:
        raise TypeError(f"{api}: source must have x's dtype {x.dtype.name}, but it is {source.dtype.name} (Paddle reads "
                        f"its bytes as {x.dtype.name}). Cast it first: source.astype('{x.dtype.name}').")
    full = shape is None and stride is None and not offset
    if shape is not None:
        shape = _shape(api, shape)
    if stride is not None:
        stride = _shape(api, stride, "stride")
    if isinstance(offset, bool | np.bool_) or not isinstance(offset, int | np.integer):
        raise TypeError(f"{api}: offset must be an int (a number of bytes), but received {offset!r}.")
    offset = operator.index(offset)
    item = x.dtype.np_dtype.itemsize
    if offset < 0 or offset % item:
        raise ValueError(f"{api}: offset counts bytes from the start of source and must be a whole number of "
                         f"{x.dtype.name} elements ({item} bytes each) >= 0, but received {offset}. Pass a multiple of "
                         f"{item}.")
    if full:
        return True, list(source.shape), None, 0
    if shape is None:
        shape = list(source.shape)
    if stride is None:
        stride = _contiguous_strides(shape)
    if len(stride) != len(shape):
        raise ValueError(f"{api}: stride needs one entry per axis of shape, but received shape {shape} and stride "
                         f"{stride}. Pass as many strides as sizes (or stride=None for a contiguous layout).")
    if not is_contiguous(source):
        raise ValueError(f"{api}: source is a view whose elements do not lie one after another in memory (x.T, "
                         "x[:, 1:], a strided slice); shape, stride and offset count positions in the memory behind "
                         "it, which pylayer_jax does not keep. Pass source.contiguous() (a copy), or set_(source) "
                         "alone.")
    elems = offset // item
    size = math.prod(source.shape)
    n = math.prod(shape)
    if n:
        last = elems + sum((d - 1) * s for d, s in zip(shape, stride))
        if last >= size:
            raise IndexError(f"{api}: shape {shape}, stride {stride} and offset {offset} (bytes) reach element {last} "
                             f"of source's {size} elements; every position must be in [0, {size}). Paddle reads past "
                             "the memory here; use a smaller shape, stride or offset.")
    return False, shape, stride, elems


def set_(x: Tensor, source: Tensor | None = None, shape: Sequence[int] | None = None,
         stride: Sequence[int] | None = None, offset: int = 0, name: str | None = None) -> Tensor:
    """Make ``x`` a view of ``source``'s data in place and return it: with only ``source``, ``x`` is ``source`` (its
    shape and elements); with ``shape`` (and ``stride``, default contiguous; ``offset`` in bytes) its elements are
    those of ``source`` (row-major) at ``offset / itemsize + sum(i_k * stride_k)``. Without ``source``, ``x`` becomes
    an empty Tensor of shape [0]. A later write to ``x`` or ``source`` reaches the other where they share elements.
    ``x`` keeps its dtype (``source`` must have it) and its history (no gradient reaches ``source``)."""
    api = "Tensor.set_"
    _dynamic(api)
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: x must be a Tensor (it is changed in place), but received {type(x).__name__}.")
    _leaf_check(api, x)
    if source is None:
        source, shape, stride, offset = Tensor(put(np.zeros(0, x.dtype.np_dtype))), [0], [0], 0
    elif not isinstance(source, Tensor):
        raise ValueError(f"{api}: Input (source) should be paddle.Tensor but received {type(source)}. Make one with "
                         "paddle.to_tensor(...) first.")
    full, shape, stride, elems = _set_checks(api, x, source, shape, stride, offset)
    if list(shape) != list(x.shape) and x._edge is not None:
        raise ValueError(f"{api}: x has a history (it is the result of ops that need gradients) of shape "
                         f"{list(x.shape)}, which set_ keeps (it has no gradient of its own) while x would take the "
                         f"shape {list(shape)}, so its gradients would have the wrong shape. Call set_ on a Tensor "
                         "without a history: x = x.detach(), then x.set_(...).")
    if isinstance(x._v, jax.core.Tracer) or isinstance(source._v, jax.core.Tracer) or modes.capture is not None:
        raise RuntimeError(f"{api}: inside jit.to_static or a JAX transformation; set_ makes x share source's data, "
                           "which pylayer_jax mirrors in eager code only (Paddle 3.3.1 has no static form of set_ "
                           "either). Call it outside the compiled function, or use paddle.assign(source, x) for the "
                           "values.")
    if full:
        value = source._value
        how: tuple = ()
    else:
        with grad_mode(False):
            value = apply_op(TABLE["as_strided"], (source, shape, stride, elems))._value
        how = (TABLE["as_strided"], (source, shape, stride, elems))
    counter = x._version_counter()
    if source is x:  # (x's own data in a new layout: it keeps sharing it with its views)
        lk = getattr(x, "_view", None)
        p = None if lk is None else _positions(lk)
        before_write(x)
        x._value = value
        if lk is not None:
            _unlink(x)
            if p is not None:
                q = p.reshape(-1)
                _relink(x, q.reshape(source.shape) if full else q[_strided_positions(shape, stride, elems)], lk.group)
    else:
        if getattr(x, "_view", None) is not None:
            _unlink(x)  # (x's old data stays with its views: a later write to x no longer reaches them)
        before_write(x)
        x._value = value
        link(x, source, *how)
        x._counter = counter  # (link shares source's counter; Paddle's x keeps its own)
    counter.value += 1
    counter.name = x.name  # (named in the error of a backward that saved x before this write)
    grad_written(x)
    return x


def create_tensor(dtype: Any, name: str | None = None, persistable: bool = False) -> Tensor:
    """A Tensor of ``dtype`` to fill later (``paddle.assign(value, output=t)``, ``t.set_(source)``): 0-D, named
    ``name`` (default ``create_tensor_<n>``), ``persistable`` as given, stop_gradient True. Paddle's holds no memory
    (printing it says "Not initialized", ops on it fail); this one holds a 0-D zero until it is filled."""
    if modes.static_mode:
        raise NotImplementedError("paddle.tensor.create_tensor: under paddle.enable_static() it declares an empty "
                                  "variable of the program, which pylayer_jax's static programs do not have. Use "
                                  "paddle.static.data, or create it in dynamic mode.")
    dt = _dtypes.to_paddle(_dtypes.get_default_dtype() if dtype is None else dtype)
    t = Tensor(put(np.zeros((), dt.np_dtype)), name=name if name is not None else unique_name.generate("create_tensor"))
    t.persistable = bool(persistable)
    return t


Tensor.resize_ = resize_  # type: ignore[attr-defined]
Tensor.set_ = set_  # type: ignore[attr-defined]
Tensor.create_tensor = create_tensor  # type: ignore[attr-defined]  (as in Paddle: ``x.create_tensor()`` reads x as the dtype)
