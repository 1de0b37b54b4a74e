"""Record paddle.metric's results with real Paddle into tests/data/paddle_metric.json.

    /tmp/paddle/bin/python tests/record_paddle_metric.py

For seeded random inputs it records: `paddle.metric.accuracy` (value, dtype, shape and the
`correct`/`total` outputs), `Accuracy.compute` masks, every `update` return and `accumulate` after
each of several batches (values and their Python types), `name()`, and Precision / Recall / Auc
states, plus the exception types of a few misuses.
"""

from __future__ import annotations

import json
import os

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))


def enc(v):
    """A value with its type: floats exactly (repr), lists element-wise, Tensors as arrays."""
    if isinstance(v, paddle.Tensor):
        return {"type": "Tensor", "dtype": str(v.dtype).replace("paddle.", ""), "shape": list(v.shape),
                "values": np.asarray(v.numpy()).reshape(-1).tolist()}
    if isinstance(v, list):
        return {"type": "list", "items": [enc(x) for x in v]}
    if isinstance(v, float | np.floating):
        return {"type": type(v).__name__, "value": repr(float(v))}
    if isinstance(v, int | np.integer):
        return {"type": type(v).__name__, "value": int(v)}
    return {"type": type(v).__name__, "value": repr(v)}


def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording which type Paddle raises
        return type(e).__name__
    return None


def main():
    rng = np.random.default_rng(7)
    out = {"paddle": paddle.__version__, "accuracy_fn": [], "accuracy": [], "precision_recall": [], "auc": []}

    for case in range(6):
        n, c = int(rng.integers(3, 9)), int(rng.integers(2, 6))
        k = int(rng.integers(1, c + 1))
        dtype = ["float32", "float64"][case % 2]
        ldtype = ["int64", "int32"][(case // 2) % 2]
        x = rng.random((n, c)).astype(dtype)
        y = rng.integers(0, c, (n, 1)).astype(ldtype)
        correct, total = paddle.zeros([1], "int32"), paddle.zeros([1], "int32")
        acc = paddle.metric.accuracy(paddle.to_tensor(x), paddle.to_tensor(y), k=k, correct=correct, total=total)
        out["accuracy_fn"].append({"input": x.tolist(), "dtype": dtype, "label": y.tolist(), "ldtype": ldtype,
                                   "k": k, "acc": enc(acc), "correct": enc(correct), "total": enc(total)})

    for topk, name, label_kind, pred_rank in [((1,), None, "column", 2), ((1, 3), "top", "column", 2),
                                               ((2,), None, "flat", 2), ((1, 2), None, "onehot", 2),
                                               ((1,), "seq", "column", 3)]:
        m = paddle.metric.Accuracy(topk=topk, name=name)
        rec = {"topk": list(topk), "name_arg": name, "name": m.name(), "batches": []}
        for _ in range(3):
            n, c = int(rng.integers(3, 7)), 5
            shape = (n, c) if pred_rank == 2 else (2, n, c)
            pred = rng.random(shape).astype("float32")
            lab = rng.integers(0, c, shape[:-1] + (1,))
            if label_kind == "flat":
                lab = lab.reshape(-1)
            elif label_kind == "onehot":
                lab = np.eye(c, dtype="float32")[lab.reshape(-1)]
            corr = m.compute(paddle.to_tensor(pred), paddle.to_tensor(lab))
            upd = m.update(corr)
            rec["batches"].append({"pred": pred.tolist(), "label": lab.tolist(), "compute": enc(corr),
                                   "update": enc(upd), "accumulate": enc(m.accumulate())})
        m.reset()
        rec["after_reset"] = enc(m.accumulate())
        out["accuracy"].append(rec)

    for as_tensor, column in [(False, False), (True, False), (False, True)]:
        p, r = paddle.metric.Precision(), paddle.metric.Recall(name="rec")
        rec = {"as_tensor": as_tensor, "column": column, "names": [p.name(), r.name()], "batches": [],
               "empty": [enc(p.accumulate()), enc(r.accumulate())]}
        for _ in range(3):
            n = int(rng.integers(4, 10))
            preds = np.round(rng.random(n), 1)  # many exact x.5 values: the rounding rules differ
            labels = rng.integers(0, 2, n)
            if column:
                preds, labels = preds[:, None], labels[:, None]
            ap, al = (paddle.to_tensor(preds), paddle.to_tensor(labels)) if as_tensor else (preds, labels)
            rec["batches"].append({"preds": preds.tolist(), "labels": labels.tolist(),
                                   "update": [enc(p.update(ap, al)), enc(r.update(ap, al))],
                                   "accumulate": [enc(p.accumulate()), enc(r.accumulate())],
                                   "state": [p.tp, p.fp, r.tp, r.fn]})
        p.reset()
        r.reset()
        rec["after_reset"] = [enc(p.accumulate()), enc(r.accumulate())]
        out["precision_recall"].append(rec)

    for num_thresholds, as_tensor in [(4095, False), (10, True), (200, False)]:
        a = paddle.metric.Auc(num_thresholds=num_thresholds)
        rec = {"num_thresholds": num_thresholds, "as_tensor": as_tensor, "name": a.name(), "batches": [],
               "empty": enc(a.accumulate())}
        for _ in range(3):
            n = int(rng.integers(4, 12))
            p1 = rng.random(n)
            preds = np.stack([1 - p1, p1], axis=1)
            labels = rng.integers(0, 2, (n, 1))
            ap, al = (paddle.to_tensor(preds), paddle.to_tensor(labels)) if as_tensor else (preds, labels)
            rec["batches"].append({"preds": preds.tolist(), "labels": labels.tolist(), "update": enc(a.update(ap, al)),
                                   "accumulate": enc(a.accumulate())})
        a.reset()
        rec["after_reset"] = enc(a.accumulate())
        out["auc"].append(rec)

    x = paddle.to_tensor(rng.random((4, 3)).astype("float32"))
    out["errors"] = {
        "accuracy_label_rank1": error(lambda: paddle.metric.accuracy(x, paddle.to_tensor([0, 1, 2, 1]))),
        "accuracy_label_cols2": error(lambda: paddle.metric.accuracy(x, paddle.to_tensor([[0, 1], [2, 1]]))),
        "accuracy_label_rows": error(lambda: paddle.metric.accuracy(x, paddle.to_tensor([[0], [1]]))),
        "accuracy_k_too_big": error(lambda: paddle.metric.accuracy(x, paddle.to_tensor([[0], [1], [2], [1]]), k=5)),
        "accuracy_float_label": error(lambda: paddle.metric.accuracy(x, paddle.to_tensor([[0.0], [1.0], [2.0], [1.0]]))),
        "Accuracy_topk_int": error(lambda: paddle.metric.Accuracy(topk=1)),
        "Accuracy_topk_empty": error(lambda: paddle.metric.Accuracy(topk=[])),
        "Metric_abstract": error(lambda: paddle.metric.Metric()),
        "Precision_list_preds": error(lambda: paddle.metric.Precision().update([0.1], np.array([1]))),
        "Recall_list_labels": error(lambda: paddle.metric.Recall().update(np.array([0.1]), [1])),
        "Auc_list_preds": error(lambda: paddle.metric.Auc().update([[0.1, 0.9]], np.array([1]))),
        "Auc_preds_rank1": error(lambda: paddle.metric.Auc().update(np.array([0.1, 0.9]), np.array([0, 1]))),
    }
    with open(os.path.join(HERE, "data", "paddle_metric.json"), "w") as f:
        json.dump(out, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print("wrote tests/data/paddle_metric.json")


if __name__ == "__main__":
    main()
