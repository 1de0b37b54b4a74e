"""Elementwise math at the edge values users hit (nan, +-inf, -0.0, huge and tiny numbers, denormals), and the
gradients there: isclose/allclose (equal_nan, rtol/atol, broadcasting), equal_all, maximum/minimum against fmax/fmin
with nan, clip with min > max and with nan, sign/sgn/heaviside/copysign/nextafter/ldexp/frexp, lerp, nan_to_num
(defaults and arguments), isnan/isinf/isfinite/isneginf/isposinf/isreal/signbit, log1p/expm1/log/sqrt/rsqrt at 0
and negatives, atan2 at signed zeros, hypot, logit with eps, erfinv at +-1, sigmoid/softplus/log_sigmoid/tanh with
huge inputs, round (half away from zero, and with decimals)/trunc/floor/ceil/frac of negatives and halves; then the
gradients of abs/relu/clip/maximum/minimum/max/median/dist at ties, sqrt/pow at 0, where with nan in the unselected
branch, nan_to_num, logit/log1p/binary_cross_entropy at the ends, i0 at 0, l1_loss and cosine_similarity at zero, and a small regression trained with a loss guarded by these ops.

Known differences (not mirrored), left out here: denormal numbers (below ~1.2e-38 in float32) are flushed to zero by
XLA's CPU kernels, where Paddle keeps them (``sign(1e-45)``, ``log(1e-45)``, ``frexp(1e-40)``, ``exp(-inf)`` which
Paddle gives as the denormal 2.9e-39); Paddle's results that are wrong and kept sane here: ``isclose(-inf, inf)`` is
True in Paddle, ``isclose``/``allclose`` of broadcast shapes a RuntimeError, ``sqrt(inf)`` NaN, ``sinc(inf)`` and
``sinc(nan)`` 1, ``hypot(inf, nan)`` NaN (IEEE: inf), ``erfinv(1.5)`` inf (outside [-1, 1]: NaN),
``logsumexp([-inf, -inf])`` and ``logsumexp([inf, 1])`` NaN, ``log_sigmoid(-inf)`` NaN, the gradient of ``hypot`` at
(0, 0) NaN (0.5 here); and signed zeros that differ: ``fmax``/``fmin`` of tied zeros return y in Paddle (x here),
``sqrt(-0.0)`` and ``sgn(-0.0)`` are +0.0 in Paddle (-0.0 here, as IEEE), and some gradients are -0.0 here where
Paddle's are +0.0 (``abs`` at -0.0), so zeros' signs are recorded only for the values where they agree."""
import json
import math
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rec = {}
inf, nan = float("inf"), float("nan")


def attempt(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def v(t, signs=False):
    a = t.numpy()
    if a.dtype.kind == "f":
        # nan and inf are written as JSON's NaN/Infinity; with signs, the sign of each zero is recorded apart
        zs = np.signbit(a[a == 0]).tolist() if signs else None
        return [a.astype("float64").tolist(), zs, str(t.dtype).replace("paddle.", "")]
    return [a.tolist(), str(t.dtype).replace("paddle.", "")]


def T(x, dtype="float32"):
    return paddle.to_tensor(np.array(x, dtype=dtype))


E = T([nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 1e-30, 3e38, -2.5, 0.5])
rec["edges"] = v(E, signs=True)

# comparisons
x = T([1.0, nan, inf, -inf, 1e-9, 100.0, 0.0])
y = T([1.0 + 1e-6, nan, inf, -inf, 0.0, 100.001, -0.0])
rec["isclose"] = attempt(lambda: v(paddle.isclose(x, y)))
rec["isclose_nan"] = attempt(lambda: v(paddle.isclose(x, y, equal_nan=True)))
rec["isclose_tol"] = attempt(lambda: v(paddle.isclose(x, y, rtol=1e-3, atol=1e-8)))
rec["isclose_atol"] = attempt(lambda: v(paddle.isclose(x, y, rtol=0.0, atol=1e-8)))
rec["allclose"] = [v(paddle.allclose(x, y)), v(paddle.allclose(x, y, equal_nan=True, rtol=1e-3)),
                   v(paddle.allclose(T([nan]), T([nan]), equal_nan=True))]
rec["allclose_f64"] = attempt(lambda: v(paddle.allclose(T([1.0, 2.0], "float64"), T([1.0 + 1e-9, 2.0], "float64"))))
rec["equal_all"] = [v(paddle.equal_all(x, x)), v(paddle.equal_all(T([0.0]), T([-0.0]))),
                    v(paddle.equal_all(T([1.0, 2.0]), T([1.0]))), v(paddle.equal_all(T([nan]), T([nan])))]
rec["equal"] = [v(x == y), v(x != y), v(x < y), v(x >= y)]

# maximum/minimum/fmax/fmin
m1 = T([nan, 1.0, nan, -1.0, 0.0, inf, 2.0])
m2 = T([1.0, nan, nan, 0.0, -0.0, nan, 2.0])
rec["maximum"] = attempt(lambda: v(paddle.maximum(m1, m2)))
rec["minimum"] = attempt(lambda: v(paddle.minimum(m1, m2)))
rec["fmax"] = attempt(lambda: v(paddle.fmax(m1, m2)))
rec["fmin"] = attempt(lambda: v(paddle.fmin(m1, m2)))
rec["max_reduce_nan"] = [v(paddle.max(m1)), v(paddle.min(m1)), v(paddle.amax(m1)), v(paddle.nanmax(m1)) if hasattr(paddle, "nanmax") else None]
rec["argmax_nan"] = [v(paddle.argmax(m1)), v(paddle.argmin(m1))]
rec["sort_nan"] = [v(paddle.sort(m1)), v(paddle.argsort(m1)), v(paddle.topk(m1, 2)[0])]
rec["nansum"] = [v(paddle.nansum(m1)), v(paddle.nanmean(m1))]

# clip
c = T([nan, -inf, inf, -3.0, 0.5, 3.0])
rec["clip"] = attempt(lambda: v(paddle.clip(c, -1.0, 1.0)))
rec["clip_minmax"] = attempt(lambda: v(paddle.clip(c, 2.0, -1.0)))
rec["clip_nanbound"] = attempt(lambda: v(paddle.clip(c, nan, 1.0)))
rec["clip_none"] = [v(paddle.clip(c, max=0.0)), v(paddle.clip(c, min=0.0))]
rec["clip_tensor"] = attempt(lambda: v(paddle.clip(c, T(-1.0), T(2.0))))

# sign family
s = T([nan, -inf, -2.0, -0.0, 0.0, 1e-30, 3.0, inf])
rec["sign"] = attempt(lambda: v(paddle.sign(s)))
rec["sgn"] = attempt(lambda: v(paddle.sgn(s)))
rec["signbit"] = attempt(lambda: v(paddle.signbit(s)))
rec["heaviside"] = attempt(lambda: v(paddle.heaviside(s, T([0.5] * 8))))
rec["heaviside_nan"] = attempt(lambda: v(paddle.heaviside(T([0.0, -0.0, 1.0]), T([nan, 2.0, nan]))))
rec["copysign"] = attempt(lambda: v(paddle.copysign(T([1.0, 2.0, nan, 0.0, inf]), T([-0.0, 0.0, -1.0, -3.0, -nan])), True))
rec["copysign_scalar"] = attempt(lambda: v(paddle.copysign(T([1.0, -2.0]), -0.0)))
rec["nextafter"] = attempt(lambda: v(paddle.nextafter(T([0.0, 1.0, 1.0, -0.0, inf, nan]), T([1.0, 2.0, 0.0, -1.0, 0.0, 1.0]))))
rec["ldexp"] = attempt(lambda: v(paddle.ldexp(T([1.0, -1.5, 0.0, inf, 3.0]), paddle.to_tensor([3, -2, 5, 1, 200]))))
fr = paddle.frexp(T([8.0, -0.375, 0.0, 1e-30, 3e38]))
rec["frexp"] = [v(fr[0]), v(fr[1])]
rec["lerp"] = [v(paddle.lerp(T([0.0, 1.0, inf, 0.0]), T([10.0, 1.0, 1.0, nan]), 0.5)),
               v(paddle.lerp(T([0.0, 1.0]), T([10.0, -1.0]), T([2.0, -1.0])))]

# nan_to_num
n = T([nan, inf, -inf, 1.0, -0.0])
rec["nan_to_num"] = attempt(lambda: v(paddle.nan_to_num(n)))
rec["nan_to_num_args"] = attempt(lambda: v(paddle.nan_to_num(n, nan=-1.0, posinf=9.0, neginf=-9.0)))
rec["nan_to_num_f64"] = attempt(lambda: v(paddle.nan_to_num(T([nan, inf, -inf], "float64"))))
rec["nan_to_num_"] = attempt(lambda: v(n.clone().nan_to_num_(posinf=5.0)))
rec["is"] = [v(paddle.isnan(s)), v(paddle.isinf(s)), v(paddle.isfinite(s)), v(paddle.isneginf(s)),
             v(paddle.isposinf(s)), v(paddle.isreal(s)), v(paddle.isreal(paddle.to_tensor([1 + 0j, 1j])))]

# log/sqrt family
z = T([0.0, -0.0, -1.0, -1e-30, 1e-30, inf, nan, -inf, 1e-8])
zf = T([0.0, -0.0, -1.0, -1e-30, 1e-30, nan, 1e-8, 100.0])
for name in ("log", "log1p", "expm1", "rsqrt", "log2", "log10", "reciprocal", "tanh", "sigmoid", "atan", "asinh",
             "erf"):
    rec["u_" + name] = attempt(lambda name=name: v(getattr(paddle, name)(z)))
for name in ("sqrt", "exp"):
    rec["u_" + name] = attempt(lambda name=name: v(getattr(paddle, name)(zf)))
rec["u_sinc"] = v(paddle.sinc(T([0.0, -0.0, -1.0, 1e-30, 0.5, 100.0])))
rec["log1p_m1"] = attempt(lambda: v(paddle.log1p(T([-1.0, -2.0, -0.9999999]))))
rec["atan2"] = v(paddle.atan2(T([0.0, 0.0, -0.0, -0.0, 1.0, inf, -inf, nan]),
                               T([0.0, -0.0, 0.0, -0.0, 0.0, inf, -inf, 1.0])))
rec["hypot"] = attempt(lambda: v(paddle.hypot(T([3.0, inf, -inf, 3e38, 1e-30, 0.0]), T([4.0, 2.0, inf, 3e38, 1e-30, -0.0]))))
rec["logit"] = [v(paddle.logit(T([0.0, 1.0, 0.5, -0.1, 1.1, nan]))),
                v(paddle.logit(T([0.0, 1.0, 0.5, -0.1, 1.1, nan]), eps=1e-3))]
rec["erfinv"] = attempt(lambda: v(paddle.erfinv(T([-1.0, 1.0, 0.0, -0.999999, nan]))))
h = T([-1e4, -100.0, -20.0, 0.0, 20.0, 100.0, 1e4, -inf, inf])
rec["sigmoid"] = attempt(lambda: v(F.sigmoid(h)))
rec["softplus"] = [v(F.softplus(h)), v(F.softplus(h, beta=2.0, threshold=5.0))]
rec["log_sigmoid"] = attempt(lambda: v(F.log_sigmoid(h[:-2])))
rec["silu_gelu"] = [v(F.silu(h)), v(F.gelu(h)), v(F.gelu(h, approximate=True)), v(F.elu(h)), v(F.mish(h))]
rec["softmax_inf"] = [v(F.softmax(T([[1.0, inf, 2.0], [-inf, -inf, 0.0], [-inf, -inf, -inf]]))),
                      v(F.log_softmax(T([[1.0, -inf, 2.0], [1e4, 0.0, -1e4]])))]
rec["logsumexp"] = [v(paddle.logsumexp(T([-inf, 0.0]))), v(paddle.logsumexp(T([1e4, 1e4]))),
                    v(paddle.logsumexp(T([[-1e4, 1e4], [3.0, -inf]]), axis=1))]

# rounding
r = T([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -0.4, 2.675, -0.0, nan, inf, -1e-30])
for name in ("round", "trunc", "floor", "ceil", "frac"):
    rec["r_" + name] = attempt(lambda name=name: v(getattr(paddle, name)(r), True))
rec["round_dec"] = [v(paddle.round(T([2.675, -1.25, 0.125, 1234.5]), decimals=2)),
                    v(paddle.round(T([1234.5, 1250.0]), decimals=-2))]
rec["round_f64"] = attempt(lambda: v(paddle.round(T([0.5, 1.5, 2.5, -2.5], "float64"))))
rec["mod_edges"] = [v(T([5.0, -5.0, 0.0, inf, 1.0]) % T([0.0, 3.0, -2.0, 2.0, -inf])),
                    v(paddle.floor_divide(T([5.0, -5.0, 1.0, -1.0]), T([0.0, 0.0, inf, inf])))]
rec["pow_edges"] = [v(paddle.pow(T([0.0, -0.0, -8.0, nan, 1.0, -1.0]), 0.0)),
                    v(paddle.pow(T([0.0, -0.0, -8.0, 2.0]), -1.0)),
                    v(paddle.pow(T([-8.0, 1.0, -1.0]), T([1 / 3, nan, inf]))),
                    v(T([0.0, 2.0]) ** T([0.0, 1e4]))]


# gradients at edges
def grad_of(f, xs, *others):
    t = paddle.to_tensor(np.array(xs, dtype="float32"), stop_gradient=False)
    out = f(t, *others)
    paddle.sum(out).backward()
    return [v(out), v(t.grad)]


rec["g_abs"] = attempt(lambda: grad_of(paddle.abs, [-1.0, -0.0, 0.0, 2.0, nan]))
rec["g_relu"] = attempt(lambda: grad_of(F.relu, [-1.0, 0.0, 1e-30, 2.0]))
rec["g_relu6"] = attempt(lambda: grad_of(F.relu6, [-1.0, 0.0, 6.0, 7.0, 3.0]))
rec["g_leaky"] = attempt(lambda: grad_of(lambda t: F.leaky_relu(t, 0.1), [-1.0, 0.0, 2.0]))
rec["g_hardtanh"] = attempt(lambda: grad_of(F.hardtanh, [-1.0, 1.0, 0.5, -2.0]))
rec["g_clip"] = attempt(lambda: grad_of(lambda t: paddle.clip(t, -1.0, 1.0), [-1.0, 1.0, 0.5, 2.0, -3.0, nan]))
rec["g_clip_inv"] = attempt(lambda: grad_of(lambda t: paddle.clip(t, 1.0, -1.0), [-1.0, 1.0, 0.5, 2.0]))
rec["g_sqrt"] = attempt(lambda: grad_of(paddle.sqrt, [0.0, 4.0, 1e-30]))
rec["g_rsqrt"] = attempt(lambda: grad_of(paddle.rsqrt, [0.0, 4.0]))
rec["g_pow"] = attempt(lambda: grad_of(lambda t: paddle.pow(t, 0.5), [0.0, 4.0]))
rec["g_pow2"] = attempt(lambda: grad_of(lambda t: paddle.pow(t, 2.0), [0.0, -3.0]))
rec["g_pow0"] = attempt(lambda: grad_of(lambda t: t ** 0.0, [0.0, -3.0]))
rec["g_pow_t"] = attempt(lambda: grad_of(lambda t: T([0.0, 2.0, -1.0]) ** t, [2.0, 0.0, 2.0]))
rec["g_log"] = attempt(lambda: grad_of(paddle.log, [0.0, -1.0, 1.0]))
rec["g_log1p"] = attempt(lambda: grad_of(paddle.log1p, [-1.0, 0.0]))
rec["g_sign"] = attempt(lambda: grad_of(paddle.sign, [-1.0, 0.0, 2.0]))
rec["g_round"] = attempt(lambda: grad_of(paddle.round, [0.5, 1.7]))
rec["g_floor"] = attempt(lambda: grad_of(paddle.floor, [0.5, -1.7]))
rec["g_frac"] = attempt(lambda: grad_of(paddle.frac, [0.5, -1.7]))
rec["g_norm0"] = attempt(lambda: grad_of(lambda t: paddle.linalg.norm(t), [0.0, 0.0, 0.0]))
rec["g_dist0"] = attempt(lambda: grad_of(lambda t: paddle.dist(t, T([0.0, 0.0])), [0.0, 0.0]))
rec["g_logit"] = attempt(lambda: grad_of(paddle.logit, [0.0, 1.0, 0.5]))
rec["g_logit_eps"] = attempt(lambda: grad_of(lambda t: paddle.logit(t, eps=0.1), [0.0, 0.05, 0.5, 0.95, 1.0]))
rec["g_erfinv"] = attempt(lambda: grad_of(paddle.erfinv, [1.0, 0.0, -1.0]))
rec["g_atan2"] = attempt(lambda: grad_of(lambda t: paddle.atan2(t, T([0.0, 0.0, 1.0])), [0.0, 1.0, 0.0]))
rec["g_hypot"] = attempt(lambda: grad_of(lambda t: paddle.hypot(t, T([1.0, 3.0])), [0.0, 4.0]))
rec["g_nan_to_num"] = attempt(lambda: grad_of(paddle.nan_to_num, [nan, inf, -inf, 2.0]))
rec["g_tanh_big"] = attempt(lambda: grad_of(paddle.tanh, [100.0, -100.0, 0.0]))
rec["g_sigmoid_big"] = attempt(lambda: grad_of(F.sigmoid, [1e4, -1e4, 0.0]))
rec["g_softplus_big"] = attempt(lambda: grad_of(F.softplus, [1e4, -1e4, 0.0, 20.0, 21.0]))
rec["g_log_sigmoid"] = attempt(lambda: grad_of(F.log_sigmoid, [1e4, -1e4, 0.0]))
rec["g_lerp"] = attempt(lambda: grad_of(lambda t: paddle.lerp(t, T([1.0, nan]), 0.0), [0.0, 1.0]))
rec["g_copysign"] = attempt(lambda: grad_of(lambda t: paddle.copysign(t, T([-1.0, 0.0, -0.0])), [2.0, -3.0, 0.0]))
rec["g_fmax"] = attempt(lambda: grad_of(lambda t: paddle.fmax(t, T([1.0, nan, 0.0])), [1.0, 2.0, nan]))
rec["g_heaviside"] = attempt(lambda: grad_of(lambda t: paddle.heaviside(t, T([0.5, 0.5])), [0.0, 1.0]))

rec["g_i0"] = attempt(lambda: grad_of(paddle.i0, [0.0, 1.5]))
rec["g_l1_tie"] = attempt(lambda: grad_of(lambda t: F.l1_loss(t, T([0.0, 1.0])), [0.0, 2.0]))
rec["g_bce_ends"] = attempt(lambda: grad_of(lambda t: F.binary_cross_entropy(t, T([0.0, 1.0, 1.0])), [0.0, 1.0, 0.0]))
rec["g_cos_sim0"] = attempt(lambda: grad_of(lambda t: F.cosine_similarity(t.reshape([1, 2]), T([[1.0, 0.0]])),
                                            [0.0, 0.0]))
rec["g_max_nan"] = attempt(lambda: grad_of(lambda t: paddle.amax(t.reshape([2, 2]), axis=1), [1.0, nan, 2.0, 3.0]))
rec["g_dist_inf_tie"] = attempt(lambda: grad_of(lambda t: paddle.dist(t, T([0.0, 0.0]), p=float("inf")), [1.0, -1.0]))
rec["g_median_tie"] = attempt(lambda: grad_of(paddle.median, [1.0, 2.0, 2.0]))


def tie_grads(f):
    a = paddle.to_tensor(np.array([1.0, 2.0, -0.0, nan, 3.0], "float32"), stop_gradient=False)
    b = paddle.to_tensor(np.array([1.0, 1.0, 0.0, 1.0, nan], "float32"), stop_gradient=False)
    (f(a, b) * T([1.0, 2.0, 3.0, 4.0, 5.0])).sum().backward()
    return [v(a.grad), v(b.grad)]


rec["g_maximum_ties"] = tie_grads(paddle.maximum)
rec["g_minimum_ties"] = tie_grads(paddle.minimum)
rec["g_fmin_ties"] = tie_grads(paddle.fmin)
rec["g_max_reduce_ties"] = attempt(lambda: grad_of(lambda t: paddle.max(t), [1.0, 3.0, 3.0, 2.0]))
rec["g_amax_ties"] = attempt(lambda: grad_of(lambda t: paddle.amax(t), [1.0, 3.0, 3.0, 2.0]))
rec["g_min_axis_ties"] = attempt(lambda: grad_of(lambda t: paddle.min(t.reshape([2, 2]), axis=1), [1.0, 1.0, 0.0, 2.0]))

# where with nan in the unselected branch (the classic safe-log pattern)
w = paddle.to_tensor(np.array([0.0, 1.0, -1.0, 4.0], "float32"), stop_gradient=False)
naive = paddle.where(w > 0, paddle.sqrt(w), paddle.zeros_like(w))
naive.sum().backward()
rec["g_where_naive"] = [v(naive), v(w.grad)]
w.clear_grad()
safe = paddle.where(w > 0, paddle.sqrt(paddle.where(w > 0, w, paddle.ones_like(w))), paddle.zeros_like(w))
safe.sum().backward()
rec["g_where_safe"] = [v(safe), v(w.grad)]
w.clear_grad()
ml = paddle.masked_fill(paddle.log(w), w <= 0, 0.0)
ml.sum().backward()
rec["g_masked_fill"] = [v(ml), v(w.grad)]

# a regression whose loss is guarded with these ops
rng = np.random.default_rng(0)
X = rng.standard_normal((48, 4)).astype("float32")
Y = np.abs(X @ np.array([1.0, -2.0, 0.5, 0.0], "float32") + 0.1).astype("float32")[:, None]
X[3, 1] = np.nan
X[7, 2] = np.inf


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(4, 8)
        self.l2 = nn.Linear(8, 1)

    def forward(self, x):
        x = paddle.nan_to_num(x, nan=0.0, posinf=3.0, neginf=-3.0)
        x = paddle.clip(x, -3.0, 3.0)
        h = paddle.maximum(self.l1(x), paddle.zeros([8]))
        return F.softplus(self.l2(h))


model = Net()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(t.shape) * 0.4).astype("float32") for k, t in model.state_dict().items()})
opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
rec["loss"] = []
for step in range(25):
    i = (step % 3) * 16
    pred = model(paddle.to_tensor(X[i:i + 16]))
    yt = paddle.to_tensor(Y[i:i + 16])
    loss = (paddle.log1p(pred) - paddle.log1p(yt)).abs().mean() + 0.1 * paddle.sqrt(((pred - yt) ** 2).mean())
    loss.backward()
    if step == 0:
        rec["grads0"] = [p.grad.numpy().tolist() for p in model.parameters()]
    opt.step()
    opt.clear_grad()
    rec["loss"].append(loss.item())
with paddle.no_grad():
    p = model(paddle.to_tensor(X))
    rec["eval"] = [bool(paddle.isfinite(p).all()), float(paddle.abs(p - paddle.to_tensor(Y)).mean()),
                   bool(paddle.allclose(p, p * (1 + 1e-7))), math.isfinite(float(p.max()))]

with open(os.environ["PROGRAM_OUT"], "w") as fh:
    json.dump(rec, fh)
