"""A first step's optimizer state (``Optimizer._step_params``, ``_packed.start_kernel``): every parameter's starting
state is made and packed by ONE
compiled program, not by a small program per constant and one more for the pack. Oracles: XLA compiles counted
through ``jax.monitoring``; Paddle's AdamW rule in numpy (float64) on gradients from ``jax.grad``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from xla_compiles import COMPILES

import pylayer_jax as paddle

B1, B2, EPS, WD, LR = 0.9, 0.999, 1e-8, 0.05, 0.1
NAMES = ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")


def _loss_jax(ps: list, x: jax.Array) -> jax.Array:
    w, b = ps
    return jnp.mean(jnp.tanh(x @ w + b) ** 2)


def _adamw(p: np.ndarray, g: np.ndarray, st: tuple) -> tuple[np.ndarray, tuple]:
    m1, m2, b1p, b2p = st
    m1 = B1 * m1 + (1 - B1) * g
    m2 = B2 * m2 + (1 - B2) * g * g
    d = np.sqrt(1 - b2p) / (1 - b1p) * m1 / (np.sqrt(m2) + EPS * np.sqrt(1 - b2p))
    return p - LR * (d + WD * p), (m1, m2, b1p * B1, b2p * B2)


def test_a_first_adamw_step_starts_its_state_with_one_program() -> None:
    rng = np.random.default_rng(5)
    init = [rng.standard_normal((3, 13)) * 0.5, rng.standard_normal(13) * 0.5]  # (a width no other test uses)
    xv = rng.standard_normal((2, 3))
    params = [paddle.to_tensor(p, stop_gradient=False) for p in init]
    opt = paddle.optimizer.AdamW(learning_rate=LR, beta1=B1, beta2=B2, epsilon=EPS, weight_decay=WD,
                                 parameters=params)
    # (loading the bias's accumulators alone, for a mixed start, is an error at the step, as in Paddle 3.3.1: a loaded
    # state dict must hold every parameter's state; both start here)
    x = paddle.to_tensor(xv)
    w, b = params
    paddle.tanh(paddle.matmul(x, w) + b).pow(2).mean().backward()
    c0 = COMPILES[0]
    opt.step()  # (the update itself is recorded, compiled with the step's program when it runs)
    # made eagerly, each constant of the weight's state compiled a program (a broadcast per shape and dtype), and
    # the pack one more: 2 or more
    assert COMPILES[0] - c0 <= 1, COMPILES[0] - c0
    opt.clear_grad()
    g = [np.asarray(v) for v in jax.grad(_loss_jax)([jnp.asarray(p) for p in init], jnp.asarray(xv))]
    fresh = (np.zeros_like(init[0]), np.zeros_like(init[0]), B1, B2)
    sd = opt.state_dict()
    fresh_b = (np.zeros(13), np.zeros(13), B1, B2)
    for p, p0, gi, st in zip(params, init, g, (fresh, fresh_b)):
        want_p, want_st = _adamw(p0, gi, st)
        np.testing.assert_allclose(p.numpy(), want_p, rtol=1e-10, atol=1e-12)
        for n, want in zip(NAMES, want_st):
            got = sd[f"{p.name}_{n}_0"].numpy()
            np.testing.assert_allclose(got, np.broadcast_to(want, got.shape), rtol=1e-10, atol=1e-12, err_msg=n)
