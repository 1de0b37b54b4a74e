"""Record Paddle 3.3.1's second derivative through a PyLayer whose backward reads its saved output
into tests/data/paddle_pylayer_double.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_pylayer_double.py``.
"""

import json
import os

import paddle
from paddle.autograd import PyLayer


class CubeSavesOut(PyLayer):
    """y = x**3, with a backward that is not y's derivative: dy * y (reads the saved output)."""

    @staticmethod
    def forward(ctx, x):
        y = x**3
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy * y


x = paddle.to_tensor([2.0, -1.5], dtype="float64", stop_gradient=False)
(g,) = paddle.grad(CubeSavesOut.apply(x).sum(), x, create_graph=True)
(g2,) = paddle.grad(g.sum(), x)
out = {"x": [2.0, -1.5], "first": g.numpy().tolist(), "second": g2.numpy().tolist()}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_pylayer_double.json")
with open(path, "w") as fh:
    json.dump(out, fh, indent=1)
print(json.dumps(out))
