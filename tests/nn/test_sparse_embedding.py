"""``Embedding(sparse=True)`` / ``F.embedding(sparse=True)``: the gradient against Paddle 3.3.1's SelectedRows
gradient (tests/data/paddle_sparse_embedding.json, written by tests/record_paddle_sparse_embedding.py): its values
merged into the dense array they stand for, the rows it holds (here the lookup count that ``nn._sparse_rows``
keeps beside the dense gradient), None after each way of clearing it; and what changes for nobody else."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
import sparse_embedding_cases as cases

import pylayer_jax as paddle
from pylayer_jax.nn import _sparse_rows

DATA = json.load(open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                                   "paddle_sparse_embedding.json")))


def _view(t):  # noqa: ANN001, ANN202
    """Our gradient as the record holds Paddle's: the dense array, and the rows the table's lookups counted."""
    g = t.grad
    if g is None:
        return None
    counts = _sparse_rows.lookup_counts(t)
    rows = None if counts is None else np.nonzero(np.asarray(counts) > 0)[0].tolist()
    return {"dense": np.asarray(g.numpy(), np.float64), "rows": rows}


@pytest.mark.parametrize("name", [n for n in cases.GRADS if n != "grad_scale_by_freq"])
def test_sparse_gradient_against_paddle(name: str) -> None:
    got = cases.run(paddle, name, _view)
    want = DATA[name]["value"]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, bool):  # .grad is None after a clear, as Paddle's SelectedRows gradient
            assert g is w
            continue
        np.testing.assert_allclose(g["dense"], np.asarray(w["dense"]), rtol=1e-6, atol=1e-6)
        if w["sparse"]:  # the rows Paddle's gradient holds (merged: each once)
            assert g["rows"] == w["rows"]


def test_padding_row_gets_the_sparse_gradient_only() -> None:
    """Paddle's sparse kernel gives the padding row the gradient of its lookups (their output is zeros all the
    same); the dense lookup leaves it out, as before."""
    ids = paddle.to_tensor([[2, 1], [2, 2]])
    for sparse, want in ((True, 3.0), (False, 0.0)):
        emb = paddle.nn.Embedding(4, 2, padding_idx=2, sparse=sparse)
        out = emb(ids)
        np.testing.assert_array_equal(out.numpy()[0, 0], [0.0, 0.0])
        out.sum().backward()
        np.testing.assert_array_equal(emb.weight.grad.numpy()[2], [want, want])
        assert _sparse_rows.is_sparse(emb.weight) is sparse


def test_no_rows_without_a_gradient() -> None:
    """A sparse lookup that records no gradient (no_grad, a frozen table) leaves the table as a dense one."""
    emb = paddle.nn.Embedding(4, 2, sparse=True)
    with paddle.no_grad():
        out = emb(paddle.to_tensor([1, 3]))
    assert out.stop_gradient and not _sparse_rows.is_sparse(emb.weight)
    emb.weight.stop_gradient = True
    assert emb(paddle.to_tensor([1])).stop_gradient and not _sparse_rows.is_sparse(emb.weight)


def test_layer_clear_gradients_clears_the_rows() -> None:
    """Cleared by the Layer, the gradient is None and the next backward counts only its own lookups."""
    emb = paddle.nn.Embedding(5, 2, sparse=True)
    emb(paddle.to_tensor([0, 4])).sum().backward()
    emb.clear_gradients()
    assert emb.weight.grad is None and _sparse_rows.lookup_counts(emb.weight) is None
    emb(paddle.to_tensor([1, 1])).sum().backward()
    np.testing.assert_array_equal(np.asarray(_sparse_rows.lookup_counts(emb.weight)), [0, 2, 0, 0, 0])
    np.testing.assert_array_equal(emb.weight.grad.numpy(), [[0, 0], [2, 2], [0, 0], [0, 0], [0, 0]])


def test_scale_grad_by_freq_with_sparse_raises() -> None:
    assert DATA["grad_scale_by_freq"]["raises"][0] == "AttributeError"
    with pytest.raises(AttributeError, match=r"embedding: scale_grad_by_freq=True is not supported with sparse=True"):
        cases.run(paddle, "grad_scale_by_freq")
    emb = paddle.nn.Embedding(4, 2, sparse=True, scale_grad_by_freq=True)
    with pytest.raises(AttributeError, match=r"pass sparse=False to scale the gradient"):
        emb(paddle.to_tensor([1]))
