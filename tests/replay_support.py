"""Shared by the replay tests: the MLP step, its data, and running a script with replay on and off.

Oracles: jax.grad of the same computation, and the same code run with replay off
(``_replay.ENABLED = False``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax._replay import follow as _replay


def _data(seed: int = 0) -> tuple[np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    return rng.standard_normal((5, 4)), [rng.standard_normal(s) * 0.3 for s in [(4, 6), (6,), (6, 3), (3,)]]


def _loss_jax(ps: list, x: jax.Array) -> jax.Array:
    w1, b1, w2, b2 = ps
    return jnp.mean(jnp.tanh(x @ w1 + b1) @ w2 + b2)


def _forward(x: paddle.Tensor, params: list[paddle.Tensor]) -> paddle.Tensor:
    w1, b1, w2, b2 = params
    return paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2


def _tensors(seed: int = 0) -> tuple[paddle.Tensor, list[paddle.Tensor]]:
    x, ps = _data(seed)
    return paddle.to_tensor(x), [paddle.to_tensor(p, stop_gradient=False) for p in ps]


def _both(monkeypatch: pytest.MonkeyPatch, script: Callable[[], Any]) -> tuple[Any, Any, dict[str, int]]:
    """``script()`` with replay on, then off: (result on, result off, replay STATS during the first run)."""
    before = dict(_replay.STATS)
    on = script()
    stats = {k: _replay.STATS[k] - before[k] for k in before}
    _replay.reset()
    with monkeypatch.context() as m:
        m.setattr(_replay, "ENABLED", False)
        off = script()
    return on, off, stats


def _tanh(i: int, pre: paddle.Tensor, out: list) -> paddle.Tensor:
    return paddle.tanh(pre)


def _mean_head(i: int, h: paddle.Tensor, params: list[paddle.Tensor], out: list) -> paddle.Tensor:
    return (paddle.matmul(h, params[2]) + params[3]).mean()


def _loop(vary: Callable[[int, paddle.Tensor, list], paddle.Tensor] | None = None,
          after: Callable[[int, paddle.Tensor, list], None] | None = None, steps: int = 6,
          act: Callable[[int, paddle.Tensor, list], paddle.Tensor] = _tanh,
          head: Callable[[int, paddle.Tensor, list, list], paddle.Tensor] = _mean_head) -> list[Any]:
    """The MLP step ``steps`` times, returning every step's gradients (and what the callbacks add).

    In step ``i``: ``act(i, pre, out)`` is the hidden layer's activation, ``vary(i, h, out)`` may
    replace the hidden layer ``h``, ``head(i, h, params, out)`` is the loss, and ``after(i, h, out)``
    runs after its backward, before the gradients are cleared.
    """
    x, params = _tensors()
    out: list[Any] = []
    for i in range(steps):
        h = act(i, paddle.matmul(x, params[0]) + params[1], out)
        if vary is not None:
            h = vary(i, h, out)
        head(i, h, params, out).backward()
        if after is not None:
            after(i, h, out)
        out.append([p.grad.numpy() for p in params])
        for p in params:
            p.clear_grad()
    return out


def _close(a: Any, b: Any) -> None:
    for x, y in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b), strict=True):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-12, atol=1e-12)
