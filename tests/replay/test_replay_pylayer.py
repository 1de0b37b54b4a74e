"""Replaying repeated steps that contain PyLayers: the user's forward and backward still run once per
step, and everything equals normal dispatch.

Oracles: jax.grad of the same computation, the same code run with replay off (values, gradients,
error types and messages, how often forward, backward and hooks ran), and ``_replay.STATS``
showing that the replay (or its fallback) really ran.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pylayer_support import CusTanh as SharedTanh
from replay_support import _both, _close, _data, _loop, _tensors

import pylayer_jax as paddle
from pylayer_jax.autograd import PyLayer, once_differentiable

CALLS = {"forward": 0, "backward": 0}


class CusTanh(SharedTanh):
    """The shared tanh PyLayer, counting how often its forward and backward run."""

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        CALLS["forward"] += 1
        return SharedTanh.forward(ctx, x)

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        CALLS["backward"] += 1
        return SharedTanh.backward(ctx, dy)


_TanhForward = SharedTanh  # tanh, saving its output; the subclasses below differ in their backward


def _counted(script: Any) -> Any:
    def run() -> Any:
        CALLS.update(forward=0, backward=0)
        return script(), dict(CALLS)

    return run


def _mlp_loss(ps: list, x: jax.Array) -> jax.Array:
    w1, b1, w2, b2 = ps
    return jnp.mean(jnp.tanh(x @ w1 + b1) @ w2 + b2)


def _mlp_steps(monkeypatch: pytest.MonkeyPatch, act: Any, steps: int) -> tuple[dict, dict, dict]:
    """The MLP loop with activation ``act``, replay on and off: both equal jax.grad's gradients (with tanh) in
    every step. Returns (user calls on, user calls off, replay STATS of the run with replay on)."""
    x_np, ps_np = _data()
    ref = jax.grad(_mlp_loss)([jnp.asarray(p) for p in ps_np], jnp.asarray(x_np))
    (on, on_calls), (off, off_calls), stats = _both(monkeypatch, _counted(lambda: _loop(act=act, steps=steps)))
    _close(on, off)
    for grads in on:
        _close(grads, ref)
    return on_calls, off_calls, stats


def test_an_mlp_with_a_pylayer_activation_replays_and_matches_jax_grad(monkeypatch: pytest.MonkeyPatch) -> None:
    on_calls, off_calls, stats = _mlp_steps(monkeypatch, lambda i, pre, _: CusTanh.apply(pre), 6)
    assert on_calls == off_calls == {"forward": 6, "backward": 6}  # the user's code runs once per step
    assert stats["steps"] >= 4 and stats["materialised"] == 0


def test_the_benchmark_step_accumulating_into_a_leaf(monkeypatch: pytest.MonkeyPatch) -> None:
    x_np = np.random.default_rng(1).standard_normal((2, 3))

    def script() -> list[np.ndarray]:
        x = paddle.to_tensor(x_np, stop_gradient=False)
        out = []
        for _ in range(6):
            CusTanh.apply(x).mean().backward()  # no clear_grad: x.grad accumulates step after step
            out.append(x.grad.numpy())
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    one = np.asarray(jax.grad(lambda v: jnp.mean(jnp.tanh(v)))(jnp.asarray(x_np)))
    for i, g in enumerate(on):
        np.testing.assert_allclose(g, (i + 1) * one, rtol=1e-12)
    assert stats["steps"] >= 3


class Scale(PyLayer):
    """``k * x`` with ``k`` read from a global: a step may record other calls than the noted one."""

    K = [2.0]

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        ctx.k = Scale.K[0]
        return x * ctx.k

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        CALLS["backward"] += 1
        return dy * ctx.k


def test_a_forward_that_records_other_calls_leaves_the_note(monkeypatch: pytest.MonkeyPatch) -> None:
    def act(i: int, pre: paddle.Tensor, out: list) -> paddle.Tensor:
        # step 3's forward records another kernel (an int factor is a ``scale`` attribute; a float, a traced input)
        Scale.K[0] = 3 if i == 3 else 2.0
        return paddle.tanh(Scale.apply(pre))

    (on, on_calls), (off, off_calls), stats = _both(monkeypatch, _counted(lambda: _loop(act=act, steps=6)))
    _close(on, off)
    x_np, ps_np = _data()
    for i, grads in enumerate(on):
        k = 3.0 if i == 3 else 2.0

        def loss(ps: list, x: jax.Array, k: float = k) -> jax.Array:
            w1, b1, w2, b2 = ps
            return jnp.mean(jnp.tanh(k * (x @ w1 + b1)) @ w2 + b2)

        _close(grads, jax.grad(loss)([jnp.asarray(p) for p in ps_np], jnp.asarray(x_np)))
    assert on_calls == off_calls
    assert stats["materialised"] >= 1 and stats["steps"] >= 2


class Switch(_TanhForward):
    """tanh whose backward takes another route to the same gradient when ``ALT`` is set."""

    ALT = [False]

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        CALLS["backward"] += 1
        (y,) = ctx.saved_tensor()
        if Switch.ALT[0]:
            return dy - dy * y * y
        return dy * (1 - paddle.square(y))


def test_a_backward_that_records_other_calls_runs_once_and_stays_right(monkeypatch: pytest.MonkeyPatch) -> None:
    def act(i: int, pre: paddle.Tensor, out: list) -> paddle.Tensor:
        Switch.ALT[0] = i == 4
        return Switch.apply(pre)

    on_calls, off_calls, stats = _mlp_steps(monkeypatch, act, 7)
    assert on_calls == off_calls == {"forward": 0, "backward": 7}  # step 4's backward is not called twice
    assert stats["materialised"] >= 1 and stats["steps"] >= 3


class Peek(_TanhForward):
    """A backward that reads a value (running the deferred calls) in some steps."""

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        CALLS["backward"] += 1
        (y,) = ctx.saved_tensor()
        if CALLS["backward"] == 4:
            assert np.isfinite(dy.numpy()).all()
        return dy * (1 - paddle.square(y))


def test_a_value_read_inside_backward_of_a_replayed_step(monkeypatch: pytest.MonkeyPatch) -> None:
    on_calls, off_calls, stats = _mlp_steps(monkeypatch, lambda i, pre, _: Peek.apply(pre), 6)
    assert on_calls == off_calls == {"forward": 0, "backward": 6}
    assert stats["materialised"] >= 1


class Flaky(_TanhForward):
    """tanh whose backward raises on its fourth call."""

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        CALLS["backward"] += 1
        if CALLS["backward"] == 4:
            raise ValueError("flaky backward")
        (y,) = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


def test_an_exception_in_backward_of_a_replayed_step(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[Any]:
        CALLS.update(backward=0)
        x, params = _tensors()
        out: list[Any] = []
        for _ in range(7):
            h = Flaky.apply(paddle.matmul(x, params[0]) + params[1])
            loss = (paddle.matmul(h, params[2]) + params[3]).mean()
            try:
                loss.backward()
            except ValueError as e:
                out.append(str(e))
                # what the failed backward left: the gradients it had stored, and a tape it had partly freed
                out.append([None if p.grad is None else p.grad.numpy() for p in params])
                with pytest.raises(RuntimeError) as again:
                    loss.backward()
                out.append(str(again.value))
            out.append([None if p.grad is None else p.grad.numpy() for p in params])
            for p in params:
                p.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    assert "flaky backward" in on and "flaky backward" in off
    assert len(on) == len(off)
    for a, b in zip(on, off):
        if isinstance(a, str):
            assert a == b
        else:
            assert [g is None for g in a] == [g is None for g in b]
            _close([g for g in a if g is not None], [g for g in b if g is not None])
    assert stats["steps"] >= 3


def test_a_hook_on_a_pylayer_output_in_repeated_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    def act(i: int, pre: paddle.Tensor, out: list) -> paddle.Tensor:
        y = CusTanh.apply(pre)
        y.register_hook(lambda g: out.append(("hook", g.numpy())) or g * 2)
        return y

    on, off, stats = _both(monkeypatch, lambda: _loop(act=act, steps=5))
    _close([v for v in on if not isinstance(v, tuple)], [v for v in off if not isinstance(v, tuple)])
    _close([v[1] for v in on if isinstance(v, tuple)], [v[1] for v in off if isinstance(v, tuple)])
    assert sum(isinstance(v, tuple) for v in on) == 5
    assert stats["steps"] == 0  # a hook reads the output's history: the step builds its tape


def test_backward_through_a_pylayer_after_its_replayed_backward_raises_like_normal_dispatch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[str]:
        x = paddle.to_tensor(np.ones((2, 3), np.float32), stop_gradient=False)
        for _ in range(5):
            y = CusTanh.apply(x)
            y.mean().backward()
        with pytest.raises(RuntimeError) as e:
            y.sum().backward()  # its node was freed by the (replayed) backward
        return [str(e.value)]

    on, off, stats = _both(monkeypatch, script)
    assert on == off and "PyLayer CusTanh" in on[-1] and "second time" in on[-1]
    assert stats["steps"] >= 2


class InPlace(PyLayer):
    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        y = paddle.tanh(x)
        y.scale_(1.0)  # an in-place write inside forward
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        (y,) = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


def test_an_in_place_write_inside_forward_of_a_repeated_step(monkeypatch: pytest.MonkeyPatch) -> None:
    _mlp_steps(monkeypatch, lambda i, pre, _: InPlace.apply(pre), 5)


class NestedGrad(PyLayer):
    """A backward that differentiates with paddle.grad itself (a walk inside the walk)."""

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        ctx.save_for_backward(x)
        return paddle.tanh(x)

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        CALLS["backward"] += 1
        (x,) = ctx.saved_tensor()
        with paddle.enable_grad():
            xx = x.detach()
            xx.stop_gradient = False
            (g,) = paddle.grad(paddle.tanh(xx).sum(), xx)
        return dy * g


def test_a_backward_that_runs_paddle_grad_inside_a_repeated_step(monkeypatch: pytest.MonkeyPatch) -> None:
    on_calls, off_calls, _ = _mlp_steps(monkeypatch, lambda i, pre, _: NestedGrad.apply(pre), 5)
    assert on_calls == off_calls == {"forward": 0, "backward": 5}


class Mul(PyLayer):
    """Two inputs, two gradients; ``needs_input_grad`` says which are wanted."""

    @staticmethod
    def forward(ctx, a, b):  # noqa: ANN001, ANN205
        ctx.save_for_backward(a, b)
        ctx.seen = ctx.needs_input_grad
        return a * b

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        a, b = ctx.saved_tensor()
        CALLS["backward"] += 1
        return dy * b, (dy * a if ctx.needs_input_grad[1] else None)


def test_a_two_input_pylayer_with_a_frozen_input_and_a_new_input_later(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[Any]:
        rng = np.random.default_rng(3)
        a = paddle.to_tensor(rng.standard_normal((3, 4)), stop_gradient=False)
        b = paddle.to_tensor(rng.standard_normal((3, 4)))  # frozen
        out: list[Any] = []
        for i in range(7):
            if i == 4:  # another leaf from here on
                a = paddle.to_tensor(rng.standard_normal((3, 4)), stop_gradient=False)
            Mul.apply(paddle.tanh(a), b).sum().backward()
            out.append((a.grad.numpy(), b.grad))
            a.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    for (ga, gb), (ha, hb) in zip(on, off):
        np.testing.assert_allclose(ga, ha, rtol=1e-12)
        assert gb is None and hb is None
    assert stats["steps"] >= 3


def test_once_differentiable_and_non_differentiable_outputs_in_repeated_steps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Once(PyLayer):
        @staticmethod
        def forward(ctx, x):  # noqa: ANN001, ANN205
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @once_differentiable
        def backward(ctx, dy):  # noqa: ANN001, ANN205
            (x,) = ctx.saved_tensor()
            return 2 * x * dy

    class WithIndex(PyLayer):
        @staticmethod
        def forward(ctx, x):  # noqa: ANN001, ANN205
            idx = paddle.argmax(x, axis=-1)
            ctx.mark_non_differentiable(idx)
            return paddle.tanh(x), idx

        @staticmethod
        def backward(ctx, dy, didx):  # noqa: ANN001, ANN205
            return dy

    def act(i: int, pre: paddle.Tensor, out: list) -> paddle.Tensor:
        h, idx = WithIndex.apply(Once.apply(pre))
        out.append(idx.numpy())
        return h

    on, off, stats = _both(monkeypatch, lambda: _loop(act=act, steps=5))
    _close(on, off)
    x_np, ps_np = _data()

    def loss(ps: list, x: jax.Array) -> jax.Array:
        w1, b1, w2, b2 = ps
        pre = x @ w1 + b1
        # WithIndex's backward passes dy through unchanged: tanh's factor is dropped on purpose
        h = pre * pre + jax.lax.stop_gradient(jnp.tanh(pre * pre) - pre * pre)
        return jnp.mean(h @ w2 + b2)

    ref = jax.grad(loss)([jnp.asarray(p) for p in ps_np], jnp.asarray(x_np))
    for grads in [v for v in on if isinstance(v, list)]:
        _close(grads, ref)


# ---- user code inside a PyLayer's backward sees the walk as the normal walk has left it ----------------------
# The step: loss = mean(matmul(P(matmul(x, w)), v)). When P's backward runs, the normal walk has finished v
# (its gradient is in, the second matmul's node is freed) and has yet to reach w.
def _during_backward(special: Any) -> list[Any]:
    rng = np.random.default_rng(5)
    x = paddle.to_tensor(rng.standard_normal((5, 4)))
    w = paddle.to_tensor(rng.standard_normal((4, 3)) * 0.3, stop_gradient=False)
    v = paddle.to_tensor(rng.standard_normal((3, 3)), stop_gradient=False)
    out: list[Any] = []
    env = {"x": x, "w": w, "v": v, "out": out}

    class P(_TanhForward):
        @staticmethod
        def backward(ctx, dy):  # noqa: ANN001, ANN205
            (y,) = ctx.saved_tensor()
            special(env)
            return dy * (1 - y * y)

    for i in range(7):
        env["i"] = i
        h = P.apply(paddle.matmul(x, w))
        env["h"] = h
        loss = env["loss"] = paddle.matmul(h, v).mean()
        try:
            loss.backward()
        except Exception as e:  # noqa: BLE001 - the scenario's own error, compared between the two runs
            out.append((type(e).__name__, str(e)))
        out.append([None if t.grad is None else t.grad.numpy() for t in (w, v)])
        out.append([w.numpy(), v.numpy()])
        w.clear_grad()
        v.clear_grad()
    return out


def _at_step(i: int, fn: Any) -> Any:
    def special(env: dict) -> None:
        if env["i"] == i:
            fn(env)
    return special


def _sgd_on_v(env: dict) -> None:
    paddle.optimizer.SGD(learning_rate=0.1, parameters=[env["v"]]).step()


def _set_grads(env: dict) -> None:
    env["v"].clear_grad(set_to_zero=False)
    env["w"].grad = paddle.to_tensor(np.full((4, 3), 100.0))


def _grad_of_walked_graph(env: dict) -> None:
    try:
        env["out"].append(paddle.grad(env["loss"], env["h"])[0].numpy())
    except RuntimeError as e:
        env["out"].append(str(e))


def _read_then_raise(env: dict) -> None:
    env["out"].append(env["v"].grad.numpy())
    raise FloatingPointError("gradient check failed")


@pytest.mark.parametrize("special", [
    _at_step(4, lambda env: env["v"].set_value(env["v"].numpy() * 0.5)),  # a write to a tensor the walk is done with
    _at_step(4, lambda env: env["out"].append(env["v"].grad.numpy())),  # a gradient the walk has stored
    _at_step(3, _sgd_on_v),  # an optimizer step inside backward
    _at_step(4, _set_grads),  # gradients cleared and set by hand
    _at_step(4, lambda env: env["w"].register_hook(lambda g: g * 0)),  # a hook on a leaf the walk reaches later
    _at_step(4, _grad_of_walked_graph),  # paddle.grad through nodes the walk has freed
    _at_step(4, _read_then_raise),  # a value read (the deferred calls run), then an error
    # a gradient cleared in the step that is noted: the note must not take the leaf for one backward never reaches
    _at_step(0, lambda env: env["v"].clear_grad(set_to_zero=False)),
], ids=["set_value", "read_grad", "sgd_step", "set_grads", "leaf_hook", "grad_of_freed", "read_then_raise",
        "cleared_in_the_noted_step"])
def test_user_code_in_a_replayed_pylayer_backward_sees_what_the_walk_left(
        monkeypatch: pytest.MonkeyPatch, special: Any, request: pytest.FixtureRequest) -> None:
    on, off, stats = _both(monkeypatch, lambda: _during_backward(special))
    assert len(on) == len(off)
    for a, b in zip(on, off):
        if isinstance(a, tuple | str):
            assert a == b
        else:
            assert [g is None for g in a] == [g is None for g in b]
            _close([g for g in a if g is not None], [g for g in b if g is not None])
    assert stats["steps"] >= 3
    if "noted" not in request.node.name:  # (there the replayed steps meet nothing new)
        assert stats["materialised"] >= 1


# ---- a replayed step that leaves its note inside a PyLayer's backward walks on as the walk would have ----------
class _Logged(PyLayer):
    """Identity whose backward logs the layer's name and runs ``ACTION[name, step]`` (if any)."""

    LOG: list = []
    ACTION: dict = {}
    STEP = [0]
    NAME = ""

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        return x * 1.0

    @classmethod
    def backward(cls, ctx, dy):  # noqa: ANN001, ANN206
        _Logged.LOG.append(cls.NAME)
        act = _Logged.ACTION.get((cls.NAME, _Logged.STEP[0]))
        if act is not None:
            act(dy)
        return dy


class A(_Logged):
    NAME = "A"


class B(_Logged):
    NAME = "B"


class C(_Logged):
    NAME = "C"


def _branches(actions: dict) -> list[Any]:
    """loss = sum(A(a)) + sum(B(C(b)) * 3) + sum(STE: tanh forward, identity backward, on w); records the order
    the backwards ran, what they saw and what the step left."""
    _Logged.LOG.clear()
    _Logged.ACTION.clear()
    _Logged.ACTION.update(actions)
    rng = np.random.default_rng(7)
    a = paddle.to_tensor(rng.standard_normal(3), stop_gradient=False)
    b = paddle.to_tensor(rng.standard_normal(3), stop_gradient=False)
    w = paddle.to_tensor(rng.standard_normal(3), stop_gradient=False)
    out: list[Any] = []
    for i in range(6):
        _Logged.STEP[0] = i
        yb = B.apply(C.apply(b))
        loss = A.apply(a).sum() + (yb * 3).sum() + Straight.apply(w).sum()
        _Logged.ACTION["yb"] = yb
        try:
            loss.backward()
        except ArithmeticError as e:
            out.append(str(e))
            with pytest.raises(RuntimeError) as again:
                (yb * 100).sum().backward()
            out.append(str(again.value))
        out.append(list(_Logged.LOG))
        _Logged.LOG.clear()
        out.append([None if t.grad is None else t.grad.numpy() for t in (a, b, w)])
        for t in (a, b, w):
            t.clear_grad(set_to_zero=False)
    return out


class Straight(PyLayer):
    """tanh forward, identity backward (a straight-through estimator): the leaf gets ``dy`` as it is."""

    @staticmethod
    def forward(ctx, w):  # noqa: ANN001, ANN205
        return paddle.tanh(w)

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        return dy


def _raise(dy: Any) -> None:
    raise ArithmeticError("backward failed")


@pytest.mark.parametrize("actions", [
    {},  # nothing: the straight-through leaf gets its gradient in every replayed step
    {("B", 3): lambda dy: dy.numpy()},  # B reads a value: the walk goes on in its own order (C, then A)
    {("B", 3): lambda dy: dy.numpy(), ("C", 3): _raise},  # ... and C raises after that
    {("B", 3): lambda dy: (dy.numpy(), _Logged.ACTION["yb"].register_hook(lambda g: _Logged.LOG.append("hook")))},
], ids=["plain", "read", "read_then_raise", "hook_on_own_output"])
def test_a_step_leaving_its_note_in_a_pylayer_backward_walks_on_in_order(
        monkeypatch: pytest.MonkeyPatch, actions: dict) -> None:
    on, off, stats = _both(monkeypatch, lambda: _branches(actions))
    assert len(on) == len(off)
    for x, y in zip(on, off):
        if isinstance(x, str) or (x and isinstance(x[0], str)):
            assert x == y
        else:
            assert [g is None for g in x] == [g is None for g in y]
            _close([g for g in x if g is not None], [g for g in y if g is not None])
    assert stats["steps"] >= 2
