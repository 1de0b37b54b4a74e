"""Record Paddle's learning-rate schedulers step by step into tests/data/paddle_lr.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_lr.py``. Each case is a
scheduler class, its keyword arguments and a list of operations ("s": ``step()``, an int:
``step(epoch)``, ``["m", x]``: ``ReduceOnPlateau.step(x)``); after construction and after each
operation the script stores ``last_epoch``, ``last_lr``, ``sched()`` and ``state_dict()``.
"""

import json
import math
import os

import paddle
from paddle.optimizer import lr

# functions used by LambdaDecay / MultiplicativeDecay / CyclicLR cases, by name
FUNCS = {
    "pow095": lambda e: 0.95**e,
    "inv": lambda e: 1.0 / (1 + e),
    "mul09": lambda e: 0.9,
    "mulalt": lambda e: 0.5 if e % 3 == 0 else 1.0,
    "halfx": lambda x: 0.5**x,
}

S30 = ["s"] * 30
PLATEAU = [["m", v] for v in [5.0, 4.0, 4.0, 4.0, 4.0, 3.9999, 4.0, 4.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0,
                               1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]
RISE = [["m", v] for v in [1.0, 2.0, 2.0, 2.0, 3.0, 3.0001, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0]]

CASES = [
    ("NoamDecay", {"d_model": 64, "warmup_steps": 5}, S30),
    ("NoamDecay", {"d_model": 512, "warmup_steps": 10, "learning_rate": 2.0}, S30),
    ("PiecewiseDecay", {"boundaries": [3, 6, 10], "values": [1.0, 0.5, 0.1, 0.01]}, S30 + [2, 7, 40]),
    ("NaturalExpDecay", {"learning_rate": 0.5, "gamma": 0.1}, S30),
    ("InverseTimeDecay", {"learning_rate": 0.5, "gamma": 0.3}, S30),
    ("PolynomialDecay", {"learning_rate": 0.5, "decay_steps": 10}, S30),
    ("PolynomialDecay", {"learning_rate": 0.5, "decay_steps": 7, "end_lr": 0.01, "power": 2.0, "cycle": True}, S30),
    ("PolynomialDecay", {"learning_rate": 1.0, "decay_steps": 8, "end_lr": 0.1, "power": 0.5}, S30 + [3, 20]),
    ("LinearWarmup", {"learning_rate": 0.5, "warmup_steps": 5, "start_lr": 0.0, "end_lr": 0.5}, S30),
    ("LinearWarmup", {"learning_rate": ["CosineAnnealingDecay", {"learning_rate": 0.5, "T_max": 10}],
                      "warmup_steps": 4, "start_lr": 0.01, "end_lr": 0.5}, S30),
    ("LinearWarmup", {"learning_rate": ["StepDecay", {"learning_rate": 0.5, "step_size": 3}],
                      "warmup_steps": 6, "start_lr": 0.0, "end_lr": 0.5}, S30 + [2, 12]),
    ("ExponentialDecay", {"learning_rate": 0.5, "gamma": 0.9}, S30),
    ("ExponentialDecay", {"learning_rate": 2.0, "gamma": 0.5, "last_epoch": 3}, S30),
    ("MultiStepDecay", {"learning_rate": 0.5, "milestones": [2, 5, 11]}, S30),
    ("MultiStepDecay", {"learning_rate": 1.0, "milestones": [4, 8], "gamma": 0.5}, S30 + [5, 1]),
    ("StepDecay", {"learning_rate": 0.5, "step_size": 4}, S30),
    ("StepDecay", {"learning_rate": 1.0, "step_size": 3, "gamma": 0.7}, S30),
    ("LambdaDecay", {"learning_rate": 0.5, "lr_lambda": "pow095"}, S30),
    ("LambdaDecay", {"learning_rate": 0.3, "lr_lambda": "inv"}, S30),
    ("ReduceOnPlateau", {"learning_rate": 1.0, "patience": 2}, PLATEAU),
    ("ReduceOnPlateau", {"learning_rate": 1.0, "patience": 1, "cooldown": 2, "factor": 0.5, "min_lr": 0.1,
                         "threshold_mode": "abs", "threshold": 0.5}, PLATEAU),
    ("ReduceOnPlateau", {"learning_rate": 0.2, "mode": "max", "patience": 1, "factor": 0.5}, RISE),
    ("ReduceOnPlateau", {"learning_rate": 0.2, "mode": "max", "patience": 0, "factor": 0.5, "threshold_mode": "abs",
                         "threshold": 0.5, "epsilon": 0.06}, RISE),
    ("CosineAnnealingDecay", {"learning_rate": 0.5, "T_max": 10}, S30),
    ("CosineAnnealingDecay", {"learning_rate": 1.0, "T_max": 7, "eta_min": 0.1}, S30 + [3, 12, 0]),
    ("MultiplicativeDecay", {"learning_rate": 0.5, "lr_lambda": "mul09"}, S30),
    ("MultiplicativeDecay", {"learning_rate": 1.0, "lr_lambda": "mulalt"}, S30),
    ("OneCycleLR", {"max_learning_rate": 1.0, "total_steps": 30}, ["s"] * 29),
    ("OneCycleLR", {"max_learning_rate": 0.5, "total_steps": 40, "anneal_strategy": "linear", "phase_pct": 0.25}, S30),
    ("OneCycleLR", {"max_learning_rate": 0.5, "total_steps": 30, "three_phase": True, "divide_factor": 10.0,
                    "end_learning_rate": 0.001}, ["s"] * 29),
    ("CyclicLR", {"base_learning_rate": 0.1, "max_learning_rate": 1.0, "step_size_up": 4}, S30),
    ("CyclicLR", {"base_learning_rate": 0.1, "max_learning_rate": 1.0, "step_size_up": 3, "step_size_down": 5,
                  "mode": "triangular2"}, S30),
    ("CyclicLR", {"base_learning_rate": 0.1, "max_learning_rate": 1.0, "step_size_up": 5, "mode": "exp_range",
                  "exp_gamma": 0.9}, S30),
    ("CyclicLR", {"base_learning_rate": 0.1, "max_learning_rate": 0.6, "step_size_up": 2, "scale_fn": "halfx",
                  "scale_mode": "iterations"}, S30),
    ("LinearLR", {"learning_rate": 0.5, "total_steps": 10}, S30),
    ("LinearLR", {"learning_rate": 1.0, "total_steps": 6, "start_factor": 1.0, "end_factor": 0.2}, S30),
    ("CosineAnnealingWarmRestarts", {"learning_rate": 0.5, "T_0": 5}, S30 + [7, 2]),
    ("CosineAnnealingWarmRestarts", {"learning_rate": 1.0, "T_0": 3, "T_mult": 2, "eta_min": 0.05}, S30 + [10, 25, 1]),
]


def build(name, kwargs):
    kw = {}
    for k, v in kwargs.items():
        if k == "learning_rate" and isinstance(v, list):
            v = build(*v)
        elif k in ("lr_lambda", "scale_fn"):
            v = FUNCS[v]
        kw[k] = v
    return getattr(lr, name)(**kw)


def snap(s):
    sd = s.state_dict()
    return {"last_epoch": s.last_epoch, "last_lr": s.last_lr, "call": s(), "state_dict": sd}


def main():
    out = []
    for name, kwargs, ops in CASES:
        s = build(name, kwargs)
        trace = [snap(s)]
        for op in ops:
            if op == "s":
                s.step()
            elif isinstance(op, list):
                s.step(op[1])
            else:
                s.step(op)
            trace.append(snap(s))
        out.append({"name": name, "kwargs": kwargs, "ops": ops, "trace": trace})
    # ReduceOnPlateau fed Tensors: the state_dict's "best" is a float
    s = lr.ReduceOnPlateau(1.0, patience=1)
    trace = [snap(s)]
    for v in [3.0, 2.0, 2.5, 2.5, 1.0]:
        s.step(paddle.to_tensor(v))
        trace.append(snap(s))
    out.append({"name": "ReduceOnPlateau", "kwargs": {"learning_rate": 1.0, "patience": 1},
                "ops": [["t", v] for v in [3.0, 2.0, 2.5, 2.5, 1.0]], "trace": trace})
    assert all(math.isfinite(t["last_lr"]) for c in out for t in c["trace"])
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_lr.json")
    with open(path, "w") as f:
        json.dump({"paddle": paddle.__version__, "cases": out}, f, indent=0)
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
