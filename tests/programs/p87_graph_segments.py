"""Graph and segment ops as GNN code uses them: paddle.geometric.segment_sum / mean / max / min (sorted ids with an
empty segment in the middle, int and float64 data, the output's row count = max id + 1, unsorted ids caught as an
error) and their gradients (max / min ties: which rows get the gradient), the paddle.incubate.segment_* twins;
send_u_recv with reduce_op sum / mean / max / min and out_size (larger and smaller than the node count), the
gradient of each reduction (ties under max / min); send_ue_recv with message_op add / sub / mul / div crossed with
the reductions, an edge feature broadcast over node features, gradients to both x and y; send_uv with each
message_op and its gradients; reindex_graph and reindex_heter_graph on sampled neighbourhoods; sample_neighbors
with sample_size >= every degree (deterministic), with return_eids, and weighted_sample_neighbors the same way
(sample_size=-1, "take every neighbour", is left out: Paddle 3.3.1's CPU kernel aborts the process with
std::length_error on it; ours returns every neighbour); then a two-layer GCN (symmetric normalisation by
send_ue_recv with learnable edge weights) and a GraphSAGE model (mean and max aggregators by send_u_recv) trained a few steps with Adam / SGD on a fixed small graph, losses, gradient
norms and predictions recorded; index shapes ([E] and [E, 1] taken, [1, E] refused) and a node repeated in
reindex_graph's x (known by its last position, as Paddle).

Kept out, where Paddle 3.3.1 gives garbage and we raise a clear error instead: reindex_graph with counts that do not
add up to the neighbours, send_uv with an index beyond y's rows, segment reductions of bfloat16 (Paddle: no CPU
kernel; ours computes them)."""
import json
import os

import numpy as np
import paddle
import paddle.geometric as G
import paddle.nn as nn
import paddle.nn.functional as F

rec = {}


def v(t):
    return t.numpy().tolist()


def g(t):
    return None if t.grad is None else t.grad.numpy().tolist()


def leaf(a, dtype="float32"):
    t = paddle.to_tensor(np.asarray(a, dtype=dtype))
    t.stop_gradient = False
    return t


# ---- segment reductions -----------------------------------------------------------------------
data_np = np.array([[1.0, 5.0], [3.0, 5.0], [3.0, 2.0], [0.0, -1.0], [7.0, 7.0], [7.0, 6.0]], "float32")
ids = paddle.to_tensor([0, 0, 0, 2, 3, 3])
for name in ("sum", "mean", "max", "min"):
    for mod in ("geometric", "incubate"):
        fn = getattr(G if mod == "geometric" else paddle.incubate, "segment_" + name)
        x = leaf(data_np)
        out = fn(x, ids)
        (out * paddle.arange(out.size, dtype="float32").reshape(out.shape)).sum().backward()
        rec[f"seg_{name}_{mod}"] = [v(out), list(out.shape), str(out.dtype), g(x)]
    rec[f"seg_{name}_int32ids"] = v(getattr(G, "segment_" + name)(paddle.to_tensor(data_np),
                                                                 paddle.to_tensor([0, 1, 1, 1, 4, 4], dtype="int32")))
    rec[f"seg_{name}_f64"] = [v(r) for r in [getattr(G, "segment_" + name)(paddle.to_tensor(data_np, dtype="float64"), ids)]]
    rec[f"seg_{name}_dtype64"] = str(getattr(G, "segment_" + name)(paddle.to_tensor(data_np, dtype="float64"), ids).dtype)
    rec[f"seg_{name}_3d"] = v(getattr(G, "segment_" + name)(paddle.arange(24, dtype="float32").reshape([4, 3, 2]),
                                                           paddle.to_tensor([0, 1, 1, 1])))
try:
    G.segment_sum(paddle.to_tensor(data_np), paddle.to_tensor([1, 0, 0, 2, 3, 3]))
    rec["seg_unsorted"] = "no error"
except Exception as e:  # noqa: BLE001
    rec["seg_unsorted"] = type(e).__name__

# ---- send_u_recv ------------------------------------------------------------------------------
xn = np.array([[1.0, 2.0], [3.0, 3.0], [3.0, -1.0], [0.5, 4.0]], "float32")
src = paddle.to_tensor([0, 1, 2, 3, 1, 0])
dst = paddle.to_tensor([1, 0, 0, 0, 2, 2])
wsum = paddle.to_tensor(np.arange(1, 11, dtype="float32").reshape([5, 2]))
for op in ("sum", "mean", "max", "min"):
    for osz in (None, 5, 3, 2):
        x = leaf(xn)
        try:
            out = G.send_u_recv(x, src, dst, reduce_op=op, out_size=osz)
        except Exception as e:  # noqa: BLE001  (out_size below max(dst) + 1)
            rec[f"u_recv_{op}_{osz}"] = type(e).__name__
            continue
        (out * wsum[: out.shape[0]]).sum().backward()
        rec[f"u_recv_{op}_{osz}"] = [v(out), list(out.shape), g(x)]
x = leaf(xn)
out = G.send_u_recv(x, src.astype("int32"), dst.astype("int32"), reduce_op="mean", out_size=paddle.to_tensor(4))
out.sum().backward()
rec["u_recv_int32_tensor_out_size"] = [v(out), g(x)]

# ---- send_ue_recv -----------------------------------------------------------------------------
ye = np.array([[2.0], [1.0], [-1.0], [0.5], [4.0], [2.0]], "float32")
ye2 = np.array([[2.0, 1.0], [1.0, 1.0], [-1.0, 3.0], [0.5, 0.5], [4.0, 2.0], [2.0, 2.0]], "float32")
for mop in ("add", "sub", "mul", "div"):
    for rop in ("sum", "mean", "max", "min"):
        for yname, yv in (("col", ye), ("full", ye2)):
            x, y = leaf(xn), leaf(yv)
            out = G.send_ue_recv(x, y, src, dst, message_op=mop, reduce_op=rop)
            (out * wsum[: out.shape[0]]).sum().backward()
            rec[f"ue_recv_{mop}_{rop}_{yname}"] = [v(out), g(x), g(y)]
x, y = leaf(xn), leaf(ye)
out = G.send_ue_recv(x, y, src, dst, "mul", "sum", out_size=6)
out.sum().backward()
rec["ue_recv_out_size"] = [v(out), list(out.shape), g(x), g(y)]

# ---- send_uv ----------------------------------------------------------------------------------
yn = np.array([[2.0, 1.0], [1.0, -2.0], [0.5, 4.0], [-1.0, 1.0]], "float32")
for mop in ("add", "sub", "mul", "div"):
    x, y = leaf(xn), leaf(yn)
    out = G.send_uv(x, y, src, dst, message_op=mop)
    (out * paddle.arange(12, dtype="float32").reshape([6, 2])).sum().backward()
    rec[f"uv_{mop}"] = [v(out), list(out.shape), g(x), g(y)]
x, y = leaf(xn), leaf(yn[:, :1])
out = G.send_uv(x, y, src, dst, message_op="mul")
out.sum().backward()
rec["uv_broadcast"] = [v(out), g(x), g(y)]

# ---- reindex / sampling -----------------------------------------------------------------------
xs = paddle.to_tensor([0, 1, 2])
nbrs = paddle.to_tensor([8, 9, 0, 4, 7, 6, 7])
cnt = paddle.to_tensor([2, 3, 2], dtype="int32")
for r in G.reindex_graph(xs, nbrs, cnt):
    rec.setdefault("reindex", []).append([v(r), str(r.dtype)])
n2 = paddle.to_tensor([0, 2, 3, 5, 1])
c2 = paddle.to_tensor([1, 3, 1], dtype="int32")
for r in G.reindex_heter_graph(xs, [nbrs, n2], [cnt, c2]):
    rec.setdefault("reindex_heter", []).append(v(r))
for r in paddle.incubate.graph_reindex(xs, nbrs, cnt):
    rec.setdefault("graph_reindex", []).append(v(r))

# CSC graph: 6 nodes
row = paddle.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
colptr = paddle.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
nodes = paddle.to_tensor([0, 8, 1, 2, 7])
eids = paddle.arange(13)
for ss in (2, 5):  # every degree is <= 2 (-1 aborts Paddle 3.3.1 on CPU; see the docstring)
    nb, ct = G.sample_neighbors(row, colptr, nodes, sample_size=ss)
    rec[f"sample_{ss}"] = [v(nb), v(ct), str(nb.dtype), str(ct.dtype)]
    nb, ct, e = G.sample_neighbors(row, colptr, nodes, sample_size=ss, eids=eids, return_eids=True)
    rec[f"sample_eids_{ss}"] = [v(nb), v(ct), v(e)]
    w = paddle.to_tensor(np.linspace(0.5, 2.0, 13).astype("float32"))
    nb, ct = G.weighted_sample_neighbors(row, colptr, w, nodes, sample_size=ss)
    rec[f"wsample_{ss}"] = [v(nb), v(ct)]
    nb, ct, e = G.weighted_sample_neighbors(row, colptr, w, nodes, sample_size=ss, eids=eids, return_eids=True)
    rec[f"wsample_eids_{ss}"] = [v(nb), v(ct), v(e)]
nb, ct = paddle.incubate.graph_sample_neighbors(row, colptr, nodes, sample_size=3)
rec["incubate_sample"] = [v(nb), v(ct)]
rn, sn, oi = G.reindex_graph(nodes, *G.sample_neighbors(row, colptr, nodes, sample_size=4))
rec["sample_then_reindex"] = [v(rn), v(sn), v(oi)]


# ---- dtypes and shapes GNN code meets: integer features, 3-D features, float64, int32 ids ----------------
def attempt(f):
    try:
        r = f()
        if isinstance(r, tuple):
            return [[v(t), str(t.dtype)] for t in r]
        return [v(r), str(r.dtype), list(r.shape)]
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


xi = paddle.to_tensor([[1, 2], [3, 3], [3, -1], [0, 4]])
for op in ("sum", "mean", "max", "min"):
    rec[f"u_recv_int_{op}"] = attempt(lambda op=op: G.send_u_recv(xi, src, dst, op))
    rec[f"u_recv_int32_{op}"] = attempt(lambda op=op: G.send_u_recv(xi.astype("int32"), src, dst, op, out_size=3))
    rec[f"seg_int_{op}"] = attempt(lambda op=op: getattr(G, "segment_" + op)(xi, paddle.to_tensor([0, 0, 1, 3])))
    rec[f"ue_recv_int_{op}"] = attempt(lambda op=op: G.send_ue_recv(xi, paddle.ones([6, 1], dtype="int64"), src, dst, "add", op))
x3 = leaf(np.arange(24, dtype="float64").reshape([4, 2, 3]) / 7, "float64")
e3 = leaf(np.linspace(-1, 1, 18).reshape([6, 1, 3]), "float64")
out = G.send_ue_recv(x3, e3, src, dst, "mul", "max")
out.sum().backward()
rec["ue_recv_3d_f64"] = [v(out), str(out.dtype), g(x3), g(e3)]
out = G.send_uv(x3, x3[:, :1], src, dst, "sub")
rec["uv_3d"] = [v(out), list(out.shape)]
rec["uv_int"] = attempt(lambda: G.send_uv(xi, xi, src, dst, "mul"))
rec["uv_e_shape_mismatch"] = attempt(lambda: G.send_ue_recv(paddle.to_tensor(xn), paddle.ones([5, 1]), src, dst))
rec["u_recv_bad_op"] = attempt(lambda: G.send_u_recv(paddle.to_tensor(xn), src, dst, "prod"))
rec["ue_recv_bad_msg"] = attempt(lambda: G.send_ue_recv(paddle.to_tensor(xn), paddle.ones([6, 1]), src, dst, "pow"))
rec["reindex_int32"] = [attempt(lambda r=r: r) for r in G.reindex_graph(xs.astype("int32"), nbrs.astype("int32"), cnt)]
rec["seg_ids_col"] = attempt(lambda: G.segment_sum(paddle.to_tensor(data_np), ids.reshape([6, 1])))
rec["seg_ids_row"] = attempt(lambda: G.segment_sum(paddle.to_tensor(data_np), ids.reshape([1, 6])))
rec["u_recv_col_index"] = attempt(lambda: G.send_u_recv(paddle.to_tensor(xn), src.reshape([6, 1]), dst.reshape([6, 1])))
rec["u_recv_row_index"] = attempt(lambda: G.send_u_recv(paddle.to_tensor(xn), src.reshape([1, 6]), dst.reshape([1, 6])))
rec["ue_recv_row_index"] = attempt(lambda: G.send_ue_recv(paddle.to_tensor(xn), paddle.to_tensor(ye), src.reshape([1, 6]), dst))
rec["uv_row_index"] = attempt(lambda: G.send_uv(paddle.to_tensor(xn), paddle.to_tensor(xn), src, dst.reshape([1, 6])))
rec["reindex_repeated_x"] = attempt(lambda: G.reindex_graph(paddle.to_tensor([0, 1, 0]), paddle.to_tensor([8, 9, 0, 1]),
                                                             paddle.to_tensor([1, 2, 1], dtype="int32")))
x = leaf(data_np)
out = G.segment_mean(x, paddle.to_tensor([1, 1, 3, 3, 3, 5]))
(out * paddle.arange(12, dtype="float32").reshape([6, 2])).sum().backward()
rec["seg_mean_leading_empty"] = [v(out), g(x)]
x = leaf([[2.0], [2.0], [2.0], [1.0]])
out = G.send_u_recv(x, paddle.to_tensor([0, 1, 2, 3, 0]), paddle.to_tensor([0, 0, 0, 0, 1]), "max")
out.sum().backward()
rec["u_recv_max_three_way_tie"] = [v(out), g(x)]

# ---- GCN / GraphSAGE on a fixed small graph ----------------------------------------------------
N, FIN, HID, NC = 16, 5, 8, 3
rng = np.random.default_rng(7)
labels = rng.integers(0, NC, size=N)
feats = (np.eye(NC)[labels] @ rng.standard_normal((NC, FIN)) + 0.6 * rng.standard_normal((N, FIN))).astype("float32")
es = sorted({(i, (i + k) % N) for i in range(N) for k in (1, 3)} | {((i + k) % N, i) for i in range(N) for k in (1, 3)})
s_np = np.array([e[0] for e in es] + list(range(N)))
d_np = np.array([e[1] for e in es] + list(range(N)))
S, D = paddle.to_tensor(s_np), paddle.to_tensor(d_np)
deg = G.send_u_recv(paddle.ones([N, 1]), S, D, "sum", out_size=N)
enorm = (deg[S] * deg[D]).rsqrt()
y = paddle.to_tensor(labels)
xfeat = paddle.to_tensor(feats)
rec["deg"] = v(deg.squeeze(-1))


class GCN(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(FIN, HID)
        self.l2 = nn.Linear(HID, NC)
        # learnable edge weights starting at the symmetric normalisation (a y that needs no gradient makes
        # Paddle 3.3.1's send_ue_recv backward fail with "Required tensor shall not be nullptr")
        self.ew = self.create_parameter(enorm.shape, default_initializer=nn.initializer.Assign(enorm.numpy()))

    def forward(self, x):
        h = F.relu(G.send_ue_recv(self.l1(x), self.ew, S, D, "mul", "sum"))
        return G.send_ue_recv(self.l2(h), self.ew, S, D, "mul", "sum")


class SAGE(nn.Layer):
    def __init__(self):
        super().__init__()
        self.self1, self.nb1 = nn.Linear(FIN, HID), nn.Linear(FIN, HID, bias_attr=False)
        self.self2, self.nb2 = nn.Linear(HID, NC), nn.Linear(HID, NC, bias_attr=False)

    def forward(self, x):
        h = F.relu(self.self1(x) + self.nb1(G.send_u_recv(x, S, D, "mean")))
        return self.self2(h) + self.nb2(G.send_u_recv(h, S, D, "max", out_size=N))


for name, M, Opt in (("gcn", GCN, paddle.optimizer.Adam), ("sage", SAGE, paddle.optimizer.SGD)):
    model = M()
    r = np.random.default_rng(3)
    model.set_state_dict({k: (r.standard_normal(p.shape) * 0.5).astype("float32") for k, p in model.state_dict().items()
                         if k != "ew"})
    opt = Opt(learning_rate=0.05, parameters=model.parameters())
    losses, gnorms = [], []
    for _ in range(12):
        logits = model(xfeat)
        loss = F.cross_entropy(logits[:12], y[:12])
        loss.backward()
        gnorms.append(float(paddle.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))))
        opt.step()
        opt.clear_grad()
        losses.append(loss.item())
    rec[f"{name}_loss"] = losses
    rec[f"{name}_gnorm"] = gnorms
    rec[f"{name}_pred"] = v(model(xfeat).argmax(-1))
    rec[f"{name}_keys"] = sorted(model.state_dict().keys())

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
