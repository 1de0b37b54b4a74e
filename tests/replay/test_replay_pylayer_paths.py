"""The short paths of a replayed PyLayer step (a followed apply with one output, its saved tensors, a replayed
backward returning a deferred gradient, an output nobody uses), each against the same steps run with replay off
and against jax.grad.

Oracles: the same script with replay off (values, gradients, error types and messages, how often user code and
hooks ran), jax.grad of the same computation, and ``_replay.STATS`` showing that the steps really replayed.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from replay_support import _both, _close

import pylayer_jax as paddle
from pylayer_jax.autograd import PyLayer, saved_tensors_hooks

X = np.random.default_rng(3).standard_normal((2, 3))


def _tanh_grad(v: np.ndarray) -> np.ndarray:
    return np.asarray(jax.grad(lambda a: jnp.mean(jnp.tanh(a)))(jnp.asarray(v)))


class SavesBoth(PyLayer):
    """tanh, saving its input and its output (the output differentiates through the node)."""

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        y = paddle.tanh(x)
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        x, y = ctx.saved_tensor()
        return dy * (1 - y * y) + 0 * x


def test_saved_input_and_output_of_a_followed_apply(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[Any]:
        x = paddle.to_tensor(X, stop_gradient=False)
        out = []
        for _ in range(5):
            SavesBoth.apply(x).mean().backward()
            out.append(x.grad.numpy())
            x.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    for g in on:
        np.testing.assert_allclose(g, _tanh_grad(X), rtol=1e-12)
    assert stats["steps"] >= 3 and stats["materialised"] == 0


def test_a_saved_output_written_in_place_before_backward(monkeypatch: pytest.MonkeyPatch) -> None:
    """In step 3 the saved output is changed in place after forward (the step leaves its note there): backward
    sees the values as saved (behaviour spec, item 25), so every step's gradient is tanh's."""

    def script() -> list[Any]:
        x = paddle.to_tensor(X, stop_gradient=False)
        out: list[Any] = []
        for i in range(6):
            y = SavesBoth.apply(x)
            if i == 3:
                y.add_(paddle.ones_like(y))
            y.mean().backward()
            out.append([x.grad.numpy(), y.numpy()])
            x.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    for i, (g, y) in enumerate(on):
        np.testing.assert_allclose(g, _tanh_grad(X), rtol=1e-12)
        np.testing.assert_allclose(y, np.tanh(X) + (i == 3), rtol=1e-12)
    assert stats["steps"] >= 2 and stats["materialised"] >= 1


def test_saved_tensors_hooks_in_some_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hooks pack and unpack in the steps they are set in (the saved values take the hooks' path), the other
    steps replay; the gradients and the hooks' calls equal normal dispatch's."""

    def script() -> list[Any]:
        x = paddle.to_tensor(X, stop_gradient=False)
        out: list[Any] = []
        calls: list[str] = []
        for i in range(6):
            if i in (2, 3):
                with saved_tensors_hooks(lambda t: calls.append("pack") or t,
                                         lambda t: calls.append("unpack") or t * 2.0):
                    loss = SavesBoth.apply(x).mean()
            else:
                loss = SavesBoth.apply(x).mean()
            loss.backward()
            out.append(x.grad.numpy())
            x.clear_grad()
        out.append(list(calls))
        return out

    on, off, stats = _both(monkeypatch, script)
    assert on[-1] == off[-1] == ["pack", "pack", "unpack", "unpack"] * 2
    _close(on[:-1], off[:-1])
    y = np.tanh(X)
    hooked = (1 - 4 * y * y) / X.size  # the unpack hook doubles the saved output
    for i, g in enumerate(on[:-1]):
        np.testing.assert_allclose(g, hooked if i in (2, 3) else _tanh_grad(X), rtol=1e-12)
    assert stats["steps"] >= 2


class CastsGrad(PyLayer):
    """A backward returning its gradient as float32, or as float64 when ``MODE`` says so (cast back to the
    input's float32, as normal dispatch does), or of another shape (an error)."""

    MODE = ["same"]

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        return x * 3.0

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        if CastsGrad.MODE[0] == "shape":
            return paddle.ones([7], dtype="float32")
        if CastsGrad.MODE[0] == "dtype":
            return dy.astype("float64") * 3.0
        return dy * 3.0


def test_a_backward_gradient_of_another_dtype_or_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[Any]:
        x = paddle.to_tensor(X.astype("float32"), stop_gradient=False)
        out: list[Any] = []
        for i in range(8):  # (steps 2 and 5 begin following the note, and leave it in the backward)
            CastsGrad.MODE[0] = {2: "dtype", 5: "shape"}.get(i, "same")
            try:
                CastsGrad.apply(x).sum().backward()
                out.append((x.grad.numpy(), str(x.grad.dtype)))
            except ValueError as e:
                out.append(str(e))
            x.clear_grad()
        CastsGrad.MODE[0] = "same"
        return out

    on, off, stats = _both(monkeypatch, script)
    assert on[5] == off[5]
    assert "backward returned a gradient of shape [7] for input Tensor 0, whose shape is [2, 3]" in on[5]
    for k in (0, 1, 2, 3, 4, 6, 7):
        assert on[k][1] == off[k][1] == "paddle.float32"
        np.testing.assert_array_equal(on[k][0], off[k][0])
        np.testing.assert_allclose(on[k][0], np.full((2, 3), 3.0), rtol=1e-7)
    assert stats["steps"] >= 2 and stats["materialised"] >= 2


def test_a_ctx_attribute_changed_between_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """The factor the forward stores on ctx changes every step (a Tensor op's scalar in the backward): each
    step's gradient uses its own factor."""

    class Scaled(PyLayer):
        @staticmethod
        def forward(ctx, x, k):  # noqa: ANN001, ANN205
            ctx.k = k
            return x * 1.0

        @staticmethod
        def backward(ctx, dy):  # noqa: ANN001, ANN205
            return dy * ctx.k

    def script() -> list[Any]:
        x = paddle.to_tensor(X, stop_gradient=False)
        out = []
        for i in range(6):
            (Scaled.apply(x, 0.5 + i) ** 2).mean().backward()
            out.append(x.grad.numpy())
            x.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    for i, g in enumerate(on):
        np.testing.assert_allclose(g, (0.5 + i) * 2 * X / X.size, rtol=1e-12)
    assert stats["steps"] >= 3 and stats["materialised"] == 0


# ---- a PyLayer with two outputs of which the step uses one -----------------------------------------------------
class Two(PyLayer):
    """``(2x, 3x)``; its backward records what it received for the second output."""

    SEEN: list[Any] = []
    MATERIALIZE = [True]

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        ctx.set_materialize_grads(Two.MATERIALIZE[0])
        return x * 2.0, x * 3.0

    @staticmethod
    def backward(ctx, da, db):  # noqa: ANN001, ANN205
        Two.SEEN.append(None if db is None else db.numpy().tolist())
        return da * 2.0 if db is None else da * 2.0 + db * 3.0


@pytest.mark.parametrize("materialize", [True, False])
def test_an_output_nobody_uses_replays(monkeypatch: pytest.MonkeyPatch, materialize: bool) -> None:
    """The unused output's gradient is zeros (or None without materialized gradients) in the user's backward,
    as normal dispatch gives it; the steps replay."""

    def script() -> list[Any]:
        Two.SEEN.clear()
        Two.MATERIALIZE[0] = materialize
        x = paddle.to_tensor(X, stop_gradient=False)
        out: list[Any] = []
        for _ in range(6):
            a, _b = Two.apply(x)
            (a * a).mean().backward()
            out.append(x.grad.numpy())
            x.clear_grad()
        out.append(list(Two.SEEN))
        return out

    on, off, stats = _both(monkeypatch, script)
    assert on[-1] == off[-1] == [[[0.0] * 3] * 2 if materialize else None] * 6
    _close(on[:-1], off[:-1])
    ref = np.asarray(jax.grad(lambda v: jnp.mean((2.0 * v) ** 2))(jnp.asarray(X)))
    for g in on[:-1]:
        np.testing.assert_allclose(g, ref, rtol=1e-12)
    assert stats["steps"] >= 3 and stats["materialised"] == 0


def test_the_unused_output_used_in_one_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """In step 3 the second output joins the loss: that step leaves the note and is right, the others replay."""

    def script() -> list[Any]:
        Two.SEEN.clear()
        Two.MATERIALIZE[0] = True
        x = paddle.to_tensor(X, stop_gradient=False)
        out = []
        for i in range(6):
            a, b = Two.apply(x)
            loss = (a * a).mean() if i != 3 else (a * a).mean() + b.sum()
            loss.backward()
            out.append(x.grad.numpy())
            x.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    ref = np.asarray(jax.grad(lambda v: jnp.mean((2.0 * v) ** 2))(jnp.asarray(X)))
    np.testing.assert_allclose(on[3], ref + 3.0, rtol=1e-12)
    np.testing.assert_allclose(on[5], ref, rtol=1e-12)
    assert stats["steps"] >= 2


# ---- a PyLayer marking one of its outputs non-differentiable ---------------------------------------------------
class WithIndex(PyLayer):
    """``(tanh(x), argmax(x))``, the index marked non-differentiable unless ``MARK`` says otherwise."""

    MARK = [True]
    SEEN: list[Any] = []

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        y = paddle.tanh(x)
        idx = paddle.argmax(x, axis=-1)
        if WithIndex.MARK[0]:
            ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(y)
        return y, idx

    @staticmethod
    def backward(ctx, dy, didx):  # noqa: ANN001, ANN205
        WithIndex.SEEN.append(None if didx is None else (didx.numpy().tolist(), str(didx.dtype)))
        (y,) = ctx.saved_tensor()
        return dy * (1 - y * y)


def test_a_non_differentiable_output_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The marked output has no history and stop_gradient=True in every step; its gradient in backward is zeros
    of its dtype; in step 3 forward does not mark it (that step leaves the note, the output then trains as in
    normal dispatch); the gradients equal jax.grad's."""

    def script() -> list[Any]:
        WithIndex.SEEN.clear()
        x = paddle.to_tensor(X, stop_gradient=False)
        out: list[Any] = []
        for i in range(7):
            WithIndex.MARK[0] = i != 3
            y, idx = WithIndex.apply(x)
            sg = idx.stop_gradient
            y.mean().backward()
            out.append([x.grad.numpy(), sg])
            x.clear_grad()
        WithIndex.MARK[0] = True
        out.append(list(WithIndex.SEEN))
        out.append(idx.numpy())
        return out

    on, off, stats = _both(monkeypatch, script)
    assert on[-2] == off[-2] == [([0, 0], "paddle.int64")] * 7
    assert [sg for _, sg in on[:-2]] == [sg for _, sg in off[:-2]] == [True, True, True, False, True, True, True]
    _close([g for g, _ in on[:-2]], [g for g, _ in off[:-2]])
    for g, _ in on[:-2]:
        np.testing.assert_allclose(g, _tanh_grad(X), rtol=1e-12)
    np.testing.assert_array_equal(on[-1], np.argmax(X, axis=-1))
    assert stats["steps"] == 4 and stats["materialised"] == 1  # steps 1, 2, 5, 6; step 3 left the note


class MulParam(PyLayer):
    """``w * x`` for a Parameter ``w`` passed first (a Tensor subclass): both gradients from the saved inputs."""

    @staticmethod
    def forward(ctx, w, x):  # noqa: ANN001, ANN205
        ctx.save_for_backward(w, x)
        return w * x

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        w, x = ctx.saved_tensor()
        return dy * x, dy * w


def test_a_parameter_passed_first_to_a_followed_apply(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[Any]:
        paddle.seed(0)
        w = paddle.nn.Linear(3, 2).weight  # a Parameter, [3, 2]
        x = paddle.to_tensor(X.T.astype("float32"), stop_gradient=False)
        out = [w.numpy()]
        for _ in range(5):
            (MulParam.apply(w, x) ** 2).sum().backward()
            out += [w.grad.numpy(), x.grad.numpy()]
            w.clear_grad()
            x.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    wv, xv = on[0], X.T.astype("float32")
    ref_w, ref_x = jax.grad(lambda a, b: jnp.sum((a * b) ** 2), argnums=(0, 1))(jnp.asarray(wv), jnp.asarray(xv))
    for gw, gx in zip(on[1::2], on[2::2]):
        np.testing.assert_allclose(gw, ref_w, rtol=1e-6)
        np.testing.assert_allclose(gx, ref_x, rtol=1e-6)
    assert stats["steps"] >= 3 and stats["materialised"] == 0  # the apply is followed, not left at
