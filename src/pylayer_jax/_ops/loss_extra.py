"""More losses (``paddle.nn.functional``; layer L1): margin and embedding losses,
likelihood losses, focal / dice / log losses, softmax_with_cross_entropy.

Each checks its reduction and its input shapes at the call and saves the inputs its
derivative reads.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ._util import paddle_log_softmax, paddle_softmax
from .loss import _check_reduction, _reduce, diff_rule
from .table import defop, visible_op


def _same_shape(api, **ts):  # noqa: ANN001, ANN202
    shapes = {k: tuple(v.shape) for k, v in ts.items() if v is not None}
    if len(set(shapes.values())) > 1:
        desc = ", ".join(f"{k} {list(s)}" for k, s in shapes.items())
        raise ValueError(f"{api}: the inputs must have the same shape, but received {desc}.")


def _square(d):  # noqa: ANN001, ANN202
    return jnp.square(d)


@defop(2, saves=("out1",), vjp=diff_rule(_square), hidden=1, method=False, name="square_error_cost_residuals")
def square_error_cost(input, label):
    """Elementwise ``(input - label) ** 2`` (no reduction); saves the difference, as Paddle's square does."""
    d = input - label
    return jnp.square(d), d


square_error_cost_plain = visible_op(square_error_cost, "square_error_cost", ("input", "label"))


@defop(2, saves=("input", "label"), method=False)
def log_loss(input, label, epsilon=0.0001):
    """``-label * log(input + eps) - (1 - label) * log(1 - input + eps)`` elementwise."""
    _same_shape("log_loss", input=input, label=label)
    return -label * jnp.log(input + epsilon) - (1 - label) * jnp.log(1 - input + epsilon)


@defop(3, saves=("input", "other", "label"), method=False, numbers=("margin",))
def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean"):
    """``max(0, -label * (input - other) + margin)``, reduced."""
    _check_reduction("margin_ranking_loss", reduction)
    return _reduce(jnp.maximum(-label * (input - other) + margin, 0), reduction)


@defop(2, saves=("input", "label"), nondiff=("label",), method=False, numbers=("margin",))
def hinge_embedding_loss(input, label, margin=1.0, reduction="mean"):
    """``input`` where label is 1, ``max(0, margin - input)`` where label is -1, reduced."""
    _check_reduction("hinge_embedding_loss", reduction)
    loss = jnp.where(label == 1.0, input, 0) + jnp.where(label == -1.0, jnp.maximum(margin - input, 0), 0)
    return _reduce(loss.astype(input.dtype), reduction)


@defop(3, saves=("input1", "input2", "label"), nondiff=("label",), method=False)
def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean"):
    """``1 - cos`` for label 1, ``max(0, cos - margin)`` for label -1 (rows of [N, D] inputs), reduced."""
    api = "cosine_embedding_loss"
    _check_reduction(api, reduction)
    _same_shape(api, input1=input1, input2=input2)
    if input1.ndim not in (1, 2):
        raise ValueError(f"{api}: the inputs must be 1-D or 2-D, but have shape {list(input1.shape)}.")
    if label.ndim != 1 or (input1.ndim == 2 and label.shape[0] != input1.shape[0]):
        raise ValueError(f"{api}: label must be 1-D with one value per row, but has shape {list(label.shape)}.")
    eps = 1e-12 if input1.dtype == jnp.float64 else 1e-6
    dot = jnp.sum(input1 * input2, axis=-1)
    n1 = jnp.sum(input1 * input1, axis=-1) + eps
    n2 = jnp.sum(input2 * input2, axis=-1) + eps
    cos = dot / jnp.sqrt(n1 * n2)
    loss = jnp.where(label == 1, 1 - cos, jnp.where(label == -1, jnp.maximum(cos - margin, 0), 0))
    return _reduce(loss.astype(input1.dtype), reduction)


@defop(2, saves=("input", "label"), method=False)
def soft_margin_loss(input, label, reduction="mean"):
    """``log(1 + exp(-label * input))``, reduced."""
    _check_reduction("soft_margin_loss", reduction)
    _same_shape("soft_margin_loss", input=input, label=label)
    return _reduce(jnp.log1p(jnp.exp(-label.astype(input.dtype) * input)), reduction)


@defop(("input", "label", "weight"), saves=("input", "label", "weight"), method=False)
def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean"):
    """Mean over classes of the per-class binary logistic loss (rows of [N, C]), reduced over N."""
    _check_reduction("multi_label_soft_margin_loss", reduction)
    _same_shape("multi_label_soft_margin_loss", input=input, label=label)
    label = label.astype(input.dtype)
    loss = -(label * jax.nn.log_sigmoid(input) + (1 - label) * jax.nn.log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    return _reduce(jnp.mean(loss, axis=-1), reduction)


@defop(("input", "label", "weight"), saves=("input", "label", "weight"), nondiff=("label",), method=False)
def multi_margin_loss(input, label, weight=None, p=1, margin=1.0, reduction="mean"):
    """(Op order: tensors first.) Mean over ``j != y`` of ``w[y] * max(0, margin - x[y] + x[j]) ** p`` per row of [N, C], reduced."""
    api = "multi_margin_loss"
    _check_reduction(api, reduction)
    if p not in (1, 2):
        raise ValueError(f"{api}: p must be 1 or 2, but received {p!r}.")
    if input.ndim != 2 or label.shape != input.shape[:1]:
        raise ValueError(f"{api}: input must be [N, C] and label [N], but received {list(input.shape)} and {list(label.shape)}.")
    c = input.shape[1]
    lab = label.astype(jnp.int64)
    xy = jnp.take_along_axis(input, lab[:, None], axis=1)
    m = jnp.maximum(margin - xy + input, 0) ** p
    if weight is not None:
        m = m * jnp.take(weight, lab)[:, None]
    m = jnp.where(jnp.arange(c)[None, :] == lab[:, None], 0, m)
    return _reduce(jnp.sum(m, axis=1) / c, reduction)


@defop(2, saves=("input", "label"), nondiff=("label",), method=False)
def multi_label_margin_loss(input, label, reduction="mean"):
    """Sum over target classes ``j`` (label entries up to the first -1) and non-targets ``i`` of
    ``max(0, 1 - (x[j] - x[i])) / C`` per row of [N, C], reduced."""
    api = "multi_label_margin_loss"
    _check_reduction(api, reduction)
    if input.ndim != 2 or label.shape != input.shape:
        raise ValueError(f"{api}: input and label must both be [N, C], but received {list(input.shape)} and {list(label.shape)}.")
    c = input.shape[1]
    lab = label.astype(jnp.int64)
    valid = jnp.cumprod(lab >= 0, axis=1).astype(bool)  # targets: entries before the first -1
    safe = jnp.where(valid, lab, 0)
    is_target = jnp.zeros(input.shape, bool).at[jnp.arange(input.shape[0])[:, None], safe].max(valid)
    xt = jnp.take_along_axis(input, safe, axis=1)  # [N, C] target scores per label slot
    hinge = jnp.maximum(1 - (xt[:, :, None] - input[:, None, :]), 0)  # [N, slot, i]
    mask = valid[:, :, None] & ~is_target[:, None, :]
    return _reduce(jnp.sum(jnp.where(mask, hinge, 0), axis=(1, 2)) / c, reduction)


@defop(2, saves=("input", "label"), method=False)
def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-08, reduction="mean"):
    """Poisson negative log likelihood (``exp(input) - label * input`` for log inputs), reduced."""
    api = "poisson_nll_loss"
    _check_reduction(api, reduction)
    if epsilon <= 0:
        raise ValueError(f"{api}: epsilon must be positive, but received {epsilon!r}.")
    label = label.astype(input.dtype)
    loss = jnp.exp(input) - label * input if log_input else input - label * jnp.log(input + epsilon)
    if full:
        safe = jnp.where(label > 1, label, 2.0)
        stirling = safe * jnp.log(safe) - safe + 0.5 * jnp.log(2 * jnp.pi * safe)
        loss = loss + jnp.where(label > 1, stirling, 0)
    return _reduce(loss, reduction)


def _gaussian_variance(api, shape, variance):
    """``variance`` as Paddle's gaussian_nll_loss takes it for an input of ``shape``: unchanged when it has that
    shape or that shape with a last dimension of 1, unsqueezed at the end when it lacks the last dimension; any
    other shape is a ValueError (Paddle does not broadcast it)."""
    shape, vshape = tuple(shape), tuple(variance.shape)
    if vshape == shape or (vshape[:-1] == shape[:-1] and vshape[-1:] == (1,) and len(vshape) == len(shape)):
        return variance
    if shape and vshape == shape[:-1]:
        return variance[..., None]
    raise ValueError(f"{api}: variance must have the input's shape {list(shape)}, that shape with a last dimension "
                     f"of 1, or that shape without its last dimension, but received shape {list(vshape)}; reshape "
                     f"the variance to one of these.")


@defop(3, saves=("input", "label", "variance"), nondiff=("variance",), method=False)
def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-06, reduction="mean"):
    """``0.5 * (log(max(var, eps)) + (input - label)^2 / max(var, eps))`` (+ ``0.5 log 2 pi`` when full), reduced.

    As in Paddle, the variance gets no gradient (it is clipped outside the graph). It has the input's shape, or
    that shape with the last dimension 1 (one variance per row), or one dimension fewer (unsqueezed at the end).
    """
    api = "gaussian_nll_loss"
    _check_reduction(api, reduction)
    if epsilon <= 0:
        raise ValueError(f"{api}: epsilon must be positive, but received {epsilon!r}.")
    variance = _gaussian_variance(api, input.shape, variance)
    var = jnp.maximum(variance, epsilon)
    loss = 0.5 * (jnp.log(var) + jnp.square(input - label) / var)
    if full:
        loss = loss + 0.5 * jnp.log(2 * jnp.pi)
    return _reduce(loss.astype(input.dtype), reduction)


@defop(("logit", "label", "normalizer"), saves=("logit", "label", "normalizer"), nondiff=("normalizer",), method=False)
def sigmoid_focal_loss(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum"):
    """Focal loss ``alpha_t * (1 - p_t) ** gamma * bce(logit, label)``, divided by ``normalizer``, reduced."""
    api = "sigmoid_focal_loss"
    _check_reduction(api, reduction)
    _same_shape(api, logit=logit, label=label)
    label = label.astype(logit.dtype)
    p = jax.nn.sigmoid(logit)
    # Paddle's cross entropy term is its binary_cross_entropy_with_logits kernel: no gradient to the label through
    # it, and at a logit of exactly 0 a derivative one less (see loss.binary_cross_entropy_with_logits)
    lab = jax.lax.stop_gradient(label)
    ce = -(lab * jax.nn.log_sigmoid(logit) + (1 - lab) * jax.nn.log_sigmoid(-logit))
    ce = ce - (logit == 0).astype(ce.dtype) * (logit - jax.lax.stop_gradient(logit))
    p_t = p * label + (1 - p) * (1 - label)
    a_t = alpha * label + (1 - alpha) * (1 - label)
    loss = a_t * ce * (1 - p_t) ** gamma
    if normalizer is not None:
        if normalizer.ndim > 1:
            raise ValueError(f"{api}: normalizer must have zero or one dimension (the number of positives, shape [] "
                             f"or [1]), but received shape {list(normalizer.shape)}.")
        loss = loss / normalizer  # (as Paddle: divided elementwise with broadcasting, then reduced)
    return _reduce(loss, reduction)


@defop(2, saves=("input", "label"), nondiff=("label",), method=False)
def dice_loss(input, label, epsilon=1e-05):
    """``1 - 2|X∩Y| / (|X| + |Y| + epsilon)`` per sample, averaged: input [N, ..., C] probabilities, label [N, ..., 1] ids."""
    if label.shape[-1] != 1 or input.ndim != label.ndim or input.shape[:-1] != label.shape[:-1]:
        raise ValueError(
            f"dice_loss: label must have the input's shape with 1 in the last dim, but received input "
            f"{list(input.shape)} and label {list(label.shape)}."
        )
    onehot = jax.nn.one_hot(label[..., 0], input.shape[-1], dtype=input.dtype)
    axes = tuple(range(1, input.ndim))
    inter = jnp.sum(input * onehot, axis=axes)
    union = jnp.sum(input, axis=axes) + jnp.sum(onehot, axis=axes)
    return jnp.mean(1 - 2 * inter / (union + epsilon))


def _pdist(x, y, p, eps):  # noqa: ANN001, ANN202
    return jnp.sum(jnp.abs(x - y + eps) ** p, axis=-1) ** (1.0 / p)


@defop(3, saves=("input", "positive", "negative"), method=False)
def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-06, swap=False, reduction="mean"):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with the p-norm distance; ``swap`` uses min(d(a, n), d(p, n))."""
    api = "triplet_margin_loss"
    _check_reduction(api, reduction)
    _same_shape(api, input=input, positive=positive, negative=negative)
    if p <= 0:
        raise ValueError(f"{api}: p must be positive, but received {p!r}.")
    dp = _pdist(input, positive, p, epsilon)
    dn = _pdist(input, negative, p, epsilon)
    if swap:
        dn = jnp.minimum(dn, _pdist(positive, negative, p, epsilon))
    return _reduce(jnp.maximum(dp - dn + margin, 0), reduction)


@defop(3, saves=("input", "positive", "negative"), method=False)
def triplet_margin_with_distance_loss(input, positive, negative, margin=1.0, swap=False, reduction="mean"):
    """triplet_margin_loss with the pairwise (p=2, eps=1e-6) distance; a custom distance_function is
    composed from Tensor ops by the public function."""
    api = "triplet_margin_with_distance_loss"
    _check_reduction(api, reduction)
    _same_shape(api, input=input, positive=positive, negative=negative)
    dp = _pdist(input, positive, 2.0, 1e-6)
    dn = _pdist(input, negative, 2.0, 1e-6)
    if swap:
        dn = jnp.minimum(dn, _pdist(positive, negative, 2.0, 1e-6))
    return _reduce(jnp.maximum(dp - dn + margin, 0), reduction)


@defop(3, saves=("anchor", "positive", "labels"), nondiff=("labels",), method=False)
def npair_loss(anchor, positive, labels, l2_reg=0.002):
    """Cross entropy of ``anchor @ positive.T`` against label-equality targets plus an L2 term."""
    if anchor.ndim != 2 or positive.shape != anchor.shape:
        raise ValueError(f"npair_loss: anchor and positive must both be [N, D], but received {list(anchor.shape)} and {list(positive.shape)}.")
    lab = jnp.reshape(labels, (-1, 1))
    if lab.shape[0] != anchor.shape[0]:
        raise ValueError(f"npair_loss: labels must have {anchor.shape[0]} elements, but have shape {list(labels.shape)}.")
    eq = (lab == lab.T).astype(anchor.dtype)
    target = eq / jnp.sum(eq, axis=1, keepdims=True)
    l2 = (jnp.mean(jnp.sum(anchor**2, axis=1)) + jnp.mean(jnp.sum(positive**2, axis=1))) * 0.25 * l2_reg
    sim = anchor @ positive.T
    ce = jnp.sum(-target * jax.nn.log_softmax(sim, axis=1), axis=1)
    return l2 + jnp.mean(ce)


@defop(2, saves=("logits", "label"), nondiff=("label",), method=False)
def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100, numeric_stable_mode=True,
                               return_softmax=False, axis=-1):
    """Unreduced softmax cross entropy (label keeps a size-1 class dim); ``return_softmax`` also gives the softmax."""
    api = "softmax_with_cross_entropy"
    ax = axis % logits.ndim
    if label.ndim != logits.ndim:
        raise ValueError(f"{api}: label must have the logits' rank {logits.ndim}, but has shape {list(label.shape)}.")
    logp = paddle_log_softmax(logits, ax)
    if soft_label:
        loss = -jnp.sum(label.astype(logits.dtype) * logp, axis=ax, keepdims=True)
    else:
        if label.shape[ax] != 1:
            raise ValueError(f"{api}: hard labels must have size 1 in dim {ax}, but have shape {list(label.shape)}.")
        valid = label != ignore_index
        safe = jnp.where(valid, label, 0).astype(jnp.int64)
        loss = jnp.where(valid, -jnp.take_along_axis(logp, safe, axis=ax), 0).astype(logits.dtype)
    # as in Paddle, the returned softmax passes no gradient back
    return (loss, jax.lax.stop_gradient(jnp.exp(logp))) if return_softmax else loss


def _swce_vjp(idx):  # noqa: ANN001, ANN202
    """The VJP of softmax_with_cross_entropy from the saved label and softmax (hidden output ``idx``), as
    Paddle's kernel computes it; the softmax's own cotangent (create_graph) joins through its VJP."""

    def rule(s, ct, soft_label=False, ignore_index=-100, numeric_stable_mode=True, return_softmax=False,  # noqa: ANN001, ANN202
             axis=-1):
        label, p = s["label"], s[f"out{idx}"]
        g, g_p = ct[0].astype(p.dtype), ct[idx].astype(p.dtype)
        ax = axis % p.ndim
        if soft_label:
            lab = label.astype(p.dtype)
            dx = g * (p * jnp.sum(lab, axis=ax, keepdims=True) - lab)
        else:
            valid = label != ignore_index
            safe = jnp.where(valid, label, 0)
            onehot = (jax.lax.broadcasted_iota(safe.dtype, p.shape, ax) == safe).astype(p.dtype)
            dx = jnp.where(valid, g, 0) * (p - onehot)
        return dx + p * (g_p - jnp.sum(g_p * p, axis=ax, keepdims=True)), None

    return rule


def _swce_with_softmax(logits, label, soft_label, ignore_index, numeric_stable_mode, return_softmax, axis):  # noqa: ANN001, ANN202
    out = softmax_with_cross_entropy.fn(logits, label, soft_label, ignore_index, numeric_stable_mode, return_softmax,
                                        axis)
    p = paddle_softmax(logits, axis % logits.ndim)
    return (*out, p) if return_softmax else (out, p)


def _check_form(api, return_softmax, expected):  # noqa: ANN001, ANN202
    if bool(return_softmax) is not expected:
        other = "softmax_with_cross_entropy_" + ("residuals" if return_softmax is not True else "softmax_residuals")
        raise ValueError(f"{api}: this form runs with return_softmax={expected}, but received "
                         f"return_softmax={return_softmax!r}; use {other}.")


# Paddle's kernel keeps the label and the softmax (and the backward reads only those): under saved-tensor hooks
# nn.functional runs these forms, whose hidden last output is that softmax
@defop(2, saves=("label", "out1"), vjp=_swce_vjp(1), hidden=1, nondiff=("label",), method=False)
def softmax_with_cross_entropy_residuals(logits, label, soft_label=False, ignore_index=-100, numeric_stable_mode=True,
                                         return_softmax=False, axis=-1):
    """softmax_with_cross_entropy (``return_softmax=False``) that also gives (hidden) the softmax Paddle keeps."""
    _check_form("softmax_with_cross_entropy_residuals", return_softmax, False)
    return _swce_with_softmax(logits, label, soft_label, ignore_index, numeric_stable_mode, False, axis)


@defop(2, saves=("label", "out2"), vjp=_swce_vjp(2), hidden=1, nondiff=("label",), method=False)
def softmax_with_cross_entropy_softmax_residuals(logits, label, soft_label=False, ignore_index=-100,
                                                 numeric_stable_mode=True, return_softmax=True, axis=-1):
    """softmax_with_cross_entropy (``return_softmax=True``) that also gives (hidden) the softmax Paddle keeps."""
    _check_form("softmax_with_cross_entropy_softmax_residuals", return_softmax, True)
    return _swce_with_softmax(logits, label, soft_label, ignore_index, numeric_stable_mode, True, axis)
