"""Loss functions (``paddle.nn.functional.*_loss``, cross_entropy) with Paddle's reductions.

Each saves the inputs its derivative reads (typically input, label and weight).
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
from jax import lax

from ._util import paddle_log_softmax, paddle_softmax
from .checks import ValueCheck, axis_check, ndim_of
from .rows import loss_axes, loss_rule
from .table import defop, visible_op

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


# mse, l1 and smooth_l1 (and square_error_cost) save only the difference ``input - label``, a hidden output,
# as Paddle's kernels do (its subtract saves nothing, then square / abs / huber_loss save the difference).
# The ``*_residuals`` entries run under saved-tensor hooks; the plain entries (``visible_op``) otherwise.
def _mse_of(d, reduction="mean"):  # noqa: ANN001, ANN202
    return _reduce(jnp.square(d), reduction)


def _l1_of(d, reduction="mean"):  # noqa: ANN001, ANN202
    # |d| as d * sign(d): its gradient is sign(d), 0 at d == 0 as Paddle's (jnp.abs's is 1 there)
    return _reduce(d * jnp.sign(d), reduction)


def _huber_of(d, reduction="mean", delta=1.0, is_huber=True):  # noqa: ANN001, ANN202
    a = jnp.abs(d)
    loss = jnp.where(a < delta, 0.5 * a * a, delta * (a - 0.5 * delta))
    return _reduce(loss / delta if not is_huber else loss, reduction)


def diff_rule(loss_of):  # noqa: ANN001, ANN202
    """The VJP of ``loss_of(input - label, *attrs)`` from the saved difference (the op's hidden ``out1``)."""

    def rule(s, ct, *attrs, **kw):  # noqa: ANN001, ANN202
        d = s["out1"]
        g, g_d = ct
        _, pullback = jax.vjp(lambda v: loss_of(v, *attrs, **kw), d)
        (gd,) = pullback(g.astype(d.dtype))
        gd = gd + g_d
        return gd, -gd

    return rule


@defop(2, saves=("out1",), vjp=diff_rule(_mse_of), hidden=1, method=False, name="mse_loss_residuals",
       rows=loss_rule(), axes=loss_axes())
def mse_loss(input, label, reduction="mean"):
    """Squared error ``(input - label) ** 2``, reduced."""
    _check_reduction("mse_loss", reduction)
    d = input - label
    return _mse_of(d, reduction), d


@defop(2, saves=("out1",), vjp=diff_rule(_l1_of), hidden=1, method=False, name="l1_loss_residuals",
       rows=loss_rule(), axes=loss_axes())
def l1_loss(input, label, reduction="mean"):
    """Absolute error ``|input - label|``, reduced."""
    _check_reduction("l1_loss", reduction)
    d = input - label
    return _l1_of(d, reduction), d


@defop(2, saves=("out1",), vjp=diff_rule(_huber_of), hidden=1, method=False,
       name="smooth_l1_loss_residuals", rows=loss_rule(), axes=loss_axes(), numbers=("delta",))
def smooth_l1_loss(input, label, reduction="mean", delta=1.0, is_huber=True):
    """Huber loss: ``0.5 d^2`` for ``|d| < delta``, else ``delta (|d| - 0.5 delta)`` (is_huber=False: divided by delta)."""
    _check_reduction("smooth_l1_loss", reduction)
    d = input - label
    return _huber_of(d, reduction, delta, is_huber), d


mse_loss_plain = visible_op(mse_loss, "mse_loss", ("input", "label"))
l1_loss_plain = visible_op(l1_loss, "l1_loss", ("input", "label"))
smooth_l1_loss_plain = visible_op(smooth_l1_loss, "smooth_l1_loss", ("input", "label"))


def _class_first(x, axis):  # noqa: ANN001, ANN202
    return jnp.moveaxis(x, axis, -1)


_REDUCTIONS = ("mean", "sum", "none")


def _label_checks(op, a):  # noqa: ANN001, ANN202
    if a.get("reduction") not in _REDUCTIONS:
        raise ValueError(f"{op}: reduction must be 'mean', 'sum' or 'none', but received {a.get('reduction')!r}.")
    x, label, weight = a["input"], a["label"], a.get("weight")
    ax = a.get("axis", 1 if op == "nll_loss" else -1)
    nd = ndim_of(x)
    if nd:
        axis_check(op, ax, nd, "axis", allow_none=False)
    n = x.shape[ax] if x.shape else 1
    if weight is not None and (not weight.shape or weight.shape[-1] != n or math.prod(weight.shape) != n):
        raise ValueError(f"{op}: weight must hold one value per class, shape [{n}] for the {n} classes on axis {ax} "
                         f"of the input, but received shape {list(weight.shape)}.")
    lshape = list(getattr(label, "shape", ()))
    if op == "cross_entropy" and nd and len(lshape) in (nd - 1, nd):
        # (with label_smoothing, a float label of the input's shape is a soft label; integer ones stay hard)
        soft = a.get("soft_label") or (a.get("label_smoothing", 0) > 0 and len(lshape) == nd
                                       and jnp.issubdtype(getattr(label.dtype, "np_dtype", label.dtype), jnp.floating))
        want = list(x.shape)
        if not soft:
            want[ax % nd] = 1
            if len(lshape) == nd - 1:
                lshape.insert(ax % nd, 1)
        if len(lshape) != len(want) or any(p != q and p not in (-1, None) and q not in (-1, None)
                                           for p, q in zip(lshape, want)):  # (-1, None: a static program's unknown)
            raise ValueError(
                f"cross_entropy: the label must have the input's shape {list(x.shape)} "
                + ("" if soft else f"with 1 (or no axis) on the class axis {ax} ")
                + f"({'soft' if soft else 'hard'} labels), but received shape {list(label.shape)}"
                + ("." if soft else "; pass soft_label=True for class probabilities, or the class indices alone."))
    if a.get("soft_label"):
        return []
    if a.get("label_smoothing", 0.0) > 0:  # (each label becomes a one-hot row: ignore_index has no place)
        return [ValueCheck(a["label"], f"{op}: with label_smoothing every label must be a class in [0, {n}), but "
                           "received {value}: the labels are made one-hot before smoothing, so ignore_index "
                           f"{a['ignore_index']} cannot mark a label to skip; drop those rows or pass soft labels.",
                           lo=0, hi=n)]
    return [ValueCheck(a["label"], f"{op}: label {{value}} is out of range for {n} classes: it must be in [0, {n}) "
                       f"or the ignore_index {a['ignore_index']}.", lo=0, hi=n, ignore=a["ignore_index"],
                       exc=ValueError if op == "nll_loss" else IndexError)]


def _check_hard_label_axis(input, label, ax):  # noqa: ANN001, ANN202
    if label.ndim == input.ndim and label.shape[ax] != 1:
        raise ValueError(
            f"cross_entropy: hard labels (soft_label=False) of the input's rank must have size 1 on the class axis "
            f"{ax}, but the label has shape {list(label.shape)} for an input of shape {list(input.shape)}; pass "
            "soft_label=True for class probabilities, or the class indices alone.")


# 'mean' divides by the summed weights of the valid labels when a weight or ignore_index >= 0 is given: not rows'
@defop(("input", "label", "weight"), saves=("input", "label", "weight"), nondiff=("label",), method=False,
       checks=_label_checks, rows=loss_rule(lambda a: a["weight"] is None and a["ignore_index"] < 0, "axis"),
       axes=loss_axes(lambda a: a["weight"] is None and a["ignore_index"] < 0, "axis"))
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
    if not soft_label and (label_smoothing == 0.0 or jnp.issubdtype(label.dtype, jnp.integer)):
        # (with label_smoothing, a float label of the input's shape is a soft label, smoothed: as in Paddle)
        _check_hard_label_axis(input, label, ax)
    squeeze_out = label.ndim == nd - 1
    logp = paddle_log_softmax(input, ax) if use_softmax else jnp.log(input)
    if label_smoothing > 0.0:
        if (not soft_label and label.ndim == nd and label.shape[ax] == 1 and n_cls != 1
                and jnp.issubdtype(label.dtype, jnp.integer)):
            # hard labels with a size-1 class axis: Paddle 3.3.1 fails here (it smooths the index tensor itself and
            # has no integer label_smooth kernel); they are read as the same labels without that axis
            label = jnp.squeeze(label, ax)
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
        # as Paddle: with ignore_index >= 0, 'mean' counts the soft label's entries (every class of every row) that
        # differ from ignore_index, weighted by the row's class weight: a smoothed label has no zero entry, so the
        # mean is divided by the number of classes too
        valid = (label != ignore_index) if ignore_index >= 0 else None
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
            denom = jnp.sum(valid.astype(loss.dtype)) if wg is None else jnp.sum(valid.astype(loss.dtype) * wg)
        elif wg is not None:
            denom = jnp.sum(wg)
        else:
            return jnp.mean(loss)
        return total / (denom + (denom == 0).astype(denom.dtype))
    return jnp.squeeze(loss, ax) if squeeze_out else loss


def _ce_checks(op, a):  # noqa: ANN001, ANN202
    return _label_checks("cross_entropy", a)


def _ce_with_softmax_vjp(s, ct, ignore_index=-100, reduction="mean", axis=-1, use_softmax=True):  # noqa: ANN001, ANN202
    """Gradient of the input from the saved softmax (probabilities) and label, as Paddle's kernel: the loss is
    linear in log-probabilities, so ``d loss / d logp`` needs only the label; the softmax's own VJP turns it
    into the logits' gradient. The softmax output's cotangent (create_graph) joins through the same VJP."""
    p, lab = s["out1"], s["out2"]
    g, g_p = ct[0], ct[1]
    ax = axis % p.ndim
    valid = lab != ignore_index
    safe = jnp.where(valid, lab, 0)
    cls = lax.broadcasted_iota(safe.dtype, p.shape, ax)
    onehot = ((cls == safe) & valid).astype(p.dtype)
    if reduction == "none":
        gl = jnp.reshape(g, lab.shape).astype(p.dtype)
    elif reduction == "sum":
        gl = g.astype(p.dtype)
    elif ignore_index >= 0:
        count = jnp.sum(valid.astype(p.dtype))
        gl = g.astype(p.dtype) / (count + (count == 0).astype(p.dtype))
    else:
        gl = g.astype(p.dtype) / lab.size
    g_logp = -onehot * gl
    if use_softmax:
        dx = g_logp - p * jnp.sum(g_logp, axis=ax, keepdims=True)
        dx = dx + p * (g_p - jnp.sum(g_p * p, axis=ax, keepdims=True))
    else:
        dx = g_logp / p + g_p
    return dx, None


# Paddle packs the label, then the softmax
@defop(("input", "label"), saves=("out2", "out1"), vjp=_ce_with_softmax_vjp, hidden=2, nondiff=("label",),
       method=False, checks=_ce_checks, rows=loss_rule(lambda a: a["ignore_index"] < 0, "axis"),
       axes=loss_axes(lambda a: a["ignore_index"] < 0, "axis"))
def cross_entropy_with_softmax(input, label, ignore_index=-100, reduction="mean", axis=-1, use_softmax=True):
    """Cross entropy of hard (integer) labels without class weights: Paddle's ``cross_entropy_with_softmax``
    kernel, which ``nn.functional.cross_entropy`` runs in that case.

    Besides the loss it outputs (hidden) the softmax of ``input`` (``input`` itself with
    ``use_softmax=False``) and the label with a size-1 class axis: the two tensors Paddle saves, and all
    that the backward reads.
    """
    _check_reduction("cross_entropy", reduction)
    if input.ndim == 0:
        raise ValueError("cross_entropy: the input must have at least 1 dimension (the classes), but it is 0-D.")
    nd = input.ndim
    ax = axis % nd
    if label.ndim not in (nd - 1, nd):
        raise ValueError(
            f"cross_entropy: label must have {nd - 1} or {nd} dimensions for an input of shape "
            f"{list(input.shape)}, but it has shape {list(label.shape)}."
        )
    _check_hard_label_axis(input, label, ax)
    lab = label if label.ndim == nd else jnp.expand_dims(label, ax)
    if use_softmax:
        p, logp = paddle_softmax(input, ax), paddle_log_softmax(input, ax)
    else:
        p, logp = input, jnp.log(input)
    valid = lab != ignore_index
    safe = jnp.where(valid, lab, 0).astype(jnp.int64)
    loss = jnp.where(valid, -jnp.take_along_axis(logp, safe, axis=ax), 0.0).astype(logp.dtype)
    if reduction == "sum":
        out = jnp.sum(loss)
    elif reduction == "mean" and ignore_index >= 0:
        denom = jnp.sum(valid.astype(loss.dtype))
        out = jnp.sum(loss) / (denom + (denom == 0).astype(denom.dtype))
    elif reduction == "mean":
        out = jnp.mean(loss)
    else:
        out = jnp.reshape(loss, label.shape)
    return out, p, lab


def _nll_checks(op, a):  # noqa: ANN001, ANN202
    return _label_checks("nll_loss", a)  # (the class axis and the messages are nll_loss's)


def _nll_parts(input, label, weight, ignore_index):  # noqa: ANN001, ANN202
    valid = label != ignore_index
    safe = jnp.where(valid, label, 0).astype(jnp.int64)
    picked = jnp.squeeze(jnp.take_along_axis(input, jnp.expand_dims(safe, 1), axis=1), 1)
    w = jnp.ones_like(picked) if weight is None else jnp.take(weight, safe).astype(picked.dtype)
    return valid, safe, picked, jnp.where(valid, w, 0.0)


def _nll_vjp(s, ct, ignore_index=-100, reduction="mean"):  # noqa: ANN001, ANN202
    """From the saved input, label, weight and total weight (Paddle's four): the input's gradient is the
    (weighted, normalised) one-hot of the label; the weight's reads the picked log-probabilities."""
    x, label, weight, tw = s["input"], s["label"], s.get("weight"), s["out1"]
    g, g_tw = ct
    valid, safe, picked, w = _nll_parts(x, label, weight, ignore_index)
    g = g.astype(picked.dtype)
    if reduction == "mean":
        empty = tw == 0
        denom = jnp.where(empty, 1.0, tw).astype(picked.dtype)
        out = jnp.sum(-picked * w) / denom
        g_pick = -g * w / denom
        g_w = (-picked - jnp.where(empty, 0.0, out)) * g / denom
    else:
        g_pick, g_w = -g * w, -picked * g
    cls = lax.broadcasted_iota(jnp.int64, x.shape, 1)
    dx = jnp.where(cls == jnp.expand_dims(safe, 1), jnp.expand_dims(g_pick, 1), 0.0).astype(x.dtype)
    dw = None
    if weight is not None:
        g_w = jnp.where(valid, g_w + g_tw.astype(g_w.dtype), 0.0)
        dw = jnp.zeros(weight.shape, g_w.dtype).at[jnp.reshape(safe, (-1,))].add(jnp.reshape(g_w, (-1,)))
    return dx, None, dw


@defop(("input", "label", "weight"), saves=("input", "label", "weight", "out1"), vjp=_nll_vjp, hidden=1,
       nondiff=("label",), method=False, checks=_nll_checks, name="nll_loss_residuals")
def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean"):
    """Negative log likelihood of log-probabilities ``input`` ([N, C, ...]) at the integer ``label`` ([N, ...]).

    As Paddle's kernel, it also outputs (hidden) the total weight of the non-ignored labels, which the
    backward reads as the mean's denominator.
    """
    _check_reduction("nll_loss", reduction)
    valid, safe, picked, w = _nll_parts(input, label, weight, ignore_index)
    loss = -picked * w
    total = jnp.sum(w)
    if reduction == "sum":
        return jnp.sum(loss), total
    if reduction == "mean":
        return jnp.sum(loss) / jnp.where(total == 0, 1.0, total).astype(loss.dtype), total
    return loss, total


nll_loss_plain = visible_op(nll_loss, "nll_loss", ("input", "label", "weight"))


def _bce_logs(x):  # noqa: ANN001, ANN202
    return jnp.maximum(jnp.log(x), -100.0), jnp.maximum(jnp.log1p(-x), -100.0)


@jax.custom_jvp
def _bce_elements(x, label):  # noqa: ANN001, ANN202
    """``-(label log(x) + (1 - label) log(1 - x))`` with the logs clipped at -100; its derivative in x is Paddle's
    ``(x - label) / max(x (1 - x), 1e-12)`` (finite at x = 0 and 1, where the clipped logs' chain rule is NaN)."""
    lx, l1x = _bce_logs(x)
    return -(label * lx + (1 - label) * l1x)


@_bce_elements.defjvp
def _bce_elements_jvp(primals, tangents):  # noqa: ANN001, ANN202
    x, label = primals
    dx, dlabel = tangents
    lx, l1x = _bce_logs(x)
    out = -(label * lx + (1 - label) * l1x)
    gx = (x - label) / jnp.maximum(x * (1 - x), jnp.asarray(1e-12, x.dtype))
    return out, (gx * dx - (lx - l1x) * dlabel).astype(out.dtype)


@defop(("input", "label", "weight"), saves=("input", "label", "weight"), method=False)
def binary_cross_entropy(input, label, weight=None, reduction="mean"):
    """``-(label log(input) + (1 - label) log(1 - input))`` for probabilities ``input`` (logs clipped at -100)."""
    _check_reduction("binary_cross_entropy", reduction)
    loss = _bce_elements(input, label)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


@defop(("logit", "label", "weight", "pos_weight"), saves=("logit", "label", "weight", "pos_weight"),
       nondiff=("label", "pos_weight"), method=False)
def binary_cross_entropy_with_logits(logit, label, weight=None, pos_weight=None, reduction="mean"):
    """Sigmoid + binary cross entropy, computed stably (op order: tensors first; pos_weight scales positives).

    As Paddle's kernel: label and pos_weight get no gradient (the weight does: Paddle multiplies by it after the
    kernel), and without pos_weight the derivative where a logit is exactly 0 (or -0) is ``sigmoid(0) - label - 1``,
    one less than elsewhere's ``sigmoid(x) - label`` gives there, so a model started from zero weights takes
    Paddle's first step.
    """
    _check_reduction("binary_cross_entropy_with_logits", reduction)
    log_p = jax.nn.log_sigmoid(logit)
    log_not_p = jax.nn.log_sigmoid(-logit)
    pw = 1.0 if pos_weight is None else pos_weight
    loss = -(pw * label * log_p + (1 - label) * log_not_p)
    if pos_weight is None:  # (a term of value 0 whose derivative is -1 at the zero logits)
        loss = loss - (logit == 0).astype(loss.dtype) * (logit - jax.lax.stop_gradient(logit))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def _bce_logits_of(logit, label, pw_eff, reduction):  # noqa: ANN001, ANN202
    # (1 - label) * logit + pw_eff * log(1 + exp(-logit)), the form of Paddle's kernel
    return _reduce((1 - label) * logit - pw_eff * jax.nn.log_sigmoid(logit), reduction)


def _bce_logits_pos_vjp(s, ct, reduction="mean"):  # noqa: ANN001, ANN202
    logit, label, pw_eff = s["logit"], s["label"], s["out1"]
    _, pullback = jax.vjp(lambda v: _bce_logits_of(v, label, pw_eff, reduction), logit)
    (g,) = pullback(ct[0].astype(logit.dtype))
    return g, None, None


@defop(("logit", "label", "pos_weight"), saves=("logit", "label", "out1"), vjp=_bce_logits_pos_vjp, hidden=1,
       nondiff=("label", "pos_weight"), method=False)
def binary_cross_entropy_with_logits_pos_weight(logit, label, pos_weight, reduction="mean"):
    """binary_cross_entropy_with_logits with ``pos_weight`` and no ``weight``, as Paddle runs it
    (``nn.functional`` under saved-tensor hooks, when neither label nor pos_weight needs a gradient): it
    also gives (hidden) the per-element positive weight ``label * (pos_weight - 1) + 1``, broadcast to the
    logit's shape, which Paddle's kernel keeps with logit and label and which the backward reads."""
    _check_reduction("binary_cross_entropy_with_logits", reduction)
    pw_eff = (label * (pos_weight - 1) + 1).astype(logit.dtype)
    return _bce_logits_of(logit, label, pw_eff, reduction), pw_eff


# Paddle gives the label no gradient, and its backward reads only the label (the loss is linear in input)
@defop(2, saves=("label",), nondiff=("label",), method=False)
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
