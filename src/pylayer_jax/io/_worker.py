"""Worker processes of the DataLoader (layer L5).

Workers are started with the ``spawn`` method: forking a process after JAX has started its
threads can deadlock, and a spawned worker is a fresh interpreter. A worker reads batches,
collates them and sends numpy arrays back (Tensors in a batch become numpy); the main
process turns them into Tensors. Each worker seeds ``random`` and ``paddle.seed`` with
``base_seed + worker_id`` and numpy's global state from both as Paddle's workers do (``base_seed`` is drawn
from numpy's global state when the workers start, as in Paddle); ``get_worker_info()`` describes the worker
inside it.
"""

from __future__ import annotations

import random
import traceback
from typing import Any

import numpy as np

from .._runtime.rng import generator
from ._collate import to_host
from ._fetch import Fetcher

_worker_info: WorkerInfo | None = None


class WorkerInfo:
    """``id``, ``num_workers``, ``dataset`` (this worker's copy) and ``seed`` (the base seed); read-only."""

    def __init__(self, **kwargs: Any) -> None:
        for k, v in kwargs.items():
            object.__setattr__(self, k, v)

    def __setattr__(self, key: str, val: Any) -> None:
        raise RuntimeError(f"WorkerInfo: its attributes are read-only, but {key!r} was assigned.")


def get_worker_info() -> WorkerInfo | None:
    """The WorkerInfo of the current DataLoader worker process, or None in the main process."""
    return _worker_info


class WorkerError:
    """An exception raised in a worker, carried to the main process as its type and traceback text."""

    def __init__(self, worker_id: int, exc: BaseException) -> None:
        self.worker_id = worker_id
        self.exc_type = type(exc)
        self.text = "".join(traceback.format_exception(exc))

    def reraise(self) -> None:
        msg = f"DataLoader worker {self.worker_id} raised {self.exc_type.__name__}:\n{self.text}"
        try:
            err = self.exc_type(msg)
        except Exception:  # an exception type that takes other arguments
            err = RuntimeError(msg)
        raise err


STOP = "stop"  # a stream worker has no batch left
RESET = "reset"  # restart the stream (a new epoch with persistent workers)


def worker_loop(
    dataset: Any,
    auto_collate: bool,
    collate_fn: Any,
    drop_last: bool,
    init_fn: Any,
    worker_id: int,
    num_workers: int,
    base_seed: int,
    index_queue: Any,
    out_queue: Any,
) -> None:
    """The body of a worker process: answer ``(epoch, idx, indices)`` tasks until ``None``."""
    global _worker_info
    seed = base_seed + worker_id
    random.seed(seed)
    # numpy's state from the base seed and the worker's id as Paddle's workers make it (its seed-sequence hash of
    # [id, low word, high word, 0] is numpy's SeedSequence of those words)
    np.random.seed(np.random.SeedSequence([worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32, 0]).generate_state(4))
    generator.seed(seed)
    _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, dataset=dataset, seed=base_seed)
    init_error: WorkerError | None = None
    fetcher = None
    try:
        if init_fn is not None:
            init_fn(worker_id)
        fetcher = Fetcher(dataset, auto_collate, collate_fn, drop_last)
    except Exception as e:
        init_error = WorkerError(worker_id, e)
    while True:
        try:
            task = index_queue.get()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if task is None:
            # exit without waiting for unread batches to drain (the loader may have left the epoch early)
            out_queue.cancel_join_thread()
            return
        if task[0] == RESET:
            try:
                fetcher = Fetcher(dataset, auto_collate, collate_fn, drop_last)
            except Exception as e:
                init_error = WorkerError(worker_id, e)
            continue
        epoch, idx, indices = task
        if init_error is not None:
            out_queue.put((epoch, idx, init_error))
            continue
        try:
            batch = to_host(fetcher.fetch(indices))  # type: ignore[union-attr]
        except StopIteration:
            out_queue.put((epoch, idx, STOP))
        except Exception as e:
            out_queue.put((epoch, idx, WorkerError(worker_id, e)))
        else:
            out_queue.put((epoch, idx, batch))

