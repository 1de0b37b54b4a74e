"""Evaluation code: paddle.metric.Precision / Recall / Auc updated per batch with numpy, paddle.metric.accuracy
with k, Accuracy(topk) name(), a confusion matrix by bincount, F1 from it, and a
softmax classifier trained with NLLLoss on log_softmax with class weights."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
X = rng.standard_normal((80, 5)).astype("float32")
Y = ((X[:, 0] + 0.5 * X[:, 1] > 0).astype("int64") + (X[:, 2] > 0.8).astype("int64"))
model = nn.Sequential(nn.Linear(5, 12), nn.SELU(), nn.Linear(12, 3))
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.4).astype("float32") for k, v in model.state_dict().items()})
opt = paddle.optimizer.Adamax(learning_rate=0.05, parameters=model.parameters())
nll = nn.NLLLoss(weight=paddle.to_tensor([1.0, 2.0, 3.0]))
rec = {"loss": []}
for step in range(12):
    i = (step % 4) * 20
    out = F.log_softmax(model(paddle.to_tensor(X[i:i + 20])), axis=-1)
    loss = nll(out, paddle.to_tensor(Y[i:i + 20]))
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["loss"].append(float(loss))

model.eval()
prec, recl, auc = paddle.metric.Precision(), paddle.metric.Recall(), paddle.metric.Auc(num_thresholds=255)
acc = paddle.metric.Accuracy(topk=(1, 2))
conf = np.zeros((3, 3), "int64")
with paddle.no_grad():
    for i in range(0, 80, 16):
        logits = model(paddle.to_tensor(X[i:i + 16]))
        y = np.maximum(Y[i:i + 16], 0)
        probs = F.softmax(logits, -1)
        pos = (probs[:, 1:].sum(-1)).numpy()  # "not class 0" as the positive class
        yb = (y > 0).astype("int64")
        prec.update(preds=pos, labels=yb)
        recl.update(preds=pos, labels=yb)
        auc.update(preds=np.stack([1 - pos, pos], 1), labels=yb[:, None])
        acc.update(acc.compute(probs, paddle.to_tensor(y[:, None])))
        pred = logits.argmax(-1)
        conf += paddle.bincount(paddle.to_tensor(y) * 3 + pred, minlength=9).numpy().reshape(3, 3)
        a1 = paddle.metric.accuracy(logits, paddle.to_tensor(y[:, None]), k=2)
        rec.setdefault("acc_fn", []).append(a1.item())
rec["precision"], rec["recall"], rec["auc"] = prec.accumulate(), recl.accumulate(), auc.accumulate()
rec["acc"] = list(acc.accumulate())
rec["names"] = [prec.name(), recl.name(), auc.name(), acc.name()]
rec["conf"] = conf.tolist()
tp = np.diag(conf)
rec["f1"] = (2 * tp / np.maximum(conf.sum(0) + conf.sum(1), 1)).tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
