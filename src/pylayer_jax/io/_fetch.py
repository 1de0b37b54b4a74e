"""Fetching one batch from a dataset: the same code in the main process and in workers (layer L5)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ._collate import default_collate_fn
from ._dataset import IterableDataset, TensorDataset


class Fetcher:
    """Reads the samples of one batch (indices for map-style datasets, a count for streams) and collates them."""

    def __init__(self, dataset: Any, auto_collate: bool, collate_fn: Callable[[Any], Any] | None, drop_last: bool):
        self.dataset = dataset
        self.iterable = isinstance(dataset, IterableDataset)
        self.auto_collate = auto_collate
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.it: Iterator[Any] | None = iter(dataset) if self.iterable else None
        # a TensorDataset batch is one gather per tensor instead of one op per sample
        self.gather = isinstance(dataset, TensorDataset) and auto_collate and collate_fn is default_collate_fn

    def fetch(self, indices: Sequence[Any]) -> Any:
        """The collated batch; StopIteration when a stream has no (full, with drop_last) batch left."""
        if self.iterable:
            assert self.it is not None
            if self.auto_collate:
                data = []
                for _ in indices:
                    try:
                        data.append(next(self.it))
                    except StopIteration:
                        break
                if not data or (self.drop_last and len(data) < len(indices)):
                    raise StopIteration
            else:
                data = next(self.it)
        elif self.gather:
            return self.dataset._gather(indices)
        elif self.auto_collate:
            data = [self.dataset[i] for i in indices]
        else:
            data = self.dataset[indices]
        return self.collate_fn(data) if self.collate_fn is not None else data
