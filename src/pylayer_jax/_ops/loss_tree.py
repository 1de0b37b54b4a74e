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
