"""More shape and index ops: permutations, splits, scatters into slices, differences and integrals.

Ops whose Paddle signature puts an attribute between two tensors (``index_add(x, index,
axis, value)``, ``scatter_add(input, dim, index, src)``, ``diff(x, n, axis, prepend, append)``) are registered here with the
tensors first under a ``*_op`` name; their public functions, in Paddle's order, live in
``_api.irregular``.
"""

from __future__ import annotations

import builtins

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np

from ._promote import alias
from .checks import index_range, integer_index
from .gather import put_along_axis, take_along_axis
from .shape import _axis, _ints, swapaxes, target_shape
from .table import defop

_py_slice = builtins.slice

# public functions that are not Tensor methods
FUNCTIONS = ("block_diag",)


@defop(1)
def permute(input, dims, *more):
    """Axes in the order ``dims`` (a list, or the axes one by one: ``permute(x, 1, 0)``)."""
    perm = (dims, *more) if more else _ints(dims, "permute", "dims")
    if sorted(a % builtins.max(input.ndim, 1) for a in perm) != list(range(input.ndim)):
        raise ValueError(f"permute: dims must be a permutation of the {input.ndim} axes, but received {list(perm)}.")
    return jnp.transpose(input, perm)


@defop(1)
def ravel(input):
    """The elements as a 1-D tensor."""
    return jnp.ravel(input)


alias(swapaxes, "swapdims")
alias(take_along_axis, "take_along_dim")


@defop(1)
def matrix_transpose(x):
    """The last two axes swapped (needs at least 2 dimensions)."""
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose: x needs at least 2 dimensions, but it has {x.ndim}.")
    return jnp.swapaxes(x, -1, -2)


@defop(2, nondiff=("other",))
def view_as(x, other):
    """``x`` reshaped to the shape of ``other`` (same element count)."""
    return jnp.reshape(x, target_shape(other.shape, x.shape, "view_as"))


@defop(1)
def unflatten(x, axis, shape):
    """Axis ``axis`` expanded into the dims ``shape`` (one may be -1)."""
    ax = _axis(axis, x.ndim, "unflatten")
    dims = target_shape(shape, (x.shape[ax],), "unflatten")
    return jnp.reshape(x, x.shape[:ax] + dims + x.shape[ax + 1:])


@defop(1)
def repeat(input, repeats):
    """The whole tensor tiled ``repeats`` times per axis (leading axes added when ``repeats`` is longer)."""
    reps = _ints(repeats, "repeat", "repeats")
    if len(reps) < input.ndim:
        raise ValueError(
            f"repeat: repeats needs at least one entry per dimension ({input.ndim}), but received {list(reps)}."
        )
    return jnp.tile(input, reps)


@defop(1)
def narrow(input, dim, start, length):
    """``length`` elements of axis ``dim`` from ``start`` (negative ``start`` counts from the end)."""
    ax = _axis(dim, input.ndim, "narrow")
    n = input.shape[ax]
    s = start + n if start < 0 else start
    if not 0 <= s <= n or length < 0 or s + length > n:
        raise ValueError(f"narrow: start {start} and length {length} do not fit in axis {dim} of size {n}.")
    return jnp.take(input, jnp.arange(s, s + length), axis=ax)


# ---- splits ------------------------------------------------------------------------------------
@defop(1)
def tensor_split(x, num_or_indices, axis=0):
    """Split into ``n`` nearly equal parts (the first ``size % n`` one longer) or at the given indices."""
    ax = _axis(axis, x.ndim, "tensor_split")
    if isinstance(num_or_indices, int):
        if num_or_indices <= 0:
            raise ValueError(f"tensor_split: the number of sections must be positive, but received {num_or_indices}.")
        return list(jnp.array_split(x, num_or_indices, axis=ax))
    # Paddle's rule: the part between two indices runs from the first to the second, each counted from the end
    # when negative and the end raised to the start; then clamped into the axis (indices past the size, or out of
    # order, give empty parts instead of an error)
    n, parts, start = x.shape[ax], [], 0
    for idx in [*_ints(num_or_indices, "tensor_split", "num_or_indices"), n]:
        lo = start + n if start < 0 else start
        hi = builtins.max(lo, idx + n if idx < 0 else idx)
        lo = builtins.min(builtins.max(lo + n if lo < 0 else lo, 0), n)
        hi = builtins.max(lo, builtins.min(builtins.max(hi + n if hi < 0 else hi, 0), n))
        parts.append(jax.lax.slice_in_dim(x, lo, hi, axis=ax))
        start = idx
    return parts


def _dir_split(name, axis, min_ndim):
    def fn(x, num_or_indices):
        if x.ndim < min_ndim:
            raise ValueError(f"{name}: x needs at least {min_ndim} dimensions, but it has {x.ndim}.")
        ax = 0 if (name == "hsplit" and x.ndim == 1) else axis
        return tensor_split.fn(x, num_or_indices, ax)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``tensor_split`` along axis {axis}" + (" (axis 0 for 1-D input)." if name == "hsplit" else ".")
    return defop(1, name=name)(fn)


_dir_split("hsplit", 1, 1)
_dir_split("vsplit", 0, 2)
_dir_split("dsplit", 2, 3)


@defop(1)
def split_with_sizes(self, split_sizes, dim=0):
    """Split into parts of the given sizes, which must add up to the axis size."""
    ax = _axis(dim, self.ndim, "split_with_sizes")
    sizes = list(_ints(split_sizes, "split_with_sizes", "split_sizes"))
    if sum(sizes) != self.shape[ax] or builtins.min(sizes, default=0) < 0:
        raise ValueError(f"split_with_sizes: sizes {sizes} do not add up to the axis size {self.shape[ax]}.")
    bounds = [sum(sizes[:i]) for i in range(1, len(sizes))]
    return list(jnp.split(self, bounds, axis=ax))


# ---- writing into slices --------------------------------------------------------------------------
def _at(ndim, axis, index):
    return tuple(index if i == axis else _py_slice(None) for i in range(ndim))


@defop(2)
def select_scatter(x, values, axis, index):
    """``x`` with the slice ``index`` of ``axis`` replaced by ``values``."""
    ax = _axis(axis, x.ndim, "select_scatter")
    return x.at[_at(x.ndim, ax, index)].set(jnp.asarray(values).astype(x.dtype))


@defop(2)
def slice_scatter(x, value, axes, starts, ends, strides):
    """``x`` with the strided slice ``starts:ends:strides`` on ``axes`` replaced by ``value``."""
    ix = [_py_slice(None)] * x.ndim
    for a, s, e, st in zip(axes, starts, ends, strides):
        ix[_axis(a, x.ndim, "slice_scatter")] = _py_slice(s, e, st)
    return x.at[tuple(ix)].set(jnp.asarray(value).astype(x.dtype))


@defop(2)
def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1):
    """``x`` with the diagonal ``offset`` of the plane ``(axis1, axis2)`` replaced by ``y``."""
    a1, a2 = _axis(axis1, x.ndim, "diagonal_scatter"), _axis(axis2, x.ndim, "diagonal_scatter")
    moved = jnp.moveaxis(x, (a1, a2), (-2, -1))
    n = jnp.diagonal(moved, offset, -2, -1).shape[-1]
    rows = jnp.arange(n) + builtins.max(-offset, 0)
    cols = jnp.arange(n) + builtins.max(offset, 0)
    out = moved.at[..., rows, cols].set(jnp.asarray(y).astype(x.dtype))
    return jnp.moveaxis(out, (-2, -1), (a1, a2))


def _fill_diagonal_checks(op, a):  # noqa: ANN001, ANN202
    x = a["x"]
    if x.ndim < 2:
        raise ValueError(f"Tensor.{op}_: x needs at least 2 dimensions, but it has shape {list(x.shape)}. "
                         "Fill a 1-D tensor with fill_() or index it.")
    return []


@defop(1, method=False, inplace=True, checks=_fill_diagonal_checks)
def fill_diagonal(x, value, offset=0, wrap=False):
    """``x`` with ``value`` written on its diagonal ``offset`` (``Tensor.fill_diagonal_``, Paddle's kernel: the flat
    positions ``0, s, 2s, ...`` with ``s`` the sum of the strides, shifted by ``offset`` within their row; a tall
    matrix is filled again every ``cols + 1`` rows with ``wrap``, a tensor of more than 2 dimensions always)."""
    cols = x.shape[1]
    stride = sum(int(np.prod(x.shape[i + 1:])) for i in range(x.ndim))
    size = x.size if (wrap or x.ndim > 2) else builtins.min(x.size, cols * cols)
    pos = np.arange(0, size, stride)
    pos = pos[(pos % cols + offset >= 0) & (pos % cols + offset < cols)] + offset
    flat = jnp.ravel(x).at[pos].set(jnp.asarray(value).astype(x.dtype))
    return jnp.reshape(flat, x.shape)


def _fill_diagonal_tensor_checks(op, a):  # noqa: ANN001, ANN202
    x, y, offset = a["x"], a["y"], a["offset"]
    a1, a2 = _axis(a["dim1"], x.ndim, op), _axis(a["dim2"], x.ndim, op)
    if a1 == a2:
        raise ValueError(f"{op}: dim1 and dim2 must name two different axes, but both are {a1}.")
    n1, n2 = x.shape[a1], x.shape[a2]
    n = builtins.max(0, builtins.min(n1 - builtins.max(-offset, 0), n2 - builtins.max(offset, 0)))
    want = [d for i, d in enumerate(x.shape) if i not in (a1, a2)] + [n]
    got = list(getattr(y, "shape", ()))
    if got != want:
        raise AssertionError(f"{op}: the y shape should be {want} (the axes of x other than dim1 and "
                             f"dim2, then the diagonal's length), but received {got}.")
    return []


@defop(2, nondiff=("y",), method=False, inplace=True, checks=_fill_diagonal_tensor_checks)
def fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1):
    """``x`` with the diagonal ``offset`` of the plane ``(dim1, dim2)`` replaced by ``y`` (its last axis the diagonal).
    As Paddle's kernel, the gradient goes to ``x`` only (zero on the diagonal), none to ``y``."""
    return diagonal_scatter.fn(x, y, offset, dim1, dim2)


# ---- index ops (tensors first; see the module docstring) --------------------------------------
@defop(2, saves=("index",), nondiff=("index",), method=False)
def take(x, index, mode="raise"):
    """Elements of the flattened ``x`` at ``index``: 'raise' (negative counts from the end), 'wrap' or 'clip'."""
    n = x.size
    if mode == "wrap":
        index = jnp.mod(index, n)
    elif mode == "clip":
        index = jnp.clip(index, 0, n - 1)
    else:
        index = jnp.where(index < 0, index + n, index)
    return jnp.ravel(x)[index]


def _index_sample_checks(op, a):  # noqa: ANN001, ANN202
    x, index = a["x"], a["index"]
    integer_index(op, index)
    xs, js = list(x.shape), list(getattr(index, "shape", ()))
    if len(xs) != 2 or len(js) != 2:
        raise ValueError(f"{op}: x and index must be 2-D, but received shapes {xs} and {js}. Pass [N, M] and [N, K].")
    if xs[0] != js[0] and xs[0] >= 0 and js[0] >= 0:
        raise ValueError(
            f"{op}: index must have one row per row of x, but x has shape {xs} and index {js}. Give index "
            f"{xs[0]} rows."
        )
    return [index_range(op, index, xs[1], "index", False)]


@defop(2, saves=("index",), nondiff=("index",), checks=_index_sample_checks)
def index_sample(x, index):
    """Row ``i`` of the result is ``x[i, index[i, :]]`` (x and index 2-D)."""
    return jnp.take_along_axis(x, index, axis=1)


def _index_add_checks(op, a):  # noqa: ANN001, ANN202
    """index_add: a 1-D integer index whose values address ``axis`` of ``x`` (``[-n, n)``), and a value shaped as
    ``x`` with ``len(index)`` on ``axis`` (Paddle does not broadcast it)."""
    x, index, value = a["x"], a["index"], a["value"]
    op = op.removesuffix("_op")  # (the public name, index_add)
    integer_index(op, index)
    xs, js = list(x.shape), list(getattr(index, "shape", ()))
    if len(js) != 1:
        raise ValueError(f"{op}: index must be a 1-D tensor, but received shape {js}. Reshape it to [-1] first.")
    ax = _axis(a["axis"], len(xs), op)
    want = [js[0] if i == ax else d for i, d in enumerate(xs)]
    vs = list(getattr(value, "shape", ()))
    if vs != want and all(d >= 0 for d in want + vs):
        raise ValueError(
            f"{op}: value must have the shape of x with len(index) on axis {ax}, {want}, but received shape "
            f"{vs} (it is not broadcast). Pass a value of shape {want}."
        )
    return [index_range(op, index, xs[ax], "index", True)]


@defop(3, saves=("index",), nondiff=("index",), method=False, checks=_index_add_checks)
def index_add_op(x, index, value, axis, alpha=1):
    """``x`` with ``alpha * value`` added to the slices ``index`` of ``axis``."""
    ax = _axis(axis, x.ndim, "index_add")
    return x.at[_at(x.ndim, ax, index)].add((alpha * value).astype(x.dtype))


@defop(2, saves=("index",), nondiff=("index",), method=False)
def index_fill_op(x, index, axis, value):
    """``x`` with the slices ``index`` of ``axis`` set to the scalar ``value``."""
    ax = _axis(axis, x.ndim, "index_fill")
    return x.at[_at(x.ndim, ax, index)].set(jnp.asarray(value).astype(x.dtype))


_SCATTER_REDUCE = {"sum": "add", "prod": "mul", "mean": "mean", "amin": "amin", "amax": "amax"}


@defop(3, saves=("input", "index", "src"), nondiff=("index",), method=False)
def scatter_reduce_op(input, index, src, dim, reduce, include_self=True):
    """``src`` reduced into ``input`` along ``dim`` at ``index`` (sum, prod, mean, amin, amax)."""
    if reduce not in _SCATTER_REDUCE:
        raise ValueError(f"scatter_reduce: reduce must be one of {', '.join(_SCATTER_REDUCE)}, but received {reduce!r}.")
    src = src[tuple(_py_slice(0, n) for n in index.shape)]
    return put_along_axis.fn(input, index, src, dim, _SCATTER_REDUCE[reduce], include_self, False)


@defop(3, saves=("index",), nondiff=("index",), method=False)
def scatter_add_op(input, index, src, dim):
    """``src`` summed into ``input`` along ``dim`` at ``index``."""
    src = src[tuple(_py_slice(0, n) for n in index.shape)]
    return put_along_axis.fn(input, index, src, dim, "add", True, False)


# ---- differences, integrals, sorting, small builders --------------------------------------------
@defop(("x", "prepend", "append"), method=False)
def diff_op(x, prepend=None, append=None, n=1, axis=-1):
    """The ``n``-th forward difference along ``axis``, after joining ``prepend`` and ``append``."""
    return jnp.diff(x, n=n, axis=axis, prepend=prepend, append=append)


def _spacing(api, y, x, dx, axis):
    if x is not None and dx is not None:
        raise ValueError(f"{api}: give either x or dx, not both.")
    if x is None:
        return 1.0 if dx is None else dx
    d = jnp.diff(x, axis=axis if x.ndim == y.ndim else -1)
    if x.ndim == 1 and y.ndim > 1:
        d = jnp.reshape(d, [-1 if i == axis % y.ndim else 1 for i in range(y.ndim)])
    return d


def _pairs(y, axis):
    n = y.shape[axis]
    lo = jnp.take(y, jnp.arange(n - 1), axis=axis)
    hi = jnp.take(y, jnp.arange(1, n), axis=axis)
    return (lo + hi) / 2


@defop(("y", "x"), saves=("y", "x"))
def trapezoid(y, x=None, dx=None, axis=-1):
    """Integral of ``y`` along ``axis`` by the trapezoidal rule (sample points ``x`` or spacing ``dx``)."""
    return jnp.sum(_spacing("trapezoid", y, x, dx, axis) * _pairs(y, axis), axis=axis).astype(y.dtype)


@defop(("y", "x"), saves=("y", "x"))
def cumulative_trapezoid(y, x=None, dx=None, axis=-1):
    """Running trapezoidal integral of ``y`` along ``axis`` (one element shorter than ``y``)."""
    return jnp.cumsum(_spacing("cumulative_trapezoid", y, x, dx, axis) * _pairs(y, axis), axis=axis).astype(y.dtype)


@defop(1, saves=("input",))
def msort(input):
    """Sorted along axis 0."""
    return jnp.sort(input, axis=0)


@defop(1, saves=("x",))
def vander(x, n=None, increasing=False):
    """Vandermonde matrix of a 1-D ``x``: columns are powers of x (decreasing unless ``increasing``)."""
    if x.ndim != 1:
        raise ValueError(f"vander: x must be 1-D, but it has {x.ndim} dimensions.")
    return jnp.vander(x, N=n, increasing=increasing)


@defop(1)
def block_diag(inputs):
    """The tensors (0-D, 1-D or 2-D) placed along the diagonal of one 2-D tensor. A Tensor given for ``inputs`` is
    read as the list of its rows, as in Paddle (``x.block_diag()`` puts the rows of ``x`` on the diagonal)."""
    return jsl.block_diag(*[jnp.atleast_2d(t) for t in inputs])

