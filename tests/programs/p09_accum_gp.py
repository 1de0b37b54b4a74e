"""Gradient accumulation over micro-batches (backward each, step every k, loss scaled by 1/k) on a critic trained
WGAN-GP style: the gradient penalty from paddle.grad(create_graph=True) on interpolates, a generator step in between,
RMSProp and Adam; the accumulated gradients checked against one full-batch backward."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn

rng = np.random.default_rng(0)
real_all = (rng.standard_normal((192, 3)) * 0.5 + 1.0).astype("float32")
noise_all = rng.standard_normal((192, 4)).astype("float32")
eps_all = rng.uniform(size=(192, 1)).astype("float32")

critic = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 16), nn.Softplus(), nn.Linear(16, 1))
gen = nn.Sequential(nn.Linear(4, 16), nn.ELU(), nn.Linear(16, 3))
r = np.random.default_rng(1)
for net in (critic, gen):
    for p in net.parameters():
        p.set_value((r.standard_normal(p.shape) * 0.4).astype("float32"))
opt_c = paddle.optimizer.RMSProp(learning_rate=5e-3, parameters=critic.parameters())
opt_g = paddle.optimizer.Adam(learning_rate=2e-3, beta1=0.0, beta2=0.9, parameters=gen.parameters())
K, MB, LAMBDA = 3, 16, 10.0


def critic_loss(real, z, eps):
    fake = gen(z).detach()
    inter = eps * real + (1 - eps) * fake
    inter.stop_gradient = False
    d_inter = critic(inter)
    (g,) = paddle.grad(outputs=d_inter, inputs=inter, grad_outputs=paddle.ones_like(d_inter), create_graph=True)
    gp = ((g.norm(2, axis=1) - 1) ** 2).mean()
    return critic(fake).mean() - critic(real).mean() + LAMBDA * gp, gp


rec = {"c_loss": [], "gp": [], "g_loss": [], "accum_vs_full": None}
for it in range(4):
    base = it * K * MB
    total, gps = 0.0, 0.0
    for k in range(K):
        sl = slice(base + k * MB, base + (k + 1) * MB)
        loss, gp = critic_loss(paddle.to_tensor(real_all[sl]), paddle.to_tensor(noise_all[sl]), paddle.to_tensor(eps_all[sl]))
        (loss / K).backward()
        total += loss.item() / K
        gps += gp.item() / K
    if it == 0:
        accum = [p.grad.numpy().copy() for p in critic.parameters()]
        opt_c.clear_grad()
        sl = slice(base, base + K * MB)
        full = 0.0
        for k in range(K):  # the same loss over the whole batch in one backward (means of equal parts)
            s = slice(base + k * MB, base + (k + 1) * MB)
            full = full + critic_loss(paddle.to_tensor(real_all[s]), paddle.to_tensor(noise_all[s]), paddle.to_tensor(eps_all[s]))[0] / K
        full.backward()
        rec["accum_vs_full"] = float(max(np.abs(a - p.grad.numpy()).max() for a, p in zip(accum, critic.parameters())))
    opt_c.step()
    opt_c.clear_grad()
    rec["c_loss"].append(total)
    rec["gp"].append(gps)
    z = paddle.to_tensor(noise_all[base:base + 32])
    g_loss = -critic(gen(z)).mean()
    g_loss.backward()
    opt_g.step()
    opt_g.clear_grad()
    critic.clear_gradients()
    rec["g_loss"].append(float(g_loss))
rec["critic_w"] = critic[0].weight.numpy()[0].tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
