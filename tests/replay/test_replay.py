"""Replaying a repeated eager step: the same results as normal dispatch, in every way a step can differ.

Oracles: jax.grad of the same computation, and the same code run with replay off
(``_replay.ENABLED = False``): values, gradients, error types and messages, hook calls.
``_replay.STATS`` shows that the replay (or its fallback) really ran.
"""

from __future__ import annotations

import gc
import threading
import weakref
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from replay_support import _both, _close, _data, _forward, _loop, _loss_jax, _mean_head, _tensors

import pylayer_jax as paddle
from pylayer_jax._replay import follow as _replay
from pylayer_jax.autograd import saved_tensors_hooks


def test_repeated_steps_replay_and_match_jax_grad() -> None:
    x_np, ps_np = _data()
    x, params = _tensors()
    ref = jax.grad(_loss_jax)([jnp.asarray(p) for p in ps_np], jnp.asarray(x_np))
    before = _replay.STATS["steps"]
    for _ in range(6):
        _forward(x, params).mean().backward()
        for p, r in zip(params, ref):
            np.testing.assert_allclose(p.grad.numpy(), np.asarray(r), rtol=1e-12, atol=1e-12)
        for p in params:
            p.clear_grad()
    assert _replay.STATS["steps"] - before >= 4  # every step after the noted ones


def test_replayed_steps_accumulate_gradients_without_clear_grad(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[np.ndarray]:
        x, params = _tensors()
        for _ in range(5):
            _forward(x, params).mean().backward()
        return [p.grad.numpy() for p in params]

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    x_np, ps_np = _data()
    ref = jax.grad(_loss_jax)([jnp.asarray(p) for p in ps_np], jnp.asarray(x_np))
    _close(on, [5 * np.asarray(r) for r in ref])


def test_sgd_training_loop_replays_and_matches_jax() -> None:
    x_np, ps_np = _data()
    x, params = _tensors()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=params)
    before = _replay.STATS["steps"]
    for _ in range(8):
        _forward(x, params).mean().backward()
        opt.step()
        opt.clear_grad()
    assert _replay.STATS["steps"] - before >= 5
    ps, jx = [jnp.asarray(p) for p in ps_np], jnp.asarray(x_np)
    for _ in range(8):
        ps = [p - 0.1 * d for p, d in zip(ps, jax.grad(_loss_jax)(ps, jx))]
    _close([p.numpy() for p in params], ps)


def test_gradient_accumulation_replays_every_step_and_matches_jax() -> None:
    # backward every step, the update every third: the steps begin on a buffer holding the update or the last
    # backward's results by turns, each kind followed by its own note (one note replayed half the steps)
    x_np, ps_np = _data()
    x, params = _tensors()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=params)
    k, steps = 3, 15
    replayed = []
    for i in range(steps):
        before = _replay.STATS["steps"]
        (_forward(x, params).mean() / k).backward()
        if i % k == k - 1:
            opt.step()
            opt.clear_grad()
        replayed.append(_replay.STATS["steps"] - before)
    assert replayed[2 * k:] == [1] * (steps - 2 * k), replayed  # from the third round on, every step
    ps, jx = [jnp.asarray(p) for p in ps_np], jnp.asarray(x_np)
    for _ in range(steps // k):
        ps = [p - 0.1 * d for p, d in zip(ps, jax.grad(_loss_jax)(ps, jx))]  # (k gradients of loss / k)
    _close([p.numpy() for p in params], ps)


def test_two_steps_in_turn_each_follow_their_own_note(monkeypatch: pytest.MonkeyPatch) -> None:
    # two different steps alternating (two losses trained by turns): each begins with an op of its own
    def script() -> tuple[list[np.ndarray], list[int]]:
        x, params = _tensors()
        w1, b1, w2, b2 = params
        opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=params)
        replayed = []
        for i in range(12):
            before = _replay.STATS["steps"]
            if i % 2 == 0:
                loss = _forward(x, params).mean()
            else:
                loss = (x @ paddle.tanh(w1) + b1).square().mean() + (w2.sum() + b2.sum()) * 0.0
            loss.backward()
            opt.step()
            opt.clear_grad()
            replayed.append(_replay.STATS["steps"] - before)
        return [p.numpy() for p in params], replayed

    (on, replayed), (off, _), _ = _both(monkeypatch, script)
    _close(on, off)
    assert replayed[4:] == [1] * 8, replayed  # each kind noted once, then followed


def test_steps_in_turn_that_part_midway_each_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    # a GAN's discriminator and generator steps: the same first ops (the generator), then other inputs and ops. The
    # step that leaves a note midway is noted from there on, and each later step goes on with the note it matches
    def script() -> tuple[list[np.ndarray], list[int]]:
        x, params = _tensors()
        w1, b1, w2, b2 = params
        opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=params)
        real = paddle.to_tensor(np.linspace(-1.0, 1.0, 15).reshape(5, 3))
        replayed = []
        for i in range(12):
            before = _replay.STATS["steps"]
            fake = _forward(x, params)  # (the shared first events)
            if i % 2 == 0:
                loss = ((real - fake.detach()) @ w2.t()).mean() + (fake * 0.0).sum()
            else:
                loss = paddle.tanh(fake @ w2.t()).square().mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            replayed.append(_replay.STATS["steps"] - before)
        return [p.numpy() for p in params], replayed

    (on, replayed), (off, _), _ = _both(monkeypatch, script)
    _close(on, off)
    assert replayed[4:] == [1] * 8, replayed


def test_a_step_that_changes_for_good_midway_is_noted_from_there(monkeypatch: pytest.MonkeyPatch) -> None:
    # from step 4 on the loss is another: the first such step leaves the note midway and is noted from there
    def script() -> tuple[list[np.ndarray], list[int]]:
        x, params = _tensors()
        opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=params)
        replayed = []
        for i in range(10):
            before = _replay.STATS["steps"]
            out = _forward(x, params)
            loss = out.mean() if i < 4 else (out * out).sum()
            loss.backward()
            opt.step()
            opt.clear_grad()
            replayed.append(_replay.STATS["steps"] - before)
        return [p.numpy() for p in params], replayed

    (on, replayed), (off, _), _ = _both(monkeypatch, script)
    _close(on, off)
    assert replayed[4] == 0 and replayed[5:] == [1] * 5, replayed  # (one step was noted afresh before)


def test_a_step_that_differs_midway_builds_its_tape_and_stays_right(monkeypatch: pytest.MonkeyPatch) -> None:
    on, off, stats = _both(monkeypatch, lambda: _loop(lambda i, h, _: paddle.sin(h) if i == 4 else h))
    _close(on, off)
    assert stats["steps"] >= 2 and stats["materialised"] >= 1


def test_new_shapes_and_other_tensors_leave_the_note(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[np.ndarray]:
        _, params = _tensors()
        _, others = _tensors(seed=3)
        out = []
        for i in range(8):
            rows = 5 if i < 5 else 7  # a new batch size
            x = paddle.to_tensor(np.random.default_rng(i).standard_normal((rows, 4)))
            ps = params if i != 6 else others  # other parameters of the same shapes
            _forward(x, ps).mean().backward()
            out.append([p.grad.numpy() for p in ps])
            for p in ps:
                p.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    assert stats["steps"] >= 2


def test_a_parameter_used_twice_and_a_frozen_parameter(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[Any]:
        w = paddle.to_tensor(np.linspace(-1, 1, 9).reshape(3, 3), stop_gradient=False)
        b = paddle.to_tensor(np.ones(3), stop_gradient=False)
        x = paddle.to_tensor(np.arange(6.0).reshape(2, 3) / 6)
        out = []
        for i in range(7):
            if i == 5:
                b.stop_gradient = True  # frozen from here on: no gradient for it
            (paddle.matmul(paddle.matmul(x, w), w) + b).sum().backward()
            out.append((w.grad.numpy(), None if b.grad is None else b.grad.numpy()))
            w.clear_grad()
            b.clear_grad()
        return out

    on, off, _ = _both(monkeypatch, script)
    _close(on, off)


def test_hook_on_an_intermediate_during_a_replayed_step(monkeypatch: pytest.MonkeyPatch) -> None:
    def vary(i: int, h: paddle.Tensor, out: list) -> paddle.Tensor:
        if i == 4:
            h.register_hook(lambda g: out.append("hook") or g * 2)
        return h

    on, off, stats = _both(monkeypatch, lambda: _loop(vary))
    _close([o for o in on if o != "hook"], [o for o in off if o != "hook"])
    assert on.count("hook") == off.count("hook") == 1
    assert stats["materialised"] >= 1


def test_paddle_grad_and_retain_graph_inside_a_repeated_step(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[Any]:
        x, params = _tensors()
        out = []
        for i in range(6):
            h = paddle.tanh(paddle.matmul(x, params[0]) + params[1])
            loss = (paddle.matmul(h, params[2]) + params[3]).mean()
            if i == 3:
                (gh,) = paddle.grad(loss, h, retain_graph=True)
                out.append(gh.numpy())
            if i == 4:
                loss.backward(retain_graph=True)
            loss.backward()
            out.append([p.grad.numpy() for p in params])
            for p in params:
                p.clear_grad()
        return out

    on, off, _ = _both(monkeypatch, script)
    _close(on, off)


def test_backward_twice_after_a_replayed_backward_raises_like_normal_dispatch() -> None:
    x, params = _tensors()
    before = _replay.STATS["steps"]
    for _ in range(4):
        loss = _forward(x, params).mean()
        loss.backward()
    assert _replay.STATS["steps"] - before >= 1
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        loss.backward()
    out = _forward(x, params)
    out.mean().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        (out * params[3]).sum().backward()  # an output of a freed step, used again
    assert not out.is_leaf and out.grad is None


def test_in_place_write_to_a_saved_parameter_mid_step_raises_the_version_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> str:
        x, params = _tensors()
        for _ in range(4):
            _forward(x, params).mean().backward()
        loss = _forward(x, params).mean()
        params[0].set_value(params[0].numpy() * 2)  # matmul saved it: backward must refuse
        with pytest.raises(RuntimeError, match="modified by an inplace operation") as err:
            loss.backward()
        return str(err.value)

    on, off, stats = _both(monkeypatch, script)
    assert on == off and stats["materialised"] == 1


def test_in_place_op_on_an_intermediate_mid_step(monkeypatch: pytest.MonkeyPatch) -> None:
    on, off, _ = _both(monkeypatch, lambda: _loop(act=lambda i, pre, _: pre.tanh_() if i == 4 else paddle.tanh(pre)))
    _close(on, off)


def test_reading_a_value_mid_step_and_no_grad_mid_step(monkeypatch: pytest.MonkeyPatch) -> None:
    def vary(i: int, h: paddle.Tensor, out: list) -> paddle.Tensor:
        if i == 4:
            out.append(float(h.sum()))  # runs the buffer in the middle of the step
        if i == 5:
            with paddle.no_grad():
                out.append((h * 2).numpy())
        return h

    on, off, _ = _both(monkeypatch, lambda: _loop(vary, steps=7))
    _close(on, off)


def test_saved_tensor_hooks_entered_mid_step_pack_only_later_ops(monkeypatch: pytest.MonkeyPatch) -> None:
    def head(i: int, h: paddle.Tensor, params: list, out: list) -> paddle.Tensor:
        if i == 4:
            with saved_tensors_hooks(lambda t: out.append("pack") or t, lambda t: t):
                return (paddle.matmul(h, params[2]) + params[3]).mean()
        return _mean_head(i, h, params, out)

    on, off, _ = _both(monkeypatch, lambda: _loop(head=head))
    _close([o for o in on if o != "pack"], [o for o in off if o != "pack"])
    # matmul packs both inputs; add and mean save nothing; the replayed ops before them pack nothing
    assert on.count("pack") == off.count("pack") == 2


def test_leaf_and_history_queries_on_replayed_tensors(monkeypatch: pytest.MonkeyPatch) -> None:
    def vary(i: int, h: paddle.Tensor, out: list) -> paddle.Tensor:
        if i == 4:
            out.append((h.is_leaf, h.stop_gradient, h.grad is None))
            h.retain_grads()
        return h

    def after(i: int, h: paddle.Tensor, out: list) -> None:
        if i == 4:
            out.append(h.grad.numpy())

    on, off, stats = _both(monkeypatch, lambda: _loop(vary, after))
    assert on[4] == off[4] == (False, False, True)
    _close(on[:4] + on[5:], off[:4] + off[5:])
    assert stats["materialised"] >= 1


def test_a_replayed_steps_tape_is_freed_with_its_tensors() -> None:
    x, params = _tensors()
    for _ in range(4):
        _forward(x, params).mean().backward()
    h = paddle.tanh(paddle.matmul(x, params[0]))
    ref = weakref.ref(h)
    del h
    gc.collect()
    assert ref() is None
    assert _replay.st.rec is None or all(r() is None or not r().released for r in _replay.st.rec_nodes)


def test_a_step_with_a_pylayer_saving_its_input_is_replayed_and_stays_right(monkeypatch: pytest.MonkeyPatch) -> None:
    from pylayer_jax.autograd import PyLayer

    class Cube(PyLayer):
        @staticmethod
        def forward(ctx, x):  # noqa: ANN001, ANN205
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, dy):  # noqa: ANN001, ANN205
            (x,) = ctx.saved_tensor()
            return 3 * x**2 * dy

    on, off, stats = _both(monkeypatch, lambda: _loop(act=lambda i, pre, _: Cube.apply(pre), steps=5))
    _close(on, off)
    assert stats["steps"] >= 3 and stats["materialised"] == 0  # (the saved input keeps its stub edge)


def test_a_jax_transform_inside_a_repeated_step_keeps_it_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    helper = jax.jit(lambda a: paddle.tanh(paddle.Tensor(a) * 2)._value)  # traced ops record nothing

    def vary(i: int, h: paddle.Tensor, out: list) -> paddle.Tensor:
        out.append(np.asarray(helper(jnp.full((2,), float(i)))))
        return h

    on, off, stats = _both(monkeypatch, lambda: _loop(vary))
    _close(on, off)
    assert stats["steps"] >= 4 and stats["materialised"] == 0


def test_scalar_operands_and_keyword_calls_inside_a_step(monkeypatch: pytest.MonkeyPatch) -> None:
    def act(i: int, pre: paddle.Tensor, out: list) -> paddle.Tensor:
        h = paddle.tanh(pre) * 0.5
        return paddle.add(h, paddle.to_tensor(np.full((6,), 0.25))) if i >= 3 else h

    def head(i: int, h: paddle.Tensor, params: list, out: list) -> paddle.Tensor:
        return paddle.mean(paddle.matmul(h, params[2]) + params[3], axis=None)

    on, off, _ = _both(monkeypatch, lambda: _loop(act=act, head=head))
    _close(on, off)


def test_an_optimizer_step_between_forward_and_backward(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[Any]:
        x, params = _tensors()
        opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=params)
        out = []
        for i in range(6):
            loss = _forward(x, params).mean()
            if i == 4:  # the update rebinds parameters this step's ops read: they keep the values they read
                opt.step()
            loss.backward()
            out.append([p.grad.numpy() for p in params])
            opt.step()
            opt.clear_grad()
        out.append([p.numpy() for p in params])
        return out

    on, off, stats = _both(monkeypatch, script)
    _close(on, off)
    assert stats["steps"] >= 2 and stats["materialised"] >= 1


def test_steps_under_saved_tensor_hooks_are_not_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> tuple[list[Any], int]:
        x, params = _tensors()
        packed = []
        out = []
        with saved_tensors_hooks(lambda t: packed.append(1) or t, lambda t: t * 1.0):
            for _ in range(5):
                _forward(x, params).mean().backward()
                out.append([p.grad.numpy() for p in params])
                for p in params:
                    p.clear_grad()
        return out, len(packed)

    on, off, stats = _both(monkeypatch, script)
    _close(on[0], off[0])
    assert on[1] == off[1] == 5 * 5  # per step: each matmul packs both inputs, tanh its output; add and mean none
    assert stats["steps"] == 0


def _ones(shape: tuple, trains: bool = False) -> paddle.Tensor:
    return paddle.to_tensor(np.ones(shape), stop_gradient=not trains)


def test_stop_gradient_toggled_after_use_keeps_the_edges_of_the_call(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[float]:
        x, w = _ones((2, 3)), _ones((3, 2), True)
        out = []
        for i in range(6):
            y = paddle.matmul(x, w)
            w.stop_gradient = True  # after the op: its node already sends w a gradient
            loss = y.sum()
            if i == 5:
                loss.register_hook(lambda g: g)  # needs the real tape of the replayed step
            loss.backward()
            w.stop_gradient = False
            out.append(float(w.grad.sum()))
            w.clear_grad()
        return out

    on, off, stats = _both(monkeypatch, script)
    assert on == off == [12.0] * 6 and stats["materialised"] == 1


def test_a_trainable_tensor_in_a_non_differentiable_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[np.ndarray]:
        x, w, b, ref = _ones((2, 3)), _ones((3, 2), True), _ones((2,), True), _ones((2, 2), True)
        out = []
        for _ in range(5):
            (paddle.matmul(x, w) + paddle.expand_as(b, ref)).sum().backward()  # ref: only its shape is read
            out.append(b.grad.numpy())
            b.clear_grad()
        return out

    on, off, _ = _both(monkeypatch, script)
    _close(on, off)


def test_a_side_result_kept_once_still_has_its_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> float:
        x, w = _ones((2, 3)), _ones((3, 2), True)
        kept = None
        for i in range(6):
            aux = paddle.sin(w)  # not part of the loss: dropped in most steps
            if i == 5:
                kept = aux
            del aux
            paddle.matmul(x, w).sum().backward()
            w.clear_grad()
        kept.sum().backward()  # its graph never ran
        return float(w.grad.sum())

    on, off, _ = _both(monkeypatch, script)
    assert on == off == pytest.approx(6 * np.cos(1.0))


def test_another_leaf_on_the_same_array_gets_its_own_gradient(monkeypatch: pytest.MonkeyPatch) -> None:
    def script() -> list[Any]:
        x, w = _ones((2, 3)), _ones((3, 2), True)
        out = []
        for i in range(6):
            a = w if i < 5 else paddle.to_tensor(w._value, stop_gradient=False)  # shares w's array
            (paddle.matmul(x, w) * paddle.matmul(x, a)).sum().backward()
            out.append((float(w.grad.sum()), None if a.grad is None else float(a.grad.sum())))
            w.clear_grad()
            a.clear_grad()
        return out

    on, off, _ = _both(monkeypatch, script)
    assert on == off and on[-1] == (36.0, 36.0)


def test_writes_from_another_thread_mid_step(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    def script() -> list[Any]:
        x, w, v = _ones((2, 3)), _ones((3, 2), True), _ones((2, 2), True)
        opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[v])
        out = []
        for i in range(7):
            loss = paddle.matmul(paddle.matmul(x, w), v).sum()
            if i == 5:  # an update that rebinds v: this step keeps the value it read
                v.grad = paddle.to_tensor(np.ones((2, 2)))
                th = threading.Thread(target=opt.step)
                th.start()
                th.join()
                loss.register_hook(lambda g: g)
            if i == 6:  # an in-place write: backward refuses the saved value
                th = threading.Thread(target=lambda: v.set_value(np.zeros((2, 2))))
                th.start()
                th.join()
                with pytest.raises(RuntimeError, match="modified by an inplace operation"):
                    loss.backward()
                break
            loss.backward()
            out.append(float(w.grad.sum()))
            w.clear_grad()
            v.clear_grad()
        return out

    on, off, _ = _both(monkeypatch, script)
    assert on == off


def test_copies_of_replayed_tensors_and_cleared_grads_read_inside_jit() -> None:
    import copy

    x, w = _ones((2, 3)), _ones((3, 2), True)
    before = _replay.STATS["steps"]
    for _ in range(5):
        y = paddle.matmul(x, w)
        y.sum().backward()
    assert _replay.STATS["steps"] - before >= 1
    np.testing.assert_allclose(copy.deepcopy(y).numpy(), 3 * np.ones((2, 2)))
    w.clear_grad()
    other = _ones((3, 2), True)
    other.sum().backward()
    other.clear_grad()
    inside = jax.jit(lambda a: a + w.grad._value)(jnp.ones((3, 2)))  # a cleared grad read while tracing
    np.testing.assert_allclose(np.asarray(inside), np.ones((3, 2)))
    np.testing.assert_allclose(other.grad.numpy(), np.zeros((3, 2)))  # the zeros made then are not kept


def test_a_step_left_halfway_in_a_thread_that_ends_keeps_nothing_alive() -> None:
    refs: dict[str, Any] = {}

    def worker() -> None:
        x, params = _tensors()
        for _ in range(5):
            _forward(x, params).mean().backward()
            for p in params:
                p.clear_grad()
        h = _forward(x, params)  # a forward that follows the note, and no backward
        float(h.mean())
        refs["h"], refs["w"] = weakref.ref(h), weakref.ref(params[0])

    before = _replay.STATS["steps"]
    t = threading.Thread(target=worker)
    t.start()
    t.join()
    gc.collect()
    assert _replay.STATS["steps"] - before >= 3
    assert refs["h"]() is None and refs["w"]() is None


class _Unorderable:
    """An attribute value whose comparison raises (as a multi-element array's truth value does)."""

    def __hash__(self) -> int:
        return 7

    def __eq__(self, other: object) -> bool:
        raise ValueError("the truth value of this attribute is ambiguous")


def test_an_op_whose_attributes_cannot_be_compared_leaves_the_note_and_runs_normally() -> None:
    # the noted key of ``paddle.sum(h, axis=1)`` (an attribute) is made to hold a value whose comparison raises: the
    # replayed step takes the op as not the noted one (no error), leaves its note and computes what jax.grad computes
    x_np = np.random.default_rng(3).standard_normal((4, 3))
    w_np = np.random.default_rng(4).standard_normal((3, 2))
    x, w = paddle.to_tensor(x_np), paddle.to_tensor(w_np, stop_gradient=False)
    ref = np.asarray(jax.grad(lambda v: jnp.mean(jnp.sum(jnp.tanh(jnp.asarray(x_np) @ v), axis=1)))(jnp.asarray(w_np)))

    def step() -> None:
        paddle.sum(paddle.tanh(paddle.matmul(x, w)), axis=1).mean().backward()
        np.testing.assert_allclose(w.grad.numpy(), ref, rtol=1e-12)
        w.clear_grad()

    for _ in range(3):
        step()
    plan = _replay.st.plan
    summed = [ev for ev in plan.events if ev.key[1] or ev.key[2]]  # the op with an attribute
    assert len(summed) == 1
    key = summed[0].key
    assert _replay._same_key(key, key)
    summed[0].key = (key[0], tuple(_Unorderable() for _ in key[1]), tuple((k, _Unorderable()) for k, _ in key[2]),
                     key[3])
    assert not _replay._same_key(summed[0].key, key)
    before = dict(_replay.STATS)
    step()
    assert _replay.STATS["materialised"] == before["materialised"] + 1  # it left the note at that op
    assert _replay.STATS["steps"] == before["steps"]
    for _ in range(3):  # noted afresh, then replayed again
        step()
    assert _replay.STATS["steps"] > before["steps"]
