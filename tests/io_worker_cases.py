"""Module-level datasets for the DataLoader worker tests (spawned workers import them by name)."""

import os
import time

import numpy as np

import pylayer_jax as paddle


class Squares(paddle.io.Dataset):
    """Sample i: (float32 [i, i*i], int i)."""

    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return np.array([i, i * i], dtype=np.float32), i

    def __len__(self):
        return self.n


class WhoAmI(paddle.io.Dataset):
    """Sample i: (i, worker id, pid, a number from paddle's generator, one from numpy's, the worker_init_fn mark)."""

    def __getitem__(self, i):
        info = paddle.io.get_worker_info()
        wid = -1 if info is None else info.id
        mark = int(os.environ.get("IO_TEST_INIT", "-1"))
        return i, wid, os.getpid(), float(paddle.rand([1]).numpy()[0]), float(np.random.rand()), mark

    def __len__(self):
        return 8


class Shards(paddle.io.IterableDataset):
    """0..n-1, split between workers by get_worker_info (worker k takes every num_workers-th item)."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = paddle.io.get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        for i in range(start, self.n, step):
            yield np.array([i], dtype=np.int64)


class Fails(paddle.io.Dataset):
    def __getitem__(self, i):
        if i == 3:
            raise KeyError(f"sample {i} is missing")
        return np.zeros(2)

    def __len__(self):
        return 6


class Slow(paddle.io.Dataset):
    def __getitem__(self, i):
        time.sleep(3)
        return np.zeros(1)

    def __len__(self):
        return 2


def record_init(worker_id):
    """A worker_init_fn: stores its id in the worker's environment, read back by WhoAmI."""
    os.environ["IO_TEST_INIT"] = str(worker_id)

