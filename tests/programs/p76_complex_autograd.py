"""Complex tensors in training code: creation (``to_tensor`` of Python complex numbers and lists of them, numpy
complex64/complex128 arrays, ``paddle.complex``, ``as_complex`` / ``as_real``, ``zeros`` / ``ones`` / ``full`` with a
complex dtype, ``astype`` to and from complex); ``real`` / ``imag`` / ``angle`` / ``conj`` / ``abs`` as functions and
methods; arithmetic mixing complex with real tensors and Python scalars (the result dtypes); complex ``matmul``;
``exp`` / ``log`` / ``sqrt`` / ``sin`` / ``tanh`` / ``pow`` / ``reciprocal`` / ``square`` of complex tensors;
reductions (``sum`` / ``mean``), reshaping and concatenation of complex tensors; fft round trips. GRADIENTS: of real
losses built from complex intermediates back to real parameters (``paddle.complex``, ``polar``, ``as_complex``), and
to complex leaves for ``abs(z)**2``, ``abs(z)``, ``real(z*w)``, ``imag(z*w)``, ``angle(z)``, ``real(exp(z))``,
``abs(log(z))``, ``real(sqrt(z))``, ``abs(z @ W)``, ``abs(z / w)``, ``real(fft(z))``, ``as_real(z)**2``, ... (Paddle
gives a complex leaf the gradient dL/dRe + i dL/dIm); a complex-valued linear layer (real/imag weight pairs)
trained by Adam on a complex regression; a complex64 parameter by ``create_parameter``, its gradient clipped by
``clip_grad_norm_``, with the error Adam raises for it; and what ``print`` shows of complex tensors, their dtypes and gradients.

Left out: Paddle 3.3.1 has no complex kernel for ``bmm``, ``mv``, ``maximum``, ``sort``, ``clip``, ``var``,
``allclose`` and ``rsqrt`` (RuntimeError); pylayer_jax computes them. The repr of a dtype (``<DataType.COMPLEX64: 12>``
in Paddle) is a deliberate difference (see p57). Paddle's gradients of ``prod`` and ``matrix_power`` of a complex
leaf are wrong (they disagree with finite differences of the real and imaginary parts); pylayer_jax's agree, so those
are checked against JAX in tests/test_program_diffs_aa.py instead."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn

rec = {}
rng = np.random.default_rng(0)


def c2l(t):
    a = np.asarray(t.numpy())
    return [str(t.dtype), list(t.shape), a.real.astype("float64").tolist(), a.imag.astype("float64").tolist()]


def attempt(f):
    try:
        return ["ok", f()]
    except Exception as e:  # the type is what users catch
        return ["error", type(e).__name__]


def crand(*shape, dtype="complex64"):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


# --- creation -----------------------------------------------------------------------------------------------------
rec["create"] = {
    "py_complex": attempt(lambda: c2l(paddle.to_tensor(1.5 - 2j))),
    "py_complex_list": attempt(lambda: c2l(paddle.to_tensor([1j, 2, 3.5]))),
    "py_complex_dtype128": attempt(lambda: c2l(paddle.to_tensor([1 + 1j], dtype="complex128"))),
    "np_c128": attempt(lambda: c2l(paddle.to_tensor(np.array([1 + 2j, 3 - 4j])))),
    "np_c64": attempt(lambda: c2l(paddle.to_tensor(np.array([[1 + 2j]], dtype="complex64")))),
    "real_to_complex_dtype": attempt(lambda: c2l(paddle.to_tensor([1.0, 2.0], dtype="complex64"))),
    "complex_fn": attempt(lambda: c2l(paddle.complex(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0])))),
    "complex_fn_f64": attempt(lambda: c2l(paddle.complex(paddle.to_tensor([1.0], dtype="float64"),
                                                         paddle.to_tensor([3.0], dtype="float64")))),
    "as_complex": attempt(lambda: c2l(paddle.as_complex(paddle.arange(8, dtype="float32").reshape([2, 2, 2])))),
    "as_real": attempt(lambda: c2l(paddle.as_real(paddle.to_tensor(np.array([1 + 2j, 3j], "complex64"))))),
    "zeros_c64": attempt(lambda: c2l(paddle.zeros([2], dtype="complex64"))),
    "ones_c128": attempt(lambda: c2l(paddle.ones([1, 2], dtype=paddle.complex128))),
    "full_complex_dtype": attempt(lambda: c2l(paddle.full([2], 3.0, dtype="complex64"))),
    "zeros_like_c": attempt(lambda: c2l(paddle.zeros_like(paddle.to_tensor([1j, 2j])))),
    "astype_c64": attempt(lambda: c2l(paddle.to_tensor([1.5, -2.0]).astype("complex64"))),
    "astype_c128_from_int": attempt(lambda: c2l(paddle.to_tensor([1, 2]).astype("complex128"))),
    "astype_c64_to_c128": attempt(lambda: c2l(paddle.to_tensor([1 + 1j]).astype("complex128"))),
    "is_complex": attempt(lambda: [paddle.is_complex(paddle.to_tensor([1j])), paddle.to_tensor([1.0]).is_complex(),
                                   paddle.is_floating_point(paddle.to_tensor([1j]))]),
}

# --- elementwise functions and dtypes --------------------------------------------------------------------------------
z = paddle.to_tensor(crand(2, 3))
w = paddle.to_tensor(crand(2, 3))
r32 = paddle.to_tensor(rng.standard_normal((2, 3)).astype("float32"))
r64 = paddle.to_tensor(rng.standard_normal((2, 3)))
z128 = paddle.to_tensor(crand(2, 3, dtype="complex128"))
funcs = {
    "real": lambda: paddle.real(z), "imag": lambda: paddle.imag(z), "angle": lambda: paddle.angle(z),
    "conj": lambda: paddle.conj(z), "abs": lambda: paddle.abs(z), "real_m": lambda: z.real(),
    "imag_m": lambda: z.imag(), "conj_m": lambda: z.conj(), "abs_m": lambda: z.abs(), "angle_m": lambda: z.angle(),
    "exp": lambda: paddle.exp(z), "log": lambda: paddle.log(z), "sqrt": lambda: paddle.sqrt(z),
    "sin": lambda: paddle.sin(z), "cos": lambda: paddle.cos(z), "tanh": lambda: paddle.tanh(z),
    "square": lambda: paddle.square(z), "reciprocal": lambda: paddle.reciprocal(z), "neg": lambda: -z,
    "pow2": lambda: z ** 2, "pow_half": lambda: paddle.pow(z, 0.5), "add": lambda: z + w, "sub": lambda: z - w,
    "mul": lambda: z * w, "div": lambda: z / w, "mul_real32": lambda: z * r32, "real32_mul": lambda: r32 * z,
    "add_real64": lambda: z + r64, "mul_c128": lambda: z * z128, "add_pyfloat": lambda: z + 1.5,
    "mul_pycomplex": lambda: z * (2 - 1j), "pycomplex_sub": lambda: (1 + 1j) - z, "div_pyint": lambda: z / 2,
    "sum": lambda: z.sum(), "sum_axis": lambda: paddle.sum(z, axis=1), "mean": lambda: z.mean(),
    "prod": lambda: paddle.prod(z, axis=0), "cumsum": lambda: paddle.cumsum(z, axis=1),
    "transpose": lambda: z.t(), "reshape": lambda: z.reshape([3, 2]), "concat": lambda: paddle.concat([z, w]),
    "stack": lambda: paddle.stack([z, w], axis=-1)[..., 1], "flip": lambda: paddle.flip(z, [1]),
    "index": lambda: z[1, ::2], "where": lambda: paddle.where(r32 > 0, z, w), "matmul": lambda: z @ w.T,
    "matmul_fn": lambda: paddle.matmul(z, w, transpose_y=True),
    "dot": lambda: paddle.dot(z[0], w[0]),
    "mul_real_matmul": lambda: paddle.matmul(z, r32.T.astype("complex64")),
    "equal": lambda: (z == z).astype("int32"), "not_equal": lambda: (z != w).astype("int32"),
    "isfinite": lambda: paddle.isfinite(z).astype("int32"), "scale": lambda: paddle.scale(z, 2.0, 1.0),
    "linalg_norm": lambda: paddle.linalg.norm(z), "kron": lambda: paddle.kron(z[0, :2], w[0, :2]),
    "trace": lambda: paddle.trace(z[:, :2]), "outer": lambda: paddle.outer(z[0], w[1]),
}
rec["funcs"] = {k: attempt(lambda f=f: c2l(f())) for k, f in funcs.items()}

# --- fft round trips ------------------------------------------------------------------------------------------------
sig = paddle.to_tensor(rng.standard_normal((3, 8)).astype("float32"))
cs = paddle.to_tensor(crand(3, 8))
rec["fft"] = {
    "fft_ifft": attempt(lambda: c2l(paddle.fft.ifft(paddle.fft.fft(cs)))),
    "fft2_ifft2": attempt(lambda: c2l(paddle.fft.ifft2(paddle.fft.fft2(cs, norm="ortho"), norm="ortho"))),
    "rfft_irfft": attempt(lambda: c2l(paddle.fft.irfft(paddle.fft.rfft(sig), n=8))),
    "rfft_odd": attempt(lambda: c2l(paddle.fft.irfft(paddle.fft.rfft(sig[:, :7]), n=7))),
    "fftn_c128": attempt(lambda: c2l(paddle.fft.fftn(cs.astype("complex128"), axes=[0]))),
    "fft_of_real": attempt(lambda: c2l(paddle.fft.fft(sig, n=4))),
    "hfft": attempt(lambda: c2l(paddle.fft.hfft(cs, n=6))),
    "ihfft": attempt(lambda: c2l(paddle.fft.ihfft(sig))),
    "fftshift_c": attempt(lambda: c2l(paddle.fft.fftshift(cs, axes=[0, 1]))),
}

# --- gradients to complex leaves -------------------------------------------------------------------------------------
Z0, W0, M0 = crand(4), crand(4), crand(4, 3)
C0 = np.array([0.5 + 2j, -1 + 0.5j, 1j, 2], "complex64")


def leaf(a):
    return paddle.to_tensor(a, stop_gradient=False)


losses = {
    "abs_sq": lambda z, w, m: (paddle.abs(z) ** 2).sum(),
    "abs": lambda z, w, m: paddle.abs(z).sum(),
    "real_zw": lambda z, w, m: paddle.real(z * w).sum(),
    "imag_zw": lambda z, w, m: paddle.imag(z * w).sum(),
    "real_conj_zw": lambda z, w, m: paddle.real(z.conj() * w).sum(),
    "angle": lambda z, w, m: paddle.angle(z).sum(),
    "real_exp": lambda z, w, m: paddle.real(paddle.exp(z)).sum(),
    "imag_exp": lambda z, w, m: paddle.imag(paddle.exp(z)).sum(),
    "abs_log": lambda z, w, m: paddle.abs(paddle.log(z)).sum(),
    "real_sqrt": lambda z, w, m: paddle.real(paddle.sqrt(z)).sum(),
    "abs_div": lambda z, w, m: paddle.abs(z / w).sum(),
    "abs_matmul": lambda z, w, m: paddle.abs(z @ m).sum(),
    "real_matmul_c": lambda z, w, m: paddle.real((z @ m) * paddle.to_tensor(C0[:3])).sum(),
    "real_fft": lambda z, w, m: (paddle.real(paddle.fft.fft(z)) * paddle.arange(4, dtype="float32")).sum(),
    "abs_ifft_sq": lambda z, w, m: (paddle.abs(paddle.fft.ifft(z * w)) ** 2).sum(),
    "as_real_sq": lambda z, w, m: (paddle.as_real(z) ** 2 * paddle.to_tensor([1.0, 3.0])).sum(),
    "abs_pow": lambda z, w, m: paddle.abs(z ** 2).sum(),
    "real_z_zconj": lambda z, w, m: (z * z.conj()).real().sum(),
    "real_sin": lambda z, w, m: paddle.real(paddle.sin(z) * paddle.to_tensor(C0)).sum(),
    "abs_tanh": lambda z, w, m: paddle.abs(paddle.tanh(z)).sum(),
    "real_reciprocal": lambda z, w, m: paddle.real(paddle.reciprocal(z)).sum(),
    "real_sum_c": lambda z, w, m: paddle.real(paddle.sum(z * paddle.to_tensor(C0))),
    "abs_mean": lambda z, w, m: paddle.abs(paddle.mean(z * w)),
    "real_cumsum": lambda z, w, m: (paddle.real(paddle.cumsum(z)) * paddle.to_tensor([1.0, -1.0, 2.0, 0.5])).sum(),
    "abs_concat_index": lambda z, w, m: paddle.abs(paddle.concat([z[:2], w[1:]])).sum(),
    "real_mul_real": lambda z, w, m: paddle.real(z * paddle.to_tensor([1.0, 2.0, 3.0, 4.0])).sum(),
    "abs_add_pycomplex": lambda z, w, m: paddle.abs(z + (1 - 2j)).sum(),
    "real_dot": lambda z, w, m: paddle.real(paddle.dot(z, w)),
    "imag_scale": lambda z, w, m: paddle.imag(z * 3.0 - w).sum(),
    "norm": lambda z, w, m: paddle.linalg.norm(z),
    "norm_m_axis": lambda z, w, m: paddle.linalg.norm(m, p=3, axis=1).sum(),
    "vector_norm_1": lambda z, w, m: paddle.linalg.vector_norm(z * w, p=1),
    "vector_norm_inf": lambda z, w, m: paddle.linalg.vector_norm(m, p=float("inf"), axis=0, keepdim=True).sum(),
    "tensor_norm": lambda z, w, m: (z - w).norm(),
    "angle_at_zero": lambda z, w, m: paddle.angle(z * paddle.to_tensor([0.0, 1.0, 0.0, 1.0])).sum(),
    "abs_at_zero": lambda z, w, m: paddle.abs(z * paddle.to_tensor([0.0, 1.0, 0.0, 1.0])).sum(),
}
rec["leaf_grads"] = {}
for k, f in losses.items():
    def run(f=f):
        zl, wl, ml = leaf(Z0), leaf(W0), leaf(M0)
        loss = f(zl, wl, ml)
        loss.backward()
        return [float(loss.item()), str(loss.dtype)] + [None if t.grad is None else c2l(t.grad) for t in (zl, wl, ml)]
    rec["leaf_grads"][k] = attempt(run)

# paddle.grad on a complex input, and a second backward accumulating
zl = leaf(Z0)
g = paddle.grad((paddle.abs(zl) ** 2).sum(), zl)[0]
rec["paddle_grad_complex"] = c2l(g)
zl = leaf(Z0)
(paddle.abs(zl) ** 2).sum().backward()
paddle.angle(zl).sum().backward()
rec["accumulated"] = c2l(zl.grad)
rec["grad_print"] = str(zl.grad.numpy().round(3))

# --- gradients to real parameters through complex intermediates -------------------------------------------------------
a = paddle.to_tensor(rng.standard_normal(4).astype("float32"), stop_gradient=False)
b = paddle.to_tensor(rng.standard_normal(4).astype("float32"), stop_gradient=False)
mag = paddle.to_tensor(np.abs(rng.standard_normal(4)).astype("float32") + 0.5, stop_gradient=False)
ph = paddle.to_tensor(rng.standard_normal(4).astype("float32"), stop_gradient=False)
pair = paddle.to_tensor(rng.standard_normal((4, 2)).astype("float32"), stop_gradient=False)
zc = paddle.complex(a, b)
zp = paddle.polar(mag, ph)
za = paddle.as_complex(pair)
tot = (paddle.abs(zc * zp + za) ** 2).sum() + paddle.angle(zc * za).sum() + paddle.real(paddle.exp(zp * 0.5)).sum()
tot.backward()
rec["real_param_grads"] = [tot.item(), a.grad.numpy().tolist(), b.grad.numpy().tolist(), mag.grad.numpy().tolist(),
                           ph.grad.numpy().tolist(), pair.grad.numpy().tolist()]
x = paddle.to_tensor(rng.standard_normal(4).astype("float32"), stop_gradient=False)
y = x.astype("complex64") * paddle.to_tensor(C0)
(paddle.abs(y) + paddle.imag(y)).sum().backward()
rec["astype_complex_grad"] = x.grad.numpy().tolist()
x2 = paddle.to_tensor(rng.standard_normal(4).astype("float32"), stop_gradient=False)
(paddle.real(paddle.to_tensor(C0) * x2) ** 2).sum().backward()
rec["real_times_complex_grad"] = x2.grad.numpy().tolist()


# --- a complex linear layer trained by Adam ---------------------------------------------------------------------------
class ComplexLinear(nn.Layer):
    def __init__(self, cin, cout):
        super().__init__()
        r = np.random.default_rng(3)
        self.w_re = self.create_parameter([cin, cout], default_initializer=nn.initializer.Assign(
            (r.standard_normal((cin, cout)) * 0.3).astype("float32")))
        self.w_im = self.create_parameter([cin, cout], default_initializer=nn.initializer.Assign(
            (r.standard_normal((cin, cout)) * 0.3).astype("float32")))
        self.b = self.create_parameter([cout], is_bias=True)

    def forward(self, z):
        w = paddle.complex(self.w_re, self.w_im)
        return paddle.matmul(z, w) + paddle.complex(self.b, paddle.zeros_like(self.b))


class ComplexNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = ComplexLinear(3, 5)
        self.l2 = ComplexLinear(5, 2)

    def forward(self, z):
        h = self.l1(z)
        h = h * paddle.complex(paddle.tanh(paddle.abs(h)) / (paddle.abs(h) + 1e-6), paddle.zeros(h.shape))  # modReLU
        return self.l2(h)


paddle.seed(1)
net = ComplexNet()
Xc = crand(16, 3)
Wt = crand(3, 2)
Yc = (Xc @ Wt + 0.1j).astype("complex64")
opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=net.parameters())
train_losses = []
for step in range(20):
    i = (step % 4) * 4
    pred = net(paddle.to_tensor(Xc[i:i + 4]))
    loss = (paddle.abs(pred - paddle.to_tensor(Yc[i:i + 4])) ** 2).mean()
    loss.backward()
    if step == 0:
        rec["cnet_pred0"] = c2l(pred)
        rec["cnet_grads0"] = {n: p.grad.numpy().tolist() for n, p in net.named_parameters()}
    opt.step()
    opt.clear_grad()
    train_losses.append(loss.item())
rec["cnet_losses"] = train_losses
rec["cnet_keys"] = list(net.state_dict().keys())
net.eval()
with paddle.no_grad():
    out = net(paddle.to_tensor(Xc[:3]))
rec["cnet_eval"] = c2l(out)
rec["cnet_eval_sg"] = out.stop_gradient

# --- a complex64 parameter -------------------------------------------------------------------------------------------
cp = paddle.create_parameter([3], "complex64", default_initializer=nn.initializer.Constant(1.0))
rec["cparam"] = [str(cp.dtype), cp.stop_gradient, c2l(cp), cp.is_leaf]
(paddle.abs(cp - paddle.to_tensor(C0[:3])) ** 2).sum().backward()
rec["cparam_grad"] = c2l(cp.grad)
total = paddle.nn.utils.clip_grad_norm_([cp], max_norm=1.0)
rec["cparam_clipped"] = [total.item(), str(total.dtype), c2l(cp.grad)]


def adam_complex():
    o = paddle.optimizer.Adam(learning_rate=0.1, parameters=[cp])
    o.step()
    return c2l(cp)


rec["cparam_adam"] = attempt(adam_complex)

# --- printing --------------------------------------------------------------------------------------------------------
shown = {
    "c64": paddle.to_tensor(np.array([1 + 2j, -0.5 - 1j, 3j], "complex64")),
    "c128": paddle.to_tensor(np.array([[1.25 + 0j, 0 - 2j]])),
    "c_0d": paddle.to_tensor(2 - 3j),
    "c_sg": paddle.to_tensor([1 + 1j], stop_gradient=False),
    "c_big": paddle.to_tensor((np.arange(6) + 1j * np.arange(6)[::-1]).astype("complex64").reshape(2, 3)),
}
rec["print"] = {k: str(v) for k, v in shown.items()}
wide = paddle.to_tensor(np.array([[1.123456 + 2j, -0.5 + 1e-6j], [3e5 - 2j, 0j]], "complex64"))
paddle.set_printoptions(precision=2)
rec["print_precision2"] = str(wide)
paddle.set_printoptions(sci_mode=True)
rec["print_sci"] = str(wide)
paddle.set_printoptions(precision=8, sci_mode=False, threshold=10, edgeitems=2)
rec["print_summarized"] = str(paddle.to_tensor((np.arange(30) * (1 + 1j)).astype("complex128")))
paddle.set_printoptions(threshold=1000, edgeitems=3)
rec["dtype_str"] = [str(paddle.complex64), str(paddle.complex128), str(shown["c64"].dtype),
                    shown["c64"].dtype == paddle.complex64, str(shown["c64"].real().dtype),
                    str(shown["c128"].abs().dtype)]
rec["item"] = [str(shown["c_0d"].item()), type(shown["c_0d"].item()).__name__, str(shown["c64"].tolist())]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
