"""Public functions that are not one plain call of a table op (layer L5), second set.

- ops whose output shape depends on values (``nonzero``, ``argwhere``, ``unique``,
  ``unique_consecutive``, ``bincount``) read their input eagerly: a clear error under tracing;
- ops whose Paddle signature puts an attribute between tensors call a tensors-first kernel
  (``diff``, ``index_add``, ``index_fill``, ``scatter_add``, ``scatter_reduce``, ``histogram``), with
  their in-place variants;
- ``take`` checks indices for ``mode='raise'`` when they are concrete;
- small helpers on tensors and shapes (``is_tensor``, ``rank``, ``shape``, ``broadcast_shape`` ...).
These are also installed as Tensor methods where Paddle has them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax.numpy as jnp
import numpy as np

from .._ops.table import TABLE
from .._runtime import dtypes as _dtypes
from .._runtime.transfer import own
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, _Tracer
from .._tensor.methods import check_inplace_leaf, inplace_assign, write_result


def _eager(api: str, t: Any, what: str = "x") -> np.ndarray:
    """The concrete value of an input whose values decide the output's shape."""
    if isinstance(t, Tensor):
        if isinstance(t._value, _Tracer) or t._symbolic:
            raise RuntimeError(
                f"{api}: the output shape depends on the values of {what}, so it cannot run on a traced or static "
                "tensor (inside jax.jit, grad, vmap, to_static or a static program). Call it eagerly, outside the "
                "transform."
            )
        return np.asarray(t._value)
    return np.asarray(t)


def _need_tensor(api: str, x: Any) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: x must be a Tensor, but received {type(x).__name__}; wrap it with paddle.to_tensor.")
    return x


def _int_tensor(a: Any, dtype: Any = "int64") -> Tensor:
    return Tensor(own(np.asarray(a), _dtypes.to_np(dtype)))  # (a copy: the caller may write its array later)


# ---- data-dependent shapes (eager only) -----------------------------------------------------------
def nonzero(x: Tensor, as_tuple: bool = False) -> Any:
    """Indices of the nonzero elements: an int64 ``[N, ndim]`` tensor, or one 1-D tensor per axis."""
    a = _eager("nonzero", x)
    if a.ndim == 0:
        raise ValueError("nonzero: x must have at least 1 dimension, but received a 0-D tensor; reshape it to [1].")
    idx = np.nonzero(a)
    if as_tuple:
        return tuple(_int_tensor(i) for i in idx)
    return _int_tensor(np.stack(idx, axis=1) if idx else np.zeros((0, 0)))


def argwhere(input: Tensor) -> Tensor:
    """Indices of the nonzero elements as an int64 ``[N, ndim]`` tensor."""
    return nonzero(input)


def _index_dtype(api: str, dtype: Any) -> None:
    """The dtype of the indices and counts must be int32 or int64 (Paddle has no kernel for another)."""
    if _dtypes.to_np(dtype) not in (np.int32, np.int64):
        raise ValueError(f"{api}: dtype (of the indices and counts) must be 'int32' or 'int64', but received {dtype!r}.")


def _axis_of(api: str, axis: Any, ndim: int) -> int:
    """``axis`` as a non-negative int, or a ValueError naming the range (as Paddle's kernels check it)."""
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool) or not -ndim <= axis < ndim:
        raise ValueError(f"{api}: axis must be an int in [{-ndim}, {ndim}) for a {ndim}-D x, but received {axis!r}.")
    return int(axis) % ndim


def unique(
    x: Tensor,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    dtype: Any = "int64",
    sorted: bool = True,
    name: str | None = None,
) -> Any:
    """The sorted unique elements (or slices along ``axis``), with first indices, inverse and counts on request."""
    a = _eager("unique", x)
    _index_dtype("unique", dtype)
    if axis is not None:
        axis = _axis_of("unique", axis, a.ndim)
    # each NaN is a value of its own, as in Paddle (numpy's default merges them)
    vals, index, inverse, counts = np.unique(a, return_index=True, return_inverse=True, return_counts=True, axis=axis,
                                             equal_nan=False)
    if axis is None:
        inverse = inverse.reshape(-1)
    out: list[Tensor] = [Tensor(jnp.asarray(vals, a.dtype))]
    for want, arr in ((return_index, index), (return_inverse, inverse), (return_counts, counts)):
        if want:
            out.append(_int_tensor(arr, dtype))
    return out[0] if len(out) == 1 else tuple(out)


def unique_consecutive(
    x: Tensor,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    dtype: Any = "int64",
    name: str | None = None,
) -> Any:
    """Each run of equal consecutive elements (or slices along ``axis``) collapsed to one."""
    a = _eager("unique_consecutive", x)
    _index_dtype("unique_consecutive", dtype)
    if axis is None:
        a, ax = a.reshape(-1), 0
    else:
        ax = _axis_of("unique_consecutive", axis, a.ndim)
    moved = np.moveaxis(a, ax, 0)
    n = moved.shape[0]
    if n == 0:
        starts = np.zeros(0, np.int64)
    else:
        change = np.any((moved[1:] != moved[:-1]).reshape(n - 1, -1), axis=1)
        starts = np.concatenate([[0], np.nonzero(change)[0] + 1])
    vals = np.moveaxis(moved[starts], 0, ax)
    out: list[Tensor] = [Tensor(jnp.asarray(vals, a.dtype))]
    if return_inverse:
        out.append(_int_tensor(np.cumsum(np.isin(np.arange(n), starts)) - 1, dtype))
    if return_counts:
        out.append(_int_tensor(np.diff(np.append(starts, n)), dtype))
    return out[0] if len(out) == 1 else tuple(out)


def bincount(x: Tensor, weights: Tensor | None = None, minlength: int = 0, name: str | None = None) -> Tensor:
    """How often each value ``0..max(x)`` occurs in the 1-D non-negative integer ``x`` (or the summed ``weights``)."""
    a = _eager("bincount", x)
    if not np.issubdtype(a.dtype, np.integer):  # (Paddle: a TypeError for the dtype, a ValueError for the rank)
        raise TypeError(f"bincount: x must hold integers (int32 or int64), but received dtype {a.dtype}. Cast it "
                        "with .astype('int64').")
    if a.ndim != 1:
        raise ValueError(f"bincount: x must be a 1-D tensor, but received shape {list(a.shape)}. Flatten it first.")
    if a.size and a.min() < 0:
        raise ValueError(f"bincount: the elements of x must be non-negative, but the smallest is {a.min()}.")
    if isinstance(minlength, Tensor):
        minlength = int(minlength.item())
    if minlength < 0:
        raise ValueError(f"bincount: minlength must be >= 0, but received {minlength}.")
    if weights is None:
        return _int_tensor(np.bincount(a, minlength=minlength))
    w = _eager("bincount", weights, "weights")
    if w.shape != a.shape:
        raise ValueError(f"bincount: weights must have the shape of x ({list(a.shape)}), but received "
                         f"{list(w.shape)}.")
    dt = w.dtype if w.dtype in (np.float32, np.float64) else np.float64
    return Tensor(jnp.asarray(np.bincount(a, weights=w, minlength=minlength).astype(dt)))


# ---- Paddle's argument order over tensors-first kernels ---------------------------------------------
def take(x: Tensor, index: Tensor, mode: str = "raise", name: str | None = None) -> Tensor:
    """Elements of the flattened ``x`` at ``index``; ``mode`` 'raise' (negative indices count from the end),
    'wrap' or 'clip' for out-of-range indices."""
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"take: mode must be 'raise', 'wrap' or 'clip', but received {mode!r}.")
    dt = getattr(index, "dtype", None)
    if dt is not None and not np.issubdtype(_dtypes.to_np(dt), np.integer):
        raise TypeError(f"take: index must be an int32 or int64 tensor, but received dtype {_dtypes.to_np(dt).name}. "
                        "Cast it with .astype('int64').")
    if mode == "raise" and isinstance(index, Tensor) and not isinstance(index._value, _Tracer) and not index._symbolic:
        n, ix = int(np.prod(x.shape)), np.asarray(index._value)
        if ix.size and (ix.min() < -n or ix.max() >= n):
            raise ValueError(
                f"take: with mode='raise' every index must be in [{-n}, {n}) for an input of {n} elements, but "
                f"received indices from {ix.min()} to {ix.max()}; use mode='wrap' or 'clip'."
            )
    return apply_op(TABLE["take"], (x, index), {"mode": mode})


def diff(x: Tensor, n: int = 1, axis: int = -1, prepend: Tensor | None = None, append: Tensor | None = None,
         name: str | None = None) -> Tensor:
    """The ``n``-th forward difference along ``axis``, after joining ``prepend`` and ``append``."""
    return apply_op(TABLE["diff_op"], (x, prepend, append), {"n": n, "axis": axis})


def index_add(x: Tensor, index: Tensor, axis: int, value: Tensor, alpha: Any = 1, name: str | None = None) -> Tensor:
    """``x`` with ``alpha * value`` added to the slices ``index`` of ``axis``."""
    return apply_op(TABLE["index_add_op"], (x, index, value), {"axis": axis, "alpha": alpha})


def index_fill(x: Tensor, index: Tensor, axis: int, value: Any, name: str | None = None) -> Tensor:
    """``x`` with the slices ``index`` of ``axis`` set to ``value``."""
    return apply_op(TABLE["index_fill_op"], (x, index), {"axis": axis, "value": value})


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """``src`` summed into ``input`` along ``dim`` at ``index`` (same rank)."""
    return apply_op(TABLE["scatter_add_op"], (input, index, src), {"dim": dim})


def scatter_reduce(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True) -> Tensor:
    """``src`` reduced into ``input`` along ``dim`` at ``index``: 'sum', 'prod', 'mean', 'amin' or 'amax'."""
    return apply_op(TABLE["scatter_reduce_op"], (input, index, src), {"dim": dim, "reduce": reduce,
                                                                       "include_self": include_self})


def histogram(input: Tensor, bins: int = 100, min: float = 0.0, max: float = 0.0, weight: Tensor | None = None,
              density: bool = False, name: str | None = None) -> Tensor:
    """Counts of ``input`` in ``bins`` equal bins over ``[min, max]`` (the data's range when both are 0)."""
    return apply_op(TABLE["histogram_op"], (input, weight), {"bins": bins, "min": min, "max": max, "density": density})


def _inplace(fn: Any) -> Any:
    api = f"paddle.{fn.__name__}_"

    def inplace_fn(x: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        check_inplace_leaf(_need_tensor(api, x), api)
        return write_result(x, fn(x, *args, **kwargs), api)

    inplace_fn.__name__ = inplace_fn.__qualname__ = fn.__name__ + "_"
    inplace_fn.__doc__ = f"In-place ``{fn.__name__}``: writes the result into ``x`` and returns it."
    return inplace_fn


index_add_ = _inplace(index_add)
index_fill_ = _inplace(index_fill)
scatter_add_ = _inplace(scatter_add)


def _inplace_reshaping(op_name: str) -> Any:
    """In-place version of a shape or dtype op: ``x`` takes the result, new shape and dtype included."""
    api = f"paddle.{op_name}_"
    op = TABLE[op_name]

    def inplace_fn(x: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        check_inplace_leaf(_need_tensor(api, x), api)
        return inplace_assign(x, apply_op(op, (x, *args), kwargs), api)

    inplace_fn.__name__ = inplace_fn.__qualname__ = op_name + "_"
    inplace_fn.__doc__ = f"In-place ``{op_name}``: ``x`` holds the result (its new shape and dtype too) and is returned."
    return inplace_fn


reshape_ = _inplace_reshaping("reshape")
squeeze_ = _inplace_reshaping("squeeze")
unsqueeze_ = _inplace_reshaping("unsqueeze")
flatten_ = _inplace_reshaping("flatten")
transpose_ = _inplace_reshaping("transpose")
t_ = _inplace_reshaping("t")
cast_ = _inplace_reshaping("cast")


def where(condition: Tensor, x: Any = None, y: Any = None, name: str | None = None) -> Any:
    """``x`` where ``condition`` is true, else ``y`` (either may be a Python scalar). With neither given, as
    Paddle: the indices of the true elements, one int64 tensor per axis (``nonzero(condition, as_tuple=True)``)."""
    if x is None and y is None:
        return nonzero(condition, as_tuple=True)
    if x is None or y is None:
        raise ValueError(
            f"paddle.where: give both x and y (or neither, for the indices of the true elements), but "
            f"{'x' if x is None else 'y'} is None."
        )
    return apply_op(TABLE["where"], (condition, _default_float(x), _default_float(y)))


def _default_float(v: Any) -> Any:
    """A Python float given to ``where`` is, as in Paddle, a tensor of the default dtype (it takes part in the
    promotion: ``where(c, 1.0, x_float16)`` is float32, float64 after ``set_default_dtype('float64')``)."""
    if type(v) is float:
        return Tensor(jnp.asarray(v, _dtypes.to_np(_dtypes.get_default_dtype())))
    return v


def where_(condition: Tensor, x: Tensor, y: Any, name: str | None = None) -> Tensor:
    """In-place ``where``: ``x`` takes ``where(condition, x, y)`` (its shape and dtype kept)."""
    api = "paddle.where_"
    check_inplace_leaf(_need_tensor(api, x), api)
    return write_result(x, apply_op(TABLE["where"], (condition, x, y)), api)


# ---- helpers on tensors and shapes ------------------------------------------------------------------
def is_tensor(x: Any) -> bool:
    """True when ``x`` is a Tensor."""
    return isinstance(x, Tensor)


def _np_dtype(api: str, x: Any) -> np.dtype:
    return _dtypes.to_np(_need_tensor(api, x).dtype)


def is_complex(x: Tensor) -> bool:
    """True for complex64 and complex128 tensors."""
    return bool(np.issubdtype(_np_dtype("is_complex", x), np.complexfloating))


def is_floating_point(x: Tensor) -> bool:
    """True for floating-point tensors (float16, bfloat16, float32, float64)."""
    return bool(np.issubdtype(_np_dtype("is_floating_point", x), np.floating)) or x.dtype.name == "bfloat16"


def is_integer(x: Tensor) -> bool:
    """True for integer tensors (bool is not an integer dtype)."""
    return bool(np.issubdtype(_np_dtype("is_integer", x), np.integer))


def rank(input: Tensor) -> Tensor:
    """The number of dimensions as a 0-D int32 tensor."""
    return Tensor(jnp.asarray(len(_need_tensor("rank", input).shape), jnp.int32))


def shape(input: Tensor) -> Tensor:
    """The shape as a 1-D int64 tensor."""
    return Tensor(jnp.asarray(_need_tensor("shape", input).shape, jnp.int64))


def broadcast_shapes(*shapes: Sequence[int]) -> list[int]:
    """The shape that all ``shapes`` broadcast to (a ValueError when they cannot)."""
    try:
        return list(np.broadcast_shapes(*[tuple(int(d) for d in s) for s in shapes]))
    except ValueError:
        raise ValueError(
            f"broadcast_shape: the shapes {[list(s) for s in shapes]} cannot be broadcast together; each pair of "
            "trailing dimensions must be equal or 1."
        ) from None


def broadcast_shape(x_shape: Sequence[int], y_shape: Sequence[int]) -> list[int]:
    """The shape that ``x_shape`` and ``y_shape`` broadcast to."""
    return broadcast_shapes(x_shape, y_shape)


_METHODS = (
    nonzero, argwhere, unique, unique_consecutive, bincount, take, diff, index_add, index_add_, index_fill, index_fill_,
    scatter_add, scatter_add_, scatter_reduce, histogram, is_complex, is_floating_point, is_integer,
    reshape_, squeeze_, unsqueeze_, flatten_, transpose_, t_, cast_,
)
for _f in _METHODS:
    setattr(Tensor, _f.__name__, _f)
