"""Two PyLayer forms a repeated step replays like any other apply: a forward that returns one of its inputs
(identity / straight-through: the input itself, rewired in place, or with ``mark_not_inplace`` a new Tensor sharing
its value) and a single output marked non-differentiable.

Oracles: the same script with replay off (values, gradients, stop_gradient, the Tensors' identity and versions,
what the user's backward received, hook calls), jax.grad of the same maths (a ``jax.custom_vjp`` identity whose
backward scales the gradient), and ``_replay.STATS`` (differences) showing that the steps replayed.
"""

from __future__ import annotations

import re
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from replay_support import _both, _close

import pylayer_jax as paddle
from pylayer_jax.autograd import PyLayer

W = np.random.default_rng(5).standard_normal((2, 3))


def _reverse(scale: float) -> Any:
    """jax's identity whose backward multiplies the gradient by ``scale`` (gradient reversal for -0.5)."""
    f = jax.custom_vjp(lambda v: v)
    f.defvjp(lambda v: (v, None), lambda _, g: (scale * g,))
    return f


def _grad(loss: Any, w: np.ndarray) -> np.ndarray:
    return np.asarray(jax.grad(loss)(jnp.asarray(w)))


class Through(PyLayer):
    """Returns its input: in place, or (``SHARED``) marked with ``mark_not_inplace``, a new Tensor sharing it. Its
    backward reverses and halves the gradient, and records the shape and dtype of what it received (reading its
    values there would run the step's buffer in the middle of its backward: a step that is not replayed)."""

    SHARED = [False]
    SEEN: list[Any] = []

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        if Through.SHARED[0]:
            ctx.mark_not_inplace(x)
        return x

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        Through.SEEN.append((dy.shape, str(dy.dtype), dy.stop_gradient))
        return dy * -0.5


def _seen(shared: bool) -> None:
    Through.SHARED[0] = shared
    Through.SEEN.clear()


@pytest.mark.parametrize("shared", [False, True], ids=["in_place", "shared"])
@pytest.mark.parametrize("uses", [1, 2])
def test_an_input_returned_replays(monkeypatch: pytest.MonkeyPatch, shared: bool, uses: int) -> None:
    """The output used once or twice; in step 3 a hook on it (that step builds its tape and runs the hook)."""

    def script() -> list[Any]:
        _seen(shared)
        w = paddle.to_tensor(W, stop_gradient=False)
        out: list[Any] = []
        hooked: list[Any] = []
        for i in range(6):
            h = paddle.tanh(w)
            y = Through.apply(h)
            if i == 3:
                y.register_hook(lambda g: hooked.append(g.numpy()))
            loss = (y * 3.0).sum() if uses == 1 else (y * y).mean()
            loss.backward()
            out.append([w.grad.numpy(), y.numpy(), y.stop_gradient, y is h, h.inplace_version, h.stop_gradient])
            w.clear_grad()
        out.append([list(Through.SEEN), hooked])
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on[:-1], off[:-1])
    _close(on[-1][1], off[-1][1])
    for a, b in zip(on[:-1], off[:-1]):
        assert a[2:] == b[2:] == [False, not shared, 0 if shared else 1, False]
    rev = _reverse(-0.5)
    ref = _grad(lambda v: (rev(jnp.tanh(v)) * 3.0).sum() if uses == 1 else jnp.mean(rev(jnp.tanh(v)) ** 2), W)
    dy = np.full_like(W, 3.0) if uses == 1 else 2 * np.tanh(W) / W.size
    for g, y, *_ in on[:-1]:
        np.testing.assert_allclose(g, ref, rtol=1e-12)
        np.testing.assert_allclose(y, np.tanh(W), rtol=1e-12)
    seen, hooked = on[-1]
    assert seen == off[-1][0] == [([2, 3], "paddle.float64", False)] * 6  # (dy says stop_gradient=False, as in Paddle)
    assert len(hooked) == 1
    np.testing.assert_allclose(hooked[0], dy, rtol=1e-12)
    assert stats["steps"] == 3 and stats["materialised"] == 1  # steps 1, 2, 5 replay; 3 builds its tape, 4 is noted


@pytest.mark.parametrize("shared", [False, True], ids=["in_place", "shared"])
def test_the_input_used_elsewhere_in_the_step(monkeypatch: pytest.MonkeyPatch, shared: bool) -> None:
    """The input feeds an op before the apply (one that saves no input: an in-place return does not make it stale)
    and, shared, ops after it with its own history; the gradients add up as jax's."""

    def script() -> list[Any]:
        _seen(shared)
        w = paddle.to_tensor(W, stop_gradient=False)
        out = []
        for _ in range(5):
            h = paddle.tanh(w)
            z = h + 1.0
            y = Through.apply(h)
            loss = (y * y).mean() + z.sum()
            if shared:
                loss = loss + (h * h).sum()
            loss.backward()
            out.append([w.grad.numpy(), y.numpy()])
            w.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    rev = _reverse(-0.5)

    def f(v: jax.Array) -> jax.Array:
        h = jnp.tanh(v)
        return jnp.mean(rev(h) ** 2) + (h + 1.0).sum() + ((h * h).sum() if shared else 0.0)

    for g, _ in on:
        np.testing.assert_allclose(g, _grad(f, W), rtol=1e-12)
    assert stats["steps"] >= 3 and stats["materialised"] == 0


def test_a_leaf_returned_and_written_between_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parameter returned (marked not in place) and scaled in place after each step: every step sees the value
    it holds then (a replayed step enters the output's array, not the noted one). In step 3 it is also scaled
    between the apply and the loss: the output keeps the value it had (that step builds its tape)."""

    def script() -> list[Any]:
        _seen(True)
        w = paddle.to_tensor(W, stop_gradient=False)
        out = []
        for i in range(7):
            y = Through.apply(w)
            if i == 3:
                with paddle.no_grad():
                    w.scale_(0.5)
            (y * y).sum().backward()
            out.append([w.grad.numpy(), y.numpy(), w.inplace_version])
            w.clear_grad()
            with paddle.no_grad():
                w.scale_(0.5)
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    rev = _reverse(-0.5)
    for i, (g, y, version) in enumerate(on):
        yi = W * 0.5 ** (i + (i > 3))  # (the value the apply saw)
        np.testing.assert_allclose(y, yi, rtol=1e-12)
        np.testing.assert_allclose(g, _grad(lambda v: (rev(v) ** 2).sum(), yi), rtol=1e-12)
        assert version == i + (i >= 3)
    assert stats["steps"] == 3 and stats["materialised"] == 1  # steps 1, 2, 6 replay; 3 builds its tape, 4, 5 noted


def test_an_earlier_op_saved_the_input_returned_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """``h * h`` saved ``h`` before the apply returned it in place (bumping its version). The loss reaches that op
    in step 4 only: its backward fails there, as in normal dispatch (such an apply is not noted: a step built from
    a note would save the version after the write)."""

    def script() -> list[Any]:
        _seen(False)
        w = paddle.to_tensor(W, stop_gradient=False)
        out: list[Any] = []
        for i in range(5):
            h = paddle.tanh(w)
            p = h * h
            y = Through.apply(h)
            loss = y.sum() if i != 4 else y.sum() + p.sum()
            try:
                loss.backward()
                out.append(w.grad.numpy())
            except RuntimeError as e:
                out.append(str(e))
            w.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    assert type(on[4]) is str and type(off[4]) is str  # both raised
    assert re.sub(r"tensor_\d+", "", on[4]) == re.sub(r"tensor_\d+", "", off[4])  # (names count up per run)
    assert "has been modified by an inplace operation. Its version is 1 but the expected version is 0" in on[4]
    _close(on[:4], off[:4])
    rev = _reverse(-0.5)
    for g in on[:4]:
        np.testing.assert_allclose(g, _grad(lambda v: rev(jnp.tanh(v)).sum(), W), rtol=1e-12)
    assert stats["steps"] == 0


@pytest.mark.parametrize("shared", [False, True], ids=["in_place", "shared"])
def test_a_nested_use(monkeypatch: pytest.MonkeyPatch, shared: bool) -> None:
    """The output of one apply is the input of the next: the gradient reversed twice, a quarter of it."""

    def script() -> list[Any]:
        _seen(shared)
        w = paddle.to_tensor(W, stop_gradient=False)
        out = []
        for _ in range(5):
            h = paddle.tanh(w)
            y = Through.apply(Through.apply(h))
            (y * 3.0).sum().backward()
            out.append([w.grad.numpy(), h.inplace_version])
            w.clear_grad()
        out.append(len(Through.SEEN))
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    assert on[-1] == off[-1] == 10
    rev = _reverse(-0.5)
    for g, version in on[:-1]:
        np.testing.assert_allclose(g, _grad(lambda v: (rev(rev(jnp.tanh(v))) * 3.0).sum(), W), rtol=1e-12)
        assert version == (0 if shared else 2)
    assert stats["steps"] >= 3 and stats["materialised"] == 0


class ClippedSTE(PyLayer):
    """A straight-through estimator: forward returns its input (saving it), backward passes the gradient where the
    input is within [-0.5, 0.5] (a quantiser's clipped identity)."""

    SHARED = [False]

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        ctx.save_for_backward(x)
        if ClippedSTE.SHARED[0]:
            ctx.mark_not_inplace(x)
        return x

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        (x,) = ctx.saved_tensor()
        return dy * (paddle.abs(x) <= 0.5).astype(dy.dtype)


@pytest.mark.parametrize("shared", [False, True], ids=["in_place", "shared"])
def test_a_straight_through_estimator_saving_its_input(monkeypatch: pytest.MonkeyPatch, shared: bool) -> None:
    def script() -> list[Any]:
        ClippedSTE.SHARED[0] = shared
        w = paddle.to_tensor(W, stop_gradient=False)
        out = []
        for _ in range(5):
            y = ClippedSTE.apply(paddle.tanh(w) * 0.8)
            (y * y).sum().backward()
            out.append(w.grad.numpy())
            w.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    ste = jax.custom_vjp(lambda v: v)
    ste.defvjp(lambda v: (v, v), lambda v, g: (g * (jnp.abs(v) <= 0.5),))
    ref = _grad(lambda v: (ste(jnp.tanh(v) * 0.8) ** 2).sum(), W)
    assert 0 < np.count_nonzero(ref) < ref.size  # (some inputs clipped, some not)
    for g in on:
        np.testing.assert_allclose(g, ref, rtol=1e-12)
    assert stats["steps"] >= 3 and stats["materialised"] == 0


# ---- a single output marked non-differentiable -----------------------------------------------------------------
class Rounded(PyLayer):
    """``round(x)``, marked non-differentiable (its backward never runs)."""

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        r = paddle.round(x * 4.0)
        ctx.mark_non_differentiable(r)
        return r

    @staticmethod
    def backward(ctx, dr):  # noqa: ANN001, ANN205
        raise AssertionError("the backward of an output marked non-differentiable does not run")


@pytest.mark.parametrize("reach", [True, False], ids=["loss_uses_it", "loss_does_not"])
def test_a_single_non_differentiable_output_replays(monkeypatch: pytest.MonkeyPatch, reach: bool) -> None:
    """The marked output has stop_gradient=True and no history in every step; the loss uses it as a constant, or
    not at all."""

    def script() -> list[Any]:
        w = paddle.to_tensor(W, stop_gradient=False)
        out = []
        for _ in range(5):
            h = paddle.tanh(w)
            r = Rounded.apply(h)
            loss = (h * r).sum() if reach else (h * h).sum()
            loss.backward()
            out.append([w.grad.numpy(), r.numpy(), r.stop_gradient])
            w.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    r = np.round(np.tanh(W) * 4.0)
    ref = _grad(lambda v: (jnp.tanh(v) * r).sum() if reach else (jnp.tanh(v) ** 2).sum(), W)
    for g, rv, sg in on:
        assert sg is True
        np.testing.assert_array_equal(rv, r)
        np.testing.assert_allclose(g, ref, rtol=1e-12)
    assert stats["steps"] >= 3 and stats["materialised"] == 0


class Indices(PyLayer):
    """``(argmax(x), round(4x))``, both marked non-differentiable (its backward never runs)."""

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        a, r = paddle.argmax(x, axis=-1), paddle.round(x * 4.0)
        ctx.mark_non_differentiable(a, r)
        return a, r

    @staticmethod
    def backward(ctx, da, dr):  # noqa: ANN001, ANN205
        raise AssertionError("the backward of outputs all marked non-differentiable does not run")


def test_several_outputs_all_non_differentiable_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[Any]:
        w = paddle.to_tensor(W, stop_gradient=False)
        out = []
        for _ in range(5):
            h = paddle.tanh(w)
            a, r = Indices.apply(h)
            (h * r).sum().backward()
            out.append([w.grad.numpy(), a.numpy(), a.stop_gradient, r.stop_gradient])
            w.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    r = np.round(np.tanh(W) * 4.0)
    for g, a, sg_a, sg_r in on:
        assert sg_a is True and sg_r is True
        np.testing.assert_array_equal(a, np.argmax(np.tanh(W), axis=-1))
        np.testing.assert_allclose(g, _grad(lambda v: (jnp.tanh(v) * r).sum(), W), rtol=1e-12)
    assert stats["steps"] >= 3 and stats["materialised"] == 0


def test_a_leaf_returned_shared_replays_with_its_array_entered(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Through`` (``mark_not_inplace``) applied to a leaf whose value is an array: the op after it takes that array
    as a buffer input (a noted input of the apply's output that holds an array, not a buffer slot)."""

    def script() -> list[Any]:
        _seen(True)
        w = paddle.to_tensor(W, stop_gradient=False)
        out: list[Any] = []
        for _ in range(6):
            y = Through.apply(w)
            (paddle.tanh(y) * 3.0).sum().backward()
            out.append([w.grad.numpy(), y.numpy(), y is w, y.stop_gradient])
            w.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    assert stats["steps"] >= 4 and stats["materialised"] == 0  # the steps after the first two replayed
    want = _grad(lambda v: jnp.sum(jnp.tanh(_reverse(-0.5)(v)) * 3.0), W)
    for a, b in zip(on, off):
        _close(a[0], b[0])
        _close(a[0], want)
        _close(a[1], W)
        assert a[2:] == b[2:] == [False, False]
