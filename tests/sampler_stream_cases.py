"""Cases of the samplers that draw from numpy's global random state as Paddle's do: ``record(paddle)`` gives the
orders and worker draws after ``np.random.seed``. ``record_paddle_sampler_streams.py`` stores Paddle 3.3.1's into
``tests/data/paddle_sampler_streams.json``; ``tests/io/test_sampler_streams.py`` compares this package's."""

from __future__ import annotations

from typing import Any

import numpy as np


class Numbered:
    """Sample i: ``[i, a draw from numpy's global state]`` (plain, so worker processes can take it)."""

    def __getitem__(self, i: int) -> Any:
        return np.array([i, np.random.rand()], dtype="float64")

    def __len__(self) -> int:
        return 8


class Range:
    def __init__(self, n: int) -> None:
        self.n = n

    def __getitem__(self, i: int) -> Any:
        return np.array([i], dtype="int64")

    def __len__(self) -> int:
        return self.n


def record(paddle: Any, workers: bool = True) -> dict[str, Any]:
    io = paddle.io
    out: dict[str, Any] = {}
    np.random.seed(5)
    out["random"] = [list(io.RandomSampler(Range(10))) for _ in range(2)]
    np.random.seed(6)
    out["random_replacement"] = list(io.RandomSampler(Range(10), replacement=True, num_samples=15))
    np.random.seed(7)
    out["random_num_samples"] = list(io.RandomSampler(Range(10), num_samples=4))
    np.random.seed(8)
    loader = io.DataLoader(Range(10), batch_size=3, shuffle=True)
    out["loader_epochs"] = [[b.numpy().ravel().tolist() for b in loader] for _ in range(2)]
    np.random.seed(9)
    out["batch_sampler_shuffle"] = list(io.BatchSampler(Range(7), batch_size=2, shuffle=True, drop_last=True))
    for name, w in [("list", [0.1, 0.9, 0.5, 0.5]), ("f64", np.array([0.1, 0.9, 0.5, 0.5])),
                    ("f32", np.array([0.3, 0.2, 0.25, 0.25, 0.7], np.float32)), ("ints", [1, 3, 0, 2]),
                    ("tensor", paddle.to_tensor(np.array([0.2, 0.5, 0.3], np.float32)))]:
        np.random.seed(10)
        try:
            out[f"weighted_{name}"] = list(io.WeightedRandomSampler(w, 12))
        except Exception as e:  # noqa: BLE001  (Paddle fails on a list: recorded as its error)
            out[f"weighted_{name}"] = {"error": type(e).__name__}
    np.random.seed(11)
    out["weighted_no_replacement"] = list(io.WeightedRandomSampler(np.array([0.1, 0.9, 0.5, 0.5, 1.0]), 4,
                                                                   replacement=False))
    np.random.seed(12)
    out["weighted_square_2d"] = list(io.WeightedRandomSampler(np.array([[1.0, 3.0], [2.0, 2.0]]), 3))
    np.random.seed(13)
    out["after_weighted"] = float(np.random.rand())  # where the global state was left
    if workers:
        np.random.seed(4)
        loader = io.DataLoader(Numbered(), batch_size=2, num_workers=2)
        out["worker_draws"] = [b.numpy().tolist() for b in loader]
        out["after_workers"] = float(np.random.rand())
    return out
