"""Gradients through ``paddle.static.nn.while_loop``: in a static program (``gradients``,
``append_backward``) and under a JAX trace (``jax.grad``), against ``jax.grad`` of the same loop
unrolled in Python. Paddle 3.3.1 differentiates a static while_loop whose trip count is fed at run
time (its float results have ``stop_gradient=False``); so does this one.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

XV = np.array([0.3, -0.5, 1.2])
WV = np.array([0.9, 1.1, -0.7])


def _py_loss(x, w, n):
    s = x
    for _ in range(n):
        s = jnp.sin(s) * w + s * s * 0.1
    return jnp.sum(s * s)


@pytest.fixture
def static_mode():
    paddle.enable_static()
    try:
        yield
    finally:
        paddle.disable_static()


def _program(dtype):
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [3], dtype)
        x.stop_gradient = False
        w = paddle.static.data("w", [3], dtype)
        w.stop_gradient = False
        n = paddle.static.data("n", [1], "int64")
        i2, s2 = paddle.static.nn.while_loop(lambda i, s: i < n, lambda i, s: [i + 1, paddle.sin(s) * w + s * s * 0.1],
                                             [paddle.full([1], 0, "int64"), x])
        loss = paddle.sum(s2 * s2)
        gx, gw = paddle.static.gradients([loss], [x, w])
    return main, (x, w, i2, s2, loss, gx, gw)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_static_gradients_through_while_loop_with_a_fed_trip_count(static_mode, dtype) -> None:
    main, (x, w, i2, s2, loss, gx, gw) = _program(dtype)
    assert not s2.stop_gradient and i2.stop_gradient  # as in Paddle: the float result carries a gradient
    exe = paddle.static.Executor()
    tol = {"float32": 2e-5, "float64": 1e-12}[dtype]
    for nv in (0, 1, 4):
        got = exe.run(main, feed={"x": XV.astype(dtype), "w": WV.astype(dtype), "n": np.array([nv], np.int64)},
                      fetch_list=[i2, loss, gx, gw])
        want_gx, want_gw = jax.grad(_py_loss, argnums=(0, 1))(jnp.asarray(XV), jnp.asarray(WV), nv)
        assert got[0].tolist() == [nv]
        np.testing.assert_allclose(got[1], _py_loss(XV, WV, nv), rtol=tol)
        np.testing.assert_allclose(got[2], want_gx, rtol=tol, atol=tol)
        np.testing.assert_allclose(got[3], want_gw, rtol=tol, atol=tol)
        assert got[2].dtype == dtype


def test_append_backward_through_nested_while_loops(static_mode) -> None:
    # an outer loop of 2 trips around an inner loop of 3 trips whose counter is reset each outer trip
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [3], "float64")
        x.stop_gradient = False
        w = paddle.static.data("w", [3], "float64")
        w.stop_gradient = False
        two, three = paddle.full([1], 2, "int64"), paddle.full([1], 3, "int64")

        def outer(i, s):
            _, s = paddle.static.nn.while_loop(lambda j, t: j < three, lambda j, t: [j + 1, paddle.tanh(t * w) + t],
                                               [paddle.full([1], 0, "int64"), s])
            return [i + 1, s * s]

        _, out = paddle.static.nn.while_loop(lambda i, s: i < two, outer, [paddle.full([1], 0, "int64"), x])
        loss = paddle.sum(out)
        pairs = paddle.static.append_backward(loss, [x, w])
    assert [p.name for p, _ in pairs] == ["x", "w"]
    got = paddle.static.Executor().run(main, feed={"x": XV * 0.3, "w": WV}, fetch_list=[loss, *(g for _, g in pairs)])

    def ref(x, w):
        s = x
        for _ in range(2):
            for _ in range(3):
                s = jnp.tanh(s * w) + s
            s = s * s
        return jnp.sum(s)

    np.testing.assert_allclose(got[0], ref(XV * 0.3, WV), rtol=1e-12)
    for g, want in zip(got[1:], jax.grad(ref, argnums=(0, 1))(jnp.asarray(XV * 0.3), jnp.asarray(WV))):
        np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-14)


def test_loop_results_stop_gradient_when_nothing_trains(static_mode) -> None:
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [3], "float32")  # stop_gradient=True: no gradient anywhere
        _, s2 = paddle.static.nn.while_loop(lambda i, s: i < 2, lambda i, s: [i + 1, s * 2.0],
                                            [paddle.full([1], 0, "int64"), x])
    assert s2.stop_gradient


def test_jax_grad_through_a_traced_while_loop_reads_closed_over_values() -> None:
    # the trip count depends on the data (the loop runs while the sum stays below 3.5, 4 trips): jax.grad goes through
    def f(x, w):
        tw = paddle.Tensor(w)

        def body(i, s):
            return [i + 1, paddle.sin(s) * tw + s * s * 0.1 + 0.5]

        _, s = paddle.static.nn.while_loop(lambda i, s: paddle.sum(s) < 3.5, body,
                                           [paddle.Tensor(jnp.zeros((), jnp.int64)), paddle.Tensor(x)])
        return jnp.sum(s._value ** 2)

    trips, sv = 0, XV
    while sv.sum() < 3.5:  # the trip count, found in numpy; the reference unrolls that many trips
        sv, trips = np.sin(sv) * WV + sv * sv * 0.1 + 0.5, trips + 1
    assert trips == 4

    def ref(x, w):
        s = x
        for _ in range(trips):
            s = jnp.sin(s) * w + s * s * 0.1 + 0.5
        return jnp.sum(s ** 2)

    got = jax.jit(jax.grad(f, argnums=(0, 1)))(jnp.asarray(XV), jnp.asarray(WV))
    want = jax.grad(ref, argnums=(0, 1))(jnp.asarray(XV), jnp.asarray(WV))
    for g, wv in zip(got, want):
        np.testing.assert_allclose(g, wv, rtol=1e-12)
