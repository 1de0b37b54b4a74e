"""Cases recorded from Paddle 3.3.1 (``tests/record_paddle_graph_datasets.py``) and replayed by
``tests/geometric/test_sampling.py`` and the dataset tests: ``record(paddle, tmp)`` runs them with whichever package
is passed (real Paddle, or pylayer_jax in the tests), so both sides make the very same calls.

Graph sampling is random in Paddle (its kernels seed from ``std::random_device``), so only the calls whose result
does not depend on the draw are recorded: ``sample_size`` at least every degree (all neighbours, in CSC order) or 0,
a single hop of ``graph_khop_sampler`` taking every neighbour, and the re-indexing. ``sample_size=-1`` crashes
Paddle 3.3.1's CPU kernels (a length error / a segmentation fault), so it is not recorded; it gives every neighbour
here, as Paddle documents.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# edges (src -> dst) in CSC form: the in-neighbours of node v are ROW[COLPTR[v]:COLPTR[v + 1]]
ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]
NODES = [0, 8, 1, 2, 7, 5]


def _v(t: Any) -> Any:
    return [np.asarray(t.numpy()).tolist(), str(t.dtype).replace("paddle.", ""), list(t.shape)]


def graph(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for dt in ("int32", "int64"):
        row, col = paddle.to_tensor(ROW, dtype=dt), paddle.to_tensor(COLPTR, dtype=dt)
        nodes, eids = paddle.to_tensor(NODES, dtype=dt), paddle.to_tensor([10 * i for i in range(13)], dtype=dt)
        w = paddle.to_tensor(np.linspace(0.5, 2.0, 13).astype("float32"))
        for size in (2, 7, 0):
            r = paddle.geometric.sample_neighbors(row, col, nodes, sample_size=size, eids=eids, return_eids=True)
            out[f"uniform_{dt}_{size}"] = [_v(t) for t in r]
            if size:  # (weighted with sample_size 0 crashes Paddle's kernel)
                r = paddle.geometric.weighted_sample_neighbors(row, col, w, nodes, sample_size=size, eids=eids,
                                                               return_eids=True)
                out[f"weighted_{dt}_{size}"] = [_v(t) for t in r]
        r = paddle.geometric.sample_neighbors(row.reshape([-1, 1]), col.reshape([-1, 1]), nodes, sample_size=3)
        out[f"uniform_2d_{dt}"] = [_v(t) for t in r]
        r = paddle.incubate.graph_sample_neighbors(row, col, nodes, eids=eids, sample_size=5, return_eids=True)
        out[f"incubate_{dt}"] = [_v(t) for t in r]
        r = paddle.incubate.graph_khop_sampler(row, col, paddle.to_tensor([0, 8, 1, 2], dtype=dt), [5], eids, True)
        out[f"khop_{dt}"] = [_v(t) for t in r]
        r = paddle.incubate.graph_khop_sampler(row, col, paddle.to_tensor([6, 1], dtype=dt), (2,))
        out[f"khop_noeids_{dt}"] = [_v(t) for t in r]
    x = paddle.to_tensor([0, 1, 2])
    nb = paddle.to_tensor([8, 9, 0, 4, 7, 6, 7, 0, 2, 3, 5, 1])
    ct = paddle.to_tensor([2, 3, 2, 1, 3, 1], dtype="int32")
    out["graph_reindex_two_types"] = [_v(t) for t in paddle.incubate.graph_reindex(x, nb, ct)]
    out["reindex_graph_two_types"] = [_v(t) for t in paddle.geometric.reindex_graph(x, nb, ct)]
    out["graph_reindex_one_type"] = [_v(t) for t in paddle.incubate.graph_reindex(x, nb[:7], ct[:3])]
    return out


def record(paddle: Any, tmp: str) -> dict[str, Any]:
    return {"graph": graph(paddle)}
