"""Cases found by the programs ``tests/programs/p55_distributions.py`` and ``p56_schedules_clipping.py``, written as
Paddle code: ``record(paddle)`` runs them with the given library and returns what they give (values, gradients).
``record_paddle_program_diffs_o.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_o.json``;
``test_program_diffs_o.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np


def _v(t: Any) -> Any:
    return np.asarray(t.numpy()).astype(np.float64).tolist()


def _model(paddle: Any) -> Any:
    r = np.random.default_rng(3)
    m = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.Tanh(), paddle.nn.Linear(4, 2))
    m.set_state_dict({k: (r.standard_normal(p.shape) * 0.8).astype("float32") for k, p in m.state_dict().items()})
    return m


def _run(paddle: Any, make_opt: Any, steps: int = 3) -> list[Any]:
    """A few steps on a fixed batch with large targets (the gradients are large: every clip acts); the parameters
    after each step and the gradients the step leaves (a global-norm clip leaves them clipped)."""
    r = np.random.default_rng(4)
    x = paddle.to_tensor(r.standard_normal((6, 3)).astype("float32"))
    y = paddle.to_tensor((r.standard_normal((6, 2)) * 5 + 3).astype("float32"))
    m = _model(paddle)
    opt = make_opt(m)
    params, grads = [], []
    for _ in range(steps):
        loss = ((m(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        grads.append([_v(p.grad) for p in m.parameters()])
        opt.clear_grad()
        params.append([_v(p) for p in m.parameters()])
    return [params, grads]


def group_clip(paddle: Any, out: dict[str, Any]) -> None:
    """p56: with parameter groups, Paddle's step clips each group's gradients on their own (a global norm is the
    group's norm, the in-place clip leaves each group's gradients scaled by its own factor), and a group may name a
    grad_clip of its own (or None: that group is not clipped)."""
    nn, opt_ = paddle.nn, paddle.optimizer

    def groups(m: Any, **first: Any) -> list[dict[str, Any]]:
        return [{"params": m[0].parameters(), **first}, {"params": m[2].parameters()}]

    cases = {
        "sgd_global": lambda m: opt_.SGD(0.05, parameters=groups(m), grad_clip=nn.ClipGradByGlobalNorm(1.0)),
        "momentum_global_lr": lambda m: opt_.Momentum(0.05, momentum=0.9, parameters=groups(m, learning_rate=0.5),
                                                      grad_clip=nn.ClipGradByGlobalNorm(0.5)),
        "adam_global_wd": lambda m: opt_.Adam(0.05, parameters=groups(m, weight_decay=0.1),
                                              grad_clip=nn.ClipGradByGlobalNorm(0.3)),
        "adamw_global": lambda m: opt_.AdamW(0.05, parameters=groups(m), grad_clip=nn.ClipGradByGlobalNorm(0.3)),
        "own_norm": lambda m: opt_.SGD(0.05, parameters=groups(m, grad_clip=nn.ClipGradByNorm(0.2)),
                                       grad_clip=nn.ClipGradByValue(0.1)),
        "own_global": lambda m: opt_.Momentum(0.05, parameters=groups(m, grad_clip=nn.ClipGradByGlobalNorm(0.2))),
        "own_none": lambda m: opt_.SGD(0.05, parameters=groups(m, grad_clip=None),
                                       grad_clip=nn.ClipGradByGlobalNorm(0.5)),
        "no_groups_global": lambda m: opt_.SGD(0.05, parameters=m.parameters(),
                                               grad_clip=nn.ClipGradByGlobalNorm(1.0)),
    }
    for name, make in cases.items():
        out[f"group_clip_{name}"] = _run(paddle, make)


CASES = [group_clip]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
