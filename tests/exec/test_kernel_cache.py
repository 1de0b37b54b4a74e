"""Compiled-kernel caches stay bounded over many distinct shapes, and results stay right."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax._autograd import fused_backward
from pylayer_jax._exec import deferred
from pylayer_jax._ops import table
from pylayer_jax._runtime import kernel_cache
from pylayer_jax._runtime.kernel_cache import KernelCache


def _jit_twice(a):  # noqa: ANN001, ANN202
    return a * 2


def test_lru_evicts_least_recent_and_frees_its_executables():
    jax.clear_caches()  # (JAX's per-function caches start empty: they count only this test's executables)
    cache = KernelCache(3)
    made = {}
    for i in range(5):
        k = cache.kernel(i, lambda: jax.jit(functools.partial(_jit_twice)))
        made[i] = k
        np.testing.assert_allclose(np.asarray(k(jnp.ones(2))), [2.0, 2.0])
        assert k._cache_size() == 1
    cache.kernel(2, lambda: pytest.fail("2 is cached: nothing is made"))  # 2 becomes the most recent
    cache.kernel(5, lambda: jax.jit(functools.partial(_jit_twice)))
    assert list(cache) == [4, 2, 5]
    assert made[0]._cache_size() == 0 and made[1]._cache_size() == 0 and made[3]._cache_size() == 0
    assert made[2]._cache_size() == 1 and made[4]._cache_size() == 1


def test_kernel_with_too_many_shapes_is_cleared(monkeypatch):
    jax.clear_caches()  # (as above)
    monkeypatch.setattr(kernel_cache, "MAX_SHAPES", 3)
    cache = KernelCache(8)
    k = cache.kernel("k", lambda: jax.jit(functools.partial(_jit_twice)))
    for n in range(1, 5):
        np.testing.assert_allclose(np.asarray(k(jnp.ones(n))), np.full(n, 2.0))
    assert k._cache_size() == 4
    before = kernel_cache.STATS["restarted"]
    assert cache.kernel("k", lambda: pytest.fail("kept: only its executables go")) is k
    assert k._cache_size() == 0 and kernel_cache.STATS["restarted"] == before + 1
    np.testing.assert_allclose(np.asarray(k(jnp.ones(7))), np.full(7, 2.0))


def test_never_repeating_batch_sizes_keep_every_cache_bounded(monkeypatch):
    monkeypatch.setattr(kernel_cache, "MAX_SHAPES", 4)
    monkeypatch.setattr(table, "MAX_SHAPES", 4)
    for name in ("matmul", "pow_number", "mean"):  # kernels earlier tests of this process filled start anew
        monkeypatch.setattr(table.TABLE[name], "_fwd", kernel_cache.KernelCache())
    rng = np.random.default_rng(0)
    w = rng.standard_normal((8, 2)).astype("float32")
    wt = paddle.to_tensor(w, stop_gradient=False)
    n_shapes = 12
    for b in range(1, n_shapes + 1):
        x = rng.standard_normal((b, 8)).astype("float32")
        loss = (paddle.matmul(paddle.to_tensor(x), wt) ** 2).mean()
        loss.backward()
        want_loss, want_grad = jax.value_and_grad(lambda w_, x=x: jnp.mean((x @ w_) ** 2))(w)
        np.testing.assert_allclose(float(loss), float(want_loss), rtol=1e-5)
        np.testing.assert_allclose(wt.grad.numpy(), np.asarray(want_grad), rtol=1e-5, atol=1e-6)
        wt.clear_grad()
        for op in (table.TABLE["matmul"], table.TABLE["pow_number"], table.TABLE["mean"]):
            for k in op._fwd.values():
                assert k._cache_size() <= 4 + 1  # cleared on the lookup after its 5th shape
    assert len(fused_backward._KERNELS) <= kernel_cache.SHAPED
    assert len(deferred._PROGRAMS) <= kernel_cache.SHAPED
    assert len(deferred._SHAPES) <= deferred._SHAPES.maxsize
    assert kernel_cache.executables(table.TABLE["matmul"]._fwd) <= 5 * len(table.TABLE["matmul"]._fwd)
    assert n_shapes > 4 + 1  # more shapes than one kernel keeps: the bound was exercised


def test_a_lazy_jit_kernel_infers_its_output_shape_once(monkeypatch):
    # a fused backward's kernel is a LazyJit: its inferred output shapes are cached under the LazyJit that each
    # recorded call looks up (cached under its jax.jit, every call of a step that is not replayed traced it again)
    monkeypatch.setattr(deferred, "ENABLED", True)
    traced = []
    real = jax.eval_shape
    monkeypatch.setattr(jax, "eval_shape", lambda *a, **k: traced.append(a[0]) or real(*a, **k))
    k = kernel_cache.LazyJit(functools.partial(_jit_twice))
    x = jnp.arange(3.0, dtype=jnp.float32)
    outs = [deferred.call(k, (x,)) for _ in range(3)]
    assert len(traced) == 1
    for out in outs:
        np.testing.assert_allclose(np.asarray(out.get()), [0.0, 2.0, 4.0])
    assert deferred.slot_avals([(k, None, (-1,), 1)], [(x.shape, x.dtype, False)]) == [((3,), jnp.float32, False)]
    assert len(traced) == 1
