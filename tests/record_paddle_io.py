"""Record Paddle's paddle.io behaviour into tests/data/paddle_io.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_io.py``. Stores the index
order of the deterministic samplers (SequenceSampler, BatchSampler, DistributedBatchSampler
with and without shuffle, by rank and epoch), ``len()`` of samplers and loaders, random_split
lengths, and the structure, dtypes, shapes and values of DataLoader batches for the dataset
kinds in ``io_cases`` (the test module builds the same datasets from the same names).
"""

import json
import os
import warnings

import io_cases
import numpy as np
import paddle
from paddle import io


def describe(x):
    if isinstance(x, paddle.Tensor):
        return {"T": str(x.dtype).replace("paddle.", ""), "shape": list(x.shape), "v": x.numpy().tolist()}
    if isinstance(x, np.ndarray):
        return {"np": str(x.dtype), "shape": list(x.shape), "v": x.tolist()}
    if isinstance(x, dict):
        return {"dict": {k: describe(v) for k, v in x.items()}}
    if isinstance(x, list | tuple):
        return {type(x).__name__: [describe(v) for v in x]}
    if isinstance(x, np.generic):
        return {"npscalar": str(x.dtype), "v": x.item()}
    return {"py": type(x).__name__, "v": x if not isinstance(x, bytes) else x.decode()}


def main():
    out = {"paddle": paddle.__version__}
    ds = io_cases.Range(10)
    out["sequence"] = list(io.SequenceSampler(ds))
    out["batch"] = {}
    for bs in (1, 3, 4, 10, 12):
        for dl in (False, True):
            bsamp = io.BatchSampler(ds, batch_size=bs, drop_last=dl)
            out["batch"][f"{bs}-{dl}"] = {"batches": list(bsamp), "len": len(bsamp)}
    bsamp = io.BatchSampler(sampler=io.SequenceSampler(io_cases.Range(7)), batch_size=2)
    out["batch_from_sampler"] = {"batches": list(bsamp), "len": len(bsamp)}
    out["distributed"] = []
    for n, nranks, bs, shuffle, dl in [(10, 1, 3, False, False), (10, 3, 2, False, False), (11, 2, 4, False, True),
                                         (10, 3, 2, True, False), (13, 4, 3, True, True), (5, 1, 2, True, False)]:
        for rank in range(nranks):
            s = io.DistributedBatchSampler(io_cases.Range(n), batch_size=bs, num_replicas=nranks, rank=rank,
                                           shuffle=shuffle, drop_last=dl)
            epochs = [list(s), list(s)]
            s.set_epoch(5)
            epochs.append(list(s))
            out["distributed"].append({"n": n, "nranks": nranks, "rank": rank, "bs": bs, "shuffle": shuffle,
                                       "drop_last": dl, "epochs": epochs, "len": len(s),
                                       "num_samples": s.num_samples, "total_size": s.total_size})
    out["random_split"] = []
    for n, lengths in [(10, [3, 7]), (10, [0.3, 0.7]), (11, [0.5, 0.5]), (7, [0.2, 0.2, 0.6]), (3, [0.1, 0.9])]:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            parts = io.random_split(io_cases.Range(n), lengths)
        out["random_split"].append({"n": n, "lengths": lengths, "sizes": [len(p) for p in parts],
                                    "warnings": len(w)})
    out["loaders"] = []
    for name in io_cases.MAP_CASES:
        for bs, dl in [(4, False), (4, True), (None, False)]:
            loader = io.DataLoader(io_cases.build(name, paddle), batch_size=bs, drop_last=dl)
            batches = [describe(b) for b in loader]
            out["loaders"].append({"name": name, "bs": bs, "drop_last": dl, "len": len(loader), "batches": batches})
    for name in io_cases.ITER_CASES:
        for bs, dl in [(4, False), (4, True), (None, False)]:
            loader = io.DataLoader(io_cases.build(name, paddle), batch_size=bs, drop_last=dl)
            out["loaders"].append({"name": name, "bs": bs, "drop_last": dl, "len": None,
                                   "batches": [describe(b) for b in loader]})
    out["collate"] = {name: describe(io.dataloader.collate.default_collate_fn(io_cases.samples(name, paddle)))
                      for name in io_cases.COLLATE_CASES}
    ds = io.ConcatDataset([io_cases.Range(3), io_cases.Range(4)])
    out["concat"] = {"len": len(ds), "items": [ds[i] for i in range(7)], "neg": [ds[-1], ds[-7]]}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_io.json")
    with open(path, "w") as f:
        json.dump(out, f)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
