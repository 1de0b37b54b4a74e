"""Paddle's fused large-model kernels beyond attention (``paddle.nn.functional``; layer L1): rms_norm,
margin_cross_entropy (ArcFace / CosFace / SphereFace margins), and the mixture-of-experts token dispatch
moe_permute / moe_unpermute.

Paddle 3.3.1 runs them on CUDA kernels only; each is written here from its documented formula, with the
kernels' conventions where the documentation leaves a choice (which outputs carry a gradient, the buffer layout of
the dispatched tokens).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .checks import ValueCheck
from .table import defop


@defop(("input", "weight"), saves=("input", "weight"), method=False)
def rms_norm(input, weight=None, normalized_shape=(), eps=1e-5):  # noqa: A002
    """``input * rsqrt(mean(input**2 over the normalized axes) + eps) * weight`` and that inverse root mean square
    per row, shaped as the leading (not normalized) axes of ``input`` (Paddle's InferMeta: ``x_dims[0:begin_norm_axis]``;
    float32 for half-precision and float32 inputs, float64 for float64 ones; it passes no gradient, as Paddle's
    kernel returns it for its backward only)."""
    k = len(normalized_shape)
    ct = jnp.promote_types(input.dtype, jnp.float32)
    x = input.astype(ct)
    axes = tuple(range(input.ndim - k, input.ndim))
    inv = jax.lax.rsqrt(jnp.mean(x * x, axis=axes, keepdims=True) + jnp.asarray(eps, ct))
    out = x * inv
    if weight is not None:
        out = out * weight.astype(ct)
    return out.astype(input.dtype), jax.lax.stop_gradient(jnp.reshape(inv, input.shape[:input.ndim - k]))


def _margin_checks(op, a):  # noqa: ANN001, ANN202
    c = a["logits"].shape[-1]
    return [ValueCheck(a["label"], f"{op}: every label must lie in [0, {c}) (the class count of logits), but "
                                   "received {value}.", lo=0, hi=c)]


@defop(("logits", "label"), saves=("logits", "label"), nondiff=("label",), method=False, checks=_margin_checks)
def margin_cross_entropy(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0):
    """The margin softmax loss of ArcFace/CosFace/SphereFace on cosine ``logits [N, C]`` and ``label [N, 1]``:
    the label's logit ``cos t`` becomes ``cos(margin1 * t + margin2) - margin3`` (the angle taken only when
    ``margin1 != 1`` or ``margin2 != 0``), all logits are multiplied by ``scale``, and the loss is the cross
    entropy of their softmax. Returns ``(softmax [N, C], loss [N, 1])``; the softmax passes no gradient (Paddle's
    backward reads it as a saved result). float16 logits are computed in float32."""
    ct = jnp.promote_types(logits.dtype, jnp.float32)
    x = logits.astype(ct)
    onehot = jnp.arange(x.shape[-1]) == label.astype(jnp.int64)
    target = x
    if margin1 != 1.0 or margin2 != 0.0:
        theta = jnp.arccos(x)
        if margin1 != 1.0:
            theta = margin1 * theta
        if margin2 != 0.0:
            theta = theta + margin2
        target = jnp.cos(theta)
    if margin3 != 0.0:
        target = target - margin3
    z = jnp.where(onehot, target, x) * scale
    logp = jax.nn.log_softmax(z, axis=-1)
    loss = -jnp.sum(jnp.where(onehot, logp, 0), axis=-1, keepdims=True)
    return jax.lax.stop_gradient(jnp.exp(logp)).astype(logits.dtype), loss.astype(logits.dtype)


def _aligned(n, alignment):  # noqa: ANN001, ANN202
    return (n + alignment - 1) // alignment * alignment


@defop(("hidden_states", "expert_routemap_topk", "expert_prob_topk", "scale"),
       saves=("hidden_states", "expert_routemap_topk", "expert_prob_topk", "scale"),
       nondiff=("expert_routemap_topk", "scale"), method=False)
def moe_permute(hidden_states, expert_routemap_topk, expert_prob_topk, scale=None, num_experts=1, tokens_per_expert=(),
                padding_alignment=1, do_gather=True, override_buffer_size=-1):
    """Dispatch tokens to experts: expert ``e`` gets a block of the output buffer starting at the sum of the earlier
    experts' token counts, each rounded up to a multiple of ``padding_alignment`` (from ``tokens_per_expert``; with
    ``override_buffer_size >= 0`` the counts are those of the routing map and the buffer has that many rows), and
    its tokens fill the block in token order. Returns ``(hidden_states_unzipped [rows, dim], zipped_expertwise_rowmap
    [tokens, num_experts] (the row of each (token, expert), -1 where not routed), token_prob_unzipped [rows],
    scale_unzipped [rows, scale_cols], expert_indices [rows] (-1 on padding rows))``; padding rows hold 0. As Paddle's
    InferMeta shapes them: without ``do_gather`` no rows are gathered (``[0, dim]``, and ``[0]`` scales), without
    ``scale`` the scales are ``[0]``."""
    ntok = hidden_states.shape[0]
    route = expert_routemap_topk.astype(jnp.int64)
    experts = jnp.arange(num_experts, dtype=jnp.int64)
    hit = (route[:, :, None] == experts) & (route[:, :, None] >= 0)  # [tokens, topk, experts]
    routed = jnp.any(hit, axis=1)  # [tokens, experts]
    prob = jnp.sum(jnp.where(hit, expert_prob_topk[:, :, None], 0), axis=1)  # [tokens, experts]
    rank = jnp.cumsum(routed, axis=0) - 1
    if override_buffer_size >= 0:
        counts = jnp.sum(routed, axis=0)
        sizes = _aligned(counts, padding_alignment)
        base = jnp.cumsum(sizes) - sizes
        rows = override_buffer_size
    else:
        sizes = [_aligned(n, padding_alignment) for n in tokens_per_expert]
        base = jnp.asarray([sum(sizes[:e]) for e in range(num_experts)], jnp.int64)
        rows = sum(sizes)
    rowmap = jnp.where(routed, base + rank, -1)
    dest = jnp.where(routed, rowmap, rows).reshape(-1)  # (out of range: dropped)
    token = jnp.broadcast_to(jnp.arange(ntok, dtype=jnp.int64)[:, None], routed.shape).reshape(-1)
    src = jnp.full((rows,), -1, jnp.int64).at[dest].set(token, mode="drop")
    expert = jnp.full((rows,), -1, jnp.int64).at[dest].set(jnp.tile(experts, ntok), mode="drop")
    filled = src >= 0
    at = jnp.clip(src, 0, max(ntok - 1, 0))
    probs = jnp.where(filled, prob[at, jnp.clip(expert, 0, num_experts - 1)], 0).astype(expert_prob_topk.dtype)
    if not do_gather:  # (Paddle's InferMeta: no rows)
        unzipped = jnp.zeros((0, hidden_states.shape[1]), hidden_states.dtype)
    else:
        unzipped = jnp.where(filled[:, None], jnp.take(hidden_states, at, axis=0), 0).astype(hidden_states.dtype)
    if scale is None or not do_gather:
        scale_unzipped = jnp.zeros((0,), jnp.float32)
    else:
        scale_unzipped = jnp.where(filled[:, None], jnp.take(scale, at, axis=0), 0).astype(scale.dtype)
    return unzipped, rowmap.astype(jnp.int32), probs, scale_unzipped, expert.astype(jnp.int32)


@defop(("hidden_states_unzipped", "zipped_expertwise_rowmap", "expert_routemap_topk", "token_prob_unzipped"),
       saves=("hidden_states_unzipped", "zipped_expertwise_rowmap", "expert_routemap_topk", "token_prob_unzipped"),
       nondiff=("zipped_expertwise_rowmap", "expert_routemap_topk"), method=False)
def moe_unpermute(hidden_states_unzipped, zipped_expertwise_rowmap, expert_routemap_topk, token_prob_unzipped,
                  total_zipped_tokens=0, num_experts=1, using_mix_precision=True, using_weighted_combine=False):
    """Gather each token's rows back from the experts (``zipped_expertwise_rowmap``, as moe_permute returns it) and
    add them, in expert order: in float32 (``using_mix_precision``) or rounding to the tokens' dtype after each
    addition; ``using_weighted_combine`` weighs each row by its ``token_prob_unzipped``. Returns
    ``(hidden_states [tokens, dim], expert_prob_topk [tokens, topk])``, the latter each (token, k)'s probability
    read back from its row (0 where ``expert_routemap_topk`` is -1)."""
    x = hidden_states_unzipped
    rowmap = zipped_expertwise_rowmap.astype(jnp.int64)[:total_zipped_tokens]
    probs = jnp.reshape(token_prob_unzipped, (-1,))
    hit = rowmap >= 0
    at = jnp.clip(rowmap, 0, max(x.shape[0] - 1, 0))
    ct = jnp.promote_types(x.dtype, jnp.float32)
    rows = jnp.where(hit[..., None], jnp.take(x, at, axis=0).astype(ct), 0)  # [tokens, experts, dim]
    if using_weighted_combine:
        out = jnp.sum(rows * jnp.where(hit, probs[at], 0)[..., None].astype(ct), axis=1)
    elif using_mix_precision:
        out = jnp.sum(rows, axis=1)
    else:
        out = jnp.zeros((rowmap.shape[0], x.shape[1]), x.dtype)
        for e in range(num_experts):
            out = jnp.where(hit[:, e, None], (out.astype(ct) + rows[:, e]).astype(x.dtype), out)
    route = expert_routemap_topk.astype(jnp.int64)[:total_zipped_tokens]
    routed = route >= 0
    row_k = jnp.take_along_axis(at, jnp.clip(route, 0, num_experts - 1), axis=1)
    probs_topk = jnp.where(routed & (jnp.take_along_axis(rowmap, jnp.clip(route, 0, num_experts - 1), axis=1) >= 0),
                           probs[row_k], 0).astype(probs.dtype)
    return out.astype(x.dtype), probs_topk
