"""``paddle.nn.utils``: clipping gradients in place and parameters to a vector and back.

Recorded from Paddle 3.3.1 (``x = [3, 4]``, gradient of ``sum(x * x)`` = ``[6, 8]``, ``max_norm`` 5): the returned
norm and the clipped gradient are 10 -> [3, 4] (norm_type 2), 14 -> [2.142857, 2.857143] (1), 8 -> [3.75, 5] (inf),
1 -> [6, 8] (0: the number of non-zero gradients' norms); ``clip_grad_value_(x, 7)`` gives [6, 7] and returns None;
no gradient at all gives the norm 0.0 (float32); a float64 gradient a float64 norm. Oracle besides: numpy's norms
and the scale ``min(max_norm / (norm + 1e-6), 1)``; the SGD step after clipping applies the clipped gradient."""

from __future__ import annotations

import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax.nn import utils

PADDLE = {2: (10.0, [3.0, 4.0]), 1: (14.0, [2.142857, 2.857143]), float("inf"): (8.0, [3.75, 5.0]),
          0: (1.0, [6.0, 8.0])}


def _x(dtype: str = "float32") -> paddle.Tensor:
    x = paddle.to_tensor([3.0, 4.0], dtype=dtype, stop_gradient=False)
    (x * x).sum().backward()
    return x


@pytest.mark.parametrize("norm_type", list(PADDLE))
def test_clip_grad_norm_as_paddle(norm_type: float) -> None:
    x = _x()
    total = utils.clip_grad_norm_(x, 5.0, norm_type=norm_type)
    want_norm, want_grad = PADDLE[norm_type]
    assert total.shape == [] and total.dtype == paddle.float32
    np.testing.assert_allclose(total.numpy(), want_norm, rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), want_grad, rtol=1e-5)


def test_clip_grad_norm_over_several_parameters_is_what_the_optimizer_applies() -> None:
    rng = np.random.default_rng(0)
    lin = paddle.nn.Linear(4, 3)
    x = paddle.to_tensor(rng.standard_normal((8, 4)).astype(np.float32))
    (lin(x) ** 2).mean().backward()
    grads = [p.grad.numpy().astype(np.float64) for p in lin.parameters()]
    before = [p.numpy() for p in lin.parameters()]
    total = utils.clip_grad_norm_(lin.parameters(), 0.1)
    norm = np.sqrt(sum((g ** 2).sum() for g in grads))
    np.testing.assert_allclose(total.numpy(), norm, rtol=1e-5)
    scale = min(0.1 / (norm + 1e-6), 1.0)
    assert scale < 1
    paddle.optimizer.SGD(1.0, parameters=lin.parameters()).step()
    for p, b, g in zip(lin.parameters(), before, grads):
        np.testing.assert_allclose(p.numpy(), b - g * scale, rtol=1e-5, atol=1e-7)


def test_clip_grad_norm_edge_cases() -> None:
    z = utils.clip_grad_norm_([paddle.to_tensor([1.0], stop_gradient=False)], 1.0)
    assert z.shape == [] and z.dtype == paddle.float32 and float(z) == 0.0
    assert utils.clip_grad_norm_(_x("float64"), 1.0).dtype == paddle.float64
    gen = (p for p in [_x()])  # a generator: read once, clipped all the same
    utils.clip_grad_norm_(gen, 5.0)
    x = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    (x * float("nan")).sum().backward()
    with pytest.raises(RuntimeError, match="clip_grad_norm_: the total 2.0 norm of the gradients is nan"):
        utils.clip_grad_norm_(x, 5.0, error_if_nonfinite=True)
    with pytest.raises(ValueError, match="clip_grad_norm_: norm_type must be one of inf, 0, 1 or 2, but received 3"):
        utils.clip_grad_norm_(_x(), 1.0, norm_type=3)
    with pytest.raises(TypeError, match="clip_grad_norm_: parameters must be a Tensor or an iterable"):
        utils.clip_grad_norm_(3.0, 1.0)


def test_clip_grad_value_as_paddle() -> None:
    x = _x()
    assert utils.clip_grad_value_(x, 7.0) is None
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 7.0])
    y = paddle.to_tensor([1.0], stop_gradient=False)  # no gradient: left alone
    utils.clip_grad_value_([x, y], 1.0)
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0])
    assert y.grad is None


def test_parameters_to_vector_and_back() -> None:
    """Recorded from Paddle 3.3.1: a Linear(2, 2)'s vector has shape [6], float32, stop_gradient False, a leaf;
    ``vector_to_parameters(arange(6))`` gives weight [[0, 1], [2, 3]] and bias [4, 5]; a longer vector's extra
    elements are not used; a shorter one raises ValueError."""
    lin = paddle.nn.Linear(2, 2)
    v = utils.parameters_to_vector(lin.parameters())
    assert v.shape == [6] and v.dtype == paddle.float32 and not v.stop_gradient and v.is_leaf
    np.testing.assert_array_equal(v.numpy(), np.concatenate([lin.weight.numpy().ravel(), lin.bias.numpy()]))
    d = lin.weight.detach()
    utils.vector_to_parameters(paddle.arange(8, dtype="float32"), lin.parameters())
    np.testing.assert_array_equal(lin.weight.numpy(), [[0.0, 1.0], [2.0, 3.0]])
    np.testing.assert_array_equal(lin.bias.numpy(), [4.0, 5.0])
    np.testing.assert_array_equal(d.numpy(), lin.weight.numpy())  # (a view of the weight sees its new values)
    assert lin.weight.is_leaf and not lin.weight.stop_gradient  # (still a parameter that trains)
    utils.vector_to_parameters(paddle.arange(6, dtype="float64"), lin.parameters())
    assert lin.weight.dtype == paddle.float32  # (Paddle's would become float64)
    with pytest.raises(ValueError, match="vector_to_parameters: the parameters have 6 elements in all, but vec has "
                                         "only 3"):
        utils.vector_to_parameters(paddle.arange(3, dtype="float32"), lin.parameters())
    with pytest.raises(ValueError, match="vector_to_parameters: vec must be 1-D, but has shape \\[2, 3\\]"):
        utils.vector_to_parameters(paddle.ones([2, 3]), lin.parameters())
    with pytest.raises(ValueError, match="parameters_to_vector: parameters is empty"):
        utils.parameters_to_vector([])
