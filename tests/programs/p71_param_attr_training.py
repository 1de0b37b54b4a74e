"""Per-parameter training settings, the ones a Paddle user sets and that go silently wrong when ignored: a small
Embedding -> Conv2D -> Linear model whose weights and biases carry ``ParamAttr(learning_rate=..., regularizer=L1Decay
/ L2Decay, trainable=False, need_clip=False, initializer=...)``, trained a few steps by SGD, Momentum (use_nesterov),
Adam (amsgrad), AdamW (apply_decay_param_fun), RMSProp (centered), Adagrad and Lamb (exclude_from_weight_decay_fn),
each with a global-norm clip and the optimizer's weight_decay as a float, an L2Decay or an L1Decay (a ParamAttr
regularizer takes precedence over it); AdamW with a ParamAttr regularizer as well; rules whose only regularization is
a ParamAttr one (Lamb, RMSProp, Adagrad, Adamax, Adadelta, NAdam); parameter groups (a list of dicts) of Adam,
Momentum, AdamW, RMSProp, Adagrad, Lamb and SGD under a scheduler, with their own learning-rate multiplier,
weight_decay, grad_clip, beta1 / beta2 / epsilon / momentum / rho / centered / lamb_weight_decay; parameters with
``stop_gradient=True`` inside the optimizer's list (skipped: no update, no decay); attributes changed after creation
(``trainable`` back on, ``param.regularizer``, ``optimize_attr['learning_rate']``); ``optimizer.minimize(loss)`` (on
all parameters and on a subset); evaluation under ``paddle.no_grad`` between steps and ``step()`` called inside
``no_grad``; ``step()`` with no gradients at all (nothing moves, Adam's beta powers stay);
``clear_grad(set_to_zero=False)`` (zero gradients kept: a later step still decays and carries momentum) against
``clear_grad()``; ``get_lr()`` / ``set_lr()`` mid-run under ParamAttr and group multipliers; ``need_clip=False`` under
each of the three clips; sparse Embedding gradients under SGD / Momentum / Adagrad / RMSProp with weight decay and
Adam's lazy_mode (only the looked-up rows move; Adam with weight_decay on a sparse parameter is Paddle's
RuntimeError). The parameters are recorded after every step.

Deliberately not mirrored, left out here: ``AdamW(lr_ratio=...)`` raises NotImplementedError on Paddle's CPU build
(its GPU kernel scales each parameter's rate); pylayer_jax scales it as documented. ``minimize(loss,
no_grad_set=...)`` in Paddle's dynamic mode ignores the set (the parameters named in it are updated); pylayer_jax
leaves them alone, as documented. ``Momentum(rescale_grad=...)`` on Paddle's CPU kernel is ignored (see p41);
pylayer_jax scales the gradient as documented. A parameter listed twice in ``parameters`` is updated twice per step
by Paddle; pylayer_jax raises a ValueError naming it (a duplicate is a mistake in the list)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

optim = paddle.optimizer
reg = paddle.regularizer
rng = np.random.default_rng(0)
IDS = rng.integers(0, 10, (24, 3)).astype("int64")
Y = rng.standard_normal((24, 1)).astype("float32")
r = np.random.default_rng(1)
INIT = {"emb.weight": (r.standard_normal((10, 4)) * 0.5).astype("float32"),
        "conv.weight": (r.standard_normal((2, 1, 2, 2)) * 0.5).astype("float32"),
        "conv.bias": (r.standard_normal(2) * 0.1).astype("float32"),
        "fc.weight": (r.standard_normal((12, 1)) * 0.3).astype("float32"),
        "fc.bias": np.full(1, 0.05, "float32")}
rec = {}


def v(t):
    return np.asarray(t.numpy()).astype(np.float64).ravel().tolist()


class Net(nn.Layer):
    def __init__(self, attrs=None, sparse=False):
        super().__init__()
        a = attrs or {}
        self.emb = nn.Embedding(10, 4, sparse=sparse, weight_attr=a.get("emb.weight"))
        self.conv = nn.Conv2D(1, 2, 2, weight_attr=a.get("conv.weight"), bias_attr=a.get("conv.bias"))
        self.fc = nn.Linear(12, 1, weight_attr=a.get("fc.weight"), bias_attr=a.get("fc.bias"))

    def forward(self, ids):
        h = self.emb(ids).unsqueeze(1)          # [B, 1, 3, 4]
        h = F.tanh(self.conv(h))                # [B, 2, 2, 3]
        return self.fc(h.flatten(1))


def make(attrs=None, keep=(), sparse=False):
    m = Net(attrs, sparse)
    for k, p in m.state_dict().items():
        if k not in keep:
            p.set_value(INIT[k])
    return m


def batch(step):
    i = (step % 3) * 8
    return paddle.to_tensor(IDS[i:i + 8]), paddle.to_tensor(Y[i:i + 8])


def loss_of(m, step):
    x, y = batch(step)
    return F.mse_loss(m(x), y)


def train(m, opt, steps, clear="none"):
    out = {"loss": [], "params": []}
    for s in range(steps):
        loss = loss_of(m, s)
        loss.backward()
        opt.step()
        if clear == "zero":
            opt.clear_grad(set_to_zero=False)
        else:
            opt.clear_grad()
        out["loss"].append(loss.item())
        out["params"].append([v(p) for p in m.parameters()])
    return out


def attrs():
    return {
        "emb.weight": paddle.ParamAttr(learning_rate=0.5, regularizer=reg.L1Decay(0.02)),
        "conv.weight": paddle.ParamAttr(trainable=False),
        "conv.bias": paddle.ParamAttr(initializer=nn.initializer.Constant(0.2), learning_rate=3.0),
        "fc.weight": paddle.ParamAttr(need_clip=False, regularizer=reg.L2Decay(0.1)),
        "fc.bias": paddle.ParamAttr(learning_rate=2.0, need_clip=False),
    }


# the attributes as the parameters carry them
m = make(attrs(), keep=("conv.bias",))
rec["attrs"] = {n: [p.trainable, p.stop_gradient, p.need_clip, float(p.optimize_attr["learning_rate"]),
                    type(p.regularizer).__name__ if p.regularizer is not None else None]
                for n, p in m.named_parameters()}
rec["const_bias"] = v(m.conv.bias)

clip = lambda: nn.ClipGradByGlobalNorm(0.05)  # noqa: E731
RULES = {
    "sgd_float": lambda ps: optim.SGD(0.1, parameters=ps, weight_decay=0.05, grad_clip=clip()),
    "momentum_l2": lambda ps: optim.Momentum(0.05, momentum=0.9, use_nesterov=True, parameters=ps,
                                             weight_decay=reg.L2Decay(0.05), grad_clip=clip()),
    "adam_l1": lambda ps: optim.Adam(0.02, parameters=ps, amsgrad=True, weight_decay=reg.L1Decay(0.01),
                                     grad_clip=clip()),
    "adamw": lambda ps: optim.AdamW(0.02, parameters=ps, weight_decay=0.2, grad_clip=clip(),
                                    apply_decay_param_fun=lambda n: "b_0" not in n),
    "rmsprop": lambda ps: optim.RMSProp(0.01, rho=0.9, momentum=0.3, centered=True, parameters=ps,
                                        weight_decay=0.05, grad_clip=clip()),
    "adagrad": lambda ps: optim.Adagrad(0.1, parameters=ps, initial_accumulator_value=0.1,
                                        weight_decay=reg.L2Decay(0.02), grad_clip=clip()),
    "lamb": lambda ps: optim.Lamb(0.02, lamb_weight_decay=0.1, parameters=ps, grad_clip=clip(),
                                  exclude_from_weight_decay_fn=lambda p: p.name.endswith("b_0")),
}
zoo = {}
for name, mk in RULES.items():
    m = make(attrs(), keep=("conv.bias",))
    zoo[name] = train(m, mk(m.parameters()), 5)
    zoo[name]["names"] = [p.name.split("_")[0] for p in m.parameters()]
rec["zoo"] = zoo

# AdamW with a ParamAttr regularizer on a weight as well (both apply), and without the attributes at all
m = make({"fc.weight": paddle.ParamAttr(regularizer=reg.L2Decay(0.3))})
rec["adamw_attr_reg"] = train(m, optim.AdamW(0.02, parameters=m.parameters(), weight_decay=0.1), 4)

# parameter groups: each its own rate multiplier, weight decay, clip and rule settings
m = make()
opt = optim.Adam(learning_rate=0.02, weight_decay=0.01, beta1=0.9, parameters=[
    {"params": m.emb.parameters(), "learning_rate": 0.5, "beta1": 0.5, "weight_decay": reg.L1Decay(0.05)},
    {"params": m.conv.parameters(), "epsilon": 1e-3, "grad_clip": nn.ClipGradByNorm(0.01)},
    {"params": m.fc.parameters(), "weight_decay": 0.0, "beta2": 0.9, "learning_rate": 2.0},
])
g = train(m, opt, 5)
g["lr"] = opt.get_lr()
opt.set_lr(0.005)
g2 = train(m, opt, 3)
g["after_set_lr"] = [opt.get_lr(), g2]
rec["groups_adam"] = g
m = make()
opt = optim.Momentum(learning_rate=0.05, momentum=0.9, weight_decay=reg.L2Decay(0.01), parameters=[
    {"params": [m.emb.weight, m.conv.weight], "momentum": 0.5, "use_nesterov": True},
    {"params": [m.conv.bias, m.fc.weight, m.fc.bias], "weight_decay": 0.2, "grad_clip": nn.ClipGradByValue(0.01)},
])
rec["groups_momentum"] = train(m, opt, 5)
m = make()
opt = optim.AdamW(learning_rate=0.02, weight_decay=0.05, parameters=[
    {"params": m.emb.parameters(), "weight_decay": 0.5},
    {"params": list(m.conv.parameters()) + list(m.fc.parameters()), "learning_rate": 0.1},
])
rec["groups_adamw"] = train(m, opt, 4)

# a frozen parameter inside the optimizer's list: no update, not even weight decay
for name, mk in (("sgd", lambda ps: optim.SGD(0.1, parameters=ps, weight_decay=0.5)),
                 ("adam", lambda ps: optim.Adam(0.02, parameters=ps, weight_decay=reg.L2Decay(0.5))),
                 ("adamw", lambda ps: optim.AdamW(0.02, parameters=ps, weight_decay=0.5))):
    m = make()
    m.conv.weight.stop_gradient = True
    m.fc.bias.stop_gradient = True
    opt = mk(m.parameters())
    out = train(m, opt, 3)
    out["grads_none"] = [m.conv.weight.grad is None, m.fc.bias.grad is None]
    rec[f"frozen_{name}"] = out

# minimize(loss), eval under no_grad in between, step() inside no_grad
m = make()
opt = optim.Adam(0.02, parameters=m.parameters(), weight_decay=0.01)
mins = {"loss": [], "eval": [], "params": []}
for s in range(4):
    loss = loss_of(m, s)
    loss.backward()
    ret = opt.minimize(loss)
    opt.clear_grad()
    with paddle.no_grad():
        ev = loss_of(m, s + 1)
    mins["loss"].append(loss.item())
    mins["eval"].append([ev.item(), ev.stop_gradient])
    mins["params"].append([v(p) for p in m.parameters()])
mins["ret"] = [type(ret).__name__, len(ret)]
for s in range(2):
    loss_of(m, s).backward()
    with paddle.no_grad():
        opt.step()
    opt.clear_grad()
mins["no_grad_step"] = [v(p) for p in m.parameters()]
# step() with no gradients: nothing moves, Adam's accumulators stay
before = [v(p) for p in m.parameters()]
opt.step()
mins["empty_step_same"] = before == [v(p) for p in m.parameters()]
sd = opt.state_dict()
mins["beta_pow"] = sorted((k, v(t)) for k, t in sd.items() if "beta1_pow" in k)
rec["minimize"] = mins

# clear_grad(set_to_zero=False): zero gradients stay, so a later step still decays and carries momentum
for name, mk in (("momentum", lambda ps: optim.Momentum(0.05, momentum=0.9, parameters=ps, weight_decay=0.1)),
                 ("adam", lambda ps: optim.Adam(0.02, parameters=ps, weight_decay=0.1)),
                 ("sgd_l1", lambda ps: optim.SGD(0.1, parameters=ps, weight_decay=reg.L1Decay(0.1)))):
    out = {}
    for clear in ("zero", "none"):
        m = make()
        opt = mk(m.parameters())
        r_ = train(m, opt, 2, clear)
        r_["grad_after"] = [None if p.grad is None else v(p.grad) for p in m.parameters()][:2]
        opt.step()
        opt.step()
        r_["after_extra_steps"] = [v(p) for p in m.parameters()]
        out[clear] = r_
    rec[f"clear_{name}"] = out

# get_lr / set_lr with ParamAttr multipliers
m = make(attrs(), keep=("conv.bias",))
opt = optim.SGD(0.1, parameters=m.parameters())
lrs = []
for s in range(4):
    opt.set_lr(0.1 / (s + 1))
    lrs.append(opt.get_lr())
    loss_of(m, s).backward()
    opt.step()
    opt.clear_grad()
rec["set_lr"] = [lrs, [v(p) for p in m.parameters()]]

# Adam's lazy_mode on a sparse embedding: only the rows looked up move (and their moments)
for lazy in (True, False):
    m = make(sparse=True)
    opt = optim.Adam(0.05, parameters=m.parameters(), lazy_mode=lazy)
    rec[f"lazy_{lazy}"] = train(m, opt, 3)

# sparse embedding gradients with weight decay (float, L1, a ParamAttr one) under SGD / Momentum / Adam
for name, mk in (("sgd", lambda ps: optim.SGD(0.1, parameters=ps, weight_decay=0.1)),
                 ("momentum_l1", lambda ps: optim.Momentum(0.05, parameters=ps, weight_decay=reg.L1Decay(0.05))),
                 ("adam_lazy", lambda ps: optim.Adam(0.05, parameters=ps, lazy_mode=True, weight_decay=0.1)),
                 ("adagrad", lambda ps: optim.Adagrad(0.1, parameters=ps)),
                 ("rmsprop", lambda ps: optim.RMSProp(0.05, parameters=ps))):
    m = make({"emb.weight": paddle.ParamAttr(regularizer=reg.L2Decay(0.2))} if name == "adagrad" else None,
             sparse=True)
    try:
        rec[f"sparse_{name}"] = train(m, mk(m.parameters()), 3)
    except (RuntimeError, ValueError, TypeError, NotImplementedError) as e:
        rec[f"sparse_{name}"] = type(e).__name__

# attributes changed after creation: trainable back on, a regularizer and a rate set on the parameter itself
m = make(attrs(), keep=("conv.bias",))
m.conv.weight.trainable = True
m.fc.bias.regularizer = reg.L1Decay(0.3)
m.emb.weight.optimize_attr["learning_rate"] = 0.1
rec["late_attrs"] = [m.conv.weight.stop_gradient,
                     train(m, optim.SGD(0.1, parameters=m.parameters(), weight_decay=0.05), 3)]

# minimize on a subset of the parameters; need_clip=False under each clip
m = make()
opt = optim.SGD(0.1, parameters=m.parameters())
loss = loss_of(m, 0)
loss.backward()
opt.minimize(loss, parameters=[m.fc.weight, m.fc.bias])
rec["minimize_subset"] = [v(p) for p in m.parameters()]
for cname, c in (("norm", nn.ClipGradByNorm(0.01)), ("value", nn.ClipGradByValue(0.001)),
                 ("global", nn.ClipGradByGlobalNorm(0.01))):
    m = make({"fc.weight": paddle.ParamAttr(need_clip=False), "emb.weight": paddle.ParamAttr(need_clip=False)})
    rec[f"need_clip_{cname}"] = train(m, optim.Adam(0.01, parameters=m.parameters(), grad_clip=c), 2)

# rules whose regularization comes from ParamAttr only
for name, mk in (("lamb", lambda ps: optim.Lamb(0.02, parameters=ps, lamb_weight_decay=0.0)),
                 ("rmsprop", lambda ps: optim.RMSProp(0.01, parameters=ps, centered=True)),
                 ("adagrad", lambda ps: optim.Adagrad(0.05, parameters=ps)),
                 ("adamax", lambda ps: optim.Adamax(0.02, parameters=ps)),
                 ("adadelta", lambda ps: optim.Adadelta(1.0, parameters=ps)),
                 ("nadam", lambda ps: optim.NAdam(0.02, parameters=ps))):
    m = make({"fc.weight": paddle.ParamAttr(regularizer=reg.L2Decay(0.5)),
              "emb.weight": paddle.ParamAttr(regularizer=reg.L1Decay(0.05), learning_rate=0.3)})
    rec[f"attr_only_{name}"] = train(m, mk(m.parameters()), 3)

# groups of other rules with their own settings
for name, mk in (
        ("rmsprop", lambda m: optim.RMSProp(0.01, parameters=[
            {"params": m.emb.parameters(), "rho": 0.5, "centered": True},
            {"params": list(m.conv.parameters()) + list(m.fc.parameters()), "momentum": 0.5, "epsilon": 1e-2}])),
        ("adagrad", lambda m: optim.Adagrad(0.05, parameters=[
            {"params": m.emb.parameters(), "epsilon": 0.1, "learning_rate": 0.5},
            {"params": list(m.conv.parameters()) + list(m.fc.parameters()), "weight_decay": 0.1}])),
        ("lamb", lambda m: optim.Lamb(0.02, parameters=[
            {"params": m.emb.parameters(), "lamb_weight_decay": 0.5, "beta1": 0.5},
            {"params": list(m.conv.parameters()) + list(m.fc.parameters()), "learning_rate": 0.5}])),
        ("sgd_sched", lambda m: optim.SGD(paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5), parameters=[
            {"params": m.emb.parameters(), "learning_rate": 0.2},
            {"params": list(m.conv.parameters()) + list(m.fc.parameters())}]))):
    m = make()
    opt = mk(m)
    out = {"loss": [], "lr": [], "params": []}
    for s in range(4):
        loss = loss_of(m, s)
        loss.backward()
        opt.step()
        opt.clear_grad()
        out["lr"].append(opt.get_lr())
        if isinstance(opt._learning_rate, paddle.optimizer.lr.LRScheduler):
            opt._learning_rate.step()
        out["loss"].append(loss.item())
        out["params"].append([v(p) for p in m.parameters()])
    rec[f"groups_{name}"] = out

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
