"""Data-processing heavy tabular code: CSV-like text parsed by numpy into paddle tensors, missing values summarised
with nanmean / nanmedian and filled with paddle.where (broadcast against a row of column means), standardisation
with mean / std(axis=0) (unbiased by default), one-hot of the categorical columns (F.one_hot and
F.embedding with an identity table), paddle.concat of numeric and categorical parts, binning with bucketize,
searchsorted, histogram and bincount, class weights from paddle.unique(return_counts=True) fed to
nn.CrossEntropyLoss(weight=...), a wide & deep model trained with AdamW, a train/val split with
paddle.io.random_split under paddle.seed and a Subset of numpy indices, DataLoader with drop_last, the metrics
paddle.metric.Accuracy / Precision / Recall / Auc accumulated per batch, ranking with argsort / topk / sort, and
quantile / median / nanmedian / nanquantile summaries, masked_select, kthvalue, mode, cumsum of sorted scores.

random_split's permutation comes from the library's own random stream (Paddle's generator and JAX's differ), so
only its lengths are recorded and the training split is a Subset of numpy indices.

Not mirrored, left out here: the index kthvalue and mode give among tied values. Paddle's CPU kernels take it from
std::nth_element / std::sort (unstable, libstdc++'s introselect / introsort), pylayer_jax from a stable order; they
agree for ties among up to 16 entries (mode) and where there are no ties (kthvalue), as recorded."""
import io
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.io import DataLoader, Subset, TensorDataset, random_split

rng = np.random.default_rng(0)
N = 96
lines = ["age,income,score,visits,city,plan,label"]
for i in range(N):
    age = rng.integers(18, 70)
    income = rng.lognormal(10, 0.4)
    score = rng.normal(0.5, 0.2)
    visits = rng.poisson(3)
    city = rng.integers(0, 4)
    plan = rng.integers(0, 3)
    logit = 0.04 * (age - 40) + 0.8 * (plan == 2) - 0.5 * (city == 1) + 2.0 * (score - 0.5) + 0.2 * visits - 1.2
    label = int(rng.random() < 1 / (1 + np.exp(-logit)))
    score_s = "" if i % 13 == 5 else f"{score:.4f}"           # missing values
    income_s = "" if i % 17 == 3 else f"{income:.2f}"
    lines.append(f"{age},{income_s},{score_s},{visits},{city},{plan},{label}")
raw = np.genfromtxt(io.StringIO("\n".join(lines)), delimiter=",", skip_header=1, dtype="float64")
rec = {"raw_shape": list(raw.shape), "n_missing": int(np.isnan(raw).sum())}

num = paddle.to_tensor(raw[:, :4].astype("float32"))
cat = paddle.to_tensor(raw[:, 4:6].astype("int64"))
y = paddle.to_tensor(raw[:, 6].astype("int64"))
rec["dtypes"] = [str(num.dtype), str(cat.dtype), str(y.dtype)]

# missing values: summaries, then fill with the column means (where broadcasting a [1, 4] row)
col_nanmean = paddle.nanmean(num, axis=0)
rec["nanmean"] = col_nanmean.numpy().tolist()
rec["nanmedian"] = paddle.nanmedian(num, axis=0).numpy().tolist()
rec["nanquantile"] = paddle.nanquantile(num, q=[0.1, 0.9], axis=0).numpy().tolist()
rec["nansum"] = paddle.nansum(num, axis=0).numpy().tolist()
isnan = paddle.isnan(num)
rec["nan_per_col"] = isnan.astype("int64").sum(0).numpy().tolist()
filled = paddle.where(isnan, col_nanmean.unsqueeze(0), num)
rec["filled_row5"] = filled[5].numpy().tolist()
filled2 = paddle.nan_to_num(num, nan=-1.0)
rec["nan_to_num_row3"] = filled2[3].numpy().tolist()

# standardisation (unbiased std), and summaries
mu = filled.mean(axis=0)
sd = filled.std(axis=0)
sd_b = paddle.std(filled, axis=0, unbiased=False)
z = (filled - mu) / sd
rec["mu_sd"] = [mu.numpy().tolist(), sd.numpy().tolist(), sd_b.numpy().tolist(),
                paddle.var(filled, axis=0).numpy().tolist()]
rec["z_stats"] = [z.mean(0).numpy().tolist(), z.std(0).numpy().tolist()]
rec["quantile"] = paddle.quantile(filled, q=0.25, axis=0).numpy().tolist()
rec["quantile_multi"] = paddle.quantile(filled[:, 0], q=[0.1, 0.5, 0.9]).numpy().tolist()
rec["quantile_interp"] = [paddle.quantile(filled[:, 3], q=0.3, interpolation=m).item()
                          for m in ("linear", "lower", "higher", "nearest", "midpoint")]
rec["median"] = [paddle.median(filled, axis=0).numpy().tolist(), paddle.median(filled[:, 3]).item(),
                 paddle.median(filled[:, 3], mode="min").item()]
kv, ki = paddle.kthvalue(filled[:, 3], k=10)
kv2, ki2 = paddle.kthvalue(filled[:, 1], k=10)
mv, mi = paddle.mode(cat[:, 0])
mv16, mi16 = paddle.mode(cat[:16, 0])
rec["kth_mode"] = [kv.item(), kv2.item(), int(ki2), int(mv), int(mv16), int(mi16)]
rec["minmax"] = [filled.min(0).numpy().tolist(), filled.max(0).numpy().tolist(),
                 filled.argmax(0).numpy().tolist(), paddle.amax(filled, axis=0).numpy().tolist()]

# categorical: one-hot two ways, then concat with numeric
city_oh = F.one_hot(cat[:, 0], num_classes=4)
plan_oh = F.embedding(cat[:, 1], paddle.eye(3))
rec["one_hot"] = [str(city_oh.dtype), list(city_oh.shape), city_oh[:3].numpy().tolist(),
                  plan_oh[:3].numpy().tolist(), str(plan_oh.dtype)]
features = paddle.concat([z, city_oh, plan_oh], axis=1)
rec["features_shape"] = list(features.shape)

# binning: age buckets, income by searchsorted on quantile edges, histogram and bincount
age_edges = paddle.to_tensor([25.0, 35.0, 45.0, 55.0])
age_b = paddle.bucketize(filled[:, 0], age_edges)
age_b_r = paddle.bucketize(filled[:, 0], age_edges, right=True)
inc_edges = paddle.quantile(filled[:, 1], q=[0.25, 0.5, 0.75])
inc_b = paddle.searchsorted(inc_edges, filled[:, 1])
inc_b32 = paddle.searchsorted(inc_edges, filled[:, 1].unsqueeze(0), out_int32=True, right=True)
rec["bins"] = [age_b.numpy().tolist(), str(age_b.dtype), int((age_b != age_b_r).sum()), inc_b.numpy().tolist(),
               str(inc_b32.dtype), list(inc_b32.shape)]
rec["bincount"] = [paddle.bincount(age_b).numpy().tolist(),
                   paddle.bincount(inc_b, minlength=6).numpy().tolist(),
                   paddle.bincount(age_b, weights=filled[:, 2]).numpy().tolist()]
rec["histogram"] = [paddle.histogram(filled[:, 2], bins=5, min=0.0, max=1.0).numpy().tolist(),
                    paddle.histogram(filled[:, 3], bins=4).numpy().tolist()]
bin_edges = paddle.histogram_bin_edges(filled[:, 2], bins=5)
rec["histogram_bin_edges"] = bin_edges.numpy().tolist()
age_oh = F.one_hot(age_b, 5).astype("float32")

# class weights from unique counts
uniq, inv, counts = paddle.unique(y, return_inverse=True, return_counts=True)
weights = counts.sum().astype("float32") / (counts.astype("float32") * len(counts))
rec["unique"] = [uniq.numpy().tolist(), counts.numpy().tolist(), weights.numpy().tolist(), inv[:10].numpy().tolist()]
u_cat, u_counts = paddle.unique(cat, axis=0, return_counts=True)
rec["unique_rows"] = [u_cat.numpy().tolist(), u_counts.numpy().tolist()]
uc, uc_counts = paddle.unique_consecutive(paddle.sort(cat[:, 0]), return_counts=True)
rec["unique_consecutive"] = [uc.numpy().tolist(), uc_counts.numpy().tolist()]

# split: random_split under paddle.seed, and Subset with numpy indices
full = TensorDataset([features, age_oh, y])
paddle.seed(42)
tr_rs, va_rs = random_split(full, [72, 24])
parts = random_split(full, [0.7, 0.2, 0.1])
rec["random_split_lens"] = [len(tr_rs), len(va_rs), [len(p) for p in parts],
                            sorted(list(tr_rs.indices) + list(va_rs.indices)) == list(range(N))]
try:
    random_split(full, [50, 50])
except ValueError as e:
    rec["random_split_bad"] = type(e).__name__
perm = np.random.default_rng(3).permutation(N)
train_ds, val_ds = Subset(full, perm[:72].tolist()), Subset(full, perm[72:].tolist())
rec["subset_first"] = [np.asarray(a).tolist() for a in train_ds[0]]


class WideDeep(nn.Layer):
    def __init__(self, n_in, n_wide):
        super().__init__()
        self.wide = nn.Linear(n_wide, 2)
        self.deep = nn.Sequential(nn.Linear(n_in, 16), nn.ReLU(), nn.Dropout(0.0), nn.Linear(16, 8), nn.ReLU(),
                                  nn.Linear(8, 2))
        self.bn = nn.BatchNorm1D(n_in)

    def forward(self, x, wide_x):
        return self.deep(self.bn(x)) + self.wide(paddle.concat([wide_x, x[:, 4:]], axis=1))


model = WideDeep(features.shape[1], 5 + 7)
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") if "bn" not in k else v.numpy()
                      for k, v in model.state_dict().items()})
rec["state_keys"] = list(model.state_dict().keys())
opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=model.parameters(), weight_decay=0.01)
loss_fn = nn.CrossEntropyLoss(weight=weights)
loss_plain = nn.CrossEntropyLoss()
loader = DataLoader(train_ds, batch_size=16, shuffle=False, drop_last=True)
rec["n_batches"] = len(loader)
rec["loss"], rec["loss_plain"], rec["batch_shapes"] = [], [], []
for _epoch in range(6):
    model.train()
    for xb, wb, yb in loader:
        rec["batch_shapes"].append([list(xb.shape), list(yb.shape)])
        logits = model(xb, wb)
        loss = loss_fn(logits, yb)
        loss.backward()
        opt.step()
        opt.clear_grad()
        rec["loss"].append(float(loss))
        rec["loss_plain"].append(float(loss_plain(logits, yb)))
rec["bn_stats"] = [model.bn._mean.numpy().tolist(), model.bn._variance.numpy().tolist()]

# evaluation: metrics accumulated per batch
model.eval()
acc, prec, recl, auc = paddle.metric.Accuracy(topk=(1, 2)), paddle.metric.Precision(), paddle.metric.Recall(), \
    paddle.metric.Auc(num_thresholds=255)
val_loader = DataLoader(val_ds, batch_size=8, shuffle=False, drop_last=False)
all_probs, all_y, per_batch = [], [], []
with paddle.no_grad():
    for xb, wb, yb in val_loader:
        probs = F.softmax(model(xb, wb), axis=-1)
        correct = acc.compute(probs, yb.unsqueeze(1))
        per_batch.append(acc.update(correct))
        pred = probs[:, 1]
        prec.update(pred, yb)
        recl.update(pred, yb)
        auc.update(probs, yb.unsqueeze(1))
        all_probs.append(probs)
        all_y.append(yb)
rec["metric_per_batch"] = [np.asarray(v).tolist() for v in per_batch]
rec["metrics"] = [acc.accumulate(), prec.accumulate(), recl.accumulate(), auc.accumulate(), acc.name(), prec.name(),
                  auc.name()]
acc.reset()
rec["acc_after_reset"] = acc.accumulate()
probs = paddle.concat(all_probs)
yv = paddle.concat(all_y)
rec["functional_acc"] = float(paddle.metric.accuracy(probs, yv.unsqueeze(1), k=1))

# ranking: scores sorted, top-k, argsort stable with ties, precision@k and cumulative gains
score = probs[:, 1]
order = paddle.argsort(score, descending=True)
top_v, top_i = paddle.topk(score, k=5)
rec["ranking"] = [order.numpy().tolist(), top_v.numpy().tolist(), top_i.numpy().tolist()]
rec["prec_at_5"] = float(paddle.gather(yv, top_i).astype("float32").mean())
gains = paddle.cumsum(paddle.gather(yv, order).astype("float32"))
rec["cum_gains"] = gains.numpy().tolist()
ties = paddle.to_tensor([3, 1, 2, 3, 1, 2, 3])
rec["argsort_stable"] = [paddle.argsort(ties, stable=True).numpy().tolist(),
                         paddle.argsort(ties, descending=True, stable=True).numpy().tolist()]
sv, si = paddle.sort(score), paddle.argsort(score)
rec["sort_matches"] = bool((paddle.gather(score, si) == sv).all())
rec["topk_rows"] = [t.numpy().tolist() for t in paddle.topk(probs, k=1, axis=1)]
rec["topk_smallest"] = paddle.topk(score, k=3, largest=False)[0].numpy().tolist()

# masked_select / where with broadcasting
high = score > 0.5
rec["masked"] = [paddle.masked_select(score, high).numpy().tolist(),
                 paddle.masked_select(yv, high).numpy().tolist(),
                 paddle.masked_select(probs, high.unsqueeze(1)).numpy().tolist()]
clipped = paddle.where(probs > 0.9, paddle.to_tensor(0.9), probs)
rec["where_scalar"] = clipped.numpy().tolist()
thresh = paddle.to_tensor([[0.3, 0.7]])
rec["where_row"] = paddle.where(probs > thresh, probs, paddle.zeros([1])).numpy().tolist()
rec["nonzero"] = paddle.nonzero(high).numpy().ravel().tolist()
val_city = paddle.gather(cat[:, 0], paddle.to_tensor(perm[72:]))
by_city = [float(paddle.masked_select(score, val_city == c).mean()) if int((val_city == c).sum()) else -1.0
           for c in range(4)]
rec["score_by_city"] = by_city

# more feature engineering: target encoding per city (index_add, scatter, put_along_axis reduce, segment_mean),
# weighted / density histograms, unique with its other outputs, isin, count_nonzero, normalize, diff
city = cat[:, 0]
yf = y.astype("float32")
sums = paddle.index_add(paddle.zeros([4]), city, 0, yf)
cnts = paddle.zeros([4]).scatter(city, paddle.ones([N]), overwrite=False)
rec["target_enc"] = [sums.numpy().tolist(), cnts.numpy().tolist(), (sums / cnts).numpy().tolist()]
pa = paddle.put_along_axis(paddle.zeros([4]), city, yf, 0, reduce="mean", include_self=False)
rec["put_along_mean"] = pa.numpy().tolist()
order_c = paddle.argsort(city, stable=True)
rec["segment_mean"] = paddle.geometric.segment_mean(paddle.gather(filled, order_c),
                                                    paddle.gather(city, order_c)).numpy().tolist()
rec["hist_weighted"] = [
    paddle.histogram(filled[:, 2], bins=4, min=0.0, max=1.0, weight=filled[:, 3]).numpy().tolist(),
    paddle.histogram(filled[:, 2], bins=4, min=0.0, max=1.0, density=True).numpy().tolist(),
]
u2, idx2, inv2, cnt2 = paddle.unique(cat[:, 1], return_index=True, return_inverse=True, return_counts=True,
                                     dtype="int32")
rec["unique_all"] = [u2.numpy().tolist(), idx2.numpy().tolist(), inv2[:12].numpy().tolist(), cnt2.numpy().tolist(),
                     str(idx2.dtype), str(cnt2.dtype)]
rec["isin"] = paddle.isin(cat[:12, 0], paddle.to_tensor([1, 3])).numpy().tolist()
rec["count_nonzero"] = paddle.count_nonzero(age_oh, axis=0).numpy().tolist()
rec["normalize"] = F.normalize(z[:3], p=2, axis=1).numpy().tolist()
rec["diff"] = paddle.diff(paddle.sort(filled[:, 0])[:10]).numpy().tolist()
rec["std_keepdim"] = [list(filled.std(axis=0, keepdim=True).shape), filled.std().item(),
                      paddle.std(filled[:, 3:], axis=None, unbiased=False).item()]
rec["quantile_keepdim"] = [list(paddle.quantile(filled, q=[0.5, 0.75], axis=1, keepdim=True).shape),
                           paddle.quantile(filled, q=0.5, axis=[0, 1]).item()]
rec["clip_z"] = paddle.clip(z, -1.5, 1.5).max(0).numpy().tolist()
rec["index_select"] = paddle.index_select(filled, paddle.to_tensor([5, 1]), axis=0).numpy().tolist()
rec["take"] = paddle.take(filled, paddle.to_tensor([[0, 5], [7, 383]])).numpy().tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
