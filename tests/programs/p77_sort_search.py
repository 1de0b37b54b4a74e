"""Sorting and searching as ranking, retrieval and decoding code uses them: ``paddle.sort`` / ``argsort`` with
``stable=True`` and ``descending`` over ties and nan, ``topk`` with ``largest=False`` and ``sorted=False`` (values
only where the order is not defined), ``unique`` with ``return_index`` / ``return_inverse`` / ``return_counts`` /
``axis`` / ``dtype``, ``unique_consecutive`` (axis, counts), ``kthvalue``, ``searchsorted`` (``right``,
``out_int32``, a batched sorted sequence), ``bucketize``, ``masked_select``, ``nonzero`` (``as_tuple``),
``argmax`` / ``argmin`` with ``keepdim`` / ``dtype``, one-argument ``where``, ``index_select`` / ``index_sample`` /
``take_along_axis`` / ``take`` (modes raise, wrap, clip), ``gather`` / ``gather_nd`` with negative indices,
``histogram`` / ``histogramdd`` / ``bincount`` (weights, minlength), ``isin``; the gradients through ``sort``,
``topk``, ``gather``, ``take_along_axis``, ``kthvalue`` and ``index_sample`` values; then a small two-tower retrieval
model trained by Adam with a pairwise ranking loss whose positives and hardest negatives are picked by ``argsort`` /
``topk`` / ``take_along_axis``, evaluated by recall@k and MRR computed with ``searchsorted`` and ``nonzero``, and a
beam-search bookkeeping step (``topk`` over flattened scores, ``//`` and ``%`` for the beam and token,
``index_select`` of the histories).

Inputs of ``topk`` and ``argsort`` whose order of equal values is not defined (unstable sorts) record values only.
Left out: ``unique`` / ``unique_consecutive`` with a float ``dtype`` for the indices is a NotImplementedError in Paddle
3.3.1 (no kernel for it) and a ValueError naming the allowed dtypes in pylayer_jax (a misuse, like ``argmax``'s float
``dtype``, which Paddle refuses with a ValueError); ``unique_consecutive`` with ``axis`` below ``-ndim`` aborts the
Paddle process (pylayer_jax: a ValueError, as for ``axis >= ndim``)."""
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


def vd(t):
    return [v(t), list(t.shape), str(t.dtype).replace("paddle.", "")]


def attempt(f):
    try:
        r = f()
        return ["ok", v(r) if hasattr(r, "numpy") else r]
    except Exception as e:  # the type is what users catch
        return ["error", type(e).__name__]


# --- sort / argsort: ties, stable, descending, nan -------------------------------------------------------------
ties = paddle.to_tensor([3.0, 1.0, 2.0, 1.0, 3.0, 2.0, 1.0])
rec["sort_asc"] = v(paddle.sort(ties))
rec["sort_desc"] = v(paddle.sort(ties, descending=True))
rec["argsort_stable"] = v(paddle.argsort(ties, stable=True))
rec["argsort_stable_desc"] = v(paddle.argsort(ties, descending=True, stable=True))
withnan = paddle.to_tensor([2.0, float("nan"), -1.0, 5.0, float("nan"), 0.0])
rec["sort_nan"] = v(paddle.sort(withnan))
rec["sort_nan_desc"] = v(paddle.sort(withnan, descending=True))
rec["argsort_nan"] = v(paddle.argsort(withnan, stable=True))
rec["argsort_nan_desc"] = v(paddle.argsort(withnan, descending=True, stable=True))
m = paddle.to_tensor([[4, 1, 4, 2], [0, 0, 7, 7], [5, 3, 3, 5]], dtype="int32")
rec["sort_int_axis0"] = vd(paddle.sort(m, axis=0))
rec["argsort_int_axis0"] = vd(paddle.argsort(m, axis=0, stable=True))
rec["argsort_int_desc_rows"] = vd(paddle.argsort(m, axis=-1, descending=True, stable=True))
rec["argsort_method"] = v(m.argsort(axis=1, stable=True))

# --- topk -----------------------------------------------------------------------------------------------------
scores = paddle.to_tensor(rng.standard_normal((3, 6)).astype("float32"))
tv, ti = paddle.topk(scores, 3)
rec["topk"] = [v(tv), vd(ti)]
tv, ti = paddle.topk(scores, 2, axis=0, largest=False)
rec["topk_small_axis0"] = [v(tv), v(ti)]
tv, ti = paddle.topk(scores, 4, sorted=False)
rec["topk_unsorted_set"] = [sorted(r) for r in v(tv)]
tv, ti = paddle.topk(scores, paddle.to_tensor(2))
rec["topk_tensor_k"] = [v(tv), v(ti)]
tv, _ = paddle.topk(ties, 3)
rec["topk_ties_values"] = v(tv)
tv, ti = paddle.topk(paddle.to_tensor([5, 2, 9, 1], dtype="int64"), 2, largest=False)
rec["topk_int"] = [vd(tv), v(ti)]

# --- unique / unique_consecutive ------------------------------------------------------------------------------
labels = paddle.to_tensor([3, 1, 3, 2, 1, 1, 5, 2])
u, idx, inv, cnt = paddle.unique(labels, return_index=True, return_inverse=True, return_counts=True)
rec["unique_all"] = [vd(u), vd(idx), vd(inv), vd(cnt)]
u, inv = paddle.unique(labels, return_inverse=True, dtype="int32")
rec["unique_int32"] = [vd(u), vd(inv)]
rows = paddle.to_tensor([[1, 2], [0, 5], [1, 2], [0, 5], [0, 1]])
u, idx, inv, cnt = paddle.unique(rows, return_index=True, return_inverse=True, return_counts=True, axis=0)
rec["unique_axis0"] = [vd(u), v(idx), v(inv), v(cnt)]
u, inv = paddle.unique(rows, return_inverse=True, axis=1)
rec["unique_axis1"] = [vd(u), v(inv)]
rec["unique_nan"] = v(paddle.unique(paddle.to_tensor([0.5, float("nan"), -1.0, float("nan"), 0.5])))
z = paddle.to_tensor(4.0)
rec["order_0d"] = [v(paddle.sort(z)), v(paddle.argsort(z)), [v(t) for t in paddle.topk(z, 1)]]
fl = paddle.to_tensor([[2.5, 1.0], [1.0, -3.0]])
rec["unique_float_2d"] = vd(paddle.unique(fl))
seq = paddle.to_tensor([1, 1, 2, 2, 2, 1, 3, 3, 1])
u, inv, cnt = paddle.unique_consecutive(seq, return_inverse=True, return_counts=True)
rec["unique_consec"] = [vd(u), vd(inv), vd(cnt)]
u, inv, cnt = paddle.unique_consecutive(rows, return_inverse=True, return_counts=True, axis=0)
rec["unique_consec_axis0"] = [vd(u), v(inv), v(cnt)]
u, cnt = paddle.unique_consecutive(seq, return_counts=True, dtype="int32")
rec["unique_consec_int32"] = [vd(u), vd(cnt)]

# --- kthvalue, argmax / argmin --------------------------------------------------------------------------------
kv, ki = paddle.kthvalue(scores, 2, axis=1)
rec["kthvalue"] = [v(kv), vd(ki)]
kv, ki = paddle.kthvalue(scores, 3, axis=0, keepdim=True)
rec["kthvalue_keep"] = [vd(kv), v(ki)]
rec["argmax"] = vd(paddle.argmax(scores))
rec["argmax_keep"] = vd(paddle.argmax(scores, axis=1, keepdim=True))
rec["argmin_int32"] = vd(paddle.argmin(scores, axis=0, dtype="int32"))
rec["argmax_ties_first"] = v(paddle.argmax(paddle.to_tensor([[1, 3, 3], [2, 2, 0]]), axis=1))
rec["argmin_ties_first"] = v(paddle.argmin(paddle.to_tensor([[1, 3, 1], [2, 0, 0]]), axis=1))

# --- searchsorted / bucketize ---------------------------------------------------------------------------------
edges = paddle.to_tensor([0.0, 1.0, 1.0, 2.5, 4.0])
q = paddle.to_tensor([-1.0, 0.0, 1.0, 2.0, 4.0, 9.0])
rec["searchsorted_left"] = vd(paddle.searchsorted(edges, q))
rec["searchsorted_right"] = vd(paddle.searchsorted(edges, q, right=True))
rec["searchsorted_int32"] = vd(paddle.searchsorted(edges, q, out_int32=True))
batched = paddle.to_tensor([[1, 3, 5, 7], [2, 4, 6, 8]])
rec["searchsorted_batched"] = vd(paddle.searchsorted(batched, paddle.to_tensor([[3, 6, 9], [1, 4, 8]]), right=True))
rec["bucketize"] = vd(paddle.bucketize(paddle.to_tensor([[0.5, 1.0], [3.0, 7.0]]), edges))
rec["bucketize_right"] = vd(paddle.bucketize(q, edges, right=True, out_int32=True))

# --- masked_select, nonzero, where ----------------------------------------------------------------------------
mask = scores > 0.2
rec["masked_select"] = vd(paddle.masked_select(scores, mask))
rec["masked_select_bcast"] = vd(paddle.masked_select(scores, paddle.to_tensor([True, False, True, False, True, False])))
rec["nonzero"] = vd(paddle.nonzero(mask))
nz = paddle.nonzero(mask, as_tuple=True)
rec["nonzero_tuple"] = [type(nz).__name__, len(nz)] + [vd(t) for t in nz]
rec["where_one"] = [vd(t) for t in paddle.where(mask)]
rec["nonzero_1d_tuple"] = [vd(t) for t in paddle.nonzero(paddle.to_tensor([0, 3, 0, 1]), as_tuple=True)]
rec["nonzero_empty"] = vd(paddle.nonzero(paddle.zeros([2, 3])))

# --- index_select / index_sample / take_along_axis / take / gather / gather_nd --------------------------------
data = paddle.to_tensor(np.arange(20, dtype="float32").reshape(4, 5))
rec["index_select"] = vd(paddle.index_select(data, paddle.to_tensor([3, 0, 3]), axis=0))
rec["index_select_ax1"] = vd(paddle.index_select(data, paddle.to_tensor([4, 1], dtype="int32"), axis=-1))
rec["index_sample"] = vd(paddle.index_sample(data, paddle.to_tensor([[0, 4], [1, 1], [2, 0], [3, 3]])))
rec["take_along"] = vd(paddle.take_along_axis(data, paddle.to_tensor([[0], [2], [4], [1]]), axis=1))
rec["take_along_bcast"] = vd(paddle.take_along_axis(data, paddle.to_tensor([[1, 0, 3, 2, 2]]), axis=0))
ti = paddle.to_tensor([[0, 7], [19, 3]])
rec["take_raise"] = vd(paddle.take(data, ti))
rec["take_neg"] = vd(paddle.take(data, paddle.to_tensor([-1, -20, 5])))
rec["take_wrap"] = vd(paddle.take(data, paddle.to_tensor([21, -22, 45]), mode="wrap"))
rec["take_clip"] = vd(paddle.take(data, paddle.to_tensor([25, -3, 4]), mode="clip"))
rec["gather"] = vd(paddle.gather(data, paddle.to_tensor([2, 0])))
rec["gather_axis1"] = vd(paddle.gather(data, paddle.to_tensor([4, 4, 1]), axis=1))
rec["gather_axis_tensor"] = vd(paddle.gather(data, paddle.to_tensor([1]), axis=paddle.to_tensor(1)))
rec["gather_neg"] = vd(paddle.gather(data, paddle.to_tensor([-1, 0])))
rec["gather_nd"] = vd(paddle.gather_nd(data, paddle.to_tensor([[1, 2], [3, 4]])))
rec["gather_nd_rows"] = vd(paddle.gather_nd(data, paddle.to_tensor([[2], [0]])))
rec["gather_nd_neg"] = vd(paddle.gather_nd(data, paddle.to_tensor([[-1, -2], [0, -5]])))

# --- histogram / histogramdd / bincount / isin ----------------------------------------------------------------
hx = paddle.to_tensor([0.1, 0.4, 0.4, 0.9, 1.0, 2.5, -0.3])
rec["histogram"] = vd(paddle.histogram(hx, bins=4, min=0, max=1))
rec["histogram_auto"] = vd(paddle.histogram(hx, bins=3))
rec["histogram_weight_density"] = vd(paddle.histogram(hx, bins=4, min=0, max=2,
                                                      weight=paddle.to_tensor([1.0, 2, 1, 1, 1, 3, 1]),
                                                      density=True))
rec["histogram_int"] = vd(paddle.histogram(paddle.to_tensor([1, 2, 2, 5]), bins=4, min=1, max=5))
pts = paddle.to_tensor([[0.0, 0.0], [0.5, 1.5], [0.9, 0.2], [1.0, 2.0], [0.2, 1.9]])
hist, hedges = paddle.histogramdd(pts, bins=[2, 3])
rec["histogramdd"] = [vd(hist), [v(e) for e in hedges]]
hist, hedges = paddle.histogramdd(pts, bins=2, ranges=[0.0, 1.0, 0.0, 2.0],
                                  weights=paddle.to_tensor([1.0, 2.0, 0.5, 1.0, 3.0]), density=True)
rec["histogramdd_w"] = [vd(hist), [v(e) for e in hedges]]
bc = paddle.to_tensor([1, 3, 3, 0, 1, 3])
rec["bincount"] = vd(paddle.bincount(bc))
rec["bincount_minlength"] = vd(paddle.bincount(bc, minlength=6))
rec["bincount_weights"] = vd(paddle.bincount(bc, weights=paddle.to_tensor([0.5, 1.0, 1.0, 2.0, 0.25, 1.0])))
rec["bincount_empty"] = vd(paddle.bincount(paddle.to_tensor([], dtype="int64"), minlength=3))
rec["isin"] = vd(paddle.isin(labels, paddle.to_tensor([1, 5])))
rec["isin_invert"] = vd(paddle.isin(labels, paddle.to_tensor([1, 5]), invert=True))
rec["isin_float"] = vd(paddle.isin(hx, paddle.to_tensor([0.4, 2.5])))

# --- errors code catches --------------------------------------------------------------------------------------
rec["err_take_raise"] = attempt(lambda: paddle.take(data, paddle.to_tensor([20])))
rec["err_take_mode"] = attempt(lambda: paddle.take(data, paddle.to_tensor([1]), mode="nearest"))
rec["err_topk_k"] = attempt(lambda: paddle.topk(scores, 7))
rec["err_kthvalue_k"] = attempt(lambda: paddle.kthvalue(scores, 7, axis=1))
rec["err_bincount_neg"] = attempt(lambda: paddle.bincount(paddle.to_tensor([1, -1])))
rec["err_bincount_float"] = attempt(lambda: paddle.bincount(paddle.to_tensor([1.0, 2.0])))
rec["err_index_sample_rank"] = attempt(lambda: paddle.index_sample(data, paddle.to_tensor([0, 1])))
rec["err_unique_axis"] = attempt(lambda: paddle.unique(rows, axis=2))
rec["err_topk_zero"] = attempt(lambda: paddle.topk(scores, 0))
rec["err_argmax_dtype"] = attempt(lambda: paddle.argmax(scores, axis=1, dtype="float32"))
rec["err_unique_consec_axis"] = attempt(lambda: paddle.unique_consecutive(rows, axis=2))
rec["err_take_float"] = attempt(lambda: paddle.take(data, paddle.to_tensor([1.0])))
rec["err_bincount_weights"] = attempt(lambda: paddle.bincount(bc, weights=paddle.ones([2])))
rec["err_masked_select_shape"] = attempt(lambda: paddle.masked_select(data, paddle.to_tensor([True, False])))
rec["err_searchsorted_batch"] = attempt(lambda: paddle.searchsorted(batched, paddle.to_tensor([[1.0]] * 3)))

# --- gradients through sort / topk / gather / take_along_axis / kthvalue / index_sample ----------------------
x = paddle.to_tensor(rng.standard_normal((3, 5)).astype("float32"), stop_gradient=False)
w = paddle.to_tensor(np.arange(1, 16, dtype="float32").reshape(3, 5))
paddle.sort(x, axis=1, descending=True).multiply(w).sum().backward()
rec["grad_sort"] = v(x.grad)
x.clear_grad()
tv, ti = paddle.topk(x, 2, axis=1)
(tv * paddle.to_tensor([[1.0, -2.0]])).sum().backward()
rec["grad_topk"] = v(x.grad)
x.clear_grad()
tv, ti = paddle.topk(x, 2, axis=0, largest=False)
(tv * tv).sum().backward()
rec["grad_topk_small"] = v(x.grad)
x.clear_grad()
(paddle.gather(x, paddle.to_tensor([2, 0, 2])) * w[:3]).sum().backward()
rec["grad_gather_dup"] = v(x.grad)
x.clear_grad()
(paddle.gather_nd(x, paddle.to_tensor([[0, 1], [0, 1], [2, 4]])) * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
rec["grad_gather_nd"] = v(x.grad)
x.clear_grad()
(paddle.take_along_axis(x, paddle.to_tensor([[0, 0], [4, 1], [2, 2]]), axis=1) ** 2).sum().backward()
rec["grad_take_along"] = v(x.grad)
x.clear_grad()
kv, _ = paddle.kthvalue(x, 2, axis=1)
(kv * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
rec["grad_kthvalue"] = v(x.grad)
x.clear_grad()
paddle.index_sample(x, paddle.to_tensor([[1, 1], [0, 3], [4, 2]])).sum().backward()
rec["grad_index_sample"] = v(x.grad)
x.clear_grad()
(paddle.masked_select(x, x > 0) * 3.0).sum().backward()
rec["grad_masked_select"] = v(x.grad)
x.clear_grad()
(paddle.take(x, paddle.to_tensor([0, 16, -1]), mode="wrap") * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
rec["grad_take_wrap"] = v(x.grad)
x.clear_grad()
paddle.index_select(x, paddle.to_tensor([1, 1, 4]), axis=1).pow(2).sum().backward()
rec["grad_index_select"] = v(x.grad)

# --- a two-tower retrieval model with a ranking loss ----------------------------------------------------------
NQ, ND, F_IN, EMB = 12, 20, 8, 6
Q = rng.standard_normal((NQ, F_IN)).astype("float32")
D = rng.standard_normal((ND, F_IN)).astype("float32")
proj = rng.standard_normal((F_IN, F_IN)).astype("float32") * 0.5
rel = (Q @ proj) @ D.T                                          # ground-truth relevance
POS = np.argsort(-rel, axis=1, kind="stable")[:, :2]            # two relevant docs per query


class Tower(nn.Layer):
    def __init__(self, seed):
        super().__init__()
        r = np.random.default_rng(seed)
        self.fc1 = nn.Linear(F_IN, 16)
        self.fc2 = nn.Linear(16, EMB)
        for p, a in zip(self.parameters(), [r.standard_normal((F_IN, 16)) * 0.3, np.zeros(16),
                                            r.standard_normal((16, EMB)) * 0.3, np.zeros(EMB)]):
            p.set_value(a.astype("float32"))

    def forward(self, x):
        return F.normalize(self.fc2(F.relu(self.fc1(x))), axis=-1)


qt, dt = Tower(1), Tower(2)


def evaluate():
    with paddle.no_grad():
        s = paddle.matmul(qt(qx), dt(dx), transpose_y=True)
        order = paddle.argsort(s, axis=1, descending=True, stable=True)
        ranks = paddle.argsort(order, axis=1)                       # rank of each doc
        pos_rank = paddle.take_along_axis(ranks, pos, axis=1)       # [NQ, 2]
        best = pos_rank.min(axis=1)
        cuts = paddle.to_tensor([1, 3, 10], dtype="int64")          # rank buckets via searchsorted
        return {"pos_rank": v(pos_rank), "recall_at_3": float((pos_rank < 3).astype("float32").mean()),
                "mrr": float((1.0 / (best.astype("float32") + 1.0)).mean()),
                "buckets": v(paddle.bincount(paddle.searchsorted(cuts, best.flatten(), right=True), minlength=4)),
                "top1_hits": v(paddle.nonzero(pos_rank == 0))}



opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=qt.parameters() + dt.parameters())
qx, dx = paddle.to_tensor(Q), paddle.to_tensor(D)
pos = paddle.to_tensor(POS)
rec["eval_before"] = evaluate()
losses, hardest = [], []
for step in range(12):
    s = paddle.matmul(qt(qx), dt(dx), transpose_y=True) * 5.0    # [NQ, ND]
    pos_s = paddle.take_along_axis(s, pos, axis=1)              # [NQ, 2]
    is_pos = paddle.zeros([NQ, ND]).put_along_axis(pos, 1.0, axis=1)
    neg_s = paddle.where(is_pos > 0, paddle.full_like(s, -1e4), s)
    hard, hard_i = paddle.topk(neg_s, 3, axis=1)                # three hardest negatives
    margin = F.relu(1.0 - pos_s.unsqueeze(2) + hard.unsqueeze(1))   # [NQ, 2, 3]
    loss = margin.mean()
    loss.backward()
    opt.step()
    opt.clear_grad()
    losses.append(float(loss))
    if step % 8 == 0:
        hardest.append(v(hard_i))
rec["rank_losses"] = losses
rec["rank_hardest"] = hardest

rec["eval_after"] = evaluate()
with paddle.no_grad():
    s = paddle.matmul(qt(qx), dt(dx), transpose_y=True)
    sv, si = paddle.topk(s, 5, axis=1)
    rec["top5_scores"] = v(sv)
    rec["top5_ids"] = v(si)
    nearest = paddle.argmin(paddle.cdist(qt(qx), dt(dx)), axis=1)
    rec["nearest_l2"] = v(nearest)

# --- beam search bookkeeping ----------------------------------------------------------------------------------
B, V = 3, 7
logp = paddle.to_tensor(np.log(rng.dirichlet(np.ones(V), size=B)).astype("float32"))
beam_scores = paddle.to_tensor([-0.1, -0.5, -0.9])
hist = paddle.to_tensor([[1, 4], [2, 2], [6, 0]])
for _ in range(3):
    cand = (beam_scores.unsqueeze(1) + logp).flatten()          # [B * V]
    top_s, top_i = paddle.topk(cand, B)
    src = top_i // V
    tok = top_i % V
    hist = paddle.concat([paddle.index_select(hist, src), tok.unsqueeze(1)], axis=1)
    beam_scores = top_s
    logp = paddle.roll(logp, shifts=1, axis=1)
rec["beam_hist"] = vd(hist)
rec["beam_scores"] = v(beam_scores)

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
