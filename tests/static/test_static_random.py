"""Random ops in a static program draw anew at every Executor.run (Paddle 3.3.1: two runs differ, and
``paddle.seed(n)`` before a run repeats it; recorded by tests/record_paddle_static_random.py), from one
compiled program."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import pylayer_jax as paddle

PADDLE = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle_static_random.json").read_text())


@pytest.fixture
def static():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _program():
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [4, 1000], "float32")
        x.stop_gradient = False
        r = paddle.randn([4, 1000])
        u = paddle.rand([4, 1000])
        i = paddle.randint(0, 10, [4, 1000])
        d = paddle.nn.functional.dropout(x, 0.5)
        (g,) = paddle.static.gradients([paddle.sum(d * 3.0)], [x])
    return main, start, (r, u, i, d, g)


def test_runs_draw_anew_repeat_after_seed_and_compile_once(static) -> None:
    main, start, fetches = _program()
    exe = paddle.static.Executor()
    exe.run(start)
    feed = {"x": np.ones((4, 1000), "float32")}
    a = exe.run(main, feed=feed, fetch_list=list(fetches))
    b = exe.run(main, feed=feed, fetch_list=list(fetches))
    for va, vb in zip(a[:4], b[:4]):
        assert not np.array_equal(va, vb)  # Paddle: two runs differ
    paddle.seed(11)
    c = exe.run(main, feed=feed, fetch_list=list(fetches))
    paddle.seed(11)
    d = exe.run(main, feed=feed, fetch_list=list(fetches))
    for vc, vd in zip(c, d):
        np.testing.assert_array_equal(vc, vd)  # Paddle: paddle.seed before a run repeats it
    assert len(main._exe_cache) == 1  # the key is an input: one compiled program for every run
    assert PADDLE["unseeded_two_runs_equal"] is False and PADDLE["paddle_seed_before_run_repeats"] is True


def test_static_draws_have_the_right_statistics_and_dropout_grad_uses_the_forward_mask(static) -> None:
    main, start, fetches = _program()
    exe = paddle.static.Executor()
    exe.run(start)
    r, u, i, d, g = exe.run(main, feed={"x": np.ones((4, 1000), "float32")}, fetch_list=list(fetches))
    assert abs(r.mean()) < 0.05 and abs(r.std() - 1) < 0.05
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.02
    assert i.min() == 0 and i.max() == 9 and i.dtype == np.int64
    kept = d != 0
    assert 0.45 < kept.mean() < 0.55
    np.testing.assert_allclose(d[kept], 2.0)  # upscale_in_train
    np.testing.assert_allclose(g, np.where(kept, 6.0, 0.0))  # the gradient sees the forward's mask


def _pylayer_program(with_random: bool = True):
    def fwd(x):
        if not with_random:
            return x * 2.0
        return paddle.nn.functional.dropout(x, 0.5) + paddle.rand([4, 1000])

    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [4, 1000], "float32")
        x.stop_gradient = False
        y = paddle.static.nn.static_pylayer(fwd, [x], lambda dy: dy * 3.0)
        (g,) = paddle.static.gradients([paddle.sum(y)], [x])
    return main, start, y, g


def test_static_pylayer_forward_draws_anew_at_each_run_and_repeats_after_seed(static) -> None:
    main, start, y, g = _pylayer_program()
    exe = paddle.static.Executor()
    exe.run(start)
    feed = {"x": np.ones((4, 1000), "float32")}
    a, ga = exe.run(main, feed=feed, fetch_list=[y, g])
    b, _ = exe.run(main, feed=feed, fetch_list=[y, g])
    assert not np.array_equal(a, b)  # a new dropout mask and new uniforms at each run
    paddle.seed(5)
    c, _ = exe.run(main, feed=feed, fetch_list=[y, g])
    paddle.seed(5)
    d, _ = exe.run(main, feed=feed, fetch_list=[y, g])
    np.testing.assert_array_equal(c, d)
    assert len(main._exe_cache) == 1  # the key is an input of the one compiled program
    # the draws are right: a dropout of ones is 0 or 2 (upscale_in_train), plus uniforms in [0, 1)
    dropped = a < 1.0
    assert 0.45 < dropped.mean() < 0.55
    u = np.where(dropped, a, a - 2.0)
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.02
    np.testing.assert_allclose(ga, 3.0)  # backward_fn's gradient


def test_static_pylayer_without_random_ops_takes_no_key(static) -> None:
    main, start, y, g = _pylayer_program(with_random=False)
    assert "@rng_key" not in main.global_block().vars
    exe = paddle.static.Executor()
    exe.run(start)
    yv, gv = exe.run(main, feed={"x": np.ones((4, 1000), "float32")}, fetch_list=[y, g])
    np.testing.assert_allclose(yv, 2.0)
    np.testing.assert_allclose(gv, 3.0)


def _random_backward_program(forward_draws: bool):
    def fwd(x):
        return paddle.nn.functional.dropout(x, 0.5) if forward_draws else x * 2.0

    def bwd(dy):
        return paddle.nn.functional.dropout(dy, 0.5) * 3.0

    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [4, 1000], "float32")
        x.stop_gradient = False
        y = paddle.static.nn.static_pylayer(fwd, [x], bwd)
        (g,) = paddle.static.gradients([paddle.sum(y)], [x])
    return main, start, y, g


@pytest.mark.parametrize("forward_draws", [False, True], ids=["backward-only", "forward-and-backward"])
def test_static_pylayer_backward_draws_anew_at_each_run_and_repeats_after_seed(static, forward_draws) -> None:
    main, start, y, g = _random_backward_program(forward_draws)
    assert "@rng_key" in main.global_block().vars
    exe = paddle.static.Executor()
    exe.run(start)
    feed = {"x": np.ones((4, 1000), "float32")}
    ya, ga = exe.run(main, feed=feed, fetch_list=[y, g])
    _, gb = exe.run(main, feed=feed, fetch_list=[y, g])
    assert not np.array_equal(ga, gb)  # backward_fn's dropout draws a new mask at each run
    paddle.seed(9)
    yc, gc = exe.run(main, feed=feed, fetch_list=[y, g])
    paddle.seed(9)
    yd, gd = exe.run(main, feed=feed, fetch_list=[y, g])
    np.testing.assert_array_equal(gc, gd)
    np.testing.assert_array_equal(yc, yd)
    assert len(main._exe_cache) == 1  # the key is an input of the one compiled program
    # the draws are right: the dropout of a gradient of ones, times 3, is 0 or 6 (upscale_in_train)
    assert set(np.unique(ga)) == {0.0, 6.0}
    assert 0.45 < (ga == 0).mean() < 0.55
    if forward_draws:  # forward_fn and backward_fn draw from different keys
        assert set(np.unique(ya)) == {0.0, 2.0}
        assert not np.array_equal(ya == 0, ga == 0)
    else:
        np.testing.assert_allclose(ya, 2.0)
