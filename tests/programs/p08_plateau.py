"""Regression with ReduceOnPlateau driven by the validation loss, early stopping reading loss.item(), best-model
state kept by deepcopy of state_dict values (numpy), restored at the end; SmoothL1Loss, Adam with L1Decay."""
import copy
import json
import os

import numpy as np
import paddle
import paddle.nn as nn

rng = np.random.default_rng(0)
X = rng.standard_normal((120, 5)).astype("float32")
w_true = np.array([1.5, -2.0, 0.5, 0.0, 3.0], "float32")
Y = (X @ w_true + 0.3 * np.sin(3 * X[:, 0]) + 0.1 * rng.standard_normal(120)).astype("float32")[:, None]
Xtr, Ytr, Xva, Yva = X[:90], Y[:90], X[90:], Y[90:]

model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1))
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.5).astype("float32") for k, v in model.state_dict().items()})
sched = paddle.optimizer.lr.ReduceOnPlateau(learning_rate=0.05, factor=0.5, patience=2, threshold=1e-3,
                                            cooldown=1, min_lr=1e-4)
opt = paddle.optimizer.Adam(learning_rate=sched, parameters=model.parameters(),
                            weight_decay=paddle.regularizer.L1Decay(1e-4))
loss_fn = nn.SmoothL1Loss()
best, best_state, bad, patience = float("inf"), None, 0, 6
rec = {"train": [], "val": [], "lr": [], "stopped_at": None}
for epoch in range(60):
    model.train()
    perm = np.arange(90)
    for i in range(0, 90, 30):
        xb, yb = paddle.to_tensor(Xtr[perm[i:i + 30]]), paddle.to_tensor(Ytr[perm[i:i + 30]])
        loss = loss_fn(model(xb), yb)
        opt.clear_grad()
        loss.backward()
        opt.step()
    rec["train"].append(loss.item())
    model.eval()
    with paddle.no_grad():
        val = loss_fn(model(paddle.to_tensor(Xva)), paddle.to_tensor(Yva)).item()
    sched.step(val)
    rec["val"].append(val)
    rec["lr"].append(opt.get_lr())
    if val < best - 1e-4:
        best, bad = val, 0
        best_state = copy.deepcopy({k: v.numpy() for k, v in model.state_dict().items()})
    else:
        bad += 1
        if bad >= patience:
            rec["stopped_at"] = epoch
            break
model.set_state_dict(best_state)
with paddle.no_grad():
    rec["best_val"] = loss_fn(model(paddle.to_tensor(Xva)), paddle.to_tensor(Yva)).item()
rec["best"] = best
rec["sched_state"] = {k: v for k, v in sched.state_dict().items() if isinstance(v, (int, float))}
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
