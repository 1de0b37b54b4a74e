"""``PyLayerContext``: the ctx object forward fills and backward reads (layer L5).

The same object is passed to forward and backward. Its state is plain attributes, so
the traced driver can carry it through ``jax.custom_vjp`` as a pytree: arrays become
residuals, everything else (``ctx.func = paddle.square``) static data.
"""

from __future__ import annotations

from typing import Any

import jax

from .._runtime.state import modes
from .._tensor.facade import Tensor
from .._tensor.saved_hooks import load_values, save_values


class PyLayerContext:
    """Carries state from ``PyLayer.forward`` to ``PyLayer.backward``.

    Methods that configure backward (``save_for_backward``, ``mark_not_inplace``,
    ``mark_non_differentiable``, ``set_materialize_grads``) may only be called inside
    forward. Any other attribute may be set freely (``ctx.func = paddle.square``).
    ``needs_input_grad`` is a tuple with one bool per gradient slot of ``apply``.

    Example::

        >>> import pylayer_jax as paddle
        >>> class CusTanh(paddle.autograd.PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         y = paddle.tanh(x)
        ...         ctx.save_for_backward(y)
        ...         return y
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         y, = ctx.saved_tensor()
        ...         return dy * (1 - paddle.square(y))
    """

    # the defaults, read from the class until forward sets one (an apply makes a ctx every step: no per-instance
    # copies of them)
    _in_forward = False
    _saved: tuple[Any, ...] | None = None
    _not_inplace: tuple[Any, ...] = ()
    _non_diff: tuple[Any, ...] = ()
    _materialize = True
    _grad_in_dtype_consistent = True
    needs_input_grad: tuple[bool, ...] = ()

    def _forward_only(self, api: str) -> None:
        if not self._in_forward:  # (the traced driver and ``check_pylayer`` set the flag)
            for c in modes.pylayer_forward_ctx:  # the eager driver's forward runs with its ctx on the thread's stack
                if c is self:
                    return
            raise RuntimeError(
                f"PyLayerContext.{api} can only be called inside forward (it configures the backward of this "
                "call); it was called outside. Move the call into your PyLayer's forward."
            )

    def save_for_backward(self, *tensors: Any) -> None:
        """Keep ``tensors`` for backward (a later call replaces an earlier one). Read them with saved_tensor()."""
        self._forward_only("save_for_backward")
        self._saved = save_values(tensors)

    def saved_tensor(self) -> tuple[Any, ...] | None:
        """The values given to save_for_backward (unpacked again on each call), or None if nothing was saved."""
        if self._saved is None:
            return None
        return load_values(self._saved)

    saved_tensors = saved_tensor

    def mark_not_inplace(self, *tensors: Any) -> None:
        """Inputs that forward may return as-is without it counting as an in-place write."""
        self._forward_only("mark_not_inplace")
        _check_tensors("mark_not_inplace", tensors)
        self._not_inplace = tensors

    def mark_non_differentiable(self, *tensors: Any) -> None:
        """Outputs that get no gradient (stop_gradient=True); backward still receives zeros for them."""
        self._forward_only("mark_non_differentiable")
        _check_tensors("mark_non_differentiable", tensors)
        self._non_diff = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """Whether outputs that receive no gradient get zeros (True, the default) or None in backward."""
        self._forward_only("set_materialize_grads")
        self._materialize = bool(value)

    def set_grad_in_dtype_consistent(self, flag: bool) -> None:
        """Whether backward's incoming gradients are cast to the dtype of forward's outputs (True, the default).

        With ``False``, as in Paddle, a gradient that a later PyLayer's backward returned in another dtype
        (a float32 gradient for a float16 output, say) reaches this backward uncast. Gradients of the
        table's ops always have their input's dtype, so only a PyLayer's backward can send another dtype.
        Under JAX tracing (``jax.grad`` through a PyLayer) cotangents always have the outputs' dtypes.
        """
        self._forward_only("set_grad_in_dtype_consistent")
        if not isinstance(flag, bool):
            raise TypeError(
                f"PyLayerContext.set_grad_in_dtype_consistent takes a bool, but received {type(flag).__name__}."
            )
        self._grad_in_dtype_consistent = flag


def _check_tensors(api: str, tensors: tuple[Any, ...]) -> None:
    for t in tensors:
        if not isinstance(t, Tensor | jax.Array):
            raise TypeError(
                f"PyLayerContext.{api} takes Tensors only, but received {type(t).__name__}. Pass the Tensors "
                "themselves."
            )
