"""Ops that place values by index or mask, combine inputs into products, and split indices into shards.

``index_put`` writes (or sums) ``value`` at the positions a tuple of integer index tensors addresses,
``masked_scatter`` fills the True positions of a mask with consecutive elements of a source, ``cartesian_prod``
lists every combination of the elements of 1-D inputs, ``polar`` builds complex numbers from magnitudes and
angles, and ``shard_index`` maps global ids to the ids local to one shard. Index and mask inputs never get
gradients; the values enter linearly.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .checks import ValueCheck, dtype_of, integer_index
from .table import defop

# table ops that are Paddle functions without being Tensor methods
FUNCTIONS = ("cartesian_prod", "searchsorted")


def _index_put_checks(op, a):  # noqa: ANN001, ANN202
    x, indices = a["x"], a["indices"]
    if not isinstance(indices, list | tuple) or not indices:
        raise ValueError(
            f"{op}: indices must be a non-empty tuple or list of index Tensors, one per leading dimension of x, but "
            f"received {type(indices).__name__}. Pass (rows, cols, ...) as a tuple."
        )
    if len(indices) > len(x.shape):
        raise ValueError(
            f"{op}: {len(indices)} index tensors address more dimensions than x has ({len(x.shape)}, shape "
            f"{list(x.shape)}). Give at most one index tensor per dimension."
        )
    checks = []
    for d, index in enumerate(indices):
        integer_index(op, index, f"indices[{d}]")
        n = x.shape[d]
        checks.append(ValueCheck(
            index, f"{op}: index {{value}} in indices[{d}] is out of range for dimension {d} of x (size {n}); it must "
            f"be in [{-n}, {n}). Fix the index values.", lo=-n, hi=n, exc=IndexError))
    return checks


@defop(("x", "indices", "value"), saves=("indices",), nondiff=("indices",), inplace=True, checks=_index_put_checks)
def index_put(x, indices, value, accumulate=False):
    """``x`` with ``value`` written at ``x[indices[0], indices[1], ...]`` (the index tensors broadcast together,
    negative entries count from the end, ``value`` broadcasts to what they pick); ``accumulate=True`` sums into
    those positions instead, so repeated positions add up (without it the last write of a repeat wins)."""
    index = tuple(indices)
    value = jnp.asarray(value).astype(x.dtype)
    if accumulate:
        return x.at[index].add(value)
    return x.at[index].set(value)


def _masked_scatter_checks(op, a):  # noqa: ANN001, ANN202
    x, mask, value = a["x"], a["mask"], a["value"]
    dt = dtype_of(mask)
    if dt is not None and dt != np.bool_:
        raise TypeError(
            f"{op}: mask must be a bool tensor, but received dtype {dt.name}. Compare to make one, e.g. x > 0."
        )
    try:
        np.broadcast_shapes(tuple(x.shape), tuple(mask.shape))
    except ValueError:
        raise ValueError(
            f"{op}: mask of shape {list(mask.shape)} does not broadcast to x of shape {list(x.shape)}. Give a mask "
            "whose trailing dimensions match x's (or are 1)."
        ) from None
    have = _true_count(mask, np.broadcast_shapes(tuple(x.shape), tuple(mask.shape)))
    n = int(np.prod(getattr(value, "shape", ())))
    if have is not None and have > n:
        raise ValueError(
            f"{op}: the mask holds {have} True entries, but value has only {n} elements to place. Give a value "
            "with at least as many elements as the mask has True entries."
        )
    return []


def _true_count(mask, shape):  # noqa: ANN001, ANN202
    """The number of True entries of ``mask`` broadcast to ``shape`` (None where its values are traced). A mask
    not computed yet (a deferred result) is computed now: the count decides whether the call is right, and the
    kernel could only clamp its reads."""
    v = getattr(mask, "_v", mask)
    if not isinstance(v, jax.Array | np.ndarray) and callable(getattr(v, "get", None)):  # (a deferred value)
        v = v.get()
    if (isinstance(v, jax.Array) and not isinstance(v, jax.core.Tracer)) or isinstance(v, np.ndarray):
        return int(np.count_nonzero(np.broadcast_to(np.asarray(v), shape)))
    return None


@defop(("x", "mask", "value"), saves=("mask",), nondiff=("mask",), inplace=True, checks=_masked_scatter_checks)
def masked_scatter(x, mask, value):
    """``x`` with its positions where ``mask`` (broadcast to x) is True filled, in row-major order, by the first
    elements of ``value`` (read flat; it needs at least as many elements as the mask has True entries)."""
    shape = jnp.broadcast_shapes(x.shape, mask.shape)
    m = jnp.broadcast_to(mask, shape)
    x = jnp.broadcast_to(x, shape)
    src = jnp.ravel(value).astype(x.dtype)
    if src.size == 0:
        return x
    pos = jnp.clip(jnp.cumsum(jnp.ravel(m)) - 1, 0, src.size - 1)
    return jnp.where(m, jnp.take(src, pos).reshape(shape), x)


def _cartesian_checks(op, a):  # noqa: ANN001, ANN202
    x = a["x"]
    if not isinstance(x, list | tuple) or not x:
        raise ValueError(
            f"{op}: x must be a non-empty list or tuple of 1-D Tensors, but received {type(x).__name__}. Pass "
            "[a, b, ...]."
        )
    for i, t in enumerate(x):
        if len(t.shape) != 1:
            raise ValueError(
                f"{op}: every input must be 1-D, but x[{i}] has shape {list(t.shape)}. Flatten it first."
            )
    kinds = {dtype_of(t) for t in x} - {None}
    if len(kinds) > 1:
        raise ValueError(
            f"{op}: the inputs must share one dtype, but received {sorted(k.name for k in kinds)}. Cast them to one "
            "dtype first."
        )
    return []


@defop(1, method=False, checks=_cartesian_checks)
def cartesian_prod(x):
    """Every combination of one element from each 1-D tensor of ``x``, as the rows of a [N, len(x)] tensor (the
    last input varying fastest); a single input comes back as it is."""
    if len(x) == 1:
        return jnp.asarray(x[0])
    grids = jnp.meshgrid(*x, indexing="ij")
    return jnp.stack([jnp.ravel(g) for g in grids], axis=1)


_COMPLEX_OF = {np.dtype("float32"): jnp.complex64, np.dtype("float64"): jnp.complex128}


def _polar_checks(op, a):  # noqa: ANN001, ANN202
    for name in ("abs", "angle"):
        dt = dtype_of(a[name])
        if dt is not None and dt not in _COMPLEX_OF:
            raise TypeError(
                f"{op}: {name} must be a float32 or float64 tensor, but received dtype {dt.name}. Cast it with "
                ".astype('float32')."
            )
    return []


@defop(2, saves=("abs", "angle"), checks=_polar_checks)
def polar(abs, angle):  # noqa: A002  (Paddle's parameter name)
    """The complex numbers ``abs * (cos(angle) + i sin(angle))`` (the two broadcast together): complex64 from
    float32 inputs, complex128 where either is float64."""
    dt = jnp.promote_types(abs.dtype, angle.dtype)
    abs, angle = abs.astype(dt), angle.astype(dt)
    return jax.lax.complex(abs * jnp.cos(angle), abs * jnp.sin(angle))


def _shard_checks(op, a):  # noqa: ANN001, ANN202
    x, index_num, nshards, shard_id = a["input"], a["index_num"], a["nshards"], a["shard_id"]
    integer_index(op, x, "input")
    if len(x.shape) < 2:
        raise ValueError(
            f"{op}: input must have at least 2 dimensions (ids of shape [N, 1]), but received shape "
            f"{list(x.shape)}. Unsqueeze it with x.unsqueeze(-1)."
        )
    if x.shape[-1] != 1:
        raise ValueError(
            f"{op}: the last dimension of input must be 1 (ids of shape [..., 1]), but received shape "
            f"{list(x.shape)}. Reshape it to [-1, 1]."
        )
    for name, v in (("index_num", index_num), ("nshards", nshards)):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ValueError(f"{op}: {name} must be a positive int, but received {v!r}.")
    if isinstance(shard_id, bool) or not isinstance(shard_id, int) or not 0 <= shard_id < nshards:
        raise ValueError(
            f"{op}: shard_id must be an int in [0, nshards) = [0, {nshards}), but received {shard_id!r}."
        )
    n = index_num
    return [ValueCheck(x, f"{op}: id {{value}} is out of range: ids must be in [0, index_num) = [0, {n}). Fix the "
                          "ids or raise index_num.", lo=0, hi=n)]


@defop(1, differentiable=False, checks=_shard_checks)
def shard_index(input, index_num, nshards, shard_id, ignore_value=-1):  # noqa: A002  (Paddle's parameter name)
    """Global ids mapped to shard ``shard_id``'s local ids: with ``size = ceil(index_num / nshards)``, an id of
    that shard (``id // size == shard_id``) becomes ``id % size``, every other id ``ignore_value``."""
    size = (index_num + nshards - 1) // nshards
    return jnp.where(input // size == shard_id, input % size, jnp.asarray(ignore_value, input.dtype))
