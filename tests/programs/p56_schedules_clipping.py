"""Learning-rate schedules and gradient clipping in training code: every paddle.optimizer.lr scheduler (NoamDecay,
PiecewiseDecay, NaturalExpDecay, InverseTimeDecay, PolynomialDecay with and without cycle, LinearWarmup wrapping a
float and another scheduler, ExponentialDecay, MultiStepDecay, StepDecay, LambdaDecay, MultiplicativeDecay,
ReduceOnPlateau in both modes with cooldown and min_lr, CosineAnnealingDecay, OneCycleLR (cos and linear,
three_phase), CyclicLR (triangular, triangular2, exp_range, scale_fn), CosineAnnealingWarmRestarts, LinearLR)
stepped through a run, with the schedule saved by state_dict mid-run and resumed in a fresh scheduler by
set_state_dict, step(epoch), last_epoch/last_lr, and the scheduler driving SGD/Momentum/Adam/AdamW (get_lr per
step). Then gradient clipping by ClipGradByValue, ClipGradByNorm and ClipGradByGlobalNorm, with
ParamAttr(need_clip=False) excluding a parameter; weight decay as L1Decay/L2Decay through ParamAttr(regularizer=)
and as the optimizer's weight_decay (float or regularizer; the ParamAttr one wins); parameter groups with their own
learning_rate, weight_decay and grad_clip (Paddle clips each group on its own: a global norm is the group's);
a scheduler of one's own (an LRScheduler subclass) and set_lr_scheduler; optimizer.set_lr / get_lr (and set_lr refused under a scheduler);
ParamAttr(learning_rate=) scaling; paddle.nn.utils.clip_grad_norm_ (2-norm, inf-norm, error_if_nonfinite) and
clip_grad_value_ in a manual loop. Recorded: learning rates per step, losses, parameters, the optimizer's
state_dict keys and values."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.optimizer import lr as L

rng = np.random.default_rng(0)
rec = {}


def v(t):
    return np.asarray(t.numpy()).astype(np.float64).tolist()


def plain(d):
    out = {}
    for k, val in d.items():
        if isinstance(val, dict):
            out[k] = plain(val)
        elif isinstance(val, (list, tuple)):
            out[k] = [float(x) for x in val]
        elif hasattr(val, "numpy") or isinstance(val, (int, float, np.number, np.ndarray)):
            out[k] = np.asarray(val.numpy() if hasattr(val, "numpy") else val).astype(float).tolist()
        else:
            out[k] = repr(val)
    return out


# ---------- every scheduler, stepped, saved mid-run and resumed ----------
def makers():
    return {
        "noam": lambda: L.NoamDecay(d_model=16, warmup_steps=4, learning_rate=1.0),
        "piecewise": lambda: L.PiecewiseDecay(boundaries=[3, 6, 9], values=[0.1, 0.05, 0.01, 0.001]),
        "natural_exp": lambda: L.NaturalExpDecay(learning_rate=0.5, gamma=0.2),
        "inverse_time": lambda: L.InverseTimeDecay(learning_rate=0.5, gamma=0.3),
        "poly": lambda: L.PolynomialDecay(learning_rate=0.1, decay_steps=5, end_lr=0.01, power=2.0),
        "poly_cycle": lambda: L.PolynomialDecay(learning_rate=0.1, decay_steps=4, end_lr=0.0, power=1.0,
                                                cycle=True),
        "warmup_float": lambda: L.LinearWarmup(learning_rate=0.1, warmup_steps=4, start_lr=0.0, end_lr=0.1),
        "warmup_cosine": lambda: L.LinearWarmup(L.CosineAnnealingDecay(learning_rate=0.2, T_max=6),
                                                warmup_steps=3, start_lr=0.01, end_lr=0.2),
        "exp": lambda: L.ExponentialDecay(learning_rate=0.3, gamma=0.8),
        "multistep": lambda: L.MultiStepDecay(learning_rate=0.2, milestones=[2, 5, 7], gamma=0.3),
        "step": lambda: L.StepDecay(learning_rate=0.2, step_size=3, gamma=0.5),
        "lambda": lambda: L.LambdaDecay(learning_rate=0.4, lr_lambda=lambda e: 0.9 ** e + 0.01 * e),
        "multiplicative": lambda: L.MultiplicativeDecay(learning_rate=0.4, lr_lambda=lambda e: 0.85),
        "cosine": lambda: L.CosineAnnealingDecay(learning_rate=0.2, T_max=5, eta_min=0.02),
        "onecycle": lambda: L.OneCycleLR(max_learning_rate=0.5, total_steps=12, divide_factor=10.0,
                                         end_learning_rate=1e-4, phase_pct=0.3),
        "onecycle_lin3": lambda: L.OneCycleLR(max_learning_rate=0.5, total_steps=12, anneal_strategy="linear",
                                              three_phase=True),
        "cyclic_tri": lambda: L.CyclicLR(base_learning_rate=0.01, max_learning_rate=0.1, step_size_up=3),
        "cyclic_tri2": lambda: L.CyclicLR(base_learning_rate=0.01, max_learning_rate=0.1, step_size_up=2,
                                          step_size_down=3, mode="triangular2"),
        "cyclic_exp": lambda: L.CyclicLR(base_learning_rate=0.01, max_learning_rate=0.1, step_size_up=2,
                                         mode="exp_range", exp_gamma=0.9),
        "cyclic_fn": lambda: L.CyclicLR(base_learning_rate=0.01, max_learning_rate=0.1, step_size_up=2,
                                        scale_fn=lambda x: 1.0 / (1.0 + x), scale_mode="iterations"),
        "warm_restarts": lambda: L.CosineAnnealingWarmRestarts(learning_rate=0.3, T_0=3, T_mult=2, eta_min=0.01),
        "linear": lambda: L.LinearLR(learning_rate=0.2, total_steps=6, start_factor=0.25, end_factor=1.0),
    }


for name, make in makers().items():
    s = make()
    lrs = [s()]
    for _ in range(5):
        s.step()
        lrs.append(s.get_lr())
    sd = s.state_dict()
    resumed = makers()[name]()
    resumed.set_state_dict(sd)
    cont, cont2 = [], []
    for _ in range(7):
        s.step()
        resumed.step()
        cont.append(s.last_lr)
        cont2.append(resumed())
    rec["sched_" + name] = {"lrs": lrs, "cont": cont, "resumed": cont2, "keys": sorted(sd), "sd": plain(sd),
                            "last_epoch": [s.last_epoch, resumed.last_epoch]}

# step(epoch) jumps, and warmup over a scheduler's state_dict
s = L.StepDecay(learning_rate=0.2, step_size=3, gamma=0.5)
jumps = []
for e in (4, 7, 2, 10):
    s.step(e)
    jumps.append([s.last_epoch, s()])
rec["step_epoch"] = jumps
w = L.LinearWarmup(L.ExponentialDecay(learning_rate=0.3, gamma=0.5), warmup_steps=2, start_lr=0.0, end_lr=0.3)
for _ in range(4):
    w.step()
rec["warmup_sd"] = {k: (val if not isinstance(val, dict) else sorted(val)) for k, val in w.state_dict().items()}

# ReduceOnPlateau driven by a metric
for mode, metrics in (("min", [1.0, 0.9, 0.95, 0.97, 0.96, 0.99, 0.98, 0.5, 0.6, 0.7, 0.8, 0.9]),
                      ("max", [0.1, 0.2, 0.2, 0.19, 0.18, 0.3, 0.29, 0.28, 0.27, 0.26, 0.25, 0.24])):
    p = L.ReduceOnPlateau(learning_rate=0.1, mode=mode, factor=0.5, patience=1, cooldown=1, min_lr=0.02,
                          threshold=0.01, threshold_mode="rel" if mode == "min" else "abs")
    got = []
    for i, m in enumerate(metrics):
        p.step(paddle.to_tensor(m) if i % 2 else m)
        got.append(p.last_lr)
        if i == 5:
            sd = p.state_dict()
    q = L.ReduceOnPlateau(learning_rate=0.1, mode=mode, factor=0.5, patience=1, cooldown=1, min_lr=0.02)
    q.set_state_dict(sd)
    rec["plateau_" + mode] = {"lrs": got, "keys": sorted(sd), "sd": plain(sd), "resumed": [q.last_lr, q.num_bad_epochs,
                                                                          q.cooldown_counter, q.last_epoch]}

# ---------- a model trained under each (scheduler, optimizer) pair ----------
X = rng.standard_normal((48, 4)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5], [0.0]], "float32") + 0.3).astype("float32")
r = np.random.default_rng(1)
INIT = {k: (r.standard_normal(s_) * 0.5).astype("float32")
        for k, s_ in (("0.weight", (4, 6)), ("0.bias", (6,)), ("2.weight", (6, 1)), ("2.bias", (1,)))}


def make_model(**attrs):
    m = nn.Sequential(nn.Linear(4, 6, **attrs), nn.Tanh(), nn.Linear(6, 1))
    m.set_state_dict({k: paddle.to_tensor(a) for k, a in INIT.items()})
    return m


def train(model, opt, sched=None, steps=12, plateau=False):
    out = {"loss": [], "lr": []}
    for step in range(steps):
        i = (step % 6) * 8
        loss = F.mse_loss(model(paddle.to_tensor(X[i:i + 8])), paddle.to_tensor(Y[i:i + 8]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        out["loss"].append(loss.item())
        out["lr"].append(opt.get_lr())
        if sched is not None:
            sched.step(loss.item()) if plateau else sched.step()
    out["params"] = {k: v(t) for k, t in model.state_dict().items()}
    return out


combos = {
    "sgd_onecycle": (lambda s, ps: paddle.optimizer.SGD(learning_rate=s, parameters=ps),
                     lambda: L.OneCycleLR(max_learning_rate=0.2, total_steps=12)),
    "momentum_warmup": (lambda s, ps: paddle.optimizer.Momentum(learning_rate=s, momentum=0.9, parameters=ps,
                                                                use_nesterov=True),
                        lambda: L.LinearWarmup(L.PiecewiseDecay([6, 9], [0.05, 0.02, 0.01]), 4, 0.0, 0.05)),
    "adam_cyclic": (lambda s, ps: paddle.optimizer.Adam(learning_rate=s, parameters=ps),
                    lambda: L.CyclicLR(0.005, 0.05, step_size_up=3)),
    "adamw_restarts": (lambda s, ps: paddle.optimizer.AdamW(learning_rate=s, parameters=ps, weight_decay=0.05),
                       lambda: L.CosineAnnealingWarmRestarts(0.05, T_0=4)),
    "rmsprop_plateau": (lambda s, ps: paddle.optimizer.RMSProp(learning_rate=s, parameters=ps),
                        lambda: L.ReduceOnPlateau(0.02, patience=0, factor=0.5)),
}
for name, (make_opt, make_sched) in combos.items():
    m, s = make_model(), make_sched()
    opt = make_opt(s, m.parameters())
    res = train(m, opt, s, plateau=name.endswith("plateau"))
    sd = opt.state_dict()
    res["opt_keys"] = sorted(sd)
    res["lr_sched"] = sorted(sd["LR_Scheduler"]) if "LR_Scheduler" in sd else None
    res["opt_state"] = {k: v(t) for k, t in sd.items() if hasattr(t, "numpy")}
    rec["train_" + name] = res

# resume an Adam + scheduler run from state_dicts mid-run (as a new process would name things: unique_name.guard)
with paddle.utils.unique_name.guard():
    m1, s1 = make_model(), L.ExponentialDecay(0.05, gamma=0.9)
    o1 = paddle.optimizer.Adam(learning_rate=s1, parameters=m1.parameters())
    train(m1, o1, s1, steps=5)
msd, osd = m1.state_dict(), o1.state_dict()
with paddle.utils.unique_name.guard():
    m2, s2 = make_model(), L.ExponentialDecay(0.05, gamma=0.9)
    m2.set_state_dict(msd)
    o2 = paddle.optimizer.Adam(learning_rate=s2, parameters=m2.parameters())
    o2.set_state_dict(osd)
    rec["resume"] = [o2.get_lr(), s2.last_epoch, sorted(osd), train(m2, o2, s2, steps=4)]
rec["resume_straight"] = train(m1, o1, s1, steps=4)

# ---------- clipping, need_clip, regularizers, ParamAttr learning rate, groups ----------
clips = {"value": nn.ClipGradByValue(max=0.05, min=-0.02), "norm": nn.ClipGradByNorm(clip_norm=0.1),
         "global": nn.ClipGradByGlobalNorm(clip_norm=0.2)}
for cname, clip in clips.items():
    for need in (True, False):
        m = make_model(weight_attr=paddle.ParamAttr(need_clip=need))
        opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=m.parameters(), grad_clip=clip)
        rec[f"clip_{cname}_{need}"] = train(m, opt, steps=4)

wd_cases = {
    "attr_l1": ({"weight_attr": paddle.ParamAttr(regularizer=paddle.regularizer.L1Decay(0.05))}, None),
    "attr_l2": ({"weight_attr": paddle.ParamAttr(regularizer=paddle.regularizer.L2Decay(0.05))}, None),
    "opt_float": ({}, 0.05),
    "opt_l1": ({}, paddle.regularizer.L1Decay(0.03)),
    "attr_wins": ({"weight_attr": paddle.ParamAttr(regularizer=paddle.regularizer.L1Decay(0.05))},
                  paddle.regularizer.L2Decay(0.5)),
    "attr_lr": ({"weight_attr": paddle.ParamAttr(learning_rate=0.2), "bias_attr": paddle.ParamAttr(
        learning_rate=3.0)}, None),
}
for wname, (attrs, wd) in wd_cases.items():
    for oname, make_opt in (("sgd", lambda ps, wd: paddle.optimizer.SGD(0.1, parameters=ps, weight_decay=wd)),
                            ("momentum", lambda ps, wd: paddle.optimizer.Momentum(0.05, parameters=ps,
                                                                                  weight_decay=wd)),
                            ("adam", lambda ps, wd: paddle.optimizer.Adam(0.02, parameters=ps, weight_decay=wd))):
        m = make_model(**attrs)
        rec[f"wd_{wname}_{oname}"] = train(m, make_opt(m.parameters(), wd), steps=4)["params"]

m = make_model()
groups = [{"params": m[0].parameters(), "learning_rate": 0.5, "weight_decay": 0.1},
          {"params": m[2].parameters()}]
opt = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.8, parameters=groups, weight_decay=0.01,
                                grad_clip=nn.ClipGradByGlobalNorm(1.0))
res = train(m, opt, steps=6)
res["opt_keys"] = sorted(opt.state_dict())
rec["groups"] = res
# AdamW groups (decoupled decay per group) over a layer whose ParamAttr carries a regularizer, clipped per group
m = make_model(weight_attr=paddle.ParamAttr(regularizer=paddle.regularizer.L1Decay(0.05)))
groups = [{"params": m[0].parameters(), "weight_decay": 0.2, "learning_rate": 2.0},
          {"params": m[2].parameters(), "beta1": 0.8}]
opt = paddle.optimizer.AdamW(learning_rate=0.02, parameters=groups, weight_decay=0.01,
                             grad_clip=nn.ClipGradByGlobalNorm(0.5))
rec["groups_adamw"] = train(m, opt, steps=6)
m = make_model(weight_attr=paddle.ParamAttr(regularizer=paddle.regularizer.L1Decay(0.05)))
groups = [{"params": m[0].parameters(), "weight_decay": paddle.regularizer.L2Decay(0.1)},
          {"params": m[2].parameters()}]
opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=groups, weight_decay=0.02)
rec["groups_sgd_attr"] = train(m, opt, steps=4)
m = make_model()
s = L.StepDecay(0.1, step_size=2)
groups = [{"params": m[0].parameters(), "learning_rate": 0.1}, {"params": m[2].parameters()}]
opt = paddle.optimizer.Adam(learning_rate=s, parameters=groups)
rec["groups_sched"] = train(m, opt, s, steps=6)

# a group with its own grad_clip, a scheduler of one's own, set_lr_scheduler, the scheduler in the state_dict
m = make_model()
groups = [{"params": m[0].parameters(), "grad_clip": nn.ClipGradByNorm(0.01)},
          {"params": m[2].parameters()}]
opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=groups, grad_clip=nn.ClipGradByValue(0.05))
rec["groups_own_clip"] = train(m, opt, steps=3)


class HalfEvery(L.LRScheduler):
    def __init__(self, learning_rate, every, last_epoch=-1):
        self.every = every
        super().__init__(learning_rate, last_epoch)

    def get_lr(self):
        return self.base_lr * 0.5 ** (self.last_epoch // self.every)


m = make_model()
s = HalfEvery(0.08, 2)
opt = paddle.optimizer.Momentum(learning_rate=s, momentum=0.5, parameters=m.parameters())
res = train(m, opt, s, steps=5)
res["sd"] = {k: val for k, val in opt.state_dict()["LR_Scheduler"].items()}
s2 = L.ExponentialDecay(0.01, 0.5)
opt.set_lr_scheduler(s2)
res["after_set"] = train(m, opt, s2, steps=3)["lr"]
rec["custom_sched"] = res

# set_lr / get_lr
m = make_model()
opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=m.parameters())
lrs = [opt.get_lr()]
opt.set_lr(0.02)
lrs.append(opt.get_lr())
train(m, opt, steps=2)
opt.set_lr(0.5)
res = train(m, opt, steps=2)
rec["set_lr"] = [lrs, res]
opt = paddle.optimizer.SGD(learning_rate=L.StepDecay(0.1, 2), parameters=m.parameters())
try:
    opt.set_lr(0.3)
    rec["set_lr_sched"] = "none"
except RuntimeError as e:
    rec["set_lr_sched"] = type(e).__name__

# ---------- paddle.nn.utils.clip_grad_norm_ / clip_grad_value_ in a manual loop ----------
m = make_model()
opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=m.parameters())
rec["manual"] = []
for step in range(6):
    i = (step % 6) * 8
    loss = F.mse_loss(m(paddle.to_tensor(X[i:i + 8])), paddle.to_tensor(Y[i:i + 8]))
    loss.backward()
    if step % 3 == 0:
        tn = nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.3)
    elif step % 3 == 1:
        tn = nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.05, norm_type=float("inf"))
    else:
        nn.utils.clip_grad_value_(m.parameters(), clip_value=0.02)
        tn = paddle.to_tensor(0.0)
    grads = [v(p_.grad) for p_ in m.parameters()]
    opt.step()
    opt.clear_grad()
    rec["manual"].append([loss.item(), v(tn), grads])
rec["manual_params"] = {k: v(t) for k, t in m.state_dict().items()}
w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
(w * paddle.to_tensor([float("inf"), 1.0])).sum().backward()
try:
    nn.utils.clip_grad_norm_([w], max_norm=1.0, error_if_nonfinite=True)
    rec["nonfinite"] = "none"
except RuntimeError as e:
    rec["nonfinite"] = type(e).__name__
rec["nonfinite_ok"] = v(nn.utils.clip_grad_norm_([w], max_norm=1.0))
u = paddle.to_tensor([3.0, -4.0, 1.0], stop_gradient=False)
(u * paddle.to_tensor([1.0, 2.0, -3.0])).sum().backward()
n1 = nn.utils.clip_grad_norm_(u, max_norm=2.0, norm_type=1.0)
rec["clip_l1_single"] = [v(n1), v(u.grad)]
nn.utils.clip_grad_value_(u, 0.5)
rec["clip_value_single"] = v(u.grad)

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
