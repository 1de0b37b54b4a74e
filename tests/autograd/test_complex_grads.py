"""Gradients of complex tensors are Paddle's: ``dL/dRe + i dL/dIm`` (the conjugate of JAX's cotangent), so that
``x - lr * x.grad`` descends, in every driver: the tape, a PyLayer's backward (eager, and traced under ``jax.grad``,
where JAX's convention is given back), ``to_static``, ``paddle.grad`` and static programs.

Recorded from Paddle 3.3.1 (``z = [1+2j, 3-1j]``, ``w = [2-0.5j, 0.5+1j]``, complex64): the gradient of
``(z * w).real().sum()`` is ``[2+0.5j, 0.5-1j]``; of ``(z * w).abs().sum()`` ``[0.92195+1.84391j,
1.06066-0.35355j]``; of ``(z * z).abs().sum()`` and of ``(z.conj() * z).real().sum()`` ``[2+4j, 6-2j]``; of
``fft(z).imag().sum()`` ``[2j, 0j]``; through a PyLayer ``z * z`` whose backward is ``dy * 2 * z.conj()``, of
``abs().sum()``, ``[2+4j, 6-2j]``; and for a real ``x = [1, 2]``, ``paddle.grad((fft(x) * w).abs().sum(), x)`` is
``[0.94352, 3.17959]``. Before, the tape gave JAX's conjugates: SGD on a complex parameter climbed in its imaginary
part."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

Z = np.array([1 + 2j, 3 - 1j], np.complex64)
W = np.array([2 - 0.5j, 0.5 + 1j], np.complex64)

PADDLE = {
    "mul_real": (lambda z, w: (z * w).real().sum(), [2 + 0.5j, 0.5 - 1j]),
    "mul_abs": (lambda z, w: (z * w).abs().sum(), [0.92195 + 1.84391j, 1.06066 - 0.35355j]),
    "square_abs": (lambda z, w: (z * z).abs().sum(), [2 + 4j, 6 - 2j]),
    "conj_mul": (lambda z, w: (z.conj() * z).real().sum(), [2 + 4j, 6 - 2j]),
    "fft_imag": (lambda z, w: paddle.fft.fft(z).imag().sum(), [2j, 0j]),
}


class Square(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return z * z

    @staticmethod
    def backward(ctx, dy):
        (z,) = ctx.saved_tensor()
        return dy * 2 * z.conj()


@pytest.mark.parametrize("case", sorted(PADDLE))
def test_the_tape_gives_paddles_complex_gradients(case):
    fn, want = PADDLE[case]
    z = paddle.to_tensor(Z, stop_gradient=False)
    fn(z, paddle.to_tensor(W)).backward()
    np.testing.assert_allclose(z.grad.numpy(), want, rtol=1e-4, atol=1e-5)
    z2 = paddle.to_tensor(Z, stop_gradient=False)
    (g,) = paddle.grad(fn(z2, paddle.to_tensor(W)), [z2])
    np.testing.assert_allclose(g.numpy(), want, rtol=1e-4, atol=1e-5)
    compiled = paddle.jit.to_static(lambda v: fn(v, paddle.to_tensor(W)))
    z3 = paddle.to_tensor(Z, stop_gradient=False)
    compiled(z3).backward()
    np.testing.assert_allclose(z3.grad.numpy(), want, rtol=1e-4, atol=1e-5)


def test_a_real_input_through_complex_ops():
    x = paddle.to_tensor(np.array([1.0, 2.0], np.float32), stop_gradient=False)
    (g,) = paddle.grad((paddle.fft.fft(x) * paddle.to_tensor(W)).abs().sum(), [x])
    np.testing.assert_allclose(g.numpy(), [0.94352, 3.17959], rtol=1e-4)


def test_a_pylayer_on_complex_tensors_in_every_driver():
    """Eager: Paddle's value. Under ``jax.grad`` / ``jax.jvp`` (the traced driver, both of its routes): what JAX gives
    for the same function written with plain ops (JAX's convention at JAX's door)."""
    z = paddle.to_tensor(Z, stop_gradient=False)
    Square.apply(z).abs().sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), [2 + 4j, 6 - 2j], rtol=1e-5)
    zj, t = jnp.asarray(Z), jnp.asarray(np.array([0.5 - 1j, 2 + 1j], np.complex64))
    want = jax.grad(lambda v: jnp.abs(v * v).sum())(zj)
    np.testing.assert_allclose(jax.grad(lambda v: jnp.abs(Square.apply(v)).sum())(zj), want, rtol=1e-5)
    np.testing.assert_allclose(jax.jvp(Square.apply, (zj,), (t,))[1], jax.jvp(lambda v: v * v, (zj,), (t,))[1],
                               rtol=1e-5)


def test_gradient_descent_on_a_complex_parameter_descends():
    """SGD on ``|p - t|^2`` from 0 reaches ``t`` (oracle: the minimum); with JAX's conjugate gradient the imaginary
    parts would run away from it."""
    p = paddle.to_tensor(np.zeros(2, np.complex64), stop_gradient=False)
    t = paddle.to_tensor(np.array([1 + 1j, -2 + 0.5j], np.complex64))
    opt = paddle.optimizer.SGD(0.1, parameters=[p])
    for _ in range(60):
        d = p - t
        (d * d.conj()).real().sum().backward()
        opt.step()
        opt.clear_grad()
    np.testing.assert_allclose(p.numpy(), t.numpy(), atol=1e-4)


def test_static_program_gradients_of_a_complex_input():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [2], "complex64")
            x.stop_gradient = False
            loss = (x * x).abs().sum()
            (gx,) = paddle.static.gradients([loss], [x])
        exe = paddle.static.Executor()
        (g,) = exe.run(main, feed={"x": Z}, fetch_list=[gx])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(g, [2 + 4j, 6 - 2j], rtol=1e-5)
