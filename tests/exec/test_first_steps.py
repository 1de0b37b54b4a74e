"""A script's first steps (``_exec/deferred.py``): a new step — a buffer of a new family with several calls — is
compiled as one program at its first sighting, instead of compiling a kernel per call and the program at the third
sighting; when such programs keep not repeating (a loop unrolled to a new length each time), new families run call
by call again until one repeats. Oracles:
``jax.grad`` with the same SGD updates, numpy; XLA compiles counted through ``jax.monitoring``; the engine's
``STATS`` counters."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from xla_compiles import COMPILES

import pylayer_jax as paddle
from pylayer_jax._exec import deferred
from pylayer_jax._replay import follow


@pytest.fixture(autouse=True)
def _default_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    # the policy under test, whatever mode the suite runs in (PYLAYER_JAX_FUSE_AFTER=1, PYLAYER_JAX_LAZY=0), from an
    # empty buffer (calls an earlier test left unread would join the first step: see tests/deferred_policy.py)
    deferred.flush()
    monkeypatch.setattr(deferred, "ENABLED", True)
    monkeypatch.setattr(deferred, "FUSE_AFTER", 3)
    monkeypatch.setattr(deferred, "_STREAK", [0])
    monkeypatch.setattr(deferred, "_UNREPEATED", type(deferred._UNREPEATED)())
    follow.reset()


def _stats() -> dict[str, int]:
    return dict(deferred.STATS)


def _since(before: dict[str, int]) -> dict[str, int]:
    return {k: deferred.STATS[k] - before[k] for k in before}


def test_a_new_training_step_compiles_one_program_and_no_kernel() -> None:
    rng = np.random.default_rng(0)
    init = [rng.standard_normal(s) * 0.5 for s in [(3, 11), (11,), (11, 1), (1,)]]  # (a width no other test uses)
    x = rng.standard_normal((6, 3))
    params = [paddle.to_tensor(p, stop_gradient=False) for p in init]
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=params)
    ref = [jnp.asarray(p) for p in init]

    def loss_jax(ps: list, xs: jax.Array) -> jax.Array:
        w1, b1, w2, b2 = ps
        return jnp.mean((jnp.arcsinh(xs @ w1 + b1) @ w2 + b2) ** 2)

    grad = jax.jit(jax.value_and_grad(loss_jax))
    grad(ref, jnp.asarray(x))  # (the oracle's compile, before counting)
    before, c0 = _stats(), COMPILES[0]
    losses = []
    for _ in range(6):
        w1, b1, w2, b2 = params
        loss = ((paddle.matmul(paddle.asinh(paddle.matmul(paddle.to_tensor(x), w1) + b1), w2) + b2) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    d, compiles = _since(before), COMPILES[0] - c0
    # each step (forward, backward and the update joined to it: ``deferred.JOIN``) is one buffer of the same
    # signature: one program, compiled at its first sighting; no kernel run one by one, so none compiled for the step
    assert d["compiled"] == 1 and d["one_by_one"] == 0 and d["new_shape"] == 0, d
    assert compiles <= 2  # the program and a Python number's device array (once a process; none if cached)
    for got in losses:
        want, g = grad(ref, jnp.asarray(x))
        ref = [p - 0.1 * q for p, q in zip(ref, g)]
        np.testing.assert_allclose(got, float(want), rtol=1e-10)
    for p, r in zip(params, ref):
        np.testing.assert_allclose(p.numpy(), np.asarray(r), rtol=1e-10, atol=1e-12)


def test_first_sightings_that_never_repeat_fall_back_to_call_by_call(monkeypatch: pytest.MonkeyPatch) -> None:
    # a forward unrolled to a new length each time: a new family every time, whose program would never run again
    monkeypatch.setattr(deferred, "MAX_UNREPEATED", 2)
    rng = np.random.default_rng(1)
    wv, xv = rng.standard_normal((5, 5)) * 0.5, rng.standard_normal((2, 5))
    w = paddle.to_tensor(wv, stop_gradient=False)
    x = paddle.to_tensor(xv)

    def run(n: int) -> dict[str, int]:
        before = _stats()
        h = x
        for _ in range(n):
            h = paddle.cos(paddle.matmul(h, w))
        want = xv
        for _ in range(n):
            want = np.cos(want @ wv)
        np.testing.assert_allclose(h.numpy(), want, rtol=1e-12)
        return _since(before)

    for n in (2, 3):  # compiled at their first sighting
        d = run(n)
        assert d["compiled"] == 1 and d["one_by_one"] == 0, d
    d = run(4)  # two such programs never ran again: call by call
    assert d["compiled"] == 0 and d["one_by_one"] == 1 and d["calls_run"] == 8, d
    d = run(2)  # a program runs again: steps repeat, first sightings are compiled again
    assert d["compiled"] == 0 and d["one_by_one"] == 0 and d["programs"] == 1, d
    d = run(5)
    assert d["compiled"] == 1 and d["one_by_one"] == 0, d


def test_a_short_buffer_runs_call_by_call_at_first() -> None:
    before = _stats()
    x = paddle.to_tensor(np.arange(4.0) / 5, stop_gradient=False)
    y = paddle.atanh(x) * 3.0  # two calls: below FUSE_FIRST_CALLS
    np.testing.assert_allclose(y.numpy(), np.arctanh(np.arange(4.0) / 5) * 3.0, rtol=1e-12)
    d = _since(before)
    assert d["compiled"] == 0 and d["one_by_one"] == 1 and d["calls_run"] == 2, d
