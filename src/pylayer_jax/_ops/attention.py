"""Flash-attention family, sparse and masked attention (``paddle.nn.functional``; layer L1).

Paddle 3.3.1 runs these on CUDA kernels only (flash-attention 2/3, FlashMask, the CSR sparse attention kernel);
here each is the attention its documentation defines, written densely:

    out = softmax(scale * Q K^T masked) V

with the masks each API describes (causal, variable-length sequences given by cumulative lengths, FlashMask's
column-wise row ranges, a CSR layout), key/value heads shared by groups of query heads (grouped-query attention:
query head ``h`` reads key head ``h // (num_heads / num_heads_k)``), and the flash kernels' convention for a query
row that sees no key: its output is 0 and its log-sum-exp ``+inf``. Scores and softmax run in float32 at least
(the kernels accumulate in float32 for half-precision inputs); outputs take the query's dtype.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from .table import defop


def _compute_dtype(dtype):  # noqa: ANN001, ANN202
    return jnp.promote_types(dtype, jnp.float32)


def attend(q, k, v, keep, scale, rng=None, dropout=0.0, training=True, softcap=0.0):  # noqa: ANN001, ANN201
    """Dense attention over ``[batch, seq, heads, dim]`` inputs.

    ``keep`` (bool, broadcastable to ``[batch, heads, seq_q, seq_k]``, or None) says which scores take part;
    key/value heads repeat for grouped-query attention. Returns ``(out [b, sq, h, dv], weights [b, h, sq, sk],
    lse [b, h, sq])``: the weights after dropout (what Paddle's math path returns as its softmax), the log-sum-exp of
    the kept scaled scores (``+inf`` on a row that keeps nothing, whose output and weights are 0; no gradient flows
    through it, as Paddle's kernels give it none).
    """
    h, hk = q.shape[2], k.shape[2]
    if hk != h:
        k = jnp.repeat(k, h // hk, axis=2)
        v = jnp.repeat(v, h // hk, axis=2)
    ct = _compute_dtype(q.dtype)
    s = jnp.einsum("bqhd,bkhd->bhqk", q.astype(ct) * jnp.asarray(scale, ct), k.astype(ct))
    if softcap > 0:
        s = jnp.tanh(s / softcap) * softcap
    if keep is not None:
        s = jnp.where(keep, s, -jnp.inf)
    m = jax.lax.stop_gradient(jnp.max(s, axis=-1, keepdims=True))
    m = jnp.where(jnp.isfinite(m), m, 0)
    e = jnp.exp(s - m)
    total = jnp.sum(e, axis=-1, keepdims=True)
    any_kept = total > 0
    p = e / jnp.where(any_kept, total, 1)
    lse = jnp.where(any_kept, m + jnp.log(jnp.where(any_kept, total, 1)), jnp.inf)[..., 0]
    if dropout >= 1 and training:
        p = jnp.zeros_like(p)
    elif dropout > 0 and training:
        kept = jax.random.bernoulli(rng.astype(jnp.uint32), 1.0 - dropout, p.shape)
        p = jnp.where(kept, p / (1.0 - dropout), 0).astype(p.dtype)
    out = jnp.einsum("bhqk,bkhd->bqhd", p, v.astype(ct))
    return out.astype(q.dtype), p.astype(q.dtype), jax.lax.stop_gradient(lse).astype(jnp.float32)


def _default_scale(d):  # noqa: ANN001, ANN202
    return d ** -0.5 if d else 1.0


def _window_keep(iq, jk, lq, lk, causal, left, right):  # noqa: ANN001, ANN202
    """Which (query i, key j) pairs a sequence with ``lq`` queries and ``lk`` keys keeps: all of them, or with
    ``causal`` the keys up to the query's position aligned to the end of the keys (flash-attention 2.1+: query
    ``i`` sees keys ``j <= i + lk - lq``), and within a local window ``[i + lk - lq - left, i + lk - lq + right]``
    (a negative bound: unlimited)."""
    shift = iq + lk - lq
    keep = jnp.ones(jnp.broadcast_shapes(iq.shape, jk.shape, shift.shape), bool)
    if causal:
        right = 0
    if right >= 0:
        keep = keep & (jk <= shift + right)
    if left >= 0:
        keep = keep & (jk >= shift - left)
    return keep


def _varlen(q, k, v, cu_q, cu_k, used_q, used_k, rng, max_q, max_k, scale, dropout, causal, training, left, right,
            softcap, padded):  # noqa: ANN001, ANN202
    """Variable-length attention over packed tokens ``q [total_q, h, d]``, ``k/v [total_k, hk, d]``: sequence ``b``
    holds the tokens from its start (``cu[b]``, or ``b * max_seqlen`` when ``padded``) for ``cu[b+1] - cu[b]``
    tokens (``seqused[b]`` when given). Each sequence is gathered into a ``[batch, max_seqlen, ...]`` block,
    attended there and scattered back; tokens in no sequence get 0 (and a ``+inf`` log-sum-exp)."""
    nb = cu_q.shape[0] - 1
    cu_q, cu_k = cu_q.astype(jnp.int64), cu_k.astype(jnp.int64)
    lq = cu_q[1:] - cu_q[:-1] if used_q is None else used_q.astype(jnp.int64)
    lk = cu_k[1:] - cu_k[:-1] if used_k is None else used_k.astype(jnp.int64)
    bq = jnp.arange(nb, dtype=jnp.int64) * max_q if padded else cu_q[:-1]
    bk = jnp.arange(nb, dtype=jnp.int64) * max_k if padded else cu_k[:-1]
    iq, jk = jnp.arange(max_q, dtype=jnp.int64), jnp.arange(max_k, dtype=jnp.int64)
    rows_q, rows_k = bq[:, None] + iq, bk[:, None] + jk  # [b, max]
    ok_q = (iq < lq[:, None]) & (rows_q < q.shape[0])
    ok_k = (jk < lk[:, None]) & (rows_k < k.shape[0])
    qb = jnp.take(q, jnp.clip(rows_q, 0, q.shape[0] - 1), axis=0)
    kb = jnp.take(k, jnp.clip(rows_k, 0, k.shape[0] - 1), axis=0)
    vb = jnp.take(v, jnp.clip(rows_k, 0, k.shape[0] - 1), axis=0)
    keep = ok_q[:, :, None] & ok_k[:, None, :] & _window_keep(
        iq[None, :, None], jk[None, None, :], lq[:, None, None], lk[:, None, None], causal, left, right)
    out_b, p, lse_b = attend(qb, kb, vb, keep[:, None], scale, rng, dropout, training, softcap)
    dest = jnp.where(ok_q, rows_q, q.shape[0]).reshape(-1)  # (out of range: dropped)
    out = jnp.zeros((q.shape[0], *out_b.shape[2:]), out_b.dtype).at[dest].add(
        jnp.where(ok_q[..., None, None], out_b, 0).reshape(-1, *out_b.shape[2:]), mode="drop")
    lse = jnp.full((q.shape[1], q.shape[0]), jnp.inf, jnp.float32).at[:, dest].set(
        jnp.moveaxis(lse_b, 1, 0).reshape(q.shape[1], -1), mode="drop")
    return out, p, lse


@defop(("query", "key", "value", "cu_seqlens_q", "cu_seqlens_k", "seqused_q", "seqused_k", "rng"),
       saves=("query", "key", "value", "cu_seqlens_q", "cu_seqlens_k", "seqused_q", "seqused_k", "rng"),
       nondiff=("cu_seqlens_q", "cu_seqlens_k", "seqused_q", "seqused_k", "rng"), method=False)
def flash_attn_varlen(query, key, value, cu_seqlens_q, cu_seqlens_k, seqused_q=None, seqused_k=None, rng=None,
                      max_seqlen_q=0, max_seqlen_k=0, scale=1.0, dropout=0.0, causal=False, training=True,
                      window_left=-1, window_right=-1, softcap=0.0, varlen_padded=False):
    """Variable-length attention of packed tokens ``query [total_q, num_heads, head_dim]``, ``key/value [total_k,
    num_heads_k, head_dim]`` (sequence ``b``: ``cu_seqlens[b+1] - cu_seqlens[b]`` tokens, or ``seqused[b]``, from
    ``cu_seqlens[b]``, or from ``b * max_seqlen`` when ``varlen_padded``), with a local window and a ``softcap *
    tanh(s / softcap)`` cap of the scaled scores (flash_attn_varlen_qkvpacked and flash_attention_v3_varlen).
    Returns ``(out [total_q, num_heads, head_dim], softmax [batch, num_heads, max_seqlen_q, max_seqlen_k] (after
    dropout), softmax_lse [num_heads, total_q])``; tokens in no sequence get 0."""
    return _varlen(query, key, value, cu_seqlens_q, cu_seqlens_k, seqused_q, seqused_k, rng, max_seqlen_q,
                   max_seqlen_k, scale, dropout, causal, training, window_left, window_right, softcap, varlen_padded)


def flashmask_keep(startend_row_indices, seqlen_q, causal):  # noqa: ANN001, ANN201
    """FlashMask's dense mask (True: kept) ``[batch, heads, seqlen_q, seqlen_k]`` from its column-wise row ranges
    ``[batch, heads, seqlen_k, n]``: in key column ``j`` the rows (queries) ``i`` masked are, by ``n`` and ``causal``,
    ``i >= LTS`` (1, causal), ``LTS <= i < LTE`` (2, causal), ``i >= LTS or i < UTE`` (2), ``LTS <= i < LTE or
    UTS <= i < UTE`` (4); a causal mask also hides ``i < j``."""
    se = jnp.moveaxis(startend_row_indices.astype(jnp.int64), -1, 0)[:, :, :, None, :]  # [n, b, h, 1, sk]
    i = jnp.arange(seqlen_q, dtype=jnp.int64)[:, None]  # [sq, 1]
    n = se.shape[0]
    if causal:
        masked = (i >= se[0]) if n == 1 else (i >= se[0]) & (i < se[1])
        masked = masked | (i < jnp.arange(se.shape[-1], dtype=jnp.int64))
    elif n == 2:
        masked = (i >= se[0]) | (i < se[1])
    else:
        masked = ((i >= se[0]) & (i < se[1])) | ((i >= se[2]) & (i < se[3]))
    return ~masked


def _heads_for(mask, h, hk):  # noqa: ANN001, ANN202
    """A per-head mask with 1, ``h`` or ``hk`` heads, as one per query head (a key head's mask serves its group)."""
    if mask.shape[1] in (1, h):
        return mask
    return jnp.repeat(mask, h // hk, axis=1)


@defop(("query", "key", "value", "startend_row_indices", "block_mask", "rng"),
       saves=("query", "key", "value", "startend_row_indices", "block_mask", "rng"),
       nondiff=("startend_row_indices", "block_mask", "rng"), method=False)
def flashmask_attention(query, key, value, startend_row_indices=None, block_mask=None, rng=None, dropout=0.0,
                        causal=False, training=True, softmax_scale=None):
    """FlashMask attention of ``query [batch, seq_q, num_heads, head_dim]`` and ``key/value [batch, seq_k,
    num_heads_k, head_dim]`` under the dense mask of ``startend_row_indices`` (``flashmask_keep``; None: causal
    (query ``i`` sees keys ``j <= i``) or nothing, which also serves flash_attn_qkvpacked), further masked by
    128x128 blocks where ``block_mask`` is 0; returns ``(out, softmax [batch, num_heads, seq_q, seq_k] (after
    dropout), softmax_lse [batch, num_heads, seq_q])``."""
    h, hk, sq, sk = query.shape[2], key.shape[2], query.shape[1], key.shape[1]
    if startend_row_indices is None:
        keep = jnp.tril(jnp.ones((sq, sk), bool)) if causal else None
    else:
        keep = _heads_for(flashmask_keep(startend_row_indices, sq, causal), h, hk)
        if block_mask is not None:
            blocks = jnp.repeat(jnp.repeat(block_mask != 0, 128, axis=2), 128, axis=3)[:, :, :sq, :sk]
            keep = keep & _heads_for(blocks, h, hk)
    scale = _default_scale(query.shape[-1]) if softmax_scale is None else softmax_scale
    return attend(query, key, value, keep, scale, rng, dropout, training)


def csr_layout(offset, columns, seq_len):  # noqa: ANN001, ANN201
    """The dense ``[batch, heads, seq, seq]`` layout (True where stored) of a batch of CSR matrices: row ``i`` stores
    the columns ``columns[offset[i]:offset[i+1]]``."""
    nnz = columns.shape[-1]
    p = jnp.arange(nnz, dtype=jnp.int64)
    ends = offset[..., 1:].astype(jnp.int64)  # [b, h, s]
    row = jnp.sum(ends[..., None, :] <= p[:, None], axis=-1)  # [b, h, nnz]: the row whose range holds entry p
    valid = p < offset[..., -1:].astype(jnp.int64)
    row = jnp.where(valid, row, seq_len)
    b, hh = jnp.meshgrid(jnp.arange(offset.shape[0]), jnp.arange(offset.shape[1]), indexing="ij")
    layout = jnp.zeros((*offset.shape[:2], seq_len, seq_len), bool)
    return layout.at[b[..., None], hh[..., None], row, columns.astype(jnp.int64)].set(True, mode="drop")


@defop(("query", "key", "value", "sparse_csr_offset", "sparse_csr_columns", "key_padding_mask", "attn_mask"),
       saves=("query", "key", "value", "sparse_csr_offset", "sparse_csr_columns", "key_padding_mask", "attn_mask"),
       nondiff=("sparse_csr_offset", "sparse_csr_columns", "key_padding_mask", "attn_mask"), method=False)
def sparse_attention(query, key, value, sparse_csr_offset, sparse_csr_columns, key_padding_mask=None,
                     attn_mask=None):
    """Attention of ``[batch, heads, seq, head_dim]`` inputs restricted to the CSR layout (``offset [batch, heads,
    seq + 1]``, ``columns [batch, heads, nnz]``), scaled by ``1/sqrt(head_dim)``; a 0 in ``key_padding_mask
    [batch, seq]`` or ``attn_mask [seq, seq]`` masks that key (for every query) or that (query, key) pair."""
    s = query.shape[2]
    keep = csr_layout(sparse_csr_offset, sparse_csr_columns, s)
    if key_padding_mask is not None:
        keep = keep & (key_padding_mask != 0)[:, None, None, :]
    if attn_mask is not None:
        keep = keep & (attn_mask != 0)
    t = lambda a: jnp.swapaxes(a, 1, 2)  # noqa: E731  ([b, h, s, d] <-> [b, s, h, d])
    out, _, _ = attend(t(query), t(key), t(value), keep, 1.0 / math.sqrt(query.shape[-1]))
    return t(out)
