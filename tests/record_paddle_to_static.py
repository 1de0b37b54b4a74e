"""Record Paddle 3.3.1's to_static results on implicit inputs into tests/data/paddle_to_static.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_to_static.py``.
"""

import json
import os

import numpy as np
import paddle

X = np.arange(6, dtype="float32").reshape(2, 3) / 4 - 0.5
out = {}

# a closure tensor: its gradient, a value set between calls, a replacement between calls
w = paddle.to_tensor(np.linspace(-1, 1, 9, dtype="float32").reshape(3, 3), stop_gradient=False)


@paddle.jit.to_static
def f(x):
    return paddle.tanh(paddle.matmul(x, w)).sum()


x = paddle.to_tensor(X)
f(x).backward()
out["closure_grad"] = w.grad.numpy().tolist()
w.set_value(np.full((3, 3), 0.5, "float32"))
out["after_set_value"] = float(f(x))
w = paddle.to_tensor(np.full((3, 3), -0.25, "float32"), stop_gradient=False)
out["after_replace"] = float(f(x))


class Inner(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.w = self.create_parameter([3, 2], default_initializer=paddle.nn.initializer.Assign(
            np.linspace(-0.5, 0.7, 6, dtype="float32").reshape(3, 2)))


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.register_buffer("mean", paddle.zeros([3]))
        self.register_buffer("count", paddle.zeros([3]))

    def forward(self, x):
        self.mean.set_value(0.9 * self.mean + 0.1 * x.mean(0))
        self.count.add_(paddle.ones([3]))
        return paddle.nn.functional.sigmoid(paddle.matmul(x - self.mean, self.inner.w)).sum()


net = paddle.jit.to_static(Net())
xs = paddle.to_tensor(X, stop_gradient=False)
losses = []
for _ in range(3):
    loss = net(xs)
    loss.backward()
    losses.append(float(loss))
out["net_losses"] = losses
out["net_mean"] = net.mean.numpy().tolist()
out["net_count"] = net.count.numpy().tolist()
out["net_w_grad"] = net.inner.w.grad.numpy().tolist()
out["net_x_grad"] = xs.grad.numpy().tolist()

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_to_static.json")
with open(path, "w") as fh:
    json.dump(out, fh, indent=1)
print(json.dumps(out))
