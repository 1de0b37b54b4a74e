"""Data loading as real code does it: DataLoader with a batch_sampler, custom collate_fns returning dicts, tuples
and nested structures, return_list=False, drop_last, shuffle=True after np.random.seed (Paddle's samplers draw
from numpy's global stream), BatchSampler(dataset=) and BatchSampler(sampler=), SequenceSampler, RandomSampler
(replacement, num_samples), WeightedRandomSampler, DistributedBatchSampler (num_replicas, rank, shuffle,
drop_last, set_epoch), IterableDatasets read with and without num_workers=2 (sharded by get_worker_info),
TensorDataset, ComposeDataset, ChainDataset, Subset, ConcatDataset, random_split with lengths and fractions,
default_collate_fn / default_convert_fn on numpy scalars and arrays, strings, dicts of lists and Tensors, len() of
each loader, the batches' dtypes, shapes and stop_gradient; then a small regressor trained over epochs from a
shuffled loader with a dict-building collate_fn.

random_split and SubsetRandomSampler draw from the library's own generator (Paddle's and JAX's streams differ), so
only their lengths and the union of the indices are recorded.

Not mirrored, left out here: Paddle's DistributedBatchSampler accepts rank >= num_replicas (its batches then take
indices past its own share); here that is a ValueError naming both. WeightedRandomSampler's len() of list weights
(an AttributeError in Paddle: it reads ``weights.shape``; here the number of samples), so numpy weights are used.
num_workers > 0: pylayer_jax starts worker processes with 'spawn' (forking after JAX has started threads can
deadlock), which re-imports the main script, so a script like this one without an ``if __name__ == "__main__":``
guard cannot use workers (Paddle forks); the workers' sharding by get_worker_info is tested in tests/io."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.io import (
    BatchSampler,
    ChainDataset,
    ComposeDataset,
    ConcatDataset,
    DataLoader,
    Dataset,
    DistributedBatchSampler,
    IterableDataset,
    RandomSampler,
    SequenceSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    get_worker_info,
    random_split,
)
from paddle.io.dataloader.collate import default_collate_fn, default_convert_fn

rng = np.random.default_rng(0)
X = rng.standard_normal((30, 4)).astype("float32")
W_TRUE = np.array([1.0, -2.0, 0.5, 3.0], "float32")
Y = (X @ W_TRUE + 0.1 * rng.standard_normal(30)).astype("float32")


def plain(x):
    if isinstance(x, (list, tuple)):
        return [plain(a) for a in x]
    if isinstance(x, dict):
        return {k: plain(a) for k, a in x.items()}
    if isinstance(x, (np.ndarray, np.generic)) or hasattr(x, "numpy"):
        a = np.asarray(x)
        return a.tolist() if a.dtype.kind in "biu" else a.astype("float64").tolist()
    return x


def desc(x):
    """Type, shape, dtype and stop_gradient of each leaf of a batch."""
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [desc(a) for a in x]]
    if isinstance(x, dict):
        return {k: desc(a) for k, a in x.items()}
    if isinstance(x, paddle.Tensor):
        return ["Tensor", list(x.shape), str(x.dtype), bool(x.stop_gradient)]
    if isinstance(x, np.ndarray):
        return ["ndarray", list(x.shape), str(x.dtype)]
    return [type(x).__name__, x]


class Rows(Dataset):
    def __init__(self, n=30):
        self.n = n

    def __getitem__(self, i):
        return X[i], np.array([Y[i]], "float32"), i

    def __len__(self):
        return self.n


class Records(Dataset):
    """Samples as dicts with a string, a list and a numpy scalar."""

    def __getitem__(self, i):
        return {"x": X[i], "name": f"row{i}", "tags": [i, i * 2], "w": np.float32(i / 10), "id": np.int64(i)}

    def __len__(self):
        return 12


class Stream(IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            lo, hi = self.start, self.end
        else:
            per = int(np.ceil((self.end - self.start) / info.num_workers))
            lo = self.start + info.id * per
            hi = min(lo + per, self.end)
        for i in range(lo, hi):
            yield np.array([i], "int64"), X[i % 30]


rec = {}

# ---- samplers -------------------------------------------------------------------------------------------------------
ds = Rows()
rec["sequence"] = list(SequenceSampler(ds))[:5]
np.random.seed(3)
rec["random"] = list(RandomSampler(ds))
np.random.seed(4)
rs = RandomSampler(ds, replacement=True, num_samples=12)
rec["random_repl"] = [len(rs), list(rs)]
np.random.seed(5)
rs2 = RandomSampler(ds, replacement=False, num_samples=7)
rec["random_norepl_n"] = [len(rs2), list(rs2)]
np.random.seed(6)
ws = WeightedRandomSampler(np.array([0.1, 0.0, 0.5, 0.2, 0.2]), num_samples=10, replacement=True)
rec["weighted"] = [len(ws), plain(list(ws))]
np.random.seed(7)
ws2 = WeightedRandomSampler(np.array([1.0, 2.0, 3.0, 4.0, 0.0]), num_samples=4, replacement=False)
rec["weighted_norepl"] = plain(list(ws2))
bs = BatchSampler(dataset=ds, batch_size=7, shuffle=False, drop_last=False)
rec["bs_dataset"] = [len(bs), [len(b) for b in bs], list(bs)[-1]]
np.random.seed(8)
bs2 = BatchSampler(sampler=RandomSampler(ds), batch_size=8, drop_last=True)
rec["bs_sampler"] = [len(bs2), list(bs2)]
np.random.seed(9)
bs3 = BatchSampler(dataset=ds, batch_size=9, shuffle=True, drop_last=False)
rec["bs_shuffle"] = [len(bs3), list(bs3)]
srs = SubsetRandomSampler([1, 3, 5, 7, 9])
rec["subset_random"] = [len(srs), sorted(srs)]

# ---- DistributedBatchSampler: every rank's batches, shuffled per epoch ---------------------------------------------
dist = {}
for rank in range(3):
    s = DistributedBatchSampler(ds, batch_size=4, num_replicas=3, rank=rank, shuffle=False, drop_last=False)
    dist[f"r{rank}"] = [len(s), list(s)]
    s2 = DistributedBatchSampler(Rows(29), batch_size=3, num_replicas=3, rank=rank, shuffle=True, drop_last=True)
    epochs = []
    for ep in range(2):
        s2.set_epoch(ep)
        epochs.append(list(s2))
    dist[f"r{rank}_shuffled"] = [len(s2), s2.num_samples, s2.total_size, epochs]
rec["distributed"] = dist
dl_dist = DataLoader(ds, batch_sampler=DistributedBatchSampler(ds, batch_size=5, num_replicas=2, rank=1))
rec["dist_loader"] = [len(dl_dist), [plain(b[2]) for b in dl_dist]]

# ---- datasets -------------------------------------------------------------------------------------------------------
td = TensorDataset([paddle.to_tensor(X[:6]), paddle.to_tensor(Y[:6]), paddle.arange(6)])
rec["tensor_ds"] = [len(td), desc(td[2]), plain(td[5])]
comp = ComposeDataset([Rows(10), TensorDataset([paddle.arange(10).astype("float32")])])
rec["compose"] = [len(comp), desc(comp[3])]
sub = Subset(ds, indices=[0, 5, 10, 15])
rec["subset"] = [len(sub), sub[2][2], [s[2] for s in sub]]
cat = ConcatDataset([Rows(5), Subset(Rows(), [20, 21, 22]), Rows(4)])
rec["concat"] = [len(cat), [cat[i][2] for i in range(len(cat))], cat[-1][2], cat.cumulative_sizes]
chain = ChainDataset([Stream(0, 3), Stream(10, 12)])
rec["chain"] = [plain(a) for a, _ in chain]
paddle.seed(11)
parts = random_split(ds, [20, 10])
rec["split_lengths"] = [len(p) for p in parts]
rec["split_union"] = sorted(p[i][2] for p in parts for i in range(len(p)))
fparts = random_split(range(10), [0.5, 0.3, 0.2])
rec["split_fractions"] = [len(p) for p in fparts]
fparts2 = random_split(range(11), [0.5, 0.5])
rec["split_fractions_odd"] = [len(p) for p in fparts2]

# ---- collate / convert functions -----------------------------------------------------------------------------------
rec["collate_records"] = desc(default_collate_fn([Records()[i] for i in range(3)]))
rec["collate_records_vals"] = plain({k: v for k, v in default_collate_fn([Records()[i] for i in range(3)]).items()
                                     if k != "name"})
rec["collate_names"] = default_collate_fn([Records()[i] for i in range(3)])["name"]
rec["collate_scalars"] = desc(default_collate_fn([np.float64(1.5), np.float64(2.5)]))
rec["collate_ints"] = desc(default_collate_fn([1, 2, 3]))
rec["collate_floats"] = desc(default_collate_fn([1.0, 2.0]))
rec["collate_tensors"] = desc(default_collate_fn([paddle.ones([2]), paddle.zeros([2])]))
rec["collate_nested"] = desc(default_collate_fn([(np.ones(2, "int32"), {"a": np.float32(1)}),
                                                 (np.zeros(2, "int32"), {"a": np.float32(2)})]))
rec["convert"] = desc(default_convert_fn({"a": np.arange(3), "b": [np.ones(2, "float32"), "s"], "c": 4}))

# ---- DataLoader variants ------------------------------------------------------------------------------------------
dl = DataLoader(Records(), batch_size=5, shuffle=False)
rec["records_loader"] = [len(dl), [desc(b) for b in dl]]
dl = DataLoader(ds, batch_size=8, shuffle=False, drop_last=True, return_list=False)
rec["return_list_false"] = [len(dl), [desc(b) for b in dl][:1]]
np.random.seed(12)
dl = DataLoader(ds, batch_size=8, shuffle=True, drop_last=False)
rec["shuffled_ids"] = [len(dl), [plain(b[2]) for b in dl], [plain(b[2]) for b in dl]]


def dict_collate(batch):
    x = np.stack([b[0] for b in batch])
    return {"x": x, "y": np.stack([b[1] for b in batch]), "meta": {"ids": [b[2] for b in batch], "n": len(batch)}}


def tuple_collate(batch):
    return (np.stack([b[0] for b in batch]), (np.stack([b[1] for b in batch]), [b[2] for b in batch]))


dl = DataLoader(ds, batch_sampler=BatchSampler(dataset=ds, batch_size=11), collate_fn=dict_collate)
rec["dict_collate"] = [len(dl), [desc(b) for b in dl]]
dl = DataLoader(ds, batch_size=12, collate_fn=tuple_collate)
rec["tuple_collate"] = [len(dl), [desc(b) for b in dl]]
dl = DataLoader(td, batch_size=4)
rec["tensor_loader"] = [len(dl), [desc(b) for b in dl]]
dl = DataLoader(comp, batch_size=4)
rec["compose_loader"] = [desc(b) for b in dl]
dl = DataLoader(cat, batch_size=5, drop_last=True)
rec["concat_loader"] = [len(dl), [plain(b[2]) for b in dl]]
dl = DataLoader(Stream(0, 10), batch_size=4)
rec["stream_loader"] = [[desc(b), plain(b[0])] for b in dl]
dl = DataLoader(Stream(0, 10), batch_size=3, drop_last=True)
rec["stream_drop_last"] = [plain(b[0].flatten()) for b in dl]
try:
    len(DataLoader(Stream(0, 10), batch_size=4))
    rec["stream_len"] = "ok"
except (TypeError, ValueError) as e:
    rec["stream_len"] = type(e).__name__

# ---- edge cases code meets: no batching, grad-carrying samples, conflicting arguments -------------------------------
dl = DataLoader(Rows(5), batch_size=None)
rec["unbatched"] = [len(dl), [desc(b) for b in dl][:2]]
w = paddle.to_tensor(X[:4], stop_gradient=False)
grad_ds = TensorDataset([w])
rec["grad_sample"] = desc(grad_ds[1])
rec["grad_batch"] = [desc(b) for b in DataLoader(grad_ds, batch_size=2)]
rec["worker_info_main"] = get_worker_info() is None
dl = DataLoader(ds, batch_size=16, shuffle=False, num_workers=0, worker_init_fn=lambda i: None,
                use_shared_memory=False, timeout=0, prefetch_factor=2)
rec["loader_kwargs"] = [len(dl), [list(b[0].shape) for b in dl]]
for name, make in [("bs_and_sampler", lambda: DataLoader(ds, batch_size=4, batch_sampler=BatchSampler(ds, 4))),
                   ("shuffle_and_sampler", lambda: DataLoader(ds, shuffle=True, batch_sampler=BatchSampler(ds, 4))),
                   ("bs_zero", lambda: BatchSampler(ds, batch_size=0)),
                   ("bs_no_source", lambda: BatchSampler(batch_size=3)),
                   ("bs_both", lambda: BatchSampler(ds, sampler=SequenceSampler(ds), batch_size=3)),
                   ("random_bad_n", lambda: RandomSampler(ds, num_samples=0)),
                   ("weighted_bad_n", lambda: WeightedRandomSampler(np.ones(3), num_samples=5, replacement=False)
                    .__iter__().__next__()),
                   ("split_bad", lambda: random_split(ds, [10, 10])),
                   ("subset_random_empty", lambda: SubsetRandomSampler([])),
                   ("tensor_ds_sizes", lambda: TensorDataset([paddle.ones([3, 2]), paddle.ones([4])])),
                   ("negative_workers", lambda: DataLoader(ds, num_workers=-1))]:
    try:
        make()
        rec["err_" + name] = "ok"
    except Exception as e:  # noqa: BLE001
        rec["err_" + name] = type(e).__name__

# ---- training over epochs from a shuffled loader ---------------------------------------------------------------------
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.5).astype("float32") for k, v in model.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters())
np.random.seed(13)
loader = DataLoader(ds, batch_size=6, shuffle=True, drop_last=True, collate_fn=dict_collate)
rec["train_len"] = len(loader)
rec["losses"], rec["ids"] = [], []
for _epoch in range(4):
    for batch in loader:
        x = paddle.to_tensor(batch["x"])
        y = paddle.to_tensor(batch["y"])
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        rec["losses"].append(float(loss))
        rec["ids"].append(batch["meta"]["ids"])
rec["final"] = plain(model(paddle.to_tensor(X[:3])))
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
