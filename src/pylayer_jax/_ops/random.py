"""Random sampling kernels. Each takes the PRNG key as its first tensor input (int64 [2],
never differentiated), so one cached kernel serves every draw of the same shape; the key
state itself lives in ``_runtime.rng`` and the public functions in ``_api.random``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ._util import check_numel, dtype_arg
from .table import defop


def _key(k):  # noqa: ANN001, ANN202
    return k.astype(jnp.uint32)


@defop(1, differentiable=False, method=False)
def rng_fold_in(key, index=0):
    """A key derived from ``key`` and the int ``index`` (a static program's per-op key from its per-run key)."""
    return jax.random.fold_in(_key(key), index).astype(jnp.int64)


@defop(1, differentiable=False, method=False)
def random_uniform(key, shape, dtype="float32", min=0.0, max=1.0):  # noqa: A002
    """Uniform samples in ``[min, max)``."""
    dt = dtype_arg(dtype)
    check_numel(shape, "uniform")
    return jax.random.uniform(_key(key), tuple(shape), dt, min, max)


@defop(("key", "mean", "std"), differentiable=False, method=False)
def random_normal(key, mean=0.0, std=1.0, shape=(), dtype="float32"):
    """Gaussian samples ``mean + std * N(0, 1)`` of ``shape`` (broadcast with mean and std)."""
    dt = dtype_arg(dtype)
    shape = tuple(jnp.broadcast_shapes(tuple(shape), jnp.shape(mean), jnp.shape(std)))
    check_numel(shape, "normal")
    return (mean + std * jax.random.normal(_key(key), shape, dt)).astype(dt)


@defop(1, differentiable=False, method=False)
def random_randint(key, low, high, shape, dtype="int64"):
    """Integers uniform in ``[low, high)``."""
    check_numel(shape, "randint")
    return jax.random.randint(_key(key), tuple(shape), low, high, jnp.int64).astype(dtype_arg(dtype))


@defop(1, differentiable=False, method=False)
def random_randperm(key, n, dtype="int64"):
    """A random permutation of ``0 .. n-1``."""
    return jax.random.permutation(_key(key), n).astype(dtype_arg(dtype))


@defop(("key", "x"), differentiable=False, method=False)
def random_bernoulli(key, x, p=None):
    """0/1 samples (in x's dtype) that are 1 with probability ``x`` (or the scalar ``p``)."""
    prob = x if p is None else jnp.full(x.shape, p, x.dtype)
    return jax.random.bernoulli(_key(key), prob).astype(x.dtype)


@defop(("key", "x"), differentiable=False, method=False)
def random_multinomial(key, x, num_samples=1, replacement=False):
    """``num_samples`` category indices (int64) per row of the unnormalised probabilities ``x``."""
    logits = jnp.log(x)
    if replacement:
        shape = (num_samples, *x.shape[:-1])
        out = jax.random.categorical(_key(key), logits, axis=-1, shape=shape)
        return jnp.moveaxis(out, 0, -1).astype(jnp.int64)
    # without replacement: the top num_samples of Gumbel-perturbed logits
    g = jax.random.gumbel(_key(key), x.shape, x.dtype)
    return jax.lax.top_k(logits + g, num_samples)[1].astype(jnp.int64)


@defop(("key", "x"), differentiable=False, method=False)
def random_poisson(key, x):
    """Poisson samples with rates ``x`` (in x's dtype)."""
    return jax.random.poisson(_key(key), x, x.shape).astype(x.dtype)


@defop(("key", "count", "prob"), differentiable=False, method=False)
def random_binomial(key, count, prob):
    """Binomial draws (in prob's dtype): successes in ``count`` trials of success probability ``prob``
    (broadcast together)."""
    shape = jnp.broadcast_shapes(jnp.shape(count), jnp.shape(prob))
    check_numel(shape, "binomial")
    return jax.random.binomial(_key(key), jnp.asarray(count, prob.dtype), prob, shape, prob.dtype)


@defop(("key", "alpha"), saves=("key", "alpha"), nondiff=("key",), method=False)
def random_gamma(key, alpha, shape=()):
    """Gamma(``alpha``, 1) samples of ``shape`` (``alpha`` broadcast to it), differentiable in ``alpha``
    (implicit reparameterisation: the gradient of the sample with its uniform noise held fixed)."""
    shape = tuple(shape)
    check_numel(shape, "gamma")
    dt = alpha.dtype
    return jax.random.gamma(_key(key), jnp.broadcast_to(alpha, shape), shape, dt).astype(dt)


@defop(("key", "logits"), differentiable=False, method=False)
def random_categorical(key, logits, shape=()):
    """Category indices (int64) of ``shape`` (``shape`` ends with the batch shape of ``logits``), each drawn with
    probabilities ``softmax(logits)`` along the last axis."""
    check_numel(shape, "categorical")
    return jax.random.categorical(_key(key), logits, axis=-1, shape=tuple(shape)).astype(jnp.int64)


@defop(("key", "probs"), differentiable=False, method=False)
def random_counts(key, probs, total_count=1, shape=()):
    """Multinomial counts (in probs' dtype) of ``shape + probs.shape``: how often each category of the last
    axis came up in ``total_count`` draws with the (normalised) probabilities ``probs``."""
    shape = tuple(shape)
    check_numel((*shape, *probs.shape), "multinomial")
    k = probs.shape[-1]
    logits = jnp.log(probs / jnp.sum(probs, -1, keepdims=True))
    idx = jax.random.categorical(_key(key), logits, axis=-1, shape=(total_count, *shape, *probs.shape[:-1]))
    return jnp.sum(jax.nn.one_hot(idx, k, dtype=probs.dtype), axis=0)
