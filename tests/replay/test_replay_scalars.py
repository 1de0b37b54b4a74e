"""Steps with a Python number where a Tensor goes (``x ** 2``, ``paddle.add(x, 1.0)``, ``paddle.pow(x, 2.0)``)
replay, with the results of replay off and of ``jax.grad``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax._replay import follow as _replay


def _run(n_steps: int, shift_of):  # noqa: ANN001, ANN202
    """SGD steps of ``mean(pow(add(x @ w, shift), 2.0) + h ** 2)``: (losses, final w, steps replayed)."""
    rng = np.random.default_rng(1)
    w0 = rng.standard_normal((4, 3)).astype("float32")
    xs = [rng.standard_normal((5, 4)).astype("float32") for _ in range(n_steps)]
    w = paddle.to_tensor(w0, stop_gradient=False)
    losses = []
    replayed = 0
    for i in range(n_steps):
        before = _replay.STATS["steps"]
        h = paddle.add(paddle.matmul(paddle.to_tensor(xs[i]), w), shift_of(i))
        loss = (paddle.pow(h, 2.0) + h ** 2).mean()
        loss.backward()
        with paddle.no_grad():
            w.set_value(w - 0.1 * w.grad)
        w.clear_grad()
        losses.append(float(loss))
        replayed += _replay.STATS["steps"] - before
    return losses, w.numpy(), replayed, w0, xs


def _oracle(w0, xs, shift_of):  # noqa: ANN001, ANN202
    def loss(w, x, s):  # noqa: ANN001, ANN202
        h = x @ w + s
        return jnp.mean(h ** 2.0 + h ** 2)

    w = jnp.asarray(w0)
    losses = []
    for i, x in enumerate(xs):
        v, g = jax.value_and_grad(loss)(w, x, jnp.float32(shift_of(i)))
        losses.append(float(v))
        w = w - 0.1 * g
    return losses, np.asarray(w)


@pytest.mark.parametrize("shift_of", [lambda i: 1.0, lambda i: 0.5 * i], ids=["constant", "changing"])
def test_python_number_inputs_replay_with_right_results(shift_of, monkeypatch):
    losses, w, replayed, w0, xs = _run(6, shift_of)
    assert replayed >= 4  # the first step is noted, the later ones follow the note
    want_losses, want_w = _oracle(w0, xs, shift_of)
    np.testing.assert_allclose(losses, want_losses, rtol=2e-5)
    np.testing.assert_allclose(w, want_w, rtol=2e-5, atol=1e-6)
    monkeypatch.setattr(_replay, "ENABLED", False)
    off_losses, off_w, off_replayed, _, _ = _run(6, shift_of)
    assert off_replayed == 0
    np.testing.assert_allclose(losses, off_losses, rtol=1e-6)
    np.testing.assert_allclose(w, off_w, rtol=1e-6)


def test_a_number_of_another_type_leaves_the_note():
    rng = np.random.default_rng(2)
    w0 = rng.standard_normal((3, 2)).astype("float32")
    x = rng.standard_normal((4, 3)).astype("float32")
    w = paddle.to_tensor(w0, stop_gradient=False)
    grads = []
    for p in (2.0, 2.0, 2.0, 3, 2.0):  # an int exponent where the note has a float: normal dispatch, same math
        loss = paddle.pow(paddle.matmul(paddle.to_tensor(x), w), p).sum()
        loss.backward()
        grads.append(w.grad.numpy())
        w.clear_grad()
    for p, g in zip((2.0, 2.0, 2.0, 3, 2.0), grads):
        want = jax.grad(lambda w_, p=p: jnp.sum((jnp.asarray(x) @ w_) ** p))(jnp.asarray(w0))
        np.testing.assert_allclose(g, np.asarray(want), rtol=2e-5, atol=1e-5)


class _GradReverse(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, h, alpha, *, shift=0.0):  # noqa: ANN001, ANN205
        ctx.alpha = alpha
        return h * 1.0 + shift

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        return dy * (-ctx.alpha)


def _grl_run(n_steps: int):  # noqa: ANN202
    rng = np.random.default_rng(3)
    w0 = rng.standard_normal((4, 3)).astype("float32")
    xs = [rng.standard_normal((5, 4)).astype("float32") for _ in range(n_steps)]
    w = paddle.to_tensor(w0, stop_gradient=False)
    grads, replayed = [], 0
    for i in range(n_steps):
        before = _replay.STATS["steps"]
        h = _GradReverse.apply(paddle.matmul(paddle.to_tensor(xs[i]), w), 0.1 * i + 0.05, shift=0.25)
        loss = (h ** 2).mean()
        loss.backward()
        grads.append(w.grad.numpy())
        w.clear_grad()
        replayed += _replay.STATS["steps"] - before
    return grads, replayed, w0, xs


def test_pylayer_with_a_changing_float_argument_replays(monkeypatch):
    grads, replayed, w0, xs = _grl_run(6)
    assert replayed >= 4
    for i, (x, g) in enumerate(zip(xs, grads)):
        alpha = 0.1 * i + 0.05

        @jax.custom_vjp
        def grl(h):  # noqa: ANN001, ANN202
            return h + 0.25

        grl.defvjp(lambda h: (h + 0.25, None), lambda _, dy, alpha=alpha: (dy * -alpha,))
        want = jax.grad(lambda w_, x=x: jnp.mean(grl(x @ w_) ** 2))(jnp.asarray(w0))
        np.testing.assert_allclose(g, np.asarray(want), rtol=2e-5, atol=1e-6)
    monkeypatch.setattr(_replay, "ENABLED", False)
    off, off_replayed, _, _ = _grl_run(6)
    assert off_replayed == 0
    for a, b in zip(grads, off):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_a_number_compiled_into_a_replayed_step_is_passed_again_when_it_changes(monkeypatch):
    """A Python number that stayed the same is compiled into the replayed step's program; a later value (another
    number, a zero of the other sign, NaN) runs right, and after a few changes numbers stay inputs."""
    from pylayer_jax._exec import deferred as _lazy

    # numbers looked at every run, and compiled in at once when they stayed (a compile paid back at once)
    monkeypatch.setattr(_lazy, "FOLD_CHECK", 1)
    monkeypatch.setattr(_lazy, "FOLD_SAVING_S", 1e9)

    rng = np.random.default_rng(3)
    x_np = rng.random((5, 4)).astype("float32") + 0.5
    w_np = rng.random((4, 3)).astype("float32") + 0.5
    x = paddle.to_tensor(x_np)
    w = paddle.to_tensor(w_np, stop_gradient=False)
    m = np.float32((x_np @ w_np).mean())  # (positive: the sign of the loss is the sign of c)
    cs = [0.0] * 5 + [-0.0] * 4 + [float("nan")] * 3 + [1.5] * 4
    replayed = _replay.STATS["steps"]
    folded = []
    for c in cs:
        loss = paddle.multiply(paddle.matmul(x, w).mean(), c)  # (``* c`` is scale: x * c + 0.0)
        loss.backward()
        w.clear_grad()
        got = float(loss)
        if c != c:
            assert np.isnan(got)
        else:
            assert got == np.float32(m * np.float32(c)) or abs(got - m * c) <= 1e-5 * abs(m * c)
            assert np.signbit(got) == np.signbit(c)  # 0.0 and -0.0 kept apart
        entries = [nums for _, nums in _replay.st.plan.programs.values() if type(nums) is _lazy._Numbers]
        folded.append(any(e.folded is not None for e in entries))
    assert _replay.STATS["steps"] - replayed >= len(cs) - 2  # the later steps follow the note
    # 0.0 compiled in once three replayed runs had it, then -0.0 (a change: passed as an input until it repeats)
    assert folded[4] and not any(folded[5:8]) and folded[8]
    assert not any(folded[9:])  # NaN never is; after it, numbers stay inputs
    assert all(e.misses == _lazy.MAX_FOLD_MISSES for e in entries)


def test_a_short_loop_does_not_compile_its_numbers_in():
    """Compiling numbers in costs the step's compile again: a loop shorter than that compile's worth of saved
    dispatch keeps passing them (a short script compiles one program, not two), with its values right."""
    from pylayer_jax._exec import deferred as _lazy

    rng = np.random.default_rng(4)
    x_np = rng.random((6, 4)).astype("float32")
    w_np = rng.random((4, 3)).astype("float32")
    x = paddle.to_tensor(x_np)
    w = paddle.to_tensor(w_np, stop_gradient=False)
    compiled = _lazy.STATS["compiled"]
    for _ in range(3 * _lazy.FOLD_CHECK):
        loss = ((paddle.matmul(x, w) * 1.5) ** 2).mean()
        loss.backward()
        g = w.grad.numpy()
        w.clear_grad()
    want = jax.grad(lambda w_: jnp.mean((jnp.asarray(x_np) @ w_ * 1.5) ** 2))(jnp.asarray(w_np))
    np.testing.assert_allclose(g, np.asarray(want), rtol=2e-5, atol=1e-6)
    entries = [nums for _, nums in _replay.st.plan.programs.values() if type(nums) is _lazy._Numbers]
    assert entries and all(e.folded is None for e in entries)
    # each would fold only after as many runs as its compile's worth of ~2 us a number a run
    assert all(e.need * _lazy.FOLD_CHECK * len(e.at) * _lazy.FOLD_SAVING_S >= 1e-3 for e in entries)
    assert _lazy.STATS["compiled"] - compiled <= 2


def test_numbers_that_change_every_step_compile_nothing_new():
    """A divisor (a temperature), a float minus a Tensor and an exponent that is not a whole number or a half, each
    changing every step, are traced inputs: after the first steps no program compiles, the steps replay, and the
    losses and gradients are jax.grad's. (Compiled into the kernel, each new value compiled the step anew: 150-600
    ms a step.)"""
    from pylayer_jax._exec import deferred as _lazy

    rng = np.random.default_rng(5)
    x_np = rng.random((6, 4)).astype("float32") + 0.5
    w_np = rng.random((4, 3)).astype("float32") + 0.5
    x = paddle.to_tensor(x_np)
    w = paddle.to_tensor(w_np, stop_gradient=False)

    def ref(w_, tau, c, p):  # noqa: ANN001, ANN202
        h = jnp.asarray(x_np) @ w_
        return jnp.mean((c - h / tau) ** 2 + h ** p)

    compiled = None
    replayed = _replay.STATS["steps"]
    for i in range(8):
        tau, c, p = 2.0 + 0.01 * i, 1.5 - 0.001 * i, 2.2 + 0.001 * i
        h = paddle.matmul(x, w)
        loss = ((c - h / tau) ** 2 + h ** p).mean()
        loss.backward()
        g = w.grad.numpy()
        w.clear_grad()
        val, want = jax.value_and_grad(ref)(jnp.asarray(w_np), tau, c, p)
        np.testing.assert_allclose(float(loss), float(val), rtol=2e-6)
        np.testing.assert_allclose(g, np.asarray(want), rtol=2e-5)
        if i == 2:
            compiled = _lazy.STATS["compiled"]
    assert _lazy.STATS["compiled"] == compiled
    assert _replay.STATS["steps"] - replayed >= 6


def test_a_python_divisor_is_one_kernel_for_every_value():
    """``x / c`` for a Python number ``c`` is the quotient within one ulp (Paddle 3.3.1's is numpy's true division
    exactly; XLA turns a division by a broadcast scalar into a multiply by its reciprocal, as the scale by ``1 / c``
    did before); -0.0 / 2 stays -0.0, x / 0.0 is inf or nan, the gradient is ``1 / c``; and every divisor is the
    same kernel (the number is its input, not its key)."""
    from pylayer_jax._ops.table import TABLE

    x_np = np.random.default_rng(6).standard_normal(1000).astype("float32")
    x_np[:3] = [-0.0, 0.0, 1.0]
    keys = set()
    for c in (3.0, 7.0, 0.3, 3):
        x = paddle.to_tensor(x_np, stop_gradient=False)
        y = x / c
        node = y._edge[0]
        assert node.op is TABLE["divide_by"]
        keys.add(node.key)
        np.testing.assert_allclose(y.numpy(), x_np / np.float32(c), rtol=1.2e-7, atol=0)
        assert np.signbit(y.numpy()[0]) and not np.signbit(y.numpy()[1])
        y.sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), np.full(1000, np.float32(1) / np.float32(c)), rtol=1.2e-7)
    assert len(keys) == 1
    with np.errstate(divide="ignore", invalid="ignore"):
        np.testing.assert_array_equal((paddle.to_tensor(x_np[:3]) / 0.0).numpy(), x_np[:3] / np.float32(0.0))
