"""Kernels of ``paddle.incubate`` (layer L1): the RMS normalisation and rotary position embedding that transformer
code fuses (``paddle.incubate.segment_*`` run ``paddle.geometric``'s kernels, as in Paddle).

Their public functions (argument checks in Paddle's words, the optional residual and bias, the tuples Paddle
returns) are in ``pylayer_jax.incubate``; these entries are the one kernel each runs, so the eager tape, traced
code and static programs share them.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from .rows import MAP, when
from .table import defop


def _compute_dtype(x):  # noqa: ANN001, ANN202
    return jnp.promote_types(x.dtype, jnp.float32)  # half-precision statistics in float32, as Paddle's kernels


@defop(("x", "norm_weight", "norm_bias"), saves=("x", "norm_weight"), method=False,
       rows=when(lambda a: a["begin_norm_axis"] >= 1, MAP))
def fused_rms_norm(x, norm_weight, norm_bias=None, epsilon=1e-6, begin_norm_axis=1):
    """``x / sqrt(mean(x**2) + epsilon) * norm_weight + norm_bias``, the mean over the axes from ``begin_norm_axis``
    on (a non-negative axis); ``norm_weight`` and ``norm_bias`` hold one value per normalised element, flat."""
    tail = x.shape[begin_norm_axis:]
    axes = tuple(range(begin_norm_axis, x.ndim))
    h = x.astype(_compute_dtype(x))
    inv = lax.rsqrt(jnp.mean(h * h, axis=axes, keepdims=True) + jnp.asarray(epsilon, h.dtype))
    out = h * inv * jnp.reshape(norm_weight, tail).astype(h.dtype)
    if norm_bias is not None:
        out = out + jnp.reshape(norm_bias, tail).astype(h.dtype)
    return out.astype(x.dtype)


def _rope_tables(x, sin, cos, position_ids, base):  # noqa: ANN001, ANN202
    """sin and cos for every element of ``x`` (``[batch, seq, heads, head_dim]``), broadcastable to it."""
    _, s, _, d = x.shape
    if sin is None:
        # the angle of element j at position p is p / base ** (2 * (j // 2) / d): adjacent pairs share one
        ct = _compute_dtype(x)
        expo = (jnp.arange(d) // 2 * 2).astype(ct) / jnp.asarray(d, ct)
        ang = jnp.arange(s, dtype=ct)[:, None] / jnp.power(jnp.asarray(base, ct), expo)[None, :]
        return jnp.sin(ang)[None, :, None, :], jnp.cos(ang)[None, :, None, :]
    sin2, cos2 = jnp.reshape(sin, (-1, d)), jnp.reshape(cos, (-1, d))
    if position_ids is None:
        return sin2[None, :s, None, :], cos2[None, :s, None, :]
    return jnp.take(sin2, position_ids, axis=0)[:, :, None, :], jnp.take(cos2, position_ids, axis=0)[:, :, None, :]


@defop(("x", "sin", "cos", "position_ids"), saves=("sin", "cos", "position_ids"),
       nondiff=("sin", "cos", "position_ids"), method=False)
def fused_rotary_embedding(x, sin=None, cos=None, position_ids=None, use_neox_rotary_style=True, time_major=False,
                           rotary_emb_base=10000.0):
    """One of q, k, v rotated: ``x * cos + rotate(x) * sin``, per position and element of the head dimension.

    ``use_neox_rotary_style``: ``rotate`` pairs adjacent elements (``(-x1, x0, -x3, x2, ...)``); otherwise it pairs
    the first half with the second (``(-x[d/2:], x[:d/2])``). ``sin``/``cos`` (``[seq, d]`` or ``[1, seq, 1, d]``,
    rows picked by ``position_ids`` ``[batch, seq]`` when given), or None: computed from ``rotary_emb_base``.
    ``time_major``: ``x`` is ``[seq, batch, heads, d]``. Neither ``sin`` nor ``cos`` gets a gradient, as in Paddle.
    """
    if time_major:
        x = jnp.swapaxes(x, 0, 1)
    s, c = _rope_tables(x, sin, cos, position_ids, rotary_emb_base)
    ct = jnp.promote_types(_compute_dtype(x), s.dtype)
    h = x.astype(ct)
    if use_neox_rotary_style:
        rot = jnp.reshape(jnp.stack([-h[..., 1::2], h[..., 0::2]], axis=-1), h.shape)
    else:
        half = h.shape[-1] // 2
        rot = jnp.concatenate([-h[..., half:], h[..., :half]], axis=-1)
    out = (h * c.astype(ct) + rot * s.astype(ct)).astype(x.dtype)
    return jnp.swapaxes(out, 0, 1) if time_major else out
