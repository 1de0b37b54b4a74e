"""PyLayers shared by the tests: each is the usual custom op, with its derivative written by hand."""

from __future__ import annotations

import pylayer_jax as paddle
from pylayer_jax.autograd import PyLayer


class CusTanh(PyLayer):
    """tanh, saving its output: the backward is ``dy * (1 - y**2)``."""

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        (y,) = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))
