"""In-place heavy code: a model whose forward edits intermediates in place (add_, multiply_, clip_, scale_,
masked_fill_, exp_, sigmoid_ on non-leaf tensors), __setitem__ with ints, slices, ellipsis, bool masks, index
tensors and broadcast values, index_put_ with accumulate, put_along_axis_, the gradients through all of them;
then manual updates of parameters under no_grad (zero_, fill_, copy_, uniform-free set_value, index_fill_) and
views (a row of a matrix, reshape, unsqueeze) written in place; writes through detach() and .data in a training
loop (values change, the history stays, as in Paddle).

Known difference (not mirrored, see the README's section on views), left out here: where a write through a view
replaces values of a tensor with a history (``w = v.reshape(...); w[0] = 1.0; v.sum().backward()``), Paddle keeps
the old history (the gradient of the old values) and pylayer_jax gives the gradient of the new ones. Code that
writes in place into an output its op saved for backward (``u = s.sigmoid(); u.sigmoid_()``) raises in Paddle;
pylayer_jax gives the gradient of what was computed."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn

rng = np.random.default_rng(0)
X = rng.standard_normal((32, 6)).astype("float32")
Y = (np.sin(X[:, :3]).sum(1, keepdims=True) + 0.1 * X[:, 3:4]).astype("float32")


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(6, 12)
        self.l2 = nn.Linear(12, 12)
        self.out = nn.Linear(12, 1)

    def forward(self, x):
        h = self.l1(x)
        h.add_(paddle.full([12], 0.1))
        h.clip_(-2.0, 2.0)
        g = self.l2(h)
        g.multiply_(paddle.nn.functional.sigmoid(h))
        g.scale_(scale=0.5, bias=0.1)
        g.masked_fill_(g.abs() < 0.01, 0.0)
        g[:, 0] = g[:, 1] * 2                        # int column from another column
        g[:, 2:5] += h[:, :3]                        # slice, broadcast add
        g[..., -1] = 0.0                             # ellipsis, a number
        g[g > 3.0] = 3.0                             # bool mask
        rows = paddle.to_tensor([0, 3, 3])
        g[rows, 6] = paddle.to_tensor([1.0, 2.0, 3.0])   # index tensors, repeated row (last write wins)
        e = g[:, 7:9].clone()
        e.exp_()
        g[:, 7:9] = e.log() * 0.5
        return self.out(g)


model = Net()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.4).astype("float32") for k, v in model.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
rec = {"loss": [], "gnorm": []}
for step in range(10):
    i = (step % 4) * 8
    pred = model(paddle.to_tensor(X[i:i + 8]))
    loss = ((pred - paddle.to_tensor(Y[i:i + 8])) ** 2).mean()
    loss.backward()
    rec["gnorm"].append(float(sum((p.grad ** 2).sum() for p in model.parameters())))
    opt.step()
    opt.clear_grad()
    rec["loss"].append(loss.item())

# gradients of setitem / index_put_ / put_along_axis_ directly
a = paddle.to_tensor(rng.standard_normal((4, 5)).astype("float32"), stop_gradient=False)
b = paddle.to_tensor(rng.standard_normal((3,)).astype("float32"), stop_gradient=False)
t = a * 1.0
t[1:, [0, 2, 4]] = b.unsqueeze(0).expand([3, 3]) * 2
t[0] = t[0] + b.sum()
t.index_put_((paddle.to_tensor([0, 2, 2]), paddle.to_tensor([1, 1, 3])), paddle.to_tensor([1.0, 2.0, 3.0]), accumulate=True)
t.put_along_axis_(paddle.to_tensor([[0], [1], [2], [3]]), b[:1].expand([4, 1]), axis=1)
(t * paddle.arange(20, dtype="float32").reshape([4, 5])).sum().backward()
rec["setitem_grads"] = [t.numpy().tolist(), a.grad.numpy().tolist(), b.grad.numpy().tolist()]

s = paddle.to_tensor(rng.standard_normal((3, 4)).astype("float32"), stop_gradient=False)
u = s * 2.0
u.sigmoid_()
v = u - 0.6
v.abs_()
v.sum().backward()
rec["chain"] = [v.numpy().tolist(), s.grad.numpy().tolist()]

with paddle.no_grad():
    lin = model.l1
    snap = lin.weight.numpy().copy()
    lin.bias.zero_()
    lin.weight[0].fill_(0.25)                     # a row view, written in place
    lin.weight[:, 1].scale_(2.0)
    lin.weight.index_fill_(paddle.to_tensor([3]), 1, -1.0)
    col = lin.weight.unsqueeze(0)
    col[0, 2, 2] = 9.0
    model.l2.weight.copy_(model.l2.weight * 0.5, False)
    model.out.bias.set_value(paddle.to_tensor([0.3]))
    model.out.weight.add_(paddle.ones_like(model.out.weight))
rec["weights"] = [lin.weight.numpy().tolist(), lin.bias.numpy().tolist(), model.out.bias.numpy().tolist(),
                  float(np.abs(lin.weight.numpy() - snap).sum())]
rec["after"] = model(paddle.to_tensor(X[:4])).numpy().tolist()
x = paddle.arange(12, dtype="float32").reshape([3, 4])
y = x[1]
y.add_(paddle.to_tensor(100.0))
z = x.reshape([12])
z[0] = -5.0
x.T[3, 2] = 77.0
rec["views"] = [x.numpy().tolist(), y.numpy().tolist(), z.numpy().tolist()[:4]]
# writes through detach() / .data: values change, the history stays (the gradient is that of the old graph)
lin = nn.Linear(3, 3)
lin.weight.set_value(paddle.to_tensor([[0.1, 0.2, 0.3], [0.0, -0.1, 0.2], [0.3, 0.1, -0.2]]))
lin.bias.set_value(paddle.zeros([3]))
sgd = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
xs = paddle.to_tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
rec["detached"] = []
for _ in range(5):
    h = lin(xs)
    h.detach().clip_(-0.2, 0.5)
    h.data[0] += 1.0
    loss = (h * h).sum()
    loss.backward()
    sgd.step()
    sgd.clear_grad()
    rec["detached"].append([loss.item(), lin.weight.numpy()[0].tolist()])
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
