"""Cases of Paddle 3.3.1's top-level ``paddle.softmax`` / ``Tensor.softmax`` (PyTorch's signature: ``dim=None``
takes PyTorch's legacy axis, 0 for 0-D, 1-D and 3-D inputs, else 1), run the same under Paddle
(``tests/record_paddle_softmax_dim.py``) and under pylayer_jax (``tests/ops/test_softmax_dim.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np

SHAPES = [(), (4,), (2, 3), (2, 3, 4), (2, 3, 2, 2)]


def _np(t: Any) -> list:
    return np.round(t.numpy().astype(np.float64), 6).tolist()


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for shape in SHAPES:
        x = paddle.to_tensor(np.arange(int(np.prod(shape)), dtype="float32").reshape(shape) * 0.3,
                             stop_gradient=False)
        y = paddle.softmax(x)
        (y * paddle.to_tensor(np.arange(y.size, dtype="float32").reshape(shape))).sum().backward()
        out[f"default{list(shape)}"] = [_np(y), _np(x.softmax()), _np(x.grad)]
        if shape:
            out[f"dim{list(shape)}"] = [_np(paddle.softmax(x, -1)), _np(x.softmax(dim=0))]
    x = paddle.to_tensor(np.ones((2, 3), "float32"))
    o = paddle.zeros([2, 3])
    paddle.softmax(x, 1, out=o)
    out["out"] = _np(o)
    try:
        paddle.softmax(x, axis=1)
        out["axis_keyword"] = "accepted"
    except TypeError:
        out["axis_keyword"] = "TypeError"
    return out
