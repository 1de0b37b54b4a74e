"""Custom PyLayers inside an nn.Layer: a clipped straight-through sign estimator (save_for_backward), a gradient
reversal with a scale attribute on ctx, and a two-output PyLayer; 50 SGD steps."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.autograd import PyLayer


class SignSTE(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return paddle.sign(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensor()
        return grad * (x.abs() <= 1.0).astype(grad.dtype)


class GradReverse(PyLayer):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return -ctx.scale * grad


class SplitScale(PyLayer):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w, x - w

    @staticmethod
    def backward(ctx, ga, gb):
        x, w = ctx.saved_tensor()
        return ga * w + gb, (ga * x - gb).sum(0)


class BinaryNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 12)
        self.fc2 = nn.Linear(12, 12)
        self.scale = self.create_parameter([12])
        self.head = nn.Linear(12, 3)
        self.adv = nn.Linear(12, 2)

    def forward(self, x, alpha):
        h = F.tanh(self.fc1(x))
        wb = SignSTE.apply(self.fc2.weight)
        h = SignSTE.apply(F.linear(h, wb * 0.3, self.fc2.bias))
        a, b = SplitScale.apply(h, self.scale)
        feat = a + 0.1 * b
        return self.head(feat), self.adv(GradReverse.apply(feat, alpha))


rng = np.random.default_rng(0)
X = rng.standard_normal((64, 6)).astype("float32")
Y = (X[:, 0] > 0).astype("int64") + (X[:, 1] > 0.5).astype("int64")
Dm = (X[:, 2] > 0).astype("int64")
model = BinaryNet()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.5).astype("float32") for k, v in model.state_dict().items()})
opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
rec = {"loss": [], "acc": []}
for step in range(50):
    i = (step % 4) * 16
    x, y, d = paddle.to_tensor(X[i:i + 16]), paddle.to_tensor(Y[i:i + 16]), paddle.to_tensor(Dm[i:i + 16])
    alpha = 2.0 / (1.0 + np.exp(-10 * step / 50)) - 1
    logits, dom = model(x, alpha)
    loss = F.cross_entropy(logits, y) + F.cross_entropy(dom, d)
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["loss"].append(float(loss))
    rec["acc"].append(float((logits.argmax(-1) == y).astype("float32").mean()))
rec["w2"] = model.fc2.weight.numpy()[:2].tolist()
rec["scale"] = model.scale.numpy().tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
