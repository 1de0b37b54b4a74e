"""Writes to the Tensor ``x.grad`` hands out reach ``x``'s gradient, which the optimizer applies: in Paddle ``x.grad``
shares the gradient's memory, so code that edits it (masking, clipping, scaling, noise: ``x.grad.set_value(g)``,
``paddle.assign(g, x.grad)``, ``x.grad[mask] = 0`` or ``x.grad.scale_(0.5)`` under ``no_grad``) trains on the edited
gradient. Here each such write used to give the handed-out Tensor a new array and leave the gradient as it was: the
step silently applied the unedited one.

Recorded from Paddle 3.3.1 (``x = [1, 2, -3]``, ``sum(x * x)``, SGD with learning rate 1): ``set_value``, ``copy_``
and ``assign(g, x.grad)`` of ``[1, 1, 1]`` give ``x = [0, 1, -4]``; ``x.grad.scale_(0.5)`` under ``no_grad`` makes
``x.grad`` ``[1, 2, -3]``. Paddle refuses an in-place op on ``x.grad`` under grad mode (its ``x.grad`` has
stop_gradient=False: "Leaf Var that doesn't stop gradient can't use inplace strategy"); here it edits the gradient
as under ``no_grad``. Oracle otherwise: SGD's rule in numpy on the edited gradient."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import pylayer_jax as paddle

X0 = np.array([1.0, 2.0, -3.0], np.float32)
G0 = 2 * X0  # the gradient of sum(x * x)


def _setitem(g: paddle.Tensor) -> None:
    g[0] = 0.0


def _view_write(g: paddle.Tensor) -> None:
    g[1:].zero_()  # a view of the gradient, written


EDITS: dict[str, tuple[Callable[[paddle.Tensor], object], Callable[[np.ndarray], np.ndarray]]] = {
    "set_value": (lambda g: g.set_value(paddle.to_tensor([1.0, 1.0, 1.0])), lambda g: np.ones_like(g)),
    "copy_": (lambda g: g.copy_(paddle.to_tensor([1.0, 1.0, 1.0]), False), lambda g: np.ones_like(g)),
    "assign": (lambda g: paddle.assign(paddle.to_tensor([1.0, 1.0, 1.0]), g), lambda g: np.ones_like(g)),
    "scale_": (lambda g: g.scale_(0.5), lambda g: g * 0.5),
    "zero_": (lambda g: g.zero_(), lambda g: g * 0),
    "clip_": (lambda g: g.clip_(-1.0, 1.0), lambda g: np.clip(g, -1, 1)),
    "multiply_": (lambda g: g.multiply_(paddle.to_tensor(0.25)), lambda g: g * 0.25),
    "fill_": (lambda g: g.fill_(3.0), lambda g: np.full_like(g, 3)),
    "setitem": (_setitem, lambda g: np.concatenate([[0], g[1:]]).astype(g.dtype)),
    "a view of it": (_view_write, lambda g: np.concatenate([g[:1], [0, 0]]).astype(g.dtype)),
}


@pytest.mark.parametrize("grad_on", [False, True], ids=["no_grad", "grad_mode"])
@pytest.mark.parametrize("name", list(EDITS))
def test_a_write_to_x_grad_is_the_gradient_the_optimizer_applies(name: str, grad_on: bool) -> None:
    edit, rule = EDITS[name]
    x = paddle.to_tensor(X0, stop_gradient=False)
    opt = paddle.optimizer.SGD(1.0, parameters=[x])
    (x * x).sum().backward()
    if grad_on:
        edit(x.grad)
    else:
        with paddle.no_grad():
            edit(x.grad)
    want = rule(G0)
    np.testing.assert_array_equal(x.grad.numpy(), want)
    opt.step()
    np.testing.assert_array_equal(x.numpy(), X0 - want)


def test_paddles_recorded_values_for_a_written_gradient() -> None:
    for edit in (lambda g: g.set_value(paddle.to_tensor([1.0, 1.0, 1.0])),
                 lambda g: paddle.assign(paddle.to_tensor([1.0, 1.0, 1.0]), g)):
        x = paddle.to_tensor(X0, stop_gradient=False)
        opt = paddle.optimizer.SGD(1.0, parameters=[x])
        (x * x).sum().backward()
        edit(x.grad)
        opt.step()
        np.testing.assert_array_equal(x.numpy(), [0.0, 1.0, -4.0])
    x = paddle.to_tensor(X0, stop_gradient=False)
    (x * x).sum().backward()
    with paddle.no_grad():
        x.grad.scale_(0.5)
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 2.0, -3.0])


def test_edited_gradients_in_a_repeated_training_loop() -> None:
    """A loop of steps that halve and clip each gradient before the update (steps that repeat are replayed): every
    step applies the edited gradient. Oracle: the same loop in numpy."""
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((16, 3)).astype(np.float32)
    w0 = rng.standard_normal((3, 2)).astype(np.float32)
    w = paddle.to_tensor(w0, stop_gradient=False)
    opt = paddle.optimizer.SGD(0.1, parameters=[w])
    x = paddle.to_tensor(xs)
    ref = w0.astype(np.float64)
    for _ in range(8):
        (paddle.matmul(x, w) ** 2).mean().backward()
        with paddle.no_grad():
            w.grad.scale_(0.5)
            w.grad.clip_(-0.2, 0.2)
        opt.step()
        opt.clear_grad()
        g = 2 * xs.T @ (xs @ ref) / (16 * 2)
        ref = ref - 0.1 * np.clip(g * 0.5, -0.2, 0.2)
    np.testing.assert_allclose(w.numpy(), ref, rtol=1e-5, atol=1e-6)


def test_a_write_to_a_retained_gradient_is_that_tensors_gradient() -> None:
    x = paddle.to_tensor(X0, stop_gradient=False)
    h = x * 3
    h.retain_grads()
    (h * h).sum().backward()
    h.grad.set_value(paddle.to_tensor([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(h.grad.numpy(), [1.0, 2.0, 3.0])


def test_a_gradient_read_before_a_later_backward_follows_it() -> None:
    """``g = x.grad`` held across another ``backward()``: Paddle's backward adds into the memory ``g`` shares, so ``g``
    shows the sum and a write to it edits the gradient the optimizer applies (recorded from Paddle 3.3.1:
    ``sum(x * x)`` then ``sum(3 * x)`` gives ``g = [5, 7, -3]``; ``g.scale_(0.5)`` makes ``x.grad``
    ``[2.5, 3.5, -1.5]``). Oracle: the two gradients summed in numpy."""
    x = paddle.to_tensor(X0, stop_gradient=False)
    (x * x).sum().backward()
    g = x.grad
    (x * 3).sum().backward()
    np.testing.assert_array_equal(g.numpy(), G0 + 3)
    with paddle.no_grad():
        g.scale_(0.5)
    np.testing.assert_array_equal(x.grad.numpy(), (G0 + 3) * 0.5)


def test_a_gradient_held_through_clear_grad_shows_the_zeros_then_stays() -> None:
    """``clear_grad()`` zeroes the gradient in place in Paddle: a held ``g`` shows zeros, and a write to it before the
    next backward is a write to the gradient; the next backward gives ``x`` a new gradient, which ``g`` no longer
    shows (recorded from Paddle 3.3.1: ``g`` stays ``[0, 0, 0]`` while ``x.grad`` is ``[3, 3, 3]``). A write to ``g``
    then raises here (Paddle writes it to memory no gradient uses), as after ``clear_grad(set_to_zero=False)``, which
    leaves ``g`` its values. Not mirrored: a write into the zeroed gradient followed by a backward with no
    ``clear_grad()`` between (Paddle's backward then replaces the written values, ours adds to them)."""
    x = paddle.to_tensor(X0, stop_gradient=False)
    (x * x).sum().backward()
    g = x.grad
    x.clear_grad()
    np.testing.assert_array_equal(g.numpy(), 0 * G0)
    with paddle.no_grad():
        g.set_value(paddle.to_tensor([1.0, 1.0, 1.0]))
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0, 1.0])
    x.clear_grad()
    (x * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0, 3.0])
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0, 0.0])
    with pytest.raises(RuntimeError, match="Tensor.grad: this Tensor is a gradient read before a later backward.*Read "
                                           "x.grad again"):
        g.set_value(paddle.ones([3]))
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0, 3.0])
    h = x.grad
    x.clear_grad(set_to_zero=False)
    assert x.grad is None
    np.testing.assert_array_equal(h.numpy(), [3.0, 3.0, 3.0])
    with pytest.raises(RuntimeError, match="Read x.grad again"):
        h.set_value(paddle.ones([3]))


def test_gradients_kept_in_a_training_loop_are_zeros_after_clear_grad_as_in_paddle() -> None:
    """A list of ``w.grad`` kept for logging across steps: Paddle's optimizer ``clear_grad()`` zeroes each in place,
    so every kept entry reads zeros afterwards (recorded from Paddle 3.3.1, Momentum 0.1, ``sum(w * w * (i + 1))``:
    three ``[0, 0]`` and ``w = [-0.33, 0.66]``); the step itself used the real gradients (oracle: Momentum in numpy)."""
    w = paddle.to_tensor(np.array([1.0, -2.0], np.float32), stop_gradient=False)
    opt = paddle.optimizer.Momentum(0.1, parameters=[w])
    kept = []
    ref, vel = np.array([1.0, -2.0], np.float32), np.zeros(2, np.float32)
    for i in range(3):
        (w * w * (i + 1)).sum().backward()
        kept.append(w.grad)
        opt.step()
        opt.clear_grad()
        vel = np.float32(0.9) * vel + 2 * (i + 1) * ref
        ref = ref - np.float32(0.1) * vel
    for k in kept:
        np.testing.assert_array_equal(k.numpy(), [0.0, 0.0])
    np.testing.assert_allclose(w.numpy(), ref, rtol=1e-6)


def test_a_gradient_held_through_an_in_place_global_norm_clip_shows_the_clipped_values() -> None:
    """``ClipGradByGlobalNorm`` clips in place in Paddle: ``h = w.grad`` read before ``step()`` shows the clipped
    gradient after it (recorded from Paddle 3.3.1: ``[0.7071068, 0.7071068]`` for ``sum(10 * w)``, clip 1)."""
    w = paddle.to_tensor(np.array([1.0, 1.0], np.float32), stop_gradient=False)
    opt = paddle.optimizer.SGD(0.1, parameters=[w], grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))
    (w * 10).sum().backward()
    h = w.grad
    opt.step()
    np.testing.assert_allclose(h.numpy(), [2 ** -0.5] * 2, rtol=1e-6)
    np.testing.assert_allclose(w.numpy(), 1 - 0.1 * 2 ** -0.5, rtol=1e-6)


def test_a_write_of_another_shape_to_a_gradient_raises() -> None:
    x = paddle.to_tensor(X0, stop_gradient=False)
    (x * x).sum().backward()
    with pytest.raises(ValueError, match=r"Tensor.grad: a write gave the gradient shape \[2\].*keeps its Tensor's shape"):
        paddle.assign(paddle.to_tensor([1.0, 2.0]), x.grad)
    np.testing.assert_array_equal(x.grad.numpy(), G0)


def test_assign_into_output() -> None:
    """``paddle.assign(x, output)`` writes the copy into ``output`` and returns it, as in Paddle 3.3.1 (measured:
    ``output`` takes x's shape and dtype; a view of ``output`` sees the values; the gradient of ``sum(out)`` after
    ``assign(a * 3, out)`` reaches ``a`` as 3; a parameter written by assign stays a leaf and gets its own
    gradient, 2 for ``sum(w * 2)``)."""
    out = paddle.zeros([2, 2])
    v = out[0]
    r = paddle.assign(paddle.ones([3], dtype="float64"), out)
    assert r is out and out.shape == [3] and out.dtype == paddle.float64
    np.testing.assert_array_equal(out.numpy(), [1.0, 1.0, 1.0])
    out = paddle.zeros([2, 2])
    v = out[0]
    paddle.assign(np.full((2, 2), 5.0, np.float32), out)
    np.testing.assert_array_equal(v.numpy(), [5.0, 5.0])
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    out = paddle.zeros([2])
    paddle.assign(a * 3, out)
    assert not out.stop_gradient
    out.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [3.0, 3.0])
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    paddle.assign(paddle.to_tensor([5.0, 6.0]), w)
    np.testing.assert_array_equal(w.numpy(), [5.0, 6.0])
    (w * 2).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [2.0, 2.0])
    with pytest.raises(ValueError, match="assign: output must be a Tensor.*received ndarray"):
        paddle.assign(paddle.ones([2]), np.zeros(2))


def test_a_gradient_scaled_by_hand_inside_a_compiled_training_step() -> None:
    """``p.grad.scale_(0.5)`` between ``backward()`` and ``opt.step()`` inside a ``to_static`` training step (one
    compiled program) and in the same step run eagerly: both apply the halved gradient, step after step, as Paddle
    3.3.1 does (measured: weight 0.75, 0.5, 0.25, ... from ones; bias -0.25, -0.5, ... from zeros). Oracle: SGD's
    rule (the gradient of ``sum(ones @ W + b)`` is all ones)."""
    lin = paddle.nn.Linear(2, 2)
    lin.weight.set_value(np.ones((2, 2), np.float32))
    lin.bias.set_value(np.zeros(2, np.float32))
    opt = paddle.optimizer.SGD(0.5, parameters=lin.parameters())

    def step(x):
        loss = lin(x).sum()
        loss.backward()
        with paddle.no_grad():
            for p in lin.parameters():
                p.grad.scale_(0.5)
        opt.step()
        opt.clear_grad()
        return loss

    compiled = paddle.jit.to_static(step)
    for k, f in enumerate([compiled, compiled, compiled, step, step]):
        f(paddle.ones([1, 2]))
        np.testing.assert_array_equal(lin.weight.numpy(), np.full((2, 2), 1.0 - 0.25 * (k + 1), np.float32))
        np.testing.assert_array_equal(lin.bias.numpy(), np.full(2, -0.25 * (k + 1), np.float32))
