"""check_pylayer: a right backward passes, a wrong one is reported."""

from __future__ import annotations

import numpy as np
import pytest
from pylayer_support import CusTanh

import pylayer_jax as paddle
from pylayer_jax.autograd import PyLayer, check_pylayer


class Tanh(CusTanh):
    """The shared tanh PyLayer under the name the messages below check."""


class WrongTanh(Tanh):
    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy * (1 - y)  # forgot the square


class MulAdd(PyLayer):
    @staticmethod
    def forward(ctx, a, k, pair):
        ctx.save_for_backward(a, pair[0], pair[1])
        return a * pair[0] * k, a + pair[1]

    @staticmethod
    def backward(ctx, g1, g2):
        a, b, c = ctx.saved_tensor()
        return g1 * b * 2.0 + g2, [g1 * a * 2.0, g2]


class NumpyForward(PyLayer):
    """forward is not traceable (it uses .numpy()): only finite differences apply."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return paddle.to_tensor(np.sin(x.numpy()))

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensor()
        return g * paddle.cos(x)


def x64(*shape, seed=0):
    return paddle.to_tensor(np.random.default_rng(seed).standard_normal(shape))


def test_right_backward_passes():
    errs = check_pylayer(Tanh, x64(3, 2))
    assert errs["autodiff"][0] < 1e-12 and errs["finite_difference"][0] < 1e-6


def test_multiple_slots_and_non_tensor_args():
    errs = check_pylayer(MulAdd, x64(3), 2.0, [x64(3, seed=1), x64(3, seed=2)])
    assert len(errs["autodiff"]) == 2 and max(errs["autodiff"]) < 1e-12
    assert max(errs["finite_difference"]) < 1e-6


def test_untraceable_forward_uses_finite_differences_only():
    errs = check_pylayer(NumpyForward, x64(4))
    assert errs["autodiff"] == [None] and errs["finite_difference"][0] < 1e-6


def test_wrong_backward_is_reported():
    with pytest.raises(AssertionError, match=r"backward of WrongTanh disagrees with its forward(.|\n)*slot 0"):
        check_pylayer(WrongTanh, x64(3, 2))


def test_float32_inputs():
    x = paddle.to_tensor(np.array([0.3, -0.2, 1.5], np.float32))
    errs = check_pylayer(Tanh, x)
    assert errs["finite_difference"][0] < 2e-2
    with pytest.raises(AssertionError, match="WrongTanh"):
        check_pylayer(WrongTanh, x)


def test_no_tensor_argument():
    with pytest.raises(ValueError, match="check_pylayer: Tanh was given no Tensor argument"):
        check_pylayer(Tanh, 3.0)
