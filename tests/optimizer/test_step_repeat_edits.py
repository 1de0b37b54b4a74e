"""A training step that repeats the last one records its update by repeating the last one's
(``Optimizer._step_fast``), and a replayed step's update repeats even the last recorded entry
(``_exec.deferred.join_known``: each input checked where the last one's was). What a user may change between
backward and ``step()`` must still reach the update: a parameter rebound by ``set_value``, ``stop_gradient``
flipped, a gradient written by hand or two gradients swapped, a learning rate set to a new value.

Each case trains an 8x8 MLP for a few steps, makes its change in the middle step after the step has repeated
(its update joined to the replayed backward), and compares every parameter and the optimizer's state after each
step with the same loop where each update is recorded in full and run after backward's calls (``deferred.JOIN =
False``, the calls run one by one), and, for SGD, with the rule in numpy on ``jax.grad`` of the loss.
"""

from __future__ import annotations

from collections.abc import Callable

import jax.numpy as jnp
import numpy as np
import pytest
from mlp_loss import grad_jax as _grad_jax

import pylayer_jax as paddle
from pylayer_jax._exec import deferred

_rng = np.random.default_rng(21)
X = _rng.standard_normal((8, 8)).astype(np.float32)
P0 = [(_rng.standard_normal(s) * 0.5).astype(np.float32) for s in [(8, 8), (8,), (8, 8), (8,)]]
STEPS = 6
EDIT_AT = 3  # (steps 1 and 2 repeat the first: the edit comes in a step whose update would repeat the last one's)
LR = 0.1



def _set_value(params: list, opt: object) -> None:
    params[2].set_value(np.full((8, 8), 0.25, np.float32))


def _stop_gradient(params: list, opt: object) -> None:
    params[1].stop_gradient = True  # not updated in this step (set back after it)


def _grad_by_hand(params: list, opt: object) -> None:
    params[0].grad = paddle.to_tensor(np.full((8, 8), 0.5, np.float32))


def _grads_swapped(params: list, opt: object) -> None:
    params[0].grad, params[2].grad = params[2].grad, params[0].grad  # (the write reads them: backward's calls run)


def _new_lr(params: list, opt: object) -> None:
    opt.set_lr(0.03)


EDITS: dict[str, Callable[[list, object], None]] = {
    "set_value": _set_value, "stop_gradient": _stop_gradient, "grad_by_hand": _grad_by_hand,
    "grads_swapped": _grads_swapped, "new_lr": _new_lr,
}


def _train(rule: str, edit: str, repeat: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[list, list, list]:
    """(parameters after each step, the state after each step, whether each step's update repeated the last one)."""
    monkeypatch.setattr(deferred, "JOIN", repeat)
    monkeypatch.setattr(deferred, "FUSE_AFTER", 3 if repeat else 1000)  # (the reference runs call by call: cheap)
    params = [paddle.to_tensor(p, stop_gradient=False) for p in P0]
    x = paddle.to_tensor(X)
    if rule == "sgd":
        opt = paddle.optimizer.SGD(learning_rate=LR, parameters=params)
    else:
        opt = paddle.optimizer.AdamW(learning_rate=LR, parameters=params, weight_decay=0.05)
    fast_at: list[bool] = []
    if repeat:
        step_fast = opt._step_fast

        def spy(*a: object) -> bool:
            fast_at[-1] = step_fast(*a)
            return fast_at[-1]

        monkeypatch.setattr(opt, "_step_fast", spy)
    else:
        monkeypatch.setattr(opt, "_fast_record", lambda *a: None)  # every update recorded in full
    history, states = [], []
    for k in range(STEPS):
        w1, b1, w2, b2 = params
        ((paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2) ** 2).mean().backward()
        if k == EDIT_AT:
            EDITS[edit](params, opt)
        fast_at.append(False)
        opt.step()
        opt.clear_grad()
        params[1].stop_gradient = False
        history.append([p.numpy() for p in params])
        sd = opt.state_dict()
        states.append({n[len(p.name):]: sd[n].numpy() for p in params for n in sd if n.startswith(p.name + "_")})
    return history, states, fast_at


def _sgd_oracle(edit: str) -> list:
    """SGD's parameters after each step, in numpy on ``jax.grad`` of the loss, with the same edits."""
    ps = [p.astype(np.float64) for p in P0]
    out = []
    for k in range(STEPS):
        g = [np.asarray(v, np.float64) for v in _grad_jax([jnp.asarray(p, jnp.float32) for p in ps], jnp.asarray(X))]
        lr = LR
        use = [True] * 4
        if k == EDIT_AT:
            if edit == "set_value":
                ps = [*ps[:2], np.full((8, 8), 0.25), ps[3]]
            elif edit == "stop_gradient":
                use[1] = False
            elif edit == "grad_by_hand":
                g[0] = np.full((8, 8), 0.5)
            elif edit == "grads_swapped":
                g[0], g[2] = g[2], g[0]
        if k >= EDIT_AT and edit == "new_lr":
            lr = 0.03
        ps = [p - lr * gi if u else p for p, gi, u in zip(ps, g, use)]
        out.append(ps)
    return out


@pytest.mark.parametrize(("rule", "edit"), [*[("sgd", e) for e in EDITS], ("adamw", "set_value"),
                                            ("adamw", "grad_by_hand")])
def test_an_edit_between_backward_and_step_reaches_the_repeated_update(
        rule: str, edit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    want, want_states, _ = _train(rule, edit, False, monkeypatch)
    got, got_states, fast_at = _train(rule, edit, True, monkeypatch)
    for k in range(STEPS):
        for i, (a, b) in enumerate(zip(got[k], want[k])):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=f"step {k}, parameter {i}")
        assert got_states[k].keys() == want_states[k].keys()
        for name, v in want_states[k].items():
            np.testing.assert_allclose(got_states[k][name], v, rtol=1e-5, atol=1e-6, err_msg=f"step {k}, {name}")
    if rule == "sgd":
        for k, ps in enumerate(_sgd_oracle(edit)):
            for i, (a, b) in enumerate(zip(got[k], ps)):
                np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5, err_msg=f"numpy, step {k}, parameter {i}")
    if deferred.ENABLED:  # (PYLAYER_JAX_LAZY=0: nothing is recorded, nothing repeats)
        # the steps before the edit repeat the first one's update; so does the edit's own step when what changed is
        # an input (a parameter's value, a gradient, the rate), and the loop repeats again after it
        assert fast_at[1:EDIT_AT] == [True] * (EDIT_AT - 1), fast_at
        assert fast_at[EDIT_AT] == (edit != "stop_gradient"), fast_at
        assert fast_at[-1], fast_at
