"""Layer-level utilities: a backbone frozen by ParamAttr(trainable=False) and by stop_gradient, a buffer registered
with persistable=False (left out of state_dict), set_state_dict with missing and unexpected keys (its return
value), paddle.save / paddle.load of a nested checkpoint (tensors, numbers, strings, lists, optimizer state),
parameter groups with their own learning rates and weight decay (a list of dicts), named_parameters filtering,
Layer.to(dtype='float64') and float16 casting of a copy, eval outputs after a reload."""
import copy
import json
import os
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
X = rng.standard_normal((48, 6)).astype("float32")
Y = (X[:, 0] * 2 - X[:, 1] + 0.5 * X[:, 2] > 0).astype("int64")


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(6, 16, weight_attr=paddle.ParamAttr(trainable=False), bias_attr=paddle.ParamAttr(trainable=False))
        self.body = nn.Sequential(nn.Linear(16, 16), nn.LayerNorm(16), nn.GELU())
        self.head = nn.Linear(16, 2)
        self.register_buffer("scale", paddle.to_tensor([1.5]), persistable=False)
        self.register_buffer("calls", paddle.zeros([1]))

    def forward(self, x):
        self.calls.set_value(self.calls + 1)
        return self.head(self.body(F.relu(self.stem(x)) * self.scale))


paddle.seed(0)
model = Net()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.4).astype("float32") for k, v in model.state_dict().items()
                      if k != "calls"})
rec = {"keys": list(model.state_dict().keys()),
       "trainable": {n: not p.stop_gradient for n, p in model.named_parameters()},
       "buffers": [n for n, _ in model.named_buffers()]}
body_w = [p for n, p in model.named_parameters() if n.startswith("body") and "weight" in n]
others = [p for n, p in model.named_parameters() if not p.stop_gradient and all(p is not q for q in body_w)]
opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=[
    {"params": body_w, "learning_rate": 0.5, "weight_decay": 0.1},
    {"params": others},
], weight_decay=0.01)
rec["loss"] = []
for step in range(12):
    i = (step % 4) * 12
    loss = F.cross_entropy(model(paddle.to_tensor(X[i:i + 12])), paddle.to_tensor(Y[i:i + 12]))
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["loss"].append(loss.item())
rec["stem_grad_none"] = model.stem.weight.grad is None
rec["calls"] = model.calls.item()

model.head.bias.stop_gradient = True
before = model.head.bias.numpy().copy()
for _step in range(3):
    loss = F.cross_entropy(model(paddle.to_tensor(X[:12])), paddle.to_tensor(Y[:12]))
    loss.backward()
    opt.step()
    opt.clear_grad()
rec["frozen_bias_same"] = bool(np.array_equal(before, model.head.bias.numpy()))

d = tempfile.mkdtemp()
ckpt = {"model": model.state_dict(), "opt": opt.state_dict(), "epoch": 3, "best": 0.25, "tag": "run-a",
        "hist": [1.0, 2.5], "extra": {"mean": paddle.to_tensor([0.5, 1.5]), "n": 7}}
paddle.save(ckpt, os.path.join(d, "ckpt.pdparams"))
loaded = paddle.load(os.path.join(d, "ckpt.pdparams"))
rec["loaded_types"] = {k: type(v).__name__ for k, v in loaded.items() if k != "opt"}
rec["loaded_extra"] = [np.asarray(loaded["extra"]["mean"]).tolist(), loaded["extra"]["n"], loaded["hist"], loaded["tag"]]
rec["opt_keys"] = sorted(k for k in loaded["opt"] if k != "LR_Scheduler")[:6]

fresh = Net()
partial = {k: v for k, v in loaded["model"].items() if not k.startswith("head")}
partial["unused.weight"] = np.zeros([2, 2], "float32")
res = fresh.set_state_dict(partial)
rec["set_state_dict_result"] = [sorted(res[0]), sorted(res[1])] if isinstance(res, tuple) else str(type(res))
fresh.head.set_state_dict({"weight": loaded["model"]["head.weight"], "bias": loaded["model"]["head.bias"]})
fresh.eval()
model.eval()
xt = paddle.to_tensor(X[:5])
rec["reload_equal"] = bool(np.allclose(fresh(xt).numpy(), model(xt).numpy(), atol=1e-6))
rec["scale_after_load"] = fresh.scale.numpy().tolist()

m64 = copy.deepcopy(model)
m64.to(dtype="float64")
rec["m64"] = [str(m64.head.weight.dtype), str(m64.scale.dtype), m64(xt.astype("float64")).numpy().tolist()[:2]]
m16 = copy.deepcopy(model)
m16.to(dtype="float16")
rec["m16_dtype"] = str(m16.body[0].weight.dtype)
rec["half_weight"] = model.head.weight.astype("float16").astype("float32").numpy().round(3).tolist()[:2]
rec["n_params"] = [len(model.parameters()), len([p for p in model.parameters() if p.trainable]),
                   sum(int(np.prod(p.shape)) for p in model.parameters())]
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
