"""Utilities around training: an EMA of the weights kept under no_grad with copy_/set_value, parameters_to_vector
and vector_to_parameters, clip_grad_value_, weight_norm and spectral_norm layers, ExponentialDecay/StepDecay/
MultiStepDecay/LambdaDecay/CosineAnnealingWarmRestarts schedulers stepped together, SGD with a per-parameter
learning_rate from ParamAttr and need_clip=False, and Lamb."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.nn.utils import parameters_to_vector, spectral_norm, vector_to_parameters, weight_norm

rng = np.random.default_rng(0)
X = rng.standard_normal((64, 6)).astype("float32")
Y = (np.sin(X[:, :2]).sum(1, keepdims=True) + 0.1 * X[:, 2:3]).astype("float32")

l1 = nn.Linear(6, 16, weight_attr=paddle.ParamAttr(learning_rate=0.5), bias_attr=paddle.ParamAttr(need_clip=False))
l2 = weight_norm(nn.Linear(16, 16))
l3 = spectral_norm(nn.Linear(16, 1), n_power_iterations=2) if False else nn.Linear(16, 1)
model = nn.Sequential(l1, nn.Hardswish(), l2, nn.Mish(), l3)
r = np.random.default_rng(1)
sd = model.state_dict()
model.set_state_dict({k: (np.abs(r.standard_normal(v.shape)) + 0.5 if k.endswith("weight_g") else r.standard_normal(v.shape) * 0.4).astype("float32")
                      for k, v in sd.items()})
rec = {"keys": sorted(sd.keys())}
vec = parameters_to_vector(model.parameters())
rec["vec"] = [list(vec.shape), float(vec.sum())]
vector_to_parameters(vec * 1.0, model.parameters())

scheds = {"exp": paddle.optimizer.lr.ExponentialDecay(0.05, gamma=0.9),
          "step": paddle.optimizer.lr.StepDecay(0.05, step_size=3, gamma=0.5),
          "multi": paddle.optimizer.lr.MultiStepDecay(0.05, milestones=[2, 5], gamma=0.3),
          "lambda": paddle.optimizer.lr.LambdaDecay(0.05, lr_lambda=lambda e: 0.95 ** e),
          "warm_restarts": paddle.optimizer.lr.CosineAnnealingWarmRestarts(0.05, T_0=3, T_mult=2, eta_min=0.001)}
rec["sched"] = {k: [] for k in scheds}
opt = paddle.optimizer.SGD(learning_rate=scheds["exp"], parameters=model.parameters(),
                           grad_clip=nn.ClipGradByNorm(0.5))
ema = {n: p.detach().clone() for n, p in model.named_parameters()}
rec["loss"], rec["ema_dist"] = [], []
for step in range(10):
    i = (step % 4) * 16
    loss = F.smooth_l1_loss(model(paddle.to_tensor(X[i:i + 16])), paddle.to_tensor(Y[i:i + 16]))
    loss.backward()
    paddle.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.3)
    opt.step()
    opt.clear_grad()
    for s in scheds.values():
        s.step()
    for k, s in scheds.items():
        rec["sched"][k].append(s.last_lr)
    with paddle.no_grad():
        for n, p in model.named_parameters():
            ema[n].copy_(ema[n] * 0.9 + p * 0.1, False) if hasattr(ema[n], "copy_") else ema[n].set_value(ema[n] * 0.9 + p * 0.1)
    rec["loss"].append(float(loss))
    rec["ema_dist"].append(float(sum(((ema[n] - p) ** 2).sum() for n, p in model.named_parameters())))
backup = {n: p.numpy() for n, p in model.named_parameters()}
for n, p in model.named_parameters():
    p.set_value(ema[n])
with paddle.no_grad():
    rec["ema_eval"] = F.mse_loss(model(paddle.to_tensor(X)), paddle.to_tensor(Y)).item()
for n, p in model.named_parameters():
    p.set_value(backup[n])
lamb = paddle.optimizer.Lamb(learning_rate=0.01, lamb_weight_decay=0.01, parameters=model.parameters())
for _step in range(3):
    loss = F.mse_loss(model(paddle.to_tensor(X)), paddle.to_tensor(Y))
    loss.backward()
    lamb.step()
    lamb.clear_grad()
    rec.setdefault("lamb", []).append(loss.item())
sn = spectral_norm(nn.Linear(5, 4), n_power_iterations=3)
rec["sn_keys"] = sorted(sn.state_dict().keys())
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
