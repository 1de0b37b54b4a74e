"""Data sampling in one process: DistributedBatchSampler (shuffle with set_epoch, padding to the replicas, two ranks
simulated, drop_last) driving a DataLoader that trains a model (its order is Paddle's: a numpy RandomState seeded
with the epoch), RandomSampler with a generator and with replacement, WeightedRandomSampler, SubsetRandomSampler,
random_split by lengths and by fractions, BatchSampler lengths, ConcatDataset, dict samples collated.

RandomSampler, WeightedRandomSampler and DataLoader(shuffle=True) draw from numpy's global generator, as Paddle's
do: after np.random.seed their orders are recorded. Known difference (not mirrored): random_split and
SubsetRandomSampler draw from Paddle's own generator, whose stream is not reproduced: only what does not depend on
their draws is recorded (lengths, sets)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.io import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    DistributedBatchSampler,
    RandomSampler,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    random_split,
)

rng = np.random.default_rng(0)
X = rng.standard_normal((37, 4)).astype("float32")
Y = (X @ np.array([1.0, -2.0, 0.5, 1.0]) > 0).astype("int64")


class DictDS(Dataset):
    def __getitem__(self, i):
        return {"x": X[i], "y": Y[i], "idx": i, "w": float(i % 3) / 2}

    def __len__(self):
        return len(X)


rec = {}
ds = DictDS()
for ranks, drop in ((1, False), (2, False), (3, True)):
    orders = []
    for rank in range(ranks):
        s = DistributedBatchSampler(ds, batch_size=5, num_replicas=ranks, rank=rank, shuffle=True, drop_last=drop)
        epochs = []
        for ep in range(2):
            s.set_epoch(ep)
            epochs.append([b for b in s])
        orders.append([len(s), epochs])
    rec[f"dist_{ranks}_{drop}"] = orders
plain = DistributedBatchSampler(ds, batch_size=8)
rec["dist_plain"] = [len(plain), list(plain)]

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.5).astype("float32") for k, v in model.state_dict().items()})
opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
sampler = DistributedBatchSampler(ds, batch_size=6, shuffle=True, drop_last=True)
loader = DataLoader(ds, batch_sampler=sampler)
rec["loss"], rec["batch_idx"] = [], []
for ep in range(3):
    sampler.set_epoch(ep)
    for batch in loader:
        logits = model(batch["x"])
        loss = (F.cross_entropy(logits, batch["y"], reduction="none").squeeze() * (1 + batch["w"].astype("float32"))).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        rec["loss"].append(loss.item())
        rec["batch_idx"].append(batch["idx"].numpy().tolist())
rec["batch_dtypes"] = [str(batch[k].dtype) for k in ("x", "y", "idx", "w")]

gen = iter([5, 3, 1, 0, 2])
rec["gen_sampler"] = list(RandomSampler(ds, generator=gen, num_samples=4))
np.random.seed(1)
rec["random_perm"] = list(RandomSampler(ds))
rec["random_repl"] = list(RandomSampler(ds, replacement=True, num_samples=20))
rec["random_part"] = list(RandomSampler(ds, num_samples=6))
ws = list(WeightedRandomSampler(np.array([0.0, 1.0, 3.0, 0.0, 6.0]), num_samples=400, replacement=True))
rec["weighted"] = [len(ws), ws[:20], np.bincount(ws, minlength=5).tolist()]
rec["weighted_norepl"] = list(WeightedRandomSampler(np.array([1.0, 1.0, 5.0, 0.5]), 4, replacement=False))
sub = list(SubsetRandomSampler([3, 9, 27, 30]))
rec["subset_random"] = sorted(sub)
parts = random_split(TensorDataset([paddle.to_tensor(X), paddle.to_tensor(Y)]), [30, 7])
rec["split"] = [len(p) for p in parts] + [sorted(parts[0].indices + parts[1].indices) == list(range(37))]
fr = random_split(range(10), [0.5, 0.3, 0.2])
rec["split_frac"] = [len(p) for p in fr]
bs = BatchSampler(sampler=RandomSampler(ds), batch_size=8, drop_last=False)
rec["batch_sampler_len"] = [len(bs), [len(b) for b in bs]]
cat = ConcatDataset([ds, TensorDataset([paddle.arange(3).astype("float32"), paddle.arange(3)])])
rec["concat"] = [len(cat), int(cat[36]["idx"]), [np.asarray(v).tolist() for v in cat[38]]]
dl = DataLoader(TensorDataset([paddle.to_tensor(X), paddle.to_tensor(Y)]), batch_size=10, shuffle=True, drop_last=True)
rec["shuffle_lens"] = [len(dl), [b[0].shape[0] for b in dl]]
np.random.seed(7)
dl = DataLoader(ds, batch_size=8, shuffle=True)
rec["shuffle_epochs"] = [[b["idx"].numpy().tolist() for b in dl] for _ in range(2)]
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
