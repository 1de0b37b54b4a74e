"""Fractional max pooling and the RNN-T loss beyond the recorded Paddle cases (``test_functional_paddle.py`` has
those): values, masks and gradients against the numpy references of ``fractional_rnnt_refs`` over many ``u`` (an
input of the kernel, so one compile per shape), the generator's draw, the layers, and each misuse's exception."""

from __future__ import annotations

import numpy as np
import pytest
from fractional_rnnt_refs import FLT_MAX, fractional_max_pool, rnnt

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax import nn

RNG = np.random.default_rng(11)
US = [0.013, 0.1, 0.25, 0.3, 0.4999, 0.5, 0.61, 0.75, 0.9, 0.987]


def _scatter(shape: tuple, mask: np.ndarray, ct: np.ndarray) -> np.ndarray:
    g = np.zeros((shape[0], shape[1], int(np.prod(shape[2:]))))
    for (b, c, *_), m, v in zip(np.ndindex(mask.shape), mask.ravel(), ct.ravel()):
        if m >= 0:
            g[b, c, m] += v
    return g.reshape(shape)


@pytest.mark.parametrize("fn,shape,out,kernel", [
    (F.fractional_max_pool2d, (1, 2, 9, 7), [4, 5], None),
    (F.fractional_max_pool2d, (2, 1, 8, 8), [3, 4], [3, 2]),  # overlapping regions
    (F.fractional_max_pool3d, (1, 1, 5, 6, 4), [2, 4, 3], None),
    (F.fractional_max_pool3d, (1, 2, 4, 5, 5), [2, 3, 2], 2),
], ids=["2d", "2d-kernel", "3d", "3d-kernel"])
def test_values_masks_and_gradients_match_the_numpy_reference_for_many_u(fn, shape, out, kernel) -> None:
    x_np = RNG.standard_normal(shape)
    x = paddle.to_tensor(x_np)
    for u in US:  # (u is an input of the kernel: one compile for all)
        res, mask = fn(x, out, kernel_size=kernel, random_u=u, return_mask=True)
        want, want_mask = fractional_max_pool(x_np, u, out, kernel)
        np.testing.assert_array_equal(mask.numpy(), want_mask, err_msg=f"u={u}")
        np.testing.assert_array_equal(res.numpy(), want)
        assert str(mask.dtype) == "paddle.int32"
    if fn is F.fractional_max_pool2d and kernel is None:
        return  # (the gradient: checked on the other three, and in the recorded Paddle cases)
    ct = RNG.standard_normal((shape[0], shape[1], *out))
    x.stop_gradient = False
    res = fn(x, out, kernel_size=kernel, random_u=US[-1])  # (want_mask is the last u's)
    (g,) = paddle.grad((res * paddle.to_tensor(ct)).sum(), [x])
    np.testing.assert_allclose(g.numpy(), _scatter(shape, want_mask, ct), rtol=1e-12)


def test_ties_take_the_first_value_in_row_major_order_and_its_whole_gradient() -> None:
    # Paddle 3.3.1: kernel 3 on a 4 x 4 of ones at u=0.5 gives the regions [0, 3) and [1, 4) per dim, and the
    # gradient lands on each region's first element
    x = paddle.ones([1, 1, 4, 4])
    x.stop_gradient = False
    out, mask = F.fractional_max_pool2d(x, 2, kernel_size=3, random_u=0.5, return_mask=True)
    assert mask.numpy().ravel().tolist() == [0, 1, 4, 5]
    out.sum().backward()
    assert x.grad.numpy().ravel().tolist() == [1, 1, 0, 0, 1, 1] + [0] * 10


def test_a_region_without_a_value_above_minus_flt_max_gives_minus_flt_max_and_index_minus_one() -> None:
    # Paddle 3.3.1 (float32 and float64): -inf never beats its start value -FLT_MAX, NaN never compares greater
    for dt in ("float64",):
        y = np.full((1, 1, 4, 4), -np.inf, dt)
        y[0, 0, 0, 0], y[0, 0, 3, 3] = np.nan, 1.0
        x = paddle.to_tensor(y, stop_gradient=False)
        out, mask = F.fractional_max_pool2d(x, 2, random_u=0.5, return_mask=True)
        assert mask.numpy().ravel().tolist() == [-1, -1, -1, 15]
        np.testing.assert_array_equal(out.numpy().ravel(), np.array([-FLT_MAX] * 3 + [1.0], dt))
        (g,) = paddle.grad(out.sum(), [x])
        assert g.numpy().ravel().tolist() == [0.0] * 15 + [1.0]  # index -1 gets no gradient


def test_without_random_u_u_is_drawn_from_the_generator_under_seed() -> None:
    x_np = RNG.standard_normal((1, 2, 9, 9)).astype("float32")
    x = paddle.to_tensor(x_np)
    paddle.seed(123)
    u = float(paddle.rand([]))
    paddle.seed(123)
    got = F.fractional_max_pool2d(x, 4)
    np.testing.assert_array_equal(got.numpy(), fractional_max_pool(x_np, u, [4, 4])[0])
    paddle.seed(123)
    layer = nn.FractionalMaxPool2D(4)
    np.testing.assert_array_equal(layer(x).numpy(), got.numpy())


def test_layers_call_the_functions_and_show_paddles_repr() -> None:
    assert repr(nn.FractionalMaxPool2D(3, random_u=0.3)) == "FractionalMaxPool2D(output_size=3, return_mask=False)"
    layer = nn.FractionalMaxPool3D(output_size=[2, 3, 2], kernel_size=2, random_u=0.3, return_mask=True)
    assert repr(layer) == "FractionalMaxPool3D(output_size=[2, 3, 2], return_mask=True)"
    x = paddle.to_tensor(RNG.standard_normal((1, 1, 4, 5, 4)))
    out, mask = layer(x)
    want, want_mask = fractional_max_pool(x.numpy(), 0.3, [2, 3, 2], 2)
    np.testing.assert_array_equal(out.numpy(), want)
    np.testing.assert_array_equal(mask.numpy(), want_mask)
    assert repr(nn.RNNTLoss()) == "RNNTLoss()"


X4 = paddle.to_tensor(np.zeros((1, 1, 5, 5), "float32"))


@pytest.mark.parametrize("call,exc,match", [
    (lambda: F.fractional_max_pool2d(X4, 3, random_u=0.0), ValueError,
     r"^fractional_max_pool2d: random_u must be a float in \(0, 1\) \(or None for a random draw\), but received 0.0"),
    (lambda: F.fractional_max_pool2d(X4, 3, random_u=1), ValueError, r"random_u must be a float in \(0, 1\).*1\.$"),
    (lambda: F.fractional_max_pool2d(X4, 3, random_u=-0.5), ValueError, r"but received -0.5"),
    (lambda: F.fractional_max_pool2d(X4, 3, random_u=True), ValueError, r"but received True"),
    (lambda: F.fractional_max_pool2d(X4[0], 3, random_u=0.5), ValueError,
     r"^fractional_max_pool2d: the input must be 4-D .* but it has shape \[1, 5, 5\]"),
    (lambda: F.fractional_max_pool3d(X4, 3, random_u=0.5), ValueError,
     r"^fractional_max_pool3d: the input must be 5-D"),
    (lambda: F.fractional_max_pool2d(X4, [2, 2, 2], random_u=0.5), ValueError,
     r"output_size must be an int or 2 ints \(None keeps that size\), but received \[2, 2, 2\]"),
    (lambda: F.fractional_max_pool2d(X4, [0, 2], random_u=0.5), ValueError,
     r"output_size must hold positive ints, but received \[0, 2\]"),
    (lambda: F.fractional_max_pool2d(X4, 6, random_u=0.5), ValueError,
     r"output_size \[6, 6\] is larger than the input's spatial size \[5, 5\] in dim 0; fractional pooling only "
     r"shrinks"),
    (lambda: F.fractional_max_pool2d(X4, 3, kernel_size=4, random_u=0.5), ValueError,
     r"with kernel_size \[4, 4\], output_size \[3, 3\] needs an input size of at least output_size - 1 \+ "
     r"kernel_size = 6 in spatial dim 0, but it is 5"),
    (lambda: F.fractional_max_pool2d(X4, 2, kernel_size=-1, random_u=0.5), ValueError,
     r"kernel_size must be None, a non-negative int or 2 of them, but received -1"),
    (lambda: F.fractional_max_pool2d(X4, 2, kernel_size=[1, 1, 1], random_u=0.5), ValueError,
     r"kernel_size must be None.*\[1, 1, 1\]"),
    (lambda: F.fractional_max_pool2d(paddle.ones([1, 1, 4, 4], "int64"), 2, random_u=0.5), TypeError,
     r"the input must be a floating tensor .* but received int64"),
    (lambda: F.fractional_max_pool2d(X4, 2, random_u=0.5, return_mask=1), TypeError,
     r"return_mask must be a bool, but received int"),
    (lambda: nn.FractionalMaxPool2D(2, random_u=0.5)(paddle.ones([1, 4, 4])), ValueError,
     r"^FractionalMaxPool2D: the input must be 4-D, but received shape \[1, 4, 4\]"),
])
def test_fractional_pool_misuse_raises(call, exc, match) -> None:
    with pytest.raises(exc, match=match):
        call()


def test_kernel_size_zero_means_disjoint_regions_as_none() -> None:
    x = paddle.to_tensor(RNG.standard_normal((1, 1, 7, 6)))
    a = F.fractional_max_pool2d(x, [3, 4], kernel_size=0, random_u=0.4)
    np.testing.assert_array_equal(a.numpy(), F.fractional_max_pool2d(x, [3, 4], random_u=0.4).numpy())


# ---- rnnt_loss -----------------------------------------------------------------------------------------------------
B, T, U, D = 3, 5, 3, 4
ACTS = RNG.standard_normal((B, T, U + 1, D))
LAB = np.array([[1, 2, 3], [3, 1, 0], [2, 2, 0]], np.int32)
IL = np.array([5, 3, 4], np.int32)
LL = np.array([3, 2, 0], np.int32)


def _loss(acts=ACTS, lab=LAB, il=IL, ll=LL, **kw):
    x = paddle.to_tensor(acts, stop_gradient=False)
    return x, F.rnnt_loss(x, paddle.to_tensor(lab), paddle.to_tensor(il), paddle.to_tensor(ll), **kw)


def test_rnnt_loss_and_gradient_match_the_alpha_beta_reference() -> None:
    blank, lam = 3, 0.7  # (the defaults, blank 0 and lambda 0.001, in the next test)
    lab = np.where(LAB == blank, (blank + 1) % D, LAB).astype(np.int32)
    want, want_g = rnnt(ACTS, lab, IL, LL, blank, lam)
    ct = RNG.standard_normal(B)
    x, loss = _loss(lab=lab, blank=blank, fastemit_lambda=lam, reduction="none")
    np.testing.assert_allclose(loss.numpy(), want, rtol=1e-10)
    (g,) = paddle.grad((loss * paddle.to_tensor(ct)).sum(), [x])
    np.testing.assert_allclose(g.numpy(), want_g * ct[:, None, None, None], rtol=1e-9, atol=1e-12)


def test_rnnt_reductions_sum_and_divide_by_the_batch_size() -> None:
    want, want_g = rnnt(ACTS, LAB, IL, LL)
    for red, scale in (("sum", 1.0), ("mean", 1.0 / B)):
        x, loss = _loss(reduction=red)
        assert loss.shape == []
        np.testing.assert_allclose(float(loss), want.sum() * scale, rtol=1e-10)
        loss.backward()
        np.testing.assert_allclose(x.grad.numpy(), want_g * scale, rtol=1e-9, atol=1e-12)


def test_rnnt_float32_and_the_layer() -> None:
    x = paddle.to_tensor(ACTS.astype("float32"), stop_gradient=False)
    layer = nn.RNNTLoss(blank=3, fastemit_lambda=0.7, reduction="sum")
    lab = np.where(LAB == 3, 0, LAB).astype(np.int32)
    want, want_g = rnnt(ACTS, lab, IL, LL, 3, 0.7)
    loss = layer(x, paddle.to_tensor(lab), paddle.to_tensor(IL), paddle.to_tensor(LL))
    assert loss.dtype == paddle.float32
    np.testing.assert_allclose(float(loss), want.sum(), rtol=1e-5)
    loss.backward()
    np.testing.assert_allclose(x.grad.numpy(), want_g, rtol=1e-4, atol=1e-6)


def _t(a):
    return paddle.to_tensor(a)


@pytest.mark.parametrize("call,exc,match", [
    (lambda: F.rnnt_loss(_t(ACTS[0]), _t(LAB), _t(IL), _t(LL)), ValueError,
     r"^rnnt_loss: input must be a 4-D tensor, but received shape \[5, 4, 4\]"),
    (lambda: F.rnnt_loss(_t(ACTS[:, :, :3]), _t(LAB), _t(IL), _t(LL)), ValueError,
     r"^rnnt_loss: input must be \[batch_size, max_input_length, max_label_length \+ 1, num_classes\] = \[.., .., 4, "
     r"..\] for a label of shape \[3, 3\], but received shape \[3, 5, 3, 4\]"),
    (lambda: F.rnnt_loss(_t(ACTS), _t(LAB[:2]), _t(IL), _t(LL)), ValueError,
     r"label must have batch_size=3 rows \(the batch size of input\), but received shape \[2, 3\]"),
    (lambda: F.rnnt_loss(_t(ACTS), _t(LAB), _t(np.array([6, 3, 4], np.int32)), _t(LL)), ValueError,
     r"^rnnt_loss: input_lengths holds 6, but each length must be in \[1, 5\] \(at least one frame"),
    (lambda: F.rnnt_loss(_t(ACTS), _t(LAB), _t(np.array([5, 0, 4], np.int32)), _t(LL)), ValueError,
     r"input_lengths holds 0, but each length must be in \[1, 5\]"),
    (lambda: F.rnnt_loss(_t(ACTS), _t(LAB), _t(IL), _t(np.array([4, 2, 0], np.int32))), ValueError,
     r"^rnnt_loss: label_lengths holds 4, but each length must be in \[0, 3\]"),
    (lambda: F.rnnt_loss(_t(ACTS), _t(np.array([[1, 7, 2], [1, 2, 3], [1, 1, 1]], np.int32)), _t(IL), _t(LL)),
     ValueError, r"^rnnt_loss: label holds 7, which is not a class index in \[0, 4\)"),
    (lambda: F.rnnt_loss(_t(ACTS), _t(LAB), _t(IL), _t(LL), blank=4), ValueError,
     r"^rnnt_loss: blank must be a class index in \[0, 4\), but received 4"),
    (lambda: F.rnnt_loss(_t(ACTS), _t(LAB), _t(IL), _t(LL), fastemit_lambda=-0.5), RuntimeError,
     r"^rnnt_loss: fastemit_lambda must be a number >= 0, but received -0.5"),
    (lambda: F.rnnt_loss(_t(ACTS), _t(LAB), _t(IL), _t(LL), reduction="avg"), ValueError,
     r"^rnnt_loss: reduction must be 'mean', 'sum' or 'none', but received 'avg'"),
    (lambda: F.rnnt_loss(_t(ACTS), _t(LAB.astype("float32")), _t(IL), _t(LL)), TypeError,
     r"^rnnt_loss: label must be an integer tensor"),
    (lambda: nn.RNNTLoss(reduction="avg"), ValueError, r"RNNTLoss"),
])
def test_rnnt_misuse_raises(call, exc, match) -> None:
    with pytest.raises(exc, match=match):
        call()
