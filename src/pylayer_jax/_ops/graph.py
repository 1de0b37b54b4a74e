"""Graph message passing and segment reductions (``paddle.geometric``'s kernels).

``segment_sum`` / ``mean`` / ``max`` / ``min`` reduce the rows of ``data`` per segment id into ``num_segments``
rows (the public functions read that count from the ids, which must be sorted); ``send_u_recv`` / ``send_ue_recv`` gather rows
of ``x`` along edges ``src -> dst``, combine them with an edge feature ``y`` (add, sub, mul, div) and reduce them
per destination (sum, mean, max, min) into ``out_size`` rows; ``send_uv`` combines ``x[src]`` with ``y[dst]``.

As Paddle's kernels: a row no edge (segment) reaches is zero; a mean of integers truncates; max and min give the
whole cotangent of a row to every input equal to it (ties are not split), which ``_extreme`` says as a JVP.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from .checks import ValueCheck, dtype_of
from .table import defop

_REDUCE = ("sum", "mean", "max", "min")
_MESSAGE = ("add", "sub", "mul", "div")


@functools.partial(jax.custom_jvp, nondiff_argnums=(2, 3))
def _extreme(data, ids, n, kind):  # noqa: ANN001, ANN202
    """Per-segment max / min of ``data`` rows (an empty segment 0)."""
    seg = jax.ops.segment_max if kind == "max" else jax.ops.segment_min
    out = seg(data, ids, num_segments=n)
    count = jax.ops.segment_sum(jnp.ones(ids.shape, jnp.int32), ids, num_segments=n)
    return jnp.where(jnp.reshape(count > 0, (n,) + (1,) * (data.ndim - 1)), out, jnp.zeros((), data.dtype))


@_extreme.defjvp
def _extreme_jvp(n, kind, primals, tangents):  # noqa: ANN001, ANN202
    data, ids = primals
    out = _extreme(data, ids, n, kind)
    hit = data == out[ids]
    return out, jax.ops.segment_sum(jnp.where(hit, tangents[0], jnp.zeros((), tangents[0].dtype)), ids, num_segments=n)


def _reduce(data, ids, n, kind):  # noqa: ANN001, ANN202
    """``data`` rows reduced by ``kind`` into ``n`` rows by the segment ``ids``."""
    if kind in ("max", "min"):
        return _extreme(data, ids, n, kind)
    total = jax.ops.segment_sum(data, ids, num_segments=n)
    if kind == "sum":
        return total
    # (counted at every element, not broadcast: XLA makes ``a / broadcast(c)`` a product with ``1 / c``, which rounds
    # 7 / 3 otherwise than Paddle's division)
    count = jnp.maximum(jax.ops.segment_sum(jnp.ones(data.shape, data.dtype), ids, num_segments=n), 1)
    if jnp.issubdtype(data.dtype, jnp.integer):
        return jax.lax.div(total, count)  # (C++ integer division: toward zero)
    return total / count


def _ids(op, name, t):  # noqa: ANN001, ANN202
    dt = dtype_of(t)
    if dt is None or dt.name not in ("int32", "int64"):
        raise ValueError(f"{op}: {name} must be an int32 or int64 tensor, but received "
                         f"{getattr(dt, 'name', type(t).__name__)}. Cast it with .astype('int64').")
    shape = list(t.shape)
    n = int(np.prod(shape))
    if name == "segment_ids":  # (Paddle: the ids run along the first axis; any further axes are of size 1)
        if not shape or shape[0] != n:
            raise ValueError(f"{op}: segment_ids must be a 1-D tensor (or of shape [N, 1, ...]: the ids along the "
                             f"first axis), but received shape {shape}. Flatten it with .reshape([-1]).")
    elif not (len(shape) == 1 or (len(shape) == 2 and shape[1] == 1)):  # (an edge index: [E] or [E, 1])
        raise ValueError(f"{op}: {name} must be of shape [E] or [E, 1] (one entry per edge), but received shape "
                         f"{shape}. Flatten it with .reshape([-1]).")
    return n


def _segment_checks(op, a):  # noqa: ANN001, ANN202
    data, ids = a["data"], a["segment_ids"]
    n = _ids(op, "segment_ids", ids)
    if not list(data.shape) or n != data.shape[0]:
        raise ValueError(f"{op}: segment_ids must have one id per row of data ({list(data.shape)[:1]}), but received "
                         f"{n} ids.")
    return [ValueCheck(ids, f"{op}: the segment id {{value}} is out of range: ids must be in [0, {a['num_segments']})"
                            ".", lo=0, hi=a["num_segments"], exc=IndexError)]


def _segment_op(kind):  # noqa: ANN001, ANN202
    def fn(data, segment_ids, num_segments):
        return _reduce(data, jnp.ravel(segment_ids), num_segments, kind)

    fn.__name__ = fn.__qualname__ = f"segment_{kind}"
    fn.__doc__ = (f"The rows of ``data`` reduced by {kind} per id of ``segment_ids`` into ``num_segments`` rows (the "
                  "public function counts them from the ids); a segment without rows is zero.")
    return defop(2, saves=("data", "segment_ids"), nondiff=("segment_ids",), method=False, checks=_segment_checks)(fn)


for _kind in _REDUCE:
    _segment_op(_kind)


def _edge_checks(op, a, rows_y=None):  # noqa: ANN001, ANN202
    x, src, dst = a["x"], a["src_index"], a["dst_index"]
    ns, nd = _ids(op, "src_index", src), _ids(op, "dst_index", dst)
    if dtype_of(src) != dtype_of(dst):
        raise ValueError(f"{op}: src_index and dst_index must have the same dtype, but received "
                         f"{dtype_of(src).name} and {dtype_of(dst).name}.")
    if ns != nd:
        raise ValueError(f"{op}: src_index and dst_index must have the same shape (one entry per edge), but received "
                         f"{list(src.shape)} and {list(dst.shape)}.")
    if not list(x.shape):
        raise ValueError(f"{op}: x must have at least 1 dimension (one row per node), but received a 0-D tensor.")
    return ns, x.shape[0], (x.shape[0] if rows_y is None else rows_y)


def _features(op, fx, fy):  # noqa: ANN001, ANN202
    try:
        return jnp.broadcast_shapes(tuple(fx), tuple(fy))
    except ValueError:
        raise ValueError(f"{op}: the feature dimensions of x {list(fx)} and y {list(fy)} must broadcast together."
                         ) from None


def _out_rows(op, out_size, n):  # noqa: ANN001, ANN202
    if out_size is None:
        return n
    if not isinstance(out_size, int) or isinstance(out_size, bool):
        raise TypeError(f"{op}: out_size must be an int or None, but received {type(out_size).__name__}.")
    return n if out_size <= 0 else out_size


def _recv_checks(op, a):  # noqa: ANN001, ANN202
    e, n, _ = _edge_checks(op, a)
    if a["reduce_op"] not in _REDUCE:
        raise ValueError(f"{op}: reduce_op should be `sum`, `mean`, `max` or `min`, but received {a['reduce_op']}.")
    rows = _out_rows(op, a["out_size"], n)
    return [ValueCheck(a["src_index"], f"{op}: the source index {{value}} is out of range: x has {n} rows.", lo=0,
                       hi=n, exc=IndexError),
            ValueCheck(a["dst_index"], f"{op}: the destination index {{value}} is out of range: the output has {rows} "
                       "rows (out_size).", lo=0, hi=rows, exc=IndexError)]


@defop(3, saves=("x", "src_index", "dst_index"), nondiff=("src_index", "dst_index"), method=False, checks=_recv_checks)
def send_u_recv(x, src_index, dst_index, reduce_op="sum", out_size=None):
    """``x[src]`` sent along each edge and reduced per ``dst`` by ``reduce_op`` into ``out_size`` rows (x's rows
    when None or not positive)."""
    rows = _out_rows("send_u_recv", out_size, x.shape[0])
    return _reduce(x[jnp.ravel(src_index)], jnp.ravel(dst_index), rows, reduce_op)


def _message(a, b, message_op):  # noqa: ANN001, ANN202
    """``a (message_op) b`` row by row, as Paddle's: 'sub' adds ``-b``, 'div' multiplies by ``1 / (b + 1e-12)``."""
    if message_op == "add":
        return a + b
    if message_op == "sub":
        return a + -b
    if message_op == "mul":
        return a * b
    return a * (1 / (b + jnp.asarray(1e-12, b.dtype)))


def _rows_pair(x, y):  # noqa: ANN001, ANN202
    """``x`` and ``y`` as Paddle lines them up: a 1-D one a column, the one of fewer dimensions given size-1 axes
    after its first (the feature axes broadcast from the right)."""
    x = x[:, None] if x.ndim == 1 else x
    y = y[:, None] if y.ndim == 1 else y
    n = max(x.ndim, y.ndim)
    pad = lambda t: jnp.reshape(t, t.shape[:1] + (1,) * (n - t.ndim) + t.shape[1:])  # noqa: E731
    return pad(x), pad(y)


def _pair_dtypes(op, x, y, message_op):  # noqa: ANN001, ANN202
    if dtype_of(x) != dtype_of(y):
        raise ValueError(f"{op}: x and y must have the same dtype, but received {dtype_of(x).name} and "
                         f"{dtype_of(y).name}. Cast y with .astype().")
    if message_op == "div" and not np.issubdtype(dtype_of(y), np.floating):
        raise ValueError(f"{op}: message_op 'div' needs floating x and y (Paddle divides by multiplying with 1 / y), "
                         f"but received {dtype_of(y).name}. Cast them with .astype('float32').")


def _ue_checks(op, a):  # noqa: ANN001, ANN202
    found = _recv_checks(op, a)
    x, y = a["x"], a["y"]
    if a["message_op"] not in _MESSAGE:
        raise ValueError(f"{op}: message_op should be `add`, `sub`, `mul`, `div`, but received {a['message_op']}.")
    _pair_dtypes(op, x, y, a["message_op"])
    e = _ids(op, "src_index", a["src_index"])
    if not list(y.shape) or y.shape[0] != e:
        raise ValueError(f"{op}: y must have one row per edge ({e}, as src_index), but received shape "
                         f"{list(y.shape)}.")
    _features(op, list(x.shape)[1:] or [1], list(y.shape)[1:] or [1])
    return found


@defop(4, saves=("x", "y", "src_index", "dst_index"), nondiff=("src_index", "dst_index"), method=False,
       checks=_ue_checks)
def send_ue_recv(x, y, src_index, dst_index, message_op="add", reduce_op="sum", out_size=None):
    """``x[src] (message_op) y`` along each edge, reduced per ``dst`` by ``reduce_op`` into ``out_size`` rows (x's
    rows when None or not positive); a 1-D ``x`` or ``y`` is a column."""
    rows = _out_rows("send_ue_recv", out_size, x.shape[0])
    x, y = _rows_pair(x, y)
    msg = _message(x[jnp.ravel(src_index)], y, message_op)
    return _reduce(msg, jnp.ravel(dst_index), rows, reduce_op)


def _uv_checks(op, a):  # noqa: ANN001, ANN202
    x, y = a["x"], a["y"]
    _edge_checks(op, a)
    if a["message_op"] not in _MESSAGE:
        raise ValueError(f"{op}: message_op should be `add`, `sub`, `mul`, `div`, but received {a['message_op']}.")
    _pair_dtypes(op, x, y, a["message_op"])
    if not list(y.shape):
        raise ValueError(f"{op}: y must have at least 1 dimension (one row per node), but received a 0-D tensor.")
    _features(op, list(x.shape)[1:] or [1], list(y.shape)[1:] or [1])
    return [ValueCheck(a["src_index"], f"{op}: the source index {{value}} is out of range: x has {x.shape[0]} rows.",
                       lo=0, hi=x.shape[0], exc=IndexError),
            ValueCheck(a["dst_index"], f"{op}: the destination index {{value}} is out of range: y has {y.shape[0]} "
                       "rows.", lo=0, hi=y.shape[0], exc=IndexError)]


@defop(4, saves=("x", "y", "src_index", "dst_index"), nondiff=("src_index", "dst_index"), method=False,
       checks=_uv_checks)
def send_uv(x, y, src_index, dst_index, message_op="add"):
    """``x[src] (message_op) y[dst]`` for each edge (a 1-D ``x`` or ``y`` is a column)."""
    x, y = _rows_pair(x, y)
    return _message(x[jnp.ravel(src_index)], y[jnp.ravel(dst_index)], message_op)
