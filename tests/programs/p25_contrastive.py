"""Metric learning: a SimCLR-style NT-Xent loss (F.normalize, matmul, a temperature, the diagonal masked out by
fill_diagonal_ and paddle.eye, cross_entropy over 2N-1 logits), a learnable temperature clipped with clip_,
margin_ranking_loss and cosine_embedding_loss on pairs, multi_margin_loss, triplet_margin_with_distance_loss with
a custom distance, paddle.cdist and pairwise_distance, SGD with momentum under CosineAnnealingDecay stepped by
epoch; then retrieval recall@k by argsort."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
K, DIN, DE = 6, 10, 8
centers = rng.standard_normal((K, DIN)).astype("float32") * 2
cls = rng.integers(0, K, size=64)
base = centers[cls] + rng.standard_normal((64, DIN)).astype("float32") * 0.5
view1 = base + rng.standard_normal(base.shape).astype("float32") * 0.3
view2 = base * rng.uniform(0.8, 1.2, size=(64, 1)).astype("float32")


class Encoder(nn.Layer):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIN, 32), nn.BatchNorm1D(32), nn.ReLU(), nn.Linear(32, DE))
        self.log_t = self.create_parameter([1], default_initializer=nn.initializer.Constant(float(np.log(0.5))))
        self.cls = nn.Linear(DE, K)

    def forward(self, x):
        return self.net(x)


def nt_xent(z1, z2, t):
    z = F.normalize(paddle.concat([z1, z2], 0), axis=1)
    n = z1.shape[0]
    sim = paddle.matmul(z, z, transpose_y=True) / t
    sim = sim - paddle.eye(2 * n) * 1e9
    target = paddle.concat([paddle.arange(n, 2 * n), paddle.arange(0, n)])
    return F.cross_entropy(sim, target)


model = Encoder()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") if "_mean" not in k and "_variance" not in k
                      else v.numpy() for k, v in model.state_dict().items()})
sched = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.1, T_max=4, eta_min=0.01)
opt = paddle.optimizer.Momentum(learning_rate=sched, momentum=0.9, parameters=model.parameters(), use_nesterov=True)
rec = {"loss": [], "t": [], "lr": []}
for _epoch in range(4):
    for i in range(0, 64, 16):
        z1, z2 = model(paddle.to_tensor(view1[i:i + 16])), model(paddle.to_tensor(view2[i:i + 16]))
        t = model.log_t.exp()
        l_con = nt_xent(z1, z2, t)
        y = paddle.to_tensor(cls[i:i + 16])
        same = (y.unsqueeze(0) == y.unsqueeze(1)).astype("float32") * 2 - 1
        e1, e2 = F.normalize(z1, axis=1), F.normalize(z2, axis=1)
        d = paddle.cdist(e1, e2)
        l_rank = F.margin_ranking_loss(d.diagonal(), d[:, ::-1].diagonal(), paddle.full([16], -1.0), margin=1.2)
        l_cos = F.cosine_embedding_loss(z1, z2[::-1], same[paddle.arange(16), 15 - paddle.arange(16)],
                                        margin=0.1)
        l_mm = F.multi_margin_loss(model.cls(z1), y, p=1, margin=1.0)
        neg = paddle.roll(e2, shifts=1, axis=0)
        l_trip = F.triplet_margin_with_distance_loss(e1, e2, neg, distance_function=lambda a, b: 1 - (a * b).sum(-1),
                                                     margin=0.3, swap=True)
        loss = l_con + 0.5 * l_rank + 0.5 * l_cos + 0.2 * l_mm + l_trip
        loss.backward()
        opt.step()
        opt.clear_grad()
        with paddle.no_grad():
            model.log_t.clip_(np.log(0.05), np.log(1.0))
        rec["loss"].append([loss.item(), l_con.item(), l_rank.item(), l_cos.item(), l_mm.item(), l_trip.item()])
        rec["t"].append(model.log_t.item())
    sched.step()
    rec["lr"].append(sched.get_lr())

model.eval()
with paddle.no_grad():
    q = F.normalize(model(paddle.to_tensor(view1)), axis=1)
    g = F.normalize(model(paddle.to_tensor(view2)), axis=1)
    sim = q @ g.T
    sim.fill_diagonal_(-2.0)
    top = paddle.argsort(sim, axis=1, descending=True)[:, :5]
    same_cls = paddle.to_tensor(cls)[top] == paddle.to_tensor(cls).unsqueeze(1)
    rec["recall5"] = float(same_cls.any(1).astype("float32").mean())
    rec["pdist"] = F.pairwise_distance(q[:4], g[:4], p=2.0, keepdim=True).numpy().tolist()
    rec["cdist_l1"] = paddle.cdist(q[:3], g[:4], p=1.0).numpy().tolist()
    rec["bn_running"] = model.net[1]._mean.numpy()[:4].tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
