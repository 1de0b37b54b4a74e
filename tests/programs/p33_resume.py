"""Checkpoint and resume: a model trained with AdamW (weight_decay with apply_decay_param_fun, ClipGradByGlobalNorm,
gradient accumulation over micro-batches) under LinearWarmup wrapping PolynomialDecay (cycle=True) and
CosineAnnealingDecay; at step k the model's, the optimizer's and the scheduler's state_dicts are saved with
paddle.save (to a path and to an io.BytesIO), a fresh model/optimizer/scheduler is built (under
unique_name.guard, so its parameters have the saved names), paddle.load + set_state_dict, and training goes on; both
trajectories, the LR values, the optimizer state_dict's keys and the scheduler's state are recorded. Then
paddle.save of nested dicts/lists holding Tensors, numpy arrays and Python values, paddle.load(return_numpy=True),
a single Tensor saved and loaded, the protocol argument, opt.set_lr / get_lr (a plain float learning rate and the
error with a scheduler), scheduler.last_epoch / last_lr / state_dict; parameter groups with their own weight decay
resumed through opt.set_state_dict alone (it restores the scheduler); Momentum (Nesterov, L2Decay), SGD, Adam
(amsgrad), RMSProp (centered), Adagrad, Adamax, Adadelta and Lamb under MultiStepDecay, StepDecay, OneCycleLR,
CyclicLR, NaturalExpDecay, InverseTimeDecay, NoamDecay and PiecewiseDecay, each resumed from a checkpoint; a
scheduler of one's own; Layer.set_state_dict's missing/unexpected keys, wrong shapes, a float64 value (an error,
as Paddle) and use_structured_name=False; a fresh model whose parameter names differ from the saved optimizer
state's (an error at step, as Paddle)."""
import io
import json
import os
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.utils import unique_name

rng = np.random.default_rng(0)
X = rng.standard_normal((48, 6)).astype("float32")
Y = rng.integers(0, 3, size=(48,)).astype("int64")
r = np.random.default_rng(1)
INIT = None


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.norm = nn.LayerNorm(16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(F.gelu(self.norm(self.fc1(x))))


def build(kind):
    model = Net()
    global INIT
    if INIT is None:
        INIT = {k: (r.standard_normal(v.shape) * 0.5).astype("float32") for k, v in model.state_dict().items()}
    model.set_state_dict(INIT)
    if kind == "poly":
        inner = paddle.optimizer.lr.PolynomialDecay(learning_rate=0.05, decay_steps=4, end_lr=0.005, power=1.5,
                                                    cycle=True)
    else:
        inner = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.05, T_max=6, eta_min=0.002)
    sched = paddle.optimizer.lr.LinearWarmup(inner, warmup_steps=3, start_lr=0.001, end_lr=0.05)
    names = {p.name: n for n, p in model.named_parameters()}
    opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=model.parameters(), weight_decay=0.05,
                                 apply_decay_param_fun=lambda name: "norm" not in names[name] and "bias" not in names[name],
                                 grad_clip=nn.ClipGradByGlobalNorm(0.5))
    return model, opt, sched


def micro(model, step):
    i = (step % 6) * 8
    logits = model(paddle.to_tensor(X[i:i + 8]))
    return F.cross_entropy(logits, paddle.to_tensor(Y[i:i + 8]))


ACC = 2


def train(model, opt, sched, start, stop, log):
    for step in range(start, stop):
        loss = micro(model, step)
        (loss / ACC).backward()
        log["loss"].append(float(loss))
        if (step + 1) % ACC == 0:
            opt.step()
            opt.clear_grad()
            log["lr"].append(opt.get_lr())
            sched.step()
            log["last_epoch"].append(sched.last_epoch)


rec = {}
STEPS, K = 24, 10
for kind, how in (("poly", "path"), ("cos", "bytes")):
    with unique_name.guard():  # each run's names from fresh counters: its accumulators are <param>_moment1_0 ...
        model, opt, sched = build(kind)
        full = {"loss": [], "lr": [], "last_epoch": []}
        train(model, opt, sched, 0, STEPS, full)
    full["params"] = {k: v.numpy().tolist() for k, v in model.state_dict().items()}

    with unique_name.guard():
        model, opt, sched = build(kind)
        part = {"loss": [], "lr": [], "last_epoch": []}
        train(model, opt, sched, 0, K, part)
    osd = opt.state_dict()
    rec[f"{kind}_opt_keys"] = sorted(osd.keys())
    rec[f"{kind}_lr_state"] = {k: (v if not isinstance(v, float) else round(v, 7)) for k, v in osd["LR_Scheduler"].items()}
    rec[f"{kind}_sched_state"] = {k: v for k, v in sched.state_dict().items()}
    rec[f"{kind}_beta1_pow"] = sorted([v.shape, v.numpy().tolist()] for k, v in osd.items() if k.endswith("beta1_pow_acc_0"))
    ckpt = {"model": model.state_dict(), "opt": osd, "sched": sched.state_dict(), "step": K}
    if how == "path":
        d = tempfile.mkdtemp()
        paddle.save(model.state_dict(), os.path.join(d, "model.pdparams"))
        paddle.save(opt.state_dict(), os.path.join(d, "opt.pdopt"))
        paddle.save(sched.state_dict(), os.path.join(d, "sched.pdsched"))
        loaded = {"model": paddle.load(os.path.join(d, "model.pdparams")),
                  "opt": paddle.load(os.path.join(d, "opt.pdopt")),
                  "sched": paddle.load(os.path.join(d, "sched.pdsched"))}
    else:
        buf = io.BytesIO()
        paddle.save(ckpt, buf)
        buf.seek(0)
        loaded = paddle.load(buf)
    rec[f"{kind}_loaded_types"] = {k: type(v).__name__ for k, v in loaded.items()}
    rec[f"{kind}_loaded_opt_keys"] = sorted(loaded["opt"].keys())
    rec[f"{kind}_loaded_opt_types"] = sorted({type(v).__name__ for v in loaded["opt"].values()})
    del model, opt, sched
    with unique_name.guard():
        model, opt, sched = build(kind)
        model.set_state_dict(loaded["model"])
        opt.set_state_dict(loaded["opt"])
        sched.set_state_dict(loaded["sched"])
        part["resumed_lr"] = opt.get_lr()
        part["resumed_last_epoch"] = sched.last_epoch
        train(model, opt, sched, K, STEPS, part)
    part["params"] = {k: v.numpy().tolist() for k, v in model.state_dict().items()}
    rec[f"{kind}_full"] = full
    rec[f"{kind}_resumed"] = part
    rec[f"{kind}_same"] = bool(np.allclose(full["loss"], part["loss"], atol=1e-6))
    rec[f"{kind}_last_lr"] = sched.last_lr

# nested containers through paddle.save / paddle.load
t = paddle.to_tensor(rng.standard_normal((2, 3)).astype("float32"))
nested = {"w": t, "list": [paddle.arange(4), np.arange(3, dtype="int32"), 7, "text", 2.5, None, True],
          "inner": {"a": paddle.ones([2], dtype="float64"), "b": (1, 2), "c": {"deep": paddle.zeros([1, 2])}},
          "arr": rng.standard_normal(3)}


def describe(obj):
    if isinstance(obj, dict):
        return {str(k): describe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [type(obj).__name__, [describe(v) for v in obj]]
    if isinstance(obj, np.ndarray):
        return ["ndarray", str(obj.dtype), obj.tolist()]
    if isinstance(obj, paddle.Tensor):
        return ["Tensor", str(obj.dtype), obj.numpy().tolist(), obj.stop_gradient]
    return [type(obj).__name__, obj]


d = tempfile.mkdtemp()
paddle.save(nested, os.path.join(d, "nested.pkl"))
rec["nested"] = describe(paddle.load(os.path.join(d, "nested.pkl")))
rec["nested_np"] = describe(paddle.load(os.path.join(d, "nested.pkl"), return_numpy=True))
paddle.save(nested, os.path.join(d, "nested_p2.pkl"), protocol=2)
rec["nested_p2"] = describe(paddle.load(os.path.join(d, "nested_p2.pkl")))
paddle.save(t, os.path.join(d, "single.pdtensor"))
single = paddle.load(os.path.join(d, "single.pdtensor"))
rec["single"] = describe(single)
rec["single_np"] = describe(paddle.load(os.path.join(d, "single.pdtensor"), return_numpy=True))
p = nn.Linear(2, 2).weight
paddle.save(p, os.path.join(d, "param.pdparams"))
lp = paddle.load(os.path.join(d, "param.pdparams"))
rec["param_loaded"] = [type(lp).__name__, lp.stop_gradient, lp.shape]
buf = io.BytesIO()
paddle.save({"x": t, "n": 3}, buf, protocol=4)
buf.seek(0)
rec["bytes_np"] = describe(paddle.load(buf, return_numpy=True))
try:
    paddle.save(t, os.path.join(d, "bad.pkl"), protocol=1)
    rec["protocol1"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["protocol1"] = type(e).__name__

# a plain float learning rate: set_lr / get_lr; with a scheduler set_lr is an error
m = nn.Linear(3, 2)
m.set_state_dict({"weight": np.arange(6, dtype="float32").reshape(3, 2) * 0.1, "bias": np.ones(2, "float32")})
o = paddle.optimizer.AdamW(learning_rate=0.01, parameters=m.parameters(), weight_decay=0.0)
rec["get_lr"] = [o.get_lr()]
o.set_lr(0.002)
rec["get_lr"].append(o.get_lr())
m(paddle.ones([1, 3])).sum().backward()
o.step()
rec["after_set_lr"] = m.weight.numpy().tolist()
osd = o.state_dict()
rec["plain_opt_keys"] = sorted(osd.keys())
try:
    o.set_lr(paddle.to_tensor(0.1))
    rec["set_lr_tensor"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["set_lr_tensor"] = type(e).__name__
s = paddle.optimizer.lr.LinearWarmup(0.1, warmup_steps=2, start_lr=0.0, end_lr=0.1)
o2 = paddle.optimizer.AdamW(learning_rate=s, parameters=m.parameters())
try:
    o2.set_lr(0.5)
    rec["set_lr_sched"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["set_lr_sched"] = type(e).__name__
rec["warm_float"] = []
for _ in range(4):
    rec["warm_float"].append([s.last_epoch, s.last_lr, s()])
    s.step()
rec["warm_float_state"] = s.state_dict()
s2 = paddle.optimizer.lr.LinearWarmup(0.1, warmup_steps=2, start_lr=0.0, end_lr=0.1)
s2.set_state_dict(s.state_dict())
rec["warm_restored"] = [s2.last_epoch, s2.last_lr]
s2.step(10)
rec["warm_step_epoch"] = [s2.last_epoch, s2.last_lr]

# resuming where only the optimizer's state dict carries the scheduler (opt.set_state_dict restores LR_Scheduler),
# with parameter groups of their own weight decay, and the checkpoint's dict read back as numpy
with unique_name.guard():
    model, _, _ = build("poly")
    sched = paddle.optimizer.lr.LinearWarmup(paddle.optimizer.lr.PolynomialDecay(0.05, decay_steps=4, end_lr=0.005),
                                             warmup_steps=2, start_lr=0.0, end_lr=0.05)
    groups = [{"params": model.fc1.parameters(), "weight_decay": 0.1},
              {"params": model.norm.parameters() + model.fc2.parameters(), "learning_rate": 0.5}]
    opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=groups, weight_decay=0.01)
    rec["groups_before_step_keys"] = sorted(opt.state_dict().keys())
    log = {"loss": [], "lr": [], "last_epoch": []}
    train(model, opt, sched, 0, 8, log)
    buf = io.BytesIO()
    paddle.save({"model": model.state_dict(), "opt": opt.state_dict()}, buf)
    rec["groups_log"] = log
    buf.seek(0)
    as_np = paddle.load(buf, return_numpy=True)
    rec["groups_np_types"] = sorted({type(v).__name__ for v in as_np["opt"].values()})
    rec["groups_np_lr"] = as_np["opt"]["LR_Scheduler"]
    buf.seek(0)
    ck = paddle.load(buf)
    cont = {"loss": [], "lr": [], "last_epoch": []}
    train(model, opt, sched, 8, 14, cont)
    rec["groups_cont"] = cont
with unique_name.guard():
    model, _, _ = build("poly")
    sched = paddle.optimizer.lr.LinearWarmup(paddle.optimizer.lr.PolynomialDecay(0.05, decay_steps=4, end_lr=0.005),
                                             warmup_steps=2, start_lr=0.0, end_lr=0.05)
    groups = [{"params": model.fc1.parameters(), "weight_decay": 0.1},
              {"params": model.norm.parameters() + model.fc2.parameters(), "learning_rate": 0.5}]
    opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=groups, weight_decay=0.01)
    missing, unexpected = model.set_state_dict(ck["model"])
    rec["groups_missing"] = [list(missing), list(unexpected)]
    opt.set_state_dict(ck["opt"])
    rec["groups_restored"] = [sched.last_epoch, sched.last_lr, opt.get_lr()]
    res = {"loss": [], "lr": [], "last_epoch": []}
    train(model, opt, sched, 8, 14, res)
    rec["groups_resumed"] = res

# a fresh model outside the guard has other parameter names: the saved optimizer state is not its own
fresh, fopt, _ = build("poly")
fopt.set_state_dict(ck["opt"] if False else loaded["opt"])
try:
    micro(fresh, 0).backward()
    fopt.step()
    rec["foreign_state"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["foreign_state"] = type(e).__name__

# set_state_dict with extra, missing, wrong-shape and float64 entries
lin = nn.Linear(3, 2)
try:
    lin.set_state_dict({"weight": np.ones((3, 2), "float64")})
    rec["f64_load"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["f64_load"] = type(e).__name__
res = lin.set_state_dict({"weight": np.ones((3, 2), "float32"), "extra": np.zeros(2, "float32")})
rec["partial_load"] = [sorted(res[0]), sorted(res[1]), str(lin.weight.dtype), lin.weight.numpy().tolist()]
try:
    res = lin.set_state_dict({"weight": np.ones((2, 3), "float32"), "bias": np.ones(2, "float32")})
    rec["bad_shape_load"] = [sorted(res[0]), sorted(res[1]), lin.weight.numpy().tolist(), lin.bias.numpy().tolist()]
except Exception as e:  # noqa: BLE001
    rec["bad_shape_load"] = type(e).__name__
lin.set_state_dict({"linear_9.w_0": np.full((3, 2), 2.0, "float32")}, use_structured_name=False)
rec["unstructured_load"] = lin.weight.numpy().tolist()
res = lin.set_state_dict({lin.weight.name: np.full((3, 2), 3.0, "float32")}, use_structured_name=False)
rec["unstructured_load2"] = [lin.weight.numpy().tolist(), sorted(res[0]), sorted(res[1])]
rec["lin_names"] = [lin.weight.name, lin.bias.name]

# other optimizers: their state_dict keys, and a resume of each from a BytesIO checkpoint
def small():
    m = nn.Linear(4, 3)
    m.set_state_dict({"weight": np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3),
                      "bias": np.array([0.1, 0.0, -0.1], "float32")})
    return m


XS = rng.standard_normal((6, 4)).astype("float32")
makers = {
    "momentum": lambda ps, lr: paddle.optimizer.Momentum(lr, momentum=0.9, use_nesterov=True, parameters=ps,
                                                          weight_decay=paddle.regularizer.L2Decay(0.01)),
    "sgd": lambda ps, lr: paddle.optimizer.SGD(lr, parameters=ps, weight_decay=0.02),
    "adam": lambda ps, lr: paddle.optimizer.Adam(lr, beta1=0.8, parameters=ps, amsgrad=True),
    "rmsprop": lambda ps, lr: paddle.optimizer.RMSProp(lr, rho=0.9, momentum=0.5, centered=True, parameters=ps),
    "adagrad": lambda ps, lr: paddle.optimizer.Adagrad(lr, parameters=ps, initial_accumulator_value=0.1),
    "adamax": lambda ps, lr: paddle.optimizer.Adamax(lr, parameters=ps),
    "adadelta": lambda ps, lr: paddle.optimizer.Adadelta(lr, parameters=ps),
    "lamb": lambda ps, lr: paddle.optimizer.Lamb(lr, parameters=ps, lamb_weight_decay=0.01),
}
scheds = {
    "momentum": lambda: paddle.optimizer.lr.MultiStepDecay(0.05, milestones=[2, 4], gamma=0.5),
    "sgd": lambda: paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.7),
    "adam": lambda: paddle.optimizer.lr.OneCycleLR(0.05, total_steps=8, phase_pct=0.3),
    "rmsprop": lambda: paddle.optimizer.lr.CyclicLR(0.001, 0.01, step_size_up=2),
    "adagrad": lambda: paddle.optimizer.lr.NaturalExpDecay(0.1, gamma=0.2),
    "adamax": lambda: paddle.optimizer.lr.InverseTimeDecay(0.05, gamma=0.3),
    "adadelta": lambda: paddle.optimizer.lr.NoamDecay(d_model=16, warmup_steps=3, learning_rate=1.0),
    "lamb": lambda: paddle.optimizer.lr.PiecewiseDecay([2, 4], [0.02, 0.01, 0.005]),
}


def run_small(m, o, s, steps, log):
    for i in range(steps):
        loss = (m(paddle.to_tensor(XS)) ** 2).mean() + m(paddle.to_tensor(XS[i % 3:i % 3 + 2])).abs().sum()
        loss.backward()
        o.step()
        o.clear_grad()
        s.step()
        log.append([float(loss), o.get_lr()])


for name, make in makers.items():
    with unique_name.guard():
        m = small()
        s = scheds[name]()
        o = make(m.parameters(), s)
        full = []
        run_small(m, o, s, 8, full)
    with unique_name.guard():
        m = small()
        s = scheds[name]()
        o = make(m.parameters(), s)
        part = []
        run_small(m, o, s, 3, part)
        buf = io.BytesIO()
        paddle.save({"m": m.state_dict(), "o": o.state_dict()}, buf)
        osd = o.state_dict()
        rec[f"{name}_keys"] = sorted(osd.keys())
        rec[f"{name}_sched"] = osd.get("LR_Scheduler")
        rec[f"{name}_shapes"] = sorted([k, v.shape] for k, v in osd.items() if k != "LR_Scheduler")
    buf.seek(0)
    ck = paddle.load(buf)
    with unique_name.guard():
        m = small()
        s = scheds[name]()
        o = make(m.parameters(), s)
        m.set_state_dict(ck["m"])
        o.set_state_dict(ck["o"])
        run_small(m, o, s, 5, part)
    rec[f"{name}_full"] = full
    rec[f"{name}_resumed"] = part


# a scheduler of one's own: its state_dict holds the keys it lists
class Halving(paddle.optimizer.lr.LRScheduler):
    def __init__(self, learning_rate, every, last_epoch=-1):
        self.every = every
        super().__init__(learning_rate, last_epoch)

    def get_lr(self):
        return self.base_lr * 0.5 ** (self.last_epoch // self.every)


h = Halving(0.08, every=2)
vals = []
for _ in range(5):
    vals.append(h())
    h.step()
rec["custom_sched"] = [vals, h.state_dict(), h.last_epoch]
h2 = Halving(0.08, every=2)
h2.set_state_dict(h.state_dict())
rec["custom_restored"] = [h2.last_epoch, h2.last_lr, h2()]

# errors of load / save misuse
try:
    paddle.load(os.path.join(d, "missing.pdparams"))
    rec["load_missing"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["load_missing"] = type(e).__name__
sub = os.path.join(d, "new_dir", "deeper", "w.pdparams")
paddle.save({"w": t}, sub)
rec["save_makes_dirs"] = [os.path.exists(sub), describe(paddle.load(sub))]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
