"""The learning-rate schedulers of ``paddle.optimizer.lr`` with all their arguments, beyond p56's run: each scheduler
started at ``last_epoch=-1`` and at ``last_epoch>=0`` (a resumed run), stepped with and without ``epoch=`` (jumping
forward, backward and to epoch 0), ``get_lr()`` / ``last_lr`` / ``last_epoch`` / ``__call__`` read at every step,
``verbose=True`` printing its line each step; NoamDecay with a learning_rate factor, PiecewiseDecay at and past its
boundaries, PolynomialDecay past decay_steps with and without cycle (epoch 0 with cycle), LinearWarmup wrapping a
float and wrapping StepDecay / PiecewiseDecay (and its state_dict with the wrapped scheduler's), CosineAnnealingDecay
past T_max, CosineAnnealingWarmRestarts with T_mult 1 and 3 and fractional epochs, OneCycleLR with every divide
factor, phase_pct, both anneal strategies and three phases, CyclicLR in each mode with a scale_fn by cycle and by
iterations, LinearLR, MultiplicativeDecay and LambdaDecay from a resumed epoch, ReduceOnPlateau in min/max mode with
rel/abs thresholds, cooldown, min_lr and epsilon (a reduction smaller than epsilon is skipped), fed Python floats,
numpy scalars, 0-D arrays and 0-D tensors; state_dict() / set_state_dict() mid-way into a fresh scheduler, resumed and
compared; odd but legal calls (float epochs, int rates and values, jumps past the end) with the types of
``last_lr`` / ``last_epoch``, the base ``LRScheduler`` (NotImplementedError), and the exception types of misuses.
Then the optimizers that read a scheduler: one scheduler shared by SGD with parameter groups (a group's
learning_rate scales it), Momentum and Adam; ``optimizer.get_lr()`` per step, ``optimizer.set_lr_scheduler``
swapping the schedule mid-run, ``optimizer.state_dict()['LR_Scheduler']`` and its restore by
``optimizer.set_state_dict``, and the parameters after the SGD steps (the learning rate actually applied).

The optimizer's state_dict holds its live accumulators (as in Paddle): the dict taken after 5 steps shows the state of
the 8th when it is loaded later. Left out (Paddle 3.3.1 fails): ReduceOnPlateau's ``state_dict`` when ``best`` is a
Tensor of shape [1] (a metric ``paddle.to_tensor([loss])``) is a TypeError in Paddle (``float()`` of a 1-D Tensor);
pylayer_jax saves its one value as a float.
"""

import contextlib
import io
import json
import os

import numpy as np
import paddle
from paddle.optimizer import lr as L

rec = {}


def f(x):
    return float(x)


def num(x):
    """A value that may be a Python number, a numpy scalar or a Tensor of any shape, with its kind."""
    if hasattr(x, "numpy"):
        return ["Tensor", list(x.shape), np.asarray(x.numpy()).astype(float).reshape(-1).tolist()]
    return [type(x).__name__, float(x)]


def err(fn):
    try:
        fn()
        return "ok"
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def trace(s, n, epochs=None):
    """get_lr / last_lr / last_epoch / __call__ at each of n steps (or at each given epoch)."""
    out = [[f(s.get_lr()), f(s.last_lr), int(s.last_epoch), f(s())]]
    for i in range(n if epochs is None else len(epochs)):
        if epochs is None:
            s.step()
        else:
            s.step(epoch=epochs[i])
        out.append([f(s.get_lr()), f(s.last_lr), int(s.last_epoch), f(s())])
    return out


def makers(last_epoch=-1):
    le = {"last_epoch": last_epoch}
    return {
        "noam": lambda: L.NoamDecay(d_model=64, warmup_steps=3, learning_rate=2.0, **le),
        "piecewise": lambda: L.PiecewiseDecay(boundaries=[2, 4], values=[0.3, 0.2, 0.1], **le),
        "natural_exp": lambda: L.NaturalExpDecay(learning_rate=0.4, gamma=0.5, **le),
        "inverse_time": lambda: L.InverseTimeDecay(learning_rate=0.4, gamma=0.5, **le),
        "poly": lambda: L.PolynomialDecay(learning_rate=0.2, decay_steps=3, end_lr=0.02, power=0.5, **le),
        "poly_cycle": lambda: L.PolynomialDecay(learning_rate=0.2, decay_steps=3, end_lr=0.02, power=1.5,
                                                cycle=True, **le),
        "warmup_float": lambda: L.LinearWarmup(learning_rate=0.5, warmup_steps=3, start_lr=0.1, end_lr=0.4, **le),
        "warmup_step": lambda: L.LinearWarmup(L.StepDecay(learning_rate=0.5, step_size=2, gamma=0.5),
                                              warmup_steps=2, start_lr=0.0, end_lr=0.5, **le),
        "warmup_piecewise": lambda: L.LinearWarmup(L.PiecewiseDecay(boundaries=[1, 3], values=[0.4, 0.2, 0.1]),
                                                   warmup_steps=3, start_lr=0.05, end_lr=0.4, **le),
        "exp": lambda: L.ExponentialDecay(learning_rate=0.5, gamma=0.7, **le),
        "multistep": lambda: L.MultiStepDecay(learning_rate=0.5, milestones=[1, 3, 4], gamma=0.5, **le),
        "multistep_default": lambda: L.MultiStepDecay(learning_rate=0.5, milestones=[2], **le),
        "step": lambda: L.StepDecay(learning_rate=0.5, step_size=2, **le),
        "lambda": lambda: L.LambdaDecay(learning_rate=0.5, lr_lambda=lambda e: 1.0 / (1 + e), **le),
        "multiplicative": lambda: L.MultiplicativeDecay(learning_rate=0.5, lr_lambda=lambda e: 0.9 - 0.05 * e, **le),
        "cosine": lambda: L.CosineAnnealingDecay(learning_rate=0.3, T_max=3, eta_min=0.05, **le),
        "cosine_default_min": lambda: L.CosineAnnealingDecay(learning_rate=0.3, T_max=4, **le),
        "warm_restarts1": lambda: L.CosineAnnealingWarmRestarts(learning_rate=0.3, T_0=2, **le),
        "warm_restarts3": lambda: L.CosineAnnealingWarmRestarts(learning_rate=0.3, T_0=2, T_mult=3, eta_min=0.02,
                                                                 **le),
        "onecycle_cos": lambda: L.OneCycleLR(max_learning_rate=0.6, total_steps=14, divide_factor=5.0,
                                             end_learning_rate=0.001, phase_pct=0.4, **le),
        "onecycle_lin3": lambda: L.OneCycleLR(max_learning_rate=0.6, total_steps=14, divide_factor=4.0,
                                              end_learning_rate=0.01, phase_pct=0.25, anneal_strategy="linear",
                                              three_phase=True, **le),
        "onecycle_cos3": lambda: L.OneCycleLR(max_learning_rate=0.6, total_steps=12, three_phase=True, **le),
        "cyclic_tri": lambda: L.CyclicLR(base_learning_rate=0.1, max_learning_rate=0.5, step_size_up=2,
                                         step_size_down=1, **le),
        "cyclic_tri2": lambda: L.CyclicLR(base_learning_rate=0.1, max_learning_rate=0.5, step_size_up=1,
                                          mode="triangular2", **le),
        "cyclic_exp": lambda: L.CyclicLR(base_learning_rate=0.1, max_learning_rate=0.5, step_size_up=2,
                                         mode="exp_range", exp_gamma=0.8, **le),
        "cyclic_fn_cycle": lambda: L.CyclicLR(base_learning_rate=0.1, max_learning_rate=0.5, step_size_up=2,
                                              scale_fn=lambda c: 0.5 ** (c - 1), scale_mode="cycle", **le),
        "cyclic_fn_iter": lambda: L.CyclicLR(base_learning_rate=0.1, max_learning_rate=0.5, step_size_up=2,
                                             step_size_down=2, scale_fn=lambda i: 1.0 / (1.0 + 0.1 * i),
                                             scale_mode="iterations", **le),
        "linear": lambda: L.LinearLR(learning_rate=0.4, total_steps=4, start_factor=0.5, end_factor=0.1, **le),
        "linear_default": lambda: L.LinearLR(learning_rate=0.4, total_steps=3, **le),
    }


# ---------- each scheduler from scratch, from a resumed epoch, with epoch= jumps ----------
for name, make in makers().items():
    s = make()
    steps = trace(s, 8)
    sd = s.state_dict()
    fresh = makers()[name]()
    fresh.set_state_dict(sd)
    resumed = trace(fresh, 3)
    started = trace(makers(2)[name](), 3)
    jumps = trace(makers()[name](), 0, epochs=[3, 1, 6, 0, 2])
    rec["s_" + name] = {"steps": steps, "sd_keys": sorted(sd),
                        "sd": {k: (val if isinstance(val, (int, float, str, bool)) else repr(type(val).__name__))
                               for k, val in sd.items() if not isinstance(val, dict)},
                        "resumed": resumed, "started_at_2": started, "jumps": jumps}

# the wrapped scheduler's state rides in LinearWarmup's state_dict
w = makers()["warmup_step"]()
for _ in range(5):
    w.step()
wsd = w.state_dict()
rec["warmup_sd"] = {k: (sorted(val) if isinstance(val, dict) else val) for k, val in wsd.items()}
w2 = makers()["warmup_step"]()
w2.set_state_dict(wsd)
rec["warmup_restored"] = trace(w2, 3)

# fractional epochs for warm restarts, and verbose output
cw = L.CosineAnnealingWarmRestarts(learning_rate=0.3, T_0=2, T_mult=2, eta_min=0.01)
rec["warm_restarts_frac"] = trace(cw, 0, epochs=[0.5, 1.5, 2.25, 3.0, 5.5, 6.0, 14.0])
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    vs = L.StepDecay(learning_rate=0.5, step_size=1, gamma=0.5, verbose=True)
    vs.step()
    vs.step(epoch=4)
rec["verbose"] = buf.getvalue().strip().splitlines()

# ---------- ReduceOnPlateau: every argument ----------
plateau_cfgs = {
    "min_rel": dict(mode="min", factor=0.5, patience=1, threshold=0.1, threshold_mode="rel"),
    "min_abs_cool": dict(mode="min", factor=0.5, patience=0, threshold=0.05, threshold_mode="abs", cooldown=2),
    "max_rel_minlr": dict(mode="max", factor=0.3, patience=1, threshold=0.01, threshold_mode="rel", min_lr=0.02),
    "max_abs": dict(mode="max", factor=0.5, patience=2, threshold=0.1, threshold_mode="abs"),
    "epsilon": dict(mode="min", factor=0.9, patience=0, min_lr=0.095, epsilon=0.01),
}
metrics = [1.0, 0.95, 0.96, 0.8, 0.79, 0.81, 0.5, 0.55, 0.56, 0.57, 0.2, 0.21]
for name, cfg in plateau_cfgs.items():
    p = L.ReduceOnPlateau(learning_rate=0.1, **cfg)
    got = []
    sd = None
    for i, m in enumerate(metrics):
        kind = i % 4
        val = m if kind == 0 else np.float32(m) if kind == 1 else paddle.to_tensor(m) if kind == 2 \
            else np.array(m)
        p.step(val)
        got.append([f(p.last_lr), int(p.last_epoch), int(p.num_bad_epochs), int(p.cooldown_counter),
                    num(p.best) if p.best is not None else None])
        if i == 5:
            sd = p.state_dict()
    q = L.ReduceOnPlateau(learning_rate=0.1, **cfg)
    q.set_state_dict(sd)
    cont = []
    for m in metrics[6:]:
        q.step(m)
        cont.append([f(q.last_lr), int(q.num_bad_epochs)])
    rec["plateau_" + name] = {"lrs": got, "keys": sorted(sd), "cont": cont, "same_tail": [g[0] for g in got[6:]]}
# explicit epoch= to ReduceOnPlateau
p = L.ReduceOnPlateau(learning_rate=0.1, patience=0)
p.step(1.0, epoch=5)
p.step(2.0, epoch=9)
rec["plateau_epoch"] = [int(p.last_epoch), f(p.last_lr)]

# ---------- optimizers reading schedulers ----------
rng = np.random.default_rng(3)
X = rng.standard_normal((16, 3)).astype("float32")
Y = (X @ np.array([[0.5], [-1.0], [2.0]], "float32")).astype("float32")
W0 = rng.standard_normal((3, 4)).astype("float32") * 0.3
W1 = rng.standard_normal((4, 1)).astype("float32") * 0.3


def model():
    m = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 1))
    m[0].weight.set_value(W0)
    m[0].bias.set_value(np.full([4], 0.1, "float32"))
    m[2].weight.set_value(W1)
    m[2].bias.set_value(np.zeros([1], "float32"))
    return m


def train(m, opt, sched, steps, record_lr=True):
    losses, lrs = [], []
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    for _ in range(steps):
        loss = paddle.nn.functional.mse_loss(m(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(f(loss))
        lrs.append(f(opt.get_lr()))
        if sched is not None:
            sched.step()
    return losses, lrs


# one scheduler shared by SGD with two parameter groups (the second scales it by 0.5)
sched = L.PiecewiseDecay(boundaries=[2, 4], values=[0.1, 0.05, 0.02])
m = model()
opt = paddle.optimizer.SGD(learning_rate=sched, parameters=[
    {"params": m[0].parameters()},
    {"params": m[2].parameters(), "learning_rate": 0.5},
])
losses, lrs = train(m, opt, sched, 6)
rec["groups"] = {"losses": losses, "lrs": lrs, "w0": m[0].weight.numpy().tolist(),
                 "w2": m[2].weight.numpy().tolist(), "b2": m[2].bias.numpy().tolist()}

# the parameter update applied is exactly lr * grad (SGD, one step at a known lr)
m = model()
sched = L.ExponentialDecay(learning_rate=0.2, gamma=0.5)
opt = paddle.optimizer.SGD(learning_rate=sched, parameters=m.parameters())
for k in range(3):
    before = m[2].weight.numpy().copy()
    loss = paddle.nn.functional.mse_loss(m(paddle.to_tensor(X)), paddle.to_tensor(Y))
    loss.backward()
    g = m[2].weight.grad.numpy().copy()
    opt.step()
    opt.clear_grad()
    applied = (before - m[2].weight.numpy()) / np.where(g == 0, 1, g)
    rec[f"applied_lr_{k}"] = [float(np.median(applied)), f(opt.get_lr())]
    sched.step()

# Momentum and Adam under one scheduler each, state_dict with LR_Scheduler, restore into a fresh optimizer
for oname in ("Momentum", "Adam"):
    kw = {"momentum": 0.9} if oname == "Momentum" else {}
    # under unique_name.guard both runs name their parameters and accumulators alike (the state_dict's keys)
    with paddle.utils.unique_name.guard():
        m = model()
        sched = L.CosineAnnealingDecay(learning_rate=0.05, T_max=4, eta_min=0.005)
        opt = getattr(paddle.optimizer, oname)(learning_rate=sched, parameters=m.parameters(), **kw)
        losses, lrs = train(m, opt, sched, 5)
    osd = opt.state_dict()
    lr_sd = osd["LR_Scheduler"]
    saved = {k: paddle.to_tensor(t.numpy()) for k, t in m.state_dict().items()}
    l1, r1 = train(m, opt, sched, 3)
    with paddle.utils.unique_name.guard():
        m2 = model()
        sched2 = L.CosineAnnealingDecay(learning_rate=0.05, T_max=4, eta_min=0.005)
        opt2 = getattr(paddle.optimizer, oname)(learning_rate=sched2, parameters=m2.parameters(), **kw)
        m2.set_state_dict(saved)
        opt2.set_state_dict(osd)
        sched2_epoch = int(sched2.last_epoch)
        l2, r2 = train(m2, opt2, sched2, 3)
    rec["opt_" + oname] = {"losses": losses, "lrs": lrs, "lr_sd": {k: lr_sd[k] for k in sorted(lr_sd)},
                           "has_lr_key": "LR_Scheduler" in osd, "after": [l1, r1], "restored": [l2, r2],
                           "sched2_epoch": sched2_epoch, "osd_keys": sorted(osd)}

# set_lr_scheduler mid-run (from a float lr and from another scheduler)
m = model()
opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=m.parameters())
l0, r0 = train(m, opt, None, 2)
s1 = L.StepDecay(learning_rate=0.1, step_size=1, gamma=0.5)
opt.set_lr_scheduler(s1)
l1, r1 = train(m, opt, s1, 3)
s2 = L.LinearWarmup(0.08, warmup_steps=2, start_lr=0.0, end_lr=0.08)
opt.set_lr_scheduler(s2)
l2, r2 = train(m, opt, s2, 3)
rec["set_lr_scheduler"] = {"losses": l0 + l1 + l2, "lrs": r0 + r1 + r2,
                           "sd_keys": sorted(opt.state_dict()["LR_Scheduler"]),
                           "w": m[2].weight.numpy().tolist()}
try:
    opt.set_lr_scheduler(0.1)
    rec["set_lr_scheduler_float"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["set_lr_scheduler_float"] = type(e).__name__

# ReduceOnPlateau driving Adam through validation losses (step(metrics) after each epoch)
m = model()
plat = L.ReduceOnPlateau(learning_rate=0.05, factor=0.5, patience=0, threshold=0.2, cooldown=1, min_lr=0.01)
opt = paddle.optimizer.Adam(learning_rate=plat, parameters=m.parameters())
hist = []
for _ in range(6):
    loss = paddle.nn.functional.mse_loss(m(paddle.to_tensor(X)), paddle.to_tensor(Y))
    loss.backward()
    opt.step()
    opt.clear_grad()
    plat.step(loss)
    hist.append([f(loss), f(opt.get_lr()), int(plat.num_bad_epochs)])
rec["plateau_adam"] = {"hist": hist, "lr_sd": sorted(opt.state_dict()["LR_Scheduler"])}



# ---------- odd but legal calls: float epochs, int rates, the type of what is handed out ----------
def kinds(s, epochs):
    out = []
    for e in epochs:
        s.step(epoch=e)
        out.append([type(s.last_lr).__name__, f(s.last_lr), type(s.last_epoch).__name__, f(s.last_epoch)])
    return out


rec["odd"] = {
    "step_float_epoch": kinds(L.StepDecay(learning_rate=0.5, step_size=2), [2.5, 3.9, 4.0]),
    "exp_float_epoch": kinds(L.ExponentialDecay(learning_rate=0.5, gamma=0.5), [1.5, 2.0]),
    "piecewise_int_values": kinds(L.PiecewiseDecay(boundaries=[2], values=[1, 0]), [1, 2, 3]),
    "exp_int_lr": kinds(L.ExponentialDecay(learning_rate=1, gamma=0.5), [0, 1]),
    "cyclic_jump": kinds(L.CyclicLR(0.1, 0.5, step_size_up=2), [5, 1, 9]),
    "linear_past": kinds(L.LinearLR(0.4, total_steps=3, start_factor=0.5), [2, 3, 7]),
    "onecycle_jump": kinds(L.OneCycleLR(max_learning_rate=0.6, total_steps=10), [9, 2]),
    "noam_epoch0": kinds(L.NoamDecay(d_model=16, warmup_steps=2), [0, 1, 2]),
    "natural_exp_jump": kinds(L.NaturalExpDecay(0.4, gamma=0.5), [3, 0]),
}
rec["base_scheduler"] = err(lambda: L.LRScheduler(learning_rate=0.3))  # get_lr is for subclasses to write

# ---------- misuse: the exception types code catches ----------
def over_step():
    s = L.OneCycleLR(max_learning_rate=0.1, total_steps=2)
    for _ in range(3):
        s.step()


rec["errors"] = {
    "onecycle_over": err(over_step),
    "onecycle_phase": err(lambda: L.OneCycleLR(max_learning_rate=0.1, total_steps=5, phase_pct=1.5)),
    "onecycle_anneal": err(lambda: L.OneCycleLR(max_learning_rate=0.1, total_steps=5, anneal_strategy="exp")),
    "cyclic_mode": err(lambda: L.CyclicLR(0.01, 0.1, step_size_up=2, mode="sine")),
    "cyclic_step0": err(lambda: L.CyclicLR(0.01, 0.1, step_size_up=0)),
    "linear_start": err(lambda: L.LinearLR(0.1, total_steps=3, start_factor=1.5)),
    "linear_total": err(lambda: L.LinearLR(0.1, total_steps=0)),
    "warm_t0": err(lambda: L.CosineAnnealingWarmRestarts(0.1, T_0=0)),
    "warm_tmult": err(lambda: L.CosineAnnealingWarmRestarts(0.1, T_0=2, T_mult=0)),
    "cosine_tmax": err(lambda: L.CosineAnnealingDecay(0.1, T_max=2.5)),
    "step_size": err(lambda: L.StepDecay(0.1, step_size=2.0)),
    "step_gamma": err(lambda: L.StepDecay(0.1, step_size=2, gamma=1.5)),
    "multistep_order": err(lambda: L.MultiStepDecay(0.1, milestones=[3, 2])),
    "plateau_mode": err(lambda: L.ReduceOnPlateau(0.1, mode="avg")),
    "plateau_factor": err(lambda: L.ReduceOnPlateau(0.1, factor=1.5)),
    "plateau_tmode": err(lambda: L.ReduceOnPlateau(0.1, threshold_mode="pct")),
    "plateau_two": err(lambda: L.ReduceOnPlateau(0.1).step(paddle.to_tensor([1.0, 2.0]))),
    "plateau_str": err(lambda: L.ReduceOnPlateau(0.1).step("1.0")),
    "multiplicative_fn": err(lambda: L.MultiplicativeDecay(0.1, lr_lambda=0.5)),
    "lambda_fn": err(lambda: L.LambdaDecay(0.1, lr_lambda=0.5)),
    "sgd_lr_str": err(lambda: paddle.optimizer.SGD(learning_rate="0.1", parameters=model().parameters())),
}

with open(os.environ["PROGRAM_OUT"], "w") as fh:
    json.dump(rec, fh)
