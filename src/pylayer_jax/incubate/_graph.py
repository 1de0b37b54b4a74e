"""The older graph sampling APIs Paddle keeps in ``paddle.incubate``: ``graph_sample_neighbors`` (now
``paddle.geometric.sample_neighbors``), ``graph_reindex`` (now ``paddle.geometric.reindex_graph``) and
``graph_khop_sampler`` (several hops of sampling with the re-indexing of the subgraph), layer L8.

``graph_khop_sampler`` follows what Paddle's CPU kernel sets out to do, where that kernel itself fails: Paddle
3.3.1 samples every hop after the first for as many nodes as ``input_nodes`` holds (reading past its frontier:
crashes or a "Number of sample edges mismatch" error, its own example is skipped for it), and it drops only
consecutive repeats of ``input_nodes``. Here each hop samples for its own frontier, ``input_nodes`` keeps each node
once (its first place), and a later frontier leaves out every node already sampled for. A single hop on
``input_nodes`` without repeats, with ``sample_sizes[0]`` at least every node's degree, gives Paddle's values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._runtime.deprecation import deprecated
from ..geometric import _sampling
from ..geometric import reindex_graph as _reindex_graph
from ..geometric import sample_neighbors as _sample_neighbors


@deprecated(since="2.4.0", update_to="paddle.geometric.sample_neighbors", level=1,
            reason="paddle.incubate.graph_sample_neighbors will be removed in future")
def graph_sample_neighbors(row: Any, colptr: Any, input_nodes: Any, eids: Any = None, perm_buffer: Any = None,
                           sample_size: int = -1, return_eids: bool = False, flag_perm_buffer: bool = False,
                           name: str | None = None) -> tuple[Any, ...]:
    """Deprecated (since Paddle 2.4) alias of ``paddle.geometric.sample_neighbors`` with the older argument order;
    ``flag_perm_buffer=True`` needs a ``perm_buffer`` (a GPU speed-up; the values do not depend on it)."""
    if flag_perm_buffer and perm_buffer is None:
        raise ValueError("graph_sample_neighbors: perm_buffer should not be None if flag_perm_buffer is True; pass "
                         "a buffer tensor of row's dtype or leave flag_perm_buffer False.")
    return _sample_neighbors(row, colptr, input_nodes, sample_size=sample_size, eids=eids, return_eids=return_eids,
                             perm_buffer=perm_buffer if flag_perm_buffer else None)


@deprecated(since="2.4.0", update_to="paddle.geometric.reindex_graph", level=1,
            reason="paddle.incubate.graph_reindex will be removed in future")
def graph_reindex(x: Any, neighbors: Any, count: Any, value_buffer: Any = None, index_buffer: Any = None,
                  flag_buffer_hashtable: bool = False, name: str | None = None) -> tuple[Any, Any, Any]:
    """``paddle.geometric.reindex_graph`` under its older name: ``(reindex_src, reindex_dst, out_nodes)``. Several
    edge types go in as their ``neighbors`` and ``count`` concatenated (``count`` a multiple of ``len(x)`` long).
    ``flag_buffer_hashtable=True`` needs both buffers (a GPU speed-up; the values do not depend on them)."""
    if flag_buffer_hashtable and (value_buffer is None or index_buffer is None):
        raise ValueError("graph_reindex: value_buffer and index_buffer should not be None if flag_buffer_hashtable "
                         "is True; pass both int32 buffers or leave flag_buffer_hashtable False.")
    return _reindex_graph(x, neighbors, count, value_buffer, index_buffer)


def graph_khop_sampler(row: Any, colptr: Any, input_nodes: Any, sample_sizes: Sequence[int], sorted_eids: Any = None,
                       return_eids: bool = False, name: str | None = None) -> tuple[Any, ...]:
    """Sample ``len(sample_sizes)`` hops of in-neighbours from ``input_nodes`` in a CSC graph and renumber the
    subgraph. Hop ``k`` samples at most ``sample_sizes[k]`` neighbours (-1: all) of each node of its frontier: the
    unique ``input_nodes`` first, then the sorted neighbours found by the hop before that have not been sampled
    for yet. Returns ``(edge_src, edge_dst, sample_index, reindex_nodes)``, with ``edge_eids`` when
    ``return_eids``: the edges ``[E, 1]`` as positions in ``sample_index`` (every node sampled for, hop by hop,
    then the other neighbours in order of appearance), and ``reindex_nodes`` the position of each input node."""
    api = "graph_khop_sampler"
    if return_eids and sorted_eids is None:
        raise ValueError(f"{api}: sorted_eids should not be None if return_eids is True; pass the edge ids in CSC "
                         "order.")
    if not isinstance(sample_sizes, list | tuple) or not sample_sizes:
        raise TypeError(f"{api}: sample_sizes must be a non-empty list or tuple of ints (one per hop), but received "
                        f"{sample_sizes!r}.")
    sizes = [_sampling.check_sample_size(api, s, "each of sample_sizes") for s in sample_sizes]
    rv, cv, nv, ev = _sampling.read_csc(api, row, colptr, input_nodes, sorted_eids, bool(return_eids))
    if nv.size == 0:
        raise ValueError(f"{api}: input_nodes must hold at least one node, but it is empty.")
    frontier = np.asarray(list(dict.fromkeys(nv.tolist())), rv.dtype)
    dsts, srcs, counts, eid_parts = [], [], [], []
    done: set[int] = set()
    for hop, size in enumerate(sizes):
        if frontier.size == 0:
            break
        nb, ct, oe = _sampling.sample_csc(rv, cv, frontier, ev, size)
        if hop == 0 and nb.size == 0:
            raise ValueError(f"{api}: the input nodes should have at least one neighbour, but none of "
                             f"{nv.tolist()} has any.")
        dsts.append(frontier)
        srcs.append(nb)
        counts.append(ct)
        if oe is not None:
            eid_parts.append(oe)
        done.update(frontier.tolist())
        frontier = np.asarray([v for v in np.unique(nb).tolist() if v not in done], rv.dtype)
    dst_nodes = np.concatenate(dsts)
    index = {v: i for i, v in enumerate(dst_nodes.tolist())}
    nodes = dst_nodes.tolist()
    src = []
    for v in np.concatenate(srcs).tolist():
        if v not in index:
            index[v] = len(nodes)
            nodes.append(v)
        src.append(index[v])
    dst = np.repeat(np.arange(dst_nodes.size), np.concatenate(counts))
    make = _sampling.ids_tensor
    out = (make(np.asarray(src, rv.dtype).reshape(-1, 1), rv.dtype), make(dst.reshape(-1, 1), rv.dtype),
           make(np.asarray(nodes), rv.dtype), make(np.asarray([index[v] for v in nv.tolist()]), rv.dtype))
    if return_eids:
        return (*out, make(np.concatenate(eid_parts), rv.dtype))
    return out
