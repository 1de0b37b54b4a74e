"""Paddle's default collate and convert functions, on the host (layer L5).

``default_collate_fn`` stacks a list of samples field by field: numpy arrays stack, numbers
become a numpy array (Python floats float64, ints int64, bools bool, as ``np.array`` makes
them), strings stay a list, dicts and sequences recurse. Tensor fields stack into a Tensor.
The DataLoader turns every numpy array of the result into a Tensor once per batch.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._ops.table import TABLE
from .._runtime.transfer import own, put
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor


def default_collate_fn(batch: Sequence[Any]) -> Any:
    """Stack a list of samples into one batch (numpy arrays; Tensors for Tensor fields)."""
    if not isinstance(batch, Sequence) or len(batch) == 0:
        raise ValueError(
            f"default_collate_fn: batch must be a non-empty list of samples, but received {type(batch).__name__}"
            + (" of length 0" if isinstance(batch, Sequence) else "")
            + "."
        )
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return np.stack(batch, axis=0)
    if isinstance(sample, Tensor):
        return apply_op(TABLE["stack"], (list(batch),), {"axis": 0})
    if isinstance(sample, numbers.Number):
        return np.array(batch)
    if isinstance(sample, str | bytes):
        return list(batch)
    if isinstance(sample, Mapping):
        return {key: default_collate_fn([d[key] for d in batch]) for key in sample}
    if isinstance(sample, Sequence):
        width = len(sample)
        if any(len(s) != width for s in batch):
            raise RuntimeError(
                f"default_collate_fn: every sample of a batch needs the same number of fields, but received "
                f"{sorted({len(s) for s in batch})}."
            )
        return [default_collate_fn(list(fields)) for fields in zip(*batch)]
    raise TypeError(
        "default_collate_fn: samples may hold Tensors, numpy arrays, numbers, strings, dicts and lists, but "
        f"received {type(sample).__name__}; pass a collate_fn for other kinds."
    )


def default_convert_fn(batch: Any) -> Any:
    """The sample as it is, tuples made lists (used when ``batch_size=None``)."""
    if isinstance(batch, Tensor | np.ndarray | str | bytes):
        return batch
    if isinstance(batch, Mapping):
        return {key: default_convert_fn(batch[key]) for key in batch}
    if isinstance(batch, Sequence):
        return [default_convert_fn(d) for d in batch]
    return batch


def to_host(tree: Any) -> Any:
    """Tensors -> numpy arrays (what a worker process sends back)."""
    if isinstance(tree, Tensor):
        return np.asarray(tree.numpy())
    if isinstance(tree, Mapping):
        return {k: to_host(v) for k, v in tree.items()}
    if isinstance(tree, list | tuple):
        return [to_host(v) for v in tree]
    return tree


def to_tensors(tree: Any, fresh: bool = False) -> Any:
    """Every numpy array of a batch -> a Tensor, each moved to the device as ``jax.device_put`` moves it (``put``:
    its C++ transfer, without ~30 µs of its Python a call); tuples become lists, as Paddle's loader returns them.
    ``fresh``: the arrays are new ones nobody else holds (``default_collate_fn`` stacks them, a worker's arrive
    unpickled); else each is copied first (``own``: a dataset or collate_fn may keep and rewrite its array, whose
    memory JAX would otherwise go on using). Tensors of the batch that require grad come out detached, as Paddle's
    loader hands out new tensors (stop_gradient=True) whatever the samples were: no gradient flows back into a
    dataset through its batches."""
    arrays: list[np.ndarray] = []

    def collect(x: Any) -> None:
        if isinstance(x, np.ndarray):
            arrays.append(x)
        elif isinstance(x, Mapping):
            for v in x.values():
                collect(v)
        elif isinstance(x, list | tuple):
            for v in x:
                collect(v)

    collect(tree)
    placed = iter([put(a) if fresh else own(a) for a in arrays])

    def rebuild(x: Any) -> Any:
        if isinstance(x, np.ndarray):
            return Tensor(next(placed))
        if isinstance(x, Tensor):
            return x if x.stop_gradient else x.detach()
        if isinstance(x, Mapping):
            return {k: rebuild(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [rebuild(v) for v in x]
        return x

    return rebuild(tree)
