"""Record Paddle 3.3.1's optimizer trajectories into tests/data/paddle_optimizers.json.

Run with the Paddle oracle: ``/tmp/paddle/bin/python tests/record_paddle_optimizers.py``.
A tiny linear regression ``mean((x @ w + b - y) ** 2)`` with two parameters is trained for
10 steps by each optimizer, plain and with weight decay (float, L1Decay, L2Decay), gradient
clipping (by value, by norm, by global norm), a StepDecay scheduler, and per-optimizer
variants, in float32 and float64. Each run stores the parameters after every step (or the
exception Paddle raised).
"""

from __future__ import annotations

import json
import os

import numpy as np
import paddle

STEPS = 10
RNG = np.random.default_rng(7)
X = RNG.standard_normal((8, 3))
Y = RNG.standard_normal((8, 2))
W0 = RNG.standard_normal((3, 2)) * 0.5
B0 = RNG.standard_normal((2,)) * 0.5

BASE = {
    "SGD": {"learning_rate": 0.1},
    "Momentum": {"learning_rate": 0.05, "momentum": 0.9},
    "Adam": {"learning_rate": 0.05},
    "AdamW": {"learning_rate": 0.05},
    "Adamax": {"learning_rate": 0.05},
    "Adagrad": {"learning_rate": 0.1},
    "Adadelta": {"learning_rate": 1.0},
    "RMSProp": {"learning_rate": 0.01},
    "Lamb": {"learning_rate": 0.05},
    "NAdam": {"learning_rate": 0.05},
    "RAdam": {"learning_rate": 0.05},
    "ASGD": {"learning_rate": 0.05, "batch_num": 3},
    "Rprop": {"learning_rate": 0.01},
}

VARIANTS = {
    "Momentum": [{"use_nesterov": True}, {"rescale_grad": 0.5, "weight_decay": 0.1}],
    "Adam": [{"amsgrad": True}, {"beta1": 0.8, "beta2": 0.9, "epsilon": 1e-3}],
    "AdamW": [
        {"weight_decay": 0.2},
        {"weight_decay": 0.2, "lr_ratio": "half_for_b", "apply_decay_param_fun": "only_w"},
        {"amsgrad": True},
    ],
    "Adagrad": [{"initial_accumulator_value": 0.1, "epsilon": 1e-3}],
    "Adadelta": [{"rho": 0.8, "epsilon": 1e-4}],
    "RMSProp": [{"centered": True, "momentum": 0.5}, {"momentum": 0.9, "rho": 0.9}],
    "Lamb": [{"lamb_weight_decay": 0.1}, {"exclude_from_weight_decay_fn": "exclude_b"}, {"always_adapt": True}],
    "NAdam": [{"momentum_decay": 0.01, "beta2": 0.99}],
    "RAdam": [{"beta1": 0.8, "beta2": 0.99}],
    "ASGD": [{"batch_num": 1}],
    "Rprop": [{"etas": (0.3, 1.5), "learning_rate_range": (1e-3, 0.02)}],
}

CASES = {
    "plain": {},
    "wd_float": {"weight_decay": 0.1},
    "wd_l1": {"weight_decay": "L1"},
    "wd_l2": {"weight_decay": "L2"},
    "clip_value": {"grad_clip": ("value", 0.3)},
    "clip_norm": {"grad_clip": ("norm", 0.5)},
    "clip_global": {"grad_clip": ("global", 0.5)},
    "sched": {"scheduler": True},
}


def make_kwargs(spec: dict, names: dict) -> dict:
    out = {}
    for k, v in spec.items():
        if k == "weight_decay" and v == "L1":
            out[k] = paddle.regularizer.L1Decay(0.1)
        elif k == "weight_decay" and v == "L2":
            out[k] = paddle.regularizer.L2Decay(0.1)
        elif k == "grad_clip":
            kind, c = v
            out[k] = {"value": paddle.nn.ClipGradByValue, "norm": paddle.nn.ClipGradByNorm,
                      "global": paddle.nn.ClipGradByGlobalNorm}[kind](c)
        elif v == "half_for_b":
            out[k] = lambda p: 0.5 if p.name == names["b"] else 1.0
        elif v == "only_w":
            out[k] = lambda n: n == names["w"]
        elif v == "exclude_b":
            out[k] = lambda p: p.name == names["b"]
        elif k != "scheduler":
            out[k] = v
    return out


def run(opt_name: str, spec: dict, dtype: str) -> dict:
    paddle.seed(0)
    w = paddle.create_parameter([3, 2], dtype, default_initializer=paddle.nn.initializer.Assign(W0.astype(dtype)))
    b = paddle.create_parameter([2], dtype, default_initializer=paddle.nn.initializer.Assign(B0.astype(dtype)))
    names = {"w": w.name, "b": b.name}
    kw = dict(BASE[opt_name])
    kw.update(make_kwargs(spec, names))
    sched = None
    if spec.get("scheduler"):
        sched = paddle.optimizer.lr.StepDecay(kw["learning_rate"], step_size=3, gamma=0.5)
        kw["learning_rate"] = sched
    x, y = paddle.to_tensor(X.astype(dtype)), paddle.to_tensor(Y.astype(dtype))
    try:
        opt = getattr(paddle.optimizer, opt_name)(parameters=[w, b], **kw)
        traj = []
        for _ in range(STEPS):
            loss = ((paddle.matmul(x, w) + b - y) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            if sched is not None:
                sched.step()
            traj.append([w.numpy().tolist(), b.numpy().tolist()])
        return {"traj": traj}
    except Exception as e:  # noqa: BLE001 - the oracle's exception is what we record
        return {"error": type(e).__name__, "message": str(e)[:300]}


def jsonable(spec: dict) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in spec.items()}


def main() -> None:
    rows = []
    for opt_name in BASE:
        specs = [(c, s) for c, s in CASES.items()]
        specs += [(f"variant{i}", s) for i, s in enumerate(VARIANTS.get(opt_name, []))]
        for case, spec in specs:
            for dtype in ("float32", "float64"):
                res = run(opt_name, spec, dtype)
                rows.append({"optimizer": opt_name, "case": case, "dtype": dtype, "spec": jsonable(spec), **res})
    out = {"x": X.tolist(), "y": Y.tolist(), "w0": W0.tolist(), "b0": B0.tolist(), "steps": STEPS,
           "base": BASE, "rows": rows, "extras": extras()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_optimizers.json")
    with open(path, "w") as f:
        json.dump(out, f)
    print("wrote", path, len(rows), "rows")


def extras() -> dict:
    """Single facts: the SGD weight-decay example, state_dict keys, errors, groups."""
    res = {}
    # SGD lr 0.1, weight_decay 0.5, 5 steps on sum((w - 3)^2) from w = [0, 1]
    w = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Assign(np.array([0.0, 1.0], "float32")))
    opt = paddle.optimizer.SGD(0.1, parameters=[w], weight_decay=0.5)
    for _ in range(5):
        ((w - 3.0) ** 2).sum().backward()
        opt.step()
        opt.clear_grad()
    res["sgd_decay_example"] = w.numpy().tolist()
    # state_dict keys of Adam with a scheduler, after one step
    w = paddle.create_parameter([2], "float32", name="lin.w_0")
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=3)
    opt = paddle.optimizer.Adam(sched, parameters=[w])
    (w * w).sum().backward()
    opt.step()
    sd = opt.state_dict()
    res["adam_state_keys"] = sorted(sd.keys())
    res["adam_state_lr"] = {k: v for k, v in sd["LR_Scheduler"].items()}
    res["adam_state_shapes"] = {k: list(v.shape) for k, v in sd.items() if k != "LR_Scheduler"}
    res["adam_state_values"] = {k: np.asarray(v).tolist() for k, v in sd.items() if k != "LR_Scheduler"}
    for name in BASE:
        w = paddle.create_parameter([2], "float32", name=f"sd_{name}.w_0")
        kw = dict(BASE[name])
        opt = getattr(paddle.optimizer, name)(parameters=[w], **kw)
        (w * w).sum().backward()
        opt.step()
        res.setdefault("state_keys", {})[name] = sorted(opt.state_dict().keys())
    # parameter groups: 'learning_rate' multiplies the optimizer's, 'weight_decay' per group
    w = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Assign(np.array([1.0, 2.0], "float32")))
    b = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Assign(np.array([-1.0, 0.5], "float32")))
    opt = paddle.optimizer.SGD(0.1, parameters=[{"params": [w], "learning_rate": 0.5, "weight_decay": 0.2}, {"params": [b]}],
                               weight_decay=0.05)
    for _ in range(3):
        ((w - 3.0) ** 2).sum().backward()
        ((b + 1.0) ** 3).sum().backward()
        opt.step()
        opt.clear_grad()
    res["groups_sgd"] = [w.numpy().tolist(), b.numpy().tolist()]
    # a parameter's own regularizer and optimize_attr learning rate, need_clip=False
    w = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Assign(np.array([1.0, 2.0], "float32")),
                                attr=paddle.ParamAttr(regularizer=paddle.regularizer.L1Decay(0.3), learning_rate=2.0, need_clip=False))
    b = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Assign(np.array([-1.0, 0.5], "float32")))
    opt = paddle.optimizer.Momentum(0.1, parameters=[w, b], weight_decay=paddle.regularizer.L2Decay(0.1),
                                    grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
    for _ in range(3):
        ((w - 3.0) ** 2).sum().backward()
        ((b + 1.0) ** 3).sum().backward()
        opt.step()
        opt.clear_grad()
    res["param_attrs_momentum"] = [w.numpy().tolist(), b.numpy().tolist()]
    # errors
    errs = {}
    t = paddle.create_parameter([2], "float32")
    for key, fn in {
        "single_tensor": lambda: paddle.optimizer.SGD(0.1, parameters=t),
        "group_without_params": lambda: paddle.optimizer.SGD(0.1, parameters=[{"learning_rate": 0.1}]),
        "lr_string": lambda: paddle.optimizer.SGD("fast", parameters=[t]),
        "set_lr_with_scheduler": lambda: paddle.optimizer.SGD(paddle.optimizer.lr.StepDecay(0.1, 2), parameters=[t]).set_lr(0.5),
        "set_lr_string": lambda: paddle.optimizer.SGD(0.1, parameters=[t]).set_lr("a"),
        "weight_decay_string": lambda: paddle.optimizer.SGD(0.1, parameters=[t], weight_decay="l2"),
        "adamw_l2": lambda: paddle.optimizer.AdamW(0.1, parameters=[t], weight_decay=paddle.regularizer.L2Decay(0.1)),
        "grad_clip_float": lambda: paddle.optimizer.SGD(0.1, parameters=[t], grad_clip=0.5),
        "unknown_kwarg": lambda: paddle.optimizer.SGD(0.1, parameters=[t], momentum=0.9),
    }.items():
        try:
            fn()
            errs[key] = None
        except Exception as e:  # noqa: BLE001
            errs[key] = {"error": type(e).__name__, "message": str(e)[:300]}
    res["errors"] = errs
    return res




def record_lbfgs() -> None:
    """LBFGS with and without the strong-Wolfe line search: parameters after each of 3 step(closure) calls."""
    rows = []
    for ls in (None, "strong_wolfe"):
        for dtype in ("float32", "float64"):
            w = paddle.create_parameter([3, 2], dtype, default_initializer=paddle.nn.initializer.Assign(W0.astype(dtype)))
            b = paddle.create_parameter([2], dtype, default_initializer=paddle.nn.initializer.Assign(B0.astype(dtype)))
            x, y = paddle.to_tensor(X.astype(dtype)), paddle.to_tensor(Y.astype(dtype))
            opt = paddle.optimizer.LBFGS(learning_rate=0.5, max_iter=4, history_size=3, line_search_fn=ls,
                                         parameters=[w, b])

            def closure(opt=opt, x=x, y=y, w=w, b=b):
                opt.clear_grad()
                loss = ((paddle.matmul(x, w) + b - y) ** 2).mean()
                loss.backward()
                return loss

            traj = []
            for _ in range(3):
                opt.step(closure)
                traj.append([w.numpy().tolist(), b.numpy().tolist()])
            rows.append({"line_search_fn": ls, "dtype": dtype, "traj": traj})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_optimizers.json")
    with open(path) as f:
        out = json.load(f)
    out["lbfgs"] = rows
    with open(path, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
    record_lbfgs()
