"""``paddle.sparse``: sparse COO and CSR Tensors and their math.

A sparse Tensor (``_api.sparse_tensor.SparseTensor``) is a ``Tensor`` holding its pattern (host int64 arrays) and a
dense values Tensor; each function here computes the result's pattern on the host and its values with dense ops on
the values, so gradients flow to the values (and to a dense Tensor the sparse one came from) through the ordinary
tape.

>>> import pylayer_jax as paddle
>>> x = paddle.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, -3.0], [2, 2])
>>> paddle.sparse.abs(x).to_dense().tolist()
[[0.0, 2.0], [3.0, 0.0]]

Paddle runs ``matmul``, ``masked_matmul``, ``mv``, ``addmm`` and ``attention`` on a GPU only; here they run on any
device, with the results Paddle's GPU kernels define (checked against dense math).
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Sequence
from typing import Any

import jax.numpy as jnp
import numpy as np

from .._api import functional as _F
from .._api.irregular import index_add as _index_add
from .._api.linalg_lowrank import pca_lowrank as _dense_pca_lowrank
from .._api.sparse_tensor import (
    SparseTensor,
    _gather_rows,
    _int64,
    coo,
    coo_to_csr,
    csr,
    csr_rows,
    csr_to_coo,
    linear,
    to_dense,
)
from .._api.sparse_tensor import (
    coalesce as _coalesce,
)
from .._runtime import dtypes as _dtypes
from .._tensor.facade import Tensor, to_tensor
from . import nn as nn

__all__ = ["abs", "add", "addmm", "asin", "asinh", "atan", "atanh", "cast", "coalesce", "deg2rad", "divide", "expm1",
           "is_same_shape", "isnan", "log1p", "mask_as", "masked_matmul", "matmul", "multiply", "mv", "neg",
           "pca_lowrank", "pow", "rad2deg", "reshape", "sin", "sinh", "slice", "sparse_coo_tensor",
           "sparse_csr_tensor", "sqrt", "square", "subtract", "sum", "tan", "tanh", "transpose"]


# ---- creation -----------------------------------------------------------------------------------
def _values_tensor(api: str, values: Any, dtype: Any, stop_gradient: bool, share: bool) -> Tensor:
    """The values of a new sparse Tensor. As in Paddle, a values Tensor gets the ``stop_gradient`` asked for (the
    caller's Tensor itself); a COO Tensor (``share``) is then its result (cast when ``dtype`` differs; not a leaf, the
    gradient reaches the caller's Tensor), a CSR Tensor a new leaf of a copy. Values from a list or array make a
    new leaf."""
    if isinstance(values, SparseTensor):
        raise TypeError(f"{api}: values must be dense (a Tensor, list or numpy array), but received a sparse Tensor.")
    if not isinstance(values, Tensor):
        v = to_tensor(values, dtype=dtype)
        v.stop_gradient = bool(stop_gradient)
        return v
    values.stop_gradient = bool(stop_gradient)
    if not share:
        v = values.detach() if dtype is None else values.detach().astype(dtype)
        v.stop_gradient = bool(stop_gradient)
        return v
    same = dtype is None or _dtypes.to_paddle(dtype) == values.dtype
    if stop_gradient:
        v = values if same else values.astype(dtype)
        return v if v.is_leaf else v.detach()
    return values.clone() if same else values.astype(dtype)


def sparse_coo_tensor(indices: Any, values: Any, shape: Sequence[int] | None = None, dtype: Any = None,
                      place: Any = None, stop_gradient: bool = True) -> SparseTensor:
    """A sparse COO Tensor from ``indices`` ``[sparse_dim, nnz]`` and ``values`` ``[nnz, *dense_dims]`` (the
    shape defaults to the largest index + 1 on each sparse axis, then the values' dense dims). Duplicates are kept
    (``coalesce`` sums them)."""
    api = "paddle.sparse.sparse_coo_tensor"
    ix = _int64(indices, api, "indices")
    if ix.ndim != 2:
        raise ValueError(f"{api}: indices must be 2-D [sparse_dim, nnz], but received shape {list(ix.shape)}.")
    v = _values_tensor(api, values, dtype, stop_gradient, True)
    if v.ndim == 0 or v.shape[0] != ix.shape[1]:
        raise ValueError(f"{api}: values must have one row per index column (nnz={ix.shape[1]}), but received values "
                         f"of shape {list(v.shape)}.")
    if ix.size and ix.min() < 0:
        raise ValueError(f"{api}: indices must be non-negative, but received {int(ix.min())}.")
    least = [int(m) + 1 for m in ix.max(axis=1)] if ix.size else [0] * ix.shape[0]
    if shape is None:
        shape = [*least, *v.shape[1:]]
    shape = [int(s) for s in (shape.tolist() if isinstance(shape, Tensor) else shape)]
    if len(shape) != ix.shape[0] + v.ndim - 1:
        raise ValueError(f"{api}: the shape {shape} must have sparse_dim + dense_dim = {ix.shape[0]} + {v.ndim - 1} "
                         "axes (the indices' rows plus the values' trailing axes).")
    if any(s < m for s, m in zip(shape, least)) or list(shape[ix.shape[0]:]) != list(v.shape[1:]):
        raise ValueError(f"{api}: the shape {shape} must hold every index (at least {least} on the sparse axes) and "
                         f"end with the values' dense dims {list(v.shape[1:])}.")
    return coo(ix, v, tuple(shape))


def sparse_csr_tensor(crows: Any, cols: Any, values: Any, shape: Sequence[int], dtype: Any = None, place: Any = None,
                      stop_gradient: bool = True) -> SparseTensor:
    """A sparse CSR Tensor, 2-D or batched 3-D (``crows`` then holds ``batch * (rows + 1)`` offsets)."""
    api = "paddle.sparse.sparse_csr_tensor"
    cr, co = _int64(crows, api, "crows").ravel(), _int64(cols, api, "cols").ravel()
    v = _values_tensor(api, values, dtype, stop_gradient, False)
    shape = [int(s) for s in (shape.tolist() if isinstance(shape, Tensor) else shape)]
    if len(shape) not in (2, 3):
        raise ValueError(f"{api}: the shape of a CSR Tensor has 2 or 3 axes, but received {shape}.")
    nb = 1 if len(shape) == 2 else shape[0]
    if cr.shape[0] != nb * (shape[-2] + 1):
        raise ValueError(f"{api}: crows must hold batch * (rows + 1) = {nb * (shape[-2] + 1)} offsets for shape "
                         f"{shape}, but received {cr.shape[0]}.")
    if v.ndim != 1 or v.shape[0] != co.shape[0]:
        raise ValueError(f"{api}: values must be 1-D with one value per column index ({co.shape[0]}), but received "
                         f"shape {list(v.shape)}.")
    ends = cr.reshape(nb, -1)
    if np.any(np.diff(ends, axis=1) < 0) or np.any(ends[:, 0] != 0) or int(ends[:, -1].sum()) != co.shape[0]:
        raise ValueError(f"{api}: crows must start at 0 in each batch, never decrease, and end at that batch's count "
                         f"of values (in all {co.shape[0]}), but received {cr.tolist()}.")
    if co.size and (co.min() < 0 or co.max() >= shape[-1]):
        raise ValueError(f"{api}: cols must lie in [0, {shape[-1]}), but received values from {int(co.min())} to "
                         f"{int(co.max())}.")
    return csr(cr, co, v, tuple(shape))


def _sparse(api: str, x: Any, what: str = "x") -> SparseTensor:
    if not isinstance(x, SparseTensor):
        raise TypeError(f"{api}: {what} must be a sparse COO or CSR Tensor, but received "
                        f"{'a dense Tensor' if isinstance(x, Tensor) else type(x).__name__}; convert it with "
                        "to_sparse_coo(sparse_dim) or to_sparse_csr().")
    return x


def _like(x: SparseTensor, vals: Tensor) -> SparseTensor:
    return SparseTensor(x._fmt, x._ix, vals, (*x._sshape[: len(x._sshape) - x._vals.ndim + 1], *vals.shape[1:]),
                        x._coal)


# ---- element-wise unary -----------------------------------------------------------------------------
def _unary(name: str, doc: str) -> Any:
    def fn(x: Tensor, name_: str | None = None) -> SparseTensor:
        x = _sparse(f"paddle.sparse.{name}", x)
        return _like(x, getattr(_F, name)(x._vals))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{doc} of each stored value; the pattern stays (``{name}(0) = 0``)."
    return fn


abs = _unary("abs", "The absolute value")  # noqa: A001
sin = _unary("sin", "The sine")
tan = _unary("tan", "The tangent")
asin = _unary("asin", "The arcsine")
atan = _unary("atan", "The arctangent")
sinh = _unary("sinh", "The hyperbolic sine")
asinh = _unary("asinh", "The inverse hyperbolic sine")
atanh = _unary("atanh", "The inverse hyperbolic tangent")
tanh = _unary("tanh", "The hyperbolic tangent")
square = _unary("square", "The square")
sqrt = _unary("sqrt", "The square root")
log1p = _unary("log1p", "log(1 + x)")
expm1 = _unary("expm1", "exp(x) - 1")


def neg(x: Tensor, name: str | None = None) -> SparseTensor:
    """``-x`` of each stored value."""
    x = _sparse("paddle.sparse.neg", x)
    return _like(x, -x._vals)


def pow(x: Tensor, factor: float, name: str | None = None) -> SparseTensor:  # noqa: A001
    """Each stored value to the power ``factor`` (a Python number)."""
    x = _sparse("paddle.sparse.pow", x)
    if isinstance(factor, bool) or not isinstance(factor, (int, float, np.number)):
        raise TypeError(f"paddle.sparse.pow: factor must be a Python number, but received {type(factor).__name__}.")
    return _like(x, x._vals ** float(factor))


def _angle(name: str, scale: float) -> Any:
    def fn(x: Tensor, name_: str | None = None) -> SparseTensor:
        x = _sparse(f"paddle.sparse.{name}", x)
        v = x._vals if x._vals.dtype.is_floating_point else x._vals.astype("float32")
        return _like(x, v * scale)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``{name}`` of each stored value (an integer Tensor becomes float32)."
    return fn


deg2rad = _angle("deg2rad", math.pi / 180.0)
rad2deg = _angle("rad2deg", 180.0 / math.pi)


def cast(x: Tensor, index_dtype: Any = None, value_dtype: Any = None, name: str | None = None) -> SparseTensor:
    """The values cast to ``value_dtype`` (the pattern's indices are always kept as int64 here)."""
    x = _sparse("paddle.sparse.cast", x)
    if index_dtype is not None and _dtypes.to_paddle(index_dtype).name not in ("int8", "uint8", "int16", "int32",
                                                                                "int64"):
        raise TypeError(f"paddle.sparse.cast: index_dtype must be an integer dtype, but received {index_dtype!r}.")
    return _like(x, x._vals if value_dtype is None else x._vals.astype(value_dtype))


def isnan(x: Tensor, name: str | None = None) -> SparseTensor:
    """Whether each stored value is NaN (bool values, no gradient)."""
    x = _sparse("paddle.sparse.isnan", x)
    return _like(x, _F.isnan(x._vals.detach()))


def coalesce(x: Tensor, name: str | None = None) -> SparseTensor:
    """A COO Tensor with its indices sorted and duplicate entries summed."""
    x = _sparse("paddle.sparse.coalesce", x)
    if x._fmt != "coo":
        raise ValueError("paddle.sparse.coalesce: x must be a sparse COO Tensor, but received a CSR one (a CSR "
                         "Tensor is always coalesced).")
    return _coalesce(x)


# ---- element-wise binary ----------------------------------------------------------------------------
def _sd(x: SparseTensor) -> int:
    return x._ix[0].shape[0]


def _binary(api: str, x: Any, y: Any) -> tuple[SparseTensor, SparseTensor]:
    x = _sparse(api, x)
    if not isinstance(y, SparseTensor):
        if isinstance(y, Tensor) and x._fmt == "coo" and x._vals.ndim > 1 and list(y.shape) == list(x._vals.shape[1:]):
            return x, y  # a dense Tensor of the dense axes' shape (a bias), broadcast over the stored entries
        raise NotImplementedError(f"{api}: y must be a sparse Tensor like x (Paddle has no sparse-with-dense kernel "
                                  f"for it on the CPU), but received {type(y).__name__}; convert y with "
                                  "to_sparse_coo / to_sparse_csr, or x with to_dense().")
    if x._fmt != y._fmt:
        raise ValueError(f"{api}: x and y must have the same sparse format, but received {x._fmt.upper()} and "
                         f"{y._fmt.upper()}; convert one of them.")
    if x._sshape != y._sshape:
        raise ValueError(f"{api}: x and y must have the same shape, but received {list(x._sshape)} and "
                         f"{list(y._sshape)}.")
    return x, y


def _as_coo(x: SparseTensor) -> SparseTensor:
    return csr_to_coo(x) if x._fmt == "csr" else x


def _back(fmt: str, out: SparseTensor, api: str) -> SparseTensor:
    return coo_to_csr(out, api) if fmt == "csr" else out


def _on_union(api: str, x: Any, y: Any, op: Any) -> SparseTensor:
    x, y = _binary(api, x, y)
    if not isinstance(y, SparseTensor):
        return _like(x, op(x._vals, y))
    fmt = x._fmt
    a, b = _as_coo(x), _as_coo(y)
    if a._ix[0].shape == b._ix[0].shape and np.array_equal(a._ix[0], b._ix[0]):
        return _back(fmt, coo(a._ix[0], op(a._vals, b._vals), a._sshape), api)
    a, b = _coalesce(a), _coalesce(b)
    sshape = a._sshape[: _sd(a)]
    la, lb = linear(a._ix[0], sshape), linear(b._ix[0], sshape)
    union = np.union1d(la, lb)

    def spread(t: SparseTensor, lin: np.ndarray) -> Tensor:
        pos = np.full(union.shape[0], lin.shape[0], np.int64)
        pos[np.searchsorted(union, lin)] = np.arange(lin.shape[0])
        pad = Tensor(jnp.zeros((1, *t._vals.shape[1:]), t._vals._v.dtype))
        return _F.concat([t._vals, pad], 0).index_select(Tensor(jnp.asarray(pos)), 0)

    ix = np.stack(np.unravel_index(union, sshape)).astype(np.int64).reshape(len(sshape), -1)
    return _back(fmt, coo(ix, op(spread(a, la), spread(b, lb)), a._sshape), api)


def add(x: Tensor, y: Tensor, name: str | None = None) -> SparseTensor:
    """``x + y`` of two sparse Tensors of one shape and format; the result's pattern is the union of theirs."""
    return _on_union("paddle.sparse.add", x, y, lambda a, b: a + b)


def subtract(x: Tensor, y: Tensor, name: str | None = None) -> SparseTensor:
    """``x - y`` of two sparse Tensors of one shape and format; the result's pattern is the union of theirs."""
    return _on_union("paddle.sparse.subtract", x, y, lambda a, b: a - b)


def multiply(x: Tensor, y: Any, name: str | None = None) -> SparseTensor:
    """``x * y``: with a Python number, each stored value scaled; with a sparse Tensor, on the union of the
    patterns (zeros where only one has an entry)."""
    if isinstance(y, (int, float)) and not isinstance(y, bool):
        x = _sparse("paddle.sparse.multiply", x)
        return _like(x, x._vals * float(y))
    return _on_union("paddle.sparse.multiply", x, y, lambda a, b: a * b)


def divide(x: Tensor, y: Any, name: str | None = None) -> SparseTensor:
    """``x / y``: with a Python number, each stored value divided; with a sparse Tensor, as Paddle's kernel does it,
    every entry of the dense shape is divided (``0 / 0`` is NaN) and stored."""
    api = "paddle.sparse.divide"
    if isinstance(y, (int, float)) and not isinstance(y, bool):
        x = _sparse(api, x)
        return _like(x, x._vals / float(y))
    x, y = _binary(api, x, y)
    if not isinstance(y, SparseTensor):
        return _like(x, x._vals / y)
    a, b = _as_coo(x), _as_coo(y)
    q = to_dense(a) / to_dense(b)
    sd = _sd(a)
    n = int(np.prod(a._sshape[:sd]))
    ix = np.stack(np.unravel_index(np.arange(n), a._sshape[:sd])).astype(np.int64).reshape(sd, -1)
    return _back(x._fmt, coo(ix, q.reshape([n, *a._sshape[sd:]]), a._sshape), api)


def is_same_shape(x: Tensor, y: Tensor) -> bool:
    """Whether two Tensors (sparse or dense) have the same shape."""
    for t, w in ((x, "x"), (y, "y")):
        if not isinstance(t, Tensor):
            raise TypeError(f"paddle.sparse.is_same_shape: {w} must be a Tensor, but received {type(t).__name__}.")
    return list(x.shape) == list(y.shape)


def mask_as(x: Tensor, mask: Tensor, name: str | None = None) -> SparseTensor:
    """The entries of dense ``x`` at the pattern of sparse ``mask`` (a sparse Tensor of mask's format); the
    gradient reaches ``x`` at those entries."""
    api = "paddle.sparse.mask_as"
    mask = _sparse(api, mask, "mask")
    if isinstance(x, SparseTensor) or not isinstance(x, Tensor):
        raise TypeError(f"{api}: x must be a dense Tensor, but received "
                        f"{'a sparse Tensor' if isinstance(x, Tensor) else type(x).__name__}.")
    if list(x.shape) != list(mask._sshape):
        raise ValueError(f"{api}: x and mask must have the same shape, but received {list(x.shape)} and "
                         f"{list(mask._sshape)}.")
    m = _as_coo(mask)
    sd = _sd(m)
    flat = x.reshape([int(np.prod(m._sshape[:sd])), *m._sshape[sd:]])
    vals = flat.index_select(Tensor(jnp.asarray(linear(m._ix[0], m._sshape[:sd]))), 0)
    return SparseTensor(mask._fmt, mask._ix, vals, mask._sshape)


# ---- shape ---------------------------------------------------------------------------------------
def _norm_axis(api: str, a: Any, nd: int) -> int:
    if isinstance(a, bool) or not isinstance(a, (int, np.integer)) or not -nd <= a < nd:
        raise ValueError(f"{api}: an axis must be an int in [{-nd}, {nd}), but received {a!r}.")
    return int(a) % nd


def transpose(x: Tensor, perm: Sequence[int], name: str | None = None) -> SparseTensor:
    """The axes permuted by ``perm`` (sparse axes among themselves; dense axes among themselves)."""
    api = "paddle.sparse.transpose"
    x = _sparse(api, x)
    nd = len(x._sshape)
    perm = [_norm_axis(api, p, nd) for p in perm]
    if sorted(perm) != list(range(nd)):
        raise ValueError(f"{api}: perm must be a permutation of range({nd}), but received {perm}.")
    a = _as_coo(x)
    sd = _sd(a)
    if sorted(perm[:sd]) != list(range(sd)):
        raise NotImplementedError(f"{api}: moving an axis between the sparse axes (the first {sd}) and the dense "
                                  f"ones is not supported, but perm is {perm}.")
    if x._fmt == "csr" and nd == 3 and perm[0] != 0:
        raise ValueError(f"{api}: a 3-D CSR Tensor keeps its batch axis first, but perm is {perm}.")
    vals = a._vals
    if perm[sd:] != list(range(sd, nd)):
        vals = vals.transpose([0, *(p - sd + 1 for p in perm[sd:])])
    out = coo(a._ix[0][perm[:sd]], vals, tuple(x._sshape[p] for p in perm))
    return _back(x._fmt, out, api)


def reshape(x: Tensor, shape: Sequence[int], name: str | None = None) -> SparseTensor:
    """A new shape for the sparse axes (the dense axes stay; one entry may be -1, a 0 copies the input's axis)."""
    api = "paddle.sparse.reshape"
    x = _sparse(api, x)
    a = _as_coo(x)
    sd = _sd(a)
    dense = list(a._sshape[sd:])
    shape = [int(s) for s in (shape.tolist() if isinstance(shape, Tensor) else shape)]
    shape = [a._sshape[i] if s == 0 and i < len(a._sshape) else s for i, s in enumerate(shape)]
    n_sparse = int(np.prod(a._sshape[:sd]))
    if dense and shape[len(shape) - len(dense):] not in (dense, [-1] * 0):
        raise ValueError(f"{api}: the dense axes {dense} must stay at the end of the new shape, but received "
                         f"{shape}.")
    new_sparse = shape[: len(shape) - len(dense)]
    if new_sparse.count(-1) > 1:
        raise ValueError(f"{api}: at most one axis of the new shape may be -1, but received {shape}.")
    if -1 in new_sparse:
        known = int(np.prod([s for s in new_sparse if s != -1]))
        new_sparse[new_sparse.index(-1)] = n_sparse // known if known else 0
    if int(np.prod(new_sparse)) != n_sparse:
        raise ValueError(f"{api}: the new shape {shape} must hold as many elements as the input's {list(a._sshape)}.")
    lin = linear(a._ix[0], a._sshape[:sd])
    ix = np.stack(np.unravel_index(lin, new_sparse)).astype(np.int64).reshape(len(new_sparse), -1)
    return _back(x._fmt, coo(ix, a._vals, (*new_sparse, *dense)), api)


def slice(x: Tensor, axes: Sequence[int], starts: Sequence[int], ends: Sequence[int],  # noqa: A001
          name: str | None = None) -> SparseTensor:
    """The entries with ``starts[i] <= index < ends[i]`` on each axis ``axes[i]`` (negative bounds count from the
    end, bounds are clamped), re-indexed from the starts."""
    api = "paddle.sparse.slice"
    x = _sparse(api, x)
    axes, starts, ends = ([int(e) for e in (v.tolist() if isinstance(v, Tensor) else v)] for v in (axes, starts, ends))
    if not len(axes) == len(starts) == len(ends):
        raise ValueError(f"{api}: axes, starts and ends must have one entry each per axis, but received lengths "
                         f"{len(axes)}, {len(starts)} and {len(ends)}.")
    a = _coalesce(_as_coo(x))
    nd, sd = len(a._sshape), _sd(a)
    ix, keep, shape, vals = a._ix[0].copy(), np.ones(a._ix[0].shape[1], bool), list(a._sshape), a._vals
    for ax, s, e in zip(axes, starts, ends):
        ax = _norm_axis(api, ax, nd)
        n = a._sshape[ax]
        s = min(max(s + n if s < 0 else s, 0), n)
        e = min(max(e + n if e < 0 else e, 0), n)
        e = max(e, s)
        shape[ax] = e - s
        if ax < sd:
            keep &= (ix[ax] >= s) & (ix[ax] < e)
            ix[ax] -= s
        else:
            vals = _F.slice(vals, [ax - sd + 1], [s], [e])
    sel = np.flatnonzero(keep)
    out = coo(ix[:, sel], _gather_rows(vals, sel), tuple(shape))
    return _back(x._fmt, out, api)


def sum(x: Tensor, axis: int | Sequence[int] | None = None, dtype: Any = None, keepdim: bool = False,  # noqa: A001
        name: str | None = None) -> SparseTensor:
    """The sum of the stored values: of all of them (a COO result of shape [1], a CSR one of shape [1, 1]), or over
    one axis (a CSR Tensor: the last axis only, as Paddle allows); ``dtype`` casts first."""
    api = "paddle.sparse.sum"
    x = _sparse(api, x)
    v = x._vals if dtype is None else x._vals.astype(dtype)
    if isinstance(axis, (list, tuple)):
        if len(axis) != 1:
            raise NotImplementedError(f"{api}: one axis at a time is supported, but received axis={list(axis)}.")
        axis = axis[0]
    nd = len(x._sshape)
    if axis is None:
        total = v.sum()
        if x._fmt == "csr":
            return csr(np.array([0, 1]), np.array([0]), total.reshape([1]), (1, 1))
        if keepdim:
            return coo(np.zeros((nd, 1), np.int64), total.reshape([1]), (1,) * nd)
        return SparseTensor("coo", (np.zeros((1, 1), np.int64), "total"), total, (1,))
    ax = _norm_axis(api, axis, nd)
    if x._fmt == "csr":
        if ax != nd - 1:
            raise NotImplementedError(f"{api}: a CSR Tensor sums over all values or over its last axis only (axis "
                                      f"None or -1), but received axis={axis}.")
        b, r = csr_rows(x)
        rows = x._sshape[-2]
        key = b * rows + r
        ukey, inv = np.unique(key, return_inverse=True)
        sdtype = v.dtype if v.dtype.is_floating_point else _dtypes.DTYPES["int64"]  # (a dense sum's dtype)
        z = Tensor(jnp.zeros((ukey.shape[0],), _dtypes.to_np(sdtype)))
        s = _index_add(z, Tensor(jnp.asarray(inv.ravel())), 0, v if v.dtype == sdtype else v.astype(sdtype))
        nb = 1 if nd == 2 else x._sshape[0]
        crows = np.concatenate([np.concatenate([[0], np.cumsum(np.isin(np.arange(rows), ukey[ukey // rows == bb] % rows))])
                                for bb in builtins.range(nb)])
        shape = (*x._sshape[:-1], 1)
        return csr(crows, np.zeros(ukey.shape[0], np.int64), s, shape)
    sd = _sd(x)
    if ax >= sd:
        out = v.sum(ax - sd + 1, keepdim=keepdim)
        shape = list(x._sshape)
        if keepdim:
            shape[ax] = 1
        else:
            del shape[ax]
        return coo(x._ix[0], out, tuple(shape))
    rest = [i for i in builtins.range(sd) if i != ax]
    sub = x._ix[0][rest]
    sub_shape = [x._sshape[i] for i in rest]
    lin = linear(sub, sub_shape) if rest else np.zeros(sub.shape[1], np.int64)
    uniq, inv = np.unique(lin, return_inverse=True)
    sdtype = v.dtype if v.dtype.is_floating_point else _dtypes.DTYPES["int64"]  # (a dense sum's dtype)
    z = Tensor(jnp.zeros((uniq.shape[0], *v.shape[1:]), _dtypes.to_np(sdtype)))
    s = _index_add(z, Tensor(jnp.asarray(inv.ravel())), 0, v.astype(sdtype) if v.dtype != sdtype else v)
    ix = np.stack(np.unravel_index(uniq, sub_shape)).astype(np.int64).reshape(len(rest), -1) if rest else \
        np.zeros((0, uniq.shape[0]), np.int64)
    shape = list(x._sshape)
    if keepdim:
        ix = np.insert(ix, ax, 0, axis=0)
        shape[ax] = 1
    else:
        del shape[ax]
    if ix.shape[0] == 0:  # every sparse axis summed: the result's dense axes become its one sparse axis
        return coo(np.zeros((1, 1), np.int64), s, (1, *shape)) if shape else coo(np.zeros((1, 1), np.int64), s, (1,))
    return coo(ix, s, tuple(shape))


# ---- products ---------------------------------------------------------------------------------------
def _dense_arg(api: str, t: Any, what: str) -> Tensor:
    if isinstance(t, SparseTensor) or not isinstance(t, Tensor):
        raise TypeError(f"{api}: {what} must be a dense Tensor, but received "
                        f"{'a sparse Tensor' if isinstance(t, Tensor) else type(t).__name__}.")
    return t


def _spmm(api: str, x: SparseTensor, y: Tensor) -> Tensor:
    """A sparse [*, M, K] times a dense [*, K, N]: a gather of y's rows, scaled, summed into the output's rows."""
    nd = len(x._sshape)
    if nd not in (2, 3) or x.dense_dim() != 0:
        raise ValueError(f"{api}: x must be a 2-D or 3-D sparse Tensor with every axis sparse, but received shape "
                         f"{list(x._sshape)} with {x.dense_dim()} dense axes.")
    if y.ndim != nd or y.shape[-2] != x._sshape[-1] or (nd == 3 and y.shape[0] != x._sshape[0]):
        raise ValueError(f"{api}: y must be a {nd}-D Tensor of shape [{'B, ' if nd == 3 else ''}K, N] with K = "
                         f"{x._sshape[-1]} (x's columns) and x's batch, but received shape {list(y.shape)}.")
    if x.dtype != y.dtype:
        raise TypeError(f"{api}: x and y must have the same dtype, but received {x.dtype.name} and {y.dtype.name}.")
    a = _as_coo(x)
    ix = a._ix[0]
    b = ix[0] if nd == 3 else np.zeros(ix.shape[1], np.int64)
    m, k, n = x._sshape[-2], x._sshape[-1], y.shape[-1]
    nb = x._sshape[0] if nd == 3 else 1
    rows = Tensor(jnp.asarray(b * m + ix[-2]))
    cols = Tensor(jnp.asarray(b * k + ix[-1]))
    picked = y.reshape([nb * k, n]).index_select(cols, 0) * a._vals.unsqueeze(-1)
    out = _index_add(Tensor(jnp.zeros((nb * m, n), y._v.dtype)), rows, 0, picked)
    return out.reshape([*x._sshape[:-1], n])


def _pattern_of(x: SparseTensor) -> np.ndarray:
    a = _as_coo(x)
    p = np.zeros(a._sshape, bool)
    p[tuple(a._ix[0])] = True
    return p


def _from_pattern(fmt: str, pattern: np.ndarray, dense: Tensor, api: str) -> SparseTensor:
    ix = np.stack(np.nonzero(pattern)).astype(np.int64).reshape(pattern.ndim, -1)
    vals = dense.reshape([-1]).index_select(Tensor(jnp.asarray(linear(ix, pattern.shape))), 0)
    return _back(fmt, coo(ix, vals, pattern.shape), api)


def matmul(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """Sparse x [*, M, K] times y [*, K, N]: dense y gives a dense result; a sparse y (of x's format) gives a sparse
    result whose pattern is every entry some stored pair reaches. The gradient reaches x's stored values only."""
    api = "paddle.sparse.matmul"
    x = _sparse(api, x)
    if not isinstance(y, SparseTensor):
        return _spmm(api, x, _dense_arg(api, y, "y"))
    if x._fmt != y._fmt:
        raise ValueError(f"{api}: sparse x and y must have the same format, but received {x._fmt.upper()} and "
                         f"{y._fmt.upper()}.")
    if len(x._sshape) not in (2, 3) or len(y._sshape) != len(x._sshape) or x._sshape[-1] != y._sshape[-2] or \
            x._sshape[:-2] != y._sshape[:-2]:
        raise ValueError(f"{api}: x [*, M, K] and y [*, K, N] must be 2-D or 3-D with matching K and batch, but "
                         f"received shapes {list(x._sshape)} and {list(y._sshape)}.")
    pattern = np.matmul(_pattern_of(x).astype(np.int64), _pattern_of(y).astype(np.int64)) > 0
    return _from_pattern(x._fmt, pattern, _spmm(api, x, to_dense(y)), api)


def masked_matmul(x: Tensor, y: Tensor, mask: Tensor, name: str | None = None) -> SparseTensor:
    """Dense x [*, M, K] times dense y [*, K, N], kept at the pattern of the sparse CSR ``mask`` only."""
    api = "paddle.sparse.masked_matmul"
    x, y = _dense_arg(api, x, "x"), _dense_arg(api, y, "y")
    mask = _sparse(api, mask, "mask")
    if mask._fmt != "csr":
        raise NotImplementedError(f"{api}: mask must be a sparse CSR Tensor (Paddle has no COO kernel), but received "
                                  "a COO one; convert it with to_sparse_csr().")
    if x.ndim != y.ndim or x.ndim not in (2, 3) or x.shape[-1] != y.shape[-2] or \
            [*x.shape[:-1], y.shape[-1]] != list(mask._sshape):
        raise ValueError(f"{api}: x [*, M, K], y [*, K, N] and mask [*, M, N] must agree, but received shapes "
                         f"{list(x.shape)}, {list(y.shape)} and {list(mask._sshape)}.")
    return mask_as(_F.matmul(x, y), mask)


def mv(x: Tensor, vec: Tensor, name: str | None = None) -> Tensor:
    """Sparse 2-D x [M, N] times dense vec [N]: a dense [M]."""
    api = "paddle.sparse.mv"
    x = _sparse(api, x)
    vec = _dense_arg(api, vec, "vec")
    if len(x._sshape) != 2 or vec.ndim != 1 or vec.shape[0] != x._sshape[1]:
        raise ValueError(f"{api}: x must be 2-D [M, N] and vec 1-D [N], but received shapes {list(x._sshape)} and "
                         f"{list(vec.shape)}.")
    return _spmm(api, x, vec.unsqueeze(-1)).squeeze(-1)


def addmm(input: Tensor, x: Tensor, y: Tensor, beta: float = 1.0, alpha: float = 1.0,  # noqa: A002
          name: str | None = None) -> Tensor:
    """``beta * input + alpha * (x @ y)``: dense input with sparse x and dense y gives a dense result; all three
    sparse give a sparse one."""
    api = "paddle.sparse.addmm"
    x = _sparse(api, x)
    prod = matmul(x, y)
    if isinstance(prod, SparseTensor):
        inp = _sparse(api, input, "input")
        if inp._fmt != prod._fmt or inp._sshape != prod._sshape:
            raise ValueError(f"{api}: input must be a sparse {prod._fmt.upper()} Tensor of shape "
                             f"{list(prod._sshape)} (the product's), but received {inp._fmt.upper()} "
                             f"{list(inp._sshape)}.")
        return add(multiply(inp, float(beta)), multiply(prod, float(alpha)))
    inp = _dense_arg(api, input, "input")
    if list(inp.shape) != list(prod.shape):
        raise ValueError(f"{api}: input must have the product's shape {list(prod.shape)}, but received "
                         f"{list(inp.shape)}.")
    return inp * beta + prod * alpha


def pca_lowrank(x: Tensor, q: int | None = None, center: bool = True, niter: int = 2,
                name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """The low-rank PCA of a sparse 2-D Tensor (``U, S, V``), computed on its dense form by
    ``paddle.linalg.pca_lowrank`` (Paddle runs the sparse one on CUDA 11 only)."""
    api = "paddle.sparse.pca_lowrank"
    if not isinstance(x, Tensor):
        raise ValueError(f"{api}: input must be a Tensor, but received {type(x).__name__}.")
    if not isinstance(x, SparseTensor):
        raise ValueError(f"{api}: input must be sparse, but received a dense Tensor; use paddle.linalg.pca_lowrank.")
    if len(x._sshape) != 2:
        raise ValueError(f"{api}: input is expected to be a 2-dimensional Tensor, but received shape "
                         f"{list(x._sshape)}.")
    return _dense_pca_lowrank(to_dense(x), q=q, center=center, niter=niter)

