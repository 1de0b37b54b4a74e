"""Small steps (``_exec/deferred.py``): a new step, or a known step on new shapes, whose inputs and values are all
under ``SMALL_BYTES`` is compiled with ``_SMALL_OPTIONS`` (XLA's backend optimisation and CPU fusion emitters off:
it compiles faster) and keeps that program when it repeats; a large step is compiled as before. Oracles: ``jax.grad``
with the same SGD updates; the options each program was made with, through a spy on ``deferred._jit``; XLA compiles
counted through ``jax.monitoring``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from deferred_policy import default_policy
from xla_compiles import COMPILES

import pylayer_jax as paddle
from pylayer_jax._autograd import row_buckets
from pylayer_jax._exec import deferred

LR = 0.1


@pytest.fixture(autouse=True)
def _policy(monkeypatch: pytest.MonkeyPatch) -> list:
    default_policy(monkeypatch, buckets=False)
    monkeypatch.setattr(deferred, "_STREAK", [0])
    monkeypatch.setattr(deferred, "_UNREPEATED", type(deferred._UNREPEATED)())
    made: list = []  # the XLA options of every program made, in order
    jit = deferred._jit

    def spy(calls: tuple, live: tuple, options: dict | None = None) -> object:
        made.append(options)
        return jit(calls, live, options)

    monkeypatch.setattr(deferred, "_jit", spy)
    return made


class Trainer:
    """A one-layer model ``mean(act(x @ w + b) ** 2)`` trained by SGD eagerly, and the same steps by ``jax.grad``.
    Each test uses its own width, so that no test meets the programs of another; a test of a new step, its own
    ``act`` (a step of the same ops on other shapes is a known step on new shapes)."""

    def __init__(self, rows: int, width: int, act: str = "sinh") -> None:
        rng = np.random.default_rng(width)
        init = [rng.standard_normal((rows, width)) * 0.1, rng.standard_normal(width) * 0.1]
        self.params = [paddle.to_tensor(p, stop_gradient=False) for p in init]
        self.opt = paddle.optimizer.SGD(learning_rate=LR, parameters=self.params)
        self.ref = [jnp.asarray(p) for p in init]
        self.grad = jax.jit(jax.value_and_grad(lambda ps, x: jnp.mean(getattr(jnp, act)(x @ ps[0] + ps[1]) ** 2)))
        self.rows = rows
        self.act = act
        self.compiles = 0  # XLA compiles of our steps (the oracle's are not counted)

    def step(self, b: int) -> None:
        x = np.random.default_rng(b).standard_normal((b, self.rows))
        c0 = COMPILES[0]
        w, bias = self.params
        loss = (getattr(paddle, self.act)(paddle.matmul(paddle.to_tensor(x), w) + bias) ** 2).mean()
        loss.backward()
        got = float(loss)
        self.opt.step()
        self.opt.clear_grad()
        self.compiles += COMPILES[0] - c0
        want, g = self.grad(self.ref, jnp.asarray(x))
        self.ref = [p - LR * d for p, d in zip(self.ref, g)]
        np.testing.assert_allclose(got, float(want), rtol=1e-10)

    def check_params(self) -> None:
        for p, r in zip(self.params, self.ref):
            np.testing.assert_allclose(p.numpy(), np.asarray(r), rtol=1e-10, atol=1e-12)


def test_a_small_new_step_is_compiled_quickly_and_kept_when_it_repeats(_policy: list) -> None:
    t = Trainer(3, 7)
    t.step(4)  # the first step (no update yet) and the loop's step: each a new step, small
    t.step(4)
    assert _policy == [deferred._SMALL_OPTIONS] * 2
    assert deferred._SMALL_OK[0] is True  # this jaxlib takes both options
    c0, before = t.compiles, dict(deferred.STATS)
    for _ in range(4):  # it repeats: the same program, not compiled again optimised
        t.step(4)
    assert t.compiles == c0 and deferred.STATS["compiled"] == before["compiled"]
    assert _policy == [deferred._SMALL_OPTIONS] * 2
    t.check_params()


def test_a_small_step_run_upgrade_after_times_is_compiled_again_optimised(monkeypatch: pytest.MonkeyPatch,
                                                                            _policy: list) -> None:
    monkeypatch.setattr(deferred, "UPGRADE_AFTER", 3)
    t = Trainer(3, 13, "cos")
    for _ in range(3):  # the first step once, the loop's step twice
        t.step(4)
    assert _policy == [deferred._SMALL_OPTIONS] * 2
    c0 = t.compiles
    for _ in range(3):  # its third run compiles it with XLA's defaults; then that program runs
        t.step(4)
    assert _policy == [deferred._SMALL_OPTIONS] * 2 + [None] and t.compiles - c0 == 1
    t.check_params()


def test_a_large_new_step_is_compiled_with_xlas_default_options(_policy: list) -> None:
    t = Trainer(260, 128, "cosh")  # w: 260 x 128 float64, 260 KiB
    t.step(2)
    t.step(2)
    assert _policy == [None, None]
    t.check_params()


def test_a_small_step_on_a_new_shape_keeps_its_quick_program_at_its_third_sighting(_policy: list) -> None:
    t = Trainer(3, 9)
    t.step(4)
    t.step(5)
    del _policy[:]
    before, c0 = dict(deferred.STATS), t.compiles
    known = {k for k, _ in deferred._PROGRAMS.items()}  # (programs other tests left: not this step's)
    for _ in range(4):  # a new batch size: a known step on new shapes, small
        t.step(8)
    d = {k: deferred.STATS[k] - before[k] for k in before}
    assert d["new_shape"] == 1 and d["compiled"] == 1 and t.compiles - c0 == 1, (d, t.compiles - c0)
    assert _policy == [deferred._SMALL_OPTIONS]
    # from its third sighting the program is a step's (a replayed step notes it)
    progs = [p for k, p in deferred._PROGRAMS.items()
             if k not in known and any(type(a) is tuple and a[0] == (8, 3) for a in k[2])]
    assert progs and all(type(p) is deferred._Small for p in progs)
    t.check_params()


def test_a_large_step_on_a_new_shape_is_compiled_optimised_at_its_third_sighting(_policy: list) -> None:
    t = Trainer(3, 10)
    t.step(4)
    t.step(5)
    del _policy[:]
    for _ in range(3):  # the third sighting compiles it with XLA's defaults
        t.step(11000)  # x: 11000 x 3 float64, 258 KiB
    assert _policy == [deferred._QUICK_OPTIONS, None]
    t.check_params()


def test_options_xla_rejects_fall_back_to_the_quick_options_once(monkeypatch: pytest.MonkeyPatch,
                                                                 _policy: list) -> None:
    monkeypatch.setattr(deferred, "_SMALL_OPTIONS", {"xla_no_such_option_here": True})
    monkeypatch.setattr(deferred, "_SMALL_OK", [None])
    t = Trainer(3, 12, "tanh")
    t.step(4)
    assert deferred._SMALL_OK[0] is False
    t.step(4)
    assert _policy == [{"xla_no_such_option_here": True}, deferred._QUICK_OPTIONS, deferred._QUICK_OPTIONS]
    t.check_params()


def test_a_small_steps_bucket_program_is_compiled_quickly_too(monkeypatch: pytest.MonkeyPatch,
                                                               _policy: list) -> None:
    monkeypatch.setattr(deferred, "BUCKETS", True)
    t = Trainer(3, 14, "sin")
    t.step(4)
    t.step(5)
    known = set(row_buckets._PROGRAMS)
    before = dict(deferred.STATS)
    t.step(7)  # a new batch size: run padded to a bucket by a program of its own
    new = [p for k, p in row_buckets._PROGRAMS.items() if k not in known]
    assert deferred.STATS["bucketed"] - before["bucketed"] == 1
    assert len(new) == 1 and type(new[0]) is deferred.Small
    t.check_params()
