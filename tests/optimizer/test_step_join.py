"""The optimizer's update joins the program of the backward before it: a repeated training step (forward,
backward, ``step()``, ``clear_grad()``) is one compiled program that takes the parameters and the optimizer's
state and returns their new values, without returning the gradients that ``clear_grad`` drops.

``backward()`` leaves its calls unrun when the last backward of the thread was followed by an optimizer's update
(``_exec.deferred.end_backward``); ``step()`` appends the update to them (``deferred.join``) and ``clear_grad()``
(or the next op, or a read) runs them. Oracles: the same loop with the update run after backward's program
(``deferred.JOIN = False``, the path the optimizer tests check against Paddle), and ``jax.grad`` of the loss.
"""

from __future__ import annotations

import weakref

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from mlp_loss import grad_jax as _grad_jax

import pylayer_jax as paddle
from pylayer_jax._exec import deferred

_rng = np.random.default_rng(5)
X = _rng.standard_normal((6, 4)).astype(np.float32)
P0 = [(_rng.standard_normal(s) * 0.5).astype(np.float32) for s in [(4, 5), (5,), (5, 3), (3,)]]
STEPS = 6



# calls joined to each step's backward: the update, and the global-norm clip's in-place write of the clipped
# gradients (Paddle's ``.grad`` holds them after the step; never computed when ``clear_grad`` drops them first)
JOINS = 2


def _make(rule: str, params: list) -> tuple:
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)
    clip = paddle.nn.ClipGradByGlobalNorm(0.5)
    if rule == "sgd":
        opt = paddle.optimizer.SGD(learning_rate=sched, parameters=params, weight_decay=0.01, grad_clip=clip)
    elif rule == "momentum":
        opt = paddle.optimizer.Momentum(learning_rate=sched, momentum=0.8, parameters=params, weight_decay=0.01,
                                        grad_clip=clip)
    else:
        opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=params, weight_decay=0.05, grad_clip=clip)
    return opt, sched


def _oracle_mode(monkeypatch: pytest.MonkeyPatch, join: bool) -> None:
    """The update run after backward's program (``join`` False), its calls run one by one (no program compiled for
    the reference: the test stays cheap), or joined and compiled as usual."""
    monkeypatch.setattr(deferred, "JOIN", join)
    monkeypatch.setattr(deferred, "FUSE_AFTER", 3 if join else 1000)


def _train(rule: str, join: bool, monkeypatch: pytest.MonkeyPatch, read_grad_at: int = -1) -> tuple:
    """Parameters after each step, the optimizer's state at the end, and the updates that joined a backward."""
    _oracle_mode(monkeypatch, join)
    params = [paddle.to_tensor(p, stop_gradient=False) for p in P0]
    x = paddle.to_tensor(X)
    opt, sched = _make(rule, params)
    before = deferred.STATS["joined"]
    history = []
    for k in range(STEPS):
        w1, b1, w2, b2 = params
        ((paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2) ** 2).mean().backward()
        if k == read_grad_at:  # a read between backward and step: the gradient, then the same update
            want = _grad_jax([jnp.asarray(p.numpy()) for p in params], jnp.asarray(X))
            for p, g in zip(params, want):
                np.testing.assert_allclose(p.grad.numpy(), g, rtol=1e-5, atol=1e-6)
        opt.step()
        opt.clear_grad()
        sched.step()
        history.append([p.numpy() for p in params])
    sd = opt.state_dict()  # (by each parameter's accumulator names, without the parameter's own name)
    state = {(i, k[len(p.name):]): sd[k].numpy() for i, p in enumerate(params) for k in sd if k.startswith(p.name + "_")}
    return history, state, deferred.STATS["joined"] - before


@pytest.mark.parametrize("rule", ["sgd", "momentum", "adamw"])
def test_the_joined_update_gives_the_parameters_and_state_of_the_update_run_apart(
        rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    want, want_state, joined_apart = _train(rule, False, monkeypatch)
    got, got_state, joined = _train(rule, True, monkeypatch)
    assert joined_apart == 0
    if deferred.ENABLED:  # (PYLAYER_JAX_LAZY=0: every call runs at once, nothing joins)
        assert joined == JOINS * STEPS  # every step: its backward was left for the update
    for k, (g, w) in enumerate(zip(got, want)):
        for i, (a, b) in enumerate(zip(g, w)):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=f"step {k}, parameter {i}")
    assert got_state.keys() == want_state.keys() and (rule == "sgd") == (not got_state)
    for name, v in want_state.items():
        np.testing.assert_allclose(got_state[name], v, rtol=1e-5, atol=1e-6, err_msg=str(name))


def test_reading_grad_between_backward_and_step_gives_the_gradient(monkeypatch: pytest.MonkeyPatch) -> None:
    """The read runs backward's calls (the gradients are computed); the update then runs after them, with the
    values of a loop without the read."""
    want, want_state, _ = _train("adamw", False, monkeypatch)
    got, got_state, joined = _train("adamw", True, monkeypatch, read_grad_at=4)
    if deferred.ENABLED:
        assert joined == JOINS * (STEPS - 1)  # the step with the read updated after backward's run
    for k, (g, w) in enumerate(zip(got, want)):
        for a, b in zip(g, w):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=f"step {k}")
    for name, v in want_state.items():
        np.testing.assert_allclose(got_state[name], v, rtol=1e-5, atol=1e-6, err_msg=str(name))


@pytest.mark.skipif(not deferred.ENABLED, reason="PYLAYER_JAX_LAZY=0: nothing is recorded, every call runs at once")
def test_a_repeated_step_is_one_program_that_returns_no_gradient() -> None:
    params = [paddle.to_tensor(p, stop_gradient=False) for p in P0]
    x = paddle.to_tensor(X)
    opt, _ = _make("adamw", params)  # (the step the tests above compiled)
    lives = []
    run = deferred._Buffer._run

    def spy(buf: deferred._Buffer, compile_ok: bool) -> None:
        lives.append(sum(r() is not None for r in buf.refs))
        run(buf, compile_ok)

    grads = []
    for k in range(12):
        if k == 8:
            before = dict(deferred.STATS)
        if k >= 8:
            deferred._Buffer._run = spy  # type: ignore[method-assign]
        try:
            w1, b1, w2, b2 = params
            ((paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2) ** 2).mean().backward()
            grads.append(weakref.ref(params[0]._acc.grad))
            opt.step()
            opt.clear_grad()
        finally:
            deferred._Buffer._run = run  # type: ignore[method-assign]
    d = {k: deferred.STATS[k] - before[k] for k in before}
    # each step: one run of one compiled program, with the update joined; nothing run call by call
    assert d["programs"] == 4 and d["joined"] == 4 * JOINS and d["one_by_one"] == 0 and d["compiled"] == 0, d
    # what it returns: the 4 parameters and the packed state (one array: every leaf is small), no gradient
    assert lives == [5] * 4
    assert grads[-1]() is None  # clear_grad dropped the gradient before the run: it never had a value


def test_a_failing_step_leaves_the_parameters_and_state_as_they_were(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that fails after the update joined it raises where it runs (here ``clear_grad``), and every
    parameter and the state keep their values from before the step, as when backward's run failed before the
    update; the next step trains on."""
    fail = [False]

    def host(v: np.ndarray) -> np.ndarray:
        if fail[0]:
            raise RuntimeError("device failure")
        return np.ones_like(v)

    ones = jax.jit(lambda v: jax.pure_callback(host, jax.ShapeDtypeStruct(v.shape, v.dtype), v))

    def train(join: bool, fail_at: int) -> tuple:
        _oracle_mode(monkeypatch, join)
        params = [paddle.to_tensor(p, stop_gradient=False) for p in P0]
        x = paddle.to_tensor(X)
        opt = paddle.optimizer.AdamW(learning_rate=0.1, parameters=params, weight_decay=0.05,  # (``_make``'s update)
                                     grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
        history = []
        for k in range(5):
            fail[0] = k == fail_at
            w1, b1, w2, b2 = params
            h = paddle.tanh(paddle.matmul(x, w1) + b1)
            c = paddle.Tensor(deferred.call(ones, [h._v]))  # ones, from a call that fails when it runs
            loss = ((paddle.matmul(h * c, w2) + b2) ** 2).mean()
            try:
                loss.backward()
                opt.step()
                opt.clear_grad()
            except Exception as e:  # (JAX's error for a failing callback)
                assert k == fail_at and "device failure" in str(e), e
                opt.clear_grad()
            sd = opt.state_dict()
            history.append(([p.numpy() for p in params],
                            {(i, n[len(p.name):]): sd[n].numpy() for i, p in enumerate(params) for n in sd
                             if n.startswith(p.name + "_")}))
        fail[0] = False
        return history

    want = train(False, -1)
    got = train(True, 3)
    for k in range(5):
        w = want[k] if k < 3 else want[k - 1]  # the failed step changed nothing: one step behind from there
        for a, b in zip(got[k][0], w[0]):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=f"step {k}")
        for name, v in w[1].items():
            np.testing.assert_allclose(got[k][1][name], v, rtol=1e-5, atol=1e-6, err_msg=f"step {k}, {name}")
