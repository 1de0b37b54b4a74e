"""Mixed precision written the Paddle way, run on a CPU: a small conv classifier trained under
``paddle.amp.auto_cast`` at level O1 (float16, custom white and black lists) with a ``GradScaler``
(init_loss_scaling, incr_every_n_steps, decr_every_n_nan_or_inf: scale, backward, step, update), then prepared by
``paddle.amp.decorate(models, optimizers, level='O2', master_weight=True)`` and trained under O2 bfloat16 with
``scaler.minimize``; ``unscale_`` before gradient clipping; an injected inf gradient; the scaler's state_dict /
load_state_dict, its setters and getters; the dtypes of matmul / conv / softmax / layer_norm / sum / exp results
inside each autocast; ``is_autocast_enabled`` / ``get_autocast_dtype``; ``is_float16_supported`` /
``is_bfloat16_supported``; the argument errors of auto_cast and decorate; Layer.float16 / bfloat16 / float with
excluded_layers; float16 and bfloat16 tensors computed directly (the ops Paddle's CPU kernels have) and finfo.

On a CPU place Paddle's auto_cast and GradScaler make no effect (a warning says so): ops compute in their inputs'
dtype, ``scale(loss)`` is the loss, the scaler keeps no state, an inf gradient is applied (the parameter turns
non-finite, no step is skipped). The program records exactly that.

Left out, deliberately not mirrored: Paddle's CPU kernels lack float16 (and bfloat16) for conv2d, matmul, softmax,
layer_norm, mean, relu... (Paddle raises RuntimeError NotFound; pylayer_jax computes them), so only sum, exp, pooling,
casts and elementwise arithmetic run in low precision here. A disabled Paddle scaler raises AttributeError from
``get_incr_ratio`` and the other getters until the matching setter ran (pylayer_jax returns the settings).
``auto_cast(enable=False, dtype='float32')`` raises KeyError in Paddle (accepted here). ``decorate('x', ...)`` is
returned as it is by Paddle (a TypeError here). ``bfloat16_tensor.numpy()`` is uint16 bits in Paddle (bfloat16 values
here), so bfloat16 values are read through astype('float32'). Paddle's repr of a layer cast by ``bfloat16()`` shows
``dtype=paddle.bfloat16`` (``dtype=bfloat16`` here); reprs after such casts are not recorded."""
import json
import os
import warnings

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

warnings.simplefilter("ignore")  # (both libraries warn that mixed precision makes no effect on a CPU)
rng = np.random.default_rng(0)
X = rng.standard_normal((48, 1, 8, 8)).astype("float32")
Y = (X[:, 0, :4].mean((1, 2)) > 0).astype("int64") + (X[:, 0, 4:].mean((1, 2)) > 0.1).astype("int64")


def attempt(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 (the type is the record)
        return type(e).__name__


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(1, 4, 3, padding=1)
        self.norm = nn.LayerNorm([4, 8, 8])
        self.fc = nn.Linear(4 * 16, 3)

    def forward(self, x, probe=None):
        c = self.conv(x)
        n = self.norm(c)
        h = F.max_pool2d(F.relu(n), 2).flatten(1)
        logits = self.fc(h)
        if probe is not None:
            sm = F.softmax(logits, -1)
            probe.update(conv=str(c.dtype), layer_norm=str(n.dtype), matmul=str(paddle.matmul(h, self.fc.weight).dtype),
                         softmax=str(sm.dtype), sum=str(sm.sum().dtype), exp=str(paddle.exp(logits).dtype),
                         logits=str(logits.dtype))
        return logits


def fresh(seed):
    m = Net()
    r = np.random.default_rng(seed)
    m.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in m.state_dict().items()})
    return m


rec = {"supported": [paddle.amp.is_float16_supported(), paddle.amp.is_bfloat16_supported()],
       "autocast_outside": [paddle.amp.is_autocast_enabled(), str(paddle.amp.get_autocast_dtype())]}

# ---- O1, float16, custom lists, dynamic loss scaling -----------------------------------------------------------
model = fresh(1)
opt = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9, parameters=model.parameters())
scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0, incr_ratio=2.0, decr_ratio=0.5, incr_every_n_steps=3,
                               decr_every_n_nan_or_inf=1, use_dynamic_loss_scaling=True)
rec["scaler"] = [scaler.is_enable(), scaler.is_use_dynamic_loss_scaling(), scaler.get_init_loss_scaling(),
                 hasattr(scaler, "get_loss_scaling"), scaler.state_dict()]
rec["o1"] = {"loss": [], "scaled": [], "state": [], "same_object": []}
for step in range(8):
    i = (step % 4) * 12
    xb, yb = paddle.to_tensor(X[i:i + 12]), paddle.to_tensor(Y[i:i + 12])
    probe = {} if step == 0 else None
    with paddle.amp.auto_cast(custom_white_list={"elementwise_add"}, custom_black_list={"reduce_sum", "exp"},
                              level="O1", dtype="float16"):
        if step == 0:
            rec["autocast_inside"] = [paddle.amp.is_autocast_enabled(), str(paddle.amp.get_autocast_dtype())]
        logits = model(xb, probe)
        loss = F.cross_entropy(logits, yb)
    scaled = scaler.scale(loss)
    scaled.backward()
    scaler.step(opt)
    scaler.update()
    opt.clear_grad()
    if probe:
        rec["o1_dtypes"] = probe
    rec["o1"]["loss"].append(loss.item())
    rec["o1"]["scaled"].append(scaled.item())
    rec["o1"]["same_object"].append(scaled is loss)
    rec["o1"]["state"].append([scaler.get_init_loss_scaling(), sorted(scaler.state_dict())])

# ---- O2, bfloat16: decorate with master weights, scaler.minimize ---------------------------------------------------
model2 = fresh(2)
opt2 = paddle.optimizer.AdamW(learning_rate=0.01, weight_decay=0.01, parameters=model2.parameters())
model2, opt2 = paddle.amp.decorate(models=model2, optimizers=opt2, level="O2", dtype="bfloat16", master_weight=True,
                                   save_dtype="float32")
rec["o2_param_dtypes"] = {n: str(p.dtype) for n, p in model2.named_parameters()}
rec["o2_state_dtypes"] = {k: str(v.dtype) for k, v in model2.state_dict().items()}
scaler2 = paddle.amp.GradScaler(init_loss_scaling=2.0 ** 10, incr_every_n_steps=2)
rec["o2"] = {"loss": [], "minimize": []}
for step in range(8):
    i = (step % 4) * 12
    probe = {} if step == 0 else None
    with paddle.amp.auto_cast(level="O2", dtype="bfloat16"):
        logits = model2(paddle.to_tensor(X[i:i + 12]), probe)
        loss = F.cross_entropy(logits, paddle.to_tensor(Y[i:i + 12]))
    if probe:
        rec["o2_dtypes"] = probe
    scaled = scaler2.scale(loss)
    scaled.backward()
    ops, pg = scaler2.minimize(opt2, scaled)
    rec["o2"]["minimize"].append([len(ops), len(pg), sorted(p.name == model2.fc.weight.name for p, _ in pg)])
    opt2.clear_grad()
    rec["o2"]["loss"].append(loss.item())
rec["o2_fc"] = model2.fc.weight.numpy().ravel().tolist()

# ---- unscale_ before clipping, as the AMP docs show -----------------------------------------------------------------
model3 = fresh(3)
opt3 = paddle.optimizer.SGD(learning_rate=0.1, parameters=model3.parameters())
scaler3 = paddle.amp.GradScaler(init_loss_scaling=512.0)
rec["unscale"] = {"loss": [], "gnorm": []}
for step in range(5):
    i = (step % 4) * 12
    with paddle.amp.auto_cast():
        loss = F.cross_entropy(model3(paddle.to_tensor(X[i:i + 12])), paddle.to_tensor(Y[i:i + 12]))
    scaler3.scale(loss).backward()
    scaler3.unscale_(opt3)
    total = paddle.nn.utils.clip_grad_norm_(model3.parameters(), max_norm=0.5)
    rec["unscale"]["gnorm"].append(float(total))
    scaler3.step(opt3)
    scaler3.update()
    opt3.clear_grad()
    rec["unscale"]["loss"].append(loss.item())

# ---- an inf gradient: the step is not skipped on a CPU, the parameter turns non-finite ----------------------------
model4 = fresh(4)
opt4 = paddle.optimizer.SGD(learning_rate=0.1, parameters=model4.parameters())
scaler4 = paddle.amp.GradScaler(init_loss_scaling=256.0, decr_every_n_nan_or_inf=1, decr_ratio=0.25)
rec["inf"] = []
for step in range(3):
    with paddle.amp.auto_cast():
        loss = F.cross_entropy(model4(paddle.to_tensor(X[:12])), paddle.to_tensor(Y[:12]))
    scaler4.scale(loss).backward()
    if step == 1:
        with paddle.no_grad():
            model4.fc.weight.grad[0, 0] = float("inf")
    scaler4.step(opt4)
    scaler4.update()
    opt4.clear_grad()
    rec["inf"].append([loss.item(), scaler4.get_init_loss_scaling(), scaler4.state_dict(),
                       [bool(paddle.isfinite(p).all()) for p in model4.parameters()]])

# ---- the scaler's state and settings ------------------------------------------------------------------------------
sd = scaler.state_dict()
fresh_scaler = paddle.amp.GradScaler(init_loss_scaling=4.0)
fresh_scaler.load_state_dict(sd)
fresh_scaler.set_init_loss_scaling(8.0)
fresh_scaler.set_incr_ratio(3.0)
fresh_scaler.set_decr_ratio(0.25)
fresh_scaler.set_incr_every_n_steps(5)
fresh_scaler.set_decr_every_n_nan_or_inf(2)
rec["settings"] = [fresh_scaler.get_init_loss_scaling(), fresh_scaler.get_incr_ratio(), fresh_scaler.get_decr_ratio(),
                   fresh_scaler.get_incr_every_n_steps(), fresh_scaler.get_decr_every_n_nan_or_inf(),
                   fresh_scaler.state_dict(), fresh_scaler.is_enable()]
off = paddle.amp.GradScaler(enable=False, init_loss_scaling=64.0)
static_scale = paddle.amp.GradScaler(init_loss_scaling=64.0, use_dynamic_loss_scaling=False)
rec["other_scalers"] = [off.is_enable(), off.get_init_loss_scaling(), off.state_dict(),
                        static_scale.is_use_dynamic_loss_scaling(), static_scale.get_init_loss_scaling(),
                        static_scale.scale(paddle.to_tensor(3.0)).item()]

# ---- argument checks ----------------------------------------------------------------------------------------------
m = fresh(5)
o = paddle.optimizer.SGD(learning_rate=0.1, parameters=m.parameters())


def enter(**kw):
    with paddle.amp.auto_cast(**kw):
        return "ok"


rec["errors"] = {
    "level_O3": attempt(lambda: enter(level="O3")),
    "dtype_f32": attempt(lambda: enter(dtype="float32")),
    "overlap": attempt(lambda: enter(custom_white_list={"exp"}, custom_black_list={"exp"})),
    "O0": attempt(lambda: enter(level="O0")),
    "OD": attempt(lambda: enter(level="OD", dtype="bfloat16")),
    "disabled": attempt(lambda: enter(enable=False)),
    "decorate_level": attempt(lambda: paddle.amp.decorate(m, o, level="O3")),
    "decorate_dtype": attempt(lambda: paddle.amp.decorate(m, o, level="O2", dtype="float32")),
}
both = paddle.amp.decorate([m, fresh(6)], [o], level="O2", master_weight=False)
rec["decorate_lists"] = [type(both).__name__, len(both[0]), len(both[1]), both[0][0] is m,
                         type(paddle.amp.decorate(m, level="O1")).__name__]

# ---- Layer casts ------------------------------------------------------------------------------------------------
seq = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm(4), nn.Linear(4, 2))
seq.float16()
rec["float16_cast"] = [str(p.dtype) for p in seq.parameters()]
seq.bfloat16()
rec["bfloat16_cast"] = [str(p.dtype) for p in seq.parameters()]
seq.float()
rec["float_cast"] = [str(p.dtype) for p in seq.parameters()]
seq.bfloat16(excluded_layers=[nn.Linear])
rec["bfloat16_excluded"] = [str(p.dtype) for p in seq.parameters()]
seq.float(excluded_layers=nn.BatchNorm)
rec["float_excluded"] = [str(p.dtype) for p in seq.parameters()]
rec["cast_errors"] = [attempt(lambda: seq.bfloat16(excluded_layers="Linear")),
                      attempt(lambda: seq.float(excluded_layers=3))]
lin = nn.Linear(3, 2)
lin.to(dtype="float16")
rec["to_float16"] = [str(p.dtype) for p in lin.parameters()] + [repr(lin)]

# ---- float16 / bfloat16 tensors where Paddle's CPU kernels have them -------------------------------------------------
v = paddle.to_tensor(rng.standard_normal((2, 3, 4, 4)).astype("float32"))
h = v.astype("float16")
b = v.astype("bfloat16")


def low(t):
    return [str(t.dtype), t.astype("float32").numpy().ravel().tolist()]


rec["half"] = {
    "cast": low(h), "sum": low(h.sum()), "sum_axis": low(h.sum(axis=[2, 3])), "exp": low(paddle.exp(h * 0.5)),
    "maxpool": low(F.max_pool2d(h, 2)), "avgpool": low(F.adaptive_avg_pool2d(h, 1)), "mixed": low(h + v),
    "scalar": low(h * 2.5 + 1), "to_bf16": low(paddle.cast(h, "bfloat16")), "numpy": str(h.numpy().dtype),
    "repr": repr(h[0, 0, 0]), "size": h.element_size(),
}
rec["bf16"] = {"cast": low(b), "sum": low(b.sum()), "mixed": low(b + v), "scalar": low(b * 2.5 - 1),
               "mixed_low": low(paddle.ones([2], dtype="float16") + paddle.ones([2], dtype="bfloat16")),
               "repr": repr(b[0, 0, 0]), "size": b.element_size()}
rec["finfo"] = [[float(f.min), float(f.max), float(f.eps), float(f.tiny), f.bits, str(f.dtype)]
                for f in (paddle.finfo(paddle.float16), paddle.finfo(paddle.bfloat16))]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
