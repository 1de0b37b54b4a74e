"""Neighbour sampling on a graph in CSC form (``sample_neighbors``, ``weighted_sample_neighbors``), on the host.

A node ``v``'s in-neighbours are ``row[colptr[v]:colptr[v + 1]]`` (their edge ids ``eids`` at the same
positions). A node with at most ``sample_size`` neighbours (or any node, with ``sample_size=-1``) gives all of
them in CSC order, as Paddle's kernels copy them; otherwise ``sample_size`` distinct ones are drawn:

- uniformly, by the first ``sample_size`` steps of a Fisher-Yates shuffle of the node's list (Paddle's CPU
  kernel's method), in the order drawn;
- by weight, with Paddle's CPU kernel's keys ``log2(u) / weight`` (``u`` uniform in [0, 1), float32): the
  ``sample_size`` largest keys are kept, given in increasing order of key (the order Paddle's min-heap pops them).

Paddle seeds those kernels from ``std::random_device``, so its draws repeat under no seed and cannot be
reproduced; here each call seeds a numpy generator from one key of the global generator, so ``paddle.seed(n)``
makes the draws repeat.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._runtime import dtypes as _dtypes
from .._runtime.rng import generator
from .._runtime.transfer import own
from .._tensor.facade import Tensor, _Tracer

_INT = (np.dtype(np.int32), np.dtype(np.int64))


def _host_rng() -> np.random.Generator:
    key = np.asarray(generator.next_host_key()).astype(np.uint64) & np.uint64(0xFFFFFFFF)
    return np.random.default_rng([int(k) for k in key])


def _values(api: str, t: Any, what: str) -> np.ndarray:
    if not isinstance(t, Tensor):
        raise TypeError(f"{api}: {what} must be a Tensor, but received {type(t).__name__}; wrap it with "
                        "paddle.to_tensor.")
    if isinstance(t._value, _Tracer) or t._symbolic:
        raise RuntimeError(f"{api}: the output shape depends on the values of {what}, so it cannot run on a traced "
                           "or static tensor (inside jax.jit, grad, vmap, to_static or a static program). Call it "
                           "eagerly.")
    return np.asarray(t._value)


def _ids(api: str, t: Any, what: str, dtype: np.dtype | None = None) -> np.ndarray:
    """An id tensor's values as a flat array: int32 or int64, with ``dtype`` (row's) when given."""
    v = _values(api, t, what)
    if v.dtype not in _INT:
        raise TypeError(f"{api}: {what} must be an int32 or int64 tensor, but received dtype {v.dtype}.")
    if dtype is not None and v.dtype != dtype:
        raise ValueError(f"{api}: {what} must have row's dtype ({dtype}), but received {v.dtype}. Cast it with "
                         f".astype('{dtype}').")
    if v.ndim > 1 and (v.ndim > 2 or v.shape[1] != 1):
        raise ValueError(f"{api}: {what} must have shape [n] or [n, 1], but received shape {list(v.shape)}.")
    return v.reshape(-1)


def ids_tensor(a: np.ndarray, dtype: np.dtype) -> Tensor:
    return Tensor(own(np.ascontiguousarray(a, dtype), _dtypes.to_np(str(dtype))))


def check_sample_size(api: str, sample_size: Any, what: str = "sample_size") -> int:
    if isinstance(sample_size, bool) or not isinstance(sample_size, int | np.integer):
        raise TypeError(f"{api}: {what} must be an int, but received {type(sample_size).__name__}.")
    if sample_size < -1:
        raise ValueError(f"{api}: {what} must be -1 (all neighbours) or a count >= 0, but received {sample_size}.")
    return int(sample_size)


def read_csc(api: str, row: Any, colptr: Any, input_nodes: Any, eids: Any,
             return_eids: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Check and read a CSC graph and the nodes to sample for: (row, colptr, nodes, eids or None)."""
    if return_eids and eids is None:
        raise ValueError(f"{api}: eids should not be None if return_eids is True; pass the edge ids (one per entry "
                         "of row, in CSC order).")
    rv = _ids(api, row, "row")
    cv = _ids(api, colptr, "colptr", rv.dtype)
    nv = _ids(api, input_nodes, "input_nodes", rv.dtype)
    ev = _ids(api, eids, "eids", rv.dtype) if return_eids else None
    if cv.size == 0 or cv[0] != 0 or cv[-1] != rv.size or (cv.size > 1 and np.any(np.diff(cv) < 0)):
        raise ValueError(f"{api}: colptr must start at 0, never decrease and end at the number of edges "
                         f"({rv.size}), but received {cv.tolist() if cv.size <= 20 else list(cv.shape)}.")
    if ev is not None and ev.size != rv.size:
        raise ValueError(f"{api}: eids must hold one id per edge (row has {rv.size}), but received {ev.size}.")
    if nv.size and (nv.min() < 0 or nv.max() >= cv.size - 1):
        bad = nv[(nv < 0) | (nv >= cv.size - 1)][0]
        raise ValueError(f"{api}: input_nodes must be node ids in [0, {cv.size - 1}) (colptr has {cv.size} "
                         f"entries), but received {bad}.")
    return rv, cv, nv, ev


def sample_csc(row: np.ndarray, colptr: np.ndarray, nodes: np.ndarray, eids: np.ndarray | None, sample_size: int,
               weight: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(neighbours, int32 counts, their edge ids or None) of each node in ``nodes`` in turn."""
    rng: np.random.Generator | None = None
    outs, out_eids, counts = [], [], np.zeros(nodes.size, np.int32)
    for i, v in enumerate(nodes.tolist()):
        lo, hi = int(colptr[v]), int(colptr[v + 1])
        take = np.arange(lo, hi)
        if 0 <= sample_size < take.size:
            rng = _host_rng() if rng is None else rng
            if weight is None:  # the first sample_size steps of a Fisher-Yates shuffle
                take = take.copy()
                for j in range(sample_size):
                    r = j + int(rng.integers(take.size - j))
                    take[j], take[r] = take[r], take[j]
                take = take[:sample_size]
            else:
                u = rng.random(take.size, dtype=np.float32)
                with np.errstate(divide="ignore"):
                    keys = np.log2(u) * (np.float32(1) / weight[lo:hi])
                keep = np.argsort(-keys, kind="stable")[:sample_size]
                take = take[keep[np.argsort(keys[keep], kind="stable")]]
        counts[i] = take.size
        outs.append(row[take])
        if eids is not None:
            out_eids.append(eids[take])
    def cat(parts: list[np.ndarray]) -> np.ndarray:
        return np.concatenate(parts) if parts else np.zeros(0, row.dtype)

    return cat(outs).astype(row.dtype), counts, (cat(out_eids).astype(row.dtype) if eids is not None else None)


def sample_neighbors(row: Tensor, colptr: Tensor, input_nodes: Tensor, sample_size: int = -1,
                     eids: Tensor | None = None, return_eids: bool = False, perm_buffer: Tensor | None = None,
                     name: str | None = None) -> tuple[Tensor, ...]:
    """Sample at most ``sample_size`` distinct in-neighbours, uniformly, of each node of ``input_nodes`` in a graph
    given in CSC form (``row``, ``colptr``; int32 or int64, one dtype). Returns ``(out_neighbors, out_count)``,
    with ``out_eids`` (their entries of ``eids``) when ``return_eids``. ``sample_size=-1`` (or one at least a
    node's degree) gives all of that node's neighbours in CSC order; a sampled node's come in the order drawn.
    ``out_count`` is int32. ``perm_buffer`` speeds up Paddle's GPU kernel and changes no value here."""
    api = "sample_neighbors"
    size = check_sample_size(api, sample_size)
    rv, cv, nv, ev = read_csc(api, row, colptr, input_nodes, eids, bool(return_eids))
    if perm_buffer is not None:
        _ids(api, perm_buffer, "perm_buffer", rv.dtype)
    nb, ct, oe = sample_csc(rv, cv, nv, ev, size)
    out = (ids_tensor(nb, rv.dtype), ids_tensor(ct, np.dtype(np.int32)))
    return (*out, ids_tensor(oe, rv.dtype)) if oe is not None else out


def weighted_sample_neighbors(row: Tensor, colptr: Tensor, edge_weight: Tensor, input_nodes: Tensor,
                              sample_size: int = -1, eids: Tensor | None = None, return_eids: bool = False,
                              name: str | None = None) -> tuple[Tensor, ...]:
    """``sample_neighbors`` where a neighbour's chance of being drawn grows with its edge's weight
    (``edge_weight``: float32, one non-negative weight per edge in CSC order; a zero weight is drawn last). A
    sampled node's neighbours come in increasing order of their random keys (the likeliest last)."""
    api = "weighted_sample_neighbors"
    size = check_sample_size(api, sample_size)
    rv, cv, nv, ev = read_csc(api, row, colptr, input_nodes, eids, bool(return_eids))
    w = _values(api, edge_weight, "edge_weight")
    if w.dtype != np.float32:
        raise TypeError(f"{api}: edge_weight must be a float32 tensor, but received dtype {w.dtype}. Cast it with "
                        ".astype('float32').")
    w = w.reshape(-1)
    if w.size != rv.size:
        raise ValueError(f"{api}: edge_weight must hold one weight per edge (row has {rv.size}), but received "
                         f"{w.size}.")
    if np.any(~(w >= 0)):
        raise ValueError(f"{api}: edge_weight must be non-negative and not NaN, but received "
                         f"{w[~(w >= 0)][0]}.")
    nb, ct, oe = sample_csc(rv, cv, nv, ev, size, w)
    out = (ids_tensor(nb, rv.dtype), ids_tensor(ct, np.dtype(np.int32)))
    return (*out, ids_tensor(oe, rv.dtype)) if oe is not None else out
