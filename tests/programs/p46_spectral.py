"""FFT-heavy scientific code: a 2-D Fourier neural operator (spectral convolution by ``paddle.fft.rfft2`` /
``irfft2`` with each norm mode, complex weights kept as two real parameters and combined by ``paddle.complex``,
``paddle.einsum`` on complex tensors, the low modes sliced from both ends of the frequency axis) trained 20 steps
by AdamW on a smoothing operator, with a spectral loss (the error of the output's spectrum by ``paddle.abs``);
its parameters' gradients; the 1-D and n-D transforms (fft / ifft / rfft / irfft / fftn / ifftn / rfftn / hfft /
ihfft / fft2 with ``s``, ``axes`` and ``norm``), ``fftshift`` / ``ifftshift`` / ``fftfreq`` / ``rfftfreq``,
``paddle.real`` / ``imag`` / ``abs`` / ``angle`` / ``conj`` / ``as_real`` / ``as_complex`` and their gradients
(complex gradients as Paddle gives them); a complex64 parameter made by ``paddle.create_parameter`` (with a
Constant initializer; the default initializer and AdamW refuse complex dtypes, the error types are recorded)
trained by hand under ``no_grad``.

Left out: Paddle 3.3.1's ``fftshift`` / ``ifftshift`` fail (a SystemError from ``roll``) whenever they shift one axis
only (a 1-D tensor, or ``axes`` naming one axis); pylayer_jax shifts it (as numpy's ``fftshift``). Paddle's
``nn.initializer.Assign`` refuses a complex array (ValueError: Unsupported dtype), and its SGD and Momentum have no
complex kernel (RuntimeError at ``step``); pylayer_jax initializes from the complex array, and SGD and Momentum
update a complex parameter by gradient descent (the adaptive optimizers refuse it with a RuntimeError, as Paddle's,
recorded here for AdamW)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
rec = {}


def c2l(t):
    a = t.numpy()
    return [a.real.astype("float64").tolist(), a.imag.astype("float64").tolist()]


# ---- transforms -------------------------------------------------------------------------------
x = rng.standard_normal((4, 8)).astype("float32")
xt = paddle.to_tensor(x)
for norm in ("backward", "ortho", "forward"):
    rec[f"fft_{norm}"] = c2l(paddle.fft.fft(xt, norm=norm))
    rec[f"rfft_{norm}"] = c2l(paddle.fft.rfft(xt, n=10, norm=norm))
    rec[f"irfft_{norm}"] = paddle.fft.irfft(paddle.fft.rfft(xt, norm=norm), n=8, norm=norm).numpy().tolist()
    rec[f"fft2_{norm}"] = c2l(paddle.fft.fft2(xt, s=[3, 6], norm=norm))
    rec[f"hfft_{norm}"] = paddle.fft.hfft(paddle.fft.ihfft(xt, norm=norm), n=8, norm=norm).numpy().tolist()
c = paddle.fft.fft(xt, axis=0)
rec["fft_dtype"] = str(c.dtype)
rec["ifft"] = c2l(paddle.fft.ifft(c, axis=0))
x3 = paddle.to_tensor(rng.standard_normal((2, 4, 6)).astype("float32"))
rec["fftn"] = c2l(paddle.fft.fftn(x3, axes=[1, 2]))
rec["ifftn"] = c2l(paddle.fft.ifftn(paddle.fft.fftn(x3), s=[2, 4, 6]))
rec["rfftn"] = c2l(paddle.fft.rfftn(x3, s=[4, 4], axes=[0, 2]))
rec["irfftn_shape"] = paddle.fft.irfftn(paddle.fft.rfftn(x3), s=[2, 4, 6]).shape
rec["ihfft_shape"] = [paddle.fft.ihfft(xt).shape, str(paddle.fft.ihfft(xt).dtype)]
rec["fftfreq"] = paddle.fft.fftfreq(8, d=0.5).numpy().tolist()
rec["rfftfreq"] = paddle.fft.rfftfreq(9, d=0.1).numpy().tolist()
rec["fftfreq_dtype"] = [str(paddle.fft.fftfreq(4).dtype), str(paddle.fft.fftfreq(4, dtype="float64").dtype)]
rec["fftshift"] = paddle.fft.fftshift(paddle.arange(15).reshape([3, 5])).numpy().tolist()
rec["fftshift3"] = paddle.fft.fftshift(paddle.arange(24.0).reshape([2, 3, 4]), axes=(1, 2)).numpy().tolist()
rec["ifftshift"] = paddle.fft.ifftshift(paddle.fft.fftshift(paddle.arange(21).reshape([3, 7]))).numpy().tolist()
rec["ifftshift_all"] = paddle.fft.ifftshift(paddle.arange(12).reshape([3, 4]), axes=[0, 1]).numpy().tolist()

# complex utilities
z = paddle.complex(paddle.to_tensor([1.0, -2.0, 0.0]), paddle.to_tensor([1.0, 0.5, -3.0]))
rec["cplx"] = [str(z.dtype), paddle.real(z).numpy().tolist(), paddle.imag(z).numpy().tolist(),
               paddle.abs(z).numpy().tolist(), paddle.angle(z).numpy().tolist(), c2l(paddle.conj(z)),
               str(paddle.abs(z).dtype), z.is_complex(), paddle.is_complex(paddle.real(z))]
ar = paddle.as_real(z)
rec["as_real"] = [ar.shape, ar.numpy().tolist()]
rec["as_complex"] = c2l(paddle.as_complex(paddle.to_tensor(rng.standard_normal((2, 3, 2)).astype("float32"))))
rec["cplx_methods"] = [z.real().numpy().tolist(), z.imag().numpy().tolist(), c2l(z.conj()), c2l(z * z.conj())]

# gradients through complex ops
a = paddle.to_tensor(rng.standard_normal((3, 4)).astype("float32"), stop_gradient=False)
b = paddle.to_tensor(rng.standard_normal((3, 4)).astype("float32"), stop_gradient=False)
zz = paddle.complex(a, b)
f = paddle.fft.fft(zz * zz, axis=1)
loss = (paddle.abs(f) ** 2).mean() + paddle.real(f).sum() * 0.1 + paddle.angle(f + 1.0).sum() * 0.01
loss.backward()
rec["cgrad"] = [loss.item(), a.grad.numpy().tolist(), b.grad.numpy().tolist()]
u = paddle.to_tensor(rng.standard_normal((6,)).astype("float32"), stop_gradient=False)
r = paddle.fft.irfft(paddle.fft.rfft(u) * paddle.to_tensor(np.array([1, 0.5, 0.25, 0.1], "float32")), n=6)
(r * paddle.arange(6, dtype="float32")).sum().backward()
rec["rfft_grad"] = u.grad.numpy().tolist()
w = paddle.to_tensor(rng.standard_normal((2, 3, 2)).astype("float32"), stop_gradient=False)
cw = paddle.as_complex(w)
(paddle.as_real(cw.conj() * paddle.to_tensor(np.array([1 + 2j, 0.5j, -1], "complex64"))) ** 2).sum().backward()
rec["as_complex_grad"] = w.grad.numpy().tolist()
# a leaf complex tensor: its gradient as Paddle gives it (conjugate Wirtinger convention)
cl = paddle.to_tensor(np.array([1 + 1j, 2 - 1j], "complex64"), stop_gradient=False)
(paddle.abs(cl) ** 2 + paddle.real(cl * (0.5 + 2j))).sum().backward()
rec["complex_leaf_grad"] = c2l(cl.grad)


# ---- a Fourier neural operator -----------------------------------------------------------------
class SpectralConv2d(nn.Layer):
    def __init__(self, cin, cout, m1, m2, norm):
        super().__init__()
        self.m1, self.m2, self.norm, self.cout = m1, m2, norm, cout
        scale = 1.0 / (cin * cout)
        r = np.random.default_rng(5)
        self.w_re = self.create_parameter([2, cin, cout, m1, m2], default_initializer=nn.initializer.Assign(
            (scale * r.random((2, cin, cout, m1, m2))).astype("float32")))
        self.w_im = self.create_parameter([2, cin, cout, m1, m2], default_initializer=nn.initializer.Assign(
            (scale * r.random((2, cin, cout, m1, m2))).astype("float32")))

    def forward(self, x):
        B, C, H, W = x.shape
        xf = paddle.fft.rfft2(x, norm=self.norm)
        w = paddle.complex(self.w_re, self.w_im)
        top = paddle.einsum("bixy,ioxy->boxy", xf[:, :, :self.m1, :self.m2], w[0])
        bot = paddle.einsum("bixy,ioxy->boxy", xf[:, :, -self.m1:, :self.m2], w[1])
        mid = paddle.zeros([B, self.cout, H - 2 * self.m1, self.m2], dtype="complex64")
        left = paddle.concat([top, mid, bot], axis=2)
        out_ft = paddle.concat([left, paddle.zeros([B, self.cout, H, W // 2 + 1 - self.m2], dtype="complex64")],
                               axis=3)
        return paddle.fft.irfft2(out_ft, s=[H, W])  # (the forward transform's norm sets the scale)


class FNO(nn.Layer):
    def __init__(self, width=4, modes=3, norm="backward"):
        super().__init__()
        self.lift = nn.Linear(3, width)
        self.specs = nn.LayerList([SpectralConv2d(width, width, modes, modes, norm) for _ in range(2)])
        self.ws = nn.LayerList([nn.Conv2D(width, width, 1) for _ in range(2)])
        self.proj = nn.Linear(width, 1)

    def forward(self, u):
        B, H, W = u.shape
        gx = paddle.linspace(0, 1, H).reshape([1, H, 1]).expand([B, H, W])
        gy = paddle.linspace(0, 1, W).reshape([1, 1, W]).expand([B, H, W])
        h = self.lift(paddle.stack([u, gx, gy], axis=-1)).transpose([0, 3, 1, 2])
        for i, (s, w) in enumerate(zip(self.specs, self.ws)):
            h = s(h) + w(h)
            if i == 0:
                h = F.gelu(h)
        return self.proj(h.transpose([0, 2, 3, 1])).squeeze(-1)


H = W = 8
U = rng.standard_normal((6, H, W)).astype("float32")
kx = np.fft.fftfreq(H)[:, None]
ky = np.fft.rfftfreq(W)[None, :]
V = np.fft.irfft2(np.fft.rfft2(U) * np.exp(-20 * (kx ** 2 + ky ** 2)), s=(H, W)).astype("float32")


def spectral_loss(pred, tgt):
    pf, tf = paddle.fft.rfft2(pred, norm="ortho"), paddle.fft.rfft2(tgt, norm="ortho")
    return paddle.abs(pf - tf).pow(2).mean() + 0.5 * F.mse_loss(pred, tgt)


for norm in ("backward", "ortho", "forward"):
    model = FNO(norm=norm)
    r = np.random.default_rng(9)
    model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32")
                          for k, v in model.state_dict().items() if not k.startswith("specs")})
    opt = paddle.optimizer.AdamW(learning_rate=0.01, weight_decay=0.01, parameters=model.parameters())
    losses = []
    for step in range(20):
        i = (step % 3) * 2
        pred = model(paddle.to_tensor(U[i:i + 2]))
        loss = spectral_loss(pred, paddle.to_tensor(V[i:i + 2]))
        loss.backward()
        if step == 0:
            rec[f"fno_{norm}_grads"] = {n: p.grad.numpy().tolist() for n, p in model.named_parameters()
                                        if n.startswith("specs.0")}
        opt.step()
        opt.clear_grad()
        losses.append(loss.item())
    rec[f"fno_{norm}_loss"] = losses
    model.eval()
    with paddle.no_grad():
        rec[f"fno_{norm}_eval"] = model(paddle.to_tensor(U[:1])).numpy().tolist()
rec["fno_keys"] = list(model.state_dict().keys())

# ---- complex parameters -------------------------------------------------------------------------
try:
    paddle.create_parameter([2, 3], "complex64")
    rec["cparam_default_init"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["cparam_default_init"] = type(e).__name__
cp = paddle.create_parameter([4], "complex64", default_initializer=nn.initializer.Constant(0.5))
rec["cparam"] = [str(cp.dtype), cp.stop_gradient, c2l(cp)]
try:
    paddle.optimizer.AdamW(learning_rate=0.1, parameters=[cp])
    (paddle.abs(cp) ** 2).sum().backward()
    paddle.optimizer.AdamW(learning_rate=0.1, parameters=[cp]).step()
    rec["cparam_adamw"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["cparam_adamw"] = type(e).__name__
cp.clear_gradient()
target = paddle.to_tensor(np.array([1 + 1j, -1j, 2, 0.5 - 0.5j], "complex64"))
closs = []
for _ in range(10):
    lc = (paddle.abs(paddle.fft.fft(cp) - target) ** 2).sum()
    lc.backward()
    with paddle.no_grad():
        cp.set_value(cp - 0.05 * cp.grad)
    cp.clear_gradient()
    closs.append(lc.item())
rec["cparam_loss"] = closs
rec["cparam_final"] = c2l(cp)

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
