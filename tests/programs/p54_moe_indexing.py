"""A tiny mixture-of-experts layer written the way users write one: a softmax gate, top-2 routing by
``paddle.topk``, ``F.one_hot`` masks, expert capacity from ``paddle.cumsum``, dispatch by ``paddle.nonzero`` /
``paddle.gather`` / ``index_select`` / ``gather_nd`` and combination by ``paddle.index_add`` / ``scatter_nd_add`` /
``paddle.scatter`` (overwrite and accumulate), ``put_along_axis`` / ``take_along_axis`` for the dense combine
weights, ``masked_select`` / ``masked_fill`` / ``paddle.where`` for dropped tokens, ``paddle.bincount`` /
``paddle.unique`` (``return_counts`` / ``return_inverse`` / ``return_index``) / ``argsort`` for expert statistics
and a load-balancing auxiliary loss (Switch-Transformer style); trained 20 steps by Adam, recording losses,
routing decisions, expert loads and gradients. Then advanced indexing reads (boolean masks, integer arrays and
index tensors, mixed slices and arrays, negative indices and steps, ``None`` and ``...``) and writes
(``__setitem__`` with masks, arrays, broadcast values, tensors that need gradients, ``+=`` on an index) with the
gradients through them.

Routing inputs are continuous random values, so ``topk`` / ``argsort`` never meet ties (the order of tied values is
a documented difference).

Left out: an out-of-range integer index in a read (``a[[0, 9]]`` of 5 rows) gives memory past the tensor in Paddle
3.3.1 and an IndexError in pylayer_jax. Paddle lets ``e[:, 1:3] = e[:, 1:3] ** 2`` (and ``gelu`` / ``clip`` /
``erf`` of a column slice) through with the gradient of the old values, because those kernels take a contiguous copy
of a strided view and save the copy; other ops (``*``, ``sin``, ``log``, ...) raise its in-place-modification error
there, as pylayer_jax raises for all of them (write ``paddle.pow(e[:, 1:3].clone(), 2)``), so the program writes
``tanh`` of the slice, whose backward saves its output. Two Paddle gradients of writes are not mirrored: a one-element
value written through a bool mask (``b[mask] = v`` with ``v`` of shape [1]) gets a zero gradient in Paddle (ours is
the sum over the masked positions), and where an index array repeats a position (``b[[1, 1], 0] = v``) Paddle keeps
the last value but gives the gradient to the first (ours gives it to the value kept)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
rec = {}


def v(t):
    a = np.asarray(t.numpy())
    return a.tolist() if a.dtype.kind in "biu" else a.astype("float64").tolist()


N, D, H, E, K = 16, 8, 12, 4, 2
CAP = 9  # capacity per expert (token slots)


class Expert(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(D, H)
        self.fc2 = nn.Linear(H, D)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class MoE(nn.Layer):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(D, E, bias_attr=False)
        self.experts = nn.LayerList([Expert() for _ in range(E)])

    def forward(self, x, trace=None):
        n = x.shape[0]
        logits = self.gate(x)
        probs = F.softmax(logits, axis=-1)                        # [N, E]
        topv, topi = paddle.topk(probs, K, axis=-1)               # [N, K]
        topv = topv / topv.sum(-1, keepdim=True)
        mask = F.one_hot(topi, E)                                 # [N, K, E]
        # capacity: position of each (token, choice) in its expert's queue, first choices first
        flat = mask.transpose([1, 0, 2]).reshape([K * n, E])
        pos = (paddle.cumsum(flat, axis=0) - 1.0) * flat
        pos = pos.reshape([K, n, E]).transpose([1, 0, 2]).sum(-1)  # [N, K]
        keep = pos < CAP
        gates = paddle.where(keep, topv, paddle.zeros_like(topv))
        # dense combine weights [N, E] by put_along_axis, checked against take_along_axis
        combine = paddle.put_along_axis(paddle.zeros([n, E]), topi, gates, axis=1)
        back = paddle.take_along_axis(combine, topi, axis=1)
        out = paddle.zeros_like(x)
        for e in range(E):
            sel = (topi == e).logical_and(keep)                    # [N, K]
            rows = paddle.nonzero(sel.any(-1)).flatten()
            if rows.shape[0] == 0:
                continue
            if e % 2 == 0:
                xe = paddle.gather(x, rows)
            else:
                xe = paddle.index_select(x, rows, axis=0)
            ye = self.experts[e](xe)
            w = paddle.gather_nd(combine, paddle.stack([rows, paddle.full_like(rows, e)], -1)).unsqueeze(-1)
            if e < 2:
                out = paddle.index_add(out, rows, 0, ye * w)
            else:
                out = paddle.scatter_nd_add(out, rows.unsqueeze(-1), ye * w)
        # load balancing: fraction of first choices per expert times mean gate probability
        counts = paddle.bincount(topi[:, 0], minlength=E)
        frac = counts.astype("float32") / n
        aux = E * (frac * probs.mean(0)).sum()
        if trace is not None:
            trace.update(topi=topi, topv=topv, pos=pos, keep=keep, combine=combine, back=back, counts=counts,
                         probs=probs, flat=flat)
        return out, aux


model = MoE()
pr = np.random.default_rng(1)
model.set_state_dict({k: (pr.standard_normal(p.shape) * (0.5 if p.ndim > 1 else 0.1)).astype("float32")
                      for k, p in model.state_dict().items()})
rec["state_keys"] = sorted(model.state_dict().keys())
X = rng.standard_normal((64, D)).astype("float32")
Wt = rng.standard_normal((D, D)).astype("float32") * 0.5
Y = np.tanh(X @ Wt).astype("float32")
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
rec["loss"], rec["aux"], rec["loads"] = [], [], []
for step in range(20):
    i = (step % 4) * N
    x, y = paddle.to_tensor(X[i:i + N]), paddle.to_tensor(Y[i:i + N])
    tr = {}
    out, aux = model(x, tr)
    loss = F.mse_loss(out, y) + 0.01 * aux
    loss.backward()
    if step in (0, 7, 19):
        rec[f"route_{step}"] = {k: v(t) for k, t in tr.items()}
        rec[f"grads_{step}"] = {n: None if p.grad is None else v(p.grad) for n, p in model.named_parameters()}
    opt.step()
    opt.clear_grad()
    rec["loss"].append(loss.item())
    rec["aux"].append(aux.item())
    rec["loads"].append(v(tr["counts"]))

# ---- routing statistics on the whole set ------------------------------------------------------
model.eval()
with paddle.no_grad():
    tr = {}
    out, aux = model(paddle.to_tensor(X), tr)
    topi = tr["topi"]
rec["eval_out"] = v(out[:5])
u, idx, inv, cnt = paddle.unique(topi.flatten(), return_index=True, return_inverse=True, return_counts=True)
rec["unique"] = [v(u), v(idx), v(inv), v(cnt), str(u.dtype), str(cnt.dtype)]
u2, cnt2 = paddle.unique(topi, axis=0, return_counts=True)
rec["unique_rows"] = [v(u2), v(cnt2)]
rec["unique_i32"] = str(paddle.unique(topi, dtype="int32", return_inverse=True)[1].dtype)
score = topi[:, 0].astype("float32") + tr["probs"].max(-1)      # distinct keys: expert id then confidence
order = paddle.argsort(score, descending=True)
rec["argsort"] = [v(order), v(paddle.argsort(score, stable=True)), v(paddle.sort(score))]
rec["bincount_w"] = v(paddle.bincount(topi[:, 1], weights=tr["topv"][:, 1], minlength=6))
dropped = tr["keep"].logical_not()
rec["dropped"] = [int(dropped.sum()), v(paddle.masked_select(tr["topv"], dropped)),
                  v(paddle.nonzero(dropped)), [v(t) for t in paddle.nonzero(dropped, as_tuple=True)]]
rec["masked_fill"] = v(paddle.masked_fill(tr["probs"][:6], tr["probs"][:6] < 0.2, -1.0))
per_expert = paddle.scatter(paddle.zeros([E, D]), topi[:8, 0], paddle.to_tensor(X[:8]), overwrite=False)
rec["scatter_add"] = v(per_expert)
rec["put_along_amax_noself"] = v(paddle.put_along_axis(paddle.full([64, E], -1.0), topi, tr["topv"], axis=1,
                                                       reduce="amax", include_self=False)[:8])
rec["put_along_mul_noself"] = v(paddle.put_along_axis(paddle.full([64, E], 5.0), topi[:, :1].expand([64, K]),
                                                      tr["topv"], axis=1, reduce="mul", include_self=False)[:8])
rec["scatter_n1"] = v(paddle.scatter(paddle.zeros([E, D]), topi[:8, :1], paddle.to_tensor(X[:8]), overwrite=False))
first = paddle.argsort(topi[:, 0].astype("float32") * 100 + paddle.arange(64, dtype="float32"))
rec["scatter_overwrite"] = v(paddle.scatter(paddle.zeros([6, D]), paddle.to_tensor([5, 0, 3]),
                                            paddle.to_tensor(X[first.numpy()[:3]])))
rec["scatter_nd"] = v(paddle.scatter_nd(paddle.to_tensor([[1, 2], [0, 0], [1, 2]]), paddle.to_tensor([1.0, 2.0, 3.0]),
                                        [2, 3]))

# gradients of the dispatch/combine primitives directly
xs = paddle.to_tensor(rng.standard_normal((5, 3)).astype("float32"), stop_gradient=False)
up = paddle.to_tensor(rng.standard_normal((4, 3)).astype("float32"), stop_gradient=False)
ix = paddle.to_tensor([3, 0, 3, 1])
wgt = paddle.arange(15, dtype="float32").reshape([5, 3])
(paddle.scatter(xs, ix, up, overwrite=False) * wgt).sum().backward()
rec["scatter_acc_grads"] = [v(xs.grad), v(up.grad)]
xs.clear_gradient()
up.clear_gradient()
ixu = paddle.to_tensor([4, 0, 2, 1])
(paddle.scatter(xs, ixu, up) * wgt).sum().backward()
rec["scatter_ow_grads"] = [v(xs.grad), v(up.grad)]
xs.clear_gradient()
up.clear_gradient()
(paddle.index_add(xs, ix, 0, up, alpha=0.5) * wgt).sum().backward()
rec["index_add_grads"] = [v(xs.grad), v(up.grad)]
xs.clear_gradient()
up.clear_gradient()
(paddle.scatter_nd_add(xs, paddle.to_tensor([[3, 1], [0, 2], [3, 1], [4, 0]]), up[:, 0]) * wgt).sum().backward()
rec["scatter_nd_add_grads"] = [v(xs.grad), v(up.grad)]
xs.clear_gradient()
ti = paddle.to_tensor([[2, 0], [1, 1], [0, 2], [2, 2], [1, 0]])
(paddle.take_along_axis(xs, ti, axis=1) * paddle.to_tensor([1.0, -2.0])).sum().backward()
rec["take_along_grads"] = v(xs.grad)
xs.clear_gradient()
pv = paddle.to_tensor(rng.standard_normal((5, 1)).astype("float32"), stop_gradient=False)
pa = paddle.put_along_axis(xs, paddle.to_tensor([[2], [0], [1], [2], [0]]), pv, axis=1)
(pa * wgt).sum().backward()
rec["put_along_grads"] = [v(pa), v(xs.grad), v(pv.grad)]
xs.clear_gradient()
pv.clear_gradient()
pa2 = paddle.put_along_axis(xs, paddle.to_tensor([[2, 2], [0, 1], [1, 1], [2, 0], [0, 0]]),
                            paddle.concat([pv, pv * 2], 1), axis=1, reduce="add")
(pa2 * wgt).sum().backward()
rec["put_along_add"] = [v(pa2), v(xs.grad), v(pv.grad)]
xs.clear_gradient()
(paddle.gather_nd(xs, paddle.to_tensor([[1, 2], [4, 0], [1, 2]])) * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
rec["gather_nd_grads"] = v(xs.grad)
xs.clear_gradient()
(paddle.masked_select(xs, xs > 0) ** 2).sum().backward()
rec["masked_select_grads"] = v(xs.grad)
xs.clear_gradient()
(paddle.gather(xs, paddle.to_tensor([2, 0, 2]), axis=1) * paddle.arange(15, dtype="float32").reshape([5, 3])).sum().backward()
rec["gather_axis1_grads"] = v(xs.grad)
xs.clear_gradient()
cs = paddle.cumsum(xs, axis=0)
(cs * wgt).sum().backward()
rec["cumsum"] = [v(cs), v(xs.grad), str(paddle.cumsum(paddle.to_tensor([1, 2, 3])).dtype),
                 v(paddle.cumsum(paddle.to_tensor([[1, 2], [3, 4]])))]

# ---- advanced indexing reads ------------------------------------------------------------------
a = paddle.to_tensor(rng.standard_normal((5, 6)).astype("float32"), stop_gradient=False)
m = paddle.to_tensor(rng.standard_normal((5, 6)) > 0.3)
rowmask = paddle.to_tensor([True, False, True, True, False])
reads = {
    "bool": a[m],
    "ints": a[[0, 2, 4]],
    "ints_rep": a[paddle.to_tensor([1, 1, 3])],
    "tensor_slice": a[paddle.to_tensor([4, 0]), 1:4],
    "neg_step": a[-1, ::-2],
    "cols": a[:, [1, -1]],
    "pairs": a[[0, 1, 1], [2, 3, 3]],
    "none_ell": a[None, 1:3, ...],
    "rowmask": a[rowmask, :2],
    "idx2d": a[paddle.to_tensor([[0, 1], [2, 3]])],
    "chain": a[1:4][:, [0, 5]],
    "neg_ints": a[[-1, -2], -3],
    "ell_cols": a[..., [0, 2]],
    "slice_pair": a[1:3, 2:-1],
}
rec["reads"] = {k: [list(t.shape), v(t)] for k, t in reads.items()}
total = sum((t * (i + 1)).sum() for i, t in enumerate(reads.values()))
total.backward()
rec["reads_grad"] = v(a.grad)

# ---- advanced indexing writes ------------------------------------------------------------------
a.clear_gradient()
c = paddle.to_tensor(rng.standard_normal((5,)).astype("float32"), stop_gradient=False)
d = paddle.to_tensor(rng.standard_normal((2,)).astype("float32"), stop_gradient=False)
b = a * 1.0
b[m] = 0.0
b[[0, 2], 1:3] = d                       # broadcast over the selected rows
b[:, -1] = c
b[b > 1.0] = 1.0
b[1] += 3.0
b[..., 0] = c * 2
b[paddle.to_tensor([3, 4]), paddle.to_tensor([2, 4])] = d * d
b[rowmask, 3] = paddle.to_tensor([7.0, 8.0, 9.0])
b[-1, -2:] = paddle.to_tensor([[0.5, -0.5]])
(b * paddle.arange(30, dtype="float32").reshape([5, 6])).sum().backward()
rec["writes"] = [v(b), v(a.grad), v(c.grad), v(d.grad)]
a.clear_gradient()
e = a.clone()
e[e < 0] = e[e < 0] * 0.1                # a leaky mask written from its own values
e[:, 1:3] = paddle.tanh(e[:, 1:3]) * 2.0
(e.sum() * 2).backward()
rec["writes_self"] = [v(e), v(a.grad)]
with paddle.no_grad():
    z = paddle.zeros([4, 4])
    z[paddle.to_tensor([0, 3])] = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
    z[1:3, paddle.to_tensor([True, False, True, False])] = 5.0
    z[2, [0, 1]] += paddle.to_tensor([0.25, 0.75])
rec["nograd_writes"] = v(z)
try:
    z[paddle.to_tensor([True, False])] = 1.0
    rec["bad_mask"] = None
except Exception as ex:
    rec["bad_mask"] = type(ex).__name__
try:
    paddle.index_add(z, paddle.to_tensor([0, 9]), 0, paddle.ones([2, 4]))
    rec["bad_index_add"] = None
except Exception as ex:
    rec["bad_index_add"] = type(ex).__name__

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
