"""static_pylayer in dynamic mode: a PyLayer built from forward_fn and backward_fn.

Layer L6. Paddle asserts when static_pylayer is called in dynamic mode; here it behaves
as a PyLayer whose forward calls forward_fn and whose backward calls backward_fn with
the output gradients. The two functions travel as non-Tensor arguments of ``apply``,
so one PyLayer class serves every call, eagerly and under ``jax.jit``/``jax.grad``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .._pylayer.eager import PyLayer
from .._runtime.state import modes
from .._tensor.facade import Tensor


class _FnPyLayer(PyLayer):
    @staticmethod
    def forward(ctx: Any, forward_fn: Callable[..., Any], backward_fn: Callable[..., Any], *inputs: Any) -> Any:
        ctx.backward_fn = backward_fn
        return forward_fn(*inputs)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        return ctx.backward_fn(*grads)


def eager_pylayer(forward_fn: Callable[..., Any], inputs: Sequence[Any], backward_fn: Callable[..., Any] | None) -> Any:
    tensors = [x for x in inputs if isinstance(x, Tensor)]
    if backward_fn is None:
        bad = [t.name for t in tensors if not t.stop_gradient]
        if bad and modes.grad_enabled:
            raise ValueError(
                "static_pylayer: ``stop_gradient`` attr of all inputs to ``forward_fn`` are expected to be True, when "
                f"``backward_fn == None``, but {', '.join(bad)} has stop_gradient=False. Pass a backward_fn, or set "
                "stop_gradient = True on those inputs."
            )
        return forward_fn(*inputs)
    return _FnPyLayer.apply(forward_fn, backward_fn, *inputs)
