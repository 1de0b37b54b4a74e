"""``paddle.histogramdd`` / ``Tensor.histogramdd`` against Paddle 3.3.1's recorded results (cases:
``tests/histogramdd_cases.py``, recorded by ``tests/record_paddle_histogramdd.py``) and against
``numpy.histogramdd``.

Deliberate differences from Paddle 3.3.1 (each recorded in the fixture's ``paddle_only`` part and tested here):
- Paddle meets misuse with ``assert`` (AssertionError: x of one dimension, the lengths of bins / ranges, the shape
  and dtype of weights, the dtype of edges); here a ValueError (shapes, lengths) or TypeError (dtypes) naming the
  rule;
- an integer x is refused (Paddle computes integer edges and miscounts: ``[[0, 1], [1, 0]]`` gives ``[[0, 0],
  [0, 2]]``); edges that decrease, fewer than one bin and ranges with a low end above the high end are refused
  (Paddle miscounts, returns an empty histogram, or fails inside a kernel);
- bins given as a list of edge Tensors is read as the tuple form (Paddle refuses a list there).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from histogramdd_cases import PADDLE_ONLY, record  # noqa: E402
from recorded import Recorded  # noqa: E402

REF = json.loads(Path(__file__).resolve().parents[1].joinpath("data", "paddle_histogramdd.json").read_text())
OURS = Recorded(record, paddle)
# Paddle's AssertionErrors, and ours
DIFFERENT = {"err_1d": "ValueError", "err_bins_length": "ValueError", "err_ranges_length": "ValueError",
             "err_weights_shape": "ValueError", "err_weights_dtype": "TypeError", "err_edges_dtype": "TypeError"}


def _same(ours: dict, ref: dict) -> None:
    assert ours.keys() == ref.keys()
    if "error" in ref:
        assert ours == ref
        return
    assert (ours["dtype"], ours["shape"], ours["edge_dtypes"]) == (ref["dtype"], ref["shape"], ref["edge_dtypes"])
    np.testing.assert_allclose(np.asarray(ours["hist"], float), np.asarray(ref["hist"], float), rtol=1e-5,
                               atol=1e-6)
    assert len(ours["edges"]) == len(ref["edges"])
    for a, b in zip(ours["edges"], ref["edges"], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


def test_the_fixture_is_paddles() -> None:
    assert REF["paddle"] == "3.3.1" and set(REF["cases"]) == set(OURS["cases"])
    assert set(REF["paddle_only"]) == set(PADDLE_ONLY)


@pytest.mark.parametrize("key", sorted(REF["cases"]))
def test_matches_paddle(key: str) -> None:
    ref = REF["cases"][key]
    if key in DIFFERENT:
        assert ref == {"error": "AssertionError"} and OURS["cases"][key] == {"error": DIFFERENT[key]}
        return
    _same(OURS["cases"][key], ref)


def test_where_paddle_is_wrong_we_refuse_or_do_the_sane_thing() -> None:
    ref, ours = REF["paddle_only"], OURS["paddle_only"]
    assert ref["int_x"]["hist"] == [[0.0, 0.0], [0.0, 2.0]] and ours["int_x"] == {"error": "TypeError"}
    assert ref["bins_zero"]["shape"] == [0, 0] and ours["bins_zero"] == {"error": "ValueError"}
    assert ref["edges_unsorted"]["shape"] == [2, 2] and ours["edges_unsorted"] == {"error": "ValueError"}
    assert ref["bins_negative"] == {"error": "IndexError"} and ours["bins_negative"] == {"error": "ValueError"}
    assert ref["ranges_reversed"] == {"error": "ValueError"} == ours["ranges_reversed"]
    # a list of edge Tensors counts as the tuple form does
    assert ref["edges_list"] == {"error": "ValueError"}
    _same(ours["edges_list"], REF["cases"]["edges"])


@pytest.mark.parametrize("seed", [0, 1])
def test_matches_numpy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pts = rng.normal(size=(200, 3))
    w = rng.uniform(size=200)
    x = paddle.to_tensor(pts)
    for kwargs, npkw in (({"bins": [3, 4, 5]}, {"bins": [3, 4, 5]}),
                         ({"bins": 4, "ranges": [-1, 1, -2, 2, 0, 3]},
                          {"bins": 4, "range": [(-1, 1), (-2, 2), (0, 3)]}),
                         ({"bins": [2, 3, 4], "density": True, "weights": paddle.to_tensor(w)},
                          {"bins": [2, 3, 4], "density": True, "weights": w})):
        hist, edges = paddle.histogramdd(x, **kwargs)
        nh, ne = np.histogramdd(pts, **npkw)
        np.testing.assert_allclose(hist.numpy(), nh, rtol=1e-10, atol=1e-12)
        for a, b in zip(edges, ne, strict=True):
            np.testing.assert_allclose(a.numpy(), b, rtol=1e-12, atol=1e-12)
    e = [np.sort(rng.normal(size=5)) for _ in range(3)]
    hist, _ = paddle.histogramdd(x, bins=tuple(paddle.to_tensor(a) for a in e))
    np.testing.assert_allclose(hist.numpy(), np.histogramdd(pts, bins=e)[0])


def test_errors_name_the_api_the_rule_and_the_fix() -> None:
    x = paddle.to_tensor([[0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match=r"histogramdd: x must have at least 2 dimensions .*shape \[3\]"):
        paddle.histogramdd(paddle.to_tensor([0.0, 1.0, 1.0]))
    with pytest.raises(TypeError, match=r"histogramdd: x must be a floating tensor, but it is int64"):
        paddle.histogramdd(paddle.to_tensor([[0, 1], [1, 0]]))
    with pytest.raises(TypeError, match=r"histogramdd: x must be a Tensor, but received list"):
        paddle.histogramdd([[0.0, 1.0]])
    with pytest.raises(ValueError, match=r"histogramdd: bins must give one entry per coordinate, 2 here .*received 3"):
        paddle.histogramdd(x, bins=[2, 2, 2])
    with pytest.raises(ValueError, match=r"histogramdd: bins\[0\] must be at least 1, but received 0"):
        paddle.histogramdd(x, bins=0)
    with pytest.raises(ValueError, match=r"histogramdd: bins\[0\] must be an int, but received float 2.0"):
        paddle.histogramdd(x, bins=[2.0, 2])
    with pytest.raises(ValueError, match=r"histogramdd: bins must be an int, a list of ints .*received float"):
        paddle.histogramdd(x, bins=2.5)
    with pytest.raises(ValueError, match=r"histogramdd: ranges must hold a low and a high end .*received 2"):
        paddle.histogramdd(x, ranges=[0.0, 1.0])
    with pytest.raises(ValueError, match=r"histogramdd: ranges\[0\] \(low end of coordinate 0\) must not exceed"):
        paddle.histogramdd(x, ranges=[1.0, 0.0, 0.0, 1.0])
    with pytest.raises(ValueError, match=r"histogramdd: weights must have x's shape without its last axis, \[2\]"):
        paddle.histogramdd(x, weights=paddle.to_tensor([1.0]))
    with pytest.raises(TypeError, match=r"histogramdd: weights must have x's dtype float32, but are int64"):
        paddle.histogramdd(x, weights=paddle.to_tensor([1, 2]))
    with pytest.raises(TypeError, match=r"histogramdd: the edges bins\[1\] must have x's dtype float32"):
        paddle.histogramdd(x, bins=(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([0.0, 1.0], "float64")))
    with pytest.raises(ValueError, match=r"histogramdd: the edges bins\[0\] must not decrease"):
        paddle.histogramdd(x, bins=(paddle.to_tensor([1.0, 0.0]), paddle.to_tensor([0.0, 1.0])))
    with pytest.raises(ValueError, match=r"histogramdd: bins must give edges for each of the 2 coordinates"):
        paddle.histogramdd(x, bins=(paddle.to_tensor([0.0, 1.0]),))
    with pytest.raises(ValueError, match=r"histogramdd: x holds no points.*Pass ranges"):
        paddle.histogramdd(paddle.zeros([0, 2]))
