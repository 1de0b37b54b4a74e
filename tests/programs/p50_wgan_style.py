"""GAN training details: a DCGAN-style generator (Linear to a 4x4 map, Conv2DTranspose with stride 2 and
output_padding, InstanceNorm2D, LeakyReLU, Tanh) and a discriminator whose layers carry
paddle.nn.utils.spectral_norm (power iterations in train mode, none in eval); hinge losses, an R1 penalty on real
images by paddle.grad(create_graph=True), two Adam optimizers with betas (0.0, 0.99), the discriminator frozen
during the generator step by p.stop_gradient = True/False on all its parameters, an EMA copy of the generator
updated under paddle.no_grad with lerp_ over zip(parameters), and eval-mode sampling from fixed numpy noise.
Then transposed convolutions with output_size and the functional form (output_padding, groups, dilation),
spectral_norm on a transposed convolution and with dim, lerp forms and paddle.grad's allow_unused.
Records losses, the spectral norms (sigma) and the u/v buffers, R1 values, gradients, and an EMA checksum.

Left out: Paddle 3.3.1 has no double grad for flatten (``paddle.grad(create_graph=True)`` through ``h.flatten(1)``
raises RuntimeError); the discriminator reshapes instead, which both libraries differentiate twice.
Not mirrored: Adam with Tensor betas (Paddle starts the bias-correction powers at 0.9 / 0.999 whatever the Tensor
holds, so ``beta1=paddle.to_tensor(0.5)`` takes a first step five times the learning rate; pylayer_jax corrects by
the given betas), and leaky_relu / lerp on integer tensors (Paddle has no integer kernel; pylayer_jax computes)."""
import copy
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.nn.utils import spectral_norm

rng = np.random.default_rng(0)
Z = 8
yy, xx = np.mgrid[:8, :8]
real_np = np.stack([np.sin((xx + i) / 2.0) * np.cos((yy - i) / 3.0) for i in range(32)])[:, None].astype("float32")
real_np = np.concatenate([real_np, -real_np], axis=1) * 0.8          # [32, 2, 8, 8]
noise_np = rng.standard_normal((40, 8, Z)).astype("float32")
fixed_noise = rng.standard_normal((4, Z)).astype("float32")


class Generator(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(Z, 8 * 2 * 2)
        self.up1 = nn.Conv2DTranspose(8, 6, 3, stride=2, padding=1, output_padding=1)      # 2 -> 4
        self.n1 = nn.InstanceNorm2D(6)
        self.up2 = nn.Conv2DTranspose(6, 4, 3, stride=2, padding=1, output_padding=1)      # 4 -> 8
        self.n2 = nn.InstanceNorm2D(4, weight_attr=False, bias_attr=False)
        self.out = nn.Conv2D(4, 2, 3, padding=1)

    def forward(self, z):
        h = F.leaky_relu(self.fc(z), 0.2).reshape([-1, 8, 2, 2])
        h = F.leaky_relu(self.n1(self.up1(h)), 0.2)
        h = nn.LeakyReLU(0.1)(self.n2(self.up2(h)))
        return paddle.tanh(self.out(h))


class Discriminator(nn.Layer):
    def __init__(self):
        super().__init__()
        self.c1 = spectral_norm(nn.Conv2D(2, 6, 3, stride=2, padding=1))
        self.c2 = spectral_norm(nn.Conv2D(6, 8, 3, stride=2, padding=1), n_power_iterations=2)
        self.fc = spectral_norm(nn.Linear(8 * 2 * 2, 1))
        self.act = nn.LeakyReLU(0.2)

    def forward(self, x):
        h = self.act(self.c1(x))
        h = self.act(self.c2(h))
        return self.fc(h.reshape([h.shape[0], -1]))


G, D = Generator(), Discriminator()
r = np.random.default_rng(1)
for net in (G, D):
    sd = net.state_dict()
    new = {}
    for k, v in sd.items():
        a = r.standard_normal(v.shape).astype("float32")
        if k.endswith(("_u", "_v")):
            a /= np.linalg.norm(a)
        elif "n1.weight" in k:
            a = 1.0 + 0.1 * a
        else:
            a *= 0.3
        new[k] = a
    net.set_state_dict(new)
rec = {"d_keys": sorted(D.state_dict().keys()), "g_keys": sorted(G.state_dict().keys()),
       "d_params": [n for n, _ in D.named_parameters()], "d_buffers": [n for n, _ in D.named_buffers()]}
G_ema = copy.deepcopy(G)
for p in G_ema.parameters():
    p.stop_gradient = True
opt_g = paddle.optimizer.Adam(learning_rate=2e-3, beta1=0.0, beta2=0.99, parameters=G.parameters())
opt_d = paddle.optimizer.Adam(learning_rate=4e-3, beta1=0.0, beta2=0.99, parameters=D.parameters())


def sigma(layer):
    w = layer.weight_orig
    mat = w.reshape([w.shape[0], -1]) if not isinstance(layer, nn.Linear) else w.t()
    return float(paddle.dot(layer.weight_u, paddle.mv(mat, layer.weight_v)))


def set_requires_grad(net, flag):
    for p in net.parameters():
        p.stop_gradient = not flag


rec.update({"d_loss": [], "g_loss": [], "r1": [], "sigma": [], "d_real": [], "g_grad": [], "d_grad_in_g": []})
r1_gamma = 1.0
for step in range(12):
    real = paddle.to_tensor(real_np[(step * 8) % 32:(step * 8) % 32 + 8])
    z = paddle.to_tensor(noise_np[step])
    # discriminator step: hinge loss, R1 on real images every other step
    set_requires_grad(D, True)
    fake = G(z).detach()
    real.stop_gradient = False
    d_real = D(real)
    d_loss = F.relu(1.0 - d_real).mean() + F.relu(1.0 + D(fake)).mean()
    if step % 2 == 0:
        g_real, = paddle.grad(outputs=d_real.sum(), inputs=real, create_graph=True)
        r1 = g_real.pow(2).reshape([g_real.shape[0], -1]).sum(1).mean()
        d_loss = d_loss + r1_gamma / 2 * r1
        rec["r1"].append(float(r1))
    opt_d.clear_grad()
    d_loss.backward()
    opt_d.step()
    rec["d_real"].append(float(d_real.mean()))
    # generator step: D frozen
    set_requires_grad(D, False)
    g_loss = -D(G(z)).mean()
    opt_g.clear_grad()
    g_loss.backward()
    rec["g_grad"].append(float(G.fc.weight.grad.abs().sum()))
    rec["d_grad_in_g"].append([p.grad is None for p in D.parameters()])
    opt_g.step()
    # EMA of the generator
    with paddle.no_grad():
        for p_ema, p in zip(G_ema.parameters(), G.parameters()):
            p_ema.lerp_(p, 0.1)
        for b_ema, b in zip(G_ema.buffers(), G.buffers()):
            b_ema.set_value(b)
    rec["d_loss"].append(float(d_loss))
    rec["g_loss"].append(float(g_loss))
    rec["sigma"].append([sigma(D.c1), sigma(D.c2), sigma(D.fc)])
set_requires_grad(D, True)
rec["uv"] = [D.c1.weight_u.numpy().tolist(), D.fc.weight_v.numpy().tolist()]

# eval: no power iteration, the same normalized weight on every call
D.eval()
w1 = D.c1.weight_u.numpy().copy()
x = paddle.to_tensor(real_np[:4])
o1, o2 = D(x), D(x)
rec["d_eval"] = [o1.numpy().tolist(), bool((o1 == o2).all()), bool((D.c1.weight_u.numpy() == w1).all())]
rec["sn_weight_sigma"] = float(paddle.linalg.norm(D.fc.weight, p=2))
rec["sn_weight_norm_c2"] = float(paddle.linalg.svd(D.c2.weight.reshape([8, -1]))[1][0])
D.train()
D(x)
rec["u_changed_in_train"] = not bool((D.c1.weight_u.numpy() == w1).all())

G.eval()
G_ema.eval()
with paddle.no_grad():
    zf = paddle.to_tensor(fixed_noise)
    s = G(zf)
    s_ema = G_ema(zf)
    rec["samples"] = [s.shape, float(s.mean()), float(s.std()), s[0, 0, :2].numpy().tolist()]
    rec["samples_ema"] = [float(s_ema.mean()), float(s_ema.std()), s_ema[1, 1, 3].numpy().tolist()]
rec["ema_checksum"] = float(sum(float(p.abs().sum()) for p in G_ema.parameters()))
rec["ema_dist"] = float(paddle.add_n([((p - q) ** 2).sum() for p, q in zip(G.parameters(), G_ema.parameters())]))
rec["ema_stop_gradient"] = [p.stop_gradient for p in G_ema.parameters()]
rec["g_train_after_eval"] = [G.training, G.n1.training]

# R1 alone: its gradient to D's weights through the double backward (LeakyReLU, spectral norm)
D.eval()
xr = paddle.to_tensor(real_np[4:6], stop_gradient=False)
gx, = paddle.grad(D(xr).sum(), xr, create_graph=True)
pen = (gx ** 2).sum()
pen.backward()
rec["r1_grads"] = [float(pen), float(D.c1.weight_orig.grad.abs().sum()), D.fc.weight_orig.grad.numpy().ravel().tolist()[:6],
                   float(D.c2.bias.grad.abs().sum())]

# transposed convolutions: output_size at call time, the functional form with output_padding, groups, dilation
ct = nn.Conv2DTranspose(2, 4, 3, stride=2, padding=1)
ct.weight.set_value(r.standard_normal(ct.weight.shape).astype("float32") * 0.3)
ct.bias.set_value(r.standard_normal(ct.bias.shape).astype("float32") * 0.1)
xi = paddle.to_tensor(real_np[:2, :, :4, :4], stop_gradient=False)
ct_op = nn.Conv2DTranspose(2, 3, 3, stride=2, padding=1, output_padding=1)   # output_size at the call wins
shapes = [ct(xi).shape, ct(xi, output_size=[8, 8]).shape, ct(xi, output_size=[7, 7]).shape, ct_op(xi).shape,
          ct_op(xi, output_size=[7, 7]).shape]
wt = paddle.to_tensor(r.standard_normal((2, 3, 3, 3)).astype("float32"), stop_gradient=False)
y1 = F.conv2d_transpose(xi, wt, stride=2, padding=1, output_padding=1, groups=2)
y2 = F.conv2d_transpose(xi, wt[:, :2], stride=[2, 3], padding=[1, 0], output_padding=[0, 2], dilation=2)
y3 = F.conv2d_transpose(xi, wt, stride=2, output_size=[10, 10], groups=2)
shapes += [y1.shape, y2.shape, y3.shape]
(y1.sum() + (y2 ** 2).sum() + y3.mean() + ct(xi, output_size=[8, 8]).pow(2).mean()).backward()
rec["convT"] = [shapes, y1.numpy().sum(axis=(2, 3)).tolist(), y2[0, 1, 1].numpy().tolist(),
                xi.grad.numpy().sum(axis=(2, 3)).tolist(), wt.grad.numpy().ravel().tolist()[:9],
                float(ct.weight.grad.abs().sum())]
try:
    ct(xi, output_size=[11, 11])
    rec["convT_bad_size"] = "ok"
except ValueError as e:
    rec["convT_bad_size"] = type(e).__name__

# spectral norm on a transposed convolution (dim 1) and with an explicit dim; eps; a second registration
snt = spectral_norm(nn.Conv2DTranspose(3, 5, 3), n_power_iterations=3)
snd = spectral_norm(nn.Conv2D(3, 4, 3), dim=1, eps=1e-6)
for lay in (snt, snd):
    lay.set_state_dict({k: (r.standard_normal(v.shape) * (1.0 if k.endswith(("_u", "_v")) else 0.4)).astype("float32")
                        for k, v in lay.state_dict().items()})
    lay.weight_u.set_value(lay.weight_u / paddle.linalg.norm(lay.weight_u))
    lay.weight_v.set_value(lay.weight_v / paddle.linalg.norm(lay.weight_v))
xin = paddle.to_tensor(rng.standard_normal((1, 3, 5, 5)).astype("float32"))
rec["sn_shapes"] = [snt.weight_u.shape, snt.weight_v.shape, snd.weight_u.shape, snd.weight_v.shape]
rec["sn_out"] = [float(snt(xin).abs().sum()), float(snd(xin).abs().sum()), snt.weight_u.numpy().tolist(),
                 snd.weight_v.numpy().tolist()[:5]]
try:
    spectral_norm(snd)
    rec["sn_twice"] = "ok"
except RuntimeError as e:
    rec["sn_twice"] = type(e).__name__

# lerp forms, a no_grad decorator, allow_unused
a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
b = paddle.to_tensor([3.0, 0.0, -1.0], stop_gradient=False)
wl = paddle.to_tensor([0.2, 0.5, 0.9], stop_gradient=False)
out = paddle.lerp(a, b, wl) * paddle.to_tensor([1.0, 2.0, 3.0])
ga, gb, gw = paddle.grad(out.sum(), [a, b, wl], allow_unused=True)
rec["lerp"] = [out.numpy().tolist(), ga.numpy().tolist(), gb.numpy().tolist(), gw is None,
               paddle.lerp(a, b, 0.25).numpy().tolist()]
c = a.detach().clone()
c.lerp_(b.detach(), paddle.to_tensor(0.5))
rec["lerp_inplace"] = c.numpy().tolist()


@paddle.no_grad()
def sample(n):
    return G_ema(paddle.to_tensor(fixed_noise[:n]))


sm = sample(2)
rec["no_grad_decorator"] = [sm.stop_gradient, float(sm.sum())]
unused = paddle.to_tensor([1.0], stop_gradient=False)
ga, gu = paddle.grad((a * 2).sum(), [a, unused], allow_unused=True)
rec["allow_unused"] = [ga.numpy().tolist(), gu is None]
try:
    paddle.grad((a * 2).sum(), [a, unused])
    rec["unused_error"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["unused_error"] = type(e).__name__
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
