"""The backward walk: toposort, reversed walk, accumulate.

Layer L3. Values flowing through the walk are jax arrays for a plain backward, or
Tensors when ``diff`` (the Tensor layer's DiffOps) is given for create_graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import row_buckets as _row_buckets  # noqa: F401  (installs the padded run of known steps on new batch sizes)
from .fused_backward import add_into, add_kernel, as_array, fusable, run_segment
from .graph import ZEROED, AccumulateGrad, Edge, Node


class Walk:
    """A running walk, passed to each node's ``backward``: the gradients waiting for nodes (keyed by id), its
    nodes in walk order, and where it is (``rev[i:]`` are still to walk). A PyLayer's backward hands it to the
    step-event observer, which may have to walk on from there (``walk_on``)."""

    __slots__ = ("grads", "rev", "i")

    def __init__(self, grads: dict[int, list[Any]], rev: list[Node]) -> None:
        self.grads = grads
        self.rev = rev
        self.i = 0


def _add(a: Any, b: Any, diff: Any) -> Any:
    if a is None or a is ZEROED:
        return b
    if diff is not None:
        return diff.add(a, b)
    return add_kernel(a, b)


def _accumulate(grads: dict[int, list[Any]], node: Node, idx: int, g: Any, diff: Any) -> None:
    """Add ``g`` to the gradient waiting for output ``idx`` of ``node``."""
    slot = grads.setdefault(id(node), [None] * len(node.out_avals))
    if diff is None:
        add_into(slot, idx, g, node.out_avals[idx])
    else:
        slot[idx] = _add(slot[idx], g, diff)


def _materialize(node: Node, cts: list[Any]) -> list[Any]:
    """Root seeds travel as ONES so a fused run can make them; a single node needs arrays."""
    return [as_array(c, aval) for c, aval in zip(cts, node.out_avals)]


def _toposort(roots: Sequence[Node]) -> list[Node]:
    """Nodes reachable from ``roots``, each after every node it feeds (postorder)."""
    order: list[Node] = []
    seen: set[int] = set()
    for root in roots:
        if id(root) in seen:
            continue
        seen.add(id(root))
        stack: list[tuple[Node, int]] = [(root, 0)]
        while stack:
            node, i = stack.pop()
            edges = node.next_edges
            while i < len(edges):
                e = edges[i]
                i += 1
                if e is not None and id(e[0]) not in seen:
                    seen.add(id(e[0]))
                    stack.append((node, i))
                    stack.append((e[0], 0))
                    break
            else:
                order.append(node)
    return order


def run_backward(
    roots: Sequence[tuple[Edge, Any]],
    retain_graph: bool,
    diff: Any = None,
    capture: Sequence[Edge] | None = None,
) -> list[Any] | None:
    """Propagate ``roots`` (edge, gradient) pairs backwards through the tape.

    Without ``capture`` gradients accumulate into leaves' AccumulateGrad nodes
    (``Tensor.backward``). With it, the gradient arriving at each captured edge is
    returned instead and no leaf is touched (``paddle.grad``); only the part of the graph
    that leads to a captured edge runs.
    """
    root_nodes = [e[0] for e, _ in roots]
    order = _toposort(root_nodes)
    grads: dict[int, list[Any]] = {}
    for (node, idx), g in roots:
        _accumulate(grads, node, idx, g, diff)
    return _walk_from(order, grads, retain_graph, diff, capture)


def walk_on(rest: list[Node], waiting: Sequence[tuple[Edge, Any]]) -> None:
    """Go on with a plain backward (no capture, no retain_graph) over the nodes ``rest`` (in walk order), from
    the gradients ``waiting`` for them: what a walk that stopped there would have done next."""
    grads: dict[int, list[Any]] = {}
    for (node, idx), g in waiting:
        _accumulate(grads, node, idx, g, None)
    _walk_from(list(reversed(rest)), grads, False, None, None)


def _walk_from(order: list[Node], grads: dict[int, list[Any]], retain_graph: bool, diff: Any,
          capture: Sequence[Edge] | None) -> list[Any] | None:
    """The reversed walk over ``order`` from the gradients in ``grads`` (see ``run_backward``)."""
    wanted: dict[tuple[int, int], int] = {}
    runs: set[int] | None = None
    if capture is not None:
        for k, (node, idx) in enumerate(capture):
            wanted.setdefault((id(node), idx), k)
        targets = {id(n) for n, _ in capture}
        reach: set[int] = set()
        runs = set()
        for node in order:  # children before parents
            child_reaches = any(e is not None and id(e[0]) in reach for e in node.next_edges)
            if child_reaches:
                runs.add(id(node))
            if child_reaches or id(node) in targets:
                reach.add(id(node))
    captured: list[Any] = [None] * (len(capture) if capture is not None else 0)

    rev = list(reversed(order))
    walk = Walk(grads, rev)
    i = 0
    while i < len(rev):
        node = rev[i]
        if diff is None:
            j = i
            while j < len(rev) and fusable(rev[j]):
                j += 1
            if j - i > 1 or (j > i and type(node) is not AccumulateGrad):
                run_segment(rev[i:j], grads, capture is None, runs, wanted, captured, retain_graph)
                i = j
                continue
        i += 1
        cts = grads.pop(id(node), None)
        if cts is None:
            continue
        if diff is None:
            cts = _materialize(node, cts)
        if node.pre_hooks and (capture is None or type(node) is not AccumulateGrad):  # paddle.grad: no leaf hooks
            for j, hooks in node.pre_hooks.items():
                if cts[j] is not None:
                    for h in hooks:
                        cts[j] = h(cts[j])
        if wanted:
            for j, c in enumerate(cts):
                k = wanted.get((id(node), j))
                if k is not None:
                    captured[k] = c
        if isinstance(node, AccumulateGrad):
            if capture is None:
                node.grad = _add(node.grad, cts[0], diff)
            continue
        if runs is not None and id(node) not in runs:
            continue
        if all(c is None for c in cts):
            continue
        walk.i = i  # (the nodes still to walk: rev[i:])
        in_grads = node.backward(cts, diff, walk)
        edges = node.next_edges
        if not retain_graph:
            node.release()
        for e, g in zip(edges, in_grads):
            if e is None or g is None:
                continue
            _accumulate(grads, e[0], e[1], g, diff)
    return captured if capture is not None else None
