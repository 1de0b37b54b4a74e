"""Tape nodes. They hold arrays, edges and saved values, never Tensor objects.

Layer L2. An edge is ``(node, output_index)``: where a gradient flowing into a
Tensor goes. A leaf that needs a gradient owns an ``AccumulateGrad`` node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._exec import deferred as lazy
from .._ops.table import Op
from .saved import SavedValue

Edge = tuple["Node", int]


# Paddle raises a SystemError here (its C++ "Fatal" error); this type is both a RuntimeError and a SystemError and is
# named SystemError, so code catching either (and code printing the type's name) works as with Paddle
ReleasedGraphError = type("SystemError", (RuntimeError, SystemError), {
    "__module__": __name__,
    "__doc__": "A backward through a graph whose saved values the first backward freed (no retain_graph=True).",
})


def released_error(name: str) -> RuntimeError:
    return ReleasedGraphError(
        f"Trying to backward through the graph a second time (node {name}): its saved values were freed "
        "after the first backward. Pass retain_graph=True to the first backward() if you need to backward "
        "through it again (paddle.grad keeps the graph)."
    )


class Node:
    """Base of every tape node.

    ``next_edges[i]`` is where the gradient of input ``i`` goes (None: not needed).
    ``pre_hooks[j]`` are functions applied to the gradient of output ``j`` before use.
    ``backward(cts, diff)`` returns one gradient per input; ``diff`` is None for a plain
    backward (cts and results are arrays) or, with create_graph, the Tensor layer's
    ``DiffOps`` (cts and results are Tensors whose ops are recorded).
    """

    __slots__ = ("next_edges", "out_avals", "pre_hooks", "released", "__weakref__")
    name = "node"

    def __init__(self, next_edges: list[Edge | None], out_avals: list[tuple]) -> None:
        # the lists are the node's own from here on (callers build them for it; no copy)
        self.next_edges = next_edges
        self.out_avals = out_avals
        self.pre_hooks: dict[int, list[Callable[[Any], Any]]] | None = None
        self.released = False

    def add_pre_hook(self, idx: int, fn: Callable[[Any], Any]) -> None:
        if self.pre_hooks is None:
            self.pre_hooks = {}
        self.pre_hooks.setdefault(idx, []).append(fn)

    def backward(self, cts: list[Any], diff: Any, walk: Any = None) -> list[Any]:
        """The gradients of the inputs from ``cts`` (``walk``: the engine's running walk, None outside one)."""
        raise NotImplementedError

    def release(self) -> None:
        """Free saved values after a backward without retain_graph."""
        self.released = True
        self.next_edges = [None] * len(self.next_edges)


ZEROED = "zeroed"  # AccumulateGrad.grad after clear_grad(): zeros, made only if someone reads them


class AccumulateGrad(Node):
    """The sink for a leaf: ``grad`` holds the accumulated array (None, or ZEROED)."""

    __slots__ = ("grad", "sig")
    name = "AccumulateGrad"

    def __init__(self, aval: tuple) -> None:
        super().__init__([], [aval])
        self.grad: Any = None
        # the fused backward's signature entries: capturing (paddle.grad), accumulating (Tensor.backward)
        self.sig = (("acc", False, (aval,)), ("acc", True, (aval,)))

    def release(self) -> None:  # leaves outlive every backward
        pass


class OpNode(Node):
    """A call of a table op: saved values per tensor leaf and output, static avals."""

    __slots__ = ("op", "key", "saved_leaves", "saved_outs", "avals", "needs", "static")

    def __init__(
        self,
        op: Op,
        key: tuple,
        saved_leaves: list[Any],
        saved_outs: list[Any] | None,
        avals: tuple,
        needs: tuple,
        next_edges: list[Edge | None],
        out_avals: list[tuple],
    ) -> None:
        super().__init__(next_edges, out_avals)
        self.op = op
        self.key = key
        # per tensor leaf: SavedValue, a constant (Python scalar / numpy array), or None
        self.saved_leaves = saved_leaves
        # per output: a SavedValue (a hook packed it, or an in-place op made it versioned) or the bare array
        self.saved_outs = saved_outs
        self.avals = avals
        self.needs = needs
        # what the fused backward's signature needs of this node
        self.static = (op, key, avals, needs, tuple(out_avals))

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.op.name

    def backward(self, cts: list[Any], diff: Any, walk: Any = None) -> list[Any]:
        if self.released:
            raise released_error(self.op.name)
        if diff is not None:
            return diff.apply_grad_op(self, cts)
        leaves, outs = self.saved_arrays()
        kernel = self.op.backward_kernel(self.key, self.avals, self.needs)
        return lazy.call_tree(kernel, leaves, outs, tuple(cts))

    def saved_arrays(self) -> tuple[tuple, tuple | None]:
        """(saved input arrays or constants, saved output arrays or None), checked and unpacked."""
        name = self.op.name
        leaves = tuple([v.value(name) if type(v) is SavedValue else v for v in self.saved_leaves])
        outs = None if self.saved_outs is None else tuple(
            [v.value(name) if type(v) is SavedValue else v for v in self.saved_outs])
        return leaves, outs

    def release(self) -> None:
        super().release()
        self.saved_leaves = []
        self.saved_outs = None
