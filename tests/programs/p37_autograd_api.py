"""The autograd API as users call it: a small MLP trained with a gradient penalty (paddle.grad with create_graph),
then paddle.autograd.jacobian / hessian (the lazy Jacobian and Hessian objects: shape, indexing with ints, slices
and tuples, several xs / ys, batch_axis=0), paddle.incubate.autograd.vjp / jvp / Jacobian / Hessian (is_batched),
paddle.grad with retain_graph / allow_unused / no_grad_vars / grad_outputs, a third derivative of a scalar
function, a PyLayer whose backward is itself differentiable (create_graph double backward), Tensor.register_hook
scaling and clipping gradients (and hook.remove()), paddle.autograd.backward with several roots and grad_tensors,
saved_tensors_hooks packing saved tensors to numpy around a model's forward, the stop_gradient of many results,
x.grad accumulating over backward calls, clear_gradient(set_to_zero=False) and errors users catch.

Left out (Paddle 3.3.1 fails or is wrong; pylayer_jax keeps the sane result): ``x.clear_gradient(set_to_zero=False)``
with the keyword leaves Paddle's ``x.grad`` a tensor of zeros (the keyword is ignored; the positional ``False``, used
here, gives None); second derivatives through ``prod`` raise in Paddle (prod_grad has no grad op), and a second
``paddle.grad`` through ``x ** 3`` asking for only some of the inputs crashes (``dx should not be null``), so the
program asks for all of them and writes products instead of prod / pow there."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.autograd import PyLayer

rng = np.random.default_rng(0)
rec = {}


def v(t):
    return t.numpy().astype("float64").tolist()


def err(f):
    try:
        f()
        return "ok"
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


# --- 1. a small MLP trained with a gradient penalty (double backward through paddle.grad) ---
class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(3, 8)
        self.l2 = nn.Linear(8, 1)

    def forward(self, x):
        return self.l2(F.tanh(self.l1(x)))


model = MLP()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(p.shape) * 0.5).astype("float32") for k, p in model.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=model.parameters())
X = rng.standard_normal((16, 3)).astype("float32")
Y = np.sin(X).sum(1, keepdims=True).astype("float32")
rec["train"] = []
for _ in range(12):
    x = paddle.to_tensor(X)
    x.stop_gradient = False
    pred = model(x)
    (gx,) = paddle.grad(pred, x, grad_outputs=paddle.ones_like(pred), create_graph=True)
    penalty = ((gx.norm(2, axis=1) - 1.0) ** 2).mean()
    loss = F.mse_loss(pred, paddle.to_tensor(Y)) + 0.1 * penalty
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["train"].append([loss.item(), penalty.item(), gx.stop_gradient])

# --- 2. paddle.autograd.jacobian / hessian (lazy objects) ---
a = paddle.to_tensor(rng.standard_normal((3,)).astype("float32"), stop_gradient=False)
b = paddle.to_tensor(rng.standard_normal((2,)).astype("float32"), stop_gradient=False)
y = paddle.concat([a * a, a.sum(keepdim=True) * b[:1] * b[1:], paddle.sin(b)])
J = paddle.autograd.jacobian(y, a)
rec["jac_type"] = [type(J).__name__, list(J.shape)]
rec["jac"] = [v(J[:]), v(J[0]), v(J[1:3]), v(J[:, 1]), v(J[2, 0:2]), v(J[-1])]
Js = paddle.autograd.jacobian([y, a * 3.0], [a, b])
rec["jac_multi"] = [[list(Js[i][j].shape) for j in range(2)] for i in range(2)]
rec["jac_multi_vals"] = [v(Js[0][1][:]), v(Js[1][0][:])]
xb = paddle.to_tensor(rng.standard_normal((4, 3)).astype("float32"), stop_gradient=False)
yb = paddle.concat([xb * xb.sum(-1, keepdim=True), paddle.exp(xb[:, :1])], axis=-1)
Jb = paddle.autograd.jacobian(yb, xb, batch_axis=0)
rec["jac_batch"] = [list(Jb.shape), v(Jb[:]), v(Jb[1]), v(Jb[:, 0])]
z = (a * a * b.sum()).sum() + paddle.sin(a[0]) * paddle.sin(a[1]) * paddle.cos(a[2])
H = paddle.autograd.hessian(z, a)
rec["hess"] = [type(H).__name__, list(H.shape), v(H[:]), v(H[1])]
Hm = paddle.autograd.hessian(z, [a, b])
rec["hess_multi"] = [list(Hm[0][1].shape), v(Hm[0][1][:]), v(Hm[1][1][:]), v(Hm[1][0][:])]
zb = (xb ** 3).sum(-1)
Hb = paddle.autograd.hessian(zb, xb, batch_axis=0)
rec["hess_batch"] = [list(Hb.shape), v(Hb[:])]


# --- 3. paddle.incubate.autograd ---
def f(p, q):
    return paddle.tanh(p) * q.sum(), p * p


p0 = paddle.to_tensor(rng.standard_normal((3,)).astype("float32"))
q0 = paddle.to_tensor(rng.standard_normal((2,)).astype("float32"))
outs, vj = paddle.incubate.autograd.vjp(f, [p0, q0])
rec["vjp"] = [[v(o) for o in outs], [v(g) for g in vj]]
outs, vj = paddle.incubate.autograd.vjp(f, [p0, q0], v=[paddle.to_tensor([1.0, 0.0, 2.0]), paddle.ones([3])])
rec["vjp_v"] = [v(g) for g in vj]
outs, jv = paddle.incubate.autograd.jvp(lambda t: paddle.exp(t) * t, p0, v=paddle.to_tensor([1.0, -1.0, 0.5]))
rec["jvp"] = [v(outs), v(jv)]
J2 = paddle.incubate.autograd.Jacobian(lambda t: paddle.stack([t.sum(), (t * t).sum(), t[0] * t[1]]), p0)
rec["inc_jac"] = [list(J2.shape), v(J2[:]), v(J2[0, :]), v(J2[:, 2])]
Jbat = paddle.incubate.autograd.Jacobian(lambda t: t * t.sum(-1, keepdim=True), xb.detach(), is_batched=True)
rec["inc_jac_batched"] = [list(Jbat.shape), v(Jbat[:])]
H2 = paddle.incubate.autograd.Hessian(lambda t: (t ** 3).sum() + t[0] * t[2], p0)
rec["inc_hess"] = [list(H2.shape), v(H2[:])]

# --- 4. paddle.grad options ---
x = paddle.to_tensor([0.5, -1.0, 2.0], stop_gradient=False)
w = paddle.to_tensor([1.5, 0.3, -0.7], stop_gradient=False)
u = paddle.to_tensor([1.0, 1.0, 1.0], stop_gradient=False)
y = (x * w).exp().sum() + (x ** 2 * w).sum()
g1 = paddle.grad(y, [x, w], retain_graph=True)
g2 = paddle.grad(y, [x, u], allow_unused=True, retain_graph=True)
rec["grad_opts"] = [[v(g) for g in g1], v(g2[0]), g2[1] is None]
rec["grad_unused_err"] = err(lambda: paddle.grad(y, [u], retain_graph=True))
h = x * w
k = (h * h + x).sum()
gn = paddle.grad(k, x, no_grad_vars=[h], retain_graph=True)
rec["no_grad_vars"] = v(gn[0])
m = x * w
go = paddle.grad([m, x * 2.0], [x], grad_outputs=[paddle.to_tensor([1.0, 2.0, 3.0]), None])
rec["grad_outputs"] = v(go[0])
y2 = (x ** 2).sum()
paddle.grad(y2, x)
rec["second_call_err"] = err(lambda: paddle.grad(y2, x))
(gx,) = paddle.grad((x ** 3 * w).sum(), x, create_graph=True)
rec["create_graph"] = [v(gx), gx.stop_gradient]
gxx, gxw = paddle.grad(gx.sum(), [x, w], create_graph=True)
rec["second"] = [v(gxx), v(gxw)]
# third derivative of a scalar function
s = paddle.to_tensor(0.7, stop_gradient=False)
fs = paddle.sin(s) * s ** 4
d1 = paddle.grad(fs, s, create_graph=True)[0]
d2 = paddle.grad(d1, s, create_graph=True)[0]
d3 = paddle.grad(d2, s)[0]
rec["third"] = [fs.item(), d1.item(), d2.item(), d3.item(), list(d3.shape)]


# --- 5. a PyLayer with a differentiable backward (double backward) ---
class Cube(PyLayer):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t ** 3

    @staticmethod
    def backward(ctx, dy):
        (t,) = ctx.saved_tensor()
        return dy * 3.0 * t * t


t = paddle.to_tensor([0.5, -1.5, 2.0], stop_gradient=False)
c = Cube.apply(t)
(dt,) = paddle.grad(c.sum(), t, create_graph=True)
(ddt,) = paddle.grad((dt * dt).sum(), t)
rec["pylayer_double"] = [v(c), v(dt), dt.stop_gradient, v(ddt)]
t.clear_gradient()
c = Cube.apply(t * 2.0)
(dt,) = paddle.grad(c.mean(), t, create_graph=True)
dt.sum().backward()
rec["pylayer_double_backward"] = v(t.grad)

# --- 6. register_hook ---
x = paddle.to_tensor([1.0, -2.0, 3.0], stop_gradient=False)
hk = x.register_hook(lambda g: g * 2.0)
mid = x * x
mid_h = mid.register_hook(lambda g: paddle.clip(g, -1.0, 1.0))
seen = []
mid2 = mid + 1.0
mid2.register_hook(lambda g: seen.append(v(g)))
(mid2 * paddle.to_tensor([3.0, 0.5, -4.0])).sum().backward()
rec["hooks"] = [v(x.grad), seen]
hk.remove()
mid_h.remove()
x.clear_gradient()
(x * x * paddle.to_tensor([3.0, 0.5, -4.0])).sum().backward()
rec["hooks_removed"] = v(x.grad)
lin = nn.Linear(3, 2)
lin.weight.set_value(paddle.to_tensor([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]]))
lin.bias.set_value(paddle.to_tensor([0.0, 0.1]))
lin.weight.register_hook(lambda g: g / g.abs().max())
lin(paddle.to_tensor([[1.0, 2.0, 3.0]])).sum().backward()
rec["param_hook"] = [v(lin.weight.grad), v(lin.bias.grad)]

# --- 7. paddle.autograd.backward with several roots ---
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
r1 = x * 3.0
r2 = (x ** 2).sum()
paddle.autograd.backward([r1, r2], [paddle.to_tensor([1.0, -1.0]), None])
rec["backward_multi"] = v(x.grad)
x.clear_gradient()
r1 = x * x
r2 = x.exp()
paddle.autograd.backward([r1, r2], grad_tensors=[paddle.to_tensor([0.5, 0.5]), paddle.to_tensor([2.0, 0.0])],
                         retain_graph=True)
first = v(x.grad)
paddle.autograd.backward([r1], [paddle.ones([2])])
rec["backward_grad_tensors"] = [first, v(x.grad)]

# --- 8. saved_tensors_hooks around a model's forward ---
packed = []


def pack(tensor):
    packed.append(list(tensor.shape))
    return tensor.numpy()


def unpack(arr):
    return paddle.to_tensor(arr)


m2 = MLP()
m2.set_state_dict(model.state_dict())
xin = paddle.to_tensor(X[:4])
with paddle.autograd.saved_tensors_hooks(pack, unpack):
    out = m2(xin)
    loss = (out ** 2).mean()
loss.backward()
rec["saved_hooks"] = [loss.item(), v(m2.l1.weight.grad), len(packed) > 0]
m3 = MLP()
m3.set_state_dict(model.state_dict())
(m3(xin) ** 2).mean().backward()
rec["saved_hooks_same"] = v(m3.l1.weight.grad)

# --- 9. stop_gradient propagation ---
a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
bconst = paddle.to_tensor([0.5, 0.5, 0.5])
ii = paddle.to_tensor([0, 2])
sg = {
    "add_const": a + bconst, "const_only": bconst * 2, "detach": a.detach(), "clone": a.clone(),
    "argmax": a.argmax(), "cast_int": a.astype("int64"), "cast_f64": a.astype("float64"),
    "compare": a > 1.0, "gather": paddle.gather(a, ii), "index": a[ii], "slice": a[1:],
    "shape": paddle.shape(a), "zeros_like": paddle.zeros_like(a), "ones": paddle.ones([2]),
    "concat": paddle.concat([a, bconst]), "where": paddle.where(a > 1.5, a, bconst), "topk_idx": a.topk(2)[1],
    "topk_val": a.topk(2)[0], "sort": a.sort(), "full_like": paddle.full_like(a, 2.0), "nonzero": a.nonzero(),
    "to_tensor_of": paddle.to_tensor(a), "numel": a.numel(), "sum": a.sum(), "round": a.round(),
    "floor": a.floor(), "sign": a.sign(), "abs": a.abs(),
}
with paddle.no_grad():
    sg["no_grad"] = a * 2
rec["stop_gradient"] = {k: t.stop_gradient for k, t in sg.items()}
rec["sg_dtypes"] = {k: str(t.dtype) for k, t in sg.items()}
lay = nn.Linear(2, 2)
rec["param_sg"] = [lay.weight.stop_gradient, lay.weight.trainable]
lay.weight.stop_gradient = True
rec["param_sg_after"] = [lay.weight.stop_gradient, lay.weight.trainable]
rec["leaf"] = [a.is_leaf, (a * 2).is_leaf, bconst.is_leaf, a.detach().is_leaf]

# --- 10. gradient accumulation and clear_gradient ---
x = paddle.to_tensor([1.0, -2.0, 0.5], stop_gradient=False)
acc = []
for i in range(3):
    ((x * (i + 1.0)) ** 2).sum().backward()
    acc.append(v(x.grad))
rec["accumulate"] = acc
x.clear_gradient(False)
rec["cleared_none"] = x.grad is None
(x * 2.0).sum().backward()
x.clear_gradient()
rec["cleared_zero"] = [x.grad is None or v(x.grad)]
(x * 4.0).sum().backward()
rec["after_clear"] = v(x.grad)
p = nn.Linear(2, 2)
p(paddle.ones([1, 2])).sum().backward()
p.clear_gradients(set_to_zero=False)
rec["layer_clear_none"] = [q.grad is None for q in p.parameters()]
p(paddle.ones([1, 2])).sum().backward()
p.clear_gradients()
rec["layer_clear_zero"] = [None if q.grad is None else v(q.grad) for q in p.parameters()]
rec["grad_of_intermediate"] = err(lambda: paddle.grad((x * x).sum(), paddle.ones([3])))

# --- 11. Jacobian corner cases: 0-D tensors, arithmetic on the lazy objects, misuse ---
s0 = paddle.to_tensor(1.5, stop_gradient=False)
v3 = paddle.to_tensor([0.2, -0.4, 1.0], stop_gradient=False)
J0 = paddle.autograd.jacobian(s0 * s0 * s0, s0)
J1 = paddle.autograd.jacobian(v3 * s0, s0)
J2 = paddle.autograd.jacobian((v3 * v3).sum(), v3)
rec["jac_0d"] = [J0.shape, v(J0._evaluate_all()), J1.shape, v(J1[:]), v(J1[1]), J2.shape, v(J2[:]), v(J2[0:2])]
Jv = paddle.autograd.jacobian(paddle.tanh(v3), v3)
rec["jac_ops"] = [v(Jv * 2.0), v(Jv + Jv), v(Jv @ paddle.ones([3])), Jv.numpy().tolist(), list(Jv.sum().shape),
                  float(Jv.sum()), v(Jv[:, 0:2]), v(Jv[1, 1])]
rec["jac_errors"] = [
    err(lambda: paddle.autograd.jacobian(v3, v3, batch_axis=1)),
    err(lambda: paddle.autograd.jacobian(paddle.ones([2, 2]) * v3.sum(), v3)[:]),
    err(lambda: paddle.autograd.hessian(v3 * 2.0, v3)),
    err(lambda: J0[0]),
    err(lambda: Jv[..., 0]),
]
Hs = paddle.autograd.hessian((v3 * v3 * v3).sum() * s0, [v3, s0])
rec["hess_0d"] = [[Hs[i][j].shape for j in range(2)] for i in range(2)]
rec["hess_0d_vals"] = [v(Hs[0][0][:]), v(Hs[0][1][:]), v(Hs[1][0][:]), v(Hs[1][1]._evaluate_all())]
Hb2 = paddle.autograd.hessian((xb * xb).sum(-1) * xb[:, 0], xb, batch_axis=0)
rec["hess_batch_idx"] = [v(Hb2[0]), v(Hb2[:, 1]), v(Hb2[1:3, 0:2])]

# --- 12. grad modes, retain_grads, PyLayer options, hooks inside a PyLayer's saved tensors ---
a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
modes = [paddle.is_grad_enabled()]
with paddle.no_grad():
    modes.append(paddle.is_grad_enabled())
    with paddle.enable_grad():
        modes.append(paddle.is_grad_enabled())
        inner = a * 2
    outer = a * 2
with paddle.set_grad_enabled(False):
    modes.append(paddle.is_grad_enabled())
    off = a * 3


@paddle.no_grad()
def frozen(t):
    return t * 4


rec["grad_modes"] = [modes, inner.stop_gradient, outer.stop_gradient, off.stop_gradient, frozen(a).stop_gradient,
                     paddle.is_grad_enabled()]
h = a * a
h.retain_grads()
h2 = h * 2.0
(h2 * paddle.to_tensor([1.0, -1.0, 0.5])).sum().backward()
rec["retain_grads"] = [v(h.grad), h2.grad is None, v(a.grad)]
a.clear_gradient()
y = a * paddle.to_tensor([2.0, 0.0, -1.0])
y.backward(paddle.to_tensor([1.0, 2.0, 3.0]))
rec["backward_grad_tensor"] = v(a.grad)
rec["backward_nonscalar"] = err(lambda: (a * 2.0).backward())
rec["grad_of_stopped"] = err(lambda: paddle.grad(bconst * 2.0, [a]))


class Scale(PyLayer):
    @staticmethod
    def forward(ctx, t, k):
        ctx.k = k
        ctx.save_for_backward(t)
        big = t * k
        idx = paddle.argmax(t)
        ctx.mark_non_differentiable(idx)
        return big, idx

    @staticmethod
    def backward(ctx, g, g_idx):
        (t,) = ctx.saved_tensor()
        return g * ctx.k + t * 0.0


class Materialize(PyLayer):
    @staticmethod
    def forward(ctx, t):
        ctx.set_materialize_grads(False)
        return t * 2.0, t * 3.0

    @staticmethod
    def backward(ctx, g1, g2):
        return (g1 * 2.0 if g1 is not None else 0.0) + (g2 * 3.0 if g2 is not None else paddle.zeros_like(g1))


a.clear_gradient()
seen_pack = []
with paddle.autograd.saved_tensors_hooks(lambda t: (seen_pack.append(list(t.shape)), t.numpy())[1],
                                         lambda arr: paddle.to_tensor(arr)):
    big, idx = Scale.apply(a, 2.5)
(big * big).sum().backward()
rec["pylayer_opts"] = [v(big), idx.numpy().tolist(), idx.stop_gradient, v(a.grad), len(seen_pack)]
a.clear_gradient()
m1, m2 = Materialize.apply(a)
m1.sum().backward()
rec["materialize"] = v(a.grad)
a.clear_gradient()
(paddle.incubate.autograd.vjp(lambda p, q: [p * q, p + q], [a, paddle.ones([3])])[1][0] * 1.0).sum()
outs, vs = paddle.incubate.autograd.vjp(lambda p, q: [p * q, p + q], [a.detach(), paddle.full([3], 2.0)])
rec["vjp_multi_out"] = [[v(o) for o in outs], [v(t) for t in vs]]
outs, jv = paddle.incubate.autograd.jvp(lambda p, q: p * q.sum(), [a.detach(), paddle.full([3], 2.0)],
                                        [paddle.ones([3]), paddle.to_tensor([1.0, 0.0, -1.0])])
rec["jvp_multi_in"] = [v(outs), v(jv)]
rec["grad_repr"] = str(paddle.grad((a * a).sum(), a)[0])
with open(os.environ["PROGRAM_OUT"], "w") as fh:
    json.dump(rec, fh)
