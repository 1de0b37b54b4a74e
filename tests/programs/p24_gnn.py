"""A graph neural network for node classification: GCN layers by paddle.geometric.send_u_recv with symmetric degree
normalisation (degrees by index_add / bincount), a GraphSAGE-style mean aggregator by segment_mean on sorted
edges, edge-weighted messages by send_ue_recv, a GAT-style attention with a per-destination softmax built from
segment_max / scatter / gather, train/val masks by masked_select, Adam with L2Decay, and the accuracy per mask."""
import json
import os

import numpy as np
import paddle
import paddle.geometric as G
import paddle.nn as nn
import paddle.nn.functional as F

N, FIN, HID, NC = 30, 6, 12, 3
rng = np.random.default_rng(0)
labels = rng.integers(0, NC, size=N)
feats = (np.eye(NC)[labels] @ rng.standard_normal((NC, FIN)) + 0.8 * rng.standard_normal((N, FIN))).astype("float32")
edges = set()
for i in range(N):
    for j in rng.choice(N, size=3, replace=False):
        if i != j and (labels[i] == labels[j] or rng.random() < 0.3):
            edges.add((i, int(j)))
            edges.add((int(j), i))
edges = sorted(edges, key=lambda e: (e[1], e[0]))           # sorted by destination for segment ops
src = paddle.to_tensor(np.array([e[0] for e in edges] + list(range(N)), "int64"))
dst = paddle.to_tensor(np.array([e[1] for e in edges] + list(range(N)), "int64"))
E = src.shape[0]
order = paddle.argsort(dst, stable=True)
src_s, dst_s = src[order], dst[order]
ew0 = rng.uniform(0.5, 1.5, size=(E, 1)).astype("float32")

deg = paddle.zeros([N]).index_add(dst, 0, paddle.ones([E]))
deg2 = paddle.bincount(dst, minlength=N).astype("float32")
norm = (deg[src] * deg[dst]).rsqrt().unsqueeze(-1)
train_mask = paddle.to_tensor(np.arange(N) % 3 != 0)
val_mask = ~train_mask
y = paddle.to_tensor(labels.astype("int64"))


class GNN(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(FIN, HID)
        self.sage_self = nn.Linear(HID, HID)
        self.sage_nb = nn.Linear(HID, HID, bias_attr=False)
        self.att_src = self.create_parameter([HID], default_initializer=nn.initializer.Constant(0.1))
        self.att_dst = self.create_parameter([HID], default_initializer=nn.initializer.Constant(-0.1))
        self.out = nn.Linear(HID, NC)
        self.edge_w = self.create_parameter([E, 1], default_initializer=nn.initializer.Assign(ew0))

    def forward(self, x):
        h = self.l1(x)
        h = G.send_u_recv(h * deg.rsqrt().unsqueeze(-1), src, dst, reduce_op="sum") * deg.rsqrt().unsqueeze(-1)
        h = F.relu(h)
        nb = G.segment_mean(h[src_s], dst_s)
        h = F.relu(self.sage_self(h) + self.sage_nb(nb))
        hw = G.send_ue_recv(h, self.edge_w, src, dst, message_op="mul", reduce_op="mean")
        score = F.leaky_relu((h[src] * self.att_src).sum(-1) + (h[dst] * self.att_dst).sum(-1), 0.2)
        smax = G.segment_max(score[order], dst_s)
        ex = paddle.exp(score - smax[dst])
        denom = G.send_u_recv(ex.unsqueeze(-1), paddle.arange(E), dst, "sum", out_size=N).squeeze(-1)
        alpha = ex / denom[dst]
        agg = paddle.zeros([N, HID]).index_add(dst, 0, alpha.unsqueeze(-1) * h[src])
        return self.out(agg + hw), alpha


model = GNN()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.4).astype("float32") for k, v in model.state_dict().items()
                      if k != "edge_w"})
opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=model.parameters(), weight_decay=paddle.regularizer.L2Decay(5e-4))
rec = {"deg_same": bool((deg == deg2).all()), "E": int(E), "loss": [], "train_acc": [], "val_acc": []}
for _step in range(25):
    logits, alpha = model(paddle.to_tensor(feats))
    loss = F.cross_entropy(logits[train_mask], y[train_mask])
    loss.backward()
    opt.step()
    opt.clear_grad()
    pred = logits.argmax(-1)
    rec["loss"].append(loss.item())
    rec["train_acc"].append(float((pred == y).astype("float32").masked_select(train_mask).mean()))
    rec["val_acc"].append(float(paddle.masked_select((pred == y).astype("float32"), val_mask).mean()))
alpha_sum = paddle.zeros([N]).put_along_axis(dst, alpha, axis=0, reduce="add")
rec["alpha_sum_one"] = bool(paddle.allclose(alpha_sum, paddle.ones([N]), atol=1e-5).item())
rec["alpha"] = alpha[:10].numpy().tolist()
rec["segment"] = [G.segment_sum(paddle.arange(6, dtype="float32"), paddle.to_tensor([0, 0, 1, 1, 1, 3])).numpy().tolist(),
                  G.segment_min(paddle.to_tensor([[3.0, 1.0], [2.0, 5.0], [4.0, 0.0]]), paddle.to_tensor([0, 0, 2])).numpy().tolist()]
rec["recv_max"] = G.send_u_recv(paddle.to_tensor([[1.0], [5.0], [2.0]]), paddle.to_tensor([0, 1, 2, 0]),
                                paddle.to_tensor([1, 1, 0, 2]), reduce_op="max").numpy().tolist()
rec["uv"] = G.send_uv(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]), paddle.to_tensor([[1.0, 0.0], [0.0, 2.0]]),
                      paddle.to_tensor([0, 1]), paddle.to_tensor([1, 1]), message_op="add").numpy().tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
