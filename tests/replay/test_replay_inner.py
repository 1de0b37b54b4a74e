"""The ops inside a replayed PyLayer's forward and backward follow the note too (``follow.Inner``): each appends
its noted call without looking up its kernel and output shape; an op that differs ends that following and
dispatches normally, and what the user code recorded is checked as a whole as before.

Oracles: the same loop with replay off, jax.grad, and the plan's events (which ops were noted for following).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from replay_support import _both, _close, _data, _loop

import pylayer_jax as paddle
from pylayer_jax._replay import follow as _replay
from pylayer_jax.autograd import PyLayer

SHIFT = paddle.to_tensor(np.full((5, 6), 0.25))  # an outside array that forward reads (no gradient)
EXTRA = {"forward": -1, "backward": -1}  # the step whose forward / backward records one more op


class Busy(PyLayer):
    """``tanh(x * alpha + SHIFT)`` with a float ``alpha``, written as several ops in forward and in backward."""

    @staticmethod
    def forward(ctx, x, alpha, step):  # noqa: ANN001, ANN205
        h = x * alpha + SHIFT
        if step == EXTRA["forward"]:
            h = paddle.abs(h) * paddle.sign(h)  # the same values through other ops
        y = paddle.tanh(h)
        ctx.save_for_backward(y)
        ctx.alpha = alpha
        return y

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        (y,) = ctx.saved_tensor()
        g = dy * (1 - paddle.square(y))
        if ctx.step == EXTRA["backward"]:
            g = g + paddle.zeros_like(g)
        return g * ctx.alpha


def _alpha(i: int) -> float:
    return 0.5 + 0.125 * i  # changes every step (a schedule)


def _steps(monkeypatch: pytest.MonkeyPatch, steps: int = 6) -> tuple[list, list, dict]:
    def act(i: int, pre: paddle.Tensor, out: list) -> paddle.Tensor:
        return _Apply.apply(pre, _alpha(i), i)

    return _both(monkeypatch, lambda: _loop(act=act, steps=steps))


class _Apply(Busy):
    @staticmethod
    def forward(ctx, x, alpha, step):  # noqa: ANN001, ANN205
        ctx.step = step
        return Busy.forward(ctx, x, alpha, step)


def _oracle(i: int) -> list:
    x_np, ps_np = _data()
    a = _alpha(i)

    def loss(ps: list, x: jax.Array) -> jax.Array:
        w1, b1, w2, b2 = ps
        return jnp.mean(jnp.tanh((x @ w1 + b1) * a + 0.25) @ w2 + b2)

    return jax.grad(loss)([jnp.asarray(p) for p in ps_np], jnp.asarray(x_np))


def test_the_ops_inside_forward_and_backward_are_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    EXTRA.update(forward=-1, backward=-1)
    on, off, stats = _steps(monkeypatch)
    _close(on, off)
    for i, grads in enumerate(on):
        _close(grads, _oracle(i))
    assert stats["steps"] >= 4 and stats["materialised"] == 0
    # the note the later steps followed (taken again after the run with replay off: same code, same note)
    _replay.reset()
    _loop(act=lambda i, pre, out: _Apply.apply(pre, _alpha(i), i), steps=2)
    plan = _replay.st.plan
    (layer,) = [ev for ev in plan.events if type(ev) is _replay.LayerEvent]
    assert [e.op.name for e in layer.inner] == ["scale_by", "add", "tanh"]  # x * alpha, + SHIFT, tanh
    (callout,) = plan.bwd.callouts
    assert [e.op.name for e in callout.inner] == ["square", "scale", "multiply", "scale_by"]


@pytest.mark.parametrize("where", ["forward", "backward"])
def test_an_op_that_differs_inside_user_code_dispatches_normally_and_stays_right(
        monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    EXTRA.update(forward=-1, backward=-1)
    EXTRA[where] = 3
    try:
        on, off, stats = _steps(monkeypatch, 6)
    finally:
        EXTRA.update(forward=-1, backward=-1)
    _close(on, off)
    for i, grads in enumerate(on):
        _close(grads, _oracle(i))
    assert stats["materialised"] >= 1 and stats["steps"] >= 2  # step 3 left its note; later steps replay again
