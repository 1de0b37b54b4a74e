"""``paddle.geometric.sample_neighbors`` / ``weighted_sample_neighbors`` and ``paddle.incubate``'s
``graph_sample_neighbors``, ``graph_khop_sampler`` and ``graph_reindex``.

The calls whose result does not depend on the draw are compared with Paddle 3.3.1's values recorded by
``tests/record_paddle_graph_datasets.py`` (the same ``tests/graph_dataset_cases.py::graph`` runs here). Paddle's
draws come from ``std::random_device`` and cannot be reproduced, so real sampling is checked by its invariants: each
sampled neighbour is a true neighbour reached by a distinct edge, the counts are ``min(sample_size, degree)``, the
edge ids belong to the neighbours drawn, ``paddle.seed`` repeats the draw, every neighbour gets drawn, and weights
bias the draw (a zero weight is never drawn while others remain).
"""

from __future__ import annotations

import json
import pathlib
import warnings

import graph_dataset_cases as G
import numpy as np
import pytest

import pylayer_jax as paddle

REC = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle_graph_datasets.json").read_text())

# a graph with larger in-degrees: node 0 has 6 in-neighbours, node 1 has 4, node 2 has 1, node 3 none
ROW = [1, 2, 3, 4, 5, 6, 0, 2, 5, 6, 0]
COLPTR = [0, 6, 10, 11, 11, 11, 11, 11]


def test_deterministic_cases_match_paddle():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = json.loads(json.dumps(G.graph(paddle)))
    assert set(ours) == set(REC["graph"])
    for key, want in REC["graph"].items():
        assert ours[key] == want, key


def _edges(row, colptr):
    return {(int(row[e]), v, e) for v in range(len(colptr) - 1) for e in range(colptr[v], colptr[v + 1])}


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_sampling_invariants(weighted, dtype):
    row, col = paddle.to_tensor(ROW, dtype=dtype), paddle.to_tensor(COLPTR, dtype=dtype)
    nodes = paddle.to_tensor([0, 1, 2, 3, 0], dtype=dtype)
    eids = paddle.to_tensor(list(range(11)), dtype=dtype)
    w = paddle.to_tensor(np.linspace(0.5, 3.0, 11).astype("float32"))
    paddle.seed(1)
    edges = _edges(ROW, COLPTR)
    seen: set[int] = set()
    for _ in range(12):
        args = (row, col, w, nodes) if weighted else (row, col, nodes)
        fn = paddle.geometric.weighted_sample_neighbors if weighted else paddle.geometric.sample_neighbors
        nb, ct, oe = fn(*args, sample_size=3, eids=eids, return_eids=True)
        assert nb.dtype == oe.dtype == row.dtype and ct.dtype == paddle.int32
        assert ct.tolist() == [3, 3, 1, 0, 3]
        start = 0
        for v, c in zip([0, 1, 2, 3, 0], ct.tolist()):
            got_e = oe.tolist()[start:start + c]
            got_n = nb.tolist()[start:start + c]
            assert len(set(got_e)) == c  # distinct edges
            assert all((n, v, e) in edges for n, e in zip(got_n, got_e))  # true neighbours, matching edge ids
            if v == 0:
                seen.update(got_e)
            start += c
    assert seen == set(range(6))  # every in-edge of node 0 gets drawn at some point


@pytest.mark.parametrize("weighted", [False, True])
def test_seed_repeats_the_draw(weighted):
    row, col, nodes = paddle.to_tensor(ROW), paddle.to_tensor(COLPTR), paddle.to_tensor([0, 1, 0])

    def draw():
        if weighted:
            return paddle.geometric.weighted_sample_neighbors(row, col, paddle.ones([11]), nodes, 2)[0].tolist()
        return paddle.geometric.sample_neighbors(row, col, nodes, 2)[0].tolist()

    paddle.seed(5)
    a = [draw() for _ in range(3)]
    paddle.seed(5)
    assert [draw() for _ in range(3)] == a
    assert len({tuple(x) for x in a}) > 1  # (successive draws differ)


def test_weights_bias_the_draw():
    # node 0's in-edges weigh 0, 0, 0, 1, 1, 100: the zero-weight ones are never drawn with two to pick
    row, col = paddle.to_tensor(ROW), paddle.to_tensor(COLPTR)
    w = paddle.to_tensor(np.array([0, 0, 0, 1, 1, 100, 1, 1, 1, 1, 1], np.float32))
    paddle.seed(0)
    counts = np.zeros(7)
    for _ in range(40):
        nb, _ = paddle.geometric.weighted_sample_neighbors(row, col, w, paddle.to_tensor([0]), 2)
        assert set(nb.tolist()) <= {4, 5, 6}
        counts[nb.numpy()] += 1
    assert counts[6] >= 35


def test_all_neighbours_with_minus_one():
    row, col = paddle.to_tensor(ROW), paddle.to_tensor(COLPTR)
    nb, ct = paddle.geometric.sample_neighbors(row, col, paddle.to_tensor([1, 0]))
    assert nb.tolist() == [0, 2, 5, 6, 1, 2, 3, 4, 5, 6] and ct.tolist() == [4, 6]
    nb, ct = paddle.geometric.weighted_sample_neighbors(row, col, paddle.ones([11]), paddle.to_tensor([2, 1]))
    assert nb.tolist() == [0, 0, 2, 5, 6] and ct.tolist() == [1, 4]


def test_khop_two_hops():
    row, col = paddle.to_tensor(G.ROW), paddle.to_tensor(G.COLPTR)
    src, dst, idx, re = paddle.incubate.graph_khop_sampler(row, col, paddle.to_tensor([0, 8, 1, 0]), [-1, -1, -1])
    # hop 1 samples 0, 8, 1; hop 2 their new neighbours 3, 7, 9; hop 3 node 3's neighbour 4
    assert idx.tolist() == [0, 8, 1, 3, 7, 9, 4, 2]
    assert re.tolist() == [0, 1, 2, 0] and src.shape == dst.shape == [8, 1]
    pairs = [(idx.tolist()[s], idx.tolist()[d]) for s, d in zip(src.numpy().ravel(), dst.numpy().ravel())]
    assert pairs == [(3, 0), (7, 0), (9, 8), (7, 8), (0, 1), (9, 1), (4, 3), (2, 4)]
    # sampling two per node keeps each hop's edges true edges of the graph
    edges = {(a, b) for a, b, _ in _edges(G.ROW, G.COLPTR)}
    src, dst, idx, _, e = paddle.incubate.graph_khop_sampler(row, col, paddle.to_tensor([5, 6]), [1, 1],
                                                             paddle.arange(13), True)
    ids = idx.tolist()
    for s, d, k in zip(src.numpy().ravel(), dst.numpy().ravel(), e.tolist()):
        assert (ids[s], ids[d]) in edges and G.ROW[k] == ids[s]


def _t(v, dtype="int64"):
    return paddle.to_tensor(v, dtype=dtype)


@pytest.mark.parametrize("call, exc, match", [
    (lambda: paddle.geometric.sample_neighbors(_t(ROW), _t(COLPTR), _t([0]), 2, return_eids=True), ValueError,
     "eids should not be None if return_eids is True"),
    (lambda: paddle.geometric.sample_neighbors(_t(ROW), _t(COLPTR), _t([0], "int32"), 2), ValueError,
     "input_nodes must have row's dtype \\(int64\\), but received int32"),
    (lambda: paddle.geometric.sample_neighbors(_t(ROW, "float32"), _t(COLPTR), _t([0]), 2), TypeError,
     "row must be an int32 or int64 tensor, but received dtype float32"),
    (lambda: paddle.geometric.sample_neighbors(_t(ROW), _t(COLPTR), _t([9]), 2), ValueError,
     "input_nodes must be node ids in \\[0, 7\\).*received 9"),
    (lambda: paddle.geometric.sample_neighbors(_t(ROW), _t([0, 6, 4, 11]), _t([0]), 2), ValueError,
     "colptr must start at 0, never decrease"),
    (lambda: paddle.geometric.sample_neighbors(_t(ROW), _t(COLPTR), _t([0]), -2), ValueError,
     "sample_size must be -1 \\(all neighbours\\) or a count >= 0, but received -2"),
    (lambda: paddle.geometric.sample_neighbors(_t(ROW), _t(COLPTR), _t([0]), 2.0), TypeError,
     "sample_size must be an int, but received float"),
    (lambda: paddle.geometric.sample_neighbors(ROW, _t(COLPTR), _t([0]), 2), TypeError,
     "row must be a Tensor, but received list"),
    (lambda: paddle.geometric.weighted_sample_neighbors(_t(ROW), _t(COLPTR), paddle.ones([11], "float64"), _t([0])),
     TypeError, "edge_weight must be a float32 tensor, but received dtype float64"),
    (lambda: paddle.geometric.weighted_sample_neighbors(_t(ROW), _t(COLPTR), paddle.ones([10]), _t([0])),
     ValueError, "edge_weight must hold one weight per edge \\(row has 11\\), but received 10"),
    (lambda: paddle.geometric.weighted_sample_neighbors(_t(ROW), _t(COLPTR), -paddle.ones([11]), _t([0])),
     ValueError, "edge_weight must be non-negative and not NaN, but received -1.0"),
    (lambda: paddle.geometric.sample_neighbors(_t(ROW), _t(COLPTR), _t([0]), 2, eids=_t([1, 2]), return_eids=True),
     ValueError, "eids must hold one id per edge \\(row has 11\\), but received 2"),
    (lambda: paddle.incubate.graph_sample_neighbors(_t(ROW), _t(COLPTR), _t([0]), flag_perm_buffer=True),
     ValueError, "perm_buffer should not be None if flag_perm_buffer is True"),
    (lambda: paddle.incubate.graph_reindex(_t([0]), _t([1]), _t([1], "int32"), flag_buffer_hashtable=True),
     ValueError, "value_buffer and index_buffer should not be None if flag_buffer_hashtable is True"),
    (lambda: paddle.incubate.graph_khop_sampler(_t(ROW), _t(COLPTR), _t([0]), [2], return_eids=True), ValueError,
     "sorted_eids should not be None if return_eids is True"),
    (lambda: paddle.incubate.graph_khop_sampler(_t(ROW), _t(COLPTR), _t([3, 4]), [2]), ValueError,
     "the input nodes should have at least one neighbour, but none of \\[3, 4\\] has any"),
    (lambda: paddle.incubate.graph_khop_sampler(_t(ROW), _t(COLPTR), _t([0]), 2), TypeError,
     "sample_sizes must be a non-empty list or tuple of ints"),
    (lambda: paddle.geometric.reindex_graph(_t([0, 1]), _t([5, 6, 7]), _t([1, 1, 1], "int32")), ValueError,
     "count must give one neighbour count per node of x \\(2\\), or several such lists"),
])
def test_misuse(call, exc, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc, match=match):
            call()


def test_incubate_sample_warns_deprecated():
    with pytest.warns(UserWarning, match="graph_sample_neighbors.*deprecated since 2.4.0"):
        paddle.incubate.graph_sample_neighbors(_t(ROW), _t(COLPTR), _t([0]), sample_size=2)
