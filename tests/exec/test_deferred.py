"""Deferred execution: ops are recorded and run together; a repeated step is one compiled program.

Oracles: jax.grad of the same computation, numpy, and the one-call-at-a-time mode
(``_lazy.ENABLED = False``) for the same code.
"""

from __future__ import annotations

import threading

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pylayer_support import CusTanh

import pylayer_jax as paddle
from pylayer_jax._exec import deferred as _lazy
from pylayer_jax._exec.deferred import Pending


def _mlp_params(seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) * 0.3 for s in [(4, 6), (6,), (6, 3), (3,)]]


def _loss_jax(ps: list, x: jax.Array) -> jax.Array:
    w1, b1, w2, b2 = ps
    return jnp.mean(jnp.tanh(x @ w1 + b1) @ w2 + b2)


def _train_ours(steps: int, opt_cls: type, **kw: float) -> list[np.ndarray]:
    x = paddle.to_tensor(np.random.default_rng(1).standard_normal((5, 4)))
    params = [paddle.to_tensor(p, stop_gradient=False) for p in _mlp_params()]
    opt = opt_cls(parameters=params, **kw)
    for _ in range(steps):
        w1, b1, w2, b2 = params
        loss = paddle.mean(paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2)
        loss.backward()
        opt.step()
        opt.clear_grad()
    return [p.numpy() for p in params]


def test_sgd_loop_runs_as_compiled_programs_and_matches_jax_grad() -> None:
    before = dict(_lazy.STATS)
    got = _train_ours(12, paddle.optimizer.SGD, learning_rate=0.1)
    assert _lazy.STATS["programs"] - before["programs"] >= 8  # steps after the warm-up run as one program each
    x = jnp.asarray(np.random.default_rng(1).standard_normal((5, 4)))
    ps = [jnp.asarray(p) for p in _mlp_params()]
    g = jax.grad(_loss_jax)
    for _ in range(12):
        ps = [p - 0.1 * d for p, d in zip(ps, g(ps, x))]
    for a, b in zip(got, ps):
        np.testing.assert_allclose(a, np.asarray(b), rtol=1e-12, atol=1e-12)


def test_compiled_and_one_by_one_runs_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    fused = _train_ours(8, paddle.optimizer.Adam, learning_rate=0.05)
    monkeypatch.setattr(_lazy, "ENABLED", False)
    eager = _train_ours(8, paddle.optimizer.Adam, learning_rate=0.05)
    for a, b in zip(fused, eager):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_pylayer_step_repeated_accumulates_like_jax() -> None:
    xv = np.random.default_rng(2).standard_normal((2, 3))
    x = paddle.to_tensor(xv, stop_gradient=False)
    before = _lazy.STATS["programs"]
    for _ in range(6):
        CusTanh.apply(x).mean().backward()
    assert _lazy.STATS["programs"] > before
    want = 6 * jax.grad(lambda v: jnp.mean(jnp.tanh(v)))(jnp.asarray(xv))
    np.testing.assert_allclose(x.grad.numpy(), np.asarray(want), rtol=1e-12)


def test_shape_and_dtype_are_known_before_the_run() -> None:
    _lazy.flush()
    x = paddle.to_tensor(np.ones((3, 4), np.float32), stop_gradient=False)
    y = paddle.matmul(x, paddle.ones([4, 2])).sum(axis=0)
    assert type(y._v) is Pending
    assert y.shape == [2] and y.dtype == paddle.float32 and y.ndim == 1
    assert type(y._v) is Pending  # reading metadata ran nothing
    np.testing.assert_allclose(y.numpy(), np.full(2, 12.0))
    assert type(y._v) is not Pending


def test_results_nobody_holds_are_not_computed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_lazy, "FUSE_AFTER", 10**9)  # call by call, so the calls run can be counted
    monkeypatch.setattr(_lazy, "FUSE_FIRST_CALLS", 10**9)
    _lazy.flush()
    x = paddle.to_tensor(np.arange(6.0).reshape(2, 3), stop_gradient=False)
    with paddle.no_grad():
        for _ in range(5):
            paddle.exp(x)  # dropped at once
        z = x * 2
    before = _lazy.STATS["calls_run"]
    np.testing.assert_allclose(z.numpy(), np.arange(6.0).reshape(2, 3) * 2)
    assert _lazy.STATS["calls_run"] - before == 1


def test_shape_errors_raise_at_the_call_and_leave_the_buffer_usable() -> None:
    _lazy.flush()
    a, b = paddle.to_tensor(np.ones((2, 3)), stop_gradient=False), paddle.to_tensor(np.ones((4, 5)))
    with pytest.raises(ValueError, match="matmul: the inputs .*dot_general requires contracting dimensions"):
        paddle.matmul(a, b)
    y = paddle.tanh(a * 0.5)
    assert type(y._v) is Pending
    np.testing.assert_allclose(y.numpy(), np.tanh(np.full((2, 3), 0.5)))


def test_long_chains_without_reads_run_in_pieces() -> None:
    x = paddle.to_tensor(0.0)
    for _ in range(_lazy.MAX_CALLS * 2 + 7):
        x = x + 1
    assert x.item() == _lazy.MAX_CALLS * 2 + 7


def test_a_tensor_from_another_thread_is_computed_when_read() -> None:
    box: list = []

    def work() -> None:
        box.append(paddle.to_tensor([1.0, 2.0], stop_gradient=False) * 3)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert type(box[0]._v) is Pending
    np.testing.assert_allclose(box[0].numpy(), [3.0, 6.0])


def test_pending_values_enter_jax_transforms_as_arrays() -> None:
    x = paddle.to_tensor([0.5, 1.0]) * 2
    f = jax.jit(lambda v: jnp.sin(v) + x)  # x closed over: made concrete when traced
    np.testing.assert_allclose(np.asarray(f(jnp.ones(2))), np.sin(1.0) + np.array([1.0, 2.0]), rtol=1e-6)
    y = paddle.to_tensor([1.0, 2.0]) + 1
    np.testing.assert_allclose(np.asarray(jnp.square(y)), [4.0, 9.0])


def _host_failure(v: np.ndarray) -> np.ndarray:
    raise ValueError("device failure")


# a kernel that fails only when it runs, as a device error would
_failing_kernel = jax.jit(lambda v: jax.pure_callback(_host_failure, jax.ShapeDtypeStruct(v.shape, v.dtype), v))


def test_a_failed_run_keeps_what_does_not_depend_on_the_failure() -> None:
    bad = _failing_kernel
    _lazy.flush()
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    good = (w * 2) + 1
    broken = paddle.Tensor(_lazy.call(bad, [(w * 3)._v]))  # fails only when it runs, as a device error would
    later = broken * 2
    with pytest.raises(Exception, match="device failure"):
        later.numpy()
    np.testing.assert_allclose(good.numpy(), [3.0, 5.0])  # same buffer, independent of the failure
    with pytest.raises(RuntimeError, match="deferred computation failed earlier"):
        broken.numpy()


def test_ops_on_constants_with_nothing_recorded_run_at_once() -> None:
    _lazy.flush()
    c = paddle.to_tensor(np.arange(4.0))
    d = paddle.exp(c) + 1  # data preparation: no tensor trains, nothing pending
    assert type(d._v) is not Pending
    w = paddle.to_tensor(np.ones(4), stop_gradient=False)
    e = d * w  # touches a trainable tensor: recorded
    assert type(e._v) is Pending
    f = d * 2  # something is recorded now: joins the buffer
    assert type(f._v) is Pending
    np.testing.assert_allclose(f.numpy(), (np.exp(np.arange(4.0)) + 1) * 2)
    np.testing.assert_allclose(e.numpy(), np.exp(np.arange(4.0)) + 1)


# ---- found in review: reads inside transforms, threads, copies, caches, argument errors ----------
def test_a_deferred_tensor_read_inside_jax_jit_stays_concrete() -> None:
    w = paddle.to_tensor([0.5, 1.0], stop_gradient=False)
    x = w * 2 + 1
    out = jax.jit(lambda v: v + x)(jnp.ones(2))  # x is read while tracing
    np.testing.assert_allclose(np.asarray(out), [3.0, 4.0])
    np.testing.assert_allclose(x.numpy(), [2.0, 3.0])  # and keeps its value, not a tracer


def test_to_static_closing_over_an_updated_parameter() -> None:
    w = paddle.to_tensor(np.ones((3, 3)), stop_gradient=False)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
    x = paddle.to_tensor(np.ones((2, 3)))
    paddle.matmul(x, w).sum().backward()
    opt.step()  # w is now a recorded update
    f = paddle.jit.to_static(lambda v: paddle.matmul(v, w))
    np.testing.assert_allclose(f(x).numpy(), np.full((2, 3), 3 * 0.8))
    np.testing.assert_allclose(w.numpy(), np.full((3, 3), 0.8))  # 1 - 0.1 * 2 (two rows of x)


def test_two_threads_reading_one_deferred_tensor() -> None:
    x = paddle.to_tensor(np.random.default_rng(3).random((200, 200)) * 0.01, stop_gradient=False)
    y = x
    for _ in range(30):
        y = paddle.tanh(paddle.matmul(y, x))
    want = np.asarray(x._value)
    ref = want
    for _ in range(30):
        ref = np.tanh(ref @ want)
    got: list = []
    errors: list = []

    def read() -> None:
        try:
            got.append(y.numpy())
        except Exception as e:  # noqa: BLE001 - collected for the assertion below
            errors.append(e)

    ts = [threading.Thread(target=read) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []
    for g in got:
        np.testing.assert_allclose(g, ref, rtol=1e-10, atol=1e-12)


def test_copies_and_pickles_of_a_deferred_tensor_hold_its_value() -> None:
    import copy
    import pickle

    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
    (w * w).sum().backward()
    opt.step()
    assert type(w._v) is Pending
    np.testing.assert_allclose(copy.deepcopy(w).numpy(), [0.8, 1.6])
    np.testing.assert_allclose(pickle.loads(pickle.dumps(w)).numpy(), [0.8, 1.6])
    np.testing.assert_allclose(w.numpy(), [0.8, 1.6])


def test_finished_models_and_optimizers_are_freed() -> None:
    import gc
    import weakref

    refs = []

    def train_once() -> None:
        w = paddle.to_tensor(np.ones((50, 50)), stop_gradient=False)
        opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=[w])
        for _ in range(4):
            (w * w).sum().backward()
            opt.step()
            opt.clear_grad()
        w.numpy()
        refs.append((weakref.ref(w), weakref.ref(opt)))

    for _ in range(2):
        train_once()
    gc.collect()
    assert [(a() is None, b() is None) for a, b in refs] == [(True, True), (True, True)]


def test_argument_value_errors_still_raise_at_the_op() -> None:
    i = paddle.to_tensor([1, 2, 3], stop_gradient=False) * 1
    paddle.maximum(i, 5)  # records the call once: its signature knows only that 5 is an int
    with pytest.raises(OverflowError):
        paddle.maximum(i, 2**70)
    np.testing.assert_array_equal(paddle.maximum(i, 2).numpy(), [2, 2, 3])


def test_a_compiled_step_takes_new_input_shapes() -> None:
    # a step compiled for one input shape, then fed others (run call by call, then compiled for them)
    params = [paddle.to_tensor(p, stop_gradient=False) for p in _mlp_params()]
    ps = [jnp.asarray(p) for p in _mlp_params()]
    for rows in (5, 5, 5, 5, 7, 7, 2):
        x_np = np.random.default_rng(rows).standard_normal((rows, 4))
        w1, b1, w2, b2 = params
        loss = paddle.mean(paddle.matmul(paddle.tanh(paddle.matmul(paddle.to_tensor(x_np), w1) + b1), w2) + b2)
        loss.backward()
        want = jax.grad(_loss_jax)(ps, jnp.asarray(x_np))
        for p, g in zip(params, want):
            np.testing.assert_allclose(p.grad.numpy(), np.asarray(g), rtol=1e-12, atol=1e-12)
            p.clear_grad()


def test_an_unrecordable_call_leaves_the_buffer_consistent() -> None:
    i = paddle.to_tensor([1, 5, 3], stop_gradient=False) * 1  # something is recorded: later calls are too
    c = paddle.to_tensor([4, 4, 4])  # a concrete input new to the buffer
    with pytest.raises(OverflowError):
        paddle.maximum(c, 2**70)  # not recordable: called at once, and the buffer must not keep c's slot
    r = paddle.maximum(c, i)
    np.testing.assert_array_equal(r.numpy(), [4, 5, 4])


def test_a_call_that_fails_on_a_broken_input_leaves_the_buffer_consistent() -> None:
    _lazy.flush()
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    broken = paddle.Tensor(_lazy.call(_failing_kernel, [(w * 3)._v]))
    with pytest.raises(Exception, match="device failure"):
        broken.numpy()
    p = paddle.to_tensor([0.0, 0.0], stop_gradient=False) * 1  # something is recorded: later calls are too
    c, d = paddle.to_tensor([10.0, 20.0]), paddle.to_tensor([100.0, 200.0])
    with pytest.raises(RuntimeError, match="A deferred computation failed earlier"):
        paddle.add(c, broken)  # c is new to the buffer, then reading broken raises: c must get no slot
    r1, r2 = paddle.add(d, p), paddle.add(c, p)
    np.testing.assert_array_equal(r1.numpy(), [100.0, 200.0])
    np.testing.assert_array_equal(r2.numpy(), [10.0, 20.0])


# ---- Python numbers as inputs of a replayed step's program ---------------------------------------------
def test_a_number_seen_in_two_runs_becomes_a_device_array_of_the_aval_jit_gives_it(monkeypatch):
    monkeypatch.setattr(_lazy, "_NUMBER_ARRAYS", {})
    monkeypatch.setattr(_lazy, "_NUMBERS_SEEN", {})
    nan = float("nan")
    ext = [jnp.ones(2), 0.5, 3, -0.0, 0.0, True, nan]
    first = _lazy._device_numbers(ext)
    assert first is ext  # a first sighting: the numbers stay numbers
    second = _lazy._device_numbers(ext)
    assert second[0] is ext[0] and second[5] is True and second[6] is nan  # arrays, bools and NaN as they are
    for i, want in ((1, jnp.float64), (2, jnp.int64), (3, jnp.float64), (4, jnp.float64)):
        a = second[i]
        assert type(a) is _lazy._ArrayImpl and a.dtype == want and a.weak_type  # what jit makes of the number
        assert a.item() == ext[i]
    assert np.signbit(second[3].item()) and not np.signbit(second[4].item())  # -0.0 and 0.0 kept apart
    assert _lazy._device_numbers(ext)[1] is second[1]  # made once
    second[1].delete()  # as a program donating its inputs would
    again = _lazy._device_numbers(ext)[1]
    assert not again.is_deleted() and again.item() == 0.5


def test_the_number_caches_stay_bounded(monkeypatch):
    monkeypatch.setattr(_lazy, "_NUMBER_ARRAYS", {})
    monkeypatch.setattr(_lazy, "_NUMBERS_SEEN", {})
    monkeypatch.setattr(_lazy, "_MAX_NUMBERS", 4)
    for k in range(10):
        _lazy._device_numbers([float(k)])
        _lazy._device_numbers([float(k)])
        assert len(_lazy._NUMBERS_SEEN) <= 4 and len(_lazy._NUMBER_ARRAYS) <= 4


def test_a_replayed_step_with_constant_numbers_computes_what_immediate_runs_do(monkeypatch):
    def run() -> tuple[list, np.ndarray]:
        w = paddle.to_tensor(np.array([1.0, 2.0, 3.0], np.float32), stop_gradient=False)
        outs = []
        for _ in range(6):
            # a signed zero: its sign must survive as the program's input (-0.0 / w is -0.0 in Paddle; w * -0.0
            # is not: Paddle's scale adds a bias of +0.0)
            y = -0.0 / w
            loss = ((w + 1.5) ** 2).mean() + y.sum()
            loss.backward()
            with paddle.no_grad():
                w.set_value(w - 0.1 * w.grad)
            w.clear_grad()
            outs.append((float(loss), np.signbit(y.numpy()).tolist()))
        return outs, w.numpy()

    monkeypatch.setattr(_lazy, "_NUMBER_ARRAYS", {})
    monkeypatch.setattr(_lazy, "_NUMBERS_SEEN", {})
    got, w = run()
    assert (float, -0.0, "-0.0") in _lazy._NUMBER_ARRAYS  # the later steps passed it as an array
    assert all(signs == [True, True, True] for _, signs in got)
    monkeypatch.setattr(_lazy, "ENABLED", False)
    want, w_want = run()
    np.testing.assert_allclose([v for v, _ in got], [v for v, _ in want], rtol=1e-6)
    np.testing.assert_allclose(w, w_want, rtol=1e-6)


_NEGATIVE = jax.jit(lambda v: (jnp.any(v < 0), jnp.min(v)))


def test_a_value_check_whose_buffer_another_thread_ran_meanwhile_still_raises() -> None:
    # a value check is recorded (``call``), then added to its buffer (``add_check``); a reader in another thread may
    # run the buffer in between: the check must still be made (it was once appended to the ran buffer's emptied
    # lists, shared by all of them, and never made)
    _lazy.flush()
    v = paddle.to_tensor([1.0, -2.0, 3.0], stop_gradient=False) * 1  # deferred
    result = _lazy.call(_NEGATIVE, [v._v])
    buf = result[0].buf
    seen = []

    def fail(r: tuple) -> None:
        seen.append(float(r[1]))
        if bool(r[0]):
            raise ValueError(f"negative value {float(r[1])}")

    reader = threading.Thread(target=buf.run)
    reader.start()
    reader.join()
    assert buf.done
    with pytest.raises(ValueError, match="negative value -2.0"):
        _lazy.add_check(result, fail)
    assert seen == [-2.0]
    assert buf.calls == [] and buf.ext == [] and buf.refs == [] and buf.checks == []  # nothing entered a ran buffer
    # a check added before the run is made by the run, once
    w = paddle.to_tensor([4.0, -5.0], stop_gradient=False) * 1
    r2 = _lazy.call(_NEGATIVE, [w._v])
    _lazy.add_check(r2, fail)
    with pytest.raises(ValueError, match="negative value -5.0"):
        w.numpy()
    assert seen == [-2.0, -5.0]
