"""Shapes that change every step: what a new shape compiles, the caches' bounds, and results after eviction.

A step whose inputs change size (a batch size that never repeats, a smaller last batch) is a known step on new
shapes: its buffer is compiled as one program at once (quickly), not run call by call with every kernel
compiled for the new shapes. Oracles: ``jax.grad`` of the same loss with the same SGD updates; XLA compiles
counted through ``jax.monitoring``; the engine's ``STATS`` counters.
"""

from __future__ import annotations

import threading

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from deferred_policy import default_policy
from xla_compiles import COMPILES

import pylayer_jax as paddle
from pylayer_jax._autograd import fused_backward
from pylayer_jax._exec import deferred
from pylayer_jax._ops.table import TABLE
from pylayer_jax._replay import follow
from pylayer_jax._runtime import kernel_cache

LR = 0.1


@pytest.fixture(autouse=True)
def _default_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    # the path of a step whose rows are not known (its batch is not padded: see test_row_buckets.py)
    default_policy(monkeypatch, buckets=False)


def _init(seed: int, hidden: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) * 0.5 for s in [(5, hidden), (hidden,), (hidden, 1), (1,)]]


def _batch(b: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed + 1000 * b).standard_normal((b, 5))


def _loss_jax(ps: list, x: jax.Array, act: str = "tanh") -> jax.Array:
    w1, b1, w2, b2 = ps
    return jnp.mean((getattr(jnp, act)(x @ w1 + b1) @ w2 + b2) ** 2)


class Trainer:
    """An MLP trained by SGD eagerly (ours) and the same steps with ``jax.grad`` (the oracle). Each test uses
    its own hidden width, so that no test meets the programs of another."""

    def __init__(self, seed: int, hidden: int, act: str = "tanh") -> None:
        self.act = act
        self.params = [paddle.to_tensor(p, stop_gradient=False) for p in _init(seed, hidden)]
        self.opt = paddle.optimizer.SGD(learning_rate=LR, parameters=self.params)
        self.ref = [jnp.asarray(p) for p in _init(seed, hidden)]
        self.grad = jax.value_and_grad(lambda ps, x: _loss_jax(ps, x, act))

    def step(self, b: int) -> tuple[float, float]:
        """One step on a batch of ``b`` rows: (our loss, the oracle's loss)."""
        x = _batch(b)
        c0 = COMPILES[0]
        w1, b1, w2, b2 = self.params
        loss = ((paddle.matmul(getattr(paddle, self.act)(paddle.matmul(paddle.to_tensor(x), w1) + b1), w2) + b2) ** 2).mean()
        loss.backward()
        got = float(loss)  # (backward ran the buffer: reading the loss runs nothing)
        self.opt.step()
        self.opt.clear_grad()
        self.compiles = COMPILES[0] - c0  # XLA compiles of our step (the oracle's are not counted)
        want, g = self.grad(self.ref, jnp.asarray(x))
        self.ref = [p - LR * d for p, d in zip(self.ref, g)]
        return got, float(want)

    def check_params(self) -> None:
        for p, r in zip(self.params, self.ref):
            np.testing.assert_allclose(p.numpy(), np.asarray(r), rtol=1e-10, atol=1e-12)


def test_a_batch_size_that_never_repeats_compiles_one_program_per_step_and_matches_jax_grad() -> None:
    t = Trainer(0, 4)
    for b in (3, 4):  # the first step's and the loop's first sightings: compiled at once, as any new step
        got, want = t.step(b)
        np.testing.assert_allclose(got, want, rtol=1e-10)
    for b in range(5, 13):
        before = dict(deferred.STATS)
        got, want = t.step(b)
        np.testing.assert_allclose(got, want, rtol=1e-10)
        d = {k: deferred.STATS[k] - before[k] for k in before}
        assert d["new_shape"] == 1 and d["compiled"] == 1, d  # one program for the whole step
        assert d["one_by_one"] == 0, d  # and no kernel run (nor compiled) for the new shape on its own
        assert t.compiles <= 1  # the one XLA compile of this step (none if a persistent cache has it)
    t.check_params()


def test_a_large_steps_new_shape_that_repeats_gets_the_optimised_program_at_its_third_sighting(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # (every step counts as large here: a small one keeps its quick program, see test_small_steps.py)
    monkeypatch.setattr(deferred, "SMALL_BYTES", 0)
    t = Trainer(1, 5)
    for b in (3, 4, 5):
        t.step(b)
    before = dict(deferred.STATS)
    for _ in range(5):
        got, want = t.step(9)
        np.testing.assert_allclose(got, want, rtol=1e-10)
    d = {k: deferred.STATS[k] - before[k] for k in before}
    # first sighting: the quick program; second: it again; third: the optimised one, then it is reused
    assert d["new_shape"] == 1 and d["compiled"] == 2, d
    assert d["one_by_one"] == 0, d
    quick = [p for p in deferred._PROGRAMS.values() if type(p) is deferred._Quick]
    assert all(p.seen < deferred.FUSE_AFTER for p in quick)
    t.check_params()


def test_program_and_backward_caches_stay_bounded_and_evicted_shapes_compute_right(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deferred._PROGRAMS, "maxsize", 3)
    monkeypatch.setattr(fused_backward._KERNELS, "maxsize", 3)
    while len(deferred._PROGRAMS) > 3:  # what earlier tests left
        deferred._PROGRAMS.popitem(last=False)[1].clear_cache()
    t = Trainer(3, 7)
    evicted = kernel_cache.STATS["evicted"]
    sizes = [2, 3, 4, 5, 6, 7, 8, 9, 10, 2, 3, 4]  # the last three: shapes whose programs were evicted
    for b in sizes:
        got, want = t.step(b)
        np.testing.assert_allclose(got, want, rtol=1e-10)
        assert len(deferred._PROGRAMS) <= 3 and len(fused_backward._KERNELS) <= 3
    assert kernel_cache.STATS["evicted"] - evicted >= len(sizes) - 3
    t.check_params()


def test_quick_programs_of_one_off_shapes_are_kept_fewer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deferred, "MAX_QUICK", 2)
    t = Trainer(6, 10)
    kept = []
    for b in [2, 3, 4, 5, 6, 7, 8, 4]:  # 4 again: its quick program was dropped, it compiles anew
        got, want = t.step(b)
        np.testing.assert_allclose(got, want, rtol=1e-10)
        quick = [p for p in deferred._PROGRAMS.values() if type(p) is deferred._Quick]
        kept.append(len(quick))
        assert len(quick) <= 2 and len(deferred._QUICK_KEYS) <= 2
        assert all(p._cache_size() == 1 for p in quick)
    assert kept[-1] == 2  # the bound was reached
    t.check_params()


@pytest.mark.parametrize("small", [True, False])
def test_more_shapes_in_turn_than_quick_programs_kept_stop_compiling(monkeypatch: pytest.MonkeyPatch,
                                                                      small: bool) -> None:
    # sequence lengths in turn: more signatures than MAX_QUICK, each seen once a round. A dropped quick program's
    # signature, seen again, is known to repeat: a small step's program is kept then, another's at its third sighting
    monkeypatch.setattr(deferred, "MAX_QUICK", 2)
    if not small:
        monkeypatch.setattr(deferred, "SMALL_BYTES", 0)
    t = Trainer(7, 11 if small else 12)
    t.step(1)  # the step's first signature (its family's first)
    compiles = []
    for _ in range(5):
        n = 0
        for b in [2, 3, 4, 5, 6]:
            got, want = t.step(b)
            np.testing.assert_allclose(got, want, rtol=1e-10)
            n += t.compiles
        compiles.append(n)
    assert compiles[0] >= 5  # each size compiled once
    assert compiles[3] == compiles[4] == 0, compiles  # then none (each round compiled all five before)
    t.check_params()


def test_a_replayed_step_whose_program_another_thread_evicted_still_runs_right(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deferred._PROGRAMS, "maxsize", 2)
    t = Trainer(4, 8)
    for _ in range(6):  # replayed, its program remembered by the note
        t.step(8)
    noted = [prog for prog, _ in follow.st.plan.programs.values()]  # (each with where its numbers go)
    assert any(type(p) is not deferred._Quick for p in noted)

    def other_thread() -> None:  # other steps, other shapes: this thread's programs are evicted
        follow.reset()
        o = Trainer(5, 9)
        for b in (3, 4, 5, 6, 7, 9):
            o.step(b)
        o.check_params()

    th = threading.Thread(target=other_thread)
    th.start()
    th.join()
    assert all(p._cache_size() == 0 for p in noted)  # cleared: their executables are gone
    replayed = follow.STATS["steps"]
    for _ in range(4):
        got, want = t.step(8)
        np.testing.assert_allclose(got, want, rtol=1e-10)
    assert follow.STATS["steps"] - replayed == 4  # still replayed from the note, on a recompiled program
    t.check_params()


def test_a_pending_tensor_whose_kernel_was_cleared_gets_its_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # JAX's per-function caches start empty (as in ``test_kernel_cache``): whether the kernel's executable count grew
    # past MAX_SHAPES in the other thread depended on what earlier tests of the same process had left in them
    jax.clear_caches()
    monkeypatch.setattr(kernel_cache, "MAX_SHAPES", 2)
    monkeypatch.setattr("pylayer_jax._ops.table.MAX_SHAPES", 2)
    x = np.random.default_rng(6).standard_normal((3, 2))
    xt = paddle.to_tensor(x, stop_gradient=False)
    y = paddle.sin(xt)  # recorded, not run
    assert type(y._v) is deferred.Pending and y._v.array is None
    key = (None, (), (), paddle.get_default_dtype())
    kernel = TABLE["sin"].forward_kernel(key)
    restarted = kernel_cache.STATS["restarted"]

    def other_thread() -> None:
        # sin run at once on new shapes, as the eager dispatch runs a call (``_tensor.dispatch``: fetch the
        # kernel, call it), so the kernel's executables are cleared; through ``paddle.sin`` the calls could be
        # deferred or padded to a bucket instead, depending on the steps earlier tests of this process ran
        for n in range(4, 24):
            out = TABLE["sin"].forward_kernel(key)(jnp.ones(n))
            np.testing.assert_allclose(np.asarray(out), np.sin(np.ones(n)))
            if kernel_cache.STATS["restarted"] > restarted:
                break

    th = threading.Thread(target=other_thread)
    th.start()
    th.join()
    assert kernel_cache.STATS["restarted"] > restarted and kernel._cache_size() <= 3
    np.testing.assert_allclose(y.numpy(), np.sin(x), rtol=1e-12)


def test_families_name_kernels_by_their_keys_without_shapes() -> None:
    f32, f64 = np.dtype("float32"), np.dtype("float64")
    key = ("op", ((7, 5), f32), [((7, 5), f64, False), None], ("attr", (2, 3)))
    assert kernel_cache.erase_shapes(key) == ("op", (2, f32), ((2, f64, False), None), ("attr", (2, 3)))
    cache = kernel_cache.KernelCache(2, shaped=True)
    a = cache.kernel(((7, 5), f32), lambda: jax.jit(jnp.sin))
    b = cache.kernel(((9, 5), f32), lambda: jax.jit(jnp.sin))
    assert kernel_cache.family(a) == kernel_cache.family(b)  # the same work on other sizes
    c = cache.kernel(((9,), f32), lambda: jax.jit(jnp.sin))
    assert kernel_cache.family(c) != kernel_cache.family(b)  # another rank: another family
    assert kernel_cache.family(a) is a  # evicted (least recent of three in a cache of two): no family any more
    plain = jax.jit(jnp.cos)
    assert kernel_cache.family(plain) is plain  # a kernel of no shaped cache is its own family
