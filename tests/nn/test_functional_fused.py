"""nn.functional's large-model kernels: the flash-attention family, sparse_attention, rms_norm,
margin_cross_entropy, class_center_sample, moe_permute / moe_unpermute.

Paddle 3.3.1 runs flash_attn_qkvpacked (its math path) and class_center_sample on its CPU: those are checked against
numbers recorded from it (``tests/record_paddle_fused.py``). The others have CUDA kernels only; they are checked
against references written here from their documented formulas (dense masks built entry by entry from each API's
description, plain softmax attention), against the numbers printed in Paddle's own docstrings where those exist, and
their gradients against ``jax.grad`` of the references.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fused_cases as C  # noqa: E402

REC = json.loads((Path(__file__).resolve().parents[1] / "data" / "paddle_fused.json").read_text())
RNG = np.random.default_rng(7)
TOL = {"float32": {"rtol": 2e-5, "atol": 2e-6}, "float64": {"rtol": 1e-10, "atol": 1e-12}}


def t(a, grad=False, dtype=None):  # noqa: ANN001, ANN201
    a = np.asarray(a)
    return paddle.to_tensor(a if dtype is None else a.astype(dtype), stop_gradient=not grad)


def close(got, want, **kw):  # noqa: ANN001, ANN201
    np.testing.assert_allclose(np.asarray(got.numpy() if hasattr(got, "numpy") else got), np.asarray(want),
                               **(kw or TOL["float64"]))


# ---- the reference: attention under a dense mask ----------------------------------------------------------------
def ref_attention(q, k, v, keep, scale):  # noqa: ANN001, ANN201
    """``[b, sq, h, d]`` attention in jnp: query head ``h`` reads key head ``h // (h / hk)``; ``keep [b, h, sq, sk]``
    (numpy bool); a row that keeps nothing gives 0. Returns (out, weights, lse)."""
    h, hk = q.shape[2], k.shape[2]
    kv_head = np.arange(h) // (h // hk)
    kx, vx = k[:, :, kv_head], v[:, :, kv_head]
    s = jnp.einsum("bihd,bjhd->bhij", q, kx) * scale
    s = jnp.where(keep, s, -1e30)
    p = jnp.where(keep, jax.nn.softmax(s, axis=-1), 0.0)
    lse = jnp.where(keep.any(-1), jax.nn.logsumexp(s, axis=-1), jnp.inf)
    return jnp.einsum("bhij,bjhd->bihd", p, vx), p, lse


def grads_of(fn, args, ct):  # noqa: ANN001, ANN201
    """jax.grad of ``sum(fn(*args)[0] * ct)`` for every argument (compiled once: the references loop in Python)."""
    return jax.jit(jax.grad(lambda *a: jnp.sum(fn(*a)[0] * ct), argnums=tuple(range(len(args)))))(*args)


@pytest.mark.parametrize("name", C.NAMES)
def test_signature_is_paddles(name):  # noqa: ANN001
    assert C.signature(getattr(F, name)) == REC[f"signature|{name}"]


# ---- flash_attn_qkvpacked: Paddle's math path -----------------------------------------------------------------------
@pytest.mark.parametrize("label", list(C.QKV_CASES))
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_qkvpacked_matches_paddle(label, dt):  # noqa: ANN001
    rec = REC[f"qkvpacked|{label}|{dt}"]
    qkv = t(C.QKV, True, dt)
    out, softmax = F.flash_attn_qkvpacked(qkv, **C.QKV_CASES[label])
    assert str(out.dtype) == f"paddle.{rec['dtype']}"
    close(out, rec["out"], **TOL[dt])
    if rec["softmax"] is None:
        assert softmax is None
    else:
        close(softmax, rec["softmax"], **TOL[dt])
    (out * t(C.QKV_CT, dtype=dt)).sum().backward()
    close(qkv.grad, rec["grad"], **TOL[dt])


def test_qkvpacked_grouped_query_heads():
    # two query groups per key head: query head g * hk + j reads key head (g * hk + j) // 2 (Paddle's GQA test packs
    # q.reshape([b, s, groups, hk, d]) this way); Paddle's CPU math path cannot broadcast these heads, its GPU kernel can
    qkv = RNG.uniform(-1, 1, (2, 4, 4, 2, 3))
    ct = RNG.uniform(-1, 1, (2, 4, 4, 3))
    causal = np.broadcast_to(np.tril(np.ones((4, 4), bool)), (2, 4, 4, 4))

    def ref(a):  # noqa: ANN001, ANN202
        q = a[:, :, :2].reshape(2, 4, 4, 3)
        return ref_attention(q, a[:, :, 2], a[:, :, 3], causal, 3 ** -0.5)

    x = t(qkv, True)
    out, softmax = F.flash_attn_qkvpacked(x, causal=True, return_softmax=True)
    want = jax.jit(ref)(jnp.asarray(qkv))
    close(out, want[0])
    close(softmax, want[1])
    (out * t(ct)).sum().backward()
    close(x.grad, grads_of(ref, [jnp.asarray(qkv)], ct)[0])


def test_qkvpacked_dropout_mask_is_the_key_s():
    qkv = t(C.QKV[:1])
    seed = t(np.array([3, 11]), dtype="int64")
    out, sm = F.flash_attn_qkvpacked(qkv, 0.5, return_softmax=True, fixed_seed_offset=seed)
    out2, sm2 = F.flash_attn_qkvpacked(qkv, 0.5, return_softmax=True, fixed_seed_offset=seed)
    _, plain = F.flash_attn_qkvpacked(qkv, return_softmax=True)
    close(out, out2.numpy(), rtol=0, atol=0)  # the same key, the same mask
    kept = sm.numpy() != 0
    assert 0.2 < kept.mean() < 0.8
    close(sm, np.where(kept, plain.numpy() / 0.5, 0), rtol=1e-6, atol=0)  # kept weights upscaled by 1 / (1 - p)
    v = C.QKV[:1, :, 2].astype("float32")
    close(out, np.einsum("bhqk,bkhd->bqhd", sm.numpy(), v), rtol=1e-5, atol=1e-6)
    drawn = F.flash_attn_qkvpacked(qkv, 0.5, return_softmax=True)[1].numpy()
    assert not np.array_equal(drawn != 0, kept)  # a fresh key from the generator draws another mask
    _, evaluated = F.flash_attn_qkvpacked(qkv, 0.5, return_softmax=True, training=False)
    close(evaluated, plain.numpy(), rtol=0, atol=0)


# ---- the variable-length forms ------------------------------------------------------------------------------------
def ref_varlen(q, k, v, cu_q, cu_k, max_q, max_k, scale, causal, padded, used_q=None, used_k=None, window=(-1, -1),
               softcap=0.0):  # noqa: ANN001, ANN201
    """Sequence by sequence: sequence b's tokens from cu[b] (b * max_seqlen when padded), cu[b+1] - cu[b] of them
    (seqused[b] when given); query i sees key j for i + lk - lq - left <= j <= i + lk - lq + right. Returns the
    packed output, the [b, h, max_q, max_k] weights and the [h, total_q] log-sum-exp (inf off the sequences)."""
    h, hk = q.shape[1], k.shape[1]
    kv_head = np.arange(h) // (h // hk)
    out = jnp.zeros((q.shape[0], h, v.shape[-1]))
    weights = jnp.zeros((len(cu_q) - 1, h, max_q, max_k))
    lse = jnp.full((h, q.shape[0]), jnp.inf)
    for b in range(len(cu_q) - 1):
        lq = cu_q[b + 1] - cu_q[b] if used_q is None else used_q[b]
        lk = cu_k[b + 1] - cu_k[b] if used_k is None else used_k[b]
        sq, sk = (b * max_q, b * max_k) if padded else (cu_q[b], cu_k[b])
        keep = np.zeros((h, lq, lk), bool)
        for i in range(lq):
            for j in range(lk):
                lo, hi = i + lk - lq - window[0], i + lk - lq + (0 if causal else window[1])
                keep[:, i, j] = (window[0] < 0 or j >= lo) and ((window[1] < 0 and not causal) or j <= hi)
        s = jnp.einsum("ihd,jhd->hij", q[sq:sq + lq], k[sk:sk + lk][:, kv_head]) * scale
        if softcap > 0:
            s = jnp.tanh(s / softcap) * softcap
        s = jnp.where(keep, s, -1e30)
        p = jnp.where(keep, jax.nn.softmax(s, axis=-1), 0.0)
        out = out.at[sq:sq + lq].set(jnp.einsum("hij,jhd->ihd", p, v[sk:sk + lk][:, kv_head]))
        weights = weights.at[b, :, :lq, :lk].set(p)
        lse = lse.at[:, sq:sq + lq].set(jnp.where(keep.any(-1), jax.nn.logsumexp(s, axis=-1), jnp.inf))
    return out, weights, lse


@pytest.mark.parametrize(("padded", "causal", "groups"), [(False, False, 1), (False, True, 2), (True, True, 2)])
def test_varlen_qkvpacked(padded, causal, groups):  # noqa: ANN001
    cu = np.array([0, 3, 4, 8], np.int32)  # sequences of 3, 1 and 4 tokens
    total = 3 * 5 if padded else 8
    qkv = RNG.uniform(-1, 1, (total, groups + 2, 2, 3))
    ct = RNG.uniform(-1, 1, (total, 2 * groups, 3))

    def ref(a):  # noqa: ANN001, ANN202
        return ref_varlen(a[:, :groups].reshape(total, -1, 3), a[:, groups], a[:, groups + 1], cu, cu, 5, 5, 0.4,
                          causal, padded)

    x = t(qkv, True)
    out, softmax = F.flash_attn_varlen_qkvpacked(x, t(cu), t(cu), 5, 5, 0.4, causal=causal, return_softmax=True,
                                                 varlen_padded=padded)
    want = jax.jit(ref)(jnp.asarray(qkv))
    close(out, want[0])
    close(softmax, want[1])
    if padded:  # the padding tokens are not computed: 0 out
        pad = np.ones(total, bool)
        for b, n in enumerate(np.diff(cu)):
            pad[b * 5:b * 5 + n] = False
        assert not out.numpy()[pad].any()
    (out * t(ct)).sum().backward()
    close(x.grad, grads_of(ref, [jnp.asarray(qkv)], ct)[0])
    assert F.flash_attn_varlen_qkvpacked(x, t(cu), t(cu), 5, 5, 0.4, varlen_padded=padded)[1] is None


@pytest.mark.parametrize("kw", [
    {"causal": True},
    {"window_size": (1, 0), "softcap": 1.5, "softmax_scale": 0.9},
    {"window_size": (-1, 1), "seqused": True},
])
def test_flash_attention_v3_varlen(kw):  # noqa: ANN001
    cu_q, cu_k = np.array([0, 2, 6], np.int32), np.array([0, 3, 7], np.int32)  # 2 queries on 3 keys, 4 on 4
    q, k, v = RNG.uniform(-1, 1, (6, 4, 3)), RNG.uniform(-1, 1, (7, 2, 3)), RNG.uniform(-1, 1, (7, 2, 5))
    ct = RNG.uniform(-1, 1, (6, 4, 5))
    kw = dict(kw)
    used = kw.pop("seqused", False)
    used_q, used_k = (np.array([1, 3], np.int32), np.array([2, 4], np.int32)) if used else (None, None)
    scale = kw.get("softmax_scale", 3 ** -0.5)

    def ref(*a):  # noqa: ANN002, ANN202
        out, _, lse = ref_varlen(*a, cu_q, cu_k, 4, 4, scale, kw.get("causal", False), False, used_q, used_k,
                                 kw.get("window_size", (-1, -1)), kw.get("softcap", 0.0))
        return out, lse

    xs = [t(a, True) for a in (q, k, v)]
    out, lse = F.flash_attention_v3_varlen(*xs, t(cu_q), t(cu_k), 4, 4, seqused_q=None if used_q is None else
                                           t(used_q), seqused_k=None if used_k is None else t(used_k), **kw)
    want = jax.jit(ref)(*map(jnp.asarray, (q, k, v)))
    close(out, want[0])
    assert lse.shape == [4, 6] and str(lse.dtype) == "paddle.float32"
    close(lse, want[1], rtol=1e-6, atol=1e-6)
    (out * t(ct)).sum().backward()
    for x, g in zip(xs, grads_of(ref, list(map(jnp.asarray, (q, k, v))), ct)):
        close(x.grad, g)


# ---- flashmask_attention ------------------------------------------------------------------------------------------
def flashmask_dense(se, sq, causal):  # noqa: ANN001, ANN201
    """The docstring's ``flashmask_to_densemask``, entry by entry: True where kept, ``[b, h, sq, sk]``."""
    b, h, sk, n = se.shape
    keep = np.ones((b, h, sq, sk), bool)
    has_end = (causal and n == 2) or (not causal and n == 4)
    for bi in range(b):
        for hi in range(h):
            for j in range(sk):
                down_start = se[bi, hi, j, 0]
                down_end = se[bi, hi, j, 1] if has_end else sq
                keep[bi, hi, down_start:down_end, j] = False
                if causal:
                    keep[bi, hi, :j, j] = False
                elif has_end:
                    keep[bi, hi, se[bi, hi, j, 2]:se[bi, hi, j, 3], j] = False
                else:
                    keep[bi, hi, :se[bi, hi, j, 1], j] = False
    return keep


# the docstring's examples (seq 10): causal document mask (1 bound); document mask (bidirectional, 2 bounds);
# global + sliding window (bidirectional, 4 bounds); causal blockwise (causal, 2 bounds)
_DOC_MASKS = {
    "causal_document": (True, [[4, 4, 4, 4, 7, 7, 7, 10, 10, 10]]),
    "document": (False, [[4, 4, 4, 4, 7, 7, 7, 10, 10, 10], [0, 0, 0, 0, 4, 4, 4, 7, 7, 7]]),
    "global_sliding": (False, [[10, 10, 4, 5, 6, 7, 8, 9, 10, 10], [10] * 10, [0, 0, 0, 0, 2, 2, 2, 2, 2, 2],
                               [0, 0, 0, 0, 3, 4, 5, 6, 7, 8]]),
    "causal_blockwise": (True, [[4, 4, 4, 4, 10, 10, 10, 10, 10, 10], [7, 7, 7, 7, 10, 10, 10, 10, 10, 10]]),
}


@pytest.mark.parametrize("label", list(_DOC_MASKS))
def test_flashmask_docstring_masks(label):  # noqa: ANN001
    causal, bounds = _DOC_MASKS[label]
    se = np.stack(bounds, axis=-1).reshape(1, 1, 10, -1).astype(np.int32)
    q, k, v = (RNG.uniform(-1, 1, (1, 10, 2, 4)) for _ in range(3))
    ct = RNG.uniform(-1, 1, (1, 10, 2, 4))
    keep = np.broadcast_to(flashmask_dense(se, 10, causal), (1, 2, 10, 10))

    def ref(*a):  # noqa: ANN002, ANN202
        return ref_attention(*a, keep, 0.5)

    xs = [t(a, True) for a in (q, k, v)]
    out, lse = F.flashmask_attention(*xs, t(se), causal=causal, return_softmax_lse=True)
    want = jax.jit(ref)(*map(jnp.asarray, (q, k, v)))
    close(out, want[0])
    close(lse, want[2], rtol=1e-6, atol=1e-6)
    if label in ("causal_blockwise", "global_sliding"):  # the gradients: one case of each direction
        (out * t(ct)).sum().backward()
        for x, g in zip(xs, grads_of(ref, list(map(jnp.asarray, (q, k, v))), ct)):
            close(x.grad, g)


def test_flashmask_docstring_example_rows_with_no_key_give_zero():
    # the docstring's example: head 0 masks rows >= 8, head 1 rows >= 5 (causal): those rows see no key, output 0
    se = t(np.array([8] * 10 + [5] * 10, np.int32).reshape(1, 2, 10, 1))
    q = t(RNG.uniform(0, 1, (1, 10, 2, 8)))
    out, lse = F.flashmask_attention(q, q, q, se, causal=True, return_softmax_lse=True)
    o = out.numpy()
    assert not o[0, 8:, 0].any() and not o[0, 5:, 1].any() and o[0, :8, 0].all() and o[0, :5, 1].all()
    assert np.isinf(lse.numpy()[0, 0, 8:]).all() and np.isfinite(lse.numpy()[0, 0, :8]).all()


@pytest.mark.parametrize("mask_heads", [1, 2])
def test_flashmask_heads_and_block_mask(mask_heads):  # noqa: ANN001
    # 4 query heads on 2 key heads; the mask has 1 head (broadcast), the key's 2 or the query's 4; a block mask
    # drops the one 128x128 block of head 0 when it has several heads
    sq, sk = 6, 6
    se = RNG.integers(0, 7, (1, mask_heads, sk, 2)).astype(np.int32)
    block = np.ones((1, mask_heads, 1, 1), np.int32)
    block[0, 0] = 0 if mask_heads > 1 else 1
    q, k, v = RNG.uniform(-1, 1, (1, sq, 4, 3)), RNG.uniform(-1, 1, (1, sk, 2, 3)), RNG.uniform(-1, 1, (1, sk, 2, 3))
    dense = flashmask_dense(se, sq, False) & (block[:, :, :1, :1] != 0)
    keep = np.repeat(dense, 4 // mask_heads, axis=1)
    out = F.flashmask_attention(t(q), t(k), t(v), t(se), block_mask=t(block), softmax_scale=0.8)
    close(out, ref_attention(*map(jnp.asarray, (q, k, v)), keep, 0.8)[0])


@pytest.mark.parametrize(("causal", "window"), [(True, 2), (False, (1, 2))])
def test_flashmask_window(causal, window):  # noqa: ANN001
    q, k, v = (RNG.uniform(-1, 1, (2, 7, 1, 4)) for _ in range(3))
    left, right = (window, window) if isinstance(window, int) else window
    i, j = np.arange(7)[:, None], np.arange(7)
    keep = (j >= i - left) & ((j <= i) if causal else (j <= i + right))
    out = F.flashmask_attention(t(q), t(k), t(v), causal=causal, window_size=window)
    close(out, ref_attention(*map(jnp.asarray, (q, k, v)), np.broadcast_to(keep, (2, 1, 7, 7)), 0.5)[0])


def test_flashmask_returns_and_seed_offset():
    q = t(RNG.uniform(-1, 1, (1, 4, 2, 4)))
    out = F.flashmask_attention(q, q, q, causal=True)
    close(out, ref_attention(*[jnp.asarray(q.numpy())] * 3, np.broadcast_to(np.tril(np.ones((4, 4), bool)),
                                                                             (1, 2, 4, 4)), 0.5)[0], **TOL["float32"])
    res = F.flashmask_attention(q, q, q, causal=True, dropout=0.5, return_seed_offset=True)
    assert isinstance(res, list) and len(res) == 2
    seed = res[1]
    assert str(seed.dtype) == "paddle.int64" and seed.shape == [2]
    again = F.flashmask_attention(q, q, q, causal=True, dropout=0.5, fixed_seed_offset=seed)
    close(again, res[0].numpy(), rtol=0, atol=0)  # the returned key draws the same mask
    three = F.flashmask_attention(q, q, q, t(np.full((1, 1, 4, 1), 4, np.int32)), causal=True,
                                  return_softmax_lse=True, return_seed_offset=True)
    assert len(three) == 3 and three[1].shape == [1, 2, 4]


# ---- sparse_attention ---------------------------------------------------------------------------------------------
def test_sparse_attention_docstring_example():
    x = t(np.array([[[[0, 1], [2, 3], [0, 1], [2, 3]]]], np.float32))
    offset = t(np.array([[[0, 2, 4, 6, 8]]], np.int32))
    columns = t(np.array([[[0, 1, 0, 1, 2, 3, 2, 3]]], np.int32))
    kpm = t(np.array([[1, 1, 1, 0]], np.float32))
    am = t(np.array([[1, 0, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]], np.float32))
    close(F.sparse_attention(x, x, x, offset, columns, key_padding_mask=kpm, attn_mask=am),
          [[[[0, 1], [1.99830270, 2.99830270], [0, 1], [0, 1]]]], rtol=1e-6, atol=1e-6)
    close(F.sparse_attention(x, x, x, offset, columns),
          [[[[1.60885942, 2.60885954], [1.99830270, 2.99830270], [1.60885942, 2.60885954],
             [1.99830270, 2.99830270]]]], rtol=1e-6, atol=1e-6)


def test_sparse_attention_against_the_csr_layout():
    b, h, s, d = 2, 2, 5, 3
    layout = RNG.uniform(size=(b, h, s, s)) < 0.5
    layout[..., np.arange(s), np.arange(s)] = True  # every row keeps its diagonal
    offset = np.concatenate([np.zeros((b, h, 1)), np.cumsum(layout.sum(-1), -1)], -1).astype(np.int32)
    nnz = int(offset[..., -1].max())
    columns = np.zeros((b, h, nnz), np.int32)
    for bi in range(b):
        for hi in range(h):
            cols = np.nonzero(layout[bi, hi])[1]
            columns[bi, hi, :cols.size] = cols
    kpm = np.ones((b, s))
    kpm[1, 3] = 0
    am = (RNG.uniform(size=(s, s)) < 0.8) | np.eye(s, dtype=bool)
    keep = layout & (kpm != 0)[:, None, None, :] & am
    q, k, v = (RNG.uniform(-1, 1, (b, h, s, d)) for _ in range(3))
    ct = RNG.uniform(-1, 1, (b, h, s, d))
    tr = lambda a: jnp.swapaxes(a, 1, 2)  # noqa: E731

    def ref(*a):  # noqa: ANN002, ANN202
        return (tr(ref_attention(*map(tr, a), keep, d ** -0.5)[0]),)

    xs = [t(a, True) for a in (q, k, v)]
    out = F.sparse_attention(*xs, t(offset), t(columns), t(kpm), t(am.astype(np.float64)))
    close(out, ref(*map(jnp.asarray, (q, k, v)))[0])
    (out * t(ct)).sum().backward()
    for x, g in zip(xs, grads_of(ref, list(map(jnp.asarray, (q, k, v))), ct)):
        close(x.grad, g)


# ---- rms_norm -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("shape", "ns", "weighted", "dt"), [((2, 3, 4), 4, True, "float32"),
                                                            ((2, 3, 4), [3, 4], True, "float64"),
                                                            ((5, 6), [6], False, "float32")])
def test_rms_norm(shape, ns, weighted, dt):  # noqa: ANN001
    x = RNG.uniform(-2, 2, shape)
    k = 1 if isinstance(ns, int) else len(ns)
    w = RNG.uniform(0.5, 1.5, shape[-k:]) if weighted else None
    ct = RNG.uniform(-1, 1, shape)

    def ref(a, wt=None):  # noqa: ANN001, ANN202
        axes = tuple(range(a.ndim - k, a.ndim))
        inv = 1 / jnp.sqrt(jnp.mean(a * a, axis=axes, keepdims=True) + 1e-5)
        return (a * inv * (1 if wt is None else wt), inv.reshape(a.shape[:a.ndim - k]))

    xt, wt = t(x, True, dt), None if w is None else t(w, True, dt)
    out, invvar = F.rms_norm(xt, ns, wt)
    want = ref(*map(jnp.asarray, [x] + ([w] if weighted else [])))
    close(out, want[0], **TOL[dt])
    # Paddle's RmsNormInferMeta (libphi_core.so): invvar takes x_dims[0:begin_norm_axis] and float32 (float64 for
    # float64 inputs)
    assert invvar.shape == list(shape[:-k]) and str(invvar.dtype) == f"paddle.{dt}"
    close(invvar, want[1], **TOL[dt])
    (out * t(ct, dtype=dt)).sum().backward()
    gs = grads_of(ref, list(map(jnp.asarray, [x] + ([w] if weighted else []))), ct)
    close(xt.grad, gs[0], **TOL[dt])
    if weighted:
        close(wt.grad, gs[1], **TOL[dt])


# ---- margin_cross_entropy -----------------------------------------------------------------------------------------
def test_margin_cross_entropy_docstring_example():
    # the numbers Paddle's docstring prints (its GPU kernel): ArcFace m2=0.5, s=64
    logits = t(np.array([[-0.59561850, 0.32797505, 0.80279214, 0.00144975],
                         [-0.16265212, 0.84155098, 0.62008629, 0.79126072]]))
    loss, softmax = F.margin_cross_entropy(logits, t(np.array([1, 0])), return_softmax=True, reduction=None)
    close(loss, [[61.94391901], [93.30853839]], rtol=1e-6, atol=0)
    close(softmax, [[0, 0, 1, 0], [0, 0.96152676, 0.00000067, 0.03847257]], rtol=0, atol=1e-7)


def ref_margin(logits, label, m1, m2, m3, s):  # noqa: ANN001, ANN201
    onehot = jax.nn.one_hot(label, logits.shape[-1], dtype=bool)
    target = jnp.cos(m1 * jnp.arccos(logits) + m2) - m3
    z = jnp.where(onehot, target, logits) * s
    logp = jax.nn.log_softmax(z, axis=-1)
    return -jnp.sum(jnp.where(onehot, logp, 0), axis=-1, keepdims=True), jnp.exp(logp)


@pytest.mark.parametrize(("margins", "reduction"), [((1.0, 0.5, 0.0, 2.0), "mean"), ((1.0, 0.0, 0.35, 2.0), "sum"),
                                                    ((1.35, 0.3, 0.1, 8.0), None)])
def test_margin_cross_entropy(margins, reduction):  # noqa: ANN001
    logits = RNG.uniform(-0.95, 0.95, (4, 6))
    label = np.array([5, 0, 2, 2])

    def ref(a):  # noqa: ANN001, ANN202
        loss, sm = ref_margin(a, label, *margins)
        return ({"mean": jnp.mean, "sum": jnp.sum}.get(reduction, lambda v: v)(loss), sm)

    x = t(logits, True)
    loss, softmax = F.margin_cross_entropy(x, t(label[:, None] if reduction is None else label), *margins,
                                           return_softmax=True, reduction=reduction)
    want = ref(jnp.asarray(logits))
    close(loss, want[0])
    close(softmax, want[1])
    assert loss.shape == ([4, 1] if reduction in ("none", None) else [])
    loss.sum().backward()
    close(x.grad, jax.grad(lambda a: jnp.sum(ref(a)[0]))(jnp.asarray(logits)))


def test_margin_cross_entropy_softmax_passes_no_gradient():
    x = t(RNG.uniform(-0.9, 0.9, (2, 3)), True)
    _, softmax = F.margin_cross_entropy(x, t(np.array([0, 2])), return_softmax=True)
    softmax.sum().backward()
    assert x.grad is None or not x.grad.numpy().any()


# ---- class_center_sample ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("label", [k for k in C.CCS_CASES if k != "draws"])
def test_class_center_sample_matches_paddle(label):  # noqa: ANN001
    dt, nc, ns = C.CCS_CASES[label]
    rec = REC[f"ccs|{label}"]
    remapped, sampled = F.class_center_sample(t(C.LABELS, dtype=dt), nc, ns)
    assert remapped.numpy().tolist() == rec["remapped"] and sampled.numpy().tolist() == rec["sampled"]
    assert [str(x.dtype).replace("paddle.", "") for x in (remapped, sampled)] == rec["dtypes"]


def test_class_center_sample_draws_negatives_from_the_generator():
    dt, nc, ns = C.CCS_CASES["draws"]
    rec = REC["ccs|draws"]
    paddle.seed(5)
    remapped, sampled = F.class_center_sample(t(C.LABELS), nc, ns)
    s = sampled.numpy()
    positive = sorted(set(C.LABELS.tolist()))
    # Paddle's deterministic part: the remapped labels, the sorted positive centers first
    assert remapped.numpy().tolist() == rec["remapped"] and s[:len(positive)].tolist() == rec["sampled"][:7]
    assert s.size == ns and len(set(s.tolist())) == ns and not set(s[7:].tolist()) & set(positive)
    assert ((s >= 0) & (s < nc)).all() and (s[remapped.numpy()] == C.LABELS).all()
    paddle.seed(5)
    assert F.class_center_sample(t(C.LABELS), nc, ns)[1].numpy().tolist() == s.tolist()  # reproducible
    every = F.class_center_sample(t(C.LABELS), nc, nc)[1].numpy()
    assert sorted(every.tolist()) == list(range(nc)) and every[:7].tolist() == positive


# ---- moe_permute / moe_unpermute ----------------------------------------------------------------------------------
# the docstring's example: token 0 to experts 0 (0.6) and 2 (0.4), token 1 to 1, token 2 to 1, alignment 2
_ROUTE = np.array([[-1, 0, -1, -1, 2, -1, -1, -1], [1, -1, -1, -1, -1, -1, -1, -1],
                   [-1, -1, -1, -1, -1, -1, 1, -1]], np.int32)
_PROB = np.array([[0.0, 0.6, 0.0, 0.0, 0.4, 0.0, 0.0, 0.0], [1.0, 0, 0, 0, 0, 0, 0, 0],
                  [0, 0, 0, 0, 0, 0, 1.0, 0]], np.float32)


def test_moe_docstring_example_round_trip():
    x = t(RNG.standard_normal((3, 16)).astype(np.float32))
    unzipped, rowmap, probs, scale, experts = F.moe_permute(x, None, t(_ROUTE), t(_PROB), 3, [1, 2, 1], 2,
                                                            return_expert_indices=True)
    assert rowmap.numpy().tolist() == [[0, -1, 4], [-1, 2, -1], [-1, 3, -1]]
    close(probs, np.array([0.6, 0, 1.0, 1.0, 0.4, 0], np.float32), rtol=0, atol=0)
    assert experts.numpy().tolist() == [0, -1, 1, 1, 2, -1] and scale.shape == [0]  # (Paddle's InferMeta: [0])
    xs = x.numpy()
    close(unzipped, [xs[0], 0 * xs[0], xs[1], xs[2], xs[0], 0 * xs[0]], rtol=0, atol=0)
    assert str(rowmap.dtype) == "paddle.int32" and str(probs.dtype) == "paddle.float32"
    weighted = (unzipped * probs.unsqueeze(-1)).astype("bfloat16")
    tokens, zipped_probs = F.moe_unpermute(weighted, rowmap, t(_ROUTE), probs, 3, 3)
    close(tokens.astype("float32"), xs, rtol=1e-2, atol=1e-2)
    close(zipped_probs, _PROB, rtol=0, atol=0)


def ref_permute(route, num_experts, tpe, align):  # noqa: ANN001, ANN201
    """Rows of each (token, expert), expert by expert in token order after the padded earlier blocks."""
    rowmap = -np.ones((route.shape[0], num_experts), np.int64)
    base = 0
    for e in range(num_experts):
        n = 0
        for tok in range(route.shape[0]):
            if e in route[tok]:
                rowmap[tok, e] = base + n
                n += 1
        base += -(-tpe[e] // align) * align
    return rowmap, base


@pytest.mark.parametrize(("align", "override"), [(4, -1), (2, 20)])
def test_moe_permute_against_the_layout(align, override):  # noqa: ANN001
    ntok, topk, ne = 7, 3, 4
    route = -np.ones((ntok, topk), np.int32)
    for tok in range(ntok):
        n = RNG.integers(0, topk + 1)
        route[tok, :n] = RNG.permutation(ne)[:n]
    prob = RNG.uniform(0, 1, (ntok, topk)) * (route >= 0)
    tpe = [int((route == e).sum()) for e in range(ne)]
    rowmap, rows = ref_permute(route, ne, tpe, align)
    rows = override if override >= 0 else rows
    x = RNG.standard_normal((ntok, 5))
    scale = RNG.uniform(size=(ntok, 2)).astype(np.float32)
    xt, pt = t(x, True), t(prob, True)
    unzipped, rm, probs, sc, experts = F.moe_permute(xt, t(scale), t(route), pt, ne, tpe, align,
                                                     return_expert_indices=True, override_buffer_size=override)
    assert rm.numpy().tolist() == rowmap.tolist() and unzipped.shape == [rows, 5]
    want_x, want_p, want_s = np.zeros((rows, 5)), np.zeros(rows), np.zeros((rows, 2), np.float32)
    want_e = -np.ones(rows, np.int64)
    for tok in range(ntok):
        for kk in range(topk):
            e = route[tok, kk]
            if e >= 0:
                r = rowmap[tok, e]
                want_x[r], want_p[r], want_s[r], want_e[r] = x[tok], prob[tok, kk], scale[tok], e
    close(unzipped, want_x, rtol=0, atol=0)
    close(probs, want_p, rtol=0, atol=0)
    close(sc, want_s, rtol=0, atol=0)
    assert experts.numpy().tolist() == want_e.tolist()
    # gradients: a token's gradient sums its rows', a probability's is its row's
    g_rows, g_probs = RNG.uniform(-1, 1, (rows, 5)), RNG.uniform(-1, 1, rows)
    ((unzipped * t(g_rows)).sum() + (probs * t(g_probs)).sum()).backward()
    gx, gp = np.zeros_like(x), np.zeros_like(prob)
    for tok in range(ntok):
        for kk in range(topk):
            if route[tok, kk] >= 0:
                gx[tok] += g_rows[rowmap[tok, route[tok, kk]]]
                gp[tok, kk] = g_probs[rowmap[tok, route[tok, kk]]]
    close(xt.grad, gx)
    close(pt.grad, gp)
    # moe_unpermute undoes it: the sum of a token's rows (weighted by their probabilities on request)
    for weighted in (False, True):
        back = t(unzipped.numpy(), True)
        tokens, zp = F.moe_unpermute(back, rm, t(route), t(probs.numpy()), ntok, ne, using_weighted_combine=weighted)
        w = prob.sum(1, keepdims=True) if weighted else (route >= 0).sum(1, keepdims=True)
        close(tokens, x * w)
        close(zp, prob)
        ct = RNG.uniform(-1, 1, (ntok, 5))
        (tokens * t(ct)).sum().backward()
        want = np.zeros((rows, 5))
        for tok in range(ntok):
            for kk in range(topk):
                if route[tok, kk] >= 0:
                    want[rowmap[tok, route[tok, kk]]] = ct[tok] * (prob[tok, kk] if weighted else 1)
        close(back.grad, want)


def test_moe_unpermute_rounds_each_addition_without_mix_precision():
    # bfloat16 rows 1 + 2**-8 + 2**-8: added in float32 the total rounds to 1 + 2**-7; rounded after each addition
    # to bfloat16 (8 significant bits), each 2**-8 is lost
    rows = t(np.array([[1.0], [2.0 ** -8], [2.0 ** -8]], np.float32)).astype("bfloat16")
    rowmap, route = t(np.array([[0, 1, 2]], np.int32)), t(np.array([[0, 1, 2]], np.int32))
    probs = t(np.ones(3, np.float32))
    mixed = F.moe_unpermute(rows, rowmap, route, probs, 1, 3)[0].astype("float32").numpy()
    plain = F.moe_unpermute(rows, rowmap, route, probs, 1, 3, using_mix_precision=False)[0].astype("float32")
    assert mixed.item() == 1 + 2.0 ** -7 and plain.numpy().item() == 1.0


def test_moe_permute_without_gather_gathers_no_rows():
    # Paddle's MoePermuteInferMeta (libphi_core.so): without do_gather the token rows are [0, dim] and the scales
    # [0]; the row map and the probabilities are still computed
    x = t(RNG.standard_normal((3, 4)).astype(np.float32))
    scale = t(np.ones((3, 1), np.float32))
    unzipped, rowmap, probs, sc = F.moe_permute(x, scale, t(_ROUTE), t(_PROB), 3, [1, 2, 1], 2, do_gather=False)
    assert unzipped.shape == [0, 4] and sc.shape == [0]
    assert rowmap.numpy().tolist() == [[0, -1, 4], [-1, 2, -1], [-1, 3, -1]]
    close(probs, np.array([0.6, 0, 1.0, 1.0, 0.4, 0], np.float32), rtol=0, atol=0)


# ---- under to_static and jax.grad ---------------------------------------------------------------------------------
def test_under_to_static_and_jax_grad():
    q = RNG.uniform(-1, 1, (1, 5, 2, 4)).astype(np.float32)
    se = np.array([3, 4, 5, 5, 5], np.int32).reshape(1, 1, 5, 1)

    def step(a):  # noqa: ANN001, ANN202
        out = F.flashmask_attention(a, a, a, t(se), causal=True)
        normed, _ = F.rms_norm(out, 4)
        return normed.sum()

    eager = t(q, True)
    step(eager).backward()
    static = t(q, True)
    loss = paddle.jit.to_static(step)(static)
    loss.backward()
    close(loss, step(t(q)).numpy(), **TOL["float32"])
    close(static.grad, eager.grad.numpy(), **TOL["float32"])
    traced = jax.grad(lambda a: jnp.asarray(step(a)))(jnp.asarray(q))
    close(traced, eager.grad.numpy(), **TOL["float32"])


# ---- misuse -------------------------------------------------------------------------------------------------------
_Q4 = np.zeros((1, 4, 2, 4), np.float32)
_QKV = np.zeros((1, 4, 3, 2, 4), np.float32)
_CU = np.array([0, 2, 4], np.int32)
_PACK = np.zeros((4, 3, 2, 4), np.float32)
_TOK = np.zeros((4, 2, 4), np.float32)
_MISUSE = [
    (lambda: F.flash_attn_qkvpacked(t(_QKV[:, :, :2])), ValueError, r"flash_attn_qkvpacked: qkv's axis 2 must hold "
     r"at least 3 groups .* received shape \[1, 4, 2, 2, 4\]"),
    (lambda: F.flash_attn_qkvpacked(t(_QKV[0])), ValueError, r"qkv must be a 5-D tensor \[batch_size, seqlen, "
     r"num_heads/num_heads_k \+ 2, num_heads_k, head_dim\], but received shape \[4, 3, 2, 4\]"),
    (lambda: F.flash_attn_qkvpacked(t(_QKV), 1.5), ValueError, r"dropout must be a number in \[0, 1\], but received "
     r"1.5"),
    (lambda: F.flash_attn_qkvpacked(t(_QKV), rng_name="local_seed"), NotImplementedError,
     r"rng_name must be '' .* received 'local_seed'"),
    (lambda: F.flash_attn_qkvpacked(t(_QKV), fixed_seed_offset=t(np.array([1, 2, 3]))), ValueError,
     r"fixed_seed_offset must be an int64 tensor of shape \[2\] .* received int64 of shape \[3\]"),
    (lambda: F.flash_attn_qkvpacked(t(_QKV.astype(np.int32))), TypeError, r"qkv must be a floating tensor"),
    (lambda: F.flash_attn_varlen_qkvpacked(t(_PACK), t(_CU.astype(np.int64)), t(_CU), 2, 2, 1.0), TypeError,
     r"flash_attn_varlen_qkvpacked: cu_seqlens_q must have dtype int32, but received int64"),
    (lambda: F.flash_attn_varlen_qkvpacked(t(_PACK), t(np.array([0, 3, 2], np.int32)), t(_CU), 3, 3, 1.0,
                                           varlen_padded=False), ValueError,
     r"cu_seqlens_q must start at 0 and never decrease .* received \[0, 3, 2\]"),
    (lambda: F.flash_attn_varlen_qkvpacked(t(_PACK), t(_CU), t(_CU), 1, 2, 1.0, varlen_padded=False), ValueError,
     r"a sequence has 2 tokens, more than max_seqlen 1"),
    (lambda: F.flash_attn_varlen_qkvpacked(t(_PACK), t(_CU), t(_CU), 3, 3, 1.0), ValueError,
     r"cu_seqlens_q \[0, 2, 4\] addresses 6 tokens, but the input holds 4"),
    (lambda: F.flash_attn_varlen_qkvpacked(t(_PACK), t(_CU), t(_CU[:2]), 2, 2, 1.0), ValueError,
     r"cu_seqlens_q and cu_seqlens_k must both have batch_size \+ 1 entries"),
    (lambda: F.flash_attention_v3_varlen(t(_TOK), t(_TOK), t(_TOK), t(_CU), t(_CU), 2, 2, qv=t(_TOK)),
     NotImplementedError, r"flash_attention_v3_varlen: qv is not supported"),
    (lambda: F.flash_attention_v3_varlen(t(_TOK), t(_TOK), t(_TOK), t(_CU), t(_CU), 2, 2, q_descale=t(_TOK)),
     NotImplementedError, r"q_descale descales float8 inputs"),
    (lambda: F.flash_attention_v3_varlen(t(_TOK), t(_TOK[:, :1].repeat(3, 1)), t(_TOK[:, :1].repeat(3, 1)), t(_CU),
                                         t(_CU), 2, 2), ValueError,
     r"the number of query heads \(2\) must be a multiple of the number of key heads \(3\)"),
    (lambda: F.flash_attention_v3_varlen(t(_TOK), t(_TOK), t(_TOK), t(_CU), t(_CU), 2, 2, window_size=(1,)),
     ValueError, r"window_size must be a pair \(left, right\) of ints"),
    (lambda: F.flash_attention_v3_varlen(t(_TOK), t(_TOK), t(_TOK), t(_CU), t(_CU), 2, 2, softcap=-1.0),
     ValueError, r"softcap must be >= 0"),
    (lambda: F.flash_attention_v3_varlen(t(_TOK), t(_TOK), t(_TOK), t(_CU), t(_CU), 2, 2,
                                         seqused_q=t(np.array([1], np.int32))), ValueError,
     r"seqused_q must have shape \[batch_size\] = \[2\], but received \[1\]"),
    (lambda: F.flashmask_attention(t(_Q4), t(_Q4), t(_Q4), t(np.zeros((1, 1, 4, 1), np.int64)), causal=True),
     TypeError, r"flashmask_attention: startend_row_indices must have dtype int32, but received int64"),
    (lambda: F.flashmask_attention(t(_Q4), t(_Q4), t(_Q4), t(np.zeros((1, 1, 4, 1), np.int32))), ValueError,
     r"with causal=False the last dimension of startend_row_indices must be 2 or 4, but received shape "
     r"\[1, 1, 4, 1\]"),
    (lambda: F.flashmask_attention(t(_Q4), t(_Q4), t(_Q4), t(np.zeros((1, 1, 3, 1), np.int32)), causal=True),
     ValueError, r"startend_row_indices must be \[batch_size, heads, seq_k, n\] = \[1, heads, 4, n\]"),
    (lambda: F.flashmask_attention(t(_Q4), t(_Q4), t(_Q4), t(np.zeros((1, 3, 4, 1), np.int32)), causal=True),
     ValueError, r"head count must be 1 \(broadcast\), the query's \(2\) or the key's \(2\), but received 3"),
    (lambda: F.flashmask_attention(t(_Q4), t(_Q4), t(_Q4), t(np.zeros((1, 1, 4, 1), np.int32)), window_size=2),
     ValueError, r"window_size builds its own startend_row_indices"),
    (lambda: F.flashmask_attention(t(_Q4), t(_Q4), t(_Q4), block_mask=t(np.ones((1, 1, 1, 1), np.int32))),
     ValueError, r"block_mask must be used together with startend_row_indices"),
    (lambda: F.flashmask_attention(t(_Q4), t(_Q4), t(_Q4), t(np.zeros((1, 1, 4, 1), np.int32)), causal=True,
                                   block_mask=t(np.ones((1, 1, 2, 1), np.int32))), ValueError,
     r"block_mask must have shape .* = \[1, 1, 1, 1\], but received \[1, 1, 2, 1\]"),
    (lambda: F.sparse_attention(t(_Q4), t(_Q4), t(_Q4), t(np.zeros((1, 4, 4), np.int32)),
                                t(np.zeros((1, 4, 2), np.int32))), ValueError,
     r"sparse_attention: sparse_csr_offset must have shape \[1, 4, 3\], but received \[1, 4, 4\]"),
    (lambda: F.sparse_attention(t(_Q4), t(_Q4), t(_Q4), t(np.array([[[0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2]]],
                                                                    np.int32)), t(np.full((1, 4, 2), 5, np.int32))),
     ValueError, r"every column in sparse_csr_columns must lie in \[0, 2\), but received 5"),
    (lambda: F.rms_norm(t(np.zeros((2, 3), np.float32)), [4]), ValueError,
     r"rms_norm: the trailing dimensions of input must equal normalized_shape \[4\], but the input has shape "
     r"\[2, 3\]"),
    (lambda: F.rms_norm(t(np.zeros((2, 3), np.float32)), 3, t(np.ones(2, np.float32))), ValueError,
     r"weight must have shape normalized_shape \[3\], but received \[2\]"),
    (lambda: F.rms_norm(t(np.zeros((2, 3), np.float32)), [0]), ValueError,
     r"normalized_shape must be a positive int or a non-empty list of positive ints"),
    (lambda: F.margin_cross_entropy(t(np.zeros((2, 3))), t(np.array([0, 1])), reduction="avg"), ValueError,
     r"margin_cross_entropy: reduction must be 'mean', 'sum', 'none' or None, but received 'avg'"),
    (lambda: F.margin_cross_entropy(t(np.zeros((2, 3))), t(np.array([0, 3]))), ValueError,
     r"every label must lie in \[0, 3\) .* received 3"),
    (lambda: F.margin_cross_entropy(t(np.zeros((2, 3))), t(np.zeros((2, 1, 1), np.int64))), ValueError,
     r"label must have one dimension less than logits or as many"),
    (lambda: F.margin_cross_entropy(t(np.zeros((2, 3))), t(np.array([0, 1])), group=3), ValueError,
     r"group must be False, None or a paddle.distributed Group, but received 3"),
    (lambda: F.class_center_sample(t(np.array([1, 25])), 20, 5), ValueError,
     r"class_center_sample: every label must lie in \[0, num_classes\) = \[0, 20\), but received 25"),
    (lambda: F.class_center_sample(t(np.array([1.0, 2.0])), 20, 5), TypeError,
     r"label must have dtype int64 or int32, but received float64"),
    (lambda: F.moe_permute(t(np.zeros((3, 4), np.float32)), None, t(_ROUTE), t(_PROB), 3, [1, 1, 1], 2),
     ValueError, r"moe_permute: tokens_per_expert must count the tokens routed to each expert, \[1, 2, 1\] by "
     r"expert_routemap_topk, but received \[1, 1, 1\]"),
    (lambda: F.moe_permute(t(np.zeros((3, 4), np.float32)), None, t(_ROUTE), t(_PROB), 2, [1, 2], 2), ValueError,
     r"expert_routemap_topk values must lie in \[-1, num_experts\) = \[-1, 2\), but received 2"),
    (lambda: F.moe_permute(t(np.zeros((3, 4), np.float32)), None, t(np.array([[0, 0], [1, -1], [1, -1]], np.int32)),
                           t(np.zeros((3, 2), np.float32)), 2, [1, 2], 2), ValueError,
     r"token 0 is routed to the same expert twice"),
    (lambda: F.moe_permute(t(np.zeros((3, 4), np.float32)), None, t(_ROUTE), t(_PROB), 65, [1] * 65, 2), ValueError,
     r"num_experts must be at most 64"),
    (lambda: F.moe_permute(t(np.zeros((3, 4), np.float32)), None, t(_ROUTE), t(_PROB), 3, [1, 2, 1], 2,
                           override_buffer_size=4), ValueError, r"override_buffer_size 4 is too small: .* need 6 rows"),
    (lambda: F.moe_permute(t(np.zeros((3, 4), np.float32)), t(np.zeros((3, 1), np.float32)), t(_ROUTE), t(_PROB), 3,
                           [1, 2, 1], 2, using_ue8m0_scale=True), TypeError,
     r"scale \(packed ue8m0 factors, using_ue8m0_scale=True\) must have dtype int32, but received float32"),
    (lambda: F.moe_unpermute(t(np.zeros((6, 4), np.float32)), t(np.zeros((3, 2), np.int32)), t(_ROUTE),
                             t(np.zeros(6, np.float32)), 3, 3), ValueError,
     r"moe_unpermute: zipped_expertwise_rowmap must have shape \[total_zipped_tokens, num_experts\] = \[3, 3\]"),
    (lambda: F.moe_unpermute(t(np.zeros((6, 4), np.float32)), t(np.full((3, 3), 6, np.int32)), t(_ROUTE),
                             t(np.zeros(6, np.float32)), 3, 3), ValueError,
     r"zipped_expertwise_rowmap values must be -1 or rows of hidden_states_unzipped, in \[0, 6\), but received 6"),
]


@pytest.mark.parametrize(("call", "exc", "match"), _MISUSE, ids=[m[2][:40] for m in _MISUSE])
def test_misuse(call, exc, match):  # noqa: ANN001
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("label", list(C.CCS_ERRORS))
def test_class_center_sample_errors_as_paddle(label):  # noqa: ANN001
    # Paddle's exception types; the messages name the same rule (worded as sentences with the fix)
    lab, nc, ns, group = C.CCS_ERRORS[label]
    kind, message = REC[f"ccs_error|{label}"]
    words = {"too_many_samples": r"num_samples must be at most num_classes = 20, but received num_samples 21",
             "two_d": r"label must be a 1-D tensor \[N\], but received shape \[2, 5\]",
             "zero_samples": r"num_samples must be greater than 0, but received 0",
             "bad_group": r"group must be False, None or a paddle.distributed Group, but received 3"}[label]
    assert kind == "ValueError" and message
    with pytest.raises(ValueError, match=words):
        F.class_center_sample(t(lab), nc, ns, group=group)
