"""Losses over a tree or clusters of classes (``paddle.nn.functional.adaptive_log_softmax_with_loss``,
``hsigmoid_loss``; layer L1).

Each computes every cluster (or every tree node on a sample's path) for every row as dense matrix
products and picks each row's own with ``where``/``take``: one XLA program whatever the labels hold.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .checks import ValueCheck, dtype_of
from .table import defop


def _adaptive_checks(op: str, a: dict) -> list:
    x, label, cutoffs = a["input"], a["label"], a["cutoffs"]
    dt = dtype_of(label)
    if dt is None or not np.issubdtype(dt, np.integer):
        raise TypeError(f"{op}: label must be an integer tensor (int32 or int64), but received "
                        f"{getattr(dt, 'name', type(label).__name__)}.")
    if len(label.shape) == 1:
        if len(x.shape) != 2:
            raise ValueError(f"{op}: a 1-D label needs a 2-D input [batch_size, in_features], but the input has "
                             f"shape {list(x.shape)}.")
        if x.shape[0] != label.shape[0]:
            raise ValueError(f"{op}: the input and the label must have the same batch size, but received "
                             f"{list(x.shape)} and {list(label.shape)}.")
    elif len(label.shape) == 0:
        if len(x.shape) != 1:
            raise ValueError(f"{op}: a 0-D label needs a 1-D input [in_features], but the input has shape "
                             f"{list(x.shape)}.")
    else:
        raise ValueError(f"{op}: the label must be 0-D or 1-D (one class per row), but received shape "
                         f"{list(label.shape)}; multi-label targets are not supported.")
    cut = list(cutoffs)
    if not cut or cut != sorted(set(cut)) or cut[0] <= 0:
        raise ValueError(f"{op}: cutoffs must be increasing positive ints ending with n_classes, but received {cut}.")
    n_tail = len(cut) - 1
    tails = a["tail_weights"]
    if len(tails) != 2 * n_tail:
        raise ValueError(f"{op}: tail_weights must hold {n_tail} pairs of weights (one per cluster after the "
                         f"shortlist), but received {len(tails) // 2 if len(tails) % 2 == 0 else len(tails)}.")
    hw = a["head_weight"]
    if list(hw.shape) != [x.shape[-1], cut[0] + n_tail]:
        raise ValueError(f"{op}: head_weight must have shape [{x.shape[-1]}, {cut[0] + n_tail}] (in_features, "
                         f"shortlist + clusters), but received {list(hw.shape)}.")
    n = cut[-1]
    return [ValueCheck(label, f"{op}: label {{value}} is out of range: labels must be in [0, {n - 1}] "
                       f"(n_classes {n}).", lo=0, hi=n)]


@defop(("input", "label", "head_weight", "tail_weights", "head_bias"),
       saves=("input", "label", "head_weight", "tail_weights", "head_bias"), nondiff=("label",), method=False,
       checks=_adaptive_checks)
def adaptive_log_softmax_with_loss(input, label, head_weight, tail_weights, head_bias=None, cutoffs=()):
    """(Op order: tensors first; ``tail_weights`` flat, two per cluster.) Per row, the log-probability of its
    label under the adaptive softmax: the head's log-softmax over the shortlist ``[0, cutoffs[0])`` and one
    entry per cluster; a label in cluster ``i`` adds that cluster's log-softmax (two linear maps without bias).
    Returns ``(output, loss)`` with ``loss = mean(-output)``."""
    batched = label.ndim == 1
    x = input if batched else input[None]
    lab = (label if batched else label[None]).astype(jnp.int64)
    short = cutoffs[0]
    head = x @ head_weight
    if head_bias is not None:
        head = head + head_bias
    head_lp = jax.nn.log_softmax(head, axis=1)
    out = jnp.take_along_axis(head_lp, jnp.clip(lab, 0, short - 1)[:, None], axis=1)[:, 0]
    for i in range(len(cutoffs) - 1):
        lo, hi = cutoffs[i], cutoffs[i + 1]
        cluster_lp = jax.nn.log_softmax((x @ tail_weights[2 * i]) @ tail_weights[2 * i + 1], axis=1)
        local = jnp.take_along_axis(cluster_lp, jnp.clip(lab - lo, 0, hi - lo - 1)[:, None], axis=1)[:, 0]
        out = jnp.where((lab >= lo) & (lab < hi), head_lp[:, short + i] + local, out)
    out = out.astype(input.dtype)
    loss = jnp.mean(-out)
    return (out if batched else out[0]), loss


def _hsigmoid_checks(op: str, a: dict) -> list:
    x, label, w, b = a["input"], a["label"], a["weight"], a["bias"]
    table, code, n_cls = a["path_table"], a["path_code"], a["num_classes"]
    if len(x.shape) != 2:
        raise ValueError(f"{op}: input must be 2-D [N, feature_size], but received shape {list(x.shape)}.")
    dt = dtype_of(label)
    if dt is None or not np.issubdtype(dt, np.integer):
        raise TypeError(f"{op}: label must be an integer tensor (int64), but received "
                        f"{getattr(dt, 'name', type(label).__name__)}.")
    n = x.shape[0]
    if list(label.shape) not in ([n], [n, 1]):
        raise ValueError(f"{op}: label must have shape [{n}] or [{n}, 1] (one class per row of input), but received "
                         f"{list(label.shape)}.")
    if len(w.shape) != 2 or w.shape[1] != x.shape[1]:
        raise ValueError(f"{op}: weight must be [nodes, {x.shape[1]}] (feature_size columns), but received "
                         f"{list(w.shape)}.")
    if b is not None and list(b.shape) != [w.shape[0], 1]:
        raise ValueError(f"{op}: bias must have shape [{w.shape[0]}, 1] (one per weight row), but received "
                         f"{list(b.shape)}.")
    if (table is None) != (code is None):
        raise ValueError(f"{op}: path_table and path_code go together (a custom tree), but only "
                         f"{'path_table' if code is None else 'path_code'} was given.")
    if table is None:
        if not isinstance(n_cls, int) or n_cls < 2:
            raise ValueError(f"{op}: num_classes must be an int >= 2 with the default tree, but received {n_cls!r}.")
        if w.shape[0] != n_cls - 1:
            raise ValueError(f"{op}: the default tree over {n_cls} classes has {n_cls - 1} nodes, so weight must "
                             f"have {n_cls - 1} rows, but it has shape {list(w.shape)}.")
        return [ValueCheck(label, f"{op}: label {{value}} is out of range for num_classes={n_cls}: it must be in "
                           f"[0, {n_cls}).", lo=0, hi=n_cls)]
    for t, what in ((table, "path_table"), (code, "path_code")):
        tdt = dtype_of(t)
        if tdt is None or not np.issubdtype(tdt, np.integer):
            raise TypeError(f"{op}: {what} must be an integer tensor (int64), but received "
                            f"{getattr(tdt, 'name', type(t).__name__)}.")
        if len(t.shape) != 2 or t.shape[0] != n:
            raise ValueError(f"{op}: {what} must be [{n}, path_length] (a path per row of input), but received "
                             f"{list(t.shape)}.")
    if list(table.shape) != list(code.shape):
        raise ValueError(f"{op}: path_table and path_code must have the same shape, but received "
                         f"{list(table.shape)} and {list(code.shape)}.")
    rows = w.shape[0]
    return [ValueCheck(table, f"{op}: path_table holds {{value}}, which is not a node index in [0, {rows}) (the "
                       f"weight's rows) or the padding -1.", lo=-1, hi=rows)]


@defop(("input", "label", "weight", "bias", "path_table", "path_code"),
       saves=("input", "label", "weight", "bias", "path_table", "path_code"),
       nondiff=("label", "path_table", "path_code"), method=False, checks=_hsigmoid_checks)
def hsigmoid_loss(input, label, weight, bias=None, path_table=None, path_code=None, num_classes=2):
    """(Op order: tensors first.) Hierarchical sigmoid loss ``[N, 1]``: per row, over the nodes on its class's
    path, ``softplus(pre) - bit * pre`` with ``pre = clip(input . weight[node] + bias[node], -40, 40)``.

    The default tree is Paddle's complete binary tree over ``num_classes`` classes (class ``c``'s code is
    ``c + num_classes``; node ``(code >> (j + 1)) - 1`` and bit ``(code >> j) & 1`` at depth ``j``); a custom tree
    gives the nodes in ``path_table`` and the bits in ``path_code`` per row (ending at the first -1). As in
    Paddle's kernel, each position of the padded path beyond a row's own length adds ``log(2)``.
    """
    out, _ = _hsigmoid_terms(input, label, weight, bias, path_table, path_code, num_classes)
    return out


def _hsigmoid_path(label, path_table, path_code, num_classes):  # noqa: ANN001, ANN202
    """Each row's nodes (0 at the padding), bits and valid positions along its path ``[N, path length]``."""
    if path_table is None:
        depth = int(num_classes - 1).bit_length()
        code = jnp.reshape(label, (-1,)).astype(jnp.int64)[:, None] + num_classes
        j = jnp.arange(depth, dtype=jnp.int64)[None, :]
        nodes = (code >> (j + 1)) - 1
        bits = (code >> j) & 1
        valid = nodes >= 0
    else:
        nodes = path_table.astype(jnp.int64)
        bits = path_code
        valid = jnp.cumprod(nodes >= 0, axis=1).astype(bool)
    return jnp.where(valid, nodes, 0), jnp.where(valid, bits, 0), valid


def _hsigmoid_terms(input, label, weight, bias, path_table, path_code, num_classes):  # noqa: ANN001, ANN202
    """The loss ``[N, 1]`` and the clipped pre-activations ``[N, path length]`` (0 at the padding)."""
    safe, bits, valid = _hsigmoid_path(label, path_table, path_code, num_classes)
    pre = jnp.einsum("nd,nld->nl", input, weight[safe])
    if bias is not None:
        pre = pre + bias[safe, 0]
    pre = jnp.where(valid, jnp.clip(pre, -40.0, 40.0), jnp.zeros((), input.dtype))
    bits = bits.astype(input.dtype)
    return jnp.sum(jax.nn.softplus(pre) - bits * pre, axis=1, keepdims=True).astype(input.dtype), pre


def _hsigmoid_residuals_vjp(s, ct, num_classes=2):  # noqa: ANN001, ANN202
    """From the saved input, weight, label, tree and pre-activations: the loss's cotangent times
    ``sigmoid(pre) - bit`` plus the pre-activations' own cotangent, where the pre-activation is on the path and
    inside the clip, carried back through ``input . weight[node] + bias[node]``."""
    x, w, pre = s["input"], s["weight"], s["out1"]
    g, g_pre = ct[0], ct[1]
    safe, bits, valid = _hsigmoid_path(s["label"], s["path_table"], s["path_code"], num_classes)
    d_pre = g.astype(pre.dtype) * (jax.nn.sigmoid(pre) - bits.astype(pre.dtype)) + g_pre.astype(pre.dtype)
    d_pre = jnp.where(valid & (pre > -40.0) & (pre < 40.0), d_pre, jnp.zeros((), pre.dtype))
    dx = jnp.einsum("nl,nld->nd", d_pre, w[safe])
    dw = jnp.zeros_like(w).at[safe].add(d_pre[:, :, None] * x[:, None, :])
    db = None if s.get("bias") is None else jnp.zeros(s["bias"].shape, pre.dtype).at[safe, 0].add(d_pre)
    return dx, dw, None, None, None, db


# Paddle's kernel keeps the input, weight, label, tree, bias and its pre-activations [N, path length] (the
# buffer holds them after the softplus there): under saved-tensor hooks nn.functional runs this form, its
# parameters in the order Paddle's backward takes them
@defop(("input", "weight", "label", "path_table", "path_code", "bias"),
       saves=("input", "weight", "label", "path_table", "path_code", "bias", "out1"), vjp=_hsigmoid_residuals_vjp,
       hidden=1, nondiff=("label", "path_table", "path_code"), method=False,
       checks=lambda op, a: _hsigmoid_checks("hsigmoid_loss", a))  # (the messages name the caller's function)
def hsigmoid_loss_residuals(input, weight, label, path_table=None, path_code=None, bias=None, num_classes=2):
    """hsigmoid_loss (tensors in the order of Paddle's backward) that also gives (hidden) the clipped
    pre-activations ``[N, path length]`` its backward reads."""
    return _hsigmoid_terms(input, label, weight, bias, path_table, path_code, num_classes)
