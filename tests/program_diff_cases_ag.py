"""Cases found by ``tests/programs/p87_graph_segments.py`` and ``p88_sequence_decoding.py``, written as Paddle code:
``record(paddle)`` runs them with the given library and returns what they give (values, dtypes, shapes, the type
of each error). ``record_paddle_program_diffs_ag.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_ag.json``; ``test_program_diffs_ag.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _v


def _res(r: Any) -> Any:
    """A result (a Tensor or a tuple of them) as values, dtype names and shapes."""
    if isinstance(r, tuple | list):
        return [_res(t) for t in r]
    return [_v(r), str(r.dtype), list(r.shape)]


def one_hot(paddle: Any, out: dict[str, Any]) -> None:
    """``F.one_hot``'s default ``num_classes=-1`` is ``x.max() + 1``; a float ``num_classes`` is truncated, a
    one-element Tensor read; None is a TypeError."""
    F = paddle.nn.functional
    x = paddle.to_tensor([[0, 3], [2, 1]])
    cases = {
        "default": lambda: F.one_hot(x),
        "minus_one": lambda: F.one_hot(x, num_classes=-1),
        "int32_default": lambda: F.one_hot(x.astype("int32")),
        "float": lambda: F.one_hot(x, 4.0),
        "float_trunc": lambda: F.one_hot(paddle.to_tensor([0, 2]), 3.5),
        "tensor0d": lambda: F.one_hot(x, paddle.to_tensor(5)),
        "tensor1": lambda: F.one_hot(x, paddle.to_tensor([4], dtype="int32")),
        "keyword_input": lambda: F.one_hot(input=x, num_classes=4),
        "none": lambda: F.one_hot(x, None),
    }
    for name, f in cases.items():
        out[f"one_hot_{name}"] = _attempt(lambda f=f: _res(f()))


def sequence_mask(paddle: Any, out: dict[str, Any]) -> None:
    """``F.sequence_mask``: a negative ``maxlen`` (int or Tensor) is the largest length, as None is; empty lengths
    give ``[0, 0]`` (``[0, maxlen]`` with a maxlen)."""
    F = paddle.nn.functional
    lens = paddle.to_tensor([3, 1, 4, 0])
    cases = {
        "neg": lambda: F.sequence_mask(lens, maxlen=-1),
        "neg3": lambda: F.sequence_mask(lens, maxlen=-3, dtype="float32"),
        "neg_tensor": lambda: F.sequence_mask(lens, maxlen=paddle.to_tensor(-1)),
        "empty": lambda: F.sequence_mask(paddle.to_tensor([], dtype="int64")),
        "empty_maxlen": lambda: F.sequence_mask(paddle.to_tensor([], dtype="int64"), maxlen=3),
        "none": lambda: F.sequence_mask(lens),
    }
    for name, f in cases.items():
        out[f"smask_{name}"] = _attempt(lambda f=f: _res(f()))


def embedding(paddle: Any, out: dict[str, Any]) -> None:
    """``F.embedding``'s ``max_norm`` renorms by ``paddle.norm``'s ``p=norm_type`` (inf: the largest magnitude, 0:
    the count of non-zeros, 3: the 3-norm), and not at all for ``max_norm=0``; the weight changes in place. A
    ``padding_idx`` beyond the rows is a ValueError, as is a float one in ``nn.Embedding``."""
    F = paddle.nn.functional
    W = np.arange(24, dtype="float32").reshape([6, 4]) / 10 - 1
    ids = paddle.to_tensor([0, 2, 5])
    for mn, nt in ((0.0, 2.0), (1.0, float("inf")), (2.0, 0.0), (0.8, 3.0), (1.0, 1.0), (1.5, 2.0)):
        w = paddle.to_tensor(W)
        e = F.embedding(ids, w, max_norm=mn, norm_type=nt)
        out[f"emb_renorm_{mn}_{nt}"] = [_v(e), _v(w)]
    emb = paddle.nn.Embedding(6, 4, max_norm=1.0, norm_type=float("inf"), _weight=paddle.to_tensor(W))
    out["Emb_renorm_inf"] = [_v(emb(paddle.to_tensor([[1, 5]]))), _v(emb.weight)]
    out["emb_pad_oob"] = _attempt(lambda: F.embedding(paddle.to_tensor([1]), paddle.to_tensor(W), padding_idx=6))
    out["emb_pad_last"] = _attempt(lambda: _res(F.embedding(paddle.to_tensor([1, 5]), paddle.to_tensor(W),
                                                            padding_idx=-1)))
    out["Emb_pad_float"] = _attempt(lambda: paddle.nn.Embedding(6, 4, padding_idx=1.0))


def graph_indices(paddle: Any, out: dict[str, Any]) -> None:
    """paddle.geometric's index shapes: segment ids ``[N]`` or ``[N, 1]`` (``[1, N]`` a ValueError); edge indices
    ``[E]`` or ``[E, 1]`` (``[1, E]`` or 0-D a ValueError). ``reindex_graph`` knows a node repeated in ``x`` by
    its last position, for the dst of its edges as for src."""
    G = paddle.geometric
    data = paddle.to_tensor([[1.0, 5.0], [3.0, 5.0], [3.0, 2.0], [0.0, -1.0]])
    ids = paddle.to_tensor([0, 0, 2, 2])
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 3.0], [3.0, -1.0]])
    src, dst = paddle.to_tensor([0, 1, 2, 1]), paddle.to_tensor([1, 0, 0, 2])
    y = paddle.to_tensor([[2.0], [1.0], [-1.0], [0.5]])
    cases = {
        "seg_col": lambda: G.segment_max(data, ids.reshape([4, 1])),
        "seg_col3": lambda: G.segment_sum(data, ids.reshape([4, 1, 1])),
        "seg_row": lambda: G.segment_sum(data, ids.reshape([1, 4])),
        "seg_0d": lambda: G.segment_sum(data[:1], paddle.to_tensor(0)),
        "recv_col": lambda: G.send_u_recv(x, src.reshape([4, 1]), dst.reshape([4, 1]), "mean"),
        "recv_row": lambda: G.send_u_recv(x, src.reshape([1, 4]), dst.reshape([1, 4])),
        "recv_dst_row": lambda: G.send_u_recv(x, src, dst.reshape([1, 4])),
        "recv_0d": lambda: G.send_u_recv(x, paddle.to_tensor(0), paddle.to_tensor(1)),
        "ue_col": lambda: G.send_ue_recv(x, y, src.reshape([4, 1]), dst, "mul", "max"),
        "ue_row": lambda: G.send_ue_recv(x, y, src.reshape([1, 4]), dst),
        "uv_col": lambda: G.send_uv(x, x, src, dst.reshape([4, 1]), "sub"),
        "uv_row": lambda: G.send_uv(x, x, src.reshape([1, 4]), dst.reshape([1, 4])),
        "reindex_repeat": lambda: G.reindex_graph(paddle.to_tensor([0, 1, 0]), paddle.to_tensor([8, 9, 0, 1]),
                                                  paddle.to_tensor([1, 2, 1], dtype="int32")),
        "reindex_repeat_heter": lambda: G.reindex_heter_graph(
            paddle.to_tensor([4, 2, 4]), [paddle.to_tensor([2, 7, 4]), paddle.to_tensor([5, 4])],
            [paddle.to_tensor([1, 1, 1], dtype="int32"), paddle.to_tensor([0, 2, 0], dtype="int32")]),
    }
    for name, f in cases.items():
        out[f"graph_{name}"] = _attempt(lambda f=f: _res(f()))


CASES = [one_hot, sequence_mask, embedding, graph_indices]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
