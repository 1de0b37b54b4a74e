"""static.nn.static_pylayer: paddle-behaviour.md section L, items 41-48."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle


@pytest.fixture(autouse=True)
def _static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _doc_program():
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        data = paddle.static.data(name="X", shape=[None, 5], dtype="float32")
        data.stop_gradient = False
        ret = paddle.static.nn.static_pylayer(lambda x: paddle.exp(x), [data], lambda dy: 2 * paddle.exp(dy))
        data_grad = paddle.static.gradients([ret], data)[0]
    return main, start, data, ret, data_grad


# values printed by the documentation example (and by real Paddle 3.3.1)
DOC_X_GRAD = [5.4365635] * 5
DOC_Y = [2.7182817, 7.389056, 20.085537, 54.59815, 148.41316]


@pytest.mark.parametrize("by_name", [True, False])
def test_item41_42_doc_example(by_name):
    main, start, data, ret, data_grad = _doc_program()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    x = np.array([[1.0, 2.0, 3.0, 4.0, 5.0]], dtype=np.float32)
    fetch = [data.name, data_grad.name, ret.name] if by_name else [data, data_grad, ret]
    xo, x_grad, y = exe.run(main, feed={"X": x}, fetch_list=fetch)
    np.testing.assert_array_equal(xo, x)
    np.testing.assert_allclose(x_grad, [DOC_X_GRAD], rtol=1e-7)
    np.testing.assert_allclose(y, [DOC_Y], rtol=1e-6)
    assert x_grad.dtype == y.dtype == np.float32
    assert data_grad.name == "X@GRAD"


def test_item41_doc_example_prints_the_documented_text(capsys):
    main, start, data, ret, data_grad = _doc_program()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    x = np.array([[1.0, 2.0, 3.0, 4.0, 5.0]], dtype=np.float32)
    x, x_grad, y = exe.run(main, feed={"X": x}, fetch_list=[data.name, data_grad.name, ret.name])
    print(x)
    print(x_grad)
    print(y)
    # the documentation's output: verbatim, except that exp is computed in float32 (within one ulp of Paddle's
    # correctly rounded exp, which the last line shows: exp(4) may print 54.598152)
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["[[1. 2. 3. 4. 5.]]", "[[5.4365635 5.4365635 5.4365635 5.4365635 5.4365635]]"]
    printed = np.array(lines[2].strip("[] ").split(), np.float32)
    ulps = np.abs(printed.view(np.int32) - np.array(DOC_Y, np.float32).view(np.int32))
    assert ulps.max() <= 1, (lines[2], ulps)


@pytest.mark.parametrize("batch", [1, 3, 4])
def test_item41_batches(batch):
    main, start, data, ret, data_grad = _doc_program()
    exe = paddle.static.Executor()
    x = np.arange(batch * 5, dtype=np.float32).reshape(batch, 5) / 10
    xo, g, y = exe.run(main, feed={"X": x}, fetch_list=[data, data_grad, ret])
    np.testing.assert_allclose(y, np.exp(x), rtol=1e-6)
    np.testing.assert_allclose(g, np.full((batch, 5), 2 * np.e, np.float32), rtol=1e-6)


def test_variables_have_shapes_dtypes_names():
    main, start, data, ret, data_grad = _doc_program()
    assert data.shape == [-1, 5] and ret.shape == [-1, 5] and data_grad.shape == [-1, 5]
    assert data.dtype == paddle.float32 and ret.dtype == paddle.float32
    assert data.name == "X" and ret.name != data.name and data_grad.name == "X@GRAD"
    assert ret.stop_gradient is False and data.stop_gradient is False


def test_item43_print_shows_forward_and_backward_blocks():
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        data = paddle.static.data(name="X", shape=[None, 5], dtype="float32")
        data.stop_gradient = False
        ret = paddle.static.nn.static_pylayer(paddle.exp, [data], lambda dy: 2 * paddle.exp(dy))
        before = str(main)
        assert main.num_blocks == 2
        paddle.static.gradients([ret], data)
    after = str(main)
    assert "pylayer(X)" in before and "forward_block=1" in before and "exp" in before
    assert "backward_block" not in before
    assert main.num_blocks == 3
    assert "backward_block=2" in after and "grad(" in after and "X@GRAD" in after
    bwd = after[after.index("block 2") :]
    assert "exp" in bwd and "mul" in bwd  # backward_fn's ops: exp, then times 2
    assert "f32[N,5]" in after  # the unknown dimension shown symbolically


def test_item44_multiple_inputs_and_outputs():
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        a = paddle.static.data("a", [None, 3], "float32")
        b = paddle.static.data("b", [None, 3], "float32")
        a.stop_gradient = b.stop_gradient = False
        o1, o2 = paddle.static.nn.static_pylayer(
            lambda a, b: (a * b, a + b), [a, b], lambda g1, g2: (2 * g1 + g2, 3 * g1 + g2)
        )
        loss = paddle.sum(o1) + 5 * paddle.sum(o2)
        ga, gb = paddle.static.gradients([loss], [a, b])
    av = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    bv = av + 1
    r1, r2, rga, rgb = paddle.static.Executor().run(main, feed={"a": av, "b": bv}, fetch_list=[o1, o2, ga, gb])
    np.testing.assert_allclose(r1, av * bv, rtol=1e-6)
    np.testing.assert_allclose(r2, av + bv, rtol=1e-6)
    np.testing.assert_array_equal(rga, np.full((2, 3), 7.0, np.float32))  # Paddle: ga = 7
    np.testing.assert_array_equal(rgb, np.full((2, 3), 8.0, np.float32))  # Paddle: gb = 8


def test_item45_backward_none_requires_stop_gradient_inputs():
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2, 2], "float32")
        x.stop_gradient = False
        with pytest.raises(ValueError, match=r"stop_gradient.*expected to be True.*backward_fn == None.*x has"):
            paddle.static.nn.static_pylayer(paddle.tanh, [x])
        x.stop_gradient = True
        y = paddle.static.nn.static_pylayer(paddle.tanh, [x])
        assert paddle.static.gradients([y], x) == [None]
    xv = np.ones((2, 2), np.float32)
    (yv,) = paddle.static.Executor().run(main, feed={"x": xv}, fetch_list=[y])
    np.testing.assert_allclose(yv, np.tanh(xv), rtol=1e-6)


def _two_input_program(backward_fn):
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        a = paddle.static.data("a", [None, 3], "float32")
        b = paddle.static.data("b", [None, 3], "float32")
        a.stop_gradient = b.stop_gradient = False
        out = paddle.static.nn.static_pylayer(lambda a, b: a * b, [a, b], backward_fn)
    return main, out, a, b


def test_item46_wrong_number_of_grads_at_gradients_time():
    main, out, a, b = _two_input_program(lambda g: g)
    with paddle.static.program_guard(main):
        with pytest.raises(
            ValueError,
            match=r"number of input grads should be equal to the number of inputs, but "
            r"got 1 and 2",
        ):
            paddle.static.gradients([out], [a, b])
        with pytest.raises(ValueError, match=r"got 1 and 2"):
            paddle.static.append_backward(paddle.mean(out), [a, b])


def test_item46_wrong_arity_is_type_error():
    main, out, a, b = _two_input_program(lambda g1, g2: (g1, g2))
    with paddle.static.program_guard(main):
        with pytest.raises(TypeError, match=r"backward_fn must take one gradient per output of forward_fn \(1\)"):
            paddle.static.gradients([out], [a, b])


@pytest.mark.parametrize(
    "bad,what",
    [
        (lambda g: (paddle.sum(g, axis=1), g), r"shape \[-1, 3\] and dtype float32, but it has shape \[-1\]"),
        (
            lambda g: (g.astype("float64"), g),
            r"shape \[-1, 3\] and dtype float32, but it has shape \[-1, 3\] and dtype float64",
        ),
    ],
)
def test_item46_grad_shape_or_dtype_mismatch(bad, what):
    main, out, a, b = _two_input_program(bad)
    with paddle.static.program_guard(main):
        with pytest.raises(ValueError, match=r"gradient for input a must have the input's " + what):
            paddle.static.gradients([out], [a, b])


def test_item47_feed_contradicting_declared_shape():
    main, start, data, ret, data_grad = _doc_program()
    exe = paddle.static.Executor()
    with pytest.raises(ValueError, match=r"feed for 'X' has shape \[4, 6\].*declared shape \[-1, 5\]"):
        exe.run(main, feed={"X": np.ones((4, 6), np.float32)}, fetch_list=[ret])


def test_item48_non_variable_inputs_pass_through_and_inputs_must_be_list():
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 2], "float32")
        x.stop_gradient = False
        y = paddle.static.nn.static_pylayer(lambda x, k: x * k, [x, 3.0], lambda dy: dy * 10.0)
        (g,) = paddle.static.gradients([y], [x])
        with pytest.raises(TypeError, match=r"inputs must be a list of Variables, but received Variable"):
            paddle.static.nn.static_pylayer(paddle.exp, x)
    xv = np.array([[1.0, 2.0]], np.float32)
    yv, gv = paddle.static.Executor().run(main, feed={"x": xv}, fetch_list=[y, g])
    np.testing.assert_allclose(yv, xv * 3)
    np.testing.assert_allclose(gv, np.full_like(xv, 10.0))


def test_forward_returning_none():
    main, start = paddle.static.Program(), paddle.static.Program()
    calls = []
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2], "float32")
        r = paddle.static.nn.static_pylayer(lambda x: calls.append(1), [x])
        assert r is None
        y = paddle.exp(x)
    (yv,) = paddle.static.Executor().run(main, feed={"x": np.zeros(2, np.float32)}, fetch_list=[y])
    np.testing.assert_allclose(yv, [1.0, 1.0])
    assert calls  # traced at build time


def test_static_pylayer_composes_with_ops_and_target_gradients():
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [None, 2], "float32")
        x.stop_gradient = False
        h = paddle.tanh(x)
        y = paddle.static.nn.static_pylayer(lambda h: h * h, [h], lambda dy: dy * 3.0)
        z = paddle.sum(y * 2.0)
        seed = paddle.static.data("seed", [], "float32")
        (g,) = paddle.static.gradients([z], [x], target_gradients=[seed])
    xv = np.array([[0.5, -1.0]], np.float32)
    (gv,) = paddle.static.Executor().run(main, feed={"x": xv, "seed": np.float32(0.5)}, fetch_list=[g])
    # dz/dy = 2 * seed; custom backward: *3; tanh' = 1 - tanh^2
    np.testing.assert_allclose(gv, 0.5 * 2 * 3 * (1 - np.tanh(xv) ** 2), rtol=1e-6)


def test_item48_dynamic_mode_behaves_as_pylayer():
    paddle.disable_static()
    try:
        a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        b = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
        o1, o2 = paddle.static.nn.static_pylayer(
            lambda a, b: (a * b, a + b), [a, b], lambda g1, g2: (2 * g1 + g2, 3 * g1 + g2)
        )
        np.testing.assert_allclose(o1.numpy(), [3.0, 8.0])
        (paddle.sum(o1) + 5 * paddle.sum(o2)).backward()
        np.testing.assert_allclose(a.grad.numpy(), [7.0, 7.0])
        np.testing.assert_allclose(b.grad.numpy(), [8.0, 8.0])
        # only one output used: the other's gradient arrives as zeros
        x = paddle.to_tensor([1.0], stop_gradient=False)
        p, q = paddle.static.nn.static_pylayer(lambda x: (x * 2, x * 3), [x], lambda g1, g2: g1 + 10 * g2)
        p.backward()
        np.testing.assert_allclose(x.grad.numpy(), [1.0])
        with pytest.raises(ValueError, match=r"expected to be True, when ``backward_fn == None``"):
            paddle.static.nn.static_pylayer(paddle.exp, [x])
        y = paddle.static.nn.static_pylayer(paddle.exp, [x], lambda g: (g, g))
        with pytest.raises(ValueError, match=r"number of outputs of `PyLayer.backward` should be 1, but received 2"):
            y.backward()
    finally:
        paddle.enable_static()


def test_dynamic_mode_static_pylayer_under_jax_grad():
    paddle.disable_static()
    try:

        def f(v):
            y = paddle.static.nn.static_pylayer(paddle.exp, [paddle.Tensor(v, False)], lambda g: 2 * g)
            return paddle.sum(y)._value

        np.testing.assert_allclose(jax.grad(f)(jnp.ones(3)), [2.0, 2.0, 2.0])
    finally:
        paddle.enable_static()
