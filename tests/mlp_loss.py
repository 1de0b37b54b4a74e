"""The two-layer tanh MLP's loss in JAX, the oracle of the optimizer step tests (``jax.grad`` of it)."""

from __future__ import annotations

import jax
import jax.numpy as jnp


def loss_jax(ps: list, x: jax.Array) -> jax.Array:
    """mean((tanh(x @ w1 + b1) @ w2 + b2) ** 2) of the parameters ``ps = [w1, b1, w2, b2]``."""
    w1, b1, w2, b2 = ps
    return jnp.mean((jnp.tanh(x @ w1 + b1) @ w2 + b2) ** 2)


grad_jax = jax.jit(jax.grad(loss_jax))
