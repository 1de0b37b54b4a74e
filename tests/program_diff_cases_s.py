"""Cases from the programs ``tests/programs/p61_mlm_pretrain.py`` and ``p62_image_pipeline.py``, written as Paddle
code: ``record(paddle)`` runs them with the given library and returns what they give (values, gradients, the type
of each error). ``record_paddle_program_diffs_s.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_s.json``; ``test_program_diffs_s.py`` runs it with pylayer_jax and compares. Both
programs agreed with Paddle at once; these cases pin what they lean on (masked-LM losses, gathers, tied weights,
attention masks, the warmup schedule, loaders over iterable datasets)."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _grad, _v


def _leaf(paddle: Any, a: Any) -> Any:
    return paddle.to_tensor(np.asarray(a, "float32"), stop_gradient=False)


LOGITS = np.array([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0], [2.0, 0.0, 1.0], [1.0, 1.0, 1.0], [0.5, -1.0, 2.0]])


def ce_ignore_index(paddle: Any, out: dict[str, Any]) -> None:
    """``F.cross_entropy`` with hard labels and ``ignore_index``: with a negative ignore_index (-100, the
    masked-LM convention) Paddle 3.3.1's 'mean' divides the sum by every label, ignored ones included; with a
    non-negative one by the kept labels only. 'none' gives zeros at ignored places; the gradient of ignored rows
    is zero. Labels of shape [N] and [N, 1], and a [B, L, V] input over the last axis."""
    F = paddle.nn.functional
    cases = {
        "neg_mean": ([2, -100, 0, -100, 1], {"ignore_index": -100}),
        "neg_sum": ([2, -100, 0, -100, 1], {"ignore_index": -100, "reduction": "sum"}),
        "neg_none": ([2, -100, 0, -100, 1], {"ignore_index": -100, "reduction": "none"}),
        "neg_col": ([[2], [-100], [0], [-100], [1]], {"ignore_index": -100}),
        "zero_mean": ([2, 0, 0, 1, 0], {"ignore_index": 0}),
        "neg_weight": ([2, -100, 0, -100, 1], {"ignore_index": -100, "weight": [0.5, 2.0, 1.0]}),
        "all_ignored": ([-100] * 5, {"ignore_index": -100}),
    }
    for name, (lab, kw) in cases.items():
        x = _leaf(paddle, LOGITS)
        if "weight" in kw:
            kw = {**kw, "weight": paddle.to_tensor(np.asarray(kw["weight"], "float32"))}
        loss = F.cross_entropy(x, paddle.to_tensor(lab), **kw)
        loss.sum().backward()
        out[f"ce_{name}"] = [_v(loss), list(loss.shape), _grad(x)]
    x = _leaf(paddle, np.arange(24).reshape(2, 4, 3) / 7.0)
    lab = paddle.to_tensor([[0, -100, 2, 1], [-100, -100, 1, 0]])
    loss = F.cross_entropy(x, lab, ignore_index=-100)
    loss.backward()
    out["ce_3d"] = [_v(loss), _grad(x)]


def mlm_gathers(paddle: Any, out: dict[str, Any]) -> None:
    """The masked positions of a batch taken three ways (``gather`` on the flattened sequence at ``nonzero``
    indices, ``masked_select``, boolean indexing of a [B, L, H] tensor with a [B, L] mask): values, shapes and the
    gradient scattered back."""
    h = np.arange(2 * 4 * 3).reshape(2, 4, 3) / 10.0
    lab = paddle.to_tensor([[-100, 5, -100, 7], [3, -100, -100, 9]])
    w = paddle.to_tensor(np.arange(9).reshape(3, 3).astype("float32"))
    x = _leaf(paddle, h)
    pos = paddle.nonzero(lab.reshape([-1]) != -100).squeeze(-1)
    g = paddle.gather(x.reshape([-1, 3]), pos)
    (g @ w).sum().backward()
    out["gather_pos"] = [_v(pos), str(pos.dtype), _v(g), _grad(x)]
    x = _leaf(paddle, h)
    sel = lab != -100
    b = x[sel]
    (b @ w).sum().backward()
    out["bool_index"] = [_v(b), list(b.shape), _grad(x), _v(paddle.masked_select(lab, sel))]
    x = _leaf(paddle, h)
    m = paddle.masked_select(x, sel.unsqueeze(-1).expand([2, 4, 3]))
    (m * paddle.arange(m.shape[0], dtype="float32")).sum().backward()
    out["masked_select_grad"] = [_v(m), _grad(x)]


def tied_decoder(paddle: Any, out: dict[str, Any]) -> None:
    """A decoder tied to the word embedding (``matmul(h, emb.weight, transpose_y=True)``) with ``padding_idx``:
    the embedding's gradient sums both uses, the padding row taking only the decoder's part."""
    nn, F = paddle.nn, paddle.nn.functional
    emb = nn.Embedding(5, 3, padding_idx=0)
    emb.weight.set_value(np.arange(15).reshape(5, 3).astype("float32") / 10 - 0.5)
    ids = paddle.to_tensor([[1, 0, 3], [4, 4, 0]])
    h = F.gelu(emb(ids))
    logits = paddle.matmul(h, emb.weight, transpose_y=True)
    loss = F.cross_entropy(logits.reshape([-1, 5]), paddle.to_tensor([2, -100, 1, 0, 3, -100]), ignore_index=-100)
    loss.backward()
    out["tied"] = [_v(logits), _v(loss), _grad(emb.weight)]


def attention_masks(paddle: Any, out: dict[str, Any]) -> None:
    """``nn.MultiHeadAttention`` and ``nn.TransformerEncoderLayer`` fed the same padding mask as a bool keep-mask,
    an additive float mask of -1e4 and one of -inf: the weights of masked keys and the outputs."""
    nn = paddle.nn
    r = np.random.default_rng(0)
    attn = nn.MultiHeadAttention(4, 2, need_weights=True)
    layer = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0)
    for mod in (attn, layer):
        for p in mod.parameters():
            p.set_value((r.standard_normal(p.shape) * 0.5).astype("float32"))
    x = paddle.to_tensor(r.standard_normal((2, 3, 4)).astype("float32"))
    keep = paddle.to_tensor([[True, True, True], [True, False, False]]).unsqueeze([1, 2])
    pad = 1.0 - keep.astype("float32")
    masks = {"bool": keep, "float": pad * -1e4,
             "inf": paddle.where(pad > 0, paddle.full_like(pad, float("-inf")), paddle.zeros_like(pad))}
    for name, m in masks.items():
        o, w = attn(x, x, x, attn_mask=m)
        out[f"mha_{name}"] = [_v(o), _v(w)]
        out[f"enc_{name}"] = _v(layer(x, src_mask=m))


def warmup_poly(paddle: Any, out: dict[str, Any]) -> None:
    """``LinearWarmup`` wrapping ``PolynomialDecay`` (power 1 and 2, with cycle): the learning rates of 24 steps,
    and those an ``AdamW`` built on it reports."""
    lr = paddle.optimizer.lr
    for name, kw in {"p1": {"power": 1.0}, "p2": {"power": 2.0}, "cycle": {"power": 1.0, "cycle": True}}.items():
        s = lr.LinearWarmup(lr.PolynomialDecay(learning_rate=0.5, decay_steps=6, end_lr=0.01, **kw),
                            warmup_steps=3, start_lr=0.0, end_lr=0.5)
        vals = []
        for _ in range(12):
            vals.append(s())
            s.step()
        out[f"warmup_{name}"] = vals
    s = lr.LinearWarmup(0.1, warmup_steps=4, start_lr=0.01, end_lr=0.1)
    p = paddle.create_parameter([2], "float32")
    opt = paddle.optimizer.AdamW(learning_rate=s, parameters=[p])
    got = []
    for _ in range(6):
        got.append(opt.get_lr())
        s.step()
    out["warmup_float_adamw"] = got


def iterable_loader_len(paddle: Any, out: dict[str, Any]) -> None:
    """A DataLoader over an IterableDataset has no length: ``len`` (and ``list``, which asks for it) raise
    ValueError; iterating gives the batches, the last one short unless drop_last."""
    io = paddle.io

    class Stream(io.IterableDataset):
        def __iter__(self):
            for i in range(5):
                yield np.full([2], i, "float32")

    out["iter_len"] = _attempt(lambda: len(io.DataLoader(Stream(), batch_size=2)))
    out["iter_list"] = _attempt(lambda: list(io.DataLoader(Stream(), batch_size=2)))
    out["iter_batches"] = [_v(b) for b in io.DataLoader(Stream(), batch_size=2)]
    out["iter_drop"] = [_v(b) for b in io.DataLoader(Stream(), batch_size=2, drop_last=True)]


def grad_set_value(paddle: Any, out: dict[str, Any]) -> None:
    """``p.grad.set_value(v)`` writes ``p``'s gradient (p61: a gradient overwritten before ``clip_grad_norm_``),
    whether ``v`` is a fresh ``paddle.full`` / an expression not yet computed, a Tensor already read, or a numpy
    array: ``.grad``, ``clip_grad_norm_`` and the optimizer's step then use the new gradient."""
    nn = paddle.nn
    values = {
        "full": lambda: paddle.full([4, 3], 0.5),
        "expr": lambda: paddle.ones([4, 3]) * 0.25 + paddle.arange(12, dtype="float32").reshape([4, 3]) / 10,
        "read": lambda: paddle.to_tensor(np.full([4, 3], -1.5, "float32")),
        "numpy": lambda: np.arange(12, dtype="float32").reshape(4, 3) - 6,
    }
    for name, make in values.items():
        lin = nn.Linear(4, 3)
        lin.weight.set_value(np.ones([4, 3], "float32"))
        lin.bias.set_value(np.zeros([3], "float32"))
        opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
        lin(paddle.ones([2, 4])).sum().backward()
        v = make()
        if name == "read":
            v.numpy()
        lin.weight.grad.set_value(v)
        seen = _v(lin.weight.grad)
        total = nn.utils.clip_grad_norm_(lin.parameters(), max_norm=1.0)
        opt.step()
        out[f"grad_set_value_{name}"] = [seen, _v(total), _v(lin.weight.grad), _v(lin.weight)]


CASES = [grad_set_value, ce_ignore_index, mlm_gathers, tied_decoder, attention_masks, warmup_poly, iterable_loader_len]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
