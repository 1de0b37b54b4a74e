"""A training step that repeats the last one records its update without rebuilding it, and stateful
element-wise rules update parameters of the same settings as one flat parameter: both give the
values of the rule.

``step()`` of a step like the last one (the same parameters with gradients of the same shapes, the state
packed by the last step, the gradients those of the backward whose calls wait for the update or computed with
nothing recorded since backward's run) appends the noted update call to the buffer (``Optimizer._step_fast``:
``_exec.deferred.join_known`` or ``call_first``), and the step is replayed as one compiled program.
The tests run eager steps, with an ``LRScheduler`` that changes the rate and a step where one
parameter has no gradient (``clear_grad(set_to_zero=False)`` and a loss that does not use it), and
check every parameter and the optimizer's state after each step against Paddle's rules written in
numpy on gradients from ``jax.grad`` of the same loss in float64.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax._exec import deferred

_rng = np.random.default_rng(11)
X = _rng.standard_normal((6, 4))
P0 = [_rng.standard_normal(s) * 0.5 for s in [(4, 5), (5,), (5, 3), (3,)]]
B1, B2, EPS, WD, MOM = 0.9, 0.999, 1e-8, 0.05, 0.8
STEPS = 8
NO_B2 = 4  # the step in which the loss does not use the last bias (its gradient stays None)


def _loss_jax(ps: list, x: jax.Array, use_b2: bool) -> jax.Array:
    w1, b1, w2, b2 = ps
    out = jnp.tanh(x @ w1 + b1) @ w2
    return jnp.mean((out + b2 if use_b2 else out) ** 2)


def _lr(k: int) -> float:  # StepDecay(0.1, step_size=3, gamma=0.5), advanced after each step
    return 0.1 * 0.5 ** (k // 3)


class _Oracle:
    """Paddle's rules in numpy (float64): each parameter's state advances only in the steps that update it."""

    def __init__(self, rule: str) -> None:
        self.rule = rule
        self.p = [p.copy() for p in P0]
        self.st = [None] * 4

    def step(self, k: int) -> None:
        use_b2 = k != NO_B2
        g = [np.asarray(v, np.float64) for v in jax.grad(_loss_jax)([jnp.asarray(p) for p in self.p],
                                                                    jnp.asarray(X), use_b2)]
        lr = _lr(k)
        for i in range(4 if use_b2 else 3):
            p, gi = self.p[i], g[i]
            if self.rule == "sgd":
                self.p[i] = p - lr * gi
            elif self.rule == "momentum":
                v = np.zeros_like(p) if self.st[i] is None else self.st[i][0]
                v = MOM * v + gi
                self.st[i] = (v,)
                self.p[i] = p - lr * v
            else:  # adamw
                m1, m2, b1p, b2p = self.st[i] or (np.zeros_like(p), np.zeros_like(p), B1, B2)
                m1 = B1 * m1 + (1 - B1) * gi
                m2 = B2 * m2 + (1 - B2) * gi * gi
                corr = np.sqrt(1 - b2p) / (1 - b1p)
                d = corr * m1 / (np.sqrt(m2) + EPS * np.sqrt(1 - b2p))
                self.p[i] = p - lr * (d + WD * p)
                self.st[i] = (m1, m2, b1p * B1, b2p * B2)


def _make(rule: str, params: list, sched: object) -> object:
    if rule == "sgd":
        return paddle.optimizer.SGD(learning_rate=sched, parameters=params)
    if rule == "momentum":
        return paddle.optimizer.Momentum(learning_rate=sched, momentum=MOM, parameters=params)
    return paddle.optimizer.AdamW(learning_rate=sched, beta1=B1, beta2=B2, epsilon=EPS, weight_decay=WD,
                                  parameters=params)


@pytest.mark.parametrize("rule", ["sgd", "momentum", "adamw"])
def test_repeated_steps_follow_the_rule(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = []
    params = [paddle.to_tensor(p.astype(np.float32), stop_gradient=False) for p in P0]
    x = paddle.to_tensor(X.astype(np.float32))
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=3, gamma=0.5)
    opt = _make(rule, params, sched)
    repeat = opt._step_fast

    def spy(*a: object) -> bool:
        done = repeat(*a)
        fast.append(done)
        return done

    monkeypatch.setattr(opt, "_step_fast", spy)
    oracle = _Oracle(rule)
    fast_at = []
    for k in range(STEPS):
        w1, b1, w2, b2 = params
        out = paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2)
        if k != NO_B2:
            out = out + b2
        (out**2).mean().backward()
        n = len(fast)
        opt.step()
        fast_at.append(len(fast) > n and fast[-1])
        opt.clear_grad(set_to_zero=k + 1 != NO_B2)  # None before the step that leaves b2 out
        sched.step()
        oracle.step(k)
        for i, (p, want) in enumerate(zip(params, oracle.p)):
            np.testing.assert_allclose(p.numpy(), want, rtol=2e-5, atol=2e-6, err_msg=f"step {k}, parameter {i}")
        if rule != "sgd":
            sd = opt.state_dict()
            names = ("velocity",) if rule == "momentum" else ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")
            for i, p in enumerate(params):
                for name, want in zip(names, oracle.st[i]):
                    got = sd[f"{p.name}_{name}_0"].numpy()
                    np.testing.assert_allclose(got, np.broadcast_to(want, got.shape), rtol=2e-5, atol=1e-6,
                                               err_msg=f"step {k}, parameter {i}, {name}")
    # recorded in full: the first step, the one without b2's gradient and the one after it (other parameters
    # than the last step's), and any step after a read of the state (state_dict splits the pack: a step reads
    # the parameters' state through it); the others repeat the last step's update
    if not deferred.ENABLED:  # (PYLAYER_JAX_LAZY=0: every call runs at once, nothing is recorded)
        return
    assert not fast_at[0] and not fast_at[NO_B2] and not fast_at[NO_B2 + 1]
    if rule == "sgd":
        assert all(fast_at[k] for k in range(1, STEPS) if k not in (NO_B2, NO_B2 + 1)), fast_at
    else:
        assert any(fast_at), fast_at


def test_replayed_steps_run_one_program_with_the_update() -> None:
    """From the third repetition on, each step (update, forward, backward) is one compiled program, and the
    update is recorded by the repeat path; the values still follow the rule."""
    params = [paddle.to_tensor(p.astype(np.float32), stop_gradient=False) for p in P0]
    x = paddle.to_tensor(X.astype(np.float32))
    opt = paddle.optimizer.AdamW(learning_rate=0.1, beta1=B1, beta2=B2, epsilon=EPS, weight_decay=WD,
                                 parameters=params)
    runs = []
    for _ in range(STEPS):
        w1, b1, w2, b2 = params
        ((paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2) ** 2).mean().backward()
        before = dict(deferred.STATS)
        opt.step()
        opt.clear_grad()
        runs.append(before)
    o = _Oracle("adamw")  # (at the rate 0.1 throughout)
    for _ in range(STEPS):
        g = [np.asarray(v, np.float64) for v in jax.grad(_loss_jax)([jnp.asarray(p) for p in o.p],
                                                                    jnp.asarray(X), True)]
        for i in range(4):
            p, gi = o.p[i], g[i]
            m1, m2, b1p, b2p = o.st[i] or (np.zeros_like(p), np.zeros_like(p), B1, B2)
            m1 = B1 * m1 + (1 - B1) * gi
            m2 = B2 * m2 + (1 - B2) * gi * gi
            d = np.sqrt(1 - b2p) / (1 - b1p) * m1 / (np.sqrt(m2) + EPS * np.sqrt(1 - b2p))
            o.p[i] = p - 0.1 * (d + WD * p)
            o.st[i] = (m1, m2, b1p * B1, b2p * B2)
    for p, want in zip(params, o.p):
        np.testing.assert_allclose(p.numpy(), want, rtol=2e-5, atol=2e-6)
    if deferred.ENABLED:  # (PYLAYER_JAX_LAZY=0: every call runs at once)
        assert runs[-1]["programs"] > runs[2]["programs"]  # the later steps ran compiled programs


def test_groups_of_different_settings_update_apart() -> None:
    """Parameter groups with their own rates are updated as two flat parameters, each with its own rate."""
    params = [paddle.to_tensor(p.astype(np.float32), stop_gradient=False) for p in P0]
    x = paddle.to_tensor(X.astype(np.float32))
    opt = paddle.optimizer.Adam(learning_rate=0.1, beta1=B1, beta2=B2, epsilon=EPS, parameters=[
        {"params": params[:2]}, {"params": params[2:], "learning_rate": 0.5}])
    want = [p.copy() for p in P0]
    st = [(np.zeros_like(p), np.zeros_like(p), B1, B2) for p in P0]
    for _ in range(6):
        w1, b1, w2, b2 = params
        ((paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2) ** 2).mean().backward()
        opt.step()
        opt.clear_grad()
        g = [np.asarray(v, np.float64) for v in jax.grad(_loss_jax)([jnp.asarray(p) for p in want],
                                                                    jnp.asarray(X), True)]
        for i in range(4):
            m1, m2, b1p, b2p = st[i]
            m1 = B1 * m1 + (1 - B1) * g[i]
            m2 = B2 * m2 + (1 - B2) * g[i] ** 2
            d = np.sqrt(1 - b2p) / (1 - b1p) * m1 / (np.sqrt(m2) + EPS * np.sqrt(1 - b2p))
            want[i] = want[i] - (0.1 if i < 2 else 0.05) * d
            st[i] = (m1, m2, b1p * B1, b2p * B2)
    for p, w in zip(params, want):
        np.testing.assert_allclose(p.numpy(), w, rtol=2e-5, atol=2e-6)
    assert len(opt._pack[1].groups) == 2


def test_a_rate_changing_every_step_is_a_number_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scheduler whose rate changes every step (cosine annealing): the rate goes to the step's program as a Python
    number, so no step transfers it to the device (a transfer costs 4-30 µs a call) or compiles again, and the
    repeated update still follows SGD's rule at each step's rate."""
    import pylayer_jax.optimizer._optimizer as opt_module

    params = [paddle.to_tensor(p.astype(np.float32), stop_gradient=False) for p in P0]
    x = paddle.to_tensor(X.astype(np.float32))
    sched = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.1, T_max=10)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=params)
    puts = []
    real_put, real_number = opt_module.jax.device_put, opt_module.put_number
    monkeypatch.setattr(opt_module.jax, "device_put", lambda *a, **k: puts.append(a) or real_put(*a, **k))
    monkeypatch.setattr(opt_module, "put_number", lambda v: puts.append(v) or real_number(v))
    want = [p.copy() for p in P0]
    compiled = []
    for k in range(STEPS + 4):
        w1, b1, w2, b2 = params
        ((paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2) ** 2).mean().backward()
        opt.step()
        opt.clear_grad()
        g = jax.grad(_loss_jax)([jnp.asarray(p) for p in want], jnp.asarray(X), True)
        lr = 0.05 * (1 + np.cos(np.pi * k / 10))  # the cosine schedule's rate at step k
        want = [p - lr * np.asarray(gi, np.float64) for p, gi in zip(want, g)]
        sched.step()
        for i, (p, w) in enumerate(zip(params, want)):
            np.testing.assert_allclose(p.numpy(), w, rtol=2e-5, atol=2e-6, err_msg=f"step {k}, parameter {i}")
        compiled.append(deferred.STATS["compiled"])
    assert puts == []
    if deferred.ENABLED:  # (PYLAYER_JAX_LAZY=0: every call runs at once, nothing is recorded)
        assert compiled[-1] == compiled[3], compiled
