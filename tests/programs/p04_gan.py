"""A GAN on 2-D points: generator and discriminator MLPs, two Adam optimizers, fake.detach() for the
discriminator step, BCEWithLogitsLoss; the generator's backward also fills the discriminator's grads, cleared by
its optimizer only before the next discriminator step (as common scripts do)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn

rng = np.random.default_rng(0)
real_data = (rng.standard_normal((256, 2)) * [0.5, 0.2] + [1.0, -1.0]).astype("float32")
noise = rng.standard_normal((20, 32, 4)).astype("float32")

G = nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
r = np.random.default_rng(1)
for net in (G, D):
    for p in net.parameters():
        p.set_value((r.standard_normal(p.shape) * 0.4).astype("float32"))
opt_g = paddle.optimizer.Adam(learning_rate=2e-3, beta1=0.5, parameters=G.parameters())
opt_d = paddle.optimizer.Adam(learning_rate=2e-3, beta1=0.5, parameters=D.parameters())
bce = nn.BCEWithLogitsLoss()
rec = {"d_loss": [], "g_loss": [], "d_grad_after_g": []}
for step in range(20):
    real = paddle.to_tensor(real_data[(step * 32) % 256:(step * 32) % 256 + 32])
    z = paddle.to_tensor(noise[step])
    fake = G(z)
    ones, zeros = paddle.ones([32, 1]), paddle.zeros([32, 1])
    opt_d.clear_grad()
    d_loss = bce(D(real), ones) + bce(D(fake.detach()), zeros)
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), ones)
    opt_g.clear_grad()
    g_loss.backward()
    opt_g.step()
    rec["d_grad_after_g"].append(float(D[0].weight.grad.abs().sum()))
    rec["d_loss"].append(float(d_loss))
    rec["g_loss"].append(float(g_loss))
with paddle.no_grad():
    rec["samples"] = G(paddle.to_tensor(noise[0][:5])).numpy().tolist()
    rec["g_has_grad"] = G[0].weight.grad is not None
    rec["fake_stop_gradient"] = [fake.stop_gradient, fake.detach().stop_gradient]
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
