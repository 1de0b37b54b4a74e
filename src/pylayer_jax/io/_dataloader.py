"""``paddle.io.DataLoader`` (layer L5).

Batches are collated on the host (numpy) and become Tensors once per batch: all arrays of a
batch go to the device in one ``jax.device_put``. With ``num_workers=0`` samples are read in
the calling thread, so random augmentations in a dataset follow the seeds as they are; with
``num_workers > 0``, spawned worker processes read and collate ahead (``prefetch_factor``
batches per worker) while the training step runs, and batches come back in sampler order.
"""

from __future__ import annotations

import multiprocessing
import pickle
import queue
import sys
from collections.abc import Callable, Iterator
from typing import Any

import jax
import numpy as np

from .._ops.checks import AssertionValueError
from .._runtime.state import modes
from ._collate import default_collate_fn, default_convert_fn, to_tensors
from ._dataset import Dataset, IterableDataset
from ._fetch import Fetcher
from ._sampler import BatchSampler, Sampler, _is_int
from ._worker import RESET, STOP, WorkerError, worker_loop

_POLL_S = 5.0  # how often a waiting loader checks that its workers are alive


def _place_kind(place: Any) -> str:
    text = str(place).lower()
    return "gpu" if ("gpu" in text or "cuda" in text) else "cpu" if "cpu" in text else text


class _StreamSampler:
    """Endless requests for ``batch_size`` samples of a stream."""

    def __init__(self, batch_size: int) -> None:
        self.batch_size = batch_size

    def __iter__(self) -> Iterator[list[None]]:
        while True:
            yield [None] * self.batch_size


class DataLoader:
    """Iterate over a dataset in batches of Tensors.

    >>> import numpy as np
    >>> import pylayer_jax as paddle
    >>> class Squares(paddle.io.Dataset):
    ...     def __getitem__(self, i):
    ...         return np.array([i, i * i], dtype="float32"), i
    ...     def __len__(self):
    ...         return 5
    >>> loader = paddle.io.DataLoader(Squares(), batch_size=2)
    >>> [x.shape for x, y in loader], len(loader)
    ([[2, 2], [2, 2], [1, 2]], 3)
    """

    def __init__(
        self,
        dataset: Dataset,
        feed_list: Any = None,
        places: Any = None,
        return_list: bool = True,
        batch_sampler: Any = None,
        batch_size: int | None = 1,
        shuffle: bool = False,
        drop_last: bool = False,
        collate_fn: Callable[[Any], Any] | None = None,
        num_workers: int = 0,
        use_buffer_reader: bool = True,
        reader_buffer_size: int = 2,
        prefetch_factor: int = 2,
        use_shared_memory: bool = True,
        timeout: int = 0,
        worker_init_fn: Callable[[int], None] | None = None,
        persistent_workers: bool = False,
    ) -> None:
        api = "DataLoader"
        if feed_list is not None or modes.static_mode:
            raise NotImplementedError(
                f"{api}: feeding a static Program (feed_list, static mode) is not supported; use the loader in "
                "dynamic mode and pass its batches to Executor.run as the feed."
            )
        if isinstance(places, list | tuple):
            if len(places) > 1:
                raise NotImplementedError(
                    f"{api}: places with {len(places)} devices is not supported; batches go to the default device."
                )
            places = places[0] if places else None
        if places is not None and _place_kind(places) != _place_kind(jax.default_backend()):
            raise NotImplementedError(
                f"{api}: batches go to the default device ({jax.default_backend()}), but places={places!r} names "
                "another; leave places=None."
            )
        if not isinstance(dataset, Dataset) and not hasattr(dataset, "__getitem__"):
            raise TypeError(f"{api}: dataset must be a paddle.io.Dataset, but received {type(dataset).__name__}.")
        if not _is_int(num_workers) or num_workers < 0:
            raise AssertionValueError(f"{api}: num_workers must be an int >= 0, but received {num_workers!r}.")
        if not _is_int(prefetch_factor) or prefetch_factor <= 0:
            raise AssertionValueError(f"{api}: prefetch_factor must be a positive int, but received {prefetch_factor!r}.")
        if not isinstance(timeout, int | float) or isinstance(timeout, bool) or timeout < 0:
            raise AssertionValueError(f"{api}: timeout must be a number >= 0 (seconds), but received {timeout!r}.")
        if collate_fn is not None and not callable(collate_fn):
            raise TypeError(f"{api}: collate_fn must be a function, but received {type(collate_fn).__name__}.")
        if worker_init_fn is not None and not callable(worker_init_fn):
            raise TypeError(f"{api}: worker_init_fn must be a function, but received {type(worker_init_fn).__name__}.")
        self.dataset = dataset
        self.return_list = return_list
        self.places = places
        self.num_workers = int(num_workers)
        self.use_buffer_reader = use_buffer_reader
        self.reader_buffer_size = reader_buffer_size
        self.prefetch_factor = int(prefetch_factor)
        self.use_shared_memory = bool(use_shared_memory) and self.num_workers > 0
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self._persistent_workers = bool(persistent_workers)
        self._pool: _WorkerPool | None = None
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle:
                raise ValueError(f"{api}: an IterableDataset cannot be shuffled, but received shuffle=True.")
            if batch_sampler is not None:
                raise ValueError(f"{api}: an IterableDataset takes no batch_sampler.")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise AssertionValueError(
                    f"{api}: batch_size, shuffle and drop_last must keep their defaults when batch_sampler is given "
                    f"(it decides them), but received batch_size={batch_size}, shuffle={shuffle}, drop_last={drop_last}."
                )
            if not isinstance(batch_sampler, Sampler) and not hasattr(batch_sampler, "__iter__"):
                raise TypeError(
                    f"{api}: batch_sampler must be a paddle.io.BatchSampler, but received {type(batch_sampler).__name__}."
                )
            self.batch_sampler: Any = batch_sampler
            self.batch_size = None
        elif batch_size is None:
            self.batch_sampler = None
            self.batch_size = None
        else:
            if not _is_int(batch_size) or batch_size <= 0:
                raise AssertionValueError(f"{api}: batch_size must be a positive int or None, but received {batch_size!r}.")
            self.batch_size = int(batch_size)
            self.batch_sampler = (
                _StreamSampler(self.batch_size)
                if self._iterable
                else BatchSampler(dataset=dataset, batch_size=self.batch_size, shuffle=shuffle, drop_last=drop_last)
            )
        self.drop_last = drop_last
        self.auto_collate_batch = self.batch_sampler is not None
        self.collate_fn = collate_fn

    def _collate(self) -> Callable[[Any], Any]:
        if self.collate_fn is not None:
            return self.collate_fn
        return default_collate_fn if self.auto_collate_batch else default_convert_fn

    def _index_iter(self) -> Iterator[Any]:
        # drawn here, in the caller's thread (a shuffle: numpy's global state, as in Paddle)
        if self.batch_sampler is not None:
            return iter(self.batch_sampler)
        if self._iterable:
            return iter(_StreamSampler(1))
        return iter(range(len(self.dataset)))

    def __len__(self) -> int:
        if self._iterable:
            raise ValueError("DataLoader: a loader over an IterableDataset has no length; iterate over it instead.")
        if self.auto_collate_batch:
            return len(self.batch_sampler)
        return len(self.dataset)

    def __iter__(self) -> Iterator[Any]:
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        if self._persistent_workers:
            if self._pool is None or not self._pool.alive():
                self._pool = _WorkerPool(self)
            return _MultiProcessIter(self, self._pool, owns_pool=False)
        return _MultiProcessIter(self, _WorkerPool(self), owns_pool=True)

    def __call__(self) -> Iterator[Any]:
        return self.__iter__()

    def __del__(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.shutdown()


class _SingleProcessIter:
    def __init__(self, loader: DataLoader) -> None:
        self._indices = loader._index_iter()
        collate = loader._collate()
        self._fetcher = Fetcher(loader.dataset, loader.auto_collate_batch, collate, loader.drop_last)
        self._fresh = collate is default_collate_fn  # (its arrays are new: stacked from the samples)
        self._len = None if loader._iterable else len(loader)

    def __iter__(self) -> _SingleProcessIter:
        return self

    def __len__(self) -> int:
        if self._len is None:
            raise ValueError("DataLoader: a loader over an IterableDataset has no length.")
        return self._len

    def __next__(self) -> Any:
        indices = next(self._indices)
        return to_tensors(self._fetcher.fetch(indices), self._fresh)


class _WorkerPool:
    """``num_workers`` spawned processes, each with its own task queue, sharing one result queue."""

    def __init__(self, loader: DataLoader) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.num_workers = loader.num_workers
        self.out_queue = ctx.Queue()
        self.index_queues = []
        self.workers = []
        self.epoch = 0
        # numpy's global state, as Paddle draws it (before the epoch's shuffle): its workers' seeds then are Paddle's
        base_seed = int(np.random.randint(low=0, high=sys.maxsize))
        try:
            for wid in range(self.num_workers):
                iq = ctx.Queue()
                w = ctx.Process(
                    target=worker_loop,
                    args=(loader.dataset, loader.auto_collate_batch, loader._collate(), loader.drop_last,
                          loader.worker_init_fn, wid, self.num_workers, base_seed, iq, self.out_queue),
                    daemon=True,
                )
                w.start()
                self.index_queues.append(iq)
                self.workers.append(w)
        except (pickle.PicklingError, AttributeError, TypeError) as e:
            self.shutdown()
            raise TypeError(
                "DataLoader: num_workers > 0 starts worker processes with 'spawn' (forking after JAX has started "
                "can deadlock), which pickles the dataset, collate_fn and worker_init_fn, but pickling failed: "
                f"{e}. Define them at module level (not in a notebook cell or a function), or use num_workers=0."
            ) from e

    def alive(self) -> bool:
        return bool(self.workers) and all(w.is_alive() for w in self.workers)

    def shutdown(self) -> None:
        for iq in self.index_queues:
            try:
                iq.put(None)
            except (OSError, ValueError):
                pass
        for w in self.workers:
            w.join(timeout=5)
            if w.is_alive():
                w.terminate()
        self.workers = []
        self.index_queues = []


class _MultiProcessIter:
    def __init__(self, loader: DataLoader, pool: _WorkerPool, owns_pool: bool) -> None:
        self._loader = loader
        self._pool = pool
        self._owns = owns_pool
        pool.epoch += 1
        self._epoch = pool.epoch
        if loader._iterable and not owns_pool:
            for iq in pool.index_queues:
                iq.put((RESET,))
        self._indices = loader._index_iter()
        self._live = list(range(pool.num_workers))
        self._next_worker = 0
        self._sent = 0  # tasks sent
        self._rcvd = 0  # next task index to hand out
        self._task_worker: dict[int, int] = {}
        self._results: dict[int, Any] = {}
        self._exhausted = False
        self._len = None if loader._iterable else len(loader)
        for _ in range(loader.prefetch_factor * pool.num_workers):
            self._send()

    def __iter__(self) -> _MultiProcessIter:
        return self

    def __len__(self) -> int:
        if self._len is None:
            raise ValueError("DataLoader: a loader over an IterableDataset has no length.")
        return self._len

    def _send(self) -> None:
        if self._exhausted or not self._live:
            return
        try:
            indices = next(self._indices)
        except StopIteration:
            self._exhausted = True
            return
        wid = self._live[self._next_worker % len(self._live)]
        self._next_worker += 1
        self._pool.index_queues[wid].put((self._epoch, self._sent, indices))
        self._task_worker[self._sent] = wid
        self._sent += 1

    def _receive(self) -> None:
        timeout = self._loader.timeout
        while True:
            try:
                epoch, idx, data = self._pool.out_queue.get(timeout=timeout if timeout > 0 else _POLL_S)
            except queue.Empty:
                if timeout > 0:
                    self._close()
                    raise RuntimeError(
                        f"DataLoader: no batch came from the workers within timeout={timeout} s; raise the timeout "
                        "or make the dataset faster."
                    ) from None
                dead = [i for i, w in enumerate(self._pool.workers) if not w.is_alive()]
                if dead:
                    codes = [self._pool.workers[i].exitcode for i in dead]
                    self._close()
                    raise RuntimeError(
                        f"DataLoader: worker(s) {dead} exited unexpectedly (exit codes {codes}); run with "
                        "num_workers=0 to see the error in this process."
                    ) from None
                continue
            if epoch == self._epoch:
                self._results[idx] = data
                return

    def __next__(self) -> Any:
        while True:
            if self._rcvd >= self._sent:
                self._close()
                raise StopIteration
            while self._rcvd not in self._results:
                self._receive()
            data = self._results.pop(self._rcvd)
            wid = self._task_worker.pop(self._rcvd)
            self._rcvd += 1
            if isinstance(data, WorkerError):
                self._close()
                data.reraise()
            if isinstance(data, str) and data == STOP:
                if wid in self._live:
                    self._live.remove(wid)
                continue
            self._send()
            return to_tensors(data, True)  # (unpickled from the worker's queue: new arrays)

    def _close(self) -> None:
        if self._owns:
            self._pool.shutdown()
            self._owns = False

    def __del__(self) -> None:
        self._close()
