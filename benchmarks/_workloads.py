"""Workloads shared by the benchmark script and the Paddle peer script (no project imports).

Each takes the library module (``pylayer_jax`` or ``paddle``) so the same code runs in both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def mlp_step(paddle: Any, x: Any, params: list[Any]) -> Callable[[], Any]:
    """The eager training step of the ``mlp step`` rows: forward, backward, clear_grad, a .grad read."""

    def step() -> Any:
        w1, b1, w2, b2 = params
        out = paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2
        out.mean().backward()
        for p in params:
            p.clear_grad()
        return w1.grad

    return step
