"""``paddle.decomposition.rules``: the decomposition rules registered with ``register.register_decomp`` (Paddle
3.3.1 keeps one here, ``pd_op.unsqueeze`` written with ``reshape``)."""

from __future__ import annotations

from typing import Any

from . import primitives
from .register import register_decomp


@register_decomp("pd_op.unsqueeze")
def unsqueeze(x: Any, axis: Any) -> list[Any]:
    """``unsqueeze`` as a ``reshape``: a 1 inserted at each of ``axis`` (ints, or a Tensor of them)."""
    axes = axis.tolist() if hasattr(axis, "tolist") else axis
    shape = list(x.shape)
    for i in [axes] if isinstance(axes, int) else axes:
        i = i + len(shape) + 1 if i < 0 else i
        shape = [*shape[:i], 1, *shape[i:]]
    return [primitives.reshape(x, shape), None]
