"""nn.functional functions that Paddle writes in Python as chains of elementary ops, run here as the same chains
of table ops while saved-tensor hooks are active (layer L5).

Each elementary op keeps what Paddle's op of that name keeps, so the chain hands the hooks the tensors Paddle's
chain hands them: the same count, shapes, dtypes and order (``tests/nn/test_functional_paddle.py`` compares them
with Paddle's). Without hooks the functions run as one fused table op each; both give the same values and
gradients. ``run_chain`` first runs the fused op without recording it, so that a misuse raises the fused op's
exception.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._autograd.grad_mode import no_grad
from .._ops.table import TABLE, Op
from .._runtime.state import modes
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, to_tensor


def _op(name: str, *tensors: Any, **attrs: Any) -> Any:
    return apply_op(TABLE[name], tensors, attrs)


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return _op("mean", loss)
    if reduction == "sum":
        return _op("sum", loss)
    return loss


def run_chain(op: Op, args: Sequence[Any], attrs: dict[str, Any], chain: Callable[..., Any]) -> Any:
    """Table op ``op`` on ``args`` and ``attrs``; while saved-tensor hooks are active, ``chain`` (Paddle's op
    chain, called with the op's arguments by parameter name, less its ``derived`` numbers) after the op's own checks
    instead."""
    if modes.saved_hooks:
        attrs = {k: v for k, v in attrs.items() if k != "name"}
        with no_grad():  # the fused op's argument checks and shape rules, nothing recorded or packed
            apply_op(op, args, dict(attrs))  # (a copy: dispatch takes tensor keywords out of it)
        return chain(**{k: v for k, v in op.bind(args, tuple(attrs.items())).items() if k not in op.derived})
    return apply_op(op, args, attrs)


def with_chain(name: str, chain: Callable[..., Any]) -> Callable[..., Any]:
    """The public function of op ``name``: ``run_chain`` with the op's own signature."""
    plain = TABLE[name]

    def fn(*args: Any, **kwargs: Any) -> Any:
        return run_chain(plain, args, kwargs, chain)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = plain.doc
    fn.__signature__ = plain.signature  # type: ignore[attr-defined]
    return fn


def glu(x: Tensor, axis: int = -1) -> Tensor:
    a, b = _op("chunk", x, chunks=2, axis=axis)
    return a * _op("sigmoid", b)


def soft_margin_loss(input: Tensor, label: Tensor, reduction: str = "mean") -> Tensor:
    label = _op("cast", label, dtype=input.dtype)
    return _reduce(_op("log", 1 + _op("exp", -label * input)), reduction)


def poisson_nll_loss(input: Tensor, label: Tensor, log_input: bool = True, full: bool = False,
                     epsilon: float = 1e-08, reduction: str = "mean") -> Tensor:
    if log_input:
        loss = _op("exp", input) - label * input
    else:
        loss = input - label * _op("log", input + epsilon)
    if full:
        stirling = label * _op("log", label) - label + 0.5 * _op("log", 2 * math.pi * label)
        loss = loss + _op("where", label > 1, stirling, _op("zeros_like", stirling))
    return _reduce(loss, reduction)


def gaussian_nll_loss(input: Tensor, label: Tensor, variance: Tensor, full: bool = False, epsilon: float = 1e-06,
                      reduction: str = "mean") -> Tensor:
    if input.ndim and list(variance.shape) == list(input.shape[:-1]):  # (one fewer dimension, as Paddle)
        variance = _op("unsqueeze", variance, -1)
    with no_grad():  # (as Paddle: the clamped variance passes no gradient)
        variance = _op("clip", variance, epsilon, None)
    loss = 0.5 * (_op("log", variance) + _op("square", input - label) / variance)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def hinge_embedding_loss(input: Tensor, label: Tensor, margin: float = 1.0, reduction: str = "mean") -> Tensor:
    zero = _op("zeros", [1], dtype=input.dtype)
    loss = (_op("where", label == 1.0, input, zero)
            + _op("where", label == -1.0, _op("relu", margin - input), zero))
    return _reduce(loss, reduction)


def normalize(x: Tensor, p: float = 2, axis: int = 1, epsilon: float = 1e-12) -> Tensor:
    eps = _op("full", [1], epsilon, dtype=x.dtype)
    return x / _op("maximum", _op("norm", x, p=p, axis=axis, keepdim=True), eps)


def cosine_similarity(x1: Tensor, x2: Tensor, axis: int = 1, eps: float = 1e-08) -> Tensor:
    w12 = _op("sum", x1 * x2, axis=axis)
    w1 = _op("sum", x1 * x1, axis=axis)
    w2 = _op("sum", x2 * x2, axis=axis)
    n = max(x1.shape[axis], x2.shape[axis])  # a size-1 axis broadcasts: its squared norm counts n times
    if x1.shape[axis] != n:
        w1 = w1 * (n / x1.shape[axis])
    if x2.shape[axis] != n:
        w2 = w2 * (n / x2.shape[axis])
    return w12 / _op("sqrt", _op("clip", w1 * w2, eps * eps, None))


def multi_label_soft_margin_loss(input: Tensor, label: Tensor, weight: Tensor | None = None,
                                 reduction: str = "mean") -> Tensor:
    loss = -(label * _op("log_sigmoid", input) + (1 - label) * _op("log_sigmoid", -input))
    if weight is not None:
        loss = loss * weight
    return _reduce(_op("mean", loss, axis=-1), reduction)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, label: Tensor, margin: float = 0,
                          reduction: str = "mean") -> Tensor:
    prod_sum = _op("sum", input1 * input2, axis=-1)
    mag1 = _op("sum", _op("square", input1), axis=-1) + 10e-12
    mag2 = _op("sum", _op("square", input2), axis=-1) + 10e-12
    cos = prod_sum / _op("sqrt", mag1 * mag2)
    zeros = _op("zeros_like", cos)
    pos, neg = 1 - cos, _op("clip", cos - margin, 0, None)
    out = _op("where", label == 1, pos, zeros) + _op("where", label == -1, neg, zeros)
    return _reduce(out, reduction)


def multi_margin_loss(input: Tensor, label: Tensor, weight: Tensor | None = None, p: int = 1, margin: float = 1.0,
                      reduction: str = "mean") -> Tensor:
    label = _op("reshape", label, [-1, 1])
    picked = _op("index_sample", input, label)
    hinge = _op("pow", _op("clip", margin - picked + input, 0.0, None), p)
    c = input.shape[1]
    if weight is None:
        loss = _op("mean", hinge, axis=1) - margin**p / c
    else:
        w = _op("reshape", _op("gather", weight, label, axis=0), [-1, 1])
        loss = _op("mean", w * hinge, axis=1) - _op("squeeze", w * (margin**p / c))
    return _reduce(loss, reduction)


def sigmoid_focal_loss(logit: Tensor, label: Tensor, normalizer: Tensor | None = None, alpha: float = 0.25,
                       gamma: float = 2.0, reduction: str = "sum") -> Tensor:
    loss = _op("binary_cross_entropy_with_logits", logit, label, None, None, reduction="none")
    pred = _op("sigmoid", logit)
    p_t = pred * label + (1 - pred) * (1 - label)
    alpha_t = alpha * label + (1 - alpha) * (1 - label)
    loss = alpha_t * loss
    loss = _op("pow", 1 - p_t, float(gamma)) * loss
    if normalizer is not None:
        loss = loss / normalizer
    return _reduce(loss, reduction)


def dice_loss(input: Tensor, label: Tensor, epsilon: float = 1e-05) -> Tensor:
    # (Paddle's multiply promotes the float32 one-hot label to the input's type before it keeps it)
    label = _op("cast", _op("one_hot", _op("squeeze", label, [-1]), input.shape[-1]), dtype=input.dtype)
    axes = list(range(1, input.ndim))
    inse = _op("sum", input * label, axis=axes)
    denominator = _op("sum", input, axis=axes) + _op("sum", label, axis=axes)
    return _op("mean", 1 - inse * 2 / (denominator + epsilon))


def _pairwise_distance(x: Tensor, y: Tensor, p: float = 2.0, epsilon: float = 1e-06) -> Tensor:
    op = TABLE["pairwise_distance_residuals"]  # (keeps the difference and the norm, as Paddle's p_norm)
    return op.visible(apply_op(op, (x, y), {"p": p, "epsilon": epsilon}))


def triplet_margin_loss(input: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        epsilon: float = 1e-06, swap: bool = False, reduction: str = "mean") -> Tensor:
    dp = _pairwise_distance(input, positive, p, epsilon)
    dn = _pairwise_distance(input, negative, p, epsilon)
    if swap:
        dn = _op("minimum", dn, _pairwise_distance(positive, negative, p, epsilon))
    return _reduce(_op("clip", dp - dn + margin, 0.0, None), reduction)


def triplet_margin_with_distance_loss(input: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0,
                                      swap: bool = False, reduction: str = "mean") -> Tensor:
    return triplet_margin_loss(input, positive, negative, margin, 2.0, 1e-06, swap, reduction)


def local_response_norm(x: Tensor, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1.0,
                        data_format: str = "NCHW") -> Tensor:
    # the squares summed over ``size`` neighbouring channels as an average pool over a view with a unit axis
    sizes = list(x.shape)
    channel_last = data_format[-1] == "C"
    lo, hi = size // 2, (size - 1) // 2
    div = _op("unsqueeze", x * x, 1)
    if x.ndim == 3:
        div = _op("pad", div, [lo, hi, 0, 0] if channel_last else [0, 0, lo, hi])
        div = _op("avg_pool2d", div, (1, size) if channel_last else (size, 1), stride=1)
        div = _op("squeeze", div, 1)
    else:
        rest = math.prod(sizes[1:])
        shape = ([sizes[0], 1, sizes[1], rest // (sizes[1] * sizes[-1]), sizes[-1]] if channel_last
                 else [sizes[0], 1, sizes[1], sizes[2], rest // (sizes[1] * sizes[2])])
        div = _op("pad", _op("reshape", div, shape), [lo, hi, 0, 0, 0, 0] if channel_last else [0, 0, 0, 0, lo, hi],
                  data_format="NCDHW")
        div = _op("avg_pool3d", div, (1, 1, size) if channel_last else (size, 1, 1), stride=1)
        div = _op("reshape", _op("squeeze", div, 1), sizes)
    div = _op("pow", _op("scale", div, alpha, k), beta)
    return x / div


def npair_loss(anchor: Tensor, positive: Tensor, labels: Tensor, l2_reg: float = 0.002) -> Tensor:
    n = anchor.shape[0]
    lab = _op("tile", _op("reshape", labels, [n, 1]), [1, n])
    same = _op("cast", _op("equal", lab, _op("transpose", lab, [1, 0])), dtype="float32")
    target = same / _op("sum", same, axis=1, keepdim=True)
    l2 = (_op("mean", _op("sum", _op("square", anchor), axis=1))
          + _op("mean", _op("sum", _op("square", positive), axis=1))) * 0.25 * l2_reg
    sim = _op("matmul", anchor, positive, transpose_y=True)
    ce_op = TABLE["softmax_with_cross_entropy_residuals"]  # (keeps the soft label and the softmax)
    ce = ce_op.visible(apply_op(ce_op, (sim, target), {"soft_label": True}))
    return l2 + _op("mean", _op("sum", target * ce, axis=0))


def cross_entropy_soft(input: Tensor, label: Tensor, weight: Tensor | None, reduction: str, soft_label: bool,
                       label_smoothing: float, ignore_index: int = -100) -> Tensor:
    """cross_entropy with soft labels (given, or made by label smoothing) over the last axis, reduced by 'mean' or
    'sum', as Paddle's chain: its fused kernel (keeping the label and the softmax), then the class weights as a
    multiply and the weighted mean as a divide (with ``ignore_index >= 0``: by the count, or the weighted count, of
    the soft label's entries that differ from it)."""
    if label_smoothing > 0:
        if not soft_label:
            label = _op("one_hot", label, input.shape[-1])
        label = _op("cast", _op("label_smooth", label, epsilon=label_smoothing), dtype=input.dtype)
    ce_op = TABLE["softmax_with_cross_entropy_residuals"]  # (keeps the soft label and the softmax)
    out = ce_op.visible(apply_op(ce_op, (input, label), {"soft_label": True}))
    wg = None
    if weight is not None:
        wg = _op("reshape", _op("matmul", _op("cast", label, dtype=weight.dtype), weight, transpose_y=True),
                 out.shape)
        out = _op("cast", out, dtype=wg.dtype) * wg
    if reduction == "sum":
        return _op("sum", out)
    if ignore_index >= 0:
        mask = _op("cast", label != ignore_index, dtype=out.dtype)
        total = _op("sum", mask if wg is None else mask * wg)
    elif wg is not None:
        total = _op("sum", wg)
    else:
        return _reduce(out, reduction)
    return _op("sum", out) / (total + _op("cast", total == 0.0, dtype=total.dtype))


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None,
                                 rng: Tensor | None = None, dropout_p: float = 0.0, is_causal: bool = False,
                                 training: bool = True, scale: float | None = None) -> Tensor:
    # Paddle's math backend: key and value heads repeated for grouped-query attention, [batch, heads, seq, dim]
    # views, the scaled query times the key, the mask added, softmax, dropout, times the value
    hq, hk = query.shape[2], key.shape[2]
    if hk != hq:
        key, value = ([_op("flatten", _op("expand", _op("unsqueeze", t, 3), [-1, -1, -1, hq // hk, -1]), 2, 3)
                       for t in (key, value)])
    q, k, v = (_op("transpose", t, [0, 2, 1, 3]) for t in (query, key, value))
    sc = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    product = _op("matmul", _op("scale", q, sc), k, transpose_y=True)
    if is_causal:
        lq, lk = product.shape[-2:]
        with no_grad():
            upper = _op("triu", _op("full", [lq, lk], -math.inf, dtype=product.dtype), 1)
        product = product + upper
    if attn_mask is not None:
        if attn_mask.dtype.name == "bool":
            with no_grad():
                attn_mask = _op("where", attn_mask, _op("zeros", [1], dtype=product.dtype),
                                _op("full", [1], -math.inf, dtype=product.dtype))
        product = product + (attn_mask if attn_mask.dtype == product.dtype else
                             _op("cast", attn_mask, dtype=product.dtype))
    weights = _op("softmax", product)
    if dropout_p > 0 and training:
        weights = dropout(weights, rng, dropout_p, None, "upscale_in_train")
    out = _op("transpose", _op("matmul", weights, v), [0, 2, 1, 3])
    return out if out.dtype == query.dtype else _op("cast", out, dtype=query.dtype)


def adaptive_log_softmax_with_loss(input: Tensor, label: Tensor, head_weight: Tensor, tail_weights: list,
                                   head_bias: Tensor | None = None, cutoffs: tuple = ()) -> tuple[Tensor, Tensor]:
    # Paddle's loop over the clusters with rows: their rows selected, the two linear maps, log-softmax, the label's
    # entry taken and scattered into the output (the output so far masked where it lands); then the head over all
    # rows, its entry (the label, or the cluster's) taken and added
    batched = label.ndim == 1
    x = input if batched else _op("unsqueeze", input, 0)
    lab = label if batched else _op("unsqueeze", label, 0)
    labels = np.asarray(lab.numpy()).astype(np.int64)
    n = labels.shape[0]
    output = _op("zeros", [n], dtype=x.dtype)
    gather = np.array(labels)
    for i in range(1, len(cutoffs)):
        lo, hi = cutoffs[i - 1], cutoffs[i]
        in_cluster = (labels >= lo) & (labels < hi)
        rows = np.nonzero(in_cluster)[0]
        if rows.size == 0:
            continue
        gather[rows] = cutoffs[0] + i - 1
        row_index = to_tensor(rows.astype(np.int64))
        hidden = _op("linear", _op("index_select", x, row_index, axis=0), tail_weights[2 * i - 2])
        logprob = _op("log_softmax", _op("linear", hidden, tail_weights[2 * i - 1]), axis=1)
        relative = to_tensor((labels[rows] - lo)[:, None])
        local = _op("squeeze", _op("take_along_axis", logprob, relative, 1), 1)
        scattered = _op("scatter_nd", _op("unsqueeze", row_index, 1), local, [n])
        output = output * _op("cast", scattered == 0, dtype=output.dtype) + scattered
    head = _op("log_softmax", _op("linear", x, head_weight, head_bias), axis=1)
    output = output + _op("squeeze", _op("take_along_axis", head, to_tensor(gather[:, None]), 1), 1)
    loss = _op("mean", -output)
    return (output if batched else _op("squeeze", output, 0)), loss


def multi_label_margin_loss(input: Tensor, label: Tensor, reduction: str = "mean") -> Tensor:
    # Paddle's chain over the valid (row, target) pairs: the target scores and the rows gathered by index tensors,
    # the hinge masked off at each row's targets, relu as a maximum, the per-pair sums scattered back to the rows
    n, c = input.shape
    labels = np.asarray(label.numpy()).astype(np.int64)
    valid = np.cumprod(labels != -1, axis=1).astype(bool)  # the targets: entries before the first -1
    rows, cols = np.nonzero(valid)
    targets = labels[rows, cols]
    non_target = np.ones((n, c), bool)
    non_target[rows, targets] = False
    row_ids = to_tensor(rows.astype(np.int64))
    margin = 1 - _op("unsqueeze", input[row_ids, to_tensor(targets)], -1) + input[row_ids]
    margin = _op("where", to_tensor(non_target[rows]), margin, _op("zeros_like", margin))
    hinge = _op("maximum", margin, _op("zeros_like", margin))
    losses = _op("scatter_nd_add", _op("zeros", [n], dtype=input.dtype), _op("unsqueeze", row_ids, -1),
                 _op("sum", hinge, axis=1))
    return _reduce(_op("scale", losses, 1.0 / c), reduction)


# ---- dropouts in training (Paddle's kernel, or its chain where a mask is broadcast) ----
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _kept(key: Any, p: float, shape: Sequence[int], dtype: Any) -> Tensor:
    """1 where the plain ops keep an element, 0 where they drop it: dropout (unscaled) of ones under the same key
    draws the same mask (``_ops.nn.keep_mask``); nothing of it is recorded or packed."""
    with no_grad():
        return _op("dropout", _op("ones", list(shape), dtype=dtype), key, p=p, mode="downscale_in_infer")


def _mask_shape(x: Tensor, axis: Any) -> list[int]:
    axis = tuple(axis) if isinstance(axis, list) else axis
    TABLE["dropout"].checks("dropout", {"x": x, "axis": axis})  # the plain op's check of the axes
    axes = {a % x.ndim for a in ((axis,) if isinstance(axis, int) else axis)}
    return [d if i in axes else 1 for i, d in enumerate(x.shape)]


def dropout(x: Tensor, key: Any, p: float, axis: Any, mode: str) -> Tensor:
    """dropout in training (``0 < p <= 1``) as Paddle runs it: of single elements, its kernel, which keeps the uint8
    mask (``dropout_residuals``); with ``axis``, its chain: ``scale`` (upscaling), then ``multiply`` by the
    broadcast float mask, which keeps both (everything dropped: ``scale`` by 0)."""
    if axis is None:
        return apply_op(TABLE["dropout_residuals"], (x, key), {"p": p, "mode": mode})[0]
    shape = _mask_shape(x, axis)
    if p >= 1.0:
        return _op("scale", x, 0.0)
    scaled = _op("scale", x, 1.0 / (1.0 - p)) if mode == "upscale_in_train" else x
    return _op("multiply", scaled, _kept(key, p, shape, x.dtype))


def alpha_dropout(x: Tensor, key: Any, p: float, feature: bool) -> Tensor:
    """alpha_dropout / feature_alpha_dropout in training as Paddle's chain: ``multiply`` by the keep mask (keeping
    x and the mask), the dropped value added, the affine correction (everything dropped: ``scale`` by 0)."""
    if p >= 1.0:
        return _op("scale", x, 0.0)
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * alpha_p**2)) ** -0.5
    b = -a * alpha_p * p
    shape = list(x.shape[:2]) + [1] * (x.ndim - 2) if feature else list(x.shape)
    keep = _kept(key, p, shape, x.dtype)
    with no_grad():
        drop = 1.0 - keep
    y = _op("multiply", x, keep) + _op("scale", drop, alpha_p)
    return _op("scale", y, a) + b
