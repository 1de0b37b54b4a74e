"""Reductions and statistics with the arguments real code passes: sum/mean/prod/max/min/amax/amin/all/any/
logsumexp with axis lists, negative axes, keepdim and dtype=; paddle.linalg.norm / paddle.norm with p='fro',
'nuc', inf, -inf, 0, 1, 3 and axis pairs; var/std (unbiased or not), median (mode 'avg' and 'min', with
indices), nanmedian, quantile/nanquantile (every interpolation, q lists, axis lists, keepdim), mode, kthvalue,
cumsum/cumprod (axis, dtype, reversed by flip), cummax/cummin (values and indices), logcumsumexp, count_nonzero,
nansum/nanmean, histogram, the var/std of one element, reductions over zero-size tensors; and the GRADIENTS of
max/min/amax/amin/median/nanmedian/quantile/mode/kthvalue/cummax/cummin/norm/prod where values tie (how the
gradient is shared among equal values). Then a small regression model trained with a robust loss built from
median/quantile of the residuals, logsumexp pooling and a std penalty.

Not mirrored: where several elements tie for the k-th value, Paddle's CPU kthvalue / median(mode='min') /
nanmedian(mode='min') return the index std::nth_element happens to leave there (e.g. 3 for the 2nd smallest of
[5, 4, 4, 4], 0 for [2, 2, 7, 7]), and a median(mode='avg') of two different middle values sends its gradient to
such an element; pylayer_jax takes the first in stable order (the same value; the index, and so the element that
gets the gradient, may differ). The program reads those indices only where the value is unique. The gradient of
paddle.prod where an element is 0 is NaN in Paddle 3.3.1 (it divides the product by the element); pylayer_jax gives
the exact gradient (the product of the others), so the program's products have no zero. paddle.cumsum of a bool
tensor fails in Paddle 3.3.1 (no kernel); it is left out. var/std of an integer tensor (Paddle computes in the
integer type, truncating the mean, and so does pylayer_jax) are recorded by p69. Also left out, as Paddle 3.3.1 is
wrong there: logsumexp of only -inf (NaN in Paddle, -inf here), amax/quantile over a zero-size axis (uninitialised values or
zeros in Paddle; a ValueError here)."""
import json
import os

import numpy as np
import paddle

rng = np.random.default_rng(0)
rec = {}


def v(t):
    if isinstance(t, (tuple, list)):
        return [v(u) for u in t]
    a = t.numpy()
    return a.tolist() if a.dtype.kind in "biu" else a.astype("float64").tolist()


def leaf(a, dtype="float32"):
    t = paddle.to_tensor(np.asarray(a).astype(dtype))
    t.stop_gradient = False
    return t


def grad_of(name, fn, a):
    """Value, shape, dtype and the gradient of a weighted sum of ``fn(x)`` for a leaf ``x`` made from ``a``."""
    x = leaf(a)
    out = fn(x)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    o = outs[0]
    w = paddle.to_tensor(np.linspace(1.0, 2.0, max(int(np.prod(o.shape)), 1)).astype("float32")).reshape(o.shape)
    (o.astype("float32") * w).sum().backward()
    rec[name] = {"out": [v(t) for t in outs], "shape": [list(t.shape) for t in outs],
                 "dtype": [str(t.dtype) for t in outs], "grad": None if x.grad is None else v(x.grad)}


X = rng.standard_normal((3, 4, 5)).astype("float32")
x = paddle.to_tensor(X)
IT = paddle.to_tensor(rng.integers(-3, 4, (3, 4)))
B = paddle.to_tensor(rng.random((3, 4)) > 0.3)

# plain reductions with the arguments code passes
for name, f in [("sum", paddle.sum), ("mean", paddle.mean), ("prod", paddle.prod), ("max", paddle.max),
                ("min", paddle.min), ("amax", paddle.amax), ("amin", paddle.amin), ("logsumexp", paddle.logsumexp)]:
    rec[f"{name}_axes"] = [v(f(x)), v(f(x, axis=[0, 2])), v(f(x, axis=-1, keepdim=True)), v(f(x, axis=(-3, -1))),
                           list(f(x, axis=[0, -1], keepdim=True).shape), list(f(x, axis=[]).shape)
                           if name not in ("logsumexp",) else None]
rec["sum_dtype"] = [v(paddle.sum(IT, axis=1)), str(paddle.sum(IT).dtype), str(paddle.sum(IT, dtype="float64").dtype),
                    str(paddle.sum(IT.astype("int32")).dtype), str(paddle.sum(B).dtype), v(paddle.sum(B, axis=0)),
                    str(x.sum(dtype="float64").dtype), str(paddle.prod(IT.astype("int32")).dtype),
                    str(paddle.prod(x, dtype="float64").dtype), v(paddle.prod(IT, axis=0))]
rec["mean_methods"] = [v(x.mean(axis=[1, 2])), v(x.max(axis=1)), v(x.min(-1, keepdim=True)), v(IT.max(axis=0)),
                       v(IT.min()), str(IT.max().dtype), v(B.all(axis=1)), v(B.any(axis=0)), v(paddle.all(B)),
                       v(paddle.any(B, axis=[0, 1], keepdim=True)), v(paddle.all(IT, axis=0)),
                       v(paddle.any(x > 2.0, axis=-1))]

# norms
M = paddle.to_tensor(rng.standard_normal((4, 3)).astype("float32"))
rec["norms"] = [v(paddle.linalg.norm(M)), v(paddle.linalg.norm(M, p="fro")), v(paddle.linalg.norm(M, p="nuc")),
                v(paddle.linalg.norm(M, p=np.inf, axis=1)), v(paddle.linalg.norm(M, p=-np.inf, axis=0)),
                v(paddle.linalg.norm(M, p=0, axis=1)), v(paddle.linalg.norm(M, p=1, axis=0, keepdim=True)),
                v(paddle.linalg.norm(M, p=3, axis=-1)), v(paddle.linalg.norm(x, p="fro", axis=[1, 2])),
                v(paddle.linalg.norm(x, p=2, axis=[0, 2])), v(paddle.norm(x, p=2)), v(paddle.norm(x, p=1, axis=-1)),
                v(paddle.linalg.norm(M, p=np.inf, axis=[0, 1])), v(paddle.linalg.norm(M, p=1, axis=[0, 1])),
                v(paddle.linalg.norm(M, p=-1, axis=[0, 1])), v(paddle.linalg.vector_norm(x, p=np.inf)),
                v(paddle.linalg.vector_norm(x, p=0.5, axis=[0, 1])), v(paddle.linalg.matrix_norm(x, p="nuc")),
                v(paddle.linalg.matrix_norm(x, p=2, axis=[0, 2]))]

# statistics
rec["var_std"] = [v(paddle.var(x)), v(paddle.var(x, axis=1)), v(paddle.var(x, axis=[0, 2], unbiased=False)),
                  v(paddle.std(x, axis=-1, keepdim=True)), v(x.std(unbiased=False)),
                  v(paddle.var(paddle.to_tensor([3.0]))), v(paddle.std(paddle.to_tensor([3.0]), unbiased=False)),
                  v(paddle.std(x[:, :1], axis=1))]
T = paddle.to_tensor(np.array([[1.0, 3.0, 3.0, 2.0], [5.0, 4.0, 4.0, 4.0], [2.0, 2.0, 7.0, 7.0]], "float32"))
U = paddle.to_tensor(np.array([[1.0, 3.0, 4.0, 2.0], [5.0, 4.0, 6.0, 0.0], [2.0, 1.0, 7.0, 7.0]], "float32"))
for mode in ("avg", "min"):
    rec[f"median_{mode}"] = [v(paddle.median(T, mode=mode)), v(paddle.median(T, axis=1, mode=mode)[0]
                                                               if mode == "min" else paddle.median(T, axis=1)),
                             v(paddle.median(T, axis=0, keepdim=True, mode=mode))]
rec["median_min_idx"] = [v(t) for t in paddle.median(U, axis=1, mode="min")]
Tn = T.clone()
Tn[0, 1] = float("nan")
Tn[2, :] = float("nan")
rec["nanmedian"] = [v(paddle.nanmedian(Tn)), v(paddle.nanmedian(Tn, axis=1)), v(paddle.nanmedian(Tn, axis=0,
                                                                                                  keepdim=True)),
                    v(paddle.nanmedian(Tn, axis=1, mode="min")[0]), v(paddle.median(Tn, axis=1))]
for interp in ("linear", "lower", "higher", "nearest", "midpoint"):
    rec[f"quantile_{interp}"] = [v(paddle.quantile(x, 0.3, interpolation=interp)),
                                 v(paddle.quantile(x, [0.1, 0.5, 0.9], axis=1, interpolation=interp)),
                                 v(paddle.quantile(x, 0.75, axis=[0, 2], keepdim=True, interpolation=interp)),
                                 v(paddle.nanquantile(Tn, [0.25, 0.5], axis=-1, interpolation=interp))]
rec["quantile_q_tensor"] = v(paddle.quantile(T, paddle.to_tensor([0.2, 0.8], dtype="float64"), axis=0))
rec["mode"] = [[v(t) for t in paddle.mode(T)], [v(t) for t in paddle.mode(T, axis=0, keepdim=True)],
               [v(t) for t in paddle.mode(paddle.to_tensor([[1, 2, 2, 1, 3]]), axis=1)]]
rec["kthvalue"] = [[v(t) for t in paddle.kthvalue(U, 2)], v(paddle.kthvalue(T, 2)[0]), [v(t) for t in paddle.kthvalue(T, 3, axis=0,
                                                                                         keepdim=True)],
                   [v(t) for t in paddle.kthvalue(x, 1, axis=1)]]

# cumulative
rec["cum"] = [v(paddle.cumsum(x, axis=1)), v(paddle.cumsum(IT)), v(paddle.cumsum(IT, axis=0, dtype="float32")),
              str(paddle.cumsum(IT.astype("int32")).dtype), v(paddle.cumprod(T, dim=1)),
              v(paddle.cumprod(IT, dim=0, dtype="float64")), v(paddle.flip(paddle.cumsum(paddle.flip(T, [1]), 1), [1])),
              v(x.cumsum(-1)), v(T.cumprod(0)), v(paddle.logcumsumexp(x, axis=2)), v(paddle.logcumsumexp(T)),
              v(paddle.cumsum(B.astype("int32"), axis=1)), str(paddle.cumsum(B.astype("uint8")).dtype)]
for f in ("cummax", "cummin"):
    rec[f] = [[v(t) for t in getattr(paddle, f)(T, axis=1)], [v(t) for t in getattr(paddle, f)(T, axis=0)],
              [v(t) for t in getattr(paddle, f)(IT, axis=-1, dtype="int32")], str(getattr(paddle, f)(T)[1].dtype)]
rec["counts"] = [v(paddle.count_nonzero(IT)), v(paddle.count_nonzero(IT, axis=1)),
                 v(paddle.count_nonzero(IT, axis=[0, 1], keepdim=True)), str(paddle.count_nonzero(IT).dtype),
                 v(paddle.nansum(Tn)), v(paddle.nansum(Tn, axis=1)), v(paddle.nanmean(Tn, axis=1)),
                 v(paddle.nanmean(Tn, axis=0, keepdim=True)), v(paddle.nansum(Tn, dtype="float64")),
                 v(paddle.histogram(x, bins=6)), v(paddle.histogram(x, bins=4, min=-1, max=1)),
                 str(paddle.histogram(x, bins=3).dtype), v(paddle.histogram(IT, bins=7, min=-3, max=3))]

# zero-size tensors
E = paddle.zeros([0, 3])
rec["empty"] = [v(paddle.sum(E)), v(paddle.sum(E, axis=0)), list(paddle.sum(E, axis=1).shape), v(paddle.prod(E)),
                v(paddle.all(E > 0)), v(paddle.any(E > 0)), v(paddle.mean(E, axis=1)), v(paddle.cumsum(E, axis=0)),
                list(paddle.cumsum(E, axis=0).shape), v(paddle.count_nonzero(E, axis=0)),
                v(paddle.logsumexp(E, axis=0)), v(paddle.nansum(E))]

# gradients where values tie
TIE = np.array([[1.0, 3.0, 3.0, 2.0], [4.0, 4.0, 4.0, 0.0], [2.0, 5.0, -1.0, 5.0]], "float32")
for name, fn in [
    ("g_max_all", lambda t: paddle.max(t)), ("g_max_ax", lambda t: paddle.max(t, axis=1)),
    ("g_min_ax0", lambda t: paddle.min(t, axis=0, keepdim=True)), ("g_amax_all", lambda t: paddle.amax(t)),
    ("g_amax_ax", lambda t: paddle.amax(t, axis=1)), ("g_amin_ax", lambda t: paddle.amin(t, axis=[0, 1])),
    ("g_amax_neg", lambda t: paddle.amax(t, axis=-1, keepdim=True)), ("g_max_list", lambda t: t.max(axis=[0, 1])),
    ("g_quantile", lambda t: paddle.quantile(t, [0.25, 0.5, 0.75], axis=1)),
    ("g_quantile_all", lambda t: paddle.quantile(t, 0.4)),
    ("g_quantile_lower", lambda t: paddle.quantile(t, 0.6, axis=0, interpolation="lower")),
    ("g_quantile_mid", lambda t: paddle.quantile(t, 0.5, axis=[0, 1], interpolation="midpoint")),
    ("g_nanquantile", lambda t: paddle.nanquantile(t, 0.5, axis=0)),
    ("g_mode", lambda t: paddle.mode(t, axis=1)), ("g_mode0", lambda t: paddle.mode(t, axis=0)),
    ("g_kth", lambda t: paddle.kthvalue(t, 1, axis=1)), ("g_kth0", lambda t: paddle.kthvalue(t, 2, axis=0)),
    ("g_cummax", lambda t: paddle.cummax(t, axis=1)), ("g_cummin", lambda t: paddle.cummin(t, axis=0)),
    ("g_norm_inf", lambda t: paddle.linalg.norm(t, p=np.inf, axis=1)),
    ("g_norm_ninf", lambda t: paddle.linalg.norm(t, p=-np.inf)),
    ("g_norm_1", lambda t: paddle.linalg.norm(t, p=1, axis=0)), ("g_norm_fro", lambda t: paddle.linalg.norm(t)),
    ("g_norm_nuc", lambda t: paddle.linalg.norm(t, p="nuc")),
    ("g_norm_mat_inf", lambda t: paddle.linalg.norm(t, p=np.inf, axis=[0, 1])),
    ("g_norm_3", lambda t: paddle.linalg.norm(t, p=3, axis=-1)),
    ("g_prod", lambda t: paddle.prod(t * t + 1, axis=1)), ("g_logsumexp", lambda t: paddle.logsumexp(t, axis=[0, 1])),
    ("g_std", lambda t: paddle.std(t, axis=0)), ("g_var", lambda t: paddle.var(t, unbiased=False)),
    ("g_cumprod", lambda t: paddle.cumprod(t, dim=1)), ("g_logcumsumexp", lambda t: paddle.logcumsumexp(t, axis=0)),
    ("g_nansum", lambda t: paddle.nansum(t, axis=1)), ("g_nanmean", lambda t: paddle.nanmean(t, axis=0)),
]:
    grad_of(name, fn, TIE)
# the median's gradient: shared evenly among the elements equal to it, else half to each middle element
MED = np.array([[1.0, 3.0, 4.0, 2.0], [4.0, 4.0, 4.0, 0.0], [2.0, 5.0, -1.0, 6.0], [3.0, 3.0, 3.0, 3.0]], "float32")
for name, fn in [
    ("g_median_avg", lambda t: paddle.median(t, axis=1)), ("g_median_all", lambda t: paddle.median(t)),
    ("g_median_min", lambda t: paddle.median(t[::2], axis=1, mode="min")[0]),
    ("g_median_odd", lambda t: paddle.median(t[:, :3], axis=-1, keepdim=True)),
    ("g_median_cols", lambda t: paddle.median(t[:3, :3], axis=0)), ("g_nanmedian", lambda t: paddle.nanmedian(t, axis=1)),
    ("g_nanmedian_all", lambda t: paddle.nanmedian(t, axis=[0, 1])),
]:
    grad_of(name, fn, MED)
MN = MED.copy()
MN[0, 1] = np.nan
MN[3, :] = np.nan
grad_of("g_nanmedian_nan", lambda t: paddle.nanmedian(t, axis=1), MN)
grad_of("g_nanmedian_nan_all", lambda t: paddle.nanmedian(t), MN)
grad_of("g_median_nan", lambda t: paddle.median(t[:3], axis=1), MN)
grad_of("g_norm_zero", lambda t: paddle.linalg.norm(t, p=2, axis=1), np.zeros((2, 3), "float32"))
grad_of("g_max_equal_row", lambda t: paddle.max(t, axis=1), np.full((2, 3), 2.0, "float32"))
grad_of("g_amax_equal_row", lambda t: paddle.amax(t, axis=1), np.full((2, 3), 2.0, "float32"))

# a regression model trained with a robust loss built from order statistics
Xd = rng.standard_normal((64, 5)).astype("float32")
Yd = (Xd @ np.array([1.0, -2.0, 0.5, 0.0, 1.5], "float32") + 0.1 * rng.standard_normal(64).astype("float32"))
Yd[::9] += 6.0  # outliers
Yd = Yd[:, None]


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = paddle.nn.Linear(5, 16)
        self.l2 = paddle.nn.Linear(16, 4)

    def forward(self, t):
        h = paddle.tanh(self.l1(t)).reshape([-1, 4, 4])
        pooled = paddle.logsumexp(h, axis=-1)                          # logsumexp pooling
        return self.l2(pooled.tile([1, 4])).amax(axis=-1, keepdim=True)  # max over heads


model = Net()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(p.shape) * 0.4).astype("float32") for k, p in model.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=model.parameters())
rec["train"] = []
rec["train_stats"] = []
for step in range(25):
    i = (step % 4) * 16
    res = model(paddle.to_tensor(Xd[i:i + 16])) - paddle.to_tensor(Yd[i:i + 16])
    med = paddle.median(res)
    mad = paddle.median((res - med).abs())
    q_hi = paddle.quantile(res.abs(), 0.8)
    loss = (paddle.minimum(res.abs(), q_hi) ** 2).mean() + 0.1 * mad + 0.01 * res.std() + 0.05 * med.abs()
    loss.backward()
    rec["train_stats"].append([float(med), float(mad), float(q_hi),
                               float(paddle.linalg.norm(model.l1.weight.grad, p="fro"))])
    opt.step()
    opt.clear_grad()
    rec["train"].append(float(loss))
with paddle.no_grad():
    res = model(paddle.to_tensor(Xd)) - paddle.to_tensor(Yd)
    rec["eval"] = [v(paddle.quantile(res.flatten(), [0.1, 0.5, 0.9])), v(paddle.kthvalue(res.flatten(), 5)[0]),
                   v(paddle.count_nonzero(res.abs() > 1.0)), v(paddle.cummax(res.flatten()[:8], axis=0)[1])]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
