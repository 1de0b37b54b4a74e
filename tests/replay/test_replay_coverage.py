"""Which common step forms replay: each runs as a training loop (forward, ``backward()``, an SGD step) and
must give the values and parameters of the same loop run immediately (deferral and replay off, as under
``PYLAYER_JAX_LAZY=0``), and follow its note from the third repetition on (``STATS``: a replayed backward, no
tape built)."""

from __future__ import annotations

import numpy as np
import pytest
from pylayer_support import CusTanh

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax._exec import deferred as _lazy
from pylayer_jax._replay import follow as _replay

N_STEPS = 6


class _GradReverse(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, h, alpha):  # noqa: ANN001, ANN205
        ctx.alpha = alpha
        return h * 1.0

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        return dy * (-ctx.alpha)


class _GradReverseKw(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, h, alpha=1.0):  # noqa: ANN001, ANN205
        ctx.alpha = alpha
        return h * 1.0

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        return dy * (-ctx.alpha)


class _Outer(paddle.autograd.PyLayer):
    """A PyLayer whose forward and backward apply another PyLayer."""

    @staticmethod
    def forward(ctx, h):  # noqa: ANN001, ANN205
        return CusTanh.apply(h) * 2.0

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        return dy * 2.0


class _TwoOut(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, h):  # noqa: ANN001, ANN205
        ctx.save_for_backward(h)
        return h * 2.0, h * h

    @staticmethod
    def backward(ctx, d1, d2):  # noqa: ANN001, ANN205
        (h,) = ctx.saved_tensor()
        return d1 * 2.0 + d2 * 2.0 * h


class _Mix(paddle.autograd.PyLayer):
    """Tensors nested in a list and in a dict: backward returns one gradient per slot, in the slot's structure."""

    @staticmethod
    def forward(ctx, pair, named, scale):  # noqa: ANN001, ANN205
        a, b = pair
        ctx.scale = scale
        ctx.save_for_backward(a, b)
        return a * b * scale + named["c"]

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        a, b = ctx.saved_tensor()
        return [dy * b * ctx.scale, dy * a * ctx.scale], {"c": dy}


class _Affine(paddle.autograd.PyLayer):
    """``h * w`` for a trained weight ``w``: its value each step is the optimizer's last result."""

    @staticmethod
    def forward(ctx, h, w):  # noqa: ANN001, ANN205
        ctx.save_for_backward(h, w)
        return h * w

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        h, w = ctx.saved_tensor()
        return dy * w, (dy * h).sum(axis=0)


def _layers() -> dict:
    paddle.seed(7)
    return {"lstm": paddle.nn.LSTM(6, 4), "gru": paddle.nn.GRU(6, 4), "bn": paddle.nn.BatchNorm1D(6),
            "ln": paddle.nn.LayerNorm(6)}


_CONST = np.linspace(-1.0, 1.0, 48, dtype="float32").reshape(8, 6)

# step forms: (h, layers, a constant Tensor) -> loss; h = x @ w is (8, 6) and trains
FORMS = {
    "x ** 2": lambda h, m, c: (h ** 2).mean(),
    "paddle.add(x, 1.0), x * 0.5": lambda h, m, c: (paddle.add(h, 1.0) * 0.5).square().mean(),
    "PyLayer with a float argument": lambda h, m, c: (_GradReverse.apply(h, 0.5) ** 2).mean(),
    "PyLayer with a keyword argument": lambda h, m, c: (_GradReverseKw.apply(h, alpha=0.25) ** 2).mean(),
    "nested PyLayers": lambda h, m, c: _Outer.apply(h).mean() + CusTanh.apply(h).sum(),
    "PyLayer with several outputs": lambda h, m, c: sum((o * c).mean() for o in _TwoOut.apply(h)),
    # (its backward gets the walk's None for the unused output, zeros as materialized gradients)
    "PyLayer with an output the loss does not use": lambda h, m, c: _TwoOut.apply(h)[0].mean(),
    "PyLayer given Tensors in a list and a dict": lambda h, m, c: _Mix.apply([h, h * c], {"c": h}, 0.5).square().mean(),
    "PyLayer of a trained weight": lambda h, m, c: _Affine.apply(h, m["ln"].weight).square().mean(),
    "split": lambda h, m, c: sum((p * p).mean() for p in paddle.split(h, 2, axis=1)),
    "topk": lambda h, m, c: paddle.topk(h, 2)[0].mean(),
    "LSTM": lambda h, m, c: m["lstm"](h.reshape([2, 4, 6]))[0].square().mean(),
    "GRU": lambda h, m, c: m["gru"](h.reshape([2, 4, 6]))[0].square().mean(),
    "BatchNorm training": lambda h, m, c: (m["bn"](h) * c).sum(),
    "indexing": lambda h, m, c: (h[1:5, ::2] * h[0, :3]).mean(),
    "concat": lambda h, m, c: paddle.concat([h, h * 2.0], axis=1).square().mean(),
    "stack": lambda h, m, c: paddle.stack([h, h * c]).square().mean(),
    "where(x > 0, ...)": lambda h, m, c: paddle.where(h > 0, h, h * 0.1).square().mean(),
    "layer_norm": lambda h, m, c: (m["ln"](h) * c).sum(),
    "clip": lambda h, m, c: paddle.clip(h, -0.5, 0.5).square().mean(),
    "mse_loss": lambda h, m, c: F.mse_loss(h, c),
    "einsum": lambda h, m, c: paddle.einsum("ij,ij->i", h, c).square().mean(),
    "ops on constants": lambda h, m, c: (h * paddle.exp(c) + paddle.sin(c).sum()).square().mean(),
}


def _deferred(monkeypatch) -> None:  # noqa: ANN001
    """Deferral on (replay needs it), also in a run under ``PYLAYER_JAX_LAZY=0``."""
    _lazy.flush()
    monkeypatch.setattr(_lazy, "ENABLED", True)


def _run(form, immediate: bool, monkeypatch):  # noqa: ANN001, ANN202
    """The loop; returns (losses, parameters after it, running statistics, [replayed, built its tape] per step)."""
    _lazy.flush()
    _replay.reset()
    monkeypatch.setattr(_lazy, "ENABLED", not immediate)
    monkeypatch.setattr(_replay, "ENABLED", not immediate)
    try:
        rng = np.random.default_rng(0)
        xs = [rng.standard_normal((8, 6)).astype("float32") for _ in range(N_STEPS)]
        w = paddle.to_tensor(np.eye(6, dtype="float32") + 0.1, stop_gradient=False)
        layers = _layers()
        params = [w] + [p for m in layers.values() for p in m.parameters()]
        opt = paddle.optimizer.SGD(0.1, parameters=params)
        c = paddle.to_tensor(_CONST)
        losses, flags = [], []
        for i in range(N_STEPS):
            s0, m0 = _replay.STATS["steps"], _replay.STATS["materialised"]
            loss = form(paddle.matmul(paddle.to_tensor(xs[i]), w), layers, c)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
            flags.append((_replay.STATS["steps"] - s0, _replay.STATS["materialised"] - m0))
        stats = [b.numpy() for m in layers.values() for b in m.buffers()]
        return losses, [p.numpy() for p in params], stats, flags
    finally:
        _lazy.flush()
        _replay.reset()


@pytest.mark.parametrize("name", list(FORMS))
def test_step_form_replays_with_the_immediate_results(name, monkeypatch):
    form = FORMS[name]
    losses, params, stats, flags = _run(form, False, monkeypatch)
    want_losses, want_params, want_stats, want_flags = _run(form, True, monkeypatch)
    assert all(f == (0, 0) for f in want_flags)  # (the reference ran nothing deferred or replayed)
    np.testing.assert_allclose(losses, want_losses, rtol=2e-5, atol=1e-6)
    for p, q in zip(params, want_params):
        np.testing.assert_allclose(p, q, rtol=2e-5, atol=1e-6)
    for a, b in zip(stats, want_stats):  # BatchNorm's running statistics, written each step
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=1e-6)
    assert flags[2:] == [(1, 0)] * (N_STEPS - 2), flags  # replayed, without building its tape, from step 3 on


def _dropout_run(immediate: bool, monkeypatch):  # noqa: ANN001, ANN202
    _lazy.flush()
    _replay.reset()
    monkeypatch.setattr(_lazy, "ENABLED", not immediate)
    monkeypatch.setattr(_replay, "ENABLED", not immediate)
    try:
        paddle.seed(11)
        x = paddle.to_tensor(np.random.default_rng(1).standard_normal((16, 6)).astype("float32"))
        w = paddle.to_tensor(np.eye(6, dtype="float32"), stop_gradient=False)
        opt = paddle.optimizer.SGD(0.05, parameters=[w])
        outs, grads, flags = [], [], []
        for _ in range(N_STEPS):
            s0, m0 = _replay.STATS["steps"], _replay.STATS["materialised"]
            out = F.dropout(paddle.matmul(x, w), 0.5)
            out.square().sum().backward()
            grads.append(w.grad.numpy())
            opt.step()
            opt.clear_grad()
            outs.append(out.numpy())
            flags.append((_replay.STATS["steps"] - s0, _replay.STATS["materialised"] - m0))
        return outs, grads, flags
    finally:
        _lazy.flush()
        _replay.reset()


def test_dropout_replays_with_a_fresh_mask_each_step(monkeypatch):
    outs, grads, flags = _dropout_run(False, monkeypatch)
    want_outs, want_grads, _ = _dropout_run(True, monkeypatch)
    assert flags[2:] == [(1, 0)] * (N_STEPS - 2), flags
    masks = [o != 0 for o in outs]
    for i in range(1, N_STEPS):  # each step draws its own mask
        assert (masks[i] != masks[i - 1]).any()
    for o, want in zip(outs, want_outs):  # the masks of the immediate run under the same seed
        np.testing.assert_array_equal(o != 0, want != 0)
        np.testing.assert_allclose(o, want, rtol=2e-5, atol=1e-6)
    for g, want in zip(grads, want_grads):
        np.testing.assert_allclose(g, want, rtol=2e-5, atol=1e-6)


def test_an_op_left_out_of_the_loss_keeps_its_node(monkeypatch):
    """An op that does not lead to the loss (an LSTM's last states, an auxiliary value) keeps an unfreed node
    after a replayed backward, as after the normal one: a backward from it later gives its gradient."""
    _deferred(monkeypatch)

    def run() -> tuple[list, list, int]:
        _replay.reset()
        x = paddle.to_tensor(np.random.default_rng(2).standard_normal((5, 3)).astype("float32"))
        w = paddle.to_tensor(np.ones((3, 2), "float32"), stop_gradient=False)
        v = paddle.to_tensor(np.arange(4, dtype="float32"), stop_gradient=False)
        replayed = 0
        for _ in range(N_STEPS):
            s0 = _replay.STATS["steps"]
            loss = paddle.tanh(paddle.matmul(x, w)).mean()
            aux = (v * 3.0).square().sum()  # not part of the loss
            loss.backward()
            replayed += _replay.STATS["steps"] - s0
            w.clear_grad()
        aux.backward()
        return w.grad.numpy(), v.grad.numpy(), replayed

    wg, vg, replayed = run()
    assert replayed >= N_STEPS - 2
    np.testing.assert_array_equal(wg, np.zeros((3, 2), "float32"))  # (cleared: aux does not reach w)
    np.testing.assert_allclose(vg, 18.0 * np.arange(4, dtype="float32"), rtol=1e-6)  # d/dv sum((3v)^2) = 18 v
    monkeypatch.setattr(_replay, "ENABLED", False)
    off_wg, off_vg, off_replayed = run()
    assert off_replayed == 0
    np.testing.assert_array_equal(wg, off_wg)
    np.testing.assert_allclose(vg, off_vg, rtol=1e-6)


def test_an_op_left_out_of_the_loss_on_a_pylayer_output(monkeypatch):
    """An op left out of the loss that reads a PyLayer's output: its node's edge goes to the PyLayer's node, freed
    by the backward, so a backward from it raises as it does after a normal step."""
    _deferred(monkeypatch)

    def run() -> tuple[str, int]:
        _replay.reset()
        x = paddle.to_tensor(np.random.default_rng(4).standard_normal((5, 3)).astype("float32"))
        w = paddle.to_tensor(np.ones((3, 2), "float32"), stop_gradient=False)
        replayed = 0
        for _ in range(N_STEPS):
            s0 = _replay.STATS["steps"]
            y = CusTanh.apply(paddle.matmul(x, w))
            aux = (y * 3.0).sum()  # not part of the loss
            y.mean().backward()
            replayed += _replay.STATS["steps"] - s0
            w.clear_grad()
        with pytest.raises(RuntimeError) as err:
            aux.backward()
        return str(err.value), replayed

    msg, replayed = run()
    assert replayed >= N_STEPS - 2
    monkeypatch.setattr(_replay, "ENABLED", False)
    off_msg, off_replayed = run()
    assert off_replayed == 0
    assert msg == off_msg


def _two_out_grads(hook_at: int | None) -> tuple[list, int]:
    _lazy.flush()  # (the first step begins on an empty buffer, as the ones after it)
    _replay.reset()
    x = paddle.to_tensor(np.random.default_rng(5).standard_normal((5, 3)).astype("float32"))
    w = paddle.to_tensor(np.ones((3, 2), "float32"), stop_gradient=False)
    grads, replayed = [], 0
    for i in range(N_STEPS):
        s0 = _replay.STATS["steps"]
        a, b = _TwoOut.apply(paddle.matmul(x, w))
        if i == hook_at:  # reads b's history: the step builds its tape there
            b.register_hook(lambda g: g * 3.0)
        (a.sum() + b.mean()).backward()
        replayed += _replay.STATS["steps"] - s0
        grads.append(w.grad.numpy())
        w.clear_grad()
    return grads, replayed


def test_a_pylayer_with_several_outputs_leaves_its_note_with_the_normal_results(monkeypatch):
    _deferred(monkeypatch)
    grads, replayed = _two_out_grads(4)
    assert replayed == 3  # steps 2-4 (the first is noted, the fifth builds its tape, the sixth is noted afresh)
    monkeypatch.setattr(_replay, "ENABLED", False)
    off, off_replayed = _two_out_grads(4)
    assert off_replayed == 0
    for g, want in zip(grads, off):
        np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-7)
    assert not np.allclose(grads[4], grads[3])  # (the hook tripled b's gradient in that step)
