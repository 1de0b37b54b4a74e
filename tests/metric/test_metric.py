"""paddle.metric against results recorded from real Paddle (tests/record_paddle_metric.py)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import pylayer_jax as paddle

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the tests folder
REC = json.load(open(os.path.join(HERE, "data", "paddle_metric.json")))


def enc(v):
    """The recording script's encoding: value and type."""
    if isinstance(v, paddle.Tensor):
        return {"type": "Tensor", "dtype": v.dtype.name, "shape": list(v.shape),
                "values": np.asarray(v.numpy()).reshape(-1).tolist()}
    if isinstance(v, list):
        return {"type": "list", "items": [enc(x) for x in v]}
    if isinstance(v, float | np.floating):
        return {"type": type(v).__name__, "value": repr(float(v))}
    if isinstance(v, int | np.integer):
        return {"type": type(v).__name__, "value": int(v)}
    return {"type": type(v).__name__, "value": repr(v)}


@pytest.mark.parametrize("case", REC["accuracy_fn"], ids=lambda c: f"k{c['k']}-{c['dtype']}-{c['ldtype']}")
def test_accuracy_function_matches_paddle(case):
    x = paddle.to_tensor(np.array(case["input"], case["dtype"]))
    y = paddle.to_tensor(np.array(case["label"], case["ldtype"]))
    correct, total = paddle.zeros([1], "int32"), paddle.zeros([1], "int32")
    acc = paddle.metric.accuracy(x, y, k=case["k"], correct=correct, total=total)
    assert enc(acc) == case["acc"]
    assert enc(correct) == case["correct"] and enc(total) == case["total"]
    assert enc(paddle.metric.accuracy(x, y, k=case["k"])) == case["acc"]


@pytest.mark.parametrize("rec", REC["accuracy"], ids=lambda r: f"topk{r['topk']}-{r['name_arg']}")
def test_accuracy_class_matches_paddle(rec):
    m = paddle.metric.Accuracy(topk=tuple(rec["topk"]), name=rec["name_arg"])
    assert m.name() == rec["name"]
    for b in rec["batches"]:
        label = np.array(b["label"])
        label = label.astype("float32") if label.dtype.kind == "f" else label.astype("int64")
        corr = m.compute(paddle.to_tensor(np.array(b["pred"], "float32")), paddle.to_tensor(label))
        assert enc(corr) == b["compute"]
        assert enc(m.update(corr)) == b["update"]
        assert enc(m.accumulate()) == b["accumulate"]
    m.reset()
    assert enc(m.accumulate()) == rec["after_reset"]


@pytest.mark.parametrize("rec", REC["precision_recall"], ids=lambda r: f"tensor{r['as_tensor']}-col{r['column']}")
def test_precision_recall_match_paddle(rec):
    p, r = paddle.metric.Precision(), paddle.metric.Recall(name="rec")
    assert [p.name(), r.name()] == rec["names"]
    assert [enc(p.accumulate()), enc(r.accumulate())] == rec["empty"]
    for b in rec["batches"]:
        preds, labels = np.array(b["preds"]), np.array(b["labels"])
        if rec["as_tensor"]:
            preds, labels = paddle.to_tensor(preds), paddle.to_tensor(labels)
        assert [enc(p.update(preds, labels)), enc(r.update(preds, labels))] == b["update"]
        assert [enc(p.accumulate()), enc(r.accumulate())] == b["accumulate"]
        assert [p.tp, p.fp, r.tp, r.fn] == b["state"]
    p.reset()
    r.reset()
    assert [enc(p.accumulate()), enc(r.accumulate())] == rec["after_reset"]


@pytest.mark.parametrize("rec", REC["auc"], ids=lambda r: f"t{r['num_thresholds']}")
def test_auc_matches_paddle(rec):
    a = paddle.metric.Auc(num_thresholds=rec["num_thresholds"])
    assert a.name() == rec["name"] and enc(a.accumulate()) == rec["empty"]
    for b in rec["batches"]:
        preds, labels = np.array(b["preds"]), np.array(b["labels"])
        if rec["as_tensor"]:
            preds, labels = paddle.to_tensor(preds), paddle.to_tensor(labels)
        assert enc(a.update(preds, labels)) == b["update"]
        assert enc(a.accumulate()) == b["accumulate"]
    a.reset()
    assert enc(a.accumulate()) == rec["after_reset"]


def test_metric_base_is_abstract_and_compute_passes_through():
    with pytest.raises(TypeError, match="abstract"):
        paddle.metric.Metric()
    assert REC["errors"]["Metric_abstract"] == "TypeError"

    class Count(paddle.metric.Metric):
        def reset(self):
            self.n = 0

        def update(self, x):
            self.n += len(x)

        def accumulate(self):
            return self.n

        def name(self):
            return "count"

    m = Count()
    assert m.compute(1, 2, 3) == (1, 2, 3)


X = paddle.to_tensor(np.random.default_rng(0).random((4, 3)).astype("float32"))


@pytest.mark.parametrize("key,call,exc,match", [
    ("accuracy_label_rank1", lambda: paddle.metric.accuracy(X, paddle.to_tensor([0, 1, 2, 1])), ValueError,
     r"label must have shape \[N, 1\] .* received shape \[4\]"),
    ("accuracy_label_cols2", lambda: paddle.metric.accuracy(X, paddle.to_tensor([[0, 1], [2, 1]])), ValueError,
     r"label must have shape \[N, 1\] .* received shape \[2, 2\]"),
    ("accuracy_label_rows", lambda: paddle.metric.accuracy(X, paddle.to_tensor([[0], [1]])), ValueError,
     "same number of rows, but received 4 and 2"),
    ("accuracy_k_too_big", lambda: paddle.metric.accuracy(X, paddle.to_tensor([[0], [1], [2], [1]]), k=5),
     ValueError, r"k must be an int in \[1, 3\]"),
    ("accuracy_float_label", lambda: paddle.metric.accuracy(X, paddle.to_tensor([[0.0], [1.0], [2.0], [1.0]])),
     ValueError, "label must be int32 or int64, but received float32"),
    ("Accuracy_topk_int", lambda: paddle.metric.Accuracy(topk=1), TypeError, "topk must be a list or tuple"),
    ("Accuracy_topk_empty", lambda: paddle.metric.Accuracy(topk=[]), ValueError, "at least one int >= 1"),
    ("Precision_list_preds", lambda: paddle.metric.Precision().update([0.1], np.array([1])), ValueError,
     "'preds' must be a numpy ndarray or Tensor, but received list"),
    ("Recall_list_labels", lambda: paddle.metric.Recall().update(np.array([0.1]), [1]), ValueError,
     "'labels' must be a numpy ndarray or Tensor, but received list"),
    ("Auc_list_preds", lambda: paddle.metric.Auc().update([[0.1, 0.9]], np.array([1])), ValueError,
     "'preds' must be a numpy ndarray or Tensor"),
])
def test_misuse_raises_paddles_type(key, call, exc, match):
    assert REC["errors"][key] == exc.__name__
    with pytest.raises(exc, match=match):
        call()


def test_misuse_where_paddle_fails_obscurely_or_silently():
    # Paddle: IndexError from numpy indexing; here a ValueError that names the shape
    with pytest.raises(ValueError, match=r"'preds' must have shape \[N, 2\] .* received shape \[2\]"):
        paddle.metric.Auc().update(np.array([0.1, 0.9]), np.array([0, 1]))
    assert REC["errors"]["Auc_preds_rank1"] == "IndexError"
    # Paddle: a negative score silently lands in a wrapped-around bucket, a score above 1 trips an assert
    with pytest.raises(ValueError, match=r"scores must lie in \[0, 1\], but preds\[0, 1\] is -0.5"):
        paddle.metric.Auc().update(np.array([[1.5, -0.5]]), np.array([[1]]))
    with pytest.raises(NotImplementedError, match="curve='PR' is not implemented"):
        paddle.metric.Auc(curve="PR")
    with pytest.raises(ValueError, match="curve must be 'ROC' or 'PR', but received 'XX'"):
        paddle.metric.Auc(curve="XX")
    with pytest.raises(ValueError, match="num_thresholds must be an int >= 0"):
        paddle.metric.Auc(num_thresholds=-1)
    # Paddle: silently uses only the first len(labels) predictions, or an IndexError
    with pytest.raises(ValueError, match="same number of samples, but received 2 and 1"):
        paddle.metric.Precision().update(np.array([0.1, 0.9]), np.array([1]))
    with pytest.raises(ValueError, match=r"shape \[N\] or \[N, 1\], but received shape \[1, 2\]"):
        paddle.metric.Recall().update(np.array([[0.1, 0.2]]), np.array([[1, 0]]))
    m = paddle.metric.Accuracy(topk=(1, 3))
    with pytest.raises(ValueError, match=r"at least max\(topk\)=3, but pred has shape \[4, 2\]"):
        m.compute(paddle.ones([4, 2]), paddle.to_tensor([[0], [1], [0], [1]]))
    with pytest.raises(ValueError, match=r"one label per sample \(4\), but received shape \[2, 1\]"):
        m.compute(paddle.ones([4, 3]), paddle.to_tensor([[0], [1]]))
    with pytest.raises(TypeError, match="correct must be the Tensor or numpy array .* received list"):
        m.update([[1.0, 0.0, 0.0]])
    with pytest.raises(TypeError, match="input and label must be Tensors, but received ndarray"):
        paddle.metric.accuracy(np.ones((2, 2)), paddle.to_tensor([[0], [1]]))
