"""``paddle.incubate.autograd.forward_grad`` and ``grad``: autodiff inside a static program (layer L8).

As in Paddle 3.3.1, both work in static mode only (``AssertionError`` in dynamic mode, as Paddle's
``static_only``). ``grad`` without ``enable_prim()`` is ``paddle.static.gradients`` (a single input gives a single
gradient); ``forward_grad`` needs ``enable_prim()`` (``RuntimeError`` otherwise, as in Paddle). With prim on, Paddle
lowers the program to primitive operators and linearizes it; here ``forward_grad`` records a ``jax.jvp`` and
``grad`` the same gradient as without prim (JAX differentiates every op the same way), and ``prim2orig`` has
nothing to lower back. (Paddle 3.3.1's own prim path fails in its default PIR programs, "Variable in inputs and
outputs should be None or in current block of main program"; its documented results are what is given here.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...static._backward import gradients as _gradients
from ...static._forward_grad import forward_gradients as _forward_gradients
from ...static._variable import Variable
from ._functional import _PRIM, _static_only


def _as_list(api: str, what: str, xs: Any, allow_none: bool = False) -> list[Any]:
    if allow_none and xs is None:
        return []
    if isinstance(xs, Variable):
        return [xs]
    if isinstance(xs, Sequence) and not isinstance(xs, str):
        return list(xs)
    raise TypeError(f"{api}: {what} must be a Tensor or a sequence of Tensors (static Variables), but received "
                    f"{type(xs).__name__}.")


def forward_grad(outputs: Any, inputs: Any, grad_inputs: Any = None) -> Any:
    """Forward-mode derivative in a static program: the derivative of ``outputs`` along ``grad_inputs`` (the
    tangents of ``inputs``, one per input with its shape; ones when None) — ``J @ v``. A single output gives a single
    Variable, a sequence a list (None for an output that does not depend on the inputs). Static mode with
    ``enable_prim()`` only, as in Paddle."""
    api = "forward_grad"
    _static_only(api)
    if not _PRIM[0]:
        raise RuntimeError("forward_grad must be running on primitive operators: call "
                           "paddle.incubate.autograd.enable_prim() first to turn them on.")
    ys = _as_list(api, "outputs", outputs)
    xs = _as_list(api, "inputs", inputs)
    vs = _as_list(api, "grad_inputs", grad_inputs, allow_none=True) or [None] * len(xs)
    if len(vs) != len(xs):
        raise ValueError(f"{api}: grad_inputs must have one tangent per input ({len(xs)}), but received {len(vs)}.")
    if not ys or not xs:
        raise ValueError(f"{api}: outputs and inputs must not be empty.")
    dots = _forward_gradients(api, ys, xs, vs)
    return dots[0] if isinstance(outputs, Variable) else dots


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None) -> Any:
    """Reverse-mode gradient in a static program: ``paddle.static.gradients(outputs, inputs, grad_outputs)``
    (``grad_outputs``: the cotangents of ``outputs``, ones when None), a single Variable for a single input. Static
    mode only, as in Paddle; the same with or without ``enable_prim()``."""
    api = "grad"
    _static_only(api)
    _as_list(api, "outputs", outputs)
    _as_list(api, "inputs", inputs)
    grads = _gradients(outputs, inputs, grad_outputs)
    if isinstance(inputs, Variable) and isinstance(grads, Sequence) and grads:
        return grads[0]
    return grads


def prim2orig(block: Any = None, blacklist: Any = None) -> None:
    """Paddle lowers the primitive operators ``forward_grad`` / ``grad`` recorded back to its original ones; here
    nothing was lowered, so it checks the mode and returns (static mode only, as in Paddle)."""
    _static_only("prim2orig")
    if block is not None and not hasattr(block, "ops"):
        raise TypeError(f"prim2orig: block must be a Block of the main program or None, but received "
                        f"{type(block).__name__}.")
    if blacklist is not None and not isinstance(blacklist, Sequence):
        raise TypeError(f"prim2orig: blacklist must be a list of operator types or None, but received "
                        f"{type(blacklist).__name__}.")
