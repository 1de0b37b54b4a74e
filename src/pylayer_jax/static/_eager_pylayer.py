"""static_pylayer in dynamic mode: forward_fn eagerly, backward_fn as one tape node.

Layer L6. Paddle asserts when static_pylayer is called in dynamic mode; here it behaves
as a PyLayer built from the two functions: forward_fn runs without recording, and a
tape node calls backward_fn with the output gradients (zeros for outputs that received
none) and routes its results to the inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp

from .._graph import Node
from .._state import grad_mode, modes
from .._tensor import Tensor


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


class StaticPyLayerNode(Node):
    """Gradient of an eager static_pylayer call: backward_fn on the output gradients."""

    __slots__ = ("backward_fn", "in_avals")
    name = "static_pylayer"

    def __init__(
        self,
        backward_fn: Callable[..., Any],
        edges: Sequence[Any],
        in_avals: Sequence[tuple],
        out_avals: Sequence[tuple],
    ) -> None:
        super().__init__(edges, out_avals)
        self.backward_fn = backward_fn
        self.in_avals = list(in_avals)

    def backward(self, cts: list[Any], diff: Any) -> list[Any]:
        wrapped = []
        for c, (shape, dt) in zip(cts, self.out_avals):
            if c is None:
                c = jnp.zeros(shape, dt)
            wrapped.append(c if isinstance(c, Tensor) else Tensor(c))
        with grad_mode(diff is not None and modes.grad_enabled):
            res = self.backward_fn(*wrapped)
        grads = list(res) if isinstance(res, list | tuple) else [res]
        if len(grads) != len(self.in_avals):
            raise ValueError(
                f"static_pylayer: backward_fn must return one gradient per Tensor input of forward_fn. The number "
                f"of input grads should be equal to the number of inputs, but got {len(grads)} and "
                f"{len(self.in_avals)}."
            )
        out = []
        for i, (g, (shape, dt)) in enumerate(zip(grads, self.in_avals)):
            if g is None:
                out.append(None)
                continue
            if not isinstance(g, Tensor):
                raise TypeError(
                    f"static_pylayer: backward_fn must return Tensors (or None), but gradient {i} is a "
                    f"{type(g).__name__}."
                )
            if tuple(g.shape) != tuple(shape) or g._value.dtype != dt:
                raise ValueError(
                    f"static_pylayer: backward_fn's gradient {i} must have the input's shape {list(shape)} and dtype "
                    f"{jnp.dtype(dt).name}, but it has shape {g.shape} and dtype {g.dtype.name}."
                )
            out.append(g if diff is not None else g._value)
        return out


def eager_pylayer(forward_fn: Callable[..., Any], inputs: Sequence[Any], backward_fn: Callable[..., Any] | None) -> Any:
    tensors = [x for x in inputs if isinstance(x, Tensor)]
    needs = modes.grad_enabled and any(not t.stop_gradient for t in tensors)
    if backward_fn is None and needs:
        bad = ", ".join(t.name for t in tensors if not t.stop_gradient)
        raise ValueError(
            "static_pylayer: ``stop_gradient`` attr of all inputs to ``forward_fn`` are expected to be True, when "
            f"``backward_fn == None``, but {bad} has stop_gradient=False. Pass a backward_fn, or set "
            "stop_gradient = True on those inputs."
        )
    with grad_mode(False):
        out = forward_fn(*inputs)
    if not needs:
        return out
    leaves, tree = jax.tree_util.tree_flatten(out, is_leaf=_is_tensor)
    outs = [x for x in leaves if isinstance(x, Tensor)]
    node = StaticPyLayerNode(
        backward_fn,  # type: ignore[arg-type]
        [t.grad_edge() for t in tensors],
        [(tuple(t._value.shape), t._value.dtype) for t in tensors],
        [(tuple(o._value.shape), o._value.dtype) for o in outs],
    )
    it = iter(range(len(outs)))
    new = [Tensor(x._value, False, (node, next(it))) if isinstance(x, Tensor) else x for x in leaves]
    return jax.tree_util.tree_unflatten(tree, new)
