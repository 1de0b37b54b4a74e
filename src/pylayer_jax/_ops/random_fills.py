"""Sampling kernels of the in-place random fills (``Tensor.normal_``, ``log_normal_``, ``cauchy_``,
``exponential_``, ``geometric_``; layer L1). Each takes the PRNG key as its first tensor input (int64 [2], never
differentiated) and draws a fresh array of ``shape`` and ``dtype``; ``_api.random_fills`` writes it into the tensor.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ._util import check_numel, dtype_arg
from .table import defop


def _key(k):  # noqa: ANN001, ANN202
    return k.astype(jnp.uint32)


@defop(1, differentiable=False, method=False)
def random_normal_fill(key, shape, dtype="float32", mean=0.0, std=1.0, exponentiate=False):
    """``mean + std * N(0, 1)`` of ``shape`` (``exp`` of it with ``exponentiate``: log-normal samples). For a complex
    dtype, as Paddle 3.3.1: the real number ``mean`` stands for ``mean + mean*1j``, and the real and imaginary parts
    each have variance ``std**2 / 2``."""
    dt = dtype_arg(dtype)
    check_numel(shape, "normal_")
    z = jax.random.normal(_key(key), tuple(shape), dt)
    m = mean * (1 + 1j) if jnp.issubdtype(dt, jnp.complexfloating) else mean
    out = m + std * z
    return (jnp.exp(out) if exponentiate else out).astype(dt)


@defop(1, differentiable=False, method=False)
def random_cauchy(key, shape, dtype="float32", loc=0.0, scale=1.0):
    """Cauchy samples ``loc + scale * tan(pi * (u - 1/2))`` of ``shape``."""
    dt = dtype_arg(dtype)
    check_numel(shape, "cauchy_")
    return (loc + scale * jax.random.cauchy(_key(key), tuple(shape), dt)).astype(dt)


@defop(1, differentiable=False, method=False)
def random_exponential(key, shape, dtype="float32", lam=1.0):
    """Exponential samples of rate ``lam`` (mean ``1 / lam``) of ``shape``."""
    dt = dtype_arg(dtype)
    check_numel(shape, "exponential_")
    return (jax.random.exponential(_key(key), tuple(shape), dt) / lam).astype(dt)


@defop(("key", "probs"), differentiable=False, method=False)
def random_geometric(key, probs, shape, dtype="float32"):
    """Geometric samples of ``shape``: the number of Bernoulli trials up to and including the first success, each
    trial succeeding with probability ``probs`` (broadcast to ``shape``): integers ``1, 2, ...`` of mean ``1 / p``.
    A probability outside ``(0, 1]`` gives NaN."""
    dt = dtype_arg(dtype)
    check_numel(shape, "geometric_")
    p = jnp.broadcast_to(jnp.asarray(probs, jnp.float64 if dt == np.float64 else jnp.float32), tuple(shape))
    u = jax.random.uniform(_key(key), tuple(shape), p.dtype, jnp.finfo(p.dtype).tiny, 1.0)
    # log(u) / log(1 - p) is exponential of rate -log(1 - p); its floor plus one is geometric (p = 1: always 1)
    k = jnp.where(p == 1, 1.0, jnp.floor(jnp.log(u) / jnp.log1p(-p)) + 1)
    return jnp.where((p > 0) & (p <= 1), k, jnp.nan).astype(dt)
