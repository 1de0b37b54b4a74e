"""An optimizer zoo: the same small regression model trained 15 steps by each of Adadelta, Adamax, NAdam, RAdam,
ASGD, Rprop, Lamb, Adagrad, RMSProp (centered, with momentum), Momentum (use_nesterov), SGD with weight_decay as a
float and as L1Decay / L2Decay, each driven by a different learning-rate scheduler (CyclicLR, MultiplicativeDecay,
LambdaDecay, NoamDecay, InverseTimeDecay, NaturalExpDecay, PolynomialDecay(cycle=True),
CosineAnnealingWarmRestarts, LinearLR, StepDecay, OneCycleLR(three_phase=True)), Rprop with a float rate (Paddle's
Rprop takes no scheduler: it compares the rate with its range at construction); recorded: the losses, the
learning rate of each step (get_lr and the scheduler's last_lr), the optimizer's state_dict keys and values and the
scheduler's state_dict. Then: resuming from state_dicts under unique_name.guard (as a new process names
parameters), weight decay in its forms on each rule (apply_decay_param_fun, AMSGrad, Lamb's always_adapt and
exclude_from_weight_decay_fn), Adam with beta1 and epsilon as Tensors changed between steps, the three gradient
clips, ParamAttr(learning_rate=..., regularizer=...), set_lr, more schedulers' values (step(epoch),
set_state_dict), parameter groups with their own learning_rate, weight_decay and rule settings,
clear_grad(set_to_zero=False) (gradients kept as zeros) against clear_grad() (gradients gone), and the
multi_precision flags accepted by the optimizers that have them.

Deliberately not mirrored, left out here: ``Momentum(rescale_grad=...)`` on Paddle's CPU kernel is ignored (the
update is that of rescale_grad=1; its GPU kernel scales the gradient as documented); pylayer_jax scales it. With a
Tensor beta1/beta2 Paddle's Adam starts the beta-power accumulators at 0.9 and 0.999 whatever the Tensor holds (so
the Tensor here holds 0.9 at the start); pylayer_jax starts them at the given values."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
X = rng.standard_normal((40, 5)).astype("float32")
Y = (np.tanh(X[:, :2]).sum(1, keepdims=True) - 0.3 * X[:, 2:3]).astype("float32")
r = np.random.default_rng(1)
INIT = {"0.weight": (r.standard_normal((5, 8)) * 0.5).astype("float32"),
        "0.bias": (r.standard_normal(8) * 0.1).astype("float32"),
        "2.weight": (r.standard_normal((8, 1)) * 0.5).astype("float32"),
        "2.bias": np.zeros(1, "float32")}


def make_model():
    m = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
    m.set_state_dict({k: paddle.to_tensor(v) for k, v in INIT.items()})
    return m


lr = paddle.optimizer.lr
optim = paddle.optimizer
ZOO = {
    "adadelta": (lambda: lr.CyclicLR(base_learning_rate=0.05, max_learning_rate=0.5, step_size_up=4, step_size_down=3,
                                     mode="triangular2"),
                 lambda s, ps: optim.Adadelta(learning_rate=s, epsilon=1e-6, rho=0.9, parameters=ps)),
    "adamax": (lambda: lr.MultiplicativeDecay(learning_rate=0.05, lr_lambda=lambda e: 0.9),
               lambda s, ps: optim.Adamax(learning_rate=s, beta1=0.85, beta2=0.99, parameters=ps, weight_decay=0.01)),
    "nadam": (lambda: lr.LambdaDecay(learning_rate=0.03, lr_lambda=lambda e: 1.0 / (1 + 0.2 * e)),
              lambda s, ps: optim.NAdam(learning_rate=s, momentum_decay=0.005, parameters=ps)),
    "radam": (lambda: lr.NoamDecay(d_model=16, warmup_steps=5, learning_rate=0.2),
              lambda s, ps: optim.RAdam(learning_rate=s, beta1=0.9, beta2=0.99, parameters=ps)),
    "asgd": (lambda: lr.InverseTimeDecay(learning_rate=0.05, gamma=0.3),
             lambda s, ps: optim.ASGD(learning_rate=s, batch_num=3, parameters=ps)),
    "rprop": (lambda: None,
              lambda s, ps: optim.Rprop(learning_rate=0.01, learning_rate_range=(1e-4, 0.5), etas=(0.4, 1.3), parameters=ps)),
    "lamb": (lambda: lr.PolynomialDecay(learning_rate=0.05, decay_steps=4, end_lr=0.005, power=2.0, cycle=True),
             lambda s, ps: optim.Lamb(learning_rate=s, lamb_weight_decay=0.02, parameters=ps)),
    "adagrad": (lambda: lr.CosineAnnealingWarmRestarts(learning_rate=0.1, T_0=3, T_mult=2, eta_min=0.01),
                lambda s, ps: optim.Adagrad(learning_rate=s, epsilon=1e-6, initial_accumulator_value=0.1, parameters=ps)),
    "rmsprop": (lambda: lr.LinearLR(learning_rate=0.01, total_steps=8, start_factor=0.2, end_factor=1.0),
                lambda s, ps: optim.RMSProp(learning_rate=s, rho=0.9, momentum=0.5, centered=True, parameters=ps)),
    "momentum": (lambda: lr.StepDecay(learning_rate=0.05, step_size=4, gamma=0.5),
                 lambda s, ps: optim.Momentum(learning_rate=s, momentum=0.9, use_nesterov=True, parameters=ps,
                                          weight_decay=0.001)),
    "sgd_float": (lambda: lr.OneCycleLR(max_learning_rate=0.1, total_steps=15, divide_factor=10.0,
                                        end_learning_rate=0.001, phase_pct=0.3, three_phase=True),
                  lambda s, ps: optim.SGD(learning_rate=s, parameters=ps, weight_decay=0.05)),
    "sgd_l1": (lambda: lr.NaturalExpDecay(learning_rate=0.05, gamma=0.1),
               lambda s, ps: optim.SGD(learning_rate=s, parameters=ps, weight_decay=paddle.regularizer.L1Decay(0.01))),
    "sgd_l2": (lambda: lr.OneCycleLR(max_learning_rate=0.08, total_steps=15, anneal_strategy="linear"),
               lambda s, ps: optim.SGD(learning_rate=s, parameters=ps, weight_decay=paddle.regularizer.L2Decay(0.05))),
}

rec = {}
for name, (make_sched, make_opt) in ZOO.items():
    model = make_model()
    sched = make_sched()
    opt = make_opt(sched, model.parameters())
    losses, lrs, last = [], [], []
    for step in range(15):
        i = (step % 5) * 8
        loss = F.mse_loss(model(paddle.to_tensor(X[i:i + 8])), paddle.to_tensor(Y[i:i + 8]))
        loss.backward()
        lrs.append(opt.get_lr())
        opt.step()
        opt.clear_grad()
        if sched is not None:
            sched.step()
            last.append(sched.last_lr)
        losses.append(loss.item())
    sd = opt.state_dict()
    rec[name] = {
        "loss": losses, "lr": lrs, "last_lr": last,
        "state_keys": sorted(k for k in sd if k != "LR_Scheduler"),
        "state": {k: np.asarray(sd[k].numpy() if hasattr(sd[k], "numpy") else sd[k], "float64").ravel()[:6].tolist()
                  for k in sorted(sd) if k != "LR_Scheduler" and k.startswith(model[2].weight.name)},
        "state_dtypes": sorted({str(v.dtype) for k, v in sd.items() if hasattr(v, "dtype")}),
        "sched_state": {k: v for k, v in sorted(sd.get("LR_Scheduler", {}).items())},
        "w": model[0].weight.numpy().tolist(),
    }

# resuming: 6 steps, the state_dict into a fresh model and optimizer, 6 more steps = 12 steps straight
def train(model, opt, steps, start, sched=None):
    out = []
    for step in range(start, start + steps):
        i = (step % 5) * 8
        loss = F.mse_loss(model(paddle.to_tensor(X[i:i + 8])), paddle.to_tensor(Y[i:i + 8]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        if sched is not None:
            sched.step()
        out.append(loss.item())
    return out


resume = {}
for name in ("nadam", "radam", "asgd", "lamb", "adadelta", "rmsprop", "adamax"):
    make_sched, make_opt = ZOO[name]
    m1 = make_model()
    s1 = make_sched()
    o1 = make_opt(s1, m1.parameters())
    straight = train(m1, o1, 12, 0, s1)
    with paddle.utils.unique_name.guard():       # as a new process would name them: linear_0, linear_1
        m2 = make_model()
        s2 = make_sched()
        o2 = make_opt(s2, m2.parameters())
        first = train(m2, o2, 6, 0, s2)
    msd, osd = m2.state_dict(), o2.state_dict()
    with paddle.utils.unique_name.guard():
        m3 = make_model()
        m3.set_state_dict(msd)
        s3 = make_sched()
        o3 = make_opt(s3, m3.parameters())
        o3.set_state_dict(osd)
        second = train(m3, o3, 6, 6, s3)
    resume[name] = {"straight": straight, "resumed": first + second, "lr": o3.get_lr(),
                    "names": [p.name for p in m3.parameters()], "same_w": bool(np.allclose(m1[0].weight.numpy(), m3[0].weight.numpy(), atol=1e-6))}
rec["resume"] = resume

# weight decay in its forms on each rule, decay only where a function says, AMSGrad, always_adapt
variants = {
    "adamw_fun": lambda ps: optim.AdamW(0.01, parameters=ps, weight_decay=0.1, apply_decay_param_fun=lambda n: "w_0" in n),
    "adam_ams": lambda ps: optim.Adam(0.01, parameters=ps, amsgrad=True),
    "rms_plain": lambda ps: optim.RMSProp(0.01, parameters=ps),
    "rms_wd": lambda ps: optim.RMSProp(0.01, parameters=ps, weight_decay=0.1, momentum=0.3),
    "adagrad_l1": lambda ps: optim.Adagrad(0.1, parameters=ps, weight_decay=paddle.regularizer.L1Decay(0.01)),
    "adadelta_wd": lambda ps: optim.Adadelta(1.0, parameters=ps, weight_decay=0.05),
    "lamb_adapt": lambda ps: optim.Lamb(0.01, parameters=ps, always_adapt=True),
    "momentum_l1": lambda ps: optim.Momentum(0.05, parameters=ps, weight_decay=paddle.regularizer.L1Decay(0.01)),
    "nadam_wd": lambda ps: optim.NAdam(0.01, parameters=ps, weight_decay=0.05),
    "radam_wd": lambda ps: optim.RAdam(0.01, parameters=ps, weight_decay=0.05),
    "asgd_wd": lambda ps: optim.ASGD(0.05, batch_num=2, parameters=ps, weight_decay=0.05),
    "adamax_l1": lambda ps: optim.Adamax(0.05, parameters=ps, weight_decay=paddle.regularizer.L1Decay(0.01)),
}
var = {}
for name, make in variants.items():
    model = make_model()
    opt = make(model.parameters())
    var[name] = [train(model, opt, 6, 0), model[0].weight.numpy().ravel()[:6].tolist()]
rec["variants"] = var

# Adam's beta1 / epsilon as Tensors, read at every step: a value set into them later takes effect
model = make_model()
b1, eps = paddle.to_tensor([0.9]), paddle.to_tensor([1e-8])
opt = optim.Adam(learning_rate=0.02, beta1=b1, epsilon=eps, parameters=model.parameters())
tb = train(model, opt, 3, 0)
b1.set_value(paddle.to_tensor([0.6]))
eps.set_value(paddle.to_tensor([0.1]))
rec["tensor_betas"] = [tb + train(model, opt, 4, 3), model[2].weight.numpy().ravel().tolist()]

# gradient clipping and per-parameter ParamAttr(learning_rate=..., regularizer=...)
clip = {}
for cname, gclip in (("global", nn.ClipGradByGlobalNorm(0.5)), ("norm", nn.ClipGradByNorm(0.3)),
                     ("value", nn.ClipGradByValue(0.05))):
    model = make_model()
    opt = optim.RMSProp(learning_rate=0.01, parameters=model.parameters(), grad_clip=gclip)
    clip[cname] = train(model, opt, 6, 0)
rec["clip"] = clip
paddle.seed(3)
pa = nn.Sequential(nn.Linear(5, 8, weight_attr=paddle.ParamAttr(learning_rate=0.1,
                                                                regularizer=paddle.regularizer.L2Decay(0.5))),
                   nn.Tanh(), nn.Linear(8, 1, bias_attr=paddle.ParamAttr(learning_rate=3.0)))
pa.set_state_dict({k: paddle.to_tensor(v) for k, v in INIT.items()})
opt = optim.Momentum(learning_rate=0.05, momentum=0.9, parameters=pa.parameters(), weight_decay=0.01)
rec["param_attr"] = {"loss": train(pa, opt, 8, 0), "w": [p.numpy().ravel()[:5].tolist() for p in pa.parameters()]}
model = make_model()
opt = optim.Lamb(learning_rate=0.02, lamb_weight_decay=0.1, parameters=model.parameters(),
             exclude_from_weight_decay_fn=lambda p: p.name.endswith("b_0"))
rec["lamb_exclude"] = train(model, opt, 6, 0)

# set_lr on a float rate; a scheduler stepped with an explicit epoch; more schedulers' values
model = make_model()
opt = optim.Adam(learning_rate=0.01, parameters=model.parameters())
seen = []
for step in range(4):
    opt.set_lr(0.01 * (step + 1))
    seen.append(opt.get_lr())
    train(model, opt, 1, step)
rec["set_lr"] = [seen, model[2].weight.numpy().ravel().tolist()]
scheds = {
    "multistep": lr.MultiStepDecay(learning_rate=0.1, milestones=[3, 7, 9], gamma=0.3),
    "piecewise": lr.PiecewiseDecay(boundaries=[2, 5], values=[0.1, 0.05, 0.01]),
    "exp": lr.ExponentialDecay(learning_rate=0.2, gamma=0.8),
    "cosine": lr.CosineAnnealingDecay(learning_rate=0.1, T_max=6, eta_min=0.01),
    "warmup": lr.LinearWarmup(learning_rate=lr.ExponentialDecay(0.1, 0.9), warmup_steps=4, start_lr=0.0, end_lr=0.1),
    "warmup_float": lr.LinearWarmup(learning_rate=0.05, warmup_steps=3, start_lr=0.01, end_lr=0.05),
    "cyclic_exp": lr.CyclicLR(base_learning_rate=0.01, max_learning_rate=0.1, step_size_up=3, mode="exp_range",
                              exp_gamma=0.9),
    "cyclic_fn": lr.CyclicLR(base_learning_rate=0.01, max_learning_rate=0.1, step_size_up=2,
                             scale_fn=lambda x: 1 / (1.0 + x), scale_mode="iterations"),
    "poly_nocycle": lr.PolynomialDecay(learning_rate=0.1, decay_steps=5, end_lr=0.01, power=0.5),
    "onecycle_lin3": lr.OneCycleLR(max_learning_rate=1.0, total_steps=12, anneal_strategy="linear", three_phase=True),
    "cawr_t1": lr.CosineAnnealingWarmRestarts(learning_rate=0.1, T_0=4),
}
vals = {}
for name, s_ in scheds.items():
    v = []
    for _ in range(12):
        v.append(s_())
        s_.step()
    vals[name] = v
s_ = lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)
v = []
for e in (0, 3, 5, 1, 8):
    s_.step(e)
    v.append([s_.last_epoch, s_()])
vals["step_epoch"] = v
st = lr.CosineAnnealingDecay(learning_rate=0.1, T_max=6)
for _ in range(4):
    st.step()
st2 = lr.CosineAnnealingDecay(learning_rate=0.1, T_max=6)
st2.set_state_dict(st.state_dict())
vals["cos_state"] = [sorted(st.state_dict()), st2.last_epoch, st2()]
rec["schedulers"] = vals

# parameter groups, each with its own learning rate and weight decay
model = make_model()
opt = optim.Adam(learning_rate=0.02, weight_decay=0.01, parameters=[
    {"params": model[0].parameters(), "learning_rate": 0.5, "weight_decay": 0.1},
    {"params": model[2].parameters(), "weight_decay": paddle.regularizer.L1Decay(0.02)},
])
groups = {"loss": []}
for step in range(10):
    i = (step % 5) * 8
    loss = F.mse_loss(model(paddle.to_tensor(X[i:i + 8])), paddle.to_tensor(Y[i:i + 8]))
    loss.backward()
    opt.step()
    opt.clear_grad()
    groups["loss"].append(loss.item())
groups["w"] = [p.numpy().tolist() for p in model.parameters()]
groups["lr"] = opt.get_lr()
rec["groups"] = groups

# a group's own settings of the rule (beta1, momentum, rho, epsilon) and its own rate multiplier under a scheduler
group_cases = {
    "adam_beta": lambda m: optim.Adam(0.01, parameters=[{"params": m[0].parameters(), "beta1": 0.5, "beta2": 0.9},
                                                        {"params": m[2].parameters()}]),
    "momentum": lambda m: optim.Momentum(0.05, parameters=[{"params": m[0].parameters(), "momentum": 0.5},
                                                           {"params": m[2].parameters(), "learning_rate": 2.0}]),
    "adamw_wd": lambda m: optim.AdamW(0.01, weight_decay=0.5, parameters=[
        {"params": m[0].parameters(), "weight_decay": 0.0}, {"params": m[2].parameters()}]),
    "rmsprop": lambda m: optim.RMSProp(0.01, parameters=[{"params": m[0].parameters(), "rho": 0.5, "epsilon": 0.1},
                                                         {"params": m[2].parameters()}]),
}
for name, make in group_cases.items():
    model = make_model()
    groups[name] = [train(model, make(model), 6, 0), model[0].weight.numpy().ravel()[:4].tolist()]
model = make_model()
sched = lr.StepDecay(0.1, 2, 0.5)
opt = optim.Momentum(sched, parameters=[{"params": model[0].parameters(), "learning_rate": 0.5},
                                        {"params": model[2].parameters()}])
groups["sched"] = [train(model, opt, 6, 0, sched), opt.get_lr()]

# clear_grad(set_to_zero=False) keeps zero gradients, clear_grad() drops them
model = make_model()
opt = optim.SGD(learning_rate=0.1, parameters=model.parameters())
F.mse_loss(model(paddle.to_tensor(X[:8])), paddle.to_tensor(Y[:8])).backward()
opt.step()
opt.clear_grad(set_to_zero=False)
rec["clear_keep"] = [None if p.grad is None else p.grad.numpy().tolist() for p in model.parameters()]
F.mse_loss(model(paddle.to_tensor(X[8:16])), paddle.to_tensor(Y[8:16])).backward()
rec["after_keep"] = [p.grad.numpy().tolist() for p in model.parameters()]
opt.clear_grad()
rec["clear_drop"] = [p.grad is None for p in model.parameters()]

# the multi_precision flag on float32 parameters changes nothing
mp = {}
for name, make in {
    "momentum": lambda ps: optim.Momentum(learning_rate=0.05, momentum=0.9, parameters=ps, multi_precision=True),
    "adam": lambda ps: optim.Adam(learning_rate=0.01, parameters=ps, multi_precision=True),
    "adamw": lambda ps: optim.AdamW(learning_rate=0.01, parameters=ps, multi_precision=True),
    "sgd": lambda ps: optim.SGD(learning_rate=0.05, parameters=ps, multi_precision=True),
    "lamb": lambda ps: optim.Lamb(learning_rate=0.01, parameters=ps, multi_precision=True),
}.items():
    model = make_model()
    opt = make(model.parameters())
    out = []
    for step in range(5):
        i = step * 8
        loss = F.mse_loss(model(paddle.to_tensor(X[i:i + 8])), paddle.to_tensor(Y[i:i + 8]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        out.append(loss.item())
    mp[name] = out
rec["multi_precision"] = mp

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
