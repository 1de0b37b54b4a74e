"""Training without an optimizer: manual SGD updates under no_grad (subtract_, set_value, paddle.assign), tensor
gradient hooks that clip, retain_graph with two backwards, paddle.autograd.backward with grad_tensors, detach /
clone, a leaf created by to_tensor(stop_gradient=False), and an L-BFGS-free Newton step for a tiny problem."""
import json
import os

import numpy as np
import paddle
import paddle.nn.functional as F

rng = np.random.default_rng(0)
X = paddle.to_tensor(rng.standard_normal((50, 3)).astype("float32"))
y = paddle.to_tensor((rng.standard_normal(50) > 0).astype("float32"))
w = paddle.to_tensor(np.zeros(3, "float32"), stop_gradient=False)
b = paddle.create_parameter([1], "float32", default_initializer=paddle.nn.initializer.Constant(0.0))
hook_calls = []


def clip_hook(g):
    hook_calls.append(1)
    return paddle.clip(g, -0.05, 0.05)


h = w.register_hook(clip_hook)
rec = {"loss": [], "w": []}
for step in range(15):
    logits = X @ w + b
    loss = F.binary_cross_entropy_with_logits(logits, y)
    loss.backward()
    with paddle.no_grad():
        w.subtract_(0.5 * w.grad)
        b.set_value(b - 0.5 * b.grad)
    w.clear_grad()
    b.clear_grad()
    rec["loss"].append(loss.item())
    if step == 7:
        h.remove()
rec["w"] = w.numpy().tolist()
rec["hook_calls"] = len(hook_calls)
rec["w_is_leaf"] = [w.is_leaf, w.stop_gradient, (w * 2).is_leaf]

# retain_graph: two backwards through the same graph accumulate
v = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
z = (v ** 3).sum()
z.backward(retain_graph=True)
g1 = v.grad.numpy().tolist()
z.backward()
rec["retain"] = [g1, v.grad.numpy().tolist()]

# autograd.backward with grad_tensors for two outputs
v.clear_grad()
o1, o2 = v * 2, v ** 2
paddle.autograd.backward([o1, o2], [paddle.to_tensor([1.0, 0.0, 1.0]), paddle.ones([3])])
rec["multi_backward"] = v.grad.numpy().tolist()

# detach / clone semantics
v.clear_grad()
c = v.clone()
d = v.detach()
(c * d).sum().backward()
rec["clone_detach"] = [v.grad.numpy().tolist(), d.stop_gradient, c.stop_gradient]

# Newton steps on a 2-D quadratic-ish function with paddle.grad twice (Hessian by rows)
p = paddle.to_tensor([1.0, -1.0], stop_gradient=False)
for _it in range(4):
    f = (p[0] - 2) ** 4 + (p[0] - 2 * p[1]) ** 2
    (g,) = paddle.grad(f, p, create_graph=True)
    H = paddle.stack([paddle.grad(g[i], p, retain_graph=True)[0] for i in range(2)])
    step = paddle.linalg.solve(H, g.unsqueeze(-1)).squeeze(-1)
    p = (p - step).detach()
    p.stop_gradient = False
    rec.setdefault("newton", []).append(p.numpy().tolist())
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
