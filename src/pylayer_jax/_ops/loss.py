"""Loss functions (``paddle.nn.functional.*_loss``, cross_entropy) with Paddle's reductions.

Each saves the inputs its derivative reads (typically input, label and weight).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .checks import ValueCheck, axis_check, ndim_of
from .table import defop

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(api, reduction):  # noqa: ANN001, ANN202
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{api}: reduction must be 'mean', 'sum' or 'none', but received {reduction!r}.")


def _reduce(loss, reduction):  # noqa: ANN001, ANN202
    if reduction == "mean":
        return jnp.mean(loss)
    if reduction == "sum":
        return jnp.sum(loss)
    return loss


@defop(2, saves=("input", "label"), method=False)
def mse_loss(input, label, reduction="mean"):
    """Squared error ``(input - label) ** 2``, reduced."""
    _check_reduction("mse_loss", reduction)
    return _reduce(jnp.square(input - label), reduction)


@defop(2, saves=("input", "label"), method=False)
def l1_loss(input, label, reduction="mean"):
    """Absolute error ``|input - label|``, reduced."""
    _check_reduction("l1_loss", reduction)
    return _reduce(jnp.abs(input - label), reduction)


@defop(2, saves=("input", "label"), method=False)
def smooth_l1_loss(input, label, reduction="mean", delta=1.0, is_huber=True):
    """Huber loss: ``0.5 d^2`` for ``|d| < delta``, else ``delta (|d| - 0.5 delta)`` (is_huber=False: divided by delta)."""
    _check_reduction("smooth_l1_loss", reduction)
    d = jnp.abs(input - label)
    loss = jnp.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))
    if not is_huber:
        loss = loss / delta
    return _reduce(loss, reduction)


def _class_first(x, axis):  # noqa: ANN001, ANN202
    return jnp.moveaxis(x, axis, -1)


_REDUCTIONS = ("mean", "sum", "none")


def _label_checks(op, a):  # noqa: ANN001, ANN202
    if a.get("reduction") not in _REDUCTIONS:
        raise ValueError(f"{op}: reduction must be 'mean', 'sum' or 'none', but received {a.get('reduction')!r}.")
    if a.get("soft_label"):
        return []
    x = a["input"]
    ax = a.get("axis", 1 if op == "nll_loss" else -1)
    axis_check(op, ax, ndim_of(x), "axis", allow_none=False)
    n = x.shape[ax] if x.shape else 1
    return [ValueCheck(a["label"], f"{op}: label {{value}} is out of range for {n} classes: it must be in [0, {n}) "
                       f"or the ignore_index {a['ignore_index']}.", lo=0, hi=n, ignore=a["ignore_index"],
                       exc=ValueError if op == "nll_loss" else IndexError)]


@defop(("input", "label", "weight"), saves=("input", "label", "weight"), nondiff=("label",), method=False,
       checks=_label_checks)
def cross_entropy(
    input,
    label,
    weight=None,
    ignore_index=-100,
    reduction="mean",
    soft_label=False,
    axis=-1,
    use_softmax=True,
    label_smoothing=0.0,
):
    """Softmax cross entropy with Paddle's label forms, class weights, ignore_index, smoothing and reductions.

    Hard labels have the input's shape without the class axis (or with size 1 there); soft
    labels have the input's shape. ``reduction='mean'`` divides by the count (or the summed
    weights) of the non-ignored labels when ``ignore_index >= 0`` or a weight is given.
    """
    _check_reduction("cross_entropy", reduction)
    if input.ndim == 0:
        raise ValueError("cross_entropy: the input must have at least 1 dimension (the classes), but it is 0-D.")
    if ignore_index > 0 and soft_label:
        raise ValueError(f"cross_entropy: ignore_index must be -100 with soft_label=True, but received {ignore_index}.")
    nd = input.ndim
    ax = axis % nd
    n_cls = input.shape[ax]
    if label.ndim not in (nd - 1, nd):
        raise ValueError(
            f"cross_entropy: label must have {nd - 1} or {nd} dimensions for an input of shape "
            f"{list(input.shape)}, but it has shape {list(label.shape)}."
        )
    squeeze_out = label.ndim == nd - 1
    logp = jax.nn.log_softmax(input, axis=ax) if use_softmax else jnp.log(input)
    if label_smoothing > 0.0:
        soft_label, squeeze_out = True, False
        if label.ndim == nd - 1:
            label = jnp.moveaxis(jax.nn.one_hot(label, n_cls, dtype=input.dtype), -1, ax)
        label = label * (1.0 - label_smoothing) + label_smoothing / n_cls
    if soft_label:
        label = label.astype(input.dtype)
        loss = -jnp.sum(label * logp, axis=ax, keepdims=True)
        wg = None
        if weight is not None:
            wshape = [1] * nd
            wshape[ax] = n_cls
            wg = jnp.sum(label * jnp.reshape(weight, wshape), axis=ax, keepdims=True)
            loss = loss * wg
        valid = None
    else:
        lab = label if label.ndim == nd else jnp.expand_dims(label, ax)
        valid = lab != ignore_index
        safe = jnp.where(valid, lab, 0).astype(jnp.int64)
        picked = jnp.take_along_axis(logp, safe, axis=ax)
        loss = jnp.where(valid, -picked, 0.0).astype(logp.dtype)
        wg = None
        if weight is not None:
            wg = jnp.where(valid, jnp.take(weight, safe), 0.0).astype(logp.dtype)
            loss = loss * wg
    if reduction == "sum":
        return jnp.sum(loss)
    if reduction == "mean":
        total = jnp.sum(loss)
        if ignore_index >= 0 and valid is not None:
            denom = jnp.sum(valid.astype(loss.dtype)) if wg is None else jnp.sum(wg)
        elif wg is not None:
            denom = jnp.sum(wg)
        else:
            return jnp.mean(loss)
        return total / (denom + (denom == 0).astype(denom.dtype))
    return jnp.squeeze(loss, ax) if squeeze_out else loss


@defop(("input", "label", "weight"), saves=("input", "label", "weight"), nondiff=("label",), method=False,
       checks=_label_checks)
def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean"):
    """Negative log likelihood of log-probabilities ``input`` ([N, C, ...]) at the integer ``label`` ([N, ...])."""
    _check_reduction("nll_loss", reduction)
    valid = label != ignore_index
    safe = jnp.where(valid, label, 0).astype(jnp.int64)
    picked = jnp.squeeze(jnp.take_along_axis(input, jnp.expand_dims(safe, 1), axis=1), 1)
    w = jnp.ones_like(picked) if weight is None else jnp.take(weight, safe).astype(picked.dtype)
    w = jnp.where(valid, w, 0.0)
    loss = -picked * w
    if reduction == "sum":
        return jnp.sum(loss)
    if reduction == "mean":
        denom = jnp.sum(w)
        return jnp.sum(loss) / jnp.where(denom == 0, 1.0, denom).astype(loss.dtype)
    return loss


@defop(("input", "label", "weight"), saves=("input", "label", "weight"), method=False)
def binary_cross_entropy(input, label, weight=None, reduction="mean"):
    """``-(label log(input) + (1 - label) log(1 - input))`` for probabilities ``input`` (logs clipped at -100)."""
    _check_reduction("binary_cross_entropy", reduction)
    loss = -(label * jnp.maximum(jnp.log(input), -100.0) + (1 - label) * jnp.maximum(jnp.log1p(-input), -100.0))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


@defop(("logit", "label", "weight", "pos_weight"), saves=("logit", "label", "weight", "pos_weight"), method=False)
def binary_cross_entropy_with_logits(logit, label, weight=None, pos_weight=None, reduction="mean"):
    """Sigmoid + binary cross entropy, computed stably (op order: tensors first; pos_weight scales positives)."""
    _check_reduction("binary_cross_entropy_with_logits", reduction)
    log_p = jax.nn.log_sigmoid(logit)
    log_not_p = jax.nn.log_sigmoid(-logit)
    pw = 1.0 if pos_weight is None else pos_weight
    loss = -(pw * label * log_p + (1 - label) * log_not_p)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


# Paddle gives the label no gradient
@defop(2, saves=("input", "label"), nondiff=("label",), method=False)
def kl_div(input, label, reduction="mean", log_target=False):
    """KL divergence with log-probabilities ``input``: ``label * (log(label) - input)``."""
    if reduction not in (*_REDUCTIONS, "batchmean"):
        raise ValueError(f"kl_div: reduction must be 'mean', 'batchmean', 'sum' or 'none', but received {reduction!r}.")
    if log_target:
        loss = jnp.exp(label) * (label - input)
    else:
        loss = jnp.where(label > 0, label * (jnp.log(jnp.where(label > 0, label, 1.0)) - input), 0.0)
    if reduction == "batchmean":
        return jnp.sum(loss) / (input.shape[0] if input.ndim else 1)
    return _reduce(loss, reduction)
