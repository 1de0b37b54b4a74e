"""``paddle.static.accuracy`` and ``paddle.static.auc`` (layer L6).

``accuracy`` is built from ops (top-k, compare, mean), so it works on Variables and eager Tensors
alike. ``auc`` keeps Paddle's running statistics: per-bucket counts of positive and negative
examples (``num_thresholds + 1`` buckets of the positive-class probability), a sliding window of the
last ``slide_steps`` batches and a global total, in persistable int64 Variables that every run of the
program updates (its test clone too, as Paddle's). The area is computed from the counts with the
trapezoid rule, as Paddle's kernel does.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np

from .._ops.table import TABLE
from .._runtime import dtypes as _dtypes
from .._runtime.state import modes
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from .._tensor.methods import write_values
from ._framework import make_state
from ._init import Constant
from ._program import Operator, WriteOp, default_main_program, default_startup_program, unique_name
from ._variable import Variable


class AssignOp(WriteOp):
    """``target = value`` kept by test clones too (a metric's counters, not a training update)."""

    type = "assign"
    train_only = False


def _write(api: str, target: Any, value: Tensor, what: str) -> None:
    if isinstance(target, Variable):
        if not isinstance(value, Variable):
            raise TypeError(f"{api}: {what} is a Variable of a static program, but the input is not.")
        value = apply_op(TABLE["reshape"], (value, target.shape))
        prog = target.block.program
        prog.append_op(AssignOp(prog.current_block(), target, value))
    elif isinstance(target, Tensor):
        write_values(target, value.reshape(target.shape).astype(target.dtype), api)
    else:
        raise TypeError(f"{api}: {what} must be a Tensor (or None), but received {type(target).__name__}.")


def accuracy(input: Any, label: Any, k: int = 1, correct: Any = None, total: Any = None) -> Any:
    """The fraction of rows of ``input`` ([N, C] scores) whose ``label`` ([N, 1] int) is among the ``k``
    largest scores, as a float32 scalar. ``correct`` / ``total`` (int32 Tensors or Variables), when given,
    receive the number of such rows and N."""
    api = "paddle.static.accuracy"
    for what, t in (("input", input), ("label", label)):
        if not isinstance(t, Tensor):
            raise TypeError(f"{api}: {what} must be a Tensor or Variable, but received {type(t).__name__}.")
    if isinstance(k, Tensor):
        raise NotImplementedError(f"{api}: k must be a Python int here (a Tensor k would make the top-k shape "
                                  "depend on a value); pass int(k).")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"{api}: k must be a positive int, but received {k!r}.")
    if len(input.shape) != 2:
        raise ValueError(f"{api}: input must be 2-D [N, C] scores, but its shape is {list(input.shape)}.")
    if 0 <= input.shape[1] < k:
        raise ValueError(f"{api}: k ({k}) must not exceed the number of classes ({input.shape[1]}).")
    if label.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{api}: label must hold int32 or int64 class indices, but its dtype is {label.dtype.name}.")
    if len(label.shape) not in (1, 2) or (len(label.shape) == 2 and label.shape[1] not in (1, -1)):
        raise ValueError(f"{api}: label must have shape [N, 1] (or [N]), but its shape is {list(label.shape)}.")
    _, idx = apply_op(TABLE["topk"], (input, k), {"sorted": False})
    lab = apply_op(TABLE["reshape"], (label, [-1, 1]))
    lab = apply_op(TABLE["cast"], (lab, "int64"))
    hit = apply_op(TABLE["equal"], (idx, lab))
    hit = apply_op(TABLE["any"], (hit,), {"axis": 1})
    hits = apply_op(TABLE["cast"], (hit, "float32"))
    acc = apply_op(TABLE["mean"], (hits,))
    if correct is not None:
        _write(api, correct, apply_op(TABLE["cast"], (apply_op(TABLE["sum"], (hits,)), "int32")), "correct")
    if total is not None:
        n = apply_op(TABLE["cast"], (apply_op(TABLE["numel"], (hits,)), "int32"))
        _write(api, total, n, "total")
    return acc


# ---- auc ----------------------------------------------------------------------------------------------------
def _area(pos: Any, neg: Any) -> Any:
    """Paddle's ROC area from per-bucket counts (buckets in increasing score order): the trapezoid rule over
    the curve traced from the highest bucket down, divided by positives times negatives (0 if either is 0)."""
    p = pos[::-1].astype(jnp.float64)
    n = neg[::-1].astype(jnp.float64)
    cp = jnp.cumsum(p)
    prev = cp - p
    area = jnp.sum(n * (cp + prev) / 2.0)
    tp, tn = cp[-1], jnp.sum(n)
    return jnp.where((tp > 0) & (tn > 0), area / jnp.where(tp > 0, tp, 1.0) / jnp.where(tn > 0, tn, 1.0), 0.0)


def _bucket_counts(pred: Any, label: Any, num_thresholds: int) -> tuple[Any, Any]:
    p = pred[:, -1]  # the positive-class probability: the last column
    # (Paddle rejects a probability outside [0, 1] while running; it is clipped into the end buckets here)
    b = jnp.clip((p * jnp.asarray(num_thresholds, p.dtype)).astype(jnp.int64), 0, num_thresholds)
    lab = jnp.reshape(label, (-1,))
    size = num_thresholds + 1
    pos = jnp.zeros(size, jnp.int64).at[b].add((lab > 0).astype(jnp.int64))
    neg = jnp.zeros(size, jnp.int64).at[b].add((lab == 0).astype(jnp.int64))
    return pos, neg


class AucOp(Operator):
    """``(auc, batch_auc) = auc(predict, label)`` updating the sliding-window and global statistics."""

    type = "auc"
    side_effect = True  # the statistics advance at every run, fetched or not (Paddle runs every op)

    def __init__(self, block: Any, pred: Variable, label: Variable, stats: list[Variable], outs: list[Variable],
                 num_thresholds: int, slide_steps: int) -> None:
        super().__init__(block, [pred, label, *stats], [*outs, *stats],
                         {"curve": "ROC", "num_thresholds": num_thresholds, "slide_steps": slide_steps})
        self.stats, self.outs = stats, outs
        self.num_thresholds, self.slide_steps = num_thresholds, slide_steps

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        pred, label = env[id(self.inputs[0])], env[id(self.inputs[1])]
        bpos, bneg, gpos, gneg = (env[id(v)] for v in self.stats)
        pos, neg = _bucket_counts(pred, label, self.num_thresholds)
        size = self.num_thresholds + 1
        s = self.slide_steps
        if s == 0:  # (the window is everything: [1, size] counts, as the global ones)
            bpos, bneg = bpos + pos.reshape(bpos.shape), bneg + neg.reshape(bneg.shape)
            batch_auc = _area(bpos.reshape(-1), bneg.reshape(-1))
        else:
            cur = (bpos[-1] % s) * size
            summed = s * size

            def window(stat: Any, new: Any) -> Any:
                old = jnp.asarray(jnp.take(stat, cur + jnp.arange(size)))
                total = stat[summed:summed + size] - old + new
                stat = stat.at[cur + jnp.arange(size)].set(new)
                stat = stat.at[summed:summed + size].set(total)
                return stat.at[-1].add(1)

            bpos, bneg = window(bpos, pos), window(bneg, neg)
            batch_auc = _area(bpos[summed:summed + size], bneg[summed:summed + size])
        gpos = gpos + pos.reshape(gpos.shape)
        gneg = gneg + neg.reshape(gneg.shape)
        env[id(self.outs[0])] = _area(gpos.reshape(-1), gneg.reshape(-1))
        env[id(self.outs[1])] = batch_auc
        for v, a in zip(self.stats, (bpos, bneg, gpos, gneg)):
            env[id(v)] = a


def auc(input: Any, label: Any, curve: str = "ROC", num_thresholds: int = 2**12 - 1, topk: int = 1,
        slide_steps: int = 1, ins_tag_weight: Any = None) -> tuple[Any, Any, list[Any]]:
    """The area under the ROC curve of ``input`` ([N, 2] class probabilities, or [N, 1]: the last column is
    the positive class's) against ``label`` ([N, 1]: > 0 positive, 0 negative), accumulated over runs.

    Returns ``(auc, batch_auc, [batch_stat_pos, batch_stat_neg, stat_pos, stat_neg])``: the AUC of every
    example seen so far, the AUC of the last ``slide_steps`` batches (of every batch when 0), and the
    persistable count Variables behind them (float64 scalars, int64 counts). Static mode only.
    """
    api = "paddle.static.auc"
    if not modes.static_mode or not isinstance(input, Variable):
        raise RuntimeError(f"{api}: auc keeps its statistics in a static program; call it in static mode on "
                           "Variables (in dynamic mode use paddle.metric.Auc).")
    if not isinstance(label, Variable):
        raise TypeError(f"{api}: label must be a Variable of the program, but received {type(label).__name__}.")
    if curve != "ROC":
        raise NotImplementedError(f"{api}: only curve='ROC' is computed (as Paddle's kernel), but received "
                                  f"{curve!r}.")
    if isinstance(num_thresholds, bool) or not isinstance(num_thresholds, int) or num_thresholds < 1:
        raise ValueError(f"{api}: num_thresholds must be a positive int, but received {num_thresholds!r}.")
    if isinstance(slide_steps, bool) or not isinstance(slide_steps, int) or slide_steps < 0:
        raise ValueError(f"{api}: slide_steps must be a non-negative int, but received {slide_steps!r}.")
    if topk != 1:
        raise NotImplementedError(f"{api}: topk must be 1 (Paddle's auc scores the positive-class column only), "
                                  f"but received {topk!r}.")
    if ins_tag_weight is not None:
        raise NotImplementedError(f"{api}: ins_tag_weight (a weight marking fake examples) is not supported, as "
                                  "Paddle's Program-IR auc does not read it; pass None.")
    if len(input.shape) != 2:
        raise ValueError(f"{api}: input must be 2-D [N, 2] probabilities, but its shape is {list(input.shape)}.")
    if not _dtypes.is_float(np.dtype(input.dtype.np_dtype)) or label.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{api}: input must be float probabilities and label int32/int64, but received "
                        f"{input.dtype.name} and {label.dtype.name}.")
    main, startup = default_main_program(), default_startup_program()
    size = num_thresholds + 1
    # the window's counts: one row per step of the window, their sum, and the step counter (Paddle's kernel
    # keeps [1, size] when slide_steps is 0)
    shapes = [[(1 + slide_steps) * size + 1] if slide_steps else [1, size]] * 2 + [[1, size]] * 2
    stats = [make_state(main, startup, unique_name("_generated_var"), sh, "int64", Constant(0)) for sh in shapes]
    base = unique_name("auc")
    block = main.current_block()
    f64 = np.zeros((), np.float64)
    outs = [Variable.from_structs(block, f"{base}.tmp_{i}", f64, f64, True) for i in range(2)]
    main.append_op(AucOp(block, input, label, stats, outs, num_thresholds, slide_steps))
    return outs[0], outs[1], stats


def ctr_metric_bundle(input: Any, label: Any, ins_tag_weight: Any = None) -> Any:
    """Paddle's CTR metric bundle (local sqrerr/abserr/prob/q/pos/ins sums meant for a distributed
    parameter-server job): not available."""
    raise NotImplementedError(
        "paddle.static.ctr_metric_bundle: its statistics are summed across the trainers of a parameter-server job, "
        "which does not exist here. Compute the metrics with paddle ops (paddle.abs(pred - label).sum(), ...) or "
        "use paddle.static.auc."
    )
