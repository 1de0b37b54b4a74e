"""Cases found by the whole programs ``tests/programs/p79_dataloader_advanced.py`` (data loading) and
``tests/programs/p80_hapi_model_advanced.py`` (paddle.Model), written as Paddle code: ``record(paddle)`` runs them
with the given library and returns what they give (values, stop_gradient flags, the type of each error).
``record_paddle_program_diffs_ac.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_ac.json``;
``test_program_diffs_ac.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _v


def _flags(batch: Any) -> Any:
    """stop_gradient of each Tensor of a batch (lists and dicts kept)."""
    if isinstance(batch, list | tuple):
        return [_flags(b) for b in batch]
    if isinstance(batch, dict):
        return {k: _flags(v) for k, v in batch.items()}
    return bool(batch.stop_gradient)


def loader_batches_are_detached(paddle: Any, out: dict[str, Any]) -> None:
    """Every Tensor a DataLoader hands out has stop_gradient=True, whatever its samples held: tensors that require
    grad, gathered from a TensorDataset, stacked by default_collate_fn (nested in dicts), returned by a custom
    collate_fn, or passed through unbatched (batch_size=None); the values are the samples'."""
    w = paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3), stop_gradient=False)

    class DS(paddle.io.Dataset):
        def __getitem__(self, i):
            return w[i], {"a": w[i] * 2}

        def __len__(self):
            return 4

    td = [[_flags(b), _v(b[0])] for b in paddle.io.DataLoader(paddle.io.TensorDataset([w]), batch_size=3)]
    out["detached_tensor_ds"] = td
    out["detached_collate"] = [[_flags(b), _v(b[1]["a"])] for b in paddle.io.DataLoader(DS(), batch_size=2)]
    custom = paddle.io.DataLoader(DS(), batch_size=2, collate_fn=lambda s: [x[0] for x in s])
    out["detached_custom"] = [_flags(b) for b in custom]
    out["detached_unbatched"] = [_flags(b) for b in paddle.io.DataLoader(DS(), batch_size=None)]
    out["detached_return_list_false"] = [_flags(b) for b in paddle.io.DataLoader(
        paddle.io.TensorDataset([w]), batch_size=2, return_list=False)]
    out["sample_keeps_grad"] = _flags(DS()[0])  # (the dataset itself is untouched)


def io_misuse_is_assertion(paddle: Any, out: dict[str, Any]) -> None:
    """The misuses Paddle's samplers, datasets and DataLoader check with ``assert``: an AssertionError, which code
    that guards a data pipeline catches."""
    io = paddle.io
    ds = io.TensorDataset([paddle.ones([6, 2])])

    def weighted(weights: Any, n: int, replacement: bool) -> Any:
        return list(io.WeightedRandomSampler(weights, num_samples=n, replacement=replacement))

    cases = {
        "bs_no_source": lambda: io.BatchSampler(batch_size=3),
        "bs_both": lambda: io.BatchSampler(ds, sampler=io.SequenceSampler(ds), batch_size=3),
        "bs_shuffle_sampler": lambda: io.BatchSampler(sampler=io.SequenceSampler(ds), shuffle=True, batch_size=3),
        "bs_zero": lambda: io.BatchSampler(ds, batch_size=0),
        "dist_bs_zero": lambda: io.DistributedBatchSampler(ds, batch_size=0),
        "dist_replicas_zero": lambda: io.DistributedBatchSampler(ds, batch_size=2, num_replicas=0),
        "dist_rank_negative": lambda: io.DistributedBatchSampler(ds, batch_size=2, num_replicas=2, rank=-1),
        "dl_batch_size_and_sampler": lambda: io.DataLoader(ds, batch_size=2, batch_sampler=io.BatchSampler(ds)),
        "dl_drop_last_and_sampler": lambda: io.DataLoader(ds, drop_last=True, batch_sampler=io.BatchSampler(ds)),
        "dl_batch_size_zero": lambda: io.DataLoader(ds, batch_size=0),
        "dl_workers_negative": lambda: io.DataLoader(ds, num_workers=-1),
        "dl_prefetch_zero": lambda: io.DataLoader(ds, prefetch_factor=0),
        "dl_timeout_negative": lambda: io.DataLoader(ds, timeout=-1),
        "weighted_too_few": lambda: weighted(np.array([1.0, 1.0, 0.0]), 3, False),
        "weighted_negative": lambda: weighted(np.array([1.0, -1.0]), 2, True),
        "weighted_all_zero": lambda: weighted(np.array([0.0, 0.0]), 2, True),
        "weighted_3d": lambda: weighted(np.ones([2, 2, 2]), 2, True),
        "tensor_ds_sizes": lambda: io.TensorDataset([paddle.ones([3, 2]), paddle.ones([4])]),
        "compose_lengths": lambda: io.ComposeDataset([ds, io.TensorDataset([paddle.ones([5])])]),
        "compose_empty": lambda: io.ComposeDataset([]),
        "chain_empty": lambda: io.ChainDataset([]),
        "concat_empty": lambda: io.ConcatDataset([]),
    }
    for name, f in cases.items():
        out["io_" + name] = _attempt(f)


def model_not_prepared(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.Model.train_batch`` (and so ``fit``) before ``prepare(optimizer, ...)``: an AssertionError."""
    model = paddle.Model(paddle.nn.Linear(3, 2))
    x = np.ones([2, 3], "float32")
    out["model_train_unprepared"] = _attempt(lambda: model.train_batch([x]))
    model.prepare()
    out["model_train_no_optimizer"] = _attempt(lambda: model.train_batch([x]))
    out["model_predict_unprepared"] = list(np.asarray(model.predict_batch([x])[0]).shape)


CASES = [loader_batches_are_detached, io_misuse_is_assertion, model_not_prepared]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
