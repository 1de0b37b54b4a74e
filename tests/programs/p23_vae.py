"""A VAE on binary 4x4 images: an MLP encoder giving mean and log-variance, the reparameterisation trick (noise
from numpy for training; paddle.randn_like checked only by shape/dtype/statistics), F.binary_cross_entropy on a
sigmoid decoder with reduction='sum', the analytic KL term compared with paddle.distribution.Normal's
kl_divergence, log_prob, entropy and rsample (statistics), a KL warm-up, Adam(beta1=0.8) with
ExponentialDecay; then the ELBO on held-out data and decoding of a latent grid."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.distribution import Normal, kl_divergence

rng = np.random.default_rng(0)
protos = (rng.random((3, 16)) > 0.5).astype("float32")
X = np.clip(protos[rng.integers(0, 3, size=96)] + (rng.random((96, 16)) < 0.1), 0, 1).astype("float32")
X = np.abs(X - (rng.random((96, 16)) < 0.05)).astype("float32")
Z = 2


class VAE(nn.Layer):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(16, 32), nn.Tanh())
        self.mu = nn.Linear(32, Z)
        self.logvar = nn.Linear(32, Z)
        self.dec = nn.Sequential(nn.Linear(Z, 32), nn.LeakyReLU(0.1), nn.Linear(32, 16), nn.Sigmoid())

    def encode(self, x):
        h = self.enc(x)
        return self.mu(h), self.logvar(h)

    def forward(self, x, eps):
        mu, logvar = self.encode(x)
        std = paddle.exp(0.5 * logvar)
        z = mu + eps * std
        return self.dec(z), mu, logvar


model = VAE()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in model.state_dict().items()})
sched = paddle.optimizer.lr.ExponentialDecay(learning_rate=0.01, gamma=0.95)
opt = paddle.optimizer.Adam(learning_rate=sched, beta1=0.8, parameters=model.parameters())
rec = {"loss": [], "rec": [], "kl": [], "kl_dist": []}
for step in range(20):
    i = (step % 6) * 16
    x = paddle.to_tensor(X[i:i + 16])
    eps = paddle.to_tensor(rng.standard_normal((16, Z)).astype("float32"))
    xr, mu, logvar = model(x, eps)
    rec_loss = F.binary_cross_entropy(xr, x, reduction="sum") / 16
    kl = -0.5 * paddle.sum(1 + logvar - mu.pow(2) - logvar.exp(), axis=1).mean()
    q = Normal(mu, paddle.exp(0.5 * logvar))
    p = Normal(paddle.zeros_like(mu), paddle.ones_like(mu))
    kl_d = kl_divergence(q, p).sum(-1).mean()
    beta = min(1.0, (step + 1) / 10)
    loss = rec_loss + beta * kl
    loss.backward()
    opt.step()
    opt.clear_grad()
    sched.step()
    rec["loss"].append(loss.item())
    rec["rec"].append(rec_loss.item())
    rec["kl"].append(kl.item())
    rec["kl_dist"].append(kl_d.item())

model.eval()
with paddle.no_grad():
    x = paddle.to_tensor(X[:8])
    mu, logvar = model.encode(x)
    q = Normal(mu, paddle.exp(0.5 * logvar))
    z = paddle.to_tensor(rng.standard_normal((8, Z)).astype("float32"))
    rec["log_prob"] = q.log_prob(z).numpy().tolist()
    rec["entropy"] = q.entropy().numpy().tolist()
    rec["q_mean_var"] = [q.mean.numpy().tolist(), q.variance.numpy().tolist()]
    paddle.seed(5)
    noise = paddle.randn_like(mu)
    rec["randn_like"] = [list(noise.shape), str(noise.dtype)]
    big = Normal(paddle.full([4000], 1.5), paddle.full([4000], 0.5))
    s = big.sample([2])
    rec["sample_stats"] = [list(s.shape), round(float(s.mean()), 1), round(float(s.std()), 1)]
    rs = big.rsample([3])
    rec["rsample_shape"] = list(rs.shape)
    xr, _, _ = model(x, paddle.zeros([8, Z]))
    rec["elbo_mean_recon"] = F.binary_cross_entropy(xr, x, reduction="none").sum(-1).numpy().tolist()
    grid = paddle.to_tensor(np.stack(np.meshgrid(np.linspace(-2, 2, 3), np.linspace(-2, 2, 3)), -1).reshape(-1, 2).astype("float32"))
    rec["decoded"] = (model.dec(grid) > 0.5).astype("int32").sum(-1).numpy().tolist()
    rec["bce_weight"] = F.binary_cross_entropy(xr, x, weight=paddle.linspace(0.5, 1.5, 16)).item()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
