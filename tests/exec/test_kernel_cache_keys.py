"""Kernel caches tell apart attribute values that Python's ``==`` confuses: ``-0.0`` and ``0.0``,
``1`` and ``True``, and NaN (equal to itself as a key, so it compiles once)."""

from __future__ import annotations

import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax._ops import table
from pylayer_jax._runtime import kernel_cache
from pylayer_jax._runtime.exact_key import exact, plain
from pylayer_jax.autograd import PyLayer


def _sign(t):  # noqa: ANN001, ANN202
    return np.signbit(t.numpy())


ZERO_CASES = {
    "full": (lambda c: paddle.full([3], c), lambda c: np.full(3, c, "float32")),
    "full_like": (lambda c: paddle.full_like(paddle.ones([3]), c), lambda c: np.full(3, c, "float32")),
    "rsub": (lambda c: c - paddle.zeros([3]), lambda c: np.float32(c) - np.zeros(3, "float32")),
    "scale_neg": (lambda c: paddle.scale(paddle.zeros([3]), scale=-1.0, bias=c),
                  lambda c: np.float32(c) - np.zeros(3, "float32")),
}


@pytest.mark.parametrize("first", [0.0, -0.0])
@pytest.mark.parametrize("case", sorted(ZERO_CASES))
def test_signed_zero_attribute_gets_its_own_kernel(case, first):
    ours, numpy = ZERO_CASES[case]
    for c in (first, -first, first):  # the second call must not reuse the kernel the first compiled
        np.testing.assert_array_equal(_sign(ours(c)), np.signbit(numpy(c)))


def test_signed_zero_nested_in_a_tuple_attribute():
    class Sub(PyLayer):
        @staticmethod
        def forward(ctx, x, c):  # noqa: ANN001, ANN205
            return c[0][0] - x * 0

        @staticmethod
        def backward(ctx, g):  # noqa: ANN001, ANN205
            return -g

    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    for c in (0.0, -0.0, 0.0):
        np.testing.assert_array_equal(_sign(Sub.apply(x, [(c,)])), np.signbit(np.float32(c) - np.zeros(2, "float32")))


def test_to_static_signed_zero_argument_is_its_own_program():
    traces = []

    def f(x, c):  # noqa: ANN001, ANN202
        traces.append(c)
        return c[0] - x * 0

    g = paddle.jit.to_static(f)
    x = paddle.to_tensor([1.0, 2.0])
    for c in (0.0, -0.0, 0.0, -0.0):
        np.testing.assert_array_equal(_sign(g(x, (c,))), np.signbit(np.float32(c) - np.zeros(2, "float32")))
    assert len(traces) == 2


def test_bool_and_int_attributes_are_different_kernels():
    # Paddle: full with a bool fill value is a bool tensor, with an int one the default float dtype
    for fill in (True, 1, 1.0, True):
        t = paddle.full([2], fill)
        assert t.dtype == (paddle.bool if fill is True else paddle.float32), fill
        np.testing.assert_array_equal(t.numpy(), np.full(2, fill))


def test_nan_attribute_compiles_once(monkeypatch):
    op = table.TABLE["full"]
    monkeypatch.setattr(op, "_fwd", kernel_cache.KernelCache())
    for _ in range(4):
        t = paddle.full([2], float("nan"))  # a new NaN object each call
        assert np.isnan(t.numpy()).all()
    assert len(op._fwd) == 1


def test_to_static_nan_argument_traces_once():
    traces = []

    def f(x, c):  # noqa: ANN001, ANN202
        traces.append(c)
        return x + c

    g = paddle.jit.to_static(f)
    x = paddle.to_tensor([1.0, 2.0])
    for _ in range(3):
        assert np.isnan(g(x, float("nan")).numpy()).all()
    assert len(traces) == 1


def test_static_program_keeps_signed_zeros():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [3], "float32")
            outs = [paddle.full([3], 0.0), paddle.full([3], -0.0), 0.0 - x, -0.0 - x]
        exe = paddle.static.Executor()
        exe.run(startup)
        res = exe.run(main, feed={"x": np.zeros(3, "float32")}, fetch_list=outs)
    finally:
        paddle.disable_static()
    want = [np.full(3, 0.0), np.full(3, -0.0), np.float32(0.0) - np.zeros(3), np.float32(-0.0) - np.zeros(3)]
    for r, w in zip(res, want):
        np.testing.assert_array_equal(np.signbit(r), np.signbit(w))


def test_exact_keys_compare_by_type_and_bits():
    assert exact(-0.0) != exact(0.0) and exact(1.0) != 1 and exact(True) != 1 and exact(True) != exact(1.0)
    assert exact(float("nan")) == exact(float("nan"))
    assert hash(exact(float("nan"))) == hash(exact(float("nan")))
    assert exact(complex(0.0, -0.0)) != exact(complex(0.0, 0.0))
    assert exact(2.5) == 2.5 and exact(3) == 3  # values ``==`` keeps apart stay plain
    key = ((exact(-0.0), (exact(True), 2)), exact(float("nan")))
    back = plain(key)
    assert np.signbit(back[0][0]) and back[0][1][0] is True and back[0][1][1] == 2 and np.isnan(back[1])


def test_whole_floats_and_signed_zeros_are_one_key_object_each():
    # the same object each call: a kernel lookup meets it by identity (``1 - x`` is ``scale(x, -1.0, 1)``)
    assert exact(-1.0) is exact(-1.0) and exact(0.0) is exact(0.0) and exact(-0.0) is exact(-0.0)
    assert exact(-0.0) is not exact(0.0) and np.signbit(plain(exact(-0.0))) and not np.signbit(plain(exact(0.0)))
    assert exact(1.0) != exact(1) and exact(1.0) != exact(True) and plain(exact(4.0)) == 4.0
    assert type(plain(exact(4.0))) is float
