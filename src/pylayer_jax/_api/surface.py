"""Tensor methods and functions that read their arguments before a table op runs, or need no op (layer L5).

- ``index_put`` / ``index_put_``: a bool index tensor stands for the positions of its True entries (read from its
  values, so eager only), as in Paddle; integer indices go to the ``index_put`` op as they are;
- ``norm`` (``paddle.norm``, ``Tensor.norm``): Paddle's other names ``ord`` and ``dim`` for ``p`` and ``axis``;
- ``Tensor.masked_select``, ``Tensor.rank``: the functions as methods;
- ``Tensor.element_size``: bytes per element;
- ``Tensor.copy_``: the values (and shape) of another tensor of the same dtype written in, outside autograd;
- ``uniform_`` (``paddle.uniform_``, ``Tensor.uniform_``): uniform samples written in place;
- ``Tensor.new_zeros`` / ``new_ones`` / ``new_empty`` / ``new_full``: a new tensor of a given size with this tensor's
  dtype and device unless told otherwise, as in Paddle 3.3.1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._ops.table import TABLE
from .._runtime.transfer import put
from .._tensor import device as _device
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, _Tracer
from .._tensor.methods import check_inplace_leaf, inplace_assign, write_result, write_values
from .._tensor.spread import checked_fill, checked_shape
from .irregular import rank as _rank
from .linalg import norm as norm
from .random import uniform as _uniform
from .variadic import masked_select as _masked_select


def _int_indices(indices: Any, api: str) -> Any:
    """``indices`` with each bool tensor replaced by the integer indices of its True entries (one tensor per
    dimension it spans)."""
    if not isinstance(indices, list | tuple):
        return indices
    out: list[Any] = []
    for ix in indices:
        dt = getattr(ix, "dtype", None)
        if dt is not None and np.dtype(getattr(ix, "_v", ix).dtype) == np.bool_:
            if isinstance(ix, Tensor) and (isinstance(ix._value, _Tracer) or ix._symbolic):
                raise RuntimeError(
                    f"{api}: a bool index stands for the positions of its True entries, which depend on its values, "
                    "so it cannot be traced. Pass integer index tensors (paddle.nonzero(mask, as_tuple=True))."
                )
            out.extend(Tensor(put(part)) for part in np.nonzero(np.asarray(ix.numpy())))
        else:
            out.append(ix)
    return tuple(out) if isinstance(indices, tuple) else out


def index_put(x: Any, indices: Any, value: Any, accumulate: bool = False, name: str | None = None) -> Tensor:
    """``x`` with ``value`` written at ``x[indices]`` (summed there with ``accumulate=True``): the ``index_put``
    op, a bool index read as the positions of its True entries."""
    return apply_op(TABLE["index_put"], (x, _int_indices(indices, "index_put"), value, accumulate))


def index_put_(x: Any, indices: Any, value: Any, accumulate: bool = False, name: str | None = None) -> Tensor:
    """In-place ``index_put``: writes the result into ``x`` (same shape and dtype) and returns it."""
    if not isinstance(x, Tensor):
        raise TypeError(f"index_put_: x must be a Tensor (it is written in place), but received {type(x).__name__}.")
    check_inplace_leaf(x, "Tensor.index_put_")
    r = apply_op(TABLE["index_put"], (x, _int_indices(indices, "index_put_"), value, accumulate))
    return write_result(x, r, "Tensor.index_put_")


def _element_size(self: Tensor) -> int:
    """The size of one element in bytes (4 for float32, 1 for bool)."""
    return int(np.dtype(self._v.dtype).itemsize)


def _copy_(self: Tensor, src: Any, blocking: bool = True) -> Tensor:
    """Write ``src``'s values into this tensor, taking its shape too, as Paddle's ``copy_`` does: a plain copy of
    the data, outside autograd (no gradient reaches ``src``; this tensor's own history stays). ``src`` must be a
    Tensor of the same dtype."""
    if not isinstance(src, Tensor):
        raise TypeError(f"Tensor.copy_: src must be a Tensor, but received {type(src).__name__}. Convert it with "
                        "paddle.to_tensor first.")
    if src.dtype != self.dtype:
        # (Paddle's error here is a RuntimeError)
        raise RuntimeError(
            f"Tensor.copy_: src has dtype {src.dtype.name}, but this tensor is {self.dtype.name}; copy_ does not "
            f"convert. Pass src.astype('{self.dtype.name}')."
        )
    return write_values(self, src, "Tensor.copy_")


def uniform_(x: Tensor, min: float = 0.0, max: float = 1.0, seed: int = 0,  # noqa: A002
             name: str | None = None) -> Tensor:
    """Overwrite every element of ``x`` in place with samples uniform in ``[min, max)`` (a non-zero ``seed`` gives a
    fixed draw) and return it; gradients through the old values stop, as in Paddle."""
    if not isinstance(x, Tensor):
        raise TypeError(f"uniform_: x must be a Tensor (it is written in place), but received {type(x).__name__}.")
    self = x
    check_inplace_leaf(self, "Tensor.uniform_")
    if not np.issubdtype(np.dtype(self._v.dtype), np.floating):
        raise TypeError(
            f"Tensor.uniform_: the tensor must be floating (float16, bfloat16, float32 or float64), but it is "
            f"{self.dtype.name}. Cast it first."
        )
    draw = _uniform(self.shape, self.dtype, min, max, seed)
    r = apply_op(TABLE["setitem"], (self, [], draw, ("...",)))
    return inplace_assign(self, r, "Tensor.uniform_")


def _new(api: str, self: Tensor, size: Any, fill: Any, dtype: Any, device: Any, requires_grad: bool,
         pin_memory: bool) -> Tensor:
    """A new tensor of ``size`` holding ``fill`` (None: uninitialised), in ``dtype`` (default this tensor's) on
    ``device`` (default this tensor's), trainable with ``requires_grad``, in pinned host memory with ``pin_memory``."""
    shape = checked_shape(api, size, "size")
    dt = self.dtype if dtype is None else dtype
    if fill is None:
        out = apply_op(TABLE["empty"], (shape, dt))
    else:
        out = apply_op(TABLE["full"], (shape, checked_fill(api, fill), dt))
    return _device.placed(out, api, device, requires_grad, pin_memory, like=self)


def _sizes(api: str, size: tuple, kwargs: dict[str, Any]) -> Any:
    """Paddle's spellings of the size: ints one at a time (``x.new_zeros(2, 3)``), one int, list, tuple or Tensor,
    or ``size=``."""
    if "size" in kwargs:
        if size:
            raise TypeError(f"{api}() got multiple values for argument 'size'. Pass the size once.")
        return kwargs.pop("size")
    if not size:
        raise TypeError(f"{api}() missing 1 required positional argument: 'size'.")
    if len(size) > 1 and not (isinstance(size[0], int) and not isinstance(size[0], bool)):
        raise TypeError(f"{api}() takes the size as ints one at a time or as one list or tuple, but received "
                        f"{len(size)} positional arguments starting with {size[0]!r}. Pass dtype= and the rest by "
                        "keyword.")
    return list(size) if len(size) > 1 else size[0]


def _maker(name: str, fill: Any, doc: str) -> Any:
    api = f"Tensor.{name}"

    def m(self: Tensor, *size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
          pin_memory: bool = False, **kwargs: Any) -> Tensor:
        shape = _sizes(api, size, kwargs)
        if kwargs:
            raise TypeError(f"{api}() got an unexpected keyword argument {sorted(kwargs)[0]!r}.")
        return _new(api, self, shape, fill, dtype, device, requires_grad, pin_memory)

    m.__name__ = m.__qualname__ = name
    m.__doc__ = doc
    return m


_new_zeros = _maker("new_zeros", 0, "A new tensor of zeros of ``size`` (ints one at a time, or one list or tuple), "
                    "in this tensor's dtype and on its device unless ``dtype`` / ``device``; ``requires_grad=True`` "
                    "makes it trainable.")
_new_ones = _maker("new_ones", 1, "A new tensor of ones of ``size``, as ``new_zeros``.")
_new_empty = _maker("new_empty", None, "A new uninitialised tensor of ``size``, as ``new_zeros`` (its values are "
                    "unspecified; here zeros).")


def _new_full(self: Tensor, size: Any, fill_value: Any, *, dtype: Any = None, device: Any = None,
              requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A new tensor of ``size`` (an int, list or tuple) filled with ``fill_value`` (a number, a str such as
    ``'inf'``, or a one-element Tensor), in this tensor's dtype and on its device unless ``dtype`` / ``device``;
    ``requires_grad=True`` makes it trainable."""
    return _new("Tensor.new_full", self, size, fill_value, dtype, device, requires_grad, pin_memory)


def _norm_method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    return norm(self, *args, **kwargs)


def _index_put_method(self: Tensor, indices: Any, value: Any, accumulate: bool = False,
                      name: str | None = None) -> Tensor:
    return index_put(self, indices, value, accumulate)


def _masked_select_method(self: Tensor, mask: Any, name: str | None = None) -> Tensor:
    return _masked_select(self, mask)


def _rank_method(self: Tensor) -> Tensor:
    return _rank(self)


for _n, _f, _doc in (
    ("norm", _norm_method, norm.__doc__), ("index_put", _index_put_method, index_put.__doc__),
    ("index_put_", index_put_, index_put_.__doc__), ("masked_select", _masked_select_method, _masked_select.__doc__),
    ("rank", _rank_method, _rank.__doc__), ("element_size", _element_size, _element_size.__doc__),
    ("copy_", _copy_, _copy_.__doc__), ("uniform_", uniform_, uniform_.__doc__),
    ("new_zeros", _new_zeros, _new_zeros.__doc__), ("new_ones", _new_ones, _new_ones.__doc__),
    ("new_empty", _new_empty, _new_empty.__doc__), ("new_full", _new_full, _new_full.__doc__),
):
    _f.__name__ = _f.__qualname__ = _n
    _f.__doc__ = _doc
    setattr(Tensor, _n, _f)
