"""``paddle.nn.functional``'s large-model kernels (layer L5): the flash-attention family (flash_attn_qkvpacked,
flash_attn_varlen_qkvpacked, flash_attention_v3_varlen, flashmask_attention), sparse_attention, rms_norm,
margin_cross_entropy, class_center_sample, moe_permute and moe_unpermute.

Paddle 3.3.1 has CUDA kernels only for these (flash_attn_qkvpacked and class_center_sample also run on its CPU:
the first as its math path, the second as its CPU kernel). Each public function checks its arguments by Paddle's
rules and calls one table op (``_ops.attention``, ``_ops.large_model``; the packed forms slice their query, key and value out
first), so gradients flow on the eager tape, under
``to_static`` and under ``jax.grad``. Value checks (sequence offsets, routing maps, label ranges) run where the
values are known (eagerly); traced values are taken as they are.

Dropout keys: ``fixed_seed_offset`` (an int64 tensor of 2 values, as Paddle's kernels return in ``seed_offset``)
is the key of the dropout mask when given, so passing back a returned ``seed_offset`` draws the same mask; otherwise
the global generator gives a fresh key. ``rng_name`` (Paddle's choice among named generators) must be ``""``: one
generator serves everything here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._api.irregular import _eager
from .._api.random import random_key
from .._ops.table import TABLE
from .._runtime.transfer import own
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, _Tracer
from ._functional import _NO_KEY

_MAX_EXPERTS = 64  # Paddle's kernels: "Currently we support no more than 64" experts


# ---- argument helpers --------------------------------------------------------------------------------------------
def _known(t: Any) -> np.ndarray | None:
    """The value of a tensor argument where it is concrete; None under tracing or in a static program."""
    if t is None:
        return None
    if isinstance(t, Tensor):
        if isinstance(t._value, _Tracer) or t._symbolic:
            return None
        return np.asarray(t._value)
    if isinstance(t, jax.core.Tracer):
        return None
    return np.asarray(t)


def _shape(t: Any) -> list[int]:
    return [int(d) for d in t.shape]


def _dtype(t: Any) -> str:
    return str(t.dtype.name)


def _tensor(api: str, what: str, t: Any) -> Any:
    if t is None or not hasattr(t, "shape") or not hasattr(t, "dtype"):
        raise TypeError(f"{api}: {what} must be a Tensor, but received {type(t).__name__}; wrap it with "
                        "paddle.to_tensor.")
    return t


def _int_dtype(api: str, what: str, t: Any, allowed: tuple[str, ...] = ("int32",)) -> None:
    if _dtype(t) not in allowed:
        raise TypeError(f"{api}: {what} must have dtype {' or '.join(allowed)}, but received {_dtype(t)}; cast it "
                        f"with .astype('{allowed[0]}').")


def _float_dtype(api: str, what: str, t: Any) -> None:
    if _dtype(t) not in ("float16", "bfloat16", "float32", "float64"):
        raise TypeError(f"{api}: {what} must be a floating tensor (float16, bfloat16, float32 or float64), but "
                        f"received {_dtype(t)}.")


def _rank(api: str, what: str, t: Any, n: int, layout: str) -> list[int]:
    shape = _shape(t)
    if len(shape) != n:
        raise ValueError(f"{api}: {what} must be a {n}-D tensor {layout}, but received shape {shape}.")
    return shape


def _int_arg(api: str, what: str, v: Any, lo: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int | np.integer):
        raise TypeError(f"{api}: {what} must be an int, but received {type(v).__name__} {v!r}.")
    if lo is not None and v < lo:
        raise ValueError(f"{api}: {what} must be at least {lo}, but received {v}.")
    return int(v)


def _number(api: str, what: str, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float | np.integer | np.floating):
        raise TypeError(f"{api}: {what} must be a number, but received {type(v).__name__} {v!r}.")
    return float(v)


def _dropout(api: str, p: Any) -> float:
    if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= 1:
        raise ValueError(f"{api}: dropout must be a number in [0, 1], but received {p!r}.")
    return float(p)


def _dropout_key(api: str, fixed_seed_offset: Any, rng_name: Any, needed: bool) -> Any:
    """The key of a dropout mask: ``fixed_seed_offset`` when given, a fresh key when a mask is drawn."""
    if rng_name != "":
        raise NotImplementedError(
            f"{api}: rng_name selects one of Paddle's named generators; one generator serves every draw here, so "
            f"rng_name must be '' (its default), but received {rng_name!r}.")
    if fixed_seed_offset is not None:
        _tensor(api, "fixed_seed_offset", fixed_seed_offset)
        if _dtype(fixed_seed_offset) != "int64" or _shape(fixed_seed_offset) != [2]:
            raise ValueError(f"{api}: fixed_seed_offset must be an int64 tensor of shape [2] (a seed and an offset, "
                             f"as a returned seed_offset), but received {_dtype(fixed_seed_offset)} of shape "
                             f"{_shape(fixed_seed_offset)}.")
        return fixed_seed_offset
    return random_key() if needed else _NO_KEY


def _heads(api: str, h: int, hk: int, what: str = "key") -> None:
    if hk == 0 or h % hk:
        raise ValueError(f"{api}: the number of query heads ({h}) must be a multiple of the number of {what} heads "
                         f"({hk}) (grouped-query attention).")


# ---- the flash-attention family ------------------------------------------------------------------------------------
def flash_attn_qkvpacked(
    qkv: Tensor,
    dropout: float = 0.0,
    causal: bool = False,
    return_softmax: bool = False,
    *,
    fixed_seed_offset: Tensor | None = None,
    rng_name: str = "",
    training: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor | None]:
    """``softmax(Q K^T / sqrt(head_dim)) V`` of a packed ``qkv [batch, seqlen, num_heads/num_heads_k + 2,
    num_heads_k, head_dim]``: the first ``num_heads/num_heads_k`` groups are the query (head ``g * num_heads_k + j``
    from group ``g``), then the key and the value (query head ``h`` reads key head ``h // (num_heads /
    num_heads_k)``). ``causal``: query ``i`` sees keys ``j <= i``. ``dropout`` drops attention weights while
    ``training`` (upscaling the kept ones). Returns ``(out [batch, seqlen, num_heads, head_dim], softmax)``:
    ``softmax`` (``[batch, num_heads, seqlen, seqlen]``, the weights after dropout, as Paddle's math path returns
    them) when ``return_softmax``, else None."""
    api = "flash_attn_qkvpacked"
    _tensor(api, "qkv", qkv)
    shape = _rank(api, "qkv", qkv, 5, "[batch_size, seqlen, num_heads/num_heads_k + 2, num_heads_k, head_dim]")
    if shape[2] < 3:
        raise ValueError(f"{api}: qkv's axis 2 must hold at least 3 groups (the query groups, the key and the "
                         f"value), but received shape {shape}.")
    _float_dtype(api, "qkv", qkv)
    p = _dropout(api, dropout)
    rng = _dropout_key(api, fixed_seed_offset, rng_name, p > 0 and bool(training))
    b, s, g, hk, d = shape
    query = qkv[:, :, :-2].reshape([b, s, (g - 2) * hk, d])
    out, softmax, _ = apply_op(TABLE["flashmask_attention"], (query, qkv[:, :, -2], qkv[:, :, -1], None, None, rng),
                               {"dropout": p, "causal": bool(causal), "training": bool(training)})
    return out, (softmax if return_softmax else None)


def _check_cu_seqlens(api: str, cu_q: Any, cu_k: Any) -> int:
    for what, t in (("cu_seqlens_q", cu_q), ("cu_seqlens_k", cu_k)):
        _tensor(api, what, t)
        _rank(api, what, t, 1, "[batch_size + 1]")
        _int_dtype(api, what, t)
    if _shape(cu_q) != _shape(cu_k) or _shape(cu_q)[0] < 1:
        raise ValueError(f"{api}: cu_seqlens_q and cu_seqlens_k must both have batch_size + 1 entries, but received "
                         f"shapes {_shape(cu_q)} and {_shape(cu_k)}.")
    return _shape(cu_q)[0] - 1


def _check_lengths(api: str, what: str, cu: Any, used: Any, max_len: int, total: int, padded: bool) -> None:
    """Cumulative lengths start at 0 and never decrease; no sequence is longer than ``max_len``; the sequences fit
    the ``total`` tokens."""
    c = _known(cu)
    if c is None:
        return
    c = c.astype(np.int64)
    lengths = np.diff(c)
    if c[0] != 0 or (lengths < 0).any():
        raise ValueError(f"{api}: {what} must start at 0 and never decrease (cumulative sequence lengths), but "
                         f"received {c.tolist()}.")
    u = _known(used)
    if u is not None:
        lengths = u.astype(np.int64)
    if lengths.size and lengths.max() > max_len:
        raise ValueError(f"{api}: a sequence has {int(lengths.max())} tokens, more than max_seqlen "
                         f"{max_len} ({what} {c.tolist()}); pass the longest sequence length as max_seqlen.")
    need = len(lengths) * max_len if padded else int(c[-1])
    if need > total:
        raise ValueError(f"{api}: {what} {c.tolist()} addresses {need} tokens, but the input holds {total}.")


def flash_attn_varlen_qkvpacked(
    qkv: Tensor,
    cu_seqlens_q: Tensor,
    cu_seqlens_k: Tensor,
    max_seqlen_q: int,
    max_seqlen_k: int,
    scale: float,
    dropout: float = 0.0,
    causal: bool = False,
    return_softmax: bool = False,
    fixed_seed_offset: Tensor | None = None,
    rng_name: str = "",
    varlen_padded: bool = True,
    training: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor | None]:
    """Variable-length ``softmax(scale * Q K^T) V`` of packed tokens ``qkv [total_seq_len, num_heads/num_heads_k +
    2, num_heads_k, head_dim]`` (groups as in flash_attn_qkvpacked). Sequence ``b`` has ``cu_seqlens[b+1] -
    cu_seqlens[b]`` tokens (int32 cumulative lengths, ``[batch_size + 1]``), starting at token ``cu_seqlens[b]``, or
    at ``b * max_seqlen`` with ``varlen_padded`` (each sequence padded to ``max_seqlen`` tokens: the padding is not
    computed and its output is 0). Tokens attend within their sequence only; ``causal``: query ``i`` sees keys up to
    ``i + len_k - len_q``. Returns ``(out [total_seq_len, num_heads, head_dim], softmax)``: ``softmax`` (``[batch,
    num_heads, max_seqlen_q, max_seqlen_k]``, the weights after dropout, 0 outside the sequences) when
    ``return_softmax``, else None."""
    api = "flash_attn_varlen_qkvpacked"
    _tensor(api, "qkv", qkv)
    shape = _rank(api, "qkv", qkv, 4, "[total_seq_len, num_heads/num_heads_k + 2, num_heads_k, head_dim]")
    if shape[1] < 3:
        raise ValueError(f"{api}: qkv's axis 1 must hold at least 3 groups (the query groups, the key and the "
                         f"value), but received shape {shape}.")
    _float_dtype(api, "qkv", qkv)
    _check_cu_seqlens(api, cu_seqlens_q, cu_seqlens_k)
    mq = _int_arg(api, "max_seqlen_q", max_seqlen_q, 0)
    mk = _int_arg(api, "max_seqlen_k", max_seqlen_k, 0)
    sc = _number(api, "scale", scale)
    padded = bool(varlen_padded)
    _check_lengths(api, "cu_seqlens_q", cu_seqlens_q, None, mq, shape[0], padded)
    _check_lengths(api, "cu_seqlens_k", cu_seqlens_k, None, mk, shape[0], padded)
    p = _dropout(api, dropout)
    rng = _dropout_key(api, fixed_seed_offset, rng_name, p > 0 and bool(training))
    total, g, hk, d = shape
    query = qkv[:, :-2].reshape([total, (g - 2) * hk, d])
    out, softmax, _ = apply_op(TABLE["flash_attn_varlen"],
                               (query, qkv[:, -2], qkv[:, -1], cu_seqlens_q, cu_seqlens_k, None, None, rng),
                               {"max_seqlen_q": mq, "max_seqlen_k": mk, "scale": sc, "dropout": p,
                                "causal": bool(causal), "training": bool(training), "varlen_padded": padded})
    return out, (softmax if return_softmax else None)


def flash_attention_v3_varlen(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    cu_seqlens_q: Tensor,
    cu_seqlens_k: Tensor,
    max_seqlen_q: int,
    max_seqlen_k: int,
    seqused_q: Tensor | None = None,
    seqused_k: Tensor | None = None,
    softmax_scale: float | None = None,
    causal: bool = False,
    qv: Tensor | None = None,
    q_descale: Tensor | None = None,
    k_descale: Tensor | None = None,
    v_descale: Tensor | None = None,
    window_size: Sequence[int] = (-1, -1),
    softcap: float = 0.0,
    num_splits: int = 1,
    pack_gqa: bool | None = None,
    sm_margin: int = 0,
) -> tuple[Tensor, Tensor]:
    """Flash-attention 3's variable-length attention of unpadded tokens ``query [total_q, num_heads, head_dim]``,
    ``key/value [total_k, num_heads_k, head_dim]`` (sequence ``b``: tokens ``cu_seqlens[b]`` to
    ``cu_seqlens[b+1]``, int32 ``[batch_size + 1]``; only its first ``seqused[b]`` when ``seqused_q/k [batch_size]``
    are given). The scores ``softmax_scale * q.k`` (default ``1/sqrt(head_dim)``) are capped to ``softcap *
    tanh(s / softcap)`` when ``softcap > 0``; query ``i`` of a sequence sees key ``j`` for ``i + len_k - len_q -
    window_size[0] <= j <= i + len_k - len_q + window_size[1]`` (a negative bound: unlimited; ``causal`` makes the
    right bound 0). Returns ``(out [total_q, num_heads, head_dim], softmax_lse [num_heads, total_q])`` (float32
    log-sum-exp of each query's kept scores; ``+inf`` for a query that sees no key, whose output is 0).
    ``num_splits``, ``pack_gqa`` and ``sm_margin`` only split the kernel's work, pack heads and reserve
    multiprocessors on a GPU: they do not change the values."""
    api = "flash_attention_v3_varlen"
    if qv is not None:
        raise NotImplementedError(f"{api}: qv is not supported (Paddle: 'flash_attn_varlen_func does not support "
                                  "setting qv'); pass qv=None.")
    for what, t in (("q_descale", q_descale), ("k_descale", k_descale), ("v_descale", v_descale)):
        if t is not None:
            raise NotImplementedError(f"{api}: {what} descales float8 inputs, and float8 attention is not "
                                      f"supported here; pass {what}=None with floating inputs.")
    for what, t in (("query", query), ("key", key), ("value", value)):
        _tensor(api, what, t)
        _rank(api, what, t, 3, "[total_tokens, num_heads, head_dim]")
        _float_dtype(api, what, t)
    qs, ks, vs = _shape(query), _shape(key), _shape(value)
    if ks[:2] != vs[:2] or ks[2] != qs[2]:
        raise ValueError(f"{api}: key must be [total_k, num_heads_k, head_dim] with the query's head_dim, and value "
                         f"[total_k, num_heads_k, head_dim_v], but received query {qs}, key {ks} and value {vs}.")
    _heads(api, qs[1], ks[1])
    nb = _check_cu_seqlens(api, cu_seqlens_q, cu_seqlens_k)
    for what, t in (("seqused_q", seqused_q), ("seqused_k", seqused_k)):
        if t is not None:
            _tensor(api, what, t)
            _int_dtype(api, what, t)
            if _shape(t) != [nb]:
                raise ValueError(f"{api}: {what} must have shape [batch_size] = [{nb}], but received {_shape(t)}.")
    mq = _int_arg(api, "max_seqlen_q", max_seqlen_q, 0)
    mk = _int_arg(api, "max_seqlen_k", max_seqlen_k, 0)
    _check_lengths(api, "cu_seqlens_q", cu_seqlens_q, seqused_q, mq, qs[0], False)
    _check_lengths(api, "cu_seqlens_k", cu_seqlens_k, seqused_k, mk, ks[0], False)
    scale = qs[2] ** -0.5 if softmax_scale is None else _number(api, "softmax_scale", softmax_scale)
    if not isinstance(window_size, Sequence) or len(window_size) != 2:
        raise ValueError(f"{api}: window_size must be a pair (left, right) of ints, but received {window_size!r}.")
    left, right = (_int_arg(api, "window_size", w) for w in window_size)
    cap = _number(api, "softcap", softcap)
    if cap < 0:
        raise ValueError(f"{api}: softcap must be >= 0 (0: no cap), but received {softcap!r}.")
    _int_arg(api, "num_splits", num_splits, 0)
    if pack_gqa is not None and not isinstance(pack_gqa, bool):
        raise TypeError(f"{api}: pack_gqa must be None or a bool, but received {pack_gqa!r}.")
    _int_arg(api, "sm_margin", sm_margin, 0)
    out, _, lse = apply_op(TABLE["flash_attn_varlen"],
                           (query, key, value, cu_seqlens_q, cu_seqlens_k, seqused_q, seqused_k, None),
                           {"max_seqlen_q": mq, "max_seqlen_k": mk, "scale": scale, "causal": bool(causal),
                            "window_left": left, "window_right": right, "softcap": cap})
    return out, lse


def _window_rows(batch: int, sq: int, window_size: Any, causal: bool) -> np.ndarray:
    """FlashMask's ``startend_row_indices`` of a sliding window (Paddle's construction: the key length taken as
    the query's)."""
    w = (window_size, window_size) if isinstance(window_size, int) else tuple(window_size)
    if len(w) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in w):
        raise ValueError(f"flashmask_attention: window_size must be an int or a pair of ints, but received "
                         f"{window_size!r}.")
    lts = np.clip(np.arange(w[0] + 1, sq + w[0] + 1), None, sq)
    if causal:
        rows = lts[:, None]
    else:
        rows = np.stack([lts, np.clip(np.arange(-w[1], sq - w[1]), 0, sq)], axis=-1)
    return np.broadcast_to(rows[None, None], (batch, 1, *rows.shape)).astype(np.int32)


def flashmask_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    startend_row_indices: Tensor | None = None,
    *,
    dropout: float = 0.0,
    causal: bool = False,
    window_size: int | tuple | None = None,
    return_softmax_lse: bool = False,
    return_seed_offset: bool = False,
    fixed_seed_offset: Tensor | None = None,
    rng_name: str = "",
    training: bool = True,
    name: str | None = None,
    softmax_scale: float | None = None,
    block_mask: Tensor | None = None,
) -> Any:
    """FlashMask attention ``softmax(Q K^T * softmax_scale + M) V`` of ``query [batch, seq_q, num_heads,
    head_dim]`` and ``key/value [batch, seq_k, num_heads_k, head_dim]`` (``softmax_scale`` defaults to
    ``1/sqrt(head_dim)``), where ``M`` masks, in key column ``j``, the query rows given by
    ``startend_row_indices [batch, 1 | num_heads | num_heads_k, seq_k, n]`` (int32):

    - ``causal`` and n=1: rows ``>= LTS``; n=2: rows in ``[LTS, LTE)``; with both, also the rows ``< j``;
    - not ``causal`` and n=2: rows ``>= LTS`` and rows ``< UTE``; n=4: rows in ``[LTS, LTE)`` and ``[UTS, UTE)``.

    Without ``startend_row_indices``: plain (``causal``) attention, or a sliding window of ``window_size`` (an int
    or ``(left, right)``). ``block_mask [batch, heads, ceil(seq_q/128), ceil(seq_k/128)]`` (int32, 0: masked)
    masks whole 128x128 blocks too. A query row that sees no key gives 0. Returns ``out``, or the list ``[out,
    softmax_lse [batch, num_heads, seq_q] (when return_softmax_lse), seed_offset (int64 [2], the dropout key; when
    return_seed_offset)]``."""
    api = "flashmask_attention"
    for what, t in (("query", query), ("key", key), ("value", value)):
        _tensor(api, what, t)
        _rank(api, what, t, 4, "[batch_size, seq_len, num_heads, head_dim]")
        _float_dtype(api, what, t)
    qs, ks, vs = _shape(query), _shape(key), _shape(value)
    if ks[:3] != vs[:3] or ks[0] != qs[0] or ks[3] != qs[3]:
        raise ValueError(f"{api}: key and value must be [batch_size, seq_k, num_heads_k, head_dim] with the query's "
                         f"batch size and head_dim, but received query {qs}, key {ks} and value {vs}.")
    _heads(api, qs[2], ks[2])
    if window_size is not None:
        if startend_row_indices is not None:
            raise ValueError(f"{api}: window_size builds its own startend_row_indices, so it cannot be used with "
                             "startend_row_indices; pass one of them.")
        startend_row_indices = Tensor(own(_window_rows(qs[0], qs[1], window_size, bool(causal)), np.int32))
    if block_mask is not None and startend_row_indices is None:
        raise ValueError(f"{api}: block_mask must be used together with startend_row_indices (Paddle: 'must provide "
                         "startend_row_indices when using block_mask_attn').")
    if startend_row_indices is not None:
        _tensor(api, "startend_row_indices", startend_row_indices)
        _int_dtype(api, "startend_row_indices", startend_row_indices)
        se = _rank(api, "startend_row_indices", startend_row_indices, 4, "[batch_size, num_heads, seq_k, n]")
        if se[0] != ks[0] or se[2] != ks[1]:
            raise ValueError(f"{api}: startend_row_indices must be [batch_size, heads, seq_k, n] = [{ks[0]}, heads, "
                             f"{ks[1]}, n] for key {ks}, but received {se}.")
        if se[1] not in (1, qs[2], ks[2]):
            raise ValueError(f"{api}: startend_row_indices' head count must be 1 (broadcast), the query's "
                             f"({qs[2]}) or the key's ({ks[2]}), but received {se[1]}.")
        allowed = (1, 2) if causal else (2, 4)
        if se[3] not in allowed:
            raise ValueError(f"{api}: with causal={bool(causal)} the last dimension of startend_row_indices must be "
                             f"{allowed[0]} or {allowed[1]}, but received shape {se}.")
        if block_mask is not None:
            _tensor(api, "block_mask", block_mask)
            _int_dtype(api, "block_mask", block_mask)
            want = [ks[0], se[1], (qs[1] + 127) // 128, (ks[1] + 127) // 128]
            if _shape(block_mask) != want:
                raise ValueError(f"{api}: block_mask must have shape [batch_size, heads of startend_row_indices, "
                                 f"ceil(seq_q/128), ceil(seq_k/128)] = {want}, but received {_shape(block_mask)}.")
    scale = None if softmax_scale is None else _number(api, "softmax_scale", softmax_scale)
    p = _dropout(api, dropout)
    rng = _dropout_key(api, fixed_seed_offset, rng_name, p > 0 and bool(training))
    out, _, lse = apply_op(TABLE["flashmask_attention"], (query, key, value, startend_row_indices, block_mask, rng),
                           {"dropout": p, "causal": bool(causal), "training": bool(training),
                            "softmax_scale": scale})
    outputs = [out]
    if return_softmax_lse:
        outputs.append(lse)
    if return_seed_offset:
        outputs.append(rng if isinstance(rng, Tensor) else Tensor(rng))
    return outputs[0] if len(outputs) == 1 else outputs


def sparse_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    sparse_csr_offset: Tensor,
    sparse_csr_columns: Tensor,
    key_padding_mask: Tensor | None = None,
    attn_mask: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """``softmax(Q K^T / sqrt(head_dim)) V`` of ``[batch_size, num_heads, seq_len, head_dim]`` inputs, each query
    row seeing only the keys of its row in the CSR layout (``sparse_csr_offset [batch_size, num_heads, seq_len +
    1]``: where each row's columns start; ``sparse_csr_columns [batch_size, num_heads, nnz]``; int32). A 0 in
    ``key_padding_mask [batch_size, seq_len]`` masks that key, a 0 in ``attn_mask [seq_len, seq_len]`` that (query,
    key) pair. A row left with no key gives 0."""
    api = "sparse_attention"
    for what, t in (("query", query), ("key", key), ("value", value)):
        _tensor(api, what, t)
        _rank(api, what, t, 4, "[batch_size, num_heads, seq_len, head_dim]")
        _float_dtype(api, what, t)
    qs = _shape(query)
    if _shape(key) != qs or _shape(value)[:3] != qs[:3]:
        raise ValueError(f"{api}: query, key and value must have the same shape [batch_size, num_heads, seq_len, "
                         f"head_dim], but received {qs}, {_shape(key)} and {_shape(value)}.")
    b, h, s = qs[:3]
    for what, t, want in (("sparse_csr_offset", sparse_csr_offset, [b, h, s + 1]),
                          ("sparse_csr_columns", sparse_csr_columns, None)):
        _tensor(api, what, t)
        _int_dtype(api, what, t)
        shape = _rank(api, what, t, 3, "[batch_size, num_heads, seq_len + 1]" if want else
                      "[batch_size, num_heads, nnz]")
        if (want or [b, h]) != shape[:len(want or [b, h])]:
            raise ValueError(f"{api}: {what} must have shape {want or [b, h, 'nnz']}, but received {shape}.")
    for what, t, want in (("key_padding_mask", key_padding_mask, [b, s]), ("attn_mask", attn_mask, [s, s])):
        if t is not None:
            _tensor(api, what, t)
            if _shape(t) != want:
                raise ValueError(f"{api}: {what} must have shape {want}, but received {_shape(t)}.")
    off, cols = _known(sparse_csr_offset), _known(sparse_csr_columns)
    if off is not None:
        nnz = _shape(sparse_csr_columns)[2]
        if (off[..., 0] != 0).any() or (np.diff(off, axis=-1) < 0).any() or (off[..., -1] > nnz).any():
            raise ValueError(f"{api}: each row of sparse_csr_offset must start at 0, never decrease and end at most "
                             f"at nnz = {nnz}, but received {off.tolist()}.")
    if cols is not None and cols.size and ((cols < 0) | (cols >= s)).any():
        bad = cols[(cols < 0) | (cols >= s)][0]
        raise ValueError(f"{api}: every column in sparse_csr_columns must lie in [0, {s}), but received {int(bad)}.")
    return apply_op(TABLE["sparse_attention"],
                    (query, key, value, sparse_csr_offset, sparse_csr_columns, key_padding_mask, attn_mask), {})


# ---- rms_norm, margin_cross_entropy, class_center_sample -----------------------------------------------------------
def rms_norm(
    input: Tensor,  # noqa: A002
    normalized_shape: int | Sequence[int],
    weight: Tensor | None = None,
    eps: float = 1e-5,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """Root-mean-square normalization over the trailing ``normalized_shape`` axes: ``out = input * invvar *
    weight`` with ``invvar = 1 / sqrt(mean(input**2) + eps)`` over the normalized axes. Returns ``(out, invvar)``,
    ``invvar`` shaped as the leading axes of ``input`` (those before ``normalized_shape``, as Paddle's InferMeta
    gives it, where its docstring says ``[rows]``); float32, float64 for a float64 input; it passes no gradient, as
    Paddle's kernel keeps it for the backward only."""
    api = "rms_norm"
    _tensor(api, "input", input)
    _float_dtype(api, "input", input)
    if isinstance(normalized_shape, int | np.integer) and not isinstance(normalized_shape, bool):
        normalized_shape = [normalized_shape]
    if not isinstance(normalized_shape, Sequence) or not normalized_shape or not all(
            isinstance(d, int | np.integer) and not isinstance(d, bool) and d > 0 for d in normalized_shape):
        raise ValueError(f"{api}: normalized_shape must be a positive int or a non-empty list of positive ints, but "
                         f"received {normalized_shape!r}.")
    ns = tuple(int(d) for d in normalized_shape)
    shape = _shape(input)
    if len(shape) < len(ns) or tuple(shape[len(shape) - len(ns):]) != ns:
        raise ValueError(f"{api}: the trailing dimensions of input must equal normalized_shape {list(ns)}, but the "
                         f"input has shape {shape}.")
    if weight is not None:
        _tensor(api, "weight", weight)
        if tuple(_shape(weight)) != ns:
            raise ValueError(f"{api}: weight must have shape normalized_shape {list(ns)}, but received "
                             f"{_shape(weight)}.")
    return apply_op(TABLE["rms_norm"], (input, weight), {"normalized_shape": ns, "eps": _number(api, "eps", eps)})


def _one_process(api: str, group: Any) -> bool:
    """Paddle's rule for ``group`` (False, None or a Group); False when this process is not a member (Paddle then
    returns None). A group of several ranks needs the cross-rank kernel, which one process cannot run."""
    if not (group is False or group is None or hasattr(group, "is_member")):
        raise ValueError(f"{api}: group must be False, None or a paddle.distributed Group, but received {group!r}.")
    if hasattr(group, "is_member"):
        if not group.is_member():
            return False
        if getattr(group, "nranks", 1) != 1:
            raise NotImplementedError(f"{api}: a group of {group.nranks} ranks shards the classes across processes; "
                                      "this package runs one process, so use group=None or False.")
    return True


def margin_cross_entropy(
    logits: Tensor,
    label: Tensor,
    margin1: float = 1.0,
    margin2: float = 0.5,
    margin3: float = 0.0,
    scale: float = 64.0,
    group: Any = None,
    return_softmax: bool = False,
    reduction: str | None = "mean",
) -> Any:
    """The margin softmax cross entropy of ArcFace (``margin2``), SphereFace (``margin1``) and CosFace
    (``margin3``) on cosine ``logits [N, num_classes]`` and ``label [N]`` or ``[N, 1]``:

        L = -log(e^{s(cos(m1*t_y + m2) - m3)} / (e^{s(cos(m1*t_y + m2) - m3)} + sum_{j != y} e^{s cos t_j}))

    with ``t_j`` the angle of logit ``j`` and ``s = scale``. ``reduction``: 'mean', 'sum', or 'none'/None (the loss
    per row, ``[N, 1]``). Returns the loss, or ``(loss, softmax)`` with ``return_softmax`` (the softmax of the
    margin logits, ``[N, num_classes]``; it passes no gradient). One process: ``group`` None or False (Paddle's
    model-parallel sharding of the classes needs several)."""
    api = "margin_cross_entropy"
    if reduction not in ("mean", "sum", "none", None):
        raise ValueError(f"{api}: reduction must be 'mean', 'sum', 'none' or None, but received {reduction!r}.")
    if not _one_process(api, group):
        return None
    _tensor(api, "logits", logits)
    _tensor(api, "label", label)
    _float_dtype(api, "logits", logits)
    _int_dtype(api, "label", label, ("int32", "int64"))
    ls, ys = _shape(logits), _shape(label)
    if not ls or ls[-1] == 0:
        raise ValueError(f"{api}: logits must have a non-empty last dimension (the classes), but received shape {ls}.")
    if len(ls) - 1 != len(ys) and len(ls) != len(ys):
        raise ValueError(f"{api}: label must have one dimension less than logits or as many (got logits {ls} and "
                         f"label {ys}).")
    if len(ls) != 2:
        raise ValueError(f"{api}: logits must be a 2-D tensor [N, num_classes], but received shape {ls}.")
    if len(ys) == 1:
        label = apply_op(TABLE["unsqueeze"], (label, -1), {})
    if _shape(label) != [ls[0], 1]:
        raise ValueError(f"{api}: label must be [N] or [N, 1] for logits [N, num_classes] = {ls}, but received "
                         f"shape {ys}.")
    softmax, loss = apply_op(TABLE["margin_cross_entropy"], (logits, label), {
        "margin1": _number(api, "margin1", margin1), "margin2": _number(api, "margin2", margin2),
        "margin3": _number(api, "margin3", margin3), "scale": _number(api, "scale", scale)})
    if reduction == "mean":
        loss = apply_op(TABLE["mean"], (loss,), {})
    elif reduction == "sum":
        loss = apply_op(TABLE["sum"], (loss,), {})
    return (loss, softmax) if return_softmax else loss


def class_center_sample(
    label: Tensor,
    num_classes: int,
    num_samples: int,
    group: Any = None,
) -> Any:
    """PartialFC's class-center sampling: every class in ``label [N]`` (the positive centers, sorted) and, while
    fewer than ``num_samples``, negative centers drawn at random (from the global generator) among the other
    classes of ``[0, num_classes)``. Returns ``(remapped_label, sampled_class_center)``: each label's index among
    the sampled centers, and the sampled centers (positives first; all of them when there are more than
    ``num_samples``). One process: ``group`` None or False. Eager only (the output size depends on the labels)."""
    api = "class_center_sample"
    if not _one_process(api, group):
        return None
    nc = _int_arg(api, "num_classes", num_classes, 1)
    ns = _int_arg(api, "num_samples", num_samples)
    if ns > nc:
        raise ValueError(f"{api}: num_samples must be at most num_classes = {nc}, but received num_samples {ns}.")
    if ns < 1:
        raise ValueError(f"{api}: num_samples must be greater than 0, but received {ns}.")
    _tensor(api, "label", label)
    ys = _shape(label)
    if len(ys) != 1:
        raise ValueError(f"{api}: label must be a 1-D tensor [N], but received shape {ys}.")
    if ys[0] < 1:
        raise ValueError(f"{api}: label must not be empty, but received shape {ys}.")
    _int_dtype(api, "label", label, ("int64", "int32"))
    a = _eager(api, label, "label")
    if ((a < 0) | (a >= nc)).any():
        bad = a[(a < 0) | (a >= nc)][0]
        raise ValueError(f"{api}: every label must lie in [0, num_classes) = [0, {nc}), but received {int(bad)}.")
    positive = np.unique(a)
    remapped = np.searchsorted(positive, a)
    sampled = positive
    if ns > positive.size:
        negative = np.setdiff1d(np.arange(nc), positive)
        order = np.asarray(jax.random.permutation(jnp.asarray(random_key()).astype(jnp.uint32), negative.size))
        sampled = np.concatenate([positive, negative[order[: ns - positive.size]]])
    dt = a.dtype
    return Tensor(own(remapped.astype(dt), dt)), Tensor(own(sampled.astype(dt), dt))


# ---- mixture-of-experts dispatch ------------------------------------------------------------------------------------
def _experts(api: str, num_experts: Any) -> int:
    ne = _int_arg(api, "num_experts", num_experts, 1)
    if ne > _MAX_EXPERTS:
        raise ValueError(f"{api}: num_experts must be at most {_MAX_EXPERTS} (Paddle's kernels), but received {ne}.")
    return ne


def moe_permute(
    hidden_states: Tensor,
    scale: Tensor | None,
    expert_routemap_topk: Tensor,
    expert_prob_topk: Tensor,
    num_experts: int,
    tokens_per_expert: list,
    padding_alignment: int,
    do_gather: bool = True,
    using_ue8m0_scale: bool = False,
    return_expert_indices: bool = False,
    override_buffer_size: int = -1,
    name: str | None = None,
) -> tuple:
    """Dispatch tokens ``hidden_states [seq_len, dim]`` to experts for a mixture-of-experts layer. Token ``t`` goes
    to each expert named in ``expert_routemap_topk[t] `` (int32 ``[seq_len, top_k]``, -1: none) with the probability
    beside it in ``expert_prob_topk`` (float32). Expert ``e``'s rows start after the earlier experts' rows, each
    expert's count (``tokens_per_expert``) rounded up to a multiple of ``padding_alignment``; its tokens fill them in
    token order and the padding rows hold 0 (with ``override_buffer_size >= 0`` the buffer has that many rows and
    the counts are read from the routing map). Returns ``(hidden_states_unzipped [rows, dim],
    zipped_expertwise_rowmap [seq_len, num_experts] (int32 row of each (token, expert), -1: not routed),
    token_prob_unzipped [rows] (float32), scale_unzipped [rows, scale_cols] (the float8 scales' rows; [0] without
    ``scale``))``, and ``expert_indices [rows]`` (int32, -1 on padding) with ``return_expert_indices``.
    ``do_gather=False`` gathers no rows: ``hidden_states_unzipped`` is ``[0, dim]`` and ``scale_unzipped`` ``[0]``
    (Paddle's InferMeta), the map and probabilities are computed all the same."""
    api = "moe_permute"
    _tensor(api, "hidden_states", hidden_states)
    hs = _rank(api, "hidden_states", hidden_states, 2, "[sequence_length, token_dimension]")
    _float_dtype(api, "hidden_states", hidden_states)
    _tensor(api, "expert_routemap_topk", expert_routemap_topk)
    rs = _rank(api, "expert_routemap_topk", expert_routemap_topk, 2, "[sequence_length, top_k]")
    _int_dtype(api, "expert_routemap_topk", expert_routemap_topk)
    _tensor(api, "expert_prob_topk", expert_prob_topk)
    _float_dtype(api, "expert_prob_topk", expert_prob_topk)
    if rs[0] != hs[0] or _shape(expert_prob_topk) != rs:
        raise ValueError(f"{api}: expert_routemap_topk and expert_prob_topk must both be [sequence_length, top_k] "
                         f"with hidden_states' {hs[0]} tokens, but received {rs} and {_shape(expert_prob_topk)}.")
    ne = _experts(api, num_experts)
    align = _int_arg(api, "padding_alignment", padding_alignment, 1)
    override = _int_arg(api, "override_buffer_size", override_buffer_size, -1)
    if scale is not None:
        _tensor(api, "scale", scale)
        ss = _rank(api, "scale", scale, 2, "[sequence_length, scale_cols]")
        if ss[0] != hs[0]:
            raise ValueError(f"{api}: scale must have one row per token ({hs[0]}), but received shape {ss}.")
        if using_ue8m0_scale:
            _int_dtype(api, "scale (packed ue8m0 factors, using_ue8m0_scale=True)", scale)
        elif _dtype(scale) != "float32":
            raise TypeError(f"{api}: scale must be float32 (int32 only with using_ue8m0_scale=True), but received "
                            f"{_dtype(scale)}.")
    tpe: tuple[int, ...] = ()
    if override < 0:
        if not isinstance(tokens_per_expert, Sequence) or len(tokens_per_expert) != ne:
            raise ValueError(f"{api}: tokens_per_expert must list one count per expert ({ne}), but received "
                             f"{tokens_per_expert!r}.")
        tpe = tuple(_int_arg(api, "tokens_per_expert", int(n) if isinstance(n, np.integer) else n, 0)
                    for n in tokens_per_expert)
    route = _known(expert_routemap_topk)
    if route is not None:
        if ((route < -1) | (route >= ne)).any():
            bad = route[(route < -1) | (route >= ne)][0]
            raise ValueError(f"{api}: expert_routemap_topk values must lie in [-1, num_experts) = [-1, {ne}), but "
                             f"received {int(bad)}.")
        counts = np.array([(route == e).sum() for e in range(ne)])
        twice = [t for t in range(route.shape[0]) if (np.bincount(route[t][route[t] >= 0], minlength=ne) > 1).any()]
        if twice:
            raise ValueError(f"{api}: token {twice[0]} is routed to the same expert twice in expert_routemap_topk "
                             f"({route[twice[0]].tolist()}); each token names each expert at most once.")
        if override < 0 and tuple(counts.tolist()) != tpe:
            raise ValueError(f"{api}: tokens_per_expert must count the tokens routed to each expert, "
                             f"{counts.tolist()} by expert_routemap_topk, but received {list(tpe)}.")
        need = int(sum((n + align - 1) // align * align for n in counts))
        if override >= 0 and need > override:
            raise ValueError(f"{api}: override_buffer_size {override} is too small: the routed tokens, padded to "
                             f"multiples of {align}, need {need} rows.")
    out = apply_op(TABLE["moe_permute"], (hidden_states, expert_routemap_topk, expert_prob_topk, scale),
                   {"num_experts": ne, "tokens_per_expert": tpe, "padding_alignment": align,
                    "do_gather": bool(do_gather), "override_buffer_size": override})
    return tuple(out) if return_expert_indices else tuple(out[:4])


def moe_unpermute(
    hidden_states_unzipped: Tensor,
    zipped_expertwise_rowmap: Tensor,
    expert_routemap_topk: Tensor,
    token_prob_unzipped: Tensor,
    total_zipped_tokens: int,
    num_experts: int,
    using_mix_precision: bool = True,
    using_weighted_combine: bool = False,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """Combine the experts' rows back into tokens (the inverse of moe_permute): token ``t`` is the sum of the rows
    ``zipped_expertwise_rowmap[t]`` names (-1: none), in expert order, accumulated in float32
    (``using_mix_precision``) or rounded to the tokens' dtype after each addition, each row weighted by its
    ``token_prob_unzipped`` with ``using_weighted_combine``. Returns ``(hidden_states [total_zipped_tokens, dim],
    expert_prob_topk [total_zipped_tokens, top_k])``, the latter each routed (token, k)'s probability read back
    from its row (0 where ``expert_routemap_topk`` is -1)."""
    api = "moe_unpermute"
    _tensor(api, "hidden_states_unzipped", hidden_states_unzipped)
    xs = _rank(api, "hidden_states_unzipped", hidden_states_unzipped, 2, "[rows, token_dimension]")
    _float_dtype(api, "hidden_states_unzipped", hidden_states_unzipped)
    ne = _experts(api, num_experts)
    total = _int_arg(api, "total_zipped_tokens", total_zipped_tokens, 0)
    _tensor(api, "zipped_expertwise_rowmap", zipped_expertwise_rowmap)
    _int_dtype(api, "zipped_expertwise_rowmap", zipped_expertwise_rowmap)
    if _shape(zipped_expertwise_rowmap) != [total, ne]:
        raise ValueError(f"{api}: zipped_expertwise_rowmap must have shape [total_zipped_tokens, num_experts] = "
                         f"{[total, ne]}, but received {_shape(zipped_expertwise_rowmap)}.")
    _tensor(api, "expert_routemap_topk", expert_routemap_topk)
    _int_dtype(api, "expert_routemap_topk", expert_routemap_topk)
    rs = _rank(api, "expert_routemap_topk", expert_routemap_topk, 2, "[total_zipped_tokens, top_k]")
    if rs[0] != total:
        raise ValueError(f"{api}: expert_routemap_topk must have total_zipped_tokens = {total} rows, but received "
                         f"shape {rs}.")
    _tensor(api, "token_prob_unzipped", token_prob_unzipped)
    _float_dtype(api, "token_prob_unzipped", token_prob_unzipped)
    if _shape(token_prob_unzipped) not in ([xs[0]], [xs[0], 1]):
        raise ValueError(f"{api}: token_prob_unzipped must have one probability per row, shape [{xs[0]}] or "
                         f"[{xs[0]}, 1], but received {_shape(token_prob_unzipped)}.")
    rowmap = _known(zipped_expertwise_rowmap)
    if rowmap is not None and ((rowmap < -1) | (rowmap >= xs[0])).any():
        bad = rowmap[(rowmap < -1) | (rowmap >= xs[0])][0]
        raise ValueError(f"{api}: zipped_expertwise_rowmap values must be -1 or rows of hidden_states_unzipped, in "
                         f"[0, {xs[0]}), but received {int(bad)}.")
    route = _known(expert_routemap_topk)
    if route is not None and ((route < -1) | (route >= ne)).any():
        bad = route[(route < -1) | (route >= ne)][0]
        raise ValueError(f"{api}: expert_routemap_topk values must lie in [-1, num_experts) = [-1, {ne}), but "
                         f"received {int(bad)}.")
    return apply_op(TABLE["moe_unpermute"],
                    (hidden_states_unzipped, zipped_expertwise_rowmap, expert_routemap_topk, token_prob_unzipped),
                    {"total_zipped_tokens": total, "num_experts": ne,
                     "using_mix_precision": bool(using_mix_precision),
                     "using_weighted_combine": bool(using_weighted_combine)})
