"""Paddle's sparse embedding gradients (``Embedding(sparse=True)``), kept dense with the rows they hold (layer L6).

In Paddle a lookup with ``sparse=True`` gives the table a SelectedRows gradient: the rows looked up and their
gradients; lookups of one backward, and of the backwards until ``clear_grad``, are merged into one. Some optimizers
update such a gradient otherwise than a dense one (``Adam``'s ``lazy_mode``; see ``optimizer._rules``). Here the
gradient stays the dense array with the same values on the rows looked up and zeros elsewhere, and the rows travel
beside it: each sparse lookup (op ``embedding_sparse``) also takes a hidden leaf ``looked_up`` of the table's height,
whose gradient counts the lookups of each row. Being a leaf's gradient, the count accumulates over backwards as the
table's gradient does, and is replayed with the step like any other.

The table's gradient sink (its ``AccumulateGrad``) becomes a ``SparseRowsSink`` at its first sparse lookup: a
gradient cleared there (``clear_grad()``, with or without ``set_to_zero``) is None, as Paddle's SelectedRows gradient
is, and clears the count with it. Nothing changes for a Tensor never looked up sparsely: the dense path pays nothing.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from .._autograd.graph import ZEROED, AccumulateGrad
from .._tensor.facade import Tensor

_SLOT = AccumulateGrad.__dict__["grad"]  # the slot holding an AccumulateGrad's gradient

# a sparse table's sink -> its ``looked_up`` leaf (weakly: both go with the table)
ROWS: weakref.WeakKeyDictionary[AccumulateGrad, Tensor] = weakref.WeakKeyDictionary()
MARKED = 0  # how many Tensors have been looked up sparsely (0: every step is an ordinary one)
# called with no argument when a Tensor is first looked up sparsely (the optimizers drop their repeated-step records,
# which were made without the rows)
ON_MARK: list[Callable[[], None]] = []


def _get(sink: AccumulateGrad) -> Any:
    return _SLOT.__get__(sink)


def _set(sink: AccumulateGrad, value: Any) -> None:
    if value is None or value is ZEROED:  # cleared: Paddle's SelectedRows gradient is None then, whatever set_to_zero
        value = None
        leaf = ROWS.get(sink)
        acc = None if leaf is None else leaf._acc
        if acc is not None:
            acc.grad = None
    _SLOT.__set__(sink, value)


class SparseRowsSink(AccumulateGrad):
    """The gradient sink of a Tensor looked up with ``sparse=True``: an ``AccumulateGrad`` whose cleared gradient is
    None and clears the rows looked up (the count in its ``looked_up`` leaf's gradient) with it."""

    __slots__ = ()
    grad = property(_get, _set)  # type: ignore[assignment]


def looked_up_leaf(weight: Tensor) -> Tensor:
    """The hidden leaf whose gradient counts the sparse lookups of ``weight``'s rows; at the first call the weight's
    sink becomes a ``SparseRowsSink`` (the same object: the tape's edges to it stay)."""
    sink = weight._leaf_edge()[0]
    leaf = ROWS.get(sink) if type(sink) is SparseRowsSink else None
    if leaf is None:
        leaf = Tensor(np.zeros((int(weight.shape[0]),), np.float32), stop_gradient=False)
        global MARKED
        sink.__class__ = SparseRowsSink
        ROWS[sink] = leaf
        MARKED += 1
        for fn in ON_MARK:
            fn()
    return leaf


def is_sparse(p: Tensor) -> bool:
    """Whether ``p`` has been looked up with ``sparse=True``."""
    return type(p._acc) is SparseRowsSink


def lookup_counts(p: Tensor) -> Any:
    """How often each row of ``p`` was looked up sparsely in the backwards since its gradient was last cleared (an
    array of its height, or a deferred one), or None: no sparse lookup reached its gradient."""
    acc = p._acc
    if type(acc) is not SparseRowsSink:
        return None
    leaf = ROWS.get(acc)
    sink = None if leaf is None else leaf._acc
    return None if sink is None else sink.grad
