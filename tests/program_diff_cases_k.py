"""Cases found by the programs ``tests/programs/p47_ner_crf.py`` and ``p48_tabular_pipeline.py``, written as Paddle
code: ``record(paddle)`` runs them with the given library and returns what they give (values, gradients, the type
of each error). ``record_paddle_program_diffs_k.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_k.json``; ``test_program_diffs_k.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _v


def logits(paddle: Any, shape: tuple[int, ...]) -> Any:
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal(shape).astype("float32"))
    x.stop_gradient = False
    return x


def cross_entropy_labels(paddle: Any, out: dict[str, Any]) -> None:
    """``F.cross_entropy`` with label smoothing of hard labels (p47's tagger): labels without the class axis, over
    2-D and 3-D inputs, with class weights, each reduction, and the input's gradient; hard labels whose class axis
    is not 1 and smoothed labels holding ignore_index are errors (ValueError)."""
    F = paddle.nn.functional
    lab = paddle.to_tensor([[1, 2, 0], [0, 3, 1]])
    w = paddle.to_tensor([0.5, 2.0, 1.0, 1.5])
    for name, kw in {"mean": {}, "sum": {"reduction": "sum"}, "none": {"reduction": "none"},
                     "weight": {"weight": w}, "weight_sum": {"weight": w, "reduction": "sum"},
                     "eps3": {"label_smoothing": 0.3}}.items():
        x = logits(paddle, (2, 3, 4))
        kw = {"label_smoothing": 0.1, **kw}
        loss = F.cross_entropy(x, lab, **kw)
        (loss * paddle.arange(loss.size, dtype="float32").reshape(loss.shape) + loss).sum().backward()
        out[f"ce_smooth_3d_{name}"] = [_v(loss), list(loss.shape), _v(x.grad)]
    x = logits(paddle, (2, 3, 4))
    soft = F.softmax(paddle.arange(24, dtype="float32").reshape([2, 3, 4]) * 0.3, axis=-1)
    loss = F.cross_entropy(x, soft, soft_label=True, label_smoothing=0.1, reduction="none")
    loss.sum().backward()
    out["ce_smooth_soft"] = [_v(loss), _v(x.grad)]
    x = logits(paddle, (3, 4))
    loss = F.cross_entropy(x, paddle.to_tensor([3, 0, 1]), label_smoothing=0.2)
    loss.backward()
    out["ce_smooth_2d"] = [_v(loss), _v(x.grad)]
    out["ce_smooth_layer"] = _v(paddle.nn.CrossEntropyLoss(label_smoothing=0.2, reduction="sum")(
        logits(paddle, (3, 4)), paddle.to_tensor([3, 0, 1])))
    out["ce_hard_axis_not_1"] = _attempt(lambda: F.cross_entropy(logits(paddle, (2, 3)),
                                                                 paddle.to_tensor([[1, 2], [0, 1]])))
    out["ce_hard_axis_not_1_3d"] = _attempt(lambda: F.cross_entropy(logits(paddle, (2, 3, 4)),
                                                                    paddle.zeros([2, 3, 2], dtype="int64")))
    out["ce_smooth_ignored_label"] = _attempt(lambda: F.cross_entropy(
        logits(paddle, (2, 3)), paddle.to_tensor([1, -100]), label_smoothing=0.1))
    out["ce_smooth_label_too_big"] = _attempt(lambda: F.cross_entropy(
        logits(paddle, (2, 3)), paddle.to_tensor([1, 3]), label_smoothing=0.1))
    x = logits(paddle, (2, 3, 4))
    lab_ig = paddle.to_tensor([[1, -100, 0], [-100, 3, 1]])
    out["ce_ignore_none_mean"] = [_v(F.cross_entropy(x, lab_ig.unsqueeze(-1), ignore_index=-100, reduction="none")),
                                  _v(F.cross_entropy(x, lab_ig, ignore_index=-100)),
                                  _v(F.cross_entropy(x, lab_ig, weight=w, ignore_index=-100))]


CASES = [cross_entropy_labels]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
