"""Datasets: map-style ``Dataset`` and its combinators, ``IterableDataset``, ``random_split`` (layer L5)."""

from __future__ import annotations

import bisect
import math
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from .._ops.checks import AssertionValueError
from .._runtime.state import modes
from .._tensor.facade import Tensor
from ._host_rng import host_rng


class Dataset:
    """A map-style dataset: subclasses define ``__getitem__(idx)`` and ``__len__()``."""

    def __init__(self) -> None:
        pass

    def __getitem__(self, idx: int) -> Any:
        raise NotImplementedError(f"{type(self).__name__}: a Dataset subclass must define __getitem__(idx).")

    def __len__(self) -> int:
        raise NotImplementedError(f"{type(self).__name__}: a Dataset subclass must define __len__().")


class IterableDataset(Dataset):
    """A stream dataset: subclasses define ``__iter__()``; in worker processes each worker
    iterates its own copy and can split the stream with ``get_worker_info()``."""

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError(f"{type(self).__name__}: an IterableDataset subclass must define __iter__().")

    def __getitem__(self, idx: int) -> Any:
        raise RuntimeError(
            f"{type(self).__name__}: an IterableDataset has no __getitem__; iterate over it instead."
        )

    def __len__(self) -> int:
        raise RuntimeError(f"{type(self).__name__}: an IterableDataset has no __len__; iterate over it instead.")


class TensorDataset(Dataset):
    """Samples are ``tuple(t[i] for t in tensors)``; all tensors share their first dimension."""

    def __init__(self, tensors: Sequence[Tensor]) -> None:
        if modes.static_mode:
            raise RuntimeError("TensorDataset: works in dynamic mode only; call paddle.disable_static() first.")
        if not isinstance(tensors, list | tuple) or not tensors or not all(isinstance(t, Tensor) for t in tensors):
            raise TypeError(
                f"TensorDataset: tensors must be a non-empty list of Tensors, but received {type(tensors).__name__}"
                + (f" of {[type(t).__name__ for t in tensors]}" if isinstance(tensors, list | tuple) else "")
                + "."
            )
        firsts = [t.shape[0] if t.shape else None for t in tensors]
        if None in firsts or len(set(firsts)) != 1:
            raise AssertionValueError(
                f"TensorDataset: every tensor needs the same first dimension, but received shapes "
                f"{[list(t.shape) for t in tensors]}."
            )
        self.tensors = tensors

    def __getitem__(self, index: int) -> tuple[Tensor, ...]:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]

    def _gather(self, indices: Sequence[int]) -> list[Tensor]:
        # a whole batch in one indexing op per tensor (the DataLoader's fast path)
        idx = np.asarray(indices, dtype=np.int64)
        return [t[idx] for t in self.tensors]


def _check_datasets(api: str, datasets: Any, kind: type | None, allow_iterable: bool) -> list[Any]:
    if not isinstance(datasets, Iterable) or isinstance(datasets, Dataset):
        raise TypeError(f"{api}: datasets must be a list of datasets, but received {type(datasets).__name__}.")
    out = list(datasets)
    if not out:
        raise AssertionValueError(f"{api}: datasets must not be empty.")
    for i, d in enumerate(out):
        if kind is None and not (hasattr(d, "__getitem__") and hasattr(d, "__len__")):
            raise TypeError(
                f"{api}: datasets[{i}] must be a map-style dataset (with __getitem__ and __len__), but received "
                f"{type(d).__name__}."
            )
        if kind is not None and not isinstance(d, kind):
            raise TypeError(f"{api}: datasets[{i}] must be a paddle.io.{kind.__name__}, but received {type(d).__name__}.")
        if not allow_iterable and isinstance(d, IterableDataset):
            raise TypeError(f"{api}: datasets[{i}] is an IterableDataset, which {api} does not take.")
    return out


class ComposeDataset(Dataset):
    """Zips map-style datasets of equal length: sample ``i`` joins the fields of each ``datasets[k][i]``."""

    def __init__(self, datasets: list[Dataset]) -> None:
        self.datasets = _check_datasets("ComposeDataset", datasets, Dataset, allow_iterable=False)
        lengths = [len(d) for d in self.datasets]
        if len(set(lengths)) != 1:
            raise AssertionValueError(f"ComposeDataset: the datasets must have the same length, but received lengths {lengths}.")

    def __len__(self) -> int:
        return len(self.datasets[0])

    def __getitem__(self, idx: int) -> tuple[Any, ...]:
        sample: list[Any] = []
        for d in self.datasets:
            item = d[idx]
            sample.extend(item if isinstance(item, list | tuple) else [item])
        return tuple(sample)


class ChainDataset(IterableDataset):
    """Iterates the iterable datasets one after the other."""

    def __init__(self, datasets: list[IterableDataset]) -> None:
        self.datasets = _check_datasets("ChainDataset", datasets, IterableDataset, allow_iterable=True)

    def __iter__(self) -> Iterator[Any]:
        for d in self.datasets:
            yield from d


class ConcatDataset(Dataset):
    """Map-style datasets one after the other; index ``i`` goes to the dataset that holds it."""

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = _check_datasets("ConcatDataset", datasets, None, allow_iterable=False)
        self.cumulative_sizes = self.cumsum(self.datasets)

    @staticmethod
    def cumsum(sequence: Sequence[Any]) -> list[int]:
        """Running totals of the lengths."""
        out, total = [], 0
        for d in sequence:
            total += len(d)
            out.append(total)
        return out

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            if -idx > len(self):
                raise ValueError(f"ConcatDataset: index {idx} is out of range for a dataset of length {len(self)}.")
            idx += len(self)
        k = bisect.bisect_right(self.cumulative_sizes, idx)
        if k >= len(self.datasets):
            raise IndexError(f"ConcatDataset: index {idx} is out of range for a dataset of length {len(self)}.")
        return self.datasets[k][idx - (self.cumulative_sizes[k - 1] if k else 0)]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``."""

    def __init__(self, dataset: Dataset, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx: int) -> Any:
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset: Dataset, lengths: Sequence[float], generator: Any = None) -> list[Subset]:
    """Split ``dataset`` into random disjoint Subsets of the given lengths, or of the given fractions
    (summing to 1; the remainder goes one by one to the first splits). The permutation follows
    ``paddle.seed``."""
    if generator is not None:
        raise NotImplementedError(
            "random_split: the generator argument is not supported; the split follows paddle.seed, so call "
            "paddle.seed(n) before random_split instead."
        )
    if not isinstance(lengths, list | tuple):
        raise TypeError(f"random_split: lengths must be a list of ints or fractions, but received {type(lengths).__name__}.")
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"random_split: the fraction at index {i} must lie in [0, 1], but received {frac}.")
            sizes.append(int(math.floor(n * frac)))
        for i in range(n - sum(sizes)):
            sizes[i % len(sizes)] += 1
        for i, size in enumerate(sizes):
            if size == 0:
                warnings.warn(f"random_split: the split at index {i} is empty.", stacklevel=2)
        lengths = sizes
    if sum(lengths) != n:
        raise ValueError(
            f"random_split: the lengths must sum to the dataset's length {n} (or fractions to 1), but received "
            f"{list(lengths)}."
        )
    perm = host_rng().permutation(n).tolist()
    out, start = [], 0
    for size in lengths:
        out.append(Subset(dataset, perm[start : start + int(size)]))
        start += int(size)
    return out
