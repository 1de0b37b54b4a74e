"""Data pipeline idioms: TensorDataset, a map Dataset with a collate_fn building padded batches and lengths,
BatchSampler over a SequenceSampler, an IterableDataset, ComposeDataset/ChainDataset, Subset, DataLoader with
return_list, drop_last, and a custom sampler; a bag-of-embeddings classifier trained on them."""
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
    DataLoader,
    Dataset,
    IterableDataset,
    SequenceSampler,
    Subset,
    TensorDataset,
)

rng = np.random.default_rng(0)
seqs = [rng.integers(1, 30, size=rng.integers(2, 9)).tolist() for _ in range(40)]
labels = [int(sum(s) % 3) for s in seqs]


class SeqDS(Dataset):
    def __getitem__(self, i):
        return np.array(seqs[i], "int64"), labels[i]

    def __len__(self):
        return len(seqs)


def collate(batch):
    n = max(len(s) for s, _ in batch)
    ids = np.zeros((len(batch), n), "int64")
    for j, (s, _) in enumerate(batch):
        ids[j, :len(s)] = s
    return ids, np.array([len(s) for s, _ in batch], "int64"), np.array([y for _, y in batch], "int64")


class Stream(IterableDataset):
    def __iter__(self):
        for i in range(10):
            yield np.full([3], i, "float32"), np.array([i % 2], "int64")


rec = {}
td = TensorDataset([paddle.to_tensor(np.arange(12, dtype="float32").reshape(6, 2)), paddle.to_tensor(np.arange(6))])
rec["tensor_ds"] = [len(td), [np.asarray(a).tolist() for a in td[4]]]
dl = DataLoader(td, batch_size=4, shuffle=False)
rec["tensor_ds_batches"] = [[list(b.shape) for b in batch] for batch in dl]
rec["tensor_ds_dtypes"] = [[str(b.dtype) for b in batch] for batch in dl]
comp = ComposeDataset([TensorDataset([paddle.arange(4).astype("float32")]), TensorDataset([paddle.arange(4) * 2])])
rec["compose"] = [len(comp), [np.asarray(a).tolist() for a in comp[2]]]
chain = ChainDataset([Stream(), Stream()])
rec["chain_n"] = sum(1 for _ in chain)
stream_batches = [[b[0].shape, b[1].numpy().ravel().tolist()] for b in DataLoader(Stream(), batch_size=4)]
rec["stream"] = [[list(s), v] for s, v in stream_batches]
sub = Subset(SeqDS(), indices=list(range(0, 40, 2)))
rec["subset_len"] = len(sub)
bs = BatchSampler(sampler=SequenceSampler(SeqDS()), batch_size=6, drop_last=True)
rec["batch_sampler"] = [len(bs), list(iter(bs))[1]]

emb = nn.Embedding(30, 6, padding_idx=0)
fc = nn.Linear(6, 3)
r = np.random.default_rng(1)
emb.weight.set_value(r.standard_normal((30, 6)).astype("float32"))
fc.weight.set_value(r.standard_normal((6, 3)).astype("float32") * 0.5)
fc.bias.set_value(np.zeros(3, "float32"))
opt = paddle.optimizer.Adagrad(learning_rate=0.1, parameters=emb.parameters() + fc.parameters())
loader = DataLoader(SeqDS(), batch_sampler=BatchSampler(SeqDS(), batch_size=8, shuffle=False, drop_last=False),
                    collate_fn=collate)
rec["loss"], rec["shapes"] = [], []
for _epoch in range(3):
    for ids, lens, y in loader:
        rec["shapes"].append(list(ids.shape))
        mask = paddle.arange(ids.shape[1]).unsqueeze(0) < lens.unsqueeze(1)
        e = emb(ids) * mask.unsqueeze(-1).astype("float32")
        pooled = e.sum(1) / lens.unsqueeze(1).astype("float32")
        loss = F.cross_entropy(fc(pooled), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        rec["loss"].append(float(loss))
rec["emb_pad_row"] = emb.weight.numpy()[0].tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
