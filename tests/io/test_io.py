"""paddle.io against Paddle's recorded behaviour (tests/record_paddle_io.py) and by statistics where Paddle's random
numbers differ (SubsetRandomSampler and random_split follow paddle.seed here; the shuffles that draw from numpy's
global state as Paddle's do are compared with Paddle's orders in test_sampler_streams.py)."""

import json
import os
import warnings

import io_cases
import io_worker_cases as wc
import jax
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax import io
from pylayer_jax.io._worker import WorkerInfo
from pylayer_jax.io.dataloader.collate import default_collate_fn

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_io.json")) as f:
    REC = json.load(f)


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
    return {"py": type(x).__name__, "v": x}


def test_sequence_and_batch_sampler_orders():
    ds = io_cases.Range(10)
    assert list(io.SequenceSampler(ds)) == REC["sequence"]
    for key, expect in REC["batch"].items():
        bs, dl = key.split("-")
        s = io.BatchSampler(ds, batch_size=int(bs), drop_last=dl == "True")
        assert list(s) == expect["batches"] and len(s) == expect["len"], key
    s = io.BatchSampler(sampler=io.SequenceSampler(io_cases.Range(7)), batch_size=2)
    assert list(s) == REC["batch_from_sampler"]["batches"] and len(s) == REC["batch_from_sampler"]["len"]


@pytest.mark.parametrize("case", REC["distributed"], ids=lambda c: f"n{c['n']}-r{c['rank']}of{c['nranks']}-s{c['shuffle']}")
def test_distributed_batch_sampler_matches_paddle(case):
    s = io.DistributedBatchSampler(io_cases.Range(case["n"]), batch_size=case["bs"], num_replicas=case["nranks"],
                                   rank=case["rank"], shuffle=case["shuffle"], drop_last=case["drop_last"])
    epochs = [list(s), list(s)]
    s.set_epoch(5)
    epochs.append(list(s))
    assert epochs == case["epochs"]
    assert (len(s), s.num_samples, s.total_size) == (case["len"], case["num_samples"], case["total_size"])


def test_distributed_batch_sampler_one_process_defaults():
    s = io.DistributedBatchSampler(io_cases.Range(7), batch_size=3)
    assert (s.nranks, s.local_rank) == (1, 0) and list(s) == [[0, 1, 2], [3, 4, 5], [6]]


@pytest.mark.parametrize("case", REC["random_split"], ids=lambda c: f"{c['n']}-{c['lengths']}")
def test_random_split_lengths_and_partition(case):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        parts = io.random_split(io_cases.Range(case["n"]), case["lengths"])
    assert [len(p) for p in parts] == case["sizes"] and len(w) == case["warnings"]
    assert sorted(i for p in parts for i in p.indices) == list(range(case["n"]))
    assert all(isinstance(p, io.Subset) for p in parts)


def test_random_split_follows_seed():
    paddle.seed(3)
    a = [p.indices for p in io.random_split(io_cases.Range(50), [0.5, 0.5])]
    paddle.seed(3)
    b = [p.indices for p in io.random_split(io_cases.Range(50), [0.5, 0.5])]
    c = [p.indices for p in io.random_split(io_cases.Range(50), [0.5, 0.5])]
    assert a == b and a != c


LOADERS = [c for c in REC["loaders"] if not (c["name"] == "pyfloat" and c["bs"] is None)]


@pytest.mark.parametrize("case", LOADERS, ids=lambda c: f"{c['name']}-{c['bs']}-{c['drop_last']}")
def test_loader_batches_match_paddle(case):
    loader = io.DataLoader(io_cases.build(case["name"], paddle), batch_size=case["bs"], drop_last=case["drop_last"])
    if case["len"] is not None:
        assert len(loader) == case["len"]
    assert [describe(b) for b in loader] == case["batches"]


def test_loader_bare_floats_without_batching():
    # Paddle 3.3.1 yields no batches here (its flattening drops bare numbers); we yield the samples
    loader = io.DataLoader(io_cases.build("pyfloat", paddle), batch_size=None)
    assert list(loader) == [0.25 * i for i in range(10)]


@pytest.mark.parametrize("name", list(REC["collate"]))
def test_default_collate_matches_paddle(name):
    assert describe(default_collate_fn(io_cases.samples(name, paddle))) == REC["collate"][name]


def test_concat_compose_chain_subset_tensor_datasets():
    ds = io.ConcatDataset([io_cases.Range(3), io_cases.Range(4)])
    c = REC["concat"]
    assert len(ds) == c["len"] and [ds[i] for i in range(7)] == c["items"] and [ds[-1], ds[-7]] == c["neg"]
    comp = io.ComposeDataset([io_cases.build("array_label", paddle), io_cases.build("dict", paddle)])
    assert len(comp) == 10 and len(comp[2]) == 3 and comp[2][2]["y"] == 2
    x = paddle.to_tensor(np.arange(12.0).reshape(6, 2))
    y = paddle.to_tensor(np.arange(6))
    td = io.TensorDataset([x, y])
    assert len(td) == 6
    np.testing.assert_array_equal(td[4][0].numpy(), [8.0, 9.0])
    batches = list(io.DataLoader(td, batch_size=4))
    np.testing.assert_array_equal(batches[1][0].numpy(), [[8.0, 9.0], [10.0, 11.0]])
    np.testing.assert_array_equal(batches[0][1].numpy(), [0, 1, 2, 3])
    sub = io.Subset(td, [5, 0])
    np.testing.assert_array_equal(sub[0][1].numpy(), 5)
    chain = io.ChainDataset([wc.Shards(3), wc.Shards(2)])
    assert [int(a[0]) for a in chain] == [0, 1, 2, 0, 1]


def test_random_sampler_is_a_permutation_following_numpy_seed():
    ds = io_cases.Range(100)
    np.random.seed(11)
    a = list(io.RandomSampler(ds))
    np.random.seed(11)
    b = list(io.RandomSampler(ds))
    c = list(io.RandomSampler(ds))
    assert sorted(a) == list(range(100)) and a == b and a != c and a != list(range(100))
    s = io.RandomSampler(ds, num_samples=10)
    first = list(s)
    assert len(first) == 10 == len(s) and len(set(first)) == 10
    r = list(io.RandomSampler(io_cases.Range(5), replacement=True, num_samples=5000))
    counts = np.bincount(r, minlength=5)
    assert len(r) == 5000 and np.all(np.abs(counts - 1000) < 150), counts  # 4.7 sigma
    assert list(io.RandomSampler(ds, num_samples=3, generator=iter([7, 8, 9, 10]))) == [7, 8, 9]


def test_subset_and_weighted_samplers():
    paddle.seed(1)
    s = list(io.SubsetRandomSampler([10, 20, 30, 40]))
    assert sorted(s) == [10, 20, 30, 40]
    w = io.WeightedRandomSampler([0.1, 0.0, 0.6, 0.3], num_samples=20000)
    draws = np.array(list(w))
    freq = np.bincount(draws, minlength=4) / 20000
    np.testing.assert_allclose(freq, [0.1, 0.0, 0.6, 0.3], atol=0.015)
    assert len(w) == 20000
    nw = io.WeightedRandomSampler(np.array([1.0, 2.0, 3.0, 0.0]), num_samples=3, replacement=False)
    assert sorted(nw) == [0, 1, 2]
    w2 = io.WeightedRandomSampler(paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]]), num_samples=3)
    assert list(w2) == [0, 0, 0, 1, 1, 1] and len(w2) == 6


def test_shuffled_loader_epochs_are_permutations_and_follow_numpy_seed():
    ds = wc.Squares(10)
    loader = io.DataLoader(ds, batch_size=3, shuffle=True)

    def epoch():
        return [int(v) for _, y in loader for v in y.numpy()]

    np.random.seed(5)
    e1, e2 = epoch(), epoch()
    np.random.seed(5)
    assert epoch() == e1
    assert sorted(e1) == sorted(e2) == list(range(10)) and e1 != e2
    assert len(loader) == 4


def test_loader_with_batch_sampler_and_collate_fn():
    ds = wc.Squares(7)
    bs = io.BatchSampler(ds, batch_size=3, drop_last=True)
    loader = io.DataLoader(ds, batch_sampler=bs, collate_fn=lambda samples: np.stack([s[0] for s in samples]).sum(0))
    out = [b.numpy().tolist() for b in loader]
    assert out == [[3.0, 5.0], [12.0, 50.0]] and len(loader) == 2
    d = io.DataLoader(ds, batch_size=2, return_list=False, places=jax.default_backend())  # return_list: no effect in dynamic mode
    assert len(list(d)) == 4


def test_loader_batches_are_device_arrays_once():
    x, y = next(iter(io.DataLoader(wc.Squares(4), batch_size=4)))
    assert isinstance(x._value, jax.Array) and x.stop_gradient and x.dtype == paddle.float32
    assert y.dtype == paddle.int64


def test_workers_match_single_process():
    ds = wc.Squares(11)
    single = [(x.numpy().tolist(), y.numpy().tolist()) for x, y in io.DataLoader(ds, batch_size=3)]
    multi = [(x.numpy().tolist(), y.numpy().tolist()) for x, y in io.DataLoader(ds, batch_size=3, num_workers=2)]
    assert multi == single and len(single) == 4


def test_worker_info_seeds_init_fn_and_persistent_workers():
    assert io.get_worker_info() is None
    loader = io.DataLoader(wc.WhoAmI(), batch_size=2, num_workers=2, persistent_workers=True,
                           worker_init_fn=wc.record_init)
    np.random.seed(4)  # (the workers' base seed is drawn from numpy's state, as in Paddle)
    e1 = [[v.numpy().tolist() for v in b] for b in loader]
    for _b in loader:  # an epoch left after one batch: its batches still in flight are dropped
        break
    e2 = [[v.numpy().tolist() for v in b] for b in loader]
    assert [i for b in e2 for i in b[0]] == list(range(8))
    idx = [i for b in e1 for i in b[0]]
    wids = [w for b in e1 for w in b[1]]
    pids1 = {p for b in e1 for p in b[2]}
    pids2 = {p for b in e2 for p in b[2]}
    assert idx == list(range(8)) and wids == [0, 0, 1, 1, 0, 0, 1, 1]
    assert len(pids1) == 2 and pids1 == pids2 and os.getpid() not in pids1  # the same two workers both epochs
    np.random.seed(4)
    again = [[v.numpy().tolist() for v in b] for b in io.DataLoader(wc.WhoAmI(), batch_size=2, num_workers=2)]
    assert [b[3] for b in again] == [b[3] for b in e1] and [b[4] for b in again] == [b[4] for b in e1]
    assert [m for b in e1 for m in b[5]] == wids  # worker_init_fn(worker_id) ran in each worker
    assert [m for b in again for m in b[5]] == [-1] * 8  # and only where it was given
    assert len({v for b in e1 for v in b[3]}) == 8  # workers draw different numbers


def test_iterable_dataset_with_workers_splits_by_worker_info():
    loader = io.DataLoader(wc.Shards(10), batch_size=2, num_workers=2)
    got = sorted(int(v) for b in loader for v in b.numpy().ravel())
    assert got == list(range(10))
    with pytest.raises(ValueError, match="has no length"):
        len(loader)


def test_worker_errors_surface():
    with pytest.raises(KeyError, match="sample 3 is missing"):
        list(io.DataLoader(wc.Fails(), batch_size=1, num_workers=1))
    with pytest.raises(RuntimeError, match="within timeout=1"):
        list(io.DataLoader(wc.Slow(), batch_size=1, num_workers=1, timeout=1))
    with pytest.raises(TypeError, match="pickling failed"):
        list(io.DataLoader(wc.Squares(3), num_workers=1, collate_fn=lambda b: b))


@pytest.mark.parametrize(
    "make, exc, match",
    [
        (lambda: io.DataLoader(wc.Squares(3), batch_size=0), ValueError, "batch_size must be a positive int or None"),
        (lambda: io.DataLoader(wc.Squares(3), num_workers=-1), ValueError, "num_workers must be an int >= 0"),
        (lambda: io.DataLoader(wc.Squares(3), timeout=-1), ValueError, "timeout must be a number >= 0"),
        (lambda: io.DataLoader(wc.Squares(3), prefetch_factor=0), ValueError, "prefetch_factor must be a positive int"),
        (lambda: io.DataLoader(wc.Shards(3), shuffle=True), ValueError, "cannot be shuffled"),
        (lambda: io.DataLoader(wc.Shards(3), batch_sampler=[[0]]), ValueError, "takes no batch_sampler"),
        (lambda: io.DataLoader(wc.Squares(3), batch_sampler=io.BatchSampler(wc.Squares(3)), batch_size=2), ValueError,
         "must keep their defaults"),
        (lambda: io.DataLoader(wc.Squares(3), collate_fn=3), TypeError, "collate_fn must be a function"),
        (lambda: io.DataLoader(wc.Squares(3), feed_list=[1]), NotImplementedError, "feed_list"),
        (lambda: io.DataLoader(wc.Squares(3), places=["cpu", "cpu"]), NotImplementedError, "places with 2 devices"),
        (lambda: io.DataLoader(wc.Squares(3), places="gpu:0" if jax.default_backend() == "cpu" else "cpu"), NotImplementedError, "names another"),
        (lambda: io.DataLoader(5), TypeError, "dataset must be a paddle.io.Dataset"),
        (lambda: io.BatchSampler(), ValueError, "pass either dataset or sampler"),
        (lambda: io.BatchSampler(io_cases.Range(3), batch_size=-1), ValueError, "batch_size must be a positive int"),
        (lambda: io.BatchSampler(io_cases.Range(3), shuffle=1), TypeError, "shuffle must be a bool"),
        (lambda: io.BatchSampler(io_cases.Range(3), sampler=[0]), ValueError, "not both"),
        (lambda: io.BatchSampler(sampler=[0], shuffle=True), ValueError, "shuffle must be False"),
        (lambda: io.BatchSampler(wc.Shards(3)), TypeError, "must be map-style"),
        (lambda: io.DistributedBatchSampler(io_cases.Range(3), 2, num_replicas=2, rank=2), ValueError, "rank must be <"),
        (lambda: io.DistributedBatchSampler(io_cases.Range(3), 0), ValueError, "batch_size must be a positive int"),
        (lambda: io.RandomSampler(io_cases.Range(3), replacement=1), TypeError, "replacement must be a bool"),
        (lambda: io.RandomSampler(io_cases.Range(3), num_samples=5), ValueError, "cannot exceed"),
        (lambda: io.RandomSampler(io_cases.Range(3), num_samples=0), ValueError, "num_samples must be a positive int"),
        (lambda: io.SubsetRandomSampler([]), ValueError, "indices must not be empty"),
        (lambda: io.WeightedRandomSampler([1.0, -1.0], 2), ValueError, "finite and >= 0"),
        (lambda: io.WeightedRandomSampler([0.0, 0.0], 2), ValueError, "needs a positive value"),
        (lambda: io.WeightedRandomSampler([1.0, 0.0], 2, replacement=False), ValueError, "at least num_samples=2"),
        (lambda: io.WeightedRandomSampler("ab", 2), TypeError, "weights must be a Tensor"),
        (lambda: io.WeightedRandomSampler([1.0], 0), ValueError, "num_samples must be a positive int"),
        (lambda: io.TensorDataset([paddle.ones([2]), paddle.ones([3])]), ValueError, "same first dimension"),
        (lambda: io.TensorDataset([np.ones(2)]), TypeError, "non-empty list of Tensors"),
        (lambda: io.ComposeDataset([wc.Squares(2), wc.Squares(3)]), ValueError, "same length"),
        (lambda: io.ComposeDataset([]), ValueError, "must not be empty"),
        (lambda: io.ComposeDataset([wc.Shards(2)]), TypeError, "IterableDataset"),
        (lambda: io.ConcatDataset([5]), TypeError, r"datasets\[0\] must be a map-style dataset"),
        (lambda: io.ComposeDataset([[1]]), TypeError, r"datasets\[0\] must be a paddle.io.Dataset"),
        (lambda: io.ChainDataset([wc.Squares(2)]), TypeError, "must be a paddle.io.IterableDataset"),
        (lambda: io.ConcatDataset([wc.Squares(2)])[-3], ValueError, "out of range"),
        (lambda: io.random_split(io_cases.Range(5), [2, 2]), ValueError, "must sum to the dataset's length 5"),
        (lambda: io.random_split(io_cases.Range(5), [1.5, -0.5]), ValueError, r"fraction at index 0 must lie in \[0, 1\]"),
        (lambda: io.random_split(io_cases.Range(5), [2, 3], generator=1), NotImplementedError, "generator"),
        (lambda: default_collate_fn([object()]), TypeError, "pass a collate_fn"),
        (lambda: default_collate_fn([(1, 2), (1,)]), RuntimeError, "same number of fields"),
        (lambda: wc.Shards(2)[0], RuntimeError, "has no __getitem__"),
        (lambda: len(wc.Shards(2)), RuntimeError, "has no __len__"),
        (lambda: io.Dataset()[0], NotImplementedError, "must define __getitem__"),
    ],
)
def test_misuse_raises(make, exc, match):
    with pytest.raises(exc, match=match):
        make()


def test_worker_info_is_read_only():
    assert not hasattr(io, "WorkerInfo")  # not public in Paddle's paddle.io
    w = WorkerInfo(id=0, num_workers=1, dataset=None, seed=1)
    with pytest.raises(RuntimeError, match="read-only"):
        w.id = 3


def test_training_loop_with_loader_and_scheduler_matches_numpy():
    """Linear regression fed by a shuffled loader, the rate from a scheduler each step, against numpy
    running the same batches (in the order the loader gave them) and the same rates."""
    rng = np.random.default_rng(0)
    xs = rng.normal(size=(20, 3))
    ys = xs @ np.array([1.0, -2.0, 0.5]) + 0.1
    ids = np.arange(20)
    ds = io.TensorDataset([paddle.to_tensor(xs), paddle.to_tensor(ys), paddle.to_tensor(ids)])
    w = paddle.zeros([3], dtype="float64")
    w.stop_gradient = False
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=3, gamma=0.5)
    opt = paddle.optimizer.SGD(learning_rate=sched(), parameters=[w])
    paddle.seed(2)
    seen, rates = [], []
    for _ in range(2):
        for x, y, i in io.DataLoader(ds, batch_size=6, shuffle=True, drop_last=True):
            loss = ((paddle.matmul(x, w) - y) ** 2).mean()
            loss.backward()
            opt.set_lr(sched())
            opt.step()
            opt.clear_grad()
            seen.append(i.numpy())
            rates.append(sched())
            sched.step()
    wn = np.zeros(3)
    for i, lr_ in zip(seen, rates):
        x, y = xs[i], ys[i]
        wn = wn - lr_ * (2 * x.T @ (x @ wn - y) / len(i))
    assert len(seen) == 6 and rates == [0.1 * 0.5 ** (k // 3) for k in range(6)]
    np.testing.assert_allclose(w.numpy(), wn, rtol=1e-10)
