"""A multi-task model in float64 (set_default_dtype): LayerList / LayerDict / ParameterList, a registered buffer
updated in forward, apply(init_fn) over sublayers, a forward pre/post hook collecting features, named_sublayers,
state_dict with buffers (persistable or not), to_static-free save/load roundtrip, Layer.astype, and
parameters() order."""
import json
import os
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

paddle.set_default_dtype("float64")


class MultiTask(nn.Layer):
    def __init__(self):
        super().__init__()
        self.trunk = nn.LayerList([nn.Linear(4, 8), nn.Linear(8, 8)])
        self.heads = nn.LayerDict({"reg": nn.Linear(8, 1), "cls": nn.Linear(8, 3)})
        self.task_w = nn.ParameterList([self.create_parameter([1], default_initializer=nn.initializer.Constant(0.0))
                                        for _ in range(2)])
        self.register_buffer("steps", paddle.zeros([1], "int64"))
        self.register_buffer("running", paddle.zeros([8]), persistable=False)

    def forward(self, x):
        for layer in self.trunk:
            x = F.softsign(layer(x))
        if self.training:
            self.steps += 1
            self.running.set_value(0.9 * self.running + 0.1 * x.mean(0).detach())
        return self.heads["reg"](x).squeeze(-1), self.heads["cls"](x)


def init_fn(layer):
    if isinstance(layer, nn.Linear):
        r = np.random.default_rng(layer.weight.shape[0] * 10 + layer.weight.shape[1])
        layer.weight.set_value(r.standard_normal(layer.weight.shape) * 0.5)
        layer.bias.set_value(np.full(layer.bias.shape, 0.1))


model = MultiTask()
model.apply(init_fn)
feats = []
pre_calls = []
hk = model.trunk[1].register_forward_post_hook(lambda layer, inp, out: feats.append(float(out.abs().mean())))
hp = model.heads["cls"].register_forward_pre_hook(lambda layer, inp: pre_calls.append(inp[0].shape[0]))
rng = np.random.default_rng(0)
X = rng.standard_normal((40, 4))
yr = X.sum(1)
yc = (X[:, 0] > 0).astype("int64") + (X[:, 1] > 0).astype("int64")
opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=model.parameters())
rec = {"loss": [], "dtype": [str(p.dtype) for p in model.parameters()][:2]}
for step in range(10):
    i = (step % 4) * 10
    x = paddle.to_tensor(X[i:i + 10])
    reg, cls = model(x)
    l1, l2 = F.mse_loss(reg, paddle.to_tensor(yr[i:i + 10])), F.cross_entropy(cls, paddle.to_tensor(yc[i:i + 10]))
    s1, s2 = model.task_w[0], model.task_w[1]
    loss = (paddle.exp(-s1) * l1 + s1 + paddle.exp(-s2) * l2 + s2).sum()
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["loss"].append(float(loss))
    if step == 4:
        hk.remove()
rec["feats"] = feats
rec["pre_calls"] = pre_calls
rec["steps"] = model.steps.item()
rec["running"] = model.running.numpy().tolist()
rec["sd_keys"] = list(model.state_dict().keys())
rec["sublayers"] = [n for n, _ in model.named_sublayers()]
rec["param_names"] = [n for n, _ in model.named_parameters()]
rec["buffers"] = [n for n, _ in model.named_buffers()]
path = os.path.join(tempfile.mkdtemp(), "mt.pdparams")
paddle.save(model.state_dict(), path)
m2 = MultiTask()
missing, unexpected = m2.set_state_dict(paddle.load(path))
rec["load_result"] = [list(missing), list(unexpected)]
m2.eval()
model.eval()
rec["same_after_load"] = bool(np.allclose(m2(paddle.to_tensor(X[:3]))[1].numpy(), model(paddle.to_tensor(X[:3]))[1].numpy()))
m2.float()
rec["after_float"] = [str(p.dtype) for p in m2.parameters()][:1] + [str(m2.steps.dtype), str(m2.running.dtype)]
rec["default_dtype"] = paddle.get_default_dtype()
rec["to_tensor_dtype"] = str(paddle.to_tensor(1.5).dtype)
paddle.set_default_dtype("float32")
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
