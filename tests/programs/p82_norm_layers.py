"""The ``paddle.nn`` normalization LAYER classes with the constructor arguments users pass: BatchNorm1D/2D/3D
(momentum, epsilon, weight_attr/bias_attr False, data_format NLC/NHWC/NDHWC, use_global_stats True/False/None),
their running statistics over a few train-mode steps and their use in eval; the legacy ``nn.BatchNorm`` (act,
is_test, data_layout NHWC, in_place, moving_mean_name/moving_variance_name, use_global_stats, param_attr);
SyncBatchNorm built on one process and ``SyncBatchNorm.convert_sync_batchnorm`` (parameters, buffers,
kept settings; not run: Paddle 3.3.1 has no CPU kernel for sync_batch_norm); InstanceNorm1D/2D/3D (weight_attr
False, data_format); GroupNorm (weight_attr/bias_attr False, NHWC); LayerNorm (normalized_shape int/list,
epsilon, weight_attr/bias_attr False); LocalResponseNorm (size, alpha, beta, k, data_format); the SpectralNorm
layer (dim, power_iters). For each: the output, the gradients of a weighted sum of it with respect to the input
and every parameter, the state_dict keys and the buffers. Then a small model mixing them trained a few steps with
Momentum, evaluated with eval() between epochs, and its running statistics.

Not mirrored (left out): with ``bias_attr=False`` (``weight_attr=False``) a BatchNorm layer's weight (bias) gets
no gradient in Paddle 3.3.1 (``.grad`` stays None, so an optimizer never trains it); pylayer_jax gives it its
gradient. ``GroupNorm(weight_attr=False)``'s input gradient is wrong in Paddle 3.3.1's CPU kernel (see p59);
pylayer_jax gives the exact one. The SpectralNorm layer's gradient in Paddle 3.3.1 is not the derivative (see the
``spectral_norm`` op's docstring); only its values are recorded. (Found while writing it, and fixed: ``F.relu`` of NaN
is 0 in Paddle, so a BatchNorm in eval with a negative running variance feeding ReLU gave finite values in Paddle
and NaN here.)"""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn

rng = np.random.default_rng(0)
rec = {}


def _v(t):
    a = np.asarray(t.numpy())
    return a.tolist() if a.dtype.kind in "biu" else np.round(a.astype(np.float64), 6).tolist()


def set_params(layer, seed):
    r = np.random.default_rng(seed)
    for _, p in layer.named_parameters():
        p.set_value((1.0 + r.standard_normal(p.shape) * 0.3).astype("float32"))


def probe(name, layer, x, steps=2, set_from_numpy=True, seed=0, skip=()):
    """A few train-mode calls (the last differentiated), then one in eval: outputs, gradients, buffers."""
    if set_from_numpy:
        set_params(layer, seed)
    entry = {"params": [[n, list(p.shape), p.stop_gradient] for n, p in layer.named_parameters()],
             "buffers": [[n, list(b.shape)] for n, b in layer.named_buffers()],
             "state_keys": list(layer.state_dict().keys())}
    layer.train()
    for k in range(steps):
        xt = paddle.to_tensor(x * (1.0 + 0.5 * k) + 0.2 * k, stop_gradient=False)
        y = layer(xt)
    w = paddle.to_tensor(np.random.default_rng(7).standard_normal(y.shape).astype("float32"))
    (y * w).sum().backward()
    entry["out"] = _v(y)
    entry["xgrad"] = _v(xt.grad)
    entry["pgrad"] = {n: _v(p.grad) for n, p in layer.named_parameters() if p.grad is not None}
    entry["buffers_after"] = {n: _v(b) for n, b in layer.named_buffers()}
    for k in skip:  # (see the docstring)
        del entry[k]
    layer.eval()
    with paddle.no_grad():
        entry["eval_out"] = _v(layer(paddle.to_tensor(x)))
    layer.train()
    rec[name] = entry


x1 = rng.standard_normal((4, 3, 5)).astype("float32")
x2 = rng.standard_normal((3, 4, 3, 2)).astype("float32")
x3 = rng.standard_normal((2, 2, 3, 2, 2)).astype("float32")
x0 = rng.standard_normal((6, 3)).astype("float32")

# ---- BatchNorm1D/2D/3D ----
probe("bn1d", nn.BatchNorm1D(3, momentum=0.7, epsilon=1e-3), x1)
probe("bn1d_2d_input", nn.BatchNorm1D(3), x0)
probe("bn1d_nlc", nn.BatchNorm1D(3, data_format="NLC"), x1.transpose(0, 2, 1))
probe("bn1d_noaffine", nn.BatchNorm1D(3, weight_attr=False, bias_attr=False), x1)
probe("bn2d", nn.BatchNorm2D(4, momentum=0.5), x2)
probe("bn2d_nhwc", nn.BatchNorm2D(4, data_format="NHWC", epsilon=0.1), x2.transpose(0, 2, 3, 1))
probe("bn2d_global_true", nn.BatchNorm2D(4, use_global_stats=True), x2)
probe("bn2d_global_false", nn.BatchNorm2D(4, use_global_stats=False), x2)
probe("bn2d_nobias", nn.BatchNorm2D(4, bias_attr=False,
                                    weight_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(2.0))), x2,
      set_from_numpy=False, skip=("pgrad",))
probe("bn3d", nn.BatchNorm3D(2, momentum=0.8), x3)
probe("bn3d_ndhwc", nn.BatchNorm3D(2, data_format="NDHWC"), x3.transpose(0, 2, 3, 4, 1))
bn_g = nn.BatchNorm2D(4, use_global_stats=True)
bn_g._mean.set_value(np.array([0.1, -0.2, 0.3, 0.0], "float32"))
bn_g._variance.set_value(np.array([0.5, 2.0, 1.0, 1.5], "float32"))
probe("bn2d_global_set", bn_g, x2, set_from_numpy=False)
# eval-mode BatchNorm uses the running statistics; its gradient too
bn_e = nn.BatchNorm1D(3)
bn_e._mean.set_value(np.array([0.5, -0.5, 0.2], "float32"))
bn_e._variance.set_value(np.array([1.5, 0.5, 2.0], "float32"))
bn_e.eval()
xe = paddle.to_tensor(x1, stop_gradient=False)
ye = bn_e(xe)
(ye * ye).sum().backward()
rec["bn_eval"] = [_v(ye), _v(xe.grad), _v(bn_e.weight.grad), _v(bn_e._mean)]

# ---- legacy nn.BatchNorm ----
probe("bn_legacy", nn.BatchNorm(4, act="relu", momentum=0.6, epsilon=1e-4), x2)
probe("bn_legacy_nhwc", nn.BatchNorm(4, data_layout="NHWC", act="tanh"), x2.transpose(0, 2, 3, 1))
probe("bn_legacy_names", nn.BatchNorm(4, moving_mean_name="mm_a", moving_variance_name="mv_a",
                                      param_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(0.5))), x2,
      set_from_numpy=False)
probe("bn_legacy_is_test", nn.BatchNorm(4, is_test=True), x2)
probe("bn_legacy_global", nn.BatchNorm(4, use_global_stats=True), x2)
probe("bn_legacy_inplace", nn.BatchNorm(4, in_place=True, act="sigmoid"), x2)
probe("bn_legacy_1d", nn.BatchNorm(3), x1)
probe("bn_legacy_2dinput", nn.BatchNorm(3), x0)
legacy = nn.BatchNorm(4, moving_mean_name="mm_b", moving_variance_name="mv_b")
rec["bn_legacy_buffer_names"] = [legacy._mean.name, legacy._variance.name]

# ---- SyncBatchNorm on one process ----
for name, sbn in (("sync_bn", nn.SyncBatchNorm(4, momentum=0.8)),
                  ("sync_bn_noaffine", nn.SyncBatchNorm(4, data_format="NHWC", weight_attr=False, bias_attr=False))):
    rec[name] = [[[n, list(p.shape), p.stop_gradient] for n, p in sbn.named_parameters()],
                 [[n, list(b.shape)] for n, b in sbn.named_buffers()], list(sbn.state_dict().keys()),
                 sbn._momentum, sbn._epsilon, sbn._data_format]
seq = nn.Sequential(nn.Conv2D(4, 4, 1), nn.BatchNorm2D(4, momentum=0.3, epsilon=1e-3), nn.ReLU(),
                    nn.Sequential(nn.BatchNorm1D(4, data_format="NLC")))
set_params(seq, 5)
seq[1]._mean.set_value(np.array([0.1, 0.2, 0.3, 0.4], "float32"))
conv = nn.SyncBatchNorm.convert_sync_batchnorm(seq)
rec["convert_types"] = [type(m).__name__ for m in conv.sublayers()]
rec["convert_keys"] = list(conv.state_dict().keys())
rec["convert_kept"] = [float(conv[1]._momentum), float(conv[1]._epsilon), conv[3][0]._data_format,
                       _v(conv[1]._mean), _v(conv[1].weight)]

# ---- InstanceNorm ----
probe("in1d", nn.InstanceNorm1D(3, epsilon=1e-3), x1)
probe("in1d_noaffine", nn.InstanceNorm1D(3, weight_attr=False, bias_attr=False), x1)
probe("in2d", nn.InstanceNorm2D(4), x2)
probe("in2d_noaffine", nn.InstanceNorm2D(4, weight_attr=False, bias_attr=False), x2)
probe("in3d", nn.InstanceNorm3D(2, epsilon=0.01), x3)

# ---- GroupNorm ----
probe("gn", nn.GroupNorm(2, 4, epsilon=1e-3), x2)
probe("gn_noweight", nn.GroupNorm(2, 4, weight_attr=False), x2, skip=("xgrad",))
probe("gn_nobias", nn.GroupNorm(4, 4, bias_attr=False), x2)
probe("gn_nhwc", nn.GroupNorm(2, 4, data_format="NHWC"), x2.transpose(0, 2, 3, 1))
probe("gn_3d", nn.GroupNorm(1, 3), x1)
probe("gn_5d", nn.GroupNorm(2, 2), x3)

# ---- LayerNorm ----
probe("ln_int", nn.LayerNorm(5, epsilon=1e-3), x1)
probe("ln_list", nn.LayerNorm([3, 2]), x2)
probe("ln_noweight", nn.LayerNorm([2], weight_attr=False), x2)
probe("ln_noaffine", nn.LayerNorm(2, weight_attr=False, bias_attr=False), x2)
probe("ln_nobias", nn.LayerNorm([4, 3, 2], bias_attr=False), x2)

# ---- LocalResponseNorm ----
probe("lrn", nn.LocalResponseNorm(3), x2)
probe("lrn_args", nn.LocalResponseNorm(2, alpha=0.5, beta=0.6, k=2.0), x2)
probe("lrn_nhwc", nn.LocalResponseNorm(3, alpha=0.1, data_format="NHWC"), x2.transpose(0, 2, 3, 1))
probe("lrn_3d", nn.LocalResponseNorm(2, alpha=0.3, data_format="NCL"), x1)
probe("lrn_5d", nn.LocalResponseNorm(3, alpha=0.2, beta=1.0, data_format="NCDHW"), x3)

# ---- SpectralNorm layer ----
for dim, iters in ((0, 1), (1, 3)):
    sn = nn.SpectralNorm([3, 4, 2], dim=dim, power_iters=iters, eps=1e-6)
    r = np.random.default_rng(11 + dim)
    for p in sn.parameters():
        p.set_value(r.standard_normal(p.shape).astype("float32"))
    w = paddle.to_tensor(rng.standard_normal((3, 4, 2)).astype("float32"), stop_gradient=False)
    out = sn(w)
    (out * paddle.to_tensor(np.linspace(-1, 1, 24).reshape(3, 4, 2).astype("float32"))).sum().backward()
    rec[f"spectral_{dim}"] = {"params": [[n, list(p.shape), p.stop_gradient] for n, p in sn.named_parameters()],
                              "out": _v(out),
                              "u_after": _v(sn.weight_u), "state_keys": list(sn.state_dict().keys())}

# reprs users see
rec["reprs"] = [repr(m) for m in (
    nn.BatchNorm1D(3, momentum=0.7, epsilon=1e-3), nn.BatchNorm2D(4, data_format="NHWC"), nn.BatchNorm(4),
    nn.SyncBatchNorm(4), nn.InstanceNorm2D(4), nn.GroupNorm(2, 4), nn.LayerNorm([3, 2]),
    nn.LocalResponseNorm(3, alpha=0.1))]


# ---- a small model mixing them ----
class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2D(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2D(8, momentum=0.8)
        self.gn = nn.GroupNorm(4, 8)
        self.c2 = nn.Conv2D(8, 8, 3, padding=1, bias_attr=False)
        self.inorm = nn.InstanceNorm2D(8)
        self.lrn = nn.LocalResponseNorm(3, alpha=0.05)
        self.fc1 = nn.Linear(8, 6)
        self.bn1 = nn.BatchNorm1D(6, weight_attr=False, bias_attr=False)
        self.ln = nn.LayerNorm(6)
        self.fc2 = nn.Linear(6, 3)

    def forward(self, x):
        h = nn.functional.relu(self.bn(self.c1(x)))
        h = self.gn(h)
        h = self.lrn(nn.functional.relu(self.inorm(self.c2(h))))
        h = h.mean([2, 3])
        h = nn.functional.relu(self.bn1(self.fc1(h)))
        return self.fc2(self.ln(h))


X = np.random.default_rng(1).standard_normal((24, 3, 6, 6)).astype("float32")
Y = (X[:, 0].mean((1, 2)) > 0).astype("int64") + (X[:, 1, :3].mean((1, 2)) > 0).astype("int64")
model = Net()
r = np.random.default_rng(3)
for n, p in model.named_parameters():
    if p.stop_gradient:  # the running statistics keep their start (mean 0, variance 1)
        continue
    p.set_value((r.standard_normal(p.shape) * 0.3 + (1.0 if n.endswith("weight") and len(p.shape) == 1 else 0.0))
                .astype("float32"))
rec["net_state_keys"] = list(model.state_dict().keys())
opt = paddle.optimizer.Momentum(learning_rate=0.02, momentum=0.9, parameters=model.parameters())
losses, evals = [], []
for _epoch in range(3):
    model.train()
    for i in range(3):
        xb, yb = paddle.to_tensor(X[i * 8:(i + 1) * 8]), paddle.to_tensor(Y[i * 8:(i + 1) * 8])
        loss = nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    model.eval()
    with paddle.no_grad():
        evals.append(float(nn.functional.cross_entropy(model(paddle.to_tensor(X)), paddle.to_tensor(Y))))
rec["losses"] = losses
rec["evals"] = evals
rec["bn_running"] = [_v(model.bn._mean), _v(model.bn._variance), _v(model.bn1._mean), _v(model.bn1._variance)]
rec["training_flags"] = [m.training for m in model.sublayers()]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
