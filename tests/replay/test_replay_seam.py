"""Replay sits behind one seam: with no observer registered the core runs every step normally.

Oracle: the same training loop (a PyLayer activation, an optimizer) with replay registered, and
``jax.grad`` of the loss for the first step's gradients.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pylayer_support import CusTanh
from replay_support import _data

import pylayer_jax as paddle
from pylayer_jax._replay import follow as _replay
from pylayer_jax._tensor import step_events


def _train(steps: int) -> tuple[list[float], list[np.ndarray], list[np.ndarray]]:
    x_np, ps_np = _data()
    x = paddle.to_tensor(x_np)
    ps = [paddle.to_tensor(p, stop_gradient=False) for p in ps_np]
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=ps)
    losses, first = [], None
    for _ in range(steps):
        h = CusTanh.apply(paddle.matmul(x, ps[0]) + ps[1])
        loss = (paddle.matmul(h, ps[2]) + ps[3]).mean()
        loss.backward()
        if first is None:
            first = [p.grad.numpy() for p in ps]
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses, first, [p.numpy() for p in ps]


def test_the_core_runs_whole_without_the_replay_observer(monkeypatch: pytest.MonkeyPatch) -> None:
    assert type(step_events.EVENTS).__module__ == "pylayer_jax._replay.events"  # registered by the package
    before = _replay.STATS["steps"]
    on = _train(6)
    assert _replay.STATS["steps"] - before >= 3  # the loop does replay with the observer
    _replay.reset()
    monkeypatch.setattr(step_events, "EVENTS", step_events.StepEvents())
    monkeypatch.setattr(step_events, "STUB", step_events.Stub)
    before = _replay.STATS["steps"]
    off = _train(6)
    assert _replay.STATS["steps"] == before  # nothing reached replay
    np.testing.assert_allclose(off[0], on[0], rtol=1e-6)
    for a, b in zip(off[2], on[2]):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    x_np, ps_np = _data()

    def loss(ps):
        h = jnp.tanh(jnp.asarray(x_np) @ ps[0] + ps[1])
        return jnp.mean(h @ ps[2] + ps[3])

    ref = jax.grad(loss)([jnp.asarray(p) for p in ps_np])
    for g, r in zip(off[1], ref):
        np.testing.assert_allclose(g, np.asarray(r), rtol=1e-5, atol=1e-7)


def test_register_takes_an_observer_and_a_stub_type() -> None:
    with pytest.raises(TypeError, match=r"step_events.register: needs a StepEvents observer and a Stub subclass"):
        step_events.register(object(), step_events.Stub)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"but received StepEvents and <class 'int'>"):
        step_events.register(step_events.StepEvents(), int)
