"""``paddle.geometric``: message passing on graphs given as edge lists (``send_u_recv``, ``send_ue_recv``,
``send_uv``), segment reductions over sorted ids (``segment_sum`` / ``mean`` / ``max`` / ``min``), and the
re-indexing of sampled neighbourhoods (``reindex_graph``, ``reindex_heter_graph``), and neighbour sampling on a
graph in CSC form (``sample_neighbors``, ``weighted_sample_neighbors``; see ``_sampling`` for the draws).

>>> import pylayer_jax as paddle
>>> x = paddle.to_tensor([[0.0, 2.0], [1.0, 4.0], [2.0, 6.0]])
>>> paddle.geometric.send_u_recv(x, paddle.to_tensor([0, 1, 2, 0]), paddle.to_tensor([1, 2, 1, 0])).tolist()
[[0.0, 2.0], [2.0, 8.0], [1.0, 4.0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._ops.table import TABLE
from .._runtime import dtypes as _dtypes
from .._runtime.transfer import own
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, _Tracer
from ._sampling import sample_neighbors as sample_neighbors
from ._sampling import weighted_sample_neighbors as weighted_sample_neighbors

__all__ = ["reindex_graph", "reindex_heter_graph", "sample_neighbors", "segment_max", "segment_mean", "segment_min",
           "segment_sum", "send_u_recv", "send_ue_recv", "send_uv", "weighted_sample_neighbors"]


def _concrete(api: str, t: Any, what: str) -> np.ndarray:
    """The values of an input that decide the output's shape (so it cannot be traced)."""
    if not isinstance(t, Tensor):
        raise TypeError(f"{api}: {what} must be a Tensor, but received {type(t).__name__}; wrap it with "
                        "paddle.to_tensor.")
    if isinstance(t._value, _Tracer) or t._symbolic:
        raise RuntimeError(f"{api}: the output shape depends on the values of {what}, so it cannot run on a traced or "
                           "static tensor (inside jax.jit, grad, vmap, to_static or a static program). Call it eagerly.")
    return np.asarray(t._value)


# ---- segment reductions ------------------------------------------------------------------------
def _segment(api: str, data: Tensor, segment_ids: Tensor) -> Tensor:
    ids = _concrete(api, segment_ids, "segment_ids").ravel()
    if ids.size > 1 and np.issubdtype(ids.dtype, np.integer):
        down = np.flatnonzero(ids[1:] < ids[:-1])
        if down.size:
            i = int(down[0])
            raise ValueError(f"{api}: the segment ids should be sorted, but got segment_ids[{i}]:{ids[i]} > "
                             f"segment_ids[{i + 1}]:{ids[i + 1]}. Sort the rows by their ids first (argsort).")
    n = int(ids.max()) + 1 if ids.size and np.issubdtype(ids.dtype, np.integer) else 0
    return apply_op(TABLE[api], (data, segment_ids), {"num_segments": max(n, 0)})


def segment_sum(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """Row ``i`` of the result is the sum of the rows of ``data`` whose (sorted) segment id is ``i``; rows
    ``0..max(segment_ids)``, zero where no id is ``i``."""
    return _segment("segment_sum", data, segment_ids)


def segment_mean(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """The mean of the rows of ``data`` per (sorted) segment id (an integer mean truncates); zero for an id without
    rows."""
    return _segment("segment_mean", data, segment_ids)


def segment_max(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """The elementwise maximum of the rows of ``data`` per (sorted) segment id; zero for an id without rows. Every
    row equal to the maximum gets the whole gradient."""
    return _segment("segment_max", data, segment_ids)


def segment_min(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """The elementwise minimum of the rows of ``data`` per (sorted) segment id; zero for an id without rows. Every
    row equal to the minimum gets the whole gradient."""
    return _segment("segment_min", data, segment_ids)


# ---- message passing ---------------------------------------------------------------------------
def _out_size(api: str, out_size: Any) -> int | None:
    if isinstance(out_size, Tensor):
        v = _concrete(api, out_size, "out_size")
        if v.size != 1 or not np.issubdtype(v.dtype, np.integer):
            raise ValueError(f"{api}: out_size given as a Tensor must hold one integer, but received shape "
                             f"{list(v.shape)} of dtype {v.dtype}.")
        return int(v.ravel()[0])
    return out_size


def send_u_recv(x: Tensor, src_index: Tensor, dst_index: Tensor, reduce_op: str = "sum", out_size: Any = None,
                name: str | None = None) -> Tensor:
    """Each edge ``src_index[e] -> dst_index[e]`` sends the row ``x[src]``; each destination reduces what it
    receives by ``reduce_op`` ('sum', 'mean', 'max', 'min'). The result has ``out_size`` rows (x's when None or
    not positive); a row that receives nothing is zero."""
    return apply_op(TABLE["send_u_recv"], (x, src_index, dst_index),
                    {"reduce_op": reduce_op, "out_size": _out_size("send_u_recv", out_size)})


def send_ue_recv(x: Tensor, y: Tensor, src_index: Tensor, dst_index: Tensor, message_op: str = "add",
                 reduce_op: str = "sum", out_size: Any = None, name: str | None = None) -> Tensor:
    """Each edge ``e`` sends ``x[src_index[e]] (message_op) y[e]`` (message_op 'add', 'sub', 'mul', 'div'; the
    feature shapes broadcast, a 1-D x or y is a column); each destination reduces what it receives by
    ``reduce_op``. The result has ``out_size`` rows (x's when None or not positive)."""
    return apply_op(TABLE["send_ue_recv"], (x, y, src_index, dst_index),
                    {"message_op": message_op, "reduce_op": reduce_op,
                     "out_size": _out_size("send_ue_recv", out_size)})


def send_uv(x: Tensor, y: Tensor, src_index: Tensor, dst_index: Tensor, message_op: str = "add",
            name: str | None = None) -> Tensor:
    """One row per edge: ``x[src_index[e]] (message_op) y[dst_index[e]]`` (message_op 'add', 'sub', 'mul', 'div';
    a 1-D x or y is a column)."""
    return apply_op(TABLE["send_uv"], (x, y, src_index, dst_index), {"message_op": message_op})


# ---- re-indexing sampled neighbourhoods ---------------------------------------------------------
def _reindex(api: str, x: Tensor, neighbors: Sequence[Tensor], count: Sequence[Tensor]) -> tuple[Tensor, ...]:
    xv = _concrete(api, x, "x").ravel()
    if not np.issubdtype(xv.dtype, np.integer):
        raise ValueError(f"{api}: x must be an int32 or int64 tensor of node ids, but received dtype {xv.dtype}.")
    index = {int(v): i for i, v in enumerate(xv.tolist())}
    # (as Paddle's kernel: a node listed twice in x is known by its last position, for its edges' dst as for src)
    xpos = np.asarray([index[int(v)] for v in xv.tolist()], np.int64)
    out_nodes = list(xv.tolist())
    srcs, dsts = [], []
    for k, (nb, ct) in enumerate(zip(neighbors, count)):
        nv = _concrete(api, nb, "neighbors").ravel()
        cv = _concrete(api, ct, "count").ravel()
        if nv.dtype != xv.dtype:
            raise ValueError(f"{api}: neighbors must have x's dtype ({xv.dtype}), but received {nv.dtype} (entry {k}).")
        if cv.dtype != np.int32:
            raise ValueError(f"{api}: count must be an int32 tensor, but received {cv.dtype} (entry {k}). Cast it with "
                             ".astype('int32').")
        if (cv.size % xv.size if xv.size else cv.size) or int(cv.sum()) != nv.size:
            raise ValueError(f"{api}: count must give one neighbour count per node of x ({xv.size}), or several such "
                             f"lists one after another (edge types concatenated), adding up to the number of "
                             f"neighbors ({nv.size}), but received {cv.size} counts adding up to {int(cv.sum())} "
                             f"(entry {k}).")
        for v in nv.tolist():
            if v not in index:
                index[v] = len(out_nodes)
                out_nodes.append(v)
            srcs.append(index[v])
        dsts.extend(np.repeat(np.tile(xpos, cv.size // max(xv.size, 1)), cv).tolist())
    def make(a: list[int]) -> Tensor:
        return Tensor(own(np.asarray(a, xv.dtype), _dtypes.to_np(str(xv.dtype))))

    return make(srcs), make(dsts), make(out_nodes)


def reindex_graph(x: Tensor, neighbors: Tensor, count: Tensor, value_buffer: Tensor | None = None,
                  index_buffer: Tensor | None = None, name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """Renumber a sampled neighbourhood from 0: ``(reindex_src, reindex_dst, out_nodes)``, where ``out_nodes`` is
    ``x`` followed by the neighbours not in it, in order of first appearance, ``reindex_src`` each neighbour's
    position there and ``reindex_dst`` the position in ``x`` of the node it neighbours (its last, should ``x``
    repeat a node) (``count[i]`` neighbours
    each; a ``count`` several times as long as ``x`` is that many edge types' lists one after another, their
    ``neighbors`` concatenated the same way). The buffers (a GPU speed-up) are accepted and unused."""
    return _reindex("reindex_graph", x, [neighbors], [count])  # type: ignore[return-value]


def reindex_heter_graph(x: Tensor, neighbors: Sequence[Tensor], count: Sequence[Tensor],
                        value_buffer: Tensor | None = None, index_buffer: Tensor | None = None,
                        name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """``reindex_graph`` over several edge types: one list entry of ``neighbors`` and ``count`` per type, one node
    numbering shared by all of them, the edges of each type after those of the one before."""
    if len(neighbors) != len(count):
        raise ValueError(f"reindex_heter_graph: neighbors and count must have one entry per edge type each, but "
                         f"received {len(neighbors)} and {len(count)}.")
    return _reindex("reindex_heter_graph", x, list(neighbors), list(count))  # type: ignore[return-value]
