"""Gradient hooks and autograd utilities in a training script: ``Tensor.register_hook`` on parameters and
intermediates (a hook that returns a changed gradient, one that returns None and only observes, several hooks in
order, a hook on a tensor used twice, ``handle.remove()``), ``Layer.register_forward_pre_hook`` /
``register_forward_post_hook`` changing a layer's inputs and outputs (returning a tuple, a single Tensor or None;
removed through their handles), ``paddle.grad`` with ``create_graph`` (a gradient penalty trained through),
``retain_graph``, ``allow_unused``, ``no_grad_vars`` and ``grad_outputs``; ``paddle.no_grad`` (context and
decorator), ``paddle.enable_grad``, ``paddle.set_grad_enabled`` (context and call) and ``paddle.is_grad_enabled``
nested; ``detach``, ``clear_gradient(False)`` / ``clear_grad`` / ``clear_gradients``, ``gradient()`` / ``grad_``,
gradient accumulation over micro-batches, freezing a layer mid-run by toggling ``stop_gradient``,
``paddle.autograd.saved_tensors_hooks`` offloading saved tensors to numpy during training, forward hooks' order with
``prepend`` and ``with_kwargs`` hooks, tensor hooks under ``paddle.grad`` and on a gradient made with
``create_graph``, ``no_grad`` on a generator, ``detach_``, ``Layer.register_state_dict_hook``,
``backward(grad_tensor)`` on a non-scalar output, and ``paddle.autograd.backward`` with several tensors; errors
users catch (a second backward without ``retain_graph``, an unused input without ``allow_unused``, a hook on a
constant, a hook changing the gradient's dtype, one Tensor twice among ``paddle.grad``'s inputs or outputs): the
exception types are recorded.

Left out (Paddle 3.3.1 crashes or is wrong; pylayer_jax raises a clear error instead): a tensor hook that returns a
gradient of another shape (``lambda g: g.sum()``) is accepted by Paddle, which stores that shape as ``x.grad``, and
one that returns a non-Tensor (``lambda g: 3``) is a segmentation fault; ``paddle.grad`` with a ``grad_outputs``
entry of the wrong shape returns a gradient of that shape, and ``paddle.autograd.backward`` takes one silently
(pylayer_jax raises a ValueError naming the shapes). A seed of the wrong shape for ``Tensor.backward``, and fewer
seeds than tensors for ``paddle.autograd.backward`` / ``paddle.grad``, fail a Python ``assert`` in Paddle
(AssertionError); pylayer_jax raises a ValueError, as its bad-input table does for Paddle's asserts
(``tests/bad_input_cases.py``). ``backward()`` with a numpy array as the seed is an AssertionError in Paddle;
pylayer_jax takes the array. Nested ``saved_tensors_hooks`` blocks
raise a ValueError in Paddle (one pair at a time); pylayer_jax allows them (the innermost pair applies)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
rec = {}


def v(t):
    if t is None:
        return None
    a = t.numpy()
    return a.tolist() if a.dtype.kind in "biu" else a.astype("float64").tolist()


def attempt(f):
    try:
        return ["ok", f()]
    except Exception as e:  # the type is the result
        return ["error", type(e).__name__]


def leaf(a):
    return paddle.to_tensor(np.asarray(a, dtype="float32"), stop_gradient=False)


def set_params(layer, seed, scale=0.5):
    r = np.random.default_rng(seed)
    layer.set_state_dict({k: (r.standard_normal(p.shape) * scale).astype(p.numpy().dtype)
                          for k, p in layer.state_dict().items()})


# --- 1. Tensor.register_hook ---
x = leaf([1.0, -2.0, 3.0])
calls = []
h1 = x.register_hook(lambda g: g * 2.0)
h2 = x.register_hook(lambda g: calls.append(["x", v(g)]))          # returns None: only observes
h3 = x.register_hook(lambda g: g + 1.0)                              # runs after the doubling
mid = x * x
hm = mid.register_hook(lambda g: paddle.clip(g, -2.0, 2.0))
mid.register_hook(lambda g: calls.append(["mid", v(g)]))
used_twice = mid * paddle.to_tensor([3.0, 0.5, -4.0]) + mid.sin()
used_twice.sum().backward()
rec["hooks"] = [v(x.grad), calls, mid.grad is None]
rec["hook_remove"] = [h1.remove(), h3.remove(), hm.remove()]
calls.clear()
x.clear_gradient()
(x * x * paddle.to_tensor([3.0, 0.5, -4.0])).sum().backward()
rec["hooks_after_remove"] = [v(x.grad), calls]
h2.remove()
# a hook on a tensor that is used twice sees the summed gradient, once
y = leaf([0.5, 1.5])
z = y * 2.0
seen = []
z.register_hook(lambda g: seen.append(v(g)))
(z * z + z * 3.0).sum().backward()
rec["hook_used_twice"] = [seen, v(y.grad)]
# hooks on a non-leaf that retains its grad
y2 = leaf([0.5, 1.5])
z2 = y2.exp()
z2.retain_grads()
z2.register_hook(lambda g: g * 10.0)
(z2 * z2).sum().backward()
rec["hook_retain"] = [v(z2.grad), v(y2.grad)]


# --- 2. a model with parameter hooks, forward hooks, trained ---
class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 8)
        self.mid = nn.Linear(8, 8)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(F.gelu(self.mid(F.relu(self.enc(x)))))


X = rng.standard_normal((32, 4)).astype("float32")
Y = np.stack([X[:, 0] - X[:, 1] ** 2, np.tanh(X[:, 2] + X[:, 3])], 1).astype("float32")
net = Net()
set_params(net, 1)
captured = {}


def pre_hook(layer, inputs):
    (inp,) = inputs
    return (inp - inp.mean(axis=0, keepdim=True),)      # a tuple: replaces the inputs


def pre_hook_single(layer, inputs):
    return inputs[0] * 0.5                               # a single Tensor


def post_hook(layer, inputs, output):
    captured["mid"] = output.detach()
    return None                                          # output unchanged


def post_scale(layer, inputs, output):
    return output * 1.5                                  # output replaced


hp = net.enc.register_forward_pre_hook(pre_hook)
hpost = net.mid.register_forward_post_hook(post_hook)
hs = net.head.register_forward_post_hook(post_scale)
hsingle = net.mid.register_forward_pre_hook(pre_hook_single)
grad_norms = []
for p in net.parameters():
    p.register_hook(lambda g: paddle.clip(g, -0.5, 0.5))
net.head.weight.register_hook(lambda g: grad_norms.append(float(g.norm())))
opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
rec["train_loss"] = []
for step in range(15):
    i = (step % 4) * 8
    out = net(paddle.to_tensor(X[i:i + 8]))
    loss = F.mse_loss(out, paddle.to_tensor(Y[i:i + 8]))
    loss.backward()
    if step == 0:
        rec["train_grads0"] = {n: v(p.grad) for n, p in net.named_parameters()}
        rec["captured_mid"] = v(captured["mid"][:2])
    opt.step()
    opt.clear_grad()
    rec["train_loss"].append(float(loss))
rec["head_grad_norms"] = grad_norms
xe = paddle.to_tensor(X[:4])
with_hooks = net(xe)
hp.remove()
hs.remove()
hsingle.remove()
hpost.remove()
captured.clear()
without = net(xe)
rec["forward_hooks"] = [v(with_hooks), v(without), sorted(captured)]

# --- 3. gradient penalty with paddle.grad(create_graph=True) ---
critic = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1))
set_params(critic, 2)
copt = paddle.optimizer.Adam(learning_rate=0.01, parameters=critic.parameters())
real = rng.standard_normal((16, 3)).astype("float32") + 1.0
fake = rng.standard_normal((16, 3)).astype("float32")
alpha = rng.uniform(size=(16, 1)).astype("float32")
rec["gp"] = []
for _ in range(8):
    xr, xf = paddle.to_tensor(real), paddle.to_tensor(fake)
    xi = paddle.to_tensor(alpha) * xr + (1 - paddle.to_tensor(alpha)) * xf
    xi.stop_gradient = False
    out = critic(xi)
    (gi,) = paddle.grad(out, xi, grad_outputs=paddle.ones_like(out), create_graph=True, retain_graph=True)
    gp = ((gi.norm(p=2, axis=1) - 1.0) ** 2).mean()
    loss = critic(xf).mean() - critic(xr).mean() + 10.0 * gp
    loss.backward()
    copt.step()
    copt.clear_grad()
    rec["gp"].append([float(loss), float(gp)])
rec["gp_grad_flags"] = [gi.stop_gradient, xi.grad is None]

# --- 4. paddle.grad options ---
a = leaf([0.5, -1.0, 2.0])
b = leaf([1.5, 0.3, -0.7])
unused = leaf([1.0, 1.0, 1.0])
f = (a * b).exp().sum() + (a ** 2 * b).sum()
ga, gb = paddle.grad(f, [a, b], retain_graph=True)
gu = paddle.grad(f, [a, unused], allow_unused=True, retain_graph=True)
rec["grad_basic"] = [v(ga), v(gb), v(gu[0]), gu[1] is None, a.grad is None]
rec["grad_unused_error"] = attempt(lambda: paddle.grad(f, [unused], retain_graph=True))
hmid = a * b
k = (hmid * hmid + a).sum()
rec["no_grad_vars"] = v(paddle.grad(k, a, no_grad_vars=[hmid], retain_graph=True)[0])
rec["with_grad_vars"] = v(paddle.grad(k, a)[0])
m1 = a * b
m2 = a.sin()
go = paddle.grad([m1, m2], [a, b], grad_outputs=[paddle.to_tensor([1.0, 2.0, 3.0]), paddle.to_tensor([0.5, 0.5, 0.5])])
rec["grad_outputs"] = [v(g) for g in go]
f2 = (a ** 3).sum()
g_first = paddle.grad(f2, a, retain_graph=True)[0]
g_again = paddle.grad(f2, a)[0]
rec["retain_graph"] = [v(g_first), v(g_again)]
rec["grad_after_release"] = attempt(lambda: v(paddle.grad(f2, a)[0]))
f3 = (a ** 2).sum()
f3.backward(retain_graph=True)
f3.backward()
rec["backward_retain"] = v(a.grad)
a.clear_gradient()
f4 = (a ** 2).sum()
f4.backward()
rec["backward_twice_error"] = attempt(lambda: f4.backward())

# --- 5. grad mode nesting ---
w = leaf([2.0, 3.0])
modes = [paddle.is_grad_enabled()]
with paddle.no_grad():
    modes.append(paddle.is_grad_enabled())
    r1 = w * 2
    with paddle.enable_grad():
        modes.append(paddle.is_grad_enabled())
        r2 = w * 2
        with paddle.set_grad_enabled(False):
            modes.append(paddle.is_grad_enabled())
            r3 = w * 2
        modes.append(paddle.is_grad_enabled())
    modes.append(paddle.is_grad_enabled())
modes.append(paddle.is_grad_enabled())


@paddle.no_grad()
def infer(t):
    return t * 3, paddle.is_grad_enabled()


r4, inside = infer(w)
paddle.set_grad_enabled(False)
after_call = paddle.is_grad_enabled()
r5 = w * 2
paddle.set_grad_enabled(True)
with paddle.set_grad_enabled(True):
    r6 = w * 2
rec["grad_modes"] = [modes, inside, after_call, paddle.is_grad_enabled(),
                     [r.stop_gradient for r in (r1, r2, r3, r4, r5, r6)]]
(r2 * r6).sum().backward()
rec["grad_modes_backward"] = v(w.grad)

# --- 6. detach, clear_gradient, accumulation, stop_gradient toggled ---
p = leaf([1.0, -0.5, 2.0])
q = p * 3.0
d = q.detach()
rec["detach"] = [d.stop_gradient, v(d), (q * d).stop_gradient]
(q * d).sum().backward()
rec["detach_grad"] = v(p.grad)
p.clear_gradient(False)
rec["cleared_none"] = p.grad is None
(p * 2).sum().backward()
rec["after_clear_none"] = v(p.grad)
p.clear_gradient()
rec["cleared_zero"] = v(p.grad)
(p * p).sum().backward()
rec["gradient_numpy"] = [p.gradient().tolist(), str(p.gradient().dtype), v(p.grad_)]

acc_net = nn.Linear(3, 2)
set_params(acc_net, 3)
ref_net = nn.Linear(3, 2)
ref_net.set_state_dict(acc_net.state_dict())
acc_opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=acc_net.parameters())
ref_opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=ref_net.parameters())
XA = rng.standard_normal((12, 3)).astype("float32")
YA = rng.standard_normal((12, 2)).astype("float32")
rec["accum"] = []
for _ in range(3):
    for mb in range(3):                                  # 3 micro-batches of 4, one optimizer step
        sl = slice(mb * 4, mb * 4 + 4)
        (F.mse_loss(acc_net(paddle.to_tensor(XA[sl])), paddle.to_tensor(YA[sl])) / 3).backward()
    g_acc = v(acc_net.weight.grad)
    acc_opt.step()
    acc_opt.clear_grad()
    F.mse_loss(ref_net(paddle.to_tensor(XA)), paddle.to_tensor(YA)).backward()
    g_ref = v(ref_net.weight.grad)
    ref_opt.step()
    ref_opt.clear_grad(set_to_zero=False)
    rec["accum"].append([g_acc, g_ref, ref_net.weight.grad is None])
rec["accum_weights"] = [v(acc_net.weight), v(ref_net.weight)]

frz = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
set_params(frz, 4)
fopt = paddle.optimizer.Adam(learning_rate=0.05, parameters=frz.parameters())
rec["freeze"] = []
for step in range(8):
    if step == 3:
        for prm in frz[0].parameters():
            prm.stop_gradient = True                     # freeze the first layer
    if step == 6:
        frz[0].weight.stop_gradient = False              # unfreeze its weight only
    out = frz(paddle.to_tensor(XA[:6]))
    loss = (out ** 2).mean()
    loss.backward()
    rec["freeze"].append([float(loss), frz[0].weight.grad is None, frz[0].bias.grad is None,
                          v(frz[0].weight)[0]])
    fopt.step()
    fopt.clear_grad()

# --- 7. saved_tensors_hooks offloading to numpy ---
packed = []


def pack(t):
    packed.append([list(t.shape), str(t.dtype)])
    return t.numpy()                                     # "offload" to host memory


def unpack(arr):
    return paddle.to_tensor(arr)


off = Net()
set_params(off, 5)
ref = Net()
ref.set_state_dict(off.state_dict())
oopt = paddle.optimizer.Adam(learning_rate=0.01, parameters=off.parameters())
ropt = paddle.optimizer.Adam(learning_rate=0.01, parameters=ref.parameters())
rec["offload"] = []
for step in range(4):
    xb, yb = paddle.to_tensor(X[step * 8:step * 8 + 8]), paddle.to_tensor(Y[step * 8:step * 8 + 8])
    with paddle.autograd.saved_tensors_hooks(pack, unpack):
        lo = F.mse_loss(off(xb), yb)
    lo.backward()
    lr_ = F.mse_loss(ref(xb), yb)
    lr_.backward()
    rec["offload"].append([float(lo), float(lr_), v(off.enc.weight.grad)[0], v(ref.enc.weight.grad)[0]])
    oopt.step()
    oopt.clear_grad()
    ropt.step()
    ropt.clear_grad()
rec["offload_packed_any"] = len(packed) > 0

# --- 8. backward(grad_tensor) on a non-scalar; paddle.autograd.backward with several tensors ---
s = leaf([[1.0, 2.0], [3.0, 4.0]])
o = s * s
o.backward(paddle.to_tensor([[1.0, 0.0], [0.5, -1.0]]))
rec["backward_grad_tensor"] = v(s.grad)
s.clear_gradient()
o2 = s.exp()
rec["nonscalar_no_grad_tensor"] = attempt(lambda: (o2.backward(), v(s.grad))[1])
s.clear_gradient()
t1 = s * 3.0
t2 = (s ** 2).sum()
t3 = s.mean(axis=0)
paddle.autograd.backward([t1, t2, t3], [paddle.ones([2, 2]) * 0.5, None, paddle.to_tensor([1.0, -1.0])])
rec["autograd_backward"] = v(s.grad)
s.clear_gradient()
u1 = s.sum()
u2 = (s * s).sum()
paddle.autograd.backward([u1, u2])
rec["autograd_backward_scalars"] = v(s.grad)
s.clear_gradient()
paddle.autograd.backward(s.tanh().sum())
rec["autograd_backward_single"] = v(s.grad)

# --- 9. misuse users hit, and small behaviours they rely on ---
cst = paddle.to_tensor([1.0, 2.0])
e = leaf([1.0, 2.0])
rec["hook_on_constant"] = attempt(lambda: cst.register_hook(lambda g: g) and "done")
fe = (e * e * 3.0).sum()
rec["grad_dup_inputs"] = attempt(lambda: paddle.grad(fe, [e, e], retain_graph=True))
rec["grad_dup_outputs"] = attempt(lambda: paddle.grad([fe, fe], e, retain_graph=True))
eh = leaf([1.0, 2.0])
eh.register_hook(lambda g: g.astype("float64"))
rec["hook_changes_dtype"] = attempt(lambda: (eh * eh).sum().backward())
rec["grad_constant_output"] = attempt(lambda: paddle.grad(cst * 2, e))
rec["grad_constant_input"] = attempt(lambda: paddle.grad((e * cst).sum(), cst))
rec["grad_nonscalar_ones"] = v(paddle.grad(e * 2, e)[0])
hh = e.register_hook(lambda g: g)
rec["remove_twice"] = [hh.remove(), hh.remove()]
lh = nn.Linear(2, 2).register_forward_pre_hook(lambda m, i: None)
rec["layer_remove_twice"] = [lh.remove(), lh.remove()]
packed.clear()
with paddle.autograd.saved_tensors_hooks(lambda t: (packed.append(list(t.shape)), t)[1], lambda t: t):
    zz = paddle.matmul(e.unsqueeze(0), (e * 2).unsqueeze(1))
rec["matmul_packed"] = packed


@paddle.set_grad_enabled(False)
def frozen(t):
    return t * 2


@paddle.enable_grad()
def tracked(t):
    return t * 2


with paddle.no_grad():
    inside_tracked = tracked(e).stop_gradient
rec["mode_decorators"] = [frozen(e).stop_gradient, inside_tracked, paddle.is_grad_enabled()]

# --- 10. hook order and keywords, hooks across backward calls and paddle.grad ---
ol = nn.Linear(2, 2)
ol.weight.set_value(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]))
ol.bias.set_value(paddle.zeros([2]))
order = []
ol.register_forward_pre_hook(lambda m, i: order.append("pre1"))
ol.register_forward_pre_hook(lambda m, i: order.append("pre0"), prepend=True)
ol.register_forward_post_hook(lambda m, i, o: order.append("post1"))
ol.register_forward_post_hook(lambda m, i, o: (order.append("post0"), o * 2)[1], prepend=True)
rec["hook_order"] = [v(ol(paddle.to_tensor([[1.0, 1.0]]))), order]


class Scaler(nn.Layer):
    def forward(self, x, scale=1.0):
        return x * scale


sc = Scaler()
sc.register_forward_pre_hook(lambda m, args, kwargs: (args, {"scale": kwargs.get("scale", 1.0) * 10}),
                             with_kwargs=True)
sc.register_forward_post_hook(lambda m, args, kwargs, o: o + kwargs["scale"], with_kwargs=True)
rec["hooks_with_kwargs"] = v(sc(paddle.to_tensor([1.0]), scale=2.0))
hw = leaf([1.0, 2.0])
count = []
hw.register_hook(lambda g: (count.append(1), g * 3)[1])
(hw * hw).sum().backward()
(hw * 2).sum().backward()
rec["hook_each_backward"] = [len(count), v(hw.grad)]
hw2 = leaf([1.0, 2.0])
hw2.register_hook(lambda g: g * 3)
hmid2 = hw2 * 1.0
hmid2.register_hook(lambda g: g * 5)
rec["hooks_paddle_grad"] = [v(paddle.grad((hw2 * hw2).sum(), hw2)[0]), v(paddle.grad((hmid2 * hmid2).sum(), hw2)[0]),
                            v(paddle.grad((hmid2 * hw2).sum(), hmid2)[0])]
q = leaf([2.0])
(gq,) = paddle.grad(q ** 3, q, create_graph=True)
gq.register_hook(lambda g: g * 10)
(gq * 1.0).sum().backward()
rec["hook_on_gradient"] = v(q.grad)
ri = leaf([1.0, 2.0])
rim = ri * 1.0
rim.register_hook(lambda g: g * 100)
rim.add_(paddle.to_tensor([1.0, 1.0]))
(rim * rim).sum().backward()
rec["hook_then_inplace"] = v(ri.grad)


class Gen:
    @paddle.no_grad()
    def steps(self, t):
        for i in range(2):
            yield paddle.is_grad_enabled(), (t * i).stop_gradient


rec["no_grad_generator"] = [list(r) for r in Gen().steps(hw)] + [paddle.is_grad_enabled()]
nl = nn.Linear(2, 1)
nl(paddle.ones([1, 2])).sum().backward()
nl.clear_gradients(set_to_zero=False)
cleared = nl.weight.grad is None
nl(paddle.ones([1, 2])).sum().backward()
nl.clear_gradients()
rec["layer_clear_gradients"] = [cleared, v(nl.weight.grad)]
dd = hw * 2
dd.detach_()
rec["detach_inplace"] = [dd.stop_gradient, dd.is_leaf, v(dd)]
rec["autograd_grad_alias"] = v(paddle.autograd.grad((hw * hw).sum(), hw)[0])

# --- 11. a state_dict hook adding an entry (as checkpoint code does) ---
ckpt = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
set_params(ckpt, 6)
sd_calls = []


def add_step(sd):
    sd_calls.append(sorted(sd))
    sd["step"] = paddle.to_tensor([15])


hsd = ckpt.register_state_dict_hook(add_step)
sd = ckpt.state_dict()
rec["state_dict_hook"] = [sorted(sd), v(sd["step"]), sd_calls, sorted(ckpt.state_dict(use_hook=False))]
hsd.remove()
rec["state_dict_hook_removed"] = sorted(ckpt.state_dict())

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
