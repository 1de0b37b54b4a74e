"""The autograd entry points: ``Tensor.backward()``, ``paddle.autograd.backward`` and ``paddle.grad``.

Layer L4. They seed the roots, run the engine's walk (``_autograd.engine``) with grad mode off, or
with the backward's own ops recorded as ops (``create_graph``: ``DiffOps``), and run the step's
deferred calls at the end, or leave them for the optimizer's update to join (``deferred.end_backward``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._autograd.engine import run_backward
from .._autograd.fused_backward import ONES
from .._autograd.graph import Edge, OpNode, released_error
from .._autograd.saved import SavedValue
from .._exec import deferred as lazy
from .._runtime.state import grad_mode, modes
from .._runtime.transfer import own
from . import step_events as _ev
from .dispatch import apply_op
from .facade import HELD, Tensor, follow_grads


def tensor_backward(t: Tensor, grad_tensor: Any, retain_graph: bool) -> None:
    """``t.backward(grad_tensor, retain_graph)`` of a Tensor that does not stop gradients, once the step-event
    observer has not run it (``Tensor.backward`` asks it first)."""
    if grad_tensor is None and not retain_graph:
        _walk([t], None, False)
        return
    backward([t], [grad_tensor], retain_graph)


# ---- create_graph: the backward's own ops are recorded --------------------------------
class DiffOps:
    """What the engine needs to run a backward whose values are Tensors (create_graph)."""

    @staticmethod
    def add(a: Tensor, b: Tensor) -> Tensor:
        return a + b

    @staticmethod
    def apply_grad_op(node: OpNode, cts: list[Any]) -> list[Any]:
        name = node.op.name

        def saved(v: Any) -> Any:
            if isinstance(v, SavedValue):
                arr, edge = v.get(name)
                return Tensor(arr, edge is None, edge)
            return v

        leaves = [saved(v) for v in node.saved_leaves]
        # (under saved-tensor hooks an op keeps only the outputs its ``saves`` names: None for the others)
        outs = None if node.saved_outs is None else [
            saved(v) if isinstance(v, SavedValue) else None if v is None else Tensor(v, False, (node, j))
            for j, v in enumerate(node.saved_outs)]
        cts_t = [c if (c is None or isinstance(c, Tensor)) else Tensor(c) for c in cts]
        return apply_op(node.op.grad_op, (leaves, outs, cts_t, node.key, node.avals, node.needs))

    @staticmethod
    def wrap(arr: Any) -> Tensor:
        return arr if isinstance(arr, Tensor) else Tensor(arr)


# ---- backward entry points ---------------------------------------------------------
_ones = jax.jit(jnp.ones_like)


def _seed(t: Tensor, g: Any, api: str, diff: Any) -> Any:
    if g is None:
        return Tensor(_ones(t._value)) if diff is not None else ONES
    if isinstance(g, Tensor):
        if g.shape != t.shape:
            raise ValueError(f"{api}: grad_tensor must have the shape {t.shape} of the tensor it seeds, but received {g.shape}.")
        return g if diff is not None else g._v
    # (a numpy array is copied: ``jnp.asarray`` with a dtype may keep using the caller's memory)
    arr = own(g, t._v.dtype) if isinstance(g, np.ndarray | np.generic) else jnp.asarray(g, t._v.dtype)
    return Tensor(arr) if diff is not None else arr


def backward(tensors: Sequence[Tensor], grad_tensors: Sequence[Any] | None = None, retain_graph: bool = False) -> None:
    """Run backward from ``tensors``, accumulating into leaves' ``.grad``."""
    if modes.capture is not None:  # inside jit.to_static: the function is a whole training step
        modes.capture.backward_called()
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    if grad_tensors is not None and isinstance(grad_tensors, Tensor):
        grad_tensors = [grad_tensors]
    if grad_tensors is not None and len(grad_tensors) != len(tensors):
        raise ValueError(
            f"backward: grad_tensors must have one entry per tensor, but received {len(grad_tensors)} for "
            f"{len(tensors)} tensors."
        )
    if any(t.stop_gradient for t in tensors):  # as in Paddle, tensors with stop_gradient=True are skipped
        for t, g in zip(tensors, grad_tensors or ()):
            if t.stop_gradient and isinstance(g, Tensor):
                _seed(t, g, "backward", None)  # (their seeds' shapes still checked, as Paddle does)
        keep = [i for i, t in enumerate(tensors) if not t.stop_gradient]
        tensors = [tensors[i] for i in keep]
        grad_tensors = None if grad_tensors is None else [grad_tensors[i] for i in keep]
        if not tensors:
            return
    if grad_tensors is None and not retain_graph and len(tensors) == 1:
        if _ev.EVENTS.backward(tensors[0]):  # the repeated step's backward, as noted: no walk
            lazy.end_backward()
            if HELD:
                follow_grads()
            return
    _walk(tensors, grad_tensors, retain_graph)


def _walk(tensors: Sequence[Tensor], grad_tensors: Sequence[Any] | None, retain_graph: bool) -> None:
    """``backward()`` through the tape (noted for replay when it may repeat), then the step's run."""
    ev = _ev.EVENTS
    noted = None
    if grad_tensors is None and not retain_graph and len(tensors) == 1:
        noted = ev.backward_begin(tensors[0])
    gm = modes.grad_enabled
    try:
        roots = []
        for i, t in enumerate(tensors):
            edge = t.grad_edge()
            if edge is None:
                raise RuntimeError(
                    f"backward: {t.name} has stop_gradient=True, so it has no gradient graph to run backward "
                    "through. Set stop_gradient = False on the inputs you want gradients for before computing it."
                )
            roots.append((edge, _seed(t, None if grad_tensors is None else grad_tensors[i], "backward", None)))
        with grad_mode(False):
            run_backward(roots, retain_graph)
        if noted is not None:
            ev.backward_end(noted)
    finally:
        modes.grad_enabled = gm  # (also when an interrupt lands where the ``with`` exits, before it restores it)
        ev.backward_done()
    lazy.end_backward()  # one program per step: the forward recorded so far, this backward (and the update)
    if HELD:
        follow_grads()


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool = False,
    no_grad_vars: Any = None,
) -> list[Tensor | None]:
    """Gradients of ``outputs`` with respect to ``inputs``, without touching ``.grad``.

    The graph is kept whatever ``retain_graph`` says, as in Paddle 3.3.1 (its ``paddle.grad`` never frees what the
    backward saved): ``paddle.grad`` may be called again on the same outputs, and ``backward()`` after it."""
    if not only_inputs:
        raise NotImplementedError("paddle.grad: only_inputs=False (also accumulating the gradients of the other "
                                  "leaves) is not supported, as in Paddle; received only_inputs=False, pass True.")
    outs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    ins = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    for what, ts, fix in (("inputs", ins, "its gradient is the same in every place"),
                          ("outputs", outs, "to count one twice, pass 2 * y or its grad_outputs entry doubled")):
        if len({id(t) for t in ts}) != len(ts):  # (a RuntimeError, as Paddle's)
            dup = next(t for k, t in enumerate(ts) if any(t is u for u in ts[:k]))
            raise RuntimeError(
                f"paddle.grad: {what} must be different Tensors, but {getattr(dup, 'name', dup)!s} appears more "
                f"than once. Pass each Tensor once ({fix})."
            )
    if grad_outputs is not None and not isinstance(grad_outputs, list | tuple):
        grad_outputs = [grad_outputs]
    if grad_outputs is not None and len(grad_outputs) != len(outs):
        raise ValueError(
            f"paddle.grad: grad_outputs must have one entry per output, but received {len(grad_outputs)} for "
            f"{len(outs)} outputs."
        )
    diff = DiffOps if create_graph else None
    roots = []
    for i, t in enumerate(outs):
        edge = t.grad_edge()
        if edge is None:
            continue
        g = None if grad_outputs is None else grad_outputs[i]
        roots.append((edge, _seed(t, g, "paddle.grad", diff)))
    capture: list[Any] = []
    for t in ins:
        if not isinstance(t, Tensor):
            raise TypeError(f"paddle.grad: inputs must be Tensors, but received {type(t).__name__}.")
        capture.append(t.grad_edge() or (None, 0))
    blocked: list[Edge] = []
    if no_grad_vars is not None:
        nv = [no_grad_vars] if isinstance(no_grad_vars, Tensor) else list(no_grad_vars)
        blocked = [e for e in (v.grad_edge() for v in nv) if e is not None]
    for node, idx in blocked:  # gradients reaching a no_grad_var stop there (dropped for this call only)
        node.add_pre_hook(idx, _drop_grad)
    freed = next((r[0][0] for r in roots if r[0][0].released), None)  # an earlier backward freed it
    try:
        with grad_mode(create_graph):
            got = run_backward(roots, True, diff, [c for c in capture]) if roots else [None] * len(ins)
        lazy.flush()
    finally:
        for node, idx in blocked:
            node.pre_hooks[idx].remove(_drop_grad)
            if not any(node.pre_hooks.values()):
                node.pre_hooks = None  # hook-free nodes stay fusable
    result: list[Tensor | None] = []
    for t, g in zip(ins, got or [None] * len(ins)):
        if g is None:
            if freed is not None:  # a freed output graph reaches nothing: say why
                raise released_error(freed.name)
            if not allow_unused:
                raise ValueError(
                    f"paddle.grad: the input {t.name} does not appear in the backward graph of the outputs, so "
                    "it has no gradient. Set allow_unused=True to get None for it."
                )
            result.append(None)
        else:
            g = g if isinstance(g, Tensor) else Tensor(g)
            if create_graph and g.stop_gradient:  # one constant in the inputs: a leaf that trains, as in Paddle
                g = Tensor(g._v, False)
            result.append(g)
    return result


def _drop_grad(g: Any) -> None:
    return None
