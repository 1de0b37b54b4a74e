"""A two-tower recommender: user/item Embeddings with sparse=True and Adam(lazy_mode=True), feature crosses with
bmm/einsum, F.normalize and cosine_similarity, in-batch softmax with a temperature, a triplet margin loss with
hard negatives by topk, paddle.unique / index_select / take_along_axis / scatter_nd_add for a popularity
correction, and evaluation of hit rate by argsort. The sparse gradients (Paddle's SelectedRows, None after clear_grad) and the lazy
Adam update of only the rows looked up agree with Paddle's."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

NU, NI, D = 30, 40, 8
rng = np.random.default_rng(0)
users = rng.integers(0, NU, size=(10, 16))
items = (users * 7 + rng.integers(0, 3, size=(10, 16))) % NI
feats = rng.standard_normal((10, 16, 4)).astype("float32")


class TwoTower(nn.Layer):
    def __init__(self):
        super().__init__()
        self.ue = nn.Embedding(NU, D, sparse=True)
        self.ie = nn.Embedding(NI, D, sparse=True)
        self.fx = nn.Linear(4, D)
        self.cross = self.create_parameter([D, D])

    def forward(self, u, i, f):
        uv = self.ue(u) + self.fx(f)
        iv = self.ie(i)
        crossed = paddle.bmm(uv.unsqueeze(1), paddle.einsum("bd,de->be", iv, self.cross).unsqueeze(2)).squeeze([1, 2])
        return F.normalize(uv, axis=-1), F.normalize(iv, axis=-1), crossed


model = TwoTower()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in model.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters(), lazy_mode=True)
pop = paddle.zeros([NI])
rec = {"loss": [], "hit": [], "uniq": []}
for step in range(10):
    u, i, f = paddle.to_tensor(users[step]), paddle.to_tensor(items[step]), paddle.to_tensor(feats[step])
    uq, counts = paddle.unique(i, return_counts=True)
    rec["uniq"].append(int(uq.shape[0]))
    pop = paddle.scatter_nd_add(pop, uq.unsqueeze(-1), counts.astype("float32"))
    uvn, ivn, crossed = model(u, i, f)
    logits = uvn @ ivn.t() / 0.2 - paddle.log(paddle.index_select(pop, i) / pop.sum()).unsqueeze(0) * 0.1
    same = (i.unsqueeze(0) == i.unsqueeze(1))
    logits = paddle.where(same & ~paddle.eye(16).astype("bool"), paddle.full_like(logits, -1e4), logits)
    soft = F.cross_entropy(logits, paddle.arange(16))
    sims = F.cosine_similarity(uvn.unsqueeze(1), ivn.unsqueeze(0), axis=-1)
    masked = paddle.where(same, paddle.full_like(sims, -2.0), sims)
    hard_idx = paddle.topk(masked, k=1, axis=1)[1]
    neg = paddle.take_along_axis(ivn.unsqueeze(0).expand([16, 16, D]), hard_idx.unsqueeze(-1).expand([16, 1, D]), axis=1).squeeze(1)
    trip = F.triplet_margin_loss(uvn, ivn, neg, margin=0.3)
    loss = soft + trip + 0.01 * (crossed ** 2).mean()
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["loss"].append(float(loss))
    order = paddle.argsort(uvn @ F.normalize(model.ie.weight, axis=-1).t(), axis=1, descending=True)[:, :5]
    rec["hit"].append(float((order == i.unsqueeze(1)).any(1).astype("float32").mean()))
rec["pop"] = pop.numpy().tolist()
rec["ie_grad_none"] = model.ie.weight.grad is None
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
