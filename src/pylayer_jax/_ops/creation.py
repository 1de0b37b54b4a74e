"""Creation ops: filled tensors, ranges, identity and diagonal matrices, triangles, grids, copies.

Shapes may be ints, lists or tuples (of ints or 0-D Tensors) or a Tensor; they arrive here as
Python values. Without ``dtype``, ``zeros``/``ones``/``full``/``empty``/``eye``/``linspace``/
``logspace`` give the default float dtype (``full`` with a bool gives bool); ``arange`` gives
int64 when start, end and step are all integers.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .._runtime import dtypes as _dtypes
from ._promote import is_weak
from ._util import check_numel, dtype_arg
from .table import defop

# public functions that are not Tensor methods
FUNCTIONS = (
    "zeros",
    "ones",
    "empty",
    "full",
    "zeros_like",
    "ones_like",
    "empty_like",
    "full_like",
    "arange",
    "linspace",
    "logspace",
    "eye",
    "tril_indices",
    "triu_indices",
    "meshgrid",
    "assign",
)


def _shape(shape, api):
    if isinstance(shape, int | np.integer):
        shape = (shape,)
    dims = tuple(int(d) for d in np.ravel(np.asarray(shape, dtype=np.int64)))
    if any(d < 0 for d in dims):
        raise ValueError(f"{api}: every dimension of shape must be >= 0, but received {list(dims)}.")
    check_numel(dims, api)
    return dims


def _float_dtype(dtype):
    return _dtypes.default_float() if dtype is None else dtype_arg(dtype)


@defop(0, differentiable=False, method=False)
def zeros(shape, dtype=None):
    """A tensor of zeros (default float dtype unless ``dtype``)."""
    return jnp.zeros(_shape(shape, "zeros"), _float_dtype(dtype))


@defop(0, differentiable=False, method=False)
def ones(shape, dtype=None):
    """A tensor of ones (default float dtype unless ``dtype``)."""
    return jnp.ones(_shape(shape, "ones"), _float_dtype(dtype))


@defop(0, differentiable=False, method=False)
def empty(shape, dtype=None):
    """An uninitialised tensor; here filled with zeros (default float dtype unless ``dtype``)."""
    return jnp.zeros(_shape(shape, "empty"), _float_dtype(dtype))


@defop(0, differentiable=False, method=False, numbers=("fill_value",))
def full(shape, fill_value, dtype=None):
    """A tensor filled with ``fill_value``: bool for a bool value, complex128 for a Python complex, else the default
    float dtype unless ``dtype``."""
    if dtype is None and isinstance(fill_value, bool):
        dt = np.dtype(bool)
    elif dtype is None and isinstance(fill_value, complex):  # (a Python complex: complex128, as in Paddle)
        dt = np.dtype("complex128")
    else:
        dt = _float_dtype(dtype)
    return jnp.full(_shape(shape, "full"), fill_value, dt)


def _like(name, fill, doc):
    def fn(x, dtype=None):
        return jnp.full(x.shape, fill, x.dtype if dtype is None else dtype_arg(dtype))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return defop(1, name=name, differentiable=False, method=False)(fn)


_like("zeros_like", 0, "Zeros with x's shape and (unless ``dtype``) dtype.")
_like("ones_like", 1, "Ones with x's shape and (unless ``dtype``) dtype.")
_like("empty_like", 0, "An uninitialised tensor like x; here filled with zeros.")


@defop(1, differentiable=False, method=False, numbers=("fill_value",))
def full_like(x, fill_value, dtype=None):
    """``fill_value`` with x's shape and (unless ``dtype``) dtype."""
    return jnp.full(x.shape, fill_value, x.dtype if dtype is None else dtype_arg(dtype))


@defop(0, differentiable=False, method=False)
def arange(start=0, end=None, step=1, dtype=None):
    """``start, start + step, ...`` below ``end`` (``arange(n)`` counts from 0); int64 for integer
    arguments, the default float dtype otherwise."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        ints = all(isinstance(v, int | np.integer) for v in (start, end, step))  # a bool counts as an int
        dt = np.dtype("int64") if ints else _dtypes.default_float()
    else:
        dt = dtype_arg(dtype)
    if not jnp.issubdtype(dt, jnp.inexact):  # as Paddle: start, end and step are cast to the integer dtype first
        start, end, step = (int(np.trunc(v)) for v in (start, end, step))
    if step == 0:
        raise ValueError(f"arange: step must not be 0 (after the cast to {dt.name}, which truncates a fractional "
                         "step); pass a nonzero step of the dtype.")
    n = max(int(np.ceil((end - start) / step)), 0)
    return (start + step * jnp.arange(n, dtype=np.float64 if jnp.issubdtype(dt, jnp.inexact) else dt)).astype(dt)


def _linspace_checks(op, a):  # noqa: ANN001, ANN202
    if isinstance(a["num"], int) and a["num"] < 0:
        raise ValueError(f"{op}: num must be a non-negative int, but received {a['num']}.")
    return []


@defop(0, differentiable=False, method=False, checks=_linspace_checks)
def linspace(start, stop, num, dtype=None):
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive."""
    dt = _float_dtype(dtype)
    return jnp.linspace(start, stop, int(num), dtype=np.float64).astype(dt)


@defop(0, differentiable=False, method=False)
def logspace(start, stop, num, base=10.0, dtype=None):
    """``base ** linspace(start, stop, num)``."""
    dt = _float_dtype(dtype)
    return jnp.power(base, jnp.linspace(start, stop, int(num), dtype=np.float64)).astype(dt)


def _eye_checks(op, a):  # noqa: ANN001, ANN202
    for name in ("num_rows", "num_columns"):
        v = a[name]
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise TypeError(f"{op}: {name} must be a non-negative int, but received {v!r}.")
    return []


@defop(0, differentiable=False, method=False, checks=_eye_checks)
def eye(num_rows, num_columns=None, dtype=None):
    """A ``num_rows x num_columns`` identity matrix."""
    return jnp.eye(int(num_rows), None if num_columns is None else int(num_columns), dtype=_float_dtype(dtype))


@defop(0, differentiable=False, method=False)
def tril_indices(row, col, offset=0, dtype="int64"):
    """The ``[2, n]`` row/column indices of the lower triangle of a ``row x col`` matrix."""
    return jnp.asarray(np.stack(np.tril_indices(row, offset, col)), dtype_arg(dtype))


@defop(0, differentiable=False, method=False)
def triu_indices(row, col=None, offset=0, dtype="int64"):
    """The ``[2, n]`` row/column indices of the upper triangle of a ``row x col`` matrix."""
    return jnp.asarray(np.stack(np.triu_indices(row, offset, row if col is None else col)), dtype_arg(dtype))


# ---- from a tensor: differentiable ---------------------------------------------------------------
@defop(1)
def diag(x, offset=0, padding_value=0):
    """A 1-D x becomes a matrix with x on diagonal ``offset`` (``padding_value`` elsewhere); a 2-D x
    gives its diagonal ``offset``."""
    if x.ndim == 1:
        m = jnp.diag(x, k=offset)
        if padding_value != 0:
            mask = jnp.eye(m.shape[0], dtype=bool, k=offset)
            m = jnp.where(mask, m, jnp.asarray(padding_value).astype(x.dtype))
        return m
    if x.ndim == 2:
        return jnp.diagonal(x, offset)
    raise ValueError(f"diag: x must be 1-D or 2-D, but received a {x.ndim}-D tensor of shape {list(x.shape)}.")


@defop(1)
def diagflat(x, offset=0):
    """A matrix with the flattened x on diagonal ``offset``."""
    return jnp.diagflat(x, k=offset)


@defop(1)
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Put the last dimension of ``input`` on diagonal ``offset`` of new dimensions ``dim1``, ``dim2``."""
    n = input.shape[-1]
    m = n + abs(offset)
    out = jnp.zeros((*input.shape[:-1], m, m), input.dtype)
    rows = jnp.arange(n) + max(-offset, 0)
    cols = jnp.arange(n) + max(offset, 0)
    out = out.at[..., rows, cols].set(input)
    return jnp.moveaxis(out, (-2, -1), (dim1, dim2))


@defop(1, inplace=True)
def tril(x, diagonal=0):
    """The lower triangle of the last two axes (zeros above diagonal ``diagonal``)."""
    return jnp.tril(x, diagonal)


@defop(1, inplace=True)
def triu(x, diagonal=0):
    """The upper triangle of the last two axes (zeros below diagonal ``diagonal``)."""
    return jnp.triu(x, diagonal)


@defop(1, method=False)
def meshgrid(args):
    """Coordinate grids (``ij`` indexing) from 1-D tensors of one dtype: one output per input."""
    args = [a.reshape(1) if a.ndim == 0 else a for a in args]  # a 0-D tensor counts as one element, as in Paddle
    for i, a in enumerate(args[1:], 1):
        if a.dtype != args[0].dtype:
            raise ValueError(f"meshgrid: the tensors must have one dtype, but the first is {args[0].dtype.name} and "
                             f"tensor {i} is {a.dtype.name}; cast them to one dtype first.")
    return list(jnp.meshgrid(*args, indexing="ij"))


@defop(1, method=False)
def assign(x, output=None):
    """A copy of ``x`` (a Tensor, numpy array, list or scalar) as a new tensor."""
    if output is not None:
        raise ValueError(
            "assign: writing into output= is not supported; use y = assign(x), or y.set_value(x) to overwrite y."
        )
    if is_weak(x) and jnp.ndim(x) == 0:  # a Python number: shape [1], as in Paddle (a 0-D array stays 0-D)
        return jnp.array(x, copy=True).reshape(1)
    return jnp.array(x, copy=True)


@defop(1)
def clone(x):
    """A copy of ``x`` that stays on the gradient graph."""
    return jnp.array(x, copy=True)
