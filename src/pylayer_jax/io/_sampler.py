"""Samplers: index orders for map-style datasets, and batch samplers (layer L5).

``RandomSampler`` (and so ``DataLoader(shuffle=True)``) and ``WeightedRandomSampler`` draw from numpy's global
random state with the very calls Paddle's make, so after ``np.random.seed(n)`` their orders are Paddle's, index for
index (``paddle.seed`` does not set them, in Paddle either); ``SubsetRandomSampler`` follows ``paddle.seed``
(Paddle draws it with ``paddle.randperm``, a stream this package does not reproduce). A random sampler draws when
``iter()`` is called (not at the first ``next``), so an epoch's order does not depend on what else draws random
numbers while the epoch runs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Any

import numpy as np

from .._ops.checks import AssertionValueError
from .._tensor.facade import Tensor
from ._dataset import IterableDataset
from ._host_rng import host_rng


def _is_int(v: Any) -> bool:
    return isinstance(v, int | np.integer) and not isinstance(v, bool)


class Sampler:
    """Base class: ``__iter__`` yields dataset indices (``__len__`` optional)."""

    def __init__(self, data_source: Sized | None = None) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError(f"{type(self).__name__}: a Sampler subclass must define __iter__().")


class SequenceSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1``."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation (or, with ``replacement``, ``num_samples`` draws with replacement);
    ``generator``, when given, is an iterator of indices used as they come."""

    def __init__(
        self, data_source: Sized, replacement: bool = False, num_samples: int | None = None, generator: Any = None
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"RandomSampler: replacement must be a bool, but received {type(replacement).__name__}.")
        if num_samples is not None and (not _is_int(num_samples) or num_samples <= 0):
            raise ValueError(f"RandomSampler: num_samples must be a positive int, but received {num_samples!r}.")
        if not replacement and self.num_samples > len(data_source):
            raise ValueError(
                f"RandomSampler: without replacement num_samples ({self.num_samples}) cannot exceed the dataset's "
                f"length ({len(data_source)}); pass replacement=True or fewer samples."
            )

    @property
    def num_samples(self) -> int:
        """``num_samples`` as given, else the dataset's length."""
        return len(self.data_source) if self._num_samples is None else int(self._num_samples)

    def __iter__(self) -> Iterator[int]:
        if self.generator is not None:
            gen = self.generator

            def take() -> Iterator[int]:
                for _ in range(self.num_samples):
                    try:
                        yield next(gen)
                    except StopIteration:
                        return

            return take()
        # (Paddle's call: numpy's global state, the same arguments)
        return iter(np.random.choice(np.arange(len(self.data_source)), self.num_samples,
                                     replace=self.replacement).tolist())

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices: Sequence[int]) -> None:
        if len(indices) == 0:
            raise ValueError("SubsetRandomSampler: indices must not be empty.")
        self.indices = indices

    def __iter__(self) -> Iterator[int]:
        return iter([self.indices[i] for i in host_rng().permutation(len(self.indices))])

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights`` (1-D, or 2-D: one
    draw of ``num_samples`` per row, flattened), from numpy's global random state as Paddle draws them (its
    ``np.random.choice`` per row, the probabilities in the weights' own dtype). Each row is normalised by its own
    sum (Paddle divides a 2-D array by the row sums broadcast along the last axis: another row's sum, or an
    error)."""

    def __init__(self, weights: Any, num_samples: int, replacement: bool = True) -> None:
        if not _is_int(num_samples) or num_samples <= 0:
            raise ValueError(f"WeightedRandomSampler: num_samples must be a positive int, but received {num_samples!r}.")
        if not isinstance(replacement, bool):
            raise ValueError(f"WeightedRandomSampler: replacement must be a bool, but received {replacement!r}.")
        if isinstance(weights, Tensor):
            w = weights.numpy()
        elif isinstance(weights, np.ndarray):
            w = weights
        elif isinstance(weights, list | tuple):
            w = np.array(weights)
        else:
            raise TypeError(
                "WeightedRandomSampler: weights must be a Tensor, a numpy array, a list or a tuple, but received "
                f"{type(weights).__name__}."
            )
        if w.ndim not in (1, 2):
            raise AssertionValueError(f"WeightedRandomSampler: weights must be 1-D or 2-D, but received shape {list(w.shape)}.")
        w = w.reshape(-1, w.shape[-1])
        if not np.issubdtype(w.dtype, np.number) or np.issubdtype(w.dtype, np.complexfloating):
            raise TypeError(f"WeightedRandomSampler: weights must hold real numbers, but received dtype {w.dtype}.")
        if not np.all(np.isfinite(w)) or np.any(w < 0):
            raise AssertionValueError("WeightedRandomSampler: weights must be finite and >= 0.")
        positive = (w > 0).sum(axis=1)
        if np.any(positive == 0):
            raise AssertionValueError("WeightedRandomSampler: every row of weights needs a positive value.")
        if not replacement and np.any(positive < num_samples):
            raise AssertionValueError(
                f"WeightedRandomSampler: without replacement each row needs at least num_samples={num_samples} "
                f"positive weights, but a row has {int(positive.min())}."
            )
        self.weights = weights
        self._w = w / w.sum(axis=1, keepdims=True)
        self.num_samples = int(num_samples)
        self.replacement = replacement

    def __iter__(self) -> Iterator[int]:
        rows = [np.random.choice(self._w.shape[1], self.num_samples, self.replacement, p) for p in self._w]
        return iter(np.concatenate(rows).tolist())

    def __len__(self) -> int:
        return self.num_samples * self._w.shape[0]


def _check_flag(api: str, name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{api}: {name} must be a bool, but received {type(value).__name__}.")


def _check_batch_size(api: str, batch_size: Any) -> None:
    if not _is_int(batch_size) or batch_size <= 0:
        raise AssertionValueError(f"{api}: batch_size must be a positive int, but received {batch_size!r}.")


def _batches(indices: Iterator[Any], size: int, drop_last: bool) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for idx in indices:
        batch.append(idx)
        if len(batch) == size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


class BatchSampler(Sampler):
    """Groups a sampler's indices (or a dataset's, in order or shuffled) into lists of ``batch_size``."""

    def __init__(
        self,
        dataset: Sized | None = None,
        sampler: Sampler | Iterable[int] | None = None,
        shuffle: bool = False,
        batch_size: int = 1,
        drop_last: bool = False,
    ) -> None:
        api = "BatchSampler"
        if dataset is None:
            if sampler is None:
                raise AssertionValueError(f"{api}: pass either dataset or sampler.")
            if not isinstance(sampler, Sampler | Iterable):
                raise TypeError(f"{api}: sampler must be a paddle.io.Sampler or an iterable, but received {type(sampler).__name__}.")
            if shuffle:
                raise AssertionValueError(f"{api}: shuffle must be False when a sampler is given (the sampler sets the order).")
            self.sampler: Any = sampler
        else:
            if isinstance(dataset, IterableDataset):
                raise TypeError(f"{api}: dataset must be map-style, but received an IterableDataset.")
            if sampler is not None:
                raise AssertionValueError(f"{api}: pass dataset or sampler, not both.")
            _check_flag(api, "shuffle", shuffle)
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        _check_batch_size(api, batch_size)
        _check_flag(api, "drop_last", drop_last)
        self.batch_size = int(batch_size)
        self.shuffle = shuffle
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[Any]]:
        return _batches(iter(self.sampler), self.batch_size, self.drop_last)

    def __len__(self) -> int:
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size


class DistributedBatchSampler(BatchSampler):
    """This rank's batches of ``dataset``: indices padded (repeating from the start) to a multiple
    of ``num_replicas``, shuffled per epoch (``set_epoch``) with a seed equal to the epoch as Paddle
    does, then split between ranks batch by batch. ``num_replicas``/``rank`` default to one
    process (1 and 0)."""

    def __init__(
        self,
        dataset: Sized,
        batch_size: int,
        num_replicas: int | None = None,
        rank: int | None = None,
        shuffle: bool = False,
        drop_last: bool = False,
    ) -> None:
        api = "DistributedBatchSampler"
        _check_batch_size(api, batch_size)
        _check_flag(api, "shuffle", shuffle)
        _check_flag(api, "drop_last", drop_last)
        if num_replicas is not None and (not _is_int(num_replicas) or num_replicas <= 0):
            raise AssertionValueError(f"{api}: num_replicas must be a positive int, but received {num_replicas!r}.")
        if rank is not None and (not _is_int(rank) or rank < 0):
            raise AssertionValueError(f"{api}: rank must be an int >= 0, but received {rank!r}.")
        self.dataset = dataset
        self.batch_size = int(batch_size)
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.nranks = 1 if num_replicas is None else int(num_replicas)
        self.local_rank = 0 if rank is None else int(rank)
        if self.local_rank >= self.nranks:
            raise ValueError(f"{api}: rank must be < num_replicas={self.nranks}, but received {self.local_rank}.")
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) / self.nranks))
        self.total_size = self.num_samples * self.nranks

    def _indices(self) -> list[int]:
        n = len(self.dataset)
        indices = list(range(n))
        pad = self.total_size - n
        indices += (indices * math.ceil(pad / n))[:pad] if n else []
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks == 1:
            return indices
        bs, r = self.batch_size, self.local_rank
        tail = self.total_size % (bs * self.nranks)
        local_tail = tail // self.nranks
        mine: list[int] = []
        for i in range(r * bs, len(indices) - tail, bs * self.nranks):
            mine.extend(indices[i : i + bs])
        rest = indices[len(indices) - tail :]
        mine.extend(rest[r * local_tail : (r + 1) * local_tail])
        return mine

    def __iter__(self) -> Iterator[list[int]]:
        return _batches(iter(self._indices()), self.batch_size, self.drop_last)

    def __len__(self) -> int:
        n = self.num_samples
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size

    def set_epoch(self, epoch: int) -> None:
        """Set the epoch that seeds the next shuffle."""
        self.epoch = epoch
