"""Initializers through ParamAttr (XavierUniform, KaimingNormal, Constant, Normal, TruncatedNormal, Assign),
dropout in train vs eval under paddle.seed, and a loss using indexing, scatter, gather_nd, masked_select,
put_along_axis; topk / argsort metrics (recall@k, MRR)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rec = {}
paddle.seed(2024)
init = nn.initializer
lin_x = nn.Linear(64, 32, weight_attr=paddle.ParamAttr(initializer=init.XavierUniform()),
                  bias_attr=paddle.ParamAttr(initializer=init.Constant(0.25)))
lin_k = nn.Linear(64, 32, weight_attr=paddle.ParamAttr(initializer=init.KaimingNormal()), bias_attr=False)
conv = nn.Conv2D(3, 8, 3, weight_attr=init.KaimingUniform(), bias_attr=paddle.ParamAttr(initializer=init.Normal(0.0, 0.01)))
tn = paddle.create_parameter([200, 50], "float32", default_initializer=init.TruncatedNormal(std=0.5))
asg = paddle.create_parameter([2, 3], "float32", default_initializer=init.Assign(np.arange(6).reshape(2, 3)))
wx, wk, wc = lin_x.weight.numpy(), lin_k.weight.numpy(), conv.weight.numpy()
rec["init"] = {
    "xavier_bound_ok": bool(np.abs(wx).max() <= np.sqrt(6 / 96) + 1e-6), "xavier_std": round(float(wx.std()), 1),
    "kaiming_std": round(float(wk.std()), 1), "kaiming_u_bound_ok": bool(np.abs(wc).max() <= np.sqrt(6 / 27) + 1e-6),
    "bias_const": lin_x.bias.numpy().tolist()[:3], "lin_k_bias": lin_k.bias is None,
    "conv_bias_small": bool(np.abs(conv.bias.numpy()).max() < 0.05), "tn_max_ok": bool(np.abs(tn.numpy()).max() <= 1.0 + 1e-6),
    "assign": asg.numpy().tolist(), "dtypes": [str(p.dtype) for p in (lin_x.weight, asg)],
    "trainable": [not p.stop_gradient for p in (lin_x.weight, tn)],
}

drop = nn.Dropout(0.5)
x = paddle.ones([4, 1000])
paddle.seed(7)
a = drop(x)
paddle.seed(7)
b = drop(x)
drop.eval()
c = drop(x)
rec["dropout"] = {"same_seed_same_mask": bool((a == b).all()), "values": sorted(set(np.unique(a.numpy()).tolist())),
                  "frac_zero_close": bool(abs(float((a == 0).astype("float32").mean()) - 0.5) < 0.05),
                  "eval_identity": bool((c == x).all()),
                  "F_eval": F.dropout(x, 0.3, training=False).sum().item(),
                  "downscale": sorted(set(np.unique(F.dropout(x, 0.5, training=False, mode="downscale_in_infer").numpy()).tolist()))}

rng = np.random.default_rng(0)
emb = nn.Embedding(20, 8)
emb.weight.set_value(rng.standard_normal((20, 8)).astype("float32"))
proj = nn.Linear(8, 20)
proj.weight.set_value((rng.standard_normal((8, 20)) * 0.3).astype("float32"))
proj.bias.set_value(np.zeros(20, "float32"))
opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=emb.parameters() + proj.parameters())
items = rng.integers(0, 20, size=(10, 16, 4))
targets = (items.sum(-1) % 20).astype("int64")
losses, recall, mrr = [], [], []
for step in range(10):
    ids = paddle.to_tensor(items[step])
    tgt = paddle.to_tensor(targets[step])
    h = emb(ids).mean(1)                                   # [16, 8]
    logits = proj(h)                                       # [16, 20]
    picked = paddle.gather_nd(logits, paddle.stack([paddle.arange(16), tgt], 1))
    lse = paddle.logsumexp(logits, axis=1)
    nll = lse - picked
    mask = tgt % 2 == 0
    weights = paddle.ones([16]).scatter(paddle.nonzero(mask).flatten(), paddle.full([int(mask.sum())], 2.0))
    hard = paddle.masked_select(nll, nll > nll.mean())
    onehot = paddle.zeros_like(logits).put_along_axis(tgt.unsqueeze(1), 1.0, axis=1)
    margin = (logits * (1 - onehot)).max(axis=1) - (logits * onehot).sum(1)
    loss = (nll * weights).mean() + 0.1 * hard.mean() + 0.05 * F.relu(margin + 1).mean() + 0.01 * logits[:, ::2].pow(2).mean()
    loss.backward()
    opt.step()
    opt.clear_grad()
    losses.append(loss.item())
    top5 = paddle.topk(logits, k=5, axis=1)[1]
    recall.append(float((top5 == tgt.unsqueeze(1)).any(axis=1).astype("float32").mean()))
    ranks = paddle.argsort(logits, axis=1, descending=True)
    pos = paddle.nonzero(ranks == tgt.unsqueeze(1))[:, 1]
    mrr.append(float((1.0 / (pos.astype("float32") + 1)).mean()))
rec["loss"], rec["recall5"], rec["mrr"] = losses, recall, mrr
rec["hard_n"] = int(hard.shape[0])
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
