"""Quantization as Paddle's docs show it, on a tiny conv + linear classifier: quantization-aware training
(``QuantConfig`` with ``FakeQuanterWithAbsMaxObserver`` globally, by layer type and by layer name, ``QAT.quantize``
in place and as a copy, a dozen training steps with the fake-quantized forward and straight-through gradients, the
quanters' scales, bit lengths and axes, state_dict keys, evaluation outputs) and post-training quantization (``PTQ.quantize`` of an evaluation model with ``AbsmaxObserver``
and ``GroupWiseWeightObserver``, calibration batches, the observers' scales, ``PTQ.convert`` and the converted
model's outputs); ``paddle.nn.quant.Stub`` before a functional call (QAT and PTQ); ``add_customized_leaf`` and ``add_qat_layer_mapping``; the errors of misuse that user code catches
(QAT on an evaluation model, PTQ on a training model: Paddle's bare asserts raise AssertionError, pylayer_jax a
RuntimeError with the same message; the program catches both).

Left out: ``QAT.convert`` of a model with ``FakeQuanterWithAbsMaxObserver`` quanters (Paddle 3.3.1 raises a
TypeError: the quanter's ``zero_points()`` is None and ``LinearQuanter`` cannot make a Tensor of it; pylayer_jax
converts it with zero points 0), and ``paddle.nn.quant.weight_quantize`` / ``weight_dequantize`` / ``weight_only_linear`` (Paddle 3.3.1 runs
``weight_quantize`` on the CPU for float16 weights with an explicit GPU ``arch`` only, in that GPU's packed layout,
and has no CPU kernel for the other two).
"""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
from paddle.quantization import PTQ, QAT, QuantConfig
from paddle.quantization.observers import AbsmaxObserver, GroupWiseWeightObserver
from paddle.quantization.quanters import FakeQuanterWithAbsMaxObserver

rng = np.random.default_rng(0)
X = rng.standard_normal((48, 1, 8, 8)).astype("float32")
Y = (X[:, 0, :4, :4].sum((1, 2)) > 0).astype("int64") + (X[:, 0, 4:, 4:].sum((1, 2)) > 1).astype("int64")
rec = {}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(1, 8, 3, padding=1)
        self.act1 = nn.ReLU()
        self.pool = nn.AvgPool2D(2)
        self.flat = nn.Flatten()
        self.fc1 = nn.Linear(128, 16)
        self.act2 = nn.ReLU()
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(self.act2(self.fc1(self.flat(self.pool(self.act1(self.conv(x)))))))


def fresh(seed=1):
    m = Net()
    r = np.random.default_rng(seed)
    m.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in m.state_dict().items()})
    return m


def types(m):
    return [(n, type(s).__name__) for n, s in m.named_sublayers()]


def arr(t):
    return None if t is None else np.asarray(t.numpy() if hasattr(t, "numpy") else t, dtype="float64").tolist()


def quanter_info(q):
    return {"type": type(q).__name__, "scales": arr(q.scales()), "bits": q.bit_length(), "axis": q.quant_axis()}


# ---- quantization-aware training ---------------------------------------------------------------------
quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
q_config = QuantConfig(activation=quanter, weight=quanter)
qat = QAT(q_config)
model = fresh()
base_out = model(paddle.to_tensor(X[:4])).numpy().tolist()
qmodel = qat.quantize(model, inplace=False)
rec["qat_types"] = types(qmodel)
rec["orig_types_kept"] = types(model)
rec["qat_keys"] = list(qmodel.state_dict().keys())
rec["qat_first_out"] = [base_out, qmodel(paddle.to_tensor(X[:4])).numpy().tolist()]
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=qmodel.parameters())
rec["qat_loss"] = []
for step in range(12):
    i = (step % 4) * 12
    logits = qmodel(paddle.to_tensor(X[i:i + 12]))
    loss = nn.functional.cross_entropy(logits, paddle.to_tensor(Y[i:i + 12]))
    loss.backward()
    if step == 0:
        rec["qat_grads"] = {n: arr(p.grad) for n, p in qmodel.named_parameters()}
    opt.step()
    opt.clear_grad()
    rec["qat_loss"].append(loss.item())
rec["qat_quanters"] = {
    "conv_w": quanter_info(qmodel.conv.weight_quanter), "conv_a": quanter_info(qmodel.conv.activation_quanter),
    "fc1_w": quanter_info(qmodel.fc1.weight_quanter), "fc2_a": quanter_info(qmodel.fc2.activation_quanter)}
rec["qat_quanter_state"] = {k: arr(v) for k, v in qmodel.state_dict().items() if "quanter" in k}
qmodel.eval()
with paddle.no_grad():
    rec["qat_eval"] = qmodel(paddle.to_tensor(X[:6])).numpy().tolist()

rec["qat_eval_scale_fixed"] = arr(qmodel.fc1.activation_quanter.scales())
rec["config_str"] = str(q_config)
rec["qat_str"] = str(qat)
state = qmodel.state_dict()
again = QAT(QuantConfig(activation=quanter, weight=quanter)).quantize(fresh(9))
again.set_state_dict(state)
again.eval()
with paddle.no_grad():
    rec["qat_reloaded"] = again(paddle.to_tensor(X[:6])).numpy().tolist()

# in place, with type and name configs: only fc layers by type, the conv by its name, no global config
cfg = QuantConfig(activation=None, weight=None)
cfg.add_type_config(nn.Linear, weight=FakeQuanterWithAbsMaxObserver(moving_rate=0.8, bit_length=4))
m2 = fresh(3)
cfg.add_name_config(m2.conv.full_name(), activation=FakeQuanterWithAbsMaxObserver(moving_rate=0.5))
q2 = QAT(cfg).quantize(m2, inplace=True)
rec["inplace_same"] = q2 is m2
rec["cfg_types"] = types(q2)
sgd = paddle.optimizer.SGD(learning_rate=0.1, parameters=q2.parameters())
rec["cfg_loss"] = []
for _ in range(6):
    loss = nn.functional.cross_entropy(q2(paddle.to_tensor(X[:16])), paddle.to_tensor(Y[:16]))
    loss.backward()
    sgd.step()
    sgd.clear_grad()
    rec["cfg_loss"].append(loss.item())
rec["cfg_quanters"] = [quanter_info(q2.fc1.weight_quanter), q2.fc1.activation_quanter is None,
                       quanter_info(q2.conv.activation_quanter), q2.conv.weight_quanter is None]

# a customized leaf and layer mapping
cfg3 = QuantConfig(activation=quanter, weight=quanter)
cfg3.add_customized_leaf(nn.Flatten)
rec["leaves"] = [c.__name__ for c in cfg3.customized_leaves]
m3 = QAT(cfg3).quantize(fresh(4))
rec["leaf_types"] = types(m3)
with paddle.no_grad():
    rec["leaf_out"] = m3(paddle.to_tensor(X[:3])).numpy().tolist()

# ---- post-training quantization ------------------------------------------------------------------------
float_model = fresh(5)
float_model.eval()
observer = AbsmaxObserver(quant_bits=8)
ptq = PTQ(QuantConfig(activation=observer, weight=observer))
pmodel = ptq.quantize(float_model, inplace=False)
rec["ptq_types"] = types(pmodel)
rec["ptq_keys"] = list(pmodel.state_dict().keys())
with paddle.no_grad():
    for i in range(0, 48, 12):
        pmodel(paddle.to_tensor(X[i:i + 12]))
rec["ptq_observers"] = {"conv_a": quanter_info(pmodel.conv.activation_quanter),
                        "conv_w": quanter_info(pmodel.conv.weight_quanter),
                        "fc2_a": quanter_info(pmodel.fc2.activation_quanter)}
pconv = ptq.convert(pmodel, inplace=False)
rec["ptq_converted_types"] = types(pconv)
rec["ptq_converted_keys"] = list(pconv.state_dict().keys())
with paddle.no_grad():
    rec["ptq_out"] = [float_model(paddle.to_tensor(X[:6])).numpy().tolist(),
                      pconv(paddle.to_tensor(X[:6])).numpy().tolist()]

rec["ptq_converted_state"] = {k: arr(v) for k, v in pconv.state_dict().items() if "quant" in k or "scale" in k}
pm2 = ptq.quantize(float_model, inplace=False)
with paddle.no_grad():
    pm2(paddle.to_tensor(X[:24]))
kept = ptq.convert(pm2, inplace=True, remain_weight=True)
rec["ptq_remain"] = [kept is pm2, types(kept)[:4], arr(kept.fc2.weight)]
with paddle.no_grad():
    rec["ptq_remain_out"] = kept(paddle.to_tensor(X[:4])).numpy().tolist()

gm = fresh(6)
gm.eval()
gcfg = QuantConfig(activation=None, weight=None)
gcfg.add_name_config(gm.fc1.full_name(), activation=AbsmaxObserver(quant_bits=8),
                     weight=GroupWiseWeightObserver(quant_bits=4, group_size=128))
gcfg.add_type_config(nn.Conv2D, activation=AbsmaxObserver(quant_bits=8))
gptq = PTQ(gcfg)
gq = gptq.quantize(gm, inplace=False)
with paddle.no_grad():
    gq(paddle.to_tensor(X[:12]))
rec["group_types"] = types(gq)
rec["group_w"] = quanter_info(gq.fc1.weight_quanter)
rec["group_a"] = quanter_info(gq.fc1.activation_quanter)
rec["group_conv"] = [quanter_info(gq.conv.activation_quanter), gq.conv.weight_quanter is None]
gconv = gptq.convert(gq, inplace=False)
rec["group_converted_types"] = types(gconv)
with paddle.no_grad():
    rec["group_converted_out"] = gconv(paddle.to_tensor(X[:4])).numpy().tolist()

# ---- Stub: observing the input of a functional call ------------------------------------------------------
class StubNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 3)
        self.q_in = paddle.nn.quant.Stub()
        self.q_res = paddle.nn.quant.Stub(FakeQuanterWithAbsMaxObserver(moving_rate=0.5, bit_length=4))

    def forward(self, x):
        h = self.fc(x)
        return self.q_in(h) + self.q_res(paddle.tanh(h) * 0.5)


sn = StubNet()
sn.set_state_dict({k: np.random.default_rng(11).standard_normal(v.shape).astype("float32")
                   for k, v in sn.state_dict().items()})
XS = X.reshape(48, 4, 16)[:, 0]
sq = QAT(QuantConfig(activation=quanter, weight=quanter)).quantize(sn)
rec["stub_types"] = types(sq)
rec["stub_keys"] = list(sq.state_dict().keys())
rec["stub_out"] = sq(paddle.to_tensor(XS[:5])).numpy().tolist()
rec["stub_scales"] = [quanter_info(sq.q_in._observer), quanter_info(sq.q_res._observer)]
sn.eval()
sp_cfg = QuantConfig(activation=AbsmaxObserver(quant_bits=8), weight=AbsmaxObserver(quant_bits=8))
sp_ptq = PTQ(sp_cfg)
sp_float = StubNet()
sp_float.q_res = paddle.nn.quant.Stub(AbsmaxObserver(quant_bits=4))   # (a fake quanter's zero points do not convert)
sp_float.eval()
sp_m = sp_ptq.quantize(sp_float, inplace=False)
sp_m.set_state_dict(sn.state_dict())
with paddle.no_grad():
    sp_m(paddle.to_tensor(XS[:24]))
rec["stub_ptq"] = [types(sp_m), quanter_info(sp_m.q_in._observer), quanter_info(sp_m.q_res._observer)]
sp_c = sp_ptq.convert(sp_m, inplace=False)
rec["stub_ptq_converted"] = types(sp_c)
with paddle.no_grad():
    rec["stub_ptq_out"] = sp_c(paddle.to_tensor(XS[:5])).numpy().tolist()

# ---- misuse that code catches ---------------------------------------------------------------------------
errs = {}
ev = fresh(7)
ev.eval()
try:
    QAT(q_config).quantize(ev)
except (AssertionError, RuntimeError):
    errs["qat_eval"] = "raised"
tr = fresh(8)
try:
    PTQ(QuantConfig(activation=observer, weight=observer)).quantize(tr, inplace=True)
except (AssertionError, RuntimeError):
    errs["ptq_train"] = "raised"
rec["errors"] = errs

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
