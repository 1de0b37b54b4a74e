"""``static.nn``: fc and static_pylayer (layer L6)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from ._eager_pylayer import eager_pylayer
from ._init import Constant, XavierUniform
from ._param import make_param
from ._program import unique_name
from ._pylayer import record_pylayer
from ._variable import Variable

_ACTIVATIONS = ("relu", "tanh", "sigmoid", "softmax", "exp")


def fc(
    x: Variable,
    size: int,
    num_flatten_dims: int = 1,
    weight_attr: Any = None,
    bias_attr: Any = None,
    activation: str | None = None,
    name: str | None = None,
) -> Variable:
    """Fully connected layer: ``x`` flattened to 2-D at ``num_flatten_dims``, times ``fc_N.w_0`` plus ``fc_N.b_0``.

    The weight starts Xavier-uniform and the bias at zero (Paddle's defaults).
    """
    if not isinstance(x, Variable):
        raise TypeError(f"static.nn.fc: x must be a Variable of a static program, but received {type(x).__name__}.")
    nd = len(x.shape)
    if num_flatten_dims < 0:
        num_flatten_dims += nd
    if not 0 < num_flatten_dims < nd:
        raise ValueError(
            f"static.nn.fc: num_flatten_dims must be in [1, {nd - 1}] for an input of rank {nd}, but "
            f"received {num_flatten_dims}."
        )
    tail = x.shape[num_flatten_dims:]
    if any(d < 0 for d in tail):
        raise ValueError(
            f"static.nn.fc: the dimensions of {x.name} after num_flatten_dims must be known, but its "
            f"shape is {x.shape}."
        )
    in_features = math.prod(tail)
    if num_flatten_dims != nd - 1:
        x = apply_op(TABLE["reshape"], (x, [*[0] * num_flatten_dims, in_features]))
    prefix = name or unique_name("fc")
    w = make_param(prefix, "w_0", [in_features, size], x.dtype, weight_attr, XavierUniform())
    out = apply_op(TABLE["matmul"], (x, w))
    if bias_attr is not False:
        b = make_param(prefix, "b_0", [size], x.dtype, bias_attr, Constant(0.0))
        out = apply_op(TABLE["add"], (out, b))
    if activation is not None:
        if activation not in _ACTIVATIONS or activation not in TABLE:
            raise ValueError(
                f"static.nn.fc: activation must be one of {_ACTIVATIONS} (or None), but received {activation!r}."
            )
        out = apply_op(TABLE[activation], (out,))
    return out


def static_pylayer(
    forward_fn: Callable[..., Any],
    inputs: Sequence[Any],
    backward_fn: Callable[..., Any] | None = None,
    name: str | None = None,
) -> Any:
    """``forward_fn(*inputs)`` with ``backward_fn`` as its gradient: output grads in, one grad per input out.

    In static mode this records a ``pylayer`` operator whose forward and backward blocks
    are forward_fn and backward_fn; in dynamic mode it behaves as a PyLayer built from
    them. With ``backward_fn=None`` every input must have ``stop_gradient=True``.

    Example::

        >>> paddle.enable_static()
        >>> x = paddle.static.data("X", [None, 5], "float32"); x.stop_gradient = False
        >>> y = paddle.static.nn.static_pylayer(paddle.exp, [x], lambda dy: 2 * paddle.exp(dy))
    """
    if not isinstance(inputs, list | tuple):
        raise TypeError(f"static_pylayer: inputs must be a list of Variables, but received {type(inputs).__name__}.")
    if not callable(forward_fn) or (backward_fn is not None and not callable(backward_fn)):
        raise TypeError("static_pylayer: forward_fn (and backward_fn, when given) must be callables.")
    if any(isinstance(x, Variable) for x in inputs):
        return record_pylayer(forward_fn, inputs, backward_fn, name)
    return eager_pylayer(forward_fn, inputs, backward_fn)
