"""Initializers and the ways parameters get created, as model code uses them: the deterministic initializers
(``nn.initializer.Constant`` / ``Assign`` from a numpy array, a list and a Tensor, float64 / ``Dirac`` on Conv1D / 2D /
3D with groups, and that it passes a signal through / ``Bilinear`` on transposed convs of several kernel sizes) by
exact values; ``calculate_gain`` for every nonlinearity (leaky_relu's param); ``set_global_initializer`` for weights
and biases (and its precedence against a ParamAttr initializer, a ``default_initializer`` and the layers' own defaults:
Linear, Conv2D, Embedding, BatchNorm, LayerNorm, PReLU), weights only, reset with None; ``weight_attr=False`` /
``bias_attr=False`` (Linear, Conv2D, BatchNorm1D, LayerNorm), a name string or an Initializer given as the attr;
``paddle.create_parameter`` (default_initializer, is_bias, float64 / float16 / int64) and ``Layer.create_parameter``
with attr None / ParamAttr / False and is_bias (Paddle's defaults: Xavier-uniform weights, zero biases; a ParamAttr
initializer beats default_initializer); the layers' own defaults by statistics (Linear, Conv1D / Conv2D /
Conv2DTranspose, Embedding and its padding row, GRU, BatchNorm, PReLU); the random initializers (XavierNormal /
XavierUniform with gain or given fans, KaimingNormal / KaimingUniform with fan_in, negative_slope, nonlinearity and
mode, Normal, TruncatedNormal with a / b and its defaults, Uniform) on 1-D, 2-D, 3-D, 4-D and 5-D shapes, checked by
their statistics against the fan-in / fan-out rule (the random streams of the two libraries differ, so no values),
Orthogonal by orthogonality (also of conv kernels); ``ParamAttr``'s name, learning_rate, trainable,
do_model_average and need_clip as the parameter carries them; initializers applied to existing parameters
(``init(param)``), then ``nn.utils.parameters_to_vector``, a forward and its gradient; the errors of misuse code
catches (Dirac / Orthogonal / Bilinear shapes, Kaiming's mode and nonlinearity, fan_in with mode="fan_out").

Deliberately not mirrored, left out here: ``Assign(value)`` whose value's shape is not the parameter's makes Paddle
replace the parameter's shape by the value's (``nn.Linear(2, 2)`` with ``Assign([1.0, 2.0])`` gets a weight of shape
[2], and fails later); pylayer_jax raises a ValueError naming both shapes. ``Assign("text")`` is Paddle's bare
AssertionError; pylayer_jax's is a TypeError naming the accepted types."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn

init = nn.initializer
rec = {}
paddle.seed(2024)


def v(t):
    return np.asarray(t.numpy()).astype(np.float64).ravel().tolist()


def err(f):
    try:
        f()
        return "ok"
    except Exception as e:  # noqa: BLE001  (the type is the result)
        return type(e).__name__


# deterministic initializers
lin = nn.Linear(3, 4, weight_attr=paddle.ParamAttr(initializer=init.Constant(0.5)),
                bias_attr=paddle.ParamAttr(initializer=init.Constant(-1.0)))
rec["constant"] = [v(lin.weight), v(lin.bias), str(lin.weight.dtype)]
a = np.arange(12, dtype="float32").reshape(3, 4) / 10
rec["assign_np"] = v(nn.Linear(3, 4, weight_attr=paddle.ParamAttr(initializer=init.Assign(a))).weight)
rec["assign_list"] = v(nn.Linear(2, 2, bias_attr=paddle.ParamAttr(initializer=init.Assign([1.0, 2.0]))).bias)
rec["assign_tensor"] = v(nn.Linear(3, 4, weight_attr=paddle.ParamAttr(
    initializer=init.Assign(paddle.to_tensor(a * 2)))).weight)
rec["assign_f64"] = [v(paddle.create_parameter([2, 2], "float64", default_initializer=init.Assign(
    np.array([[1.5, 2.5], [3.5, 4.5]])))), ]
for name, layer in (("d1", nn.Conv1D(2, 4, 3, weight_attr=paddle.ParamAttr(initializer=init.Dirac()))),
                    ("d2g", nn.Conv2D(4, 6, 3, weight_attr=paddle.ParamAttr(initializer=init.Dirac(groups=2)))),
                    ("d3", nn.Conv3D(3, 2, 3, bias_attr=False, weight_attr=paddle.ParamAttr(initializer=init.Dirac())))):
    w = layer.weight.numpy()
    rec[f"dirac_{name}"] = [list(w.shape), np.argwhere(w != 0).tolist(), w[w != 0].tolist()]
x = paddle.to_tensor(np.random.default_rng(0).standard_normal((1, 2, 5)).astype("float32"))
d1 = nn.Conv1D(2, 2, 3, padding=1, bias_attr=False, weight_attr=paddle.ParamAttr(initializer=init.Dirac()))
rec["dirac_identity"] = bool(np.allclose(d1(x).numpy(), x.numpy()))
for k, s in ((4, 2), (3, 1), (6, 3)):
    up = nn.Conv2DTranspose(3, 3, k, stride=s, groups=3, bias_attr=False,
                            weight_attr=paddle.ParamAttr(initializer=init.Bilinear()))
    rec[f"bilinear_{k}"] = [list(up.weight.shape), v(up.weight[0, 0]), bool(np.allclose(up.weight[1].numpy(),
                                                                                          up.weight[0].numpy()))]

# calculate_gain
names = ["sigmoid", "linear", "conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose",
         "conv3d_transpose", "tanh", "relu", "leaky_relu", "selu"]
rec["gain"] = {n: init.calculate_gain(n) for n in names}
rec["gain_leaky"] = [init.calculate_gain("leaky_relu", 0.2), init.calculate_gain("leaky_relu", param=0.0),
                     init.calculate_gain("leaky_relu", 1)]
rec["gain_bad"] = [err(lambda: init.calculate_gain("gelu")), err(lambda: init.calculate_gain("Tanh"))]

# set_global_initializer: weight and bias, precedence against ParamAttr and a layer's own default, reset by None
init.set_global_initializer(init.Constant(0.3), init.Constant(-0.2))
g_lin = nn.Linear(2, 3)
g_conv = nn.Conv2D(1, 2, 2)
g_emb = nn.Embedding(4, 2)
g_attr = nn.Linear(2, 2, weight_attr=paddle.ParamAttr(initializer=init.Constant(0.9)))
g_bn = nn.BatchNorm2D(2)
g_ln = nn.LayerNorm(3)
g_prelu = nn.PReLU(2)
g_p = paddle.create_parameter([2], "float32")
g_pb = paddle.create_parameter([2], "float32", is_bias=True)
g_pd = paddle.create_parameter([2], "float32", default_initializer=init.Constant(5.0))
rec["global"] = {"lin": [v(g_lin.weight), v(g_lin.bias)], "conv": [v(g_conv.weight), v(g_conv.bias)],
                 "emb": v(g_emb.weight), "attr": [v(g_attr.weight), v(g_attr.bias)],
                 "bn": [v(g_bn.weight), v(g_bn.bias), v(g_bn._mean), v(g_bn._variance)],
                 "ln": [v(g_ln.weight), v(g_ln.bias)], "prelu": v(g_prelu._weight),
                 "create": [v(g_p), v(g_pb), v(g_pd)]}
init.set_global_initializer(init.Uniform(-0.01, 0.01))        # weights only: biases back to their defaults
w_only = nn.Linear(50, 40)
rec["global_weight_only"] = [float(np.abs(w_only.weight.numpy()).max()) <= 0.01, v(w_only.bias)[:3]]
init.set_global_initializer(None)
after = nn.Linear(3, 4)
rec["global_reset"] = [bool(np.abs(after.weight.numpy()).max() > 0.01), v(after.bias)]

# weight_attr / bias_attr: False, a name, an Initializer; ParamAttr's fields on the parameter
no_b = nn.Linear(3, 2, bias_attr=False)
rec["no_bias"] = [no_b.bias is None, [n for n, _ in no_b.named_parameters()],
                  list(no_b(paddle.ones([1, 3])).shape)]
conv_nb = nn.Conv2D(1, 2, 3, bias_attr=False)
rec["conv_no_bias"] = [conv_nb.bias is None, list(conv_nb.state_dict())]
bn_nw = nn.BatchNorm1D(3, weight_attr=False, bias_attr=False)
rec["bn_no_affine"] = [bn_nw.weight is None, bn_nw.bias is None, list(bn_nw.state_dict()),
                       v(bn_nw(paddle.to_tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])))]
ln_nw = nn.LayerNorm(3, weight_attr=False, bias_attr=False)
rec["ln_no_affine"] = [ln_nw.weight is None, list(ln_nw.state_dict())]
named = nn.Linear(2, 2, weight_attr="my_w", bias_attr=paddle.ParamAttr(name="my_b", learning_rate=0.5,
                                                                         trainable=False, do_model_average=False,
                                                                         need_clip=False))
rec["named"] = [named.weight.name, named.bias.name, named.bias.trainable, named.bias.stop_gradient,
                named.bias.do_model_average, named.weight.do_model_average, named.bias.need_clip,
                float(named.bias.optimize_attr["learning_rate"]), list(named.state_dict())]
as_init = nn.Linear(2, 3, weight_attr=init.Constant(0.7), bias_attr=init.Assign([1.0, 2.0, 3.0]))
rec["init_as_attr"] = [v(as_init.weight), v(as_init.bias)]
pa = paddle.ParamAttr(name="pa_w", initializer=init.Constant(0.1), learning_rate=2.0, regularizer=None)
rec["param_attr_fields"] = [pa.name, pa.learning_rate, pa.trainable, pa.do_model_average, pa.need_clip,
                            type(pa.initializer).__name__]


# Layer.create_parameter / paddle.create_parameter: attrs, is_bias, dtype
class Custom(nn.Layer):
    def __init__(self):
        super().__init__()
        self.w_default = self.create_parameter([60, 50])
        self.b_default = self.create_parameter([60], is_bias=True)
        self.w_attr = self.create_parameter([2, 3], attr=paddle.ParamAttr(initializer=init.Constant(0.4)))
        self.w_false = self.create_parameter([2, 3], attr=False)
        self.b_dflt_init = self.create_parameter([3], is_bias=True, default_initializer=init.Constant(0.8))
        self.w64 = self.create_parameter([2, 2], dtype="float64", default_initializer=init.Constant(1.25))
        self.b_attr_over = self.create_parameter([2], attr=paddle.ParamAttr(initializer=init.Constant(-3.0)),
                                                 default_initializer=init.Constant(9.0), is_bias=True)


c = Custom()
wd = c.w_default.numpy().astype(np.float64)
bound = np.sqrt(6.0 / (60 + 50))
rec["layer_create"] = {
    "w_default": [list(wd.shape), str(c.w_default.dtype), bool(np.abs(wd).max() <= bound * 1.0001),
                  bool(np.abs(wd).max() > bound * 0.98)],
    "b_default": v(c.b_default)[:4], "w_attr": v(c.w_attr), "w_false": c.w_false is None,
    "b_dflt_init": v(c.b_dflt_init), "w64": [v(c.w64), str(c.w64.dtype)], "b_attr_over": v(c.b_attr_over),
    "names": [n for n, _ in c.named_parameters()], "is_leaf": [p.stop_gradient for p in c.parameters()]}
pb = paddle.create_parameter([4], "float32", is_bias=True)
pw = paddle.create_parameter([30, 20], "float64")
bound = np.sqrt(6.0 / 50)
rec["create_parameter"] = [v(pb), str(pw.dtype), bool(np.abs(pw.numpy()).max() <= bound * 1.0001),
                           bool(np.abs(pw.numpy()).max() > bound * 0.97), pw.stop_gradient, pw.persistable]


# the layers' own default initializers, by statistics
def uniform_like(a, bound_):
    return [bool(np.abs(a).max() <= bound_ * 1.0001), bool(np.abs(a).max() > bound_ * 0.97)]


def std_close(a, std, tol=0.05):
    return bool(abs(a.std() / std - 1) < tol), bool(abs(a.mean()) < 0.1 * std + 1e-3)


big_lin = nn.Linear(200, 100)
rec["default_linear"] = [uniform_like(big_lin.weight.numpy(), np.sqrt(6 / 300)), v(big_lin.bias)[:3]]
big_conv = nn.Conv2D(16, 32, 3)
cw = big_conv.weight.numpy().astype(np.float64)
rec["default_conv"] = [std_close(cw, np.sqrt(2.0 / (16 * 9))), bool(np.abs(cw).max() > np.sqrt(6 / (16 * 9 + 32 * 9))),
                       v(big_conv.bias)[:3]]
emb = nn.Embedding(300, 64)
rec["default_emb"] = uniform_like(emb.weight.numpy(), np.sqrt(6 / 364))
bn = nn.BatchNorm2D(3)
rec["default_bn"] = [v(bn.weight), v(bn.bias), v(bn._mean), v(bn._variance)]
rec["default_prelu"] = [v(nn.PReLU()._weight), v(nn.PReLU(3, init=0.1)._weight)]


# random initializers by statistics on 2-D and 4-D shapes (fan_in, fan_out from the shape)
def made(initializer, shape, dtype="float32"):
    p = paddle.create_parameter(shape, dtype, default_initializer=initializer)
    return p.numpy().astype(np.float64), str(p.dtype), list(p.shape)


stats = {}
L2, C4 = [400, 300], [64, 32, 3, 3]         # Linear [in, out]; conv [out, in, kh, kw]
fans = {"L2": (400, 300), "C4": (32 * 9, 64 * 9)}
for sname, shape in (("L2", L2), ("C4", C4)):
    fi, fo = fans[sname]
    a, dt, sh = made(init.XavierNormal(), shape)
    stats[f"xn_{sname}"] = [std_close(a, np.sqrt(2.0 / (fi + fo))), dt, sh]
    a, dt, sh = made(init.XavierUniform(gain=1.5), shape)
    stats[f"xu_{sname}"] = uniform_like(a, 1.5 * np.sqrt(6.0 / (fi + fo)))
    a, dt, sh = made(init.KaimingNormal(), shape)
    stats[f"kn_{sname}"] = std_close(a, np.sqrt(2.0 / fi))
    a, dt, sh = made(init.KaimingNormal(mode="fan_out"), shape)
    stats[f"kn_out_{sname}"] = std_close(a, np.sqrt(2.0 / fo))
    a, dt, sh = made(init.KaimingNormal(negative_slope=0.3, nonlinearity="leaky_relu"), shape)
    stats[f"kn_leaky_{sname}"] = std_close(a, np.sqrt(2.0 / (1 + 0.09)) / np.sqrt(fi))
    a, dt, sh = made(init.KaimingUniform(nonlinearity="tanh"), shape)
    stats[f"ku_tanh_{sname}"] = uniform_like(a, 5.0 / 3 * np.sqrt(3.0 / fi))
    a, dt, sh = made(init.KaimingUniform(mode="fan_out", nonlinearity="linear"), shape)
    stats[f"ku_out_{sname}"] = uniform_like(a, np.sqrt(3.0 / fo))
    a, dt, sh = made(init.KaimingNormal(fan_in=10.0), shape)
    stats[f"kn_fanin_{sname}"] = std_close(a, np.sqrt(2.0 / 10))
    a, dt, sh = made(init.XavierUniform(fan_in=30.0, fan_out=70.0), shape)
    stats[f"xu_fans_{sname}"] = uniform_like(a, np.sqrt(6.0 / 100))
    a, dt, sh = made(init.Normal(mean=-1.0, std=0.2), shape, "float64")
    stats[f"normal_{sname}"] = [bool(abs(a.mean() + 1) < 0.01), bool(abs(a.std() / 0.2 - 1) < 0.05), dt]
    a, dt, sh = made(init.TruncatedNormal(mean=1.0, std=2.0, a=-0.5, b=2.5), shape)
    stats[f"tn_{sname}"] = [bool(a.min() >= -0.5), bool(a.max() <= 2.5), bool(a.min() < -0.45),
                            bool(a.max() > 2.45), bool(abs(a.mean() - 1.0) < 0.05)]
    a, dt, sh = made(init.TruncatedNormal(), shape)
    stats[f"tn_default_{sname}"] = [bool(np.abs(a).max() <= 2.0), bool(np.abs(a).max() > 1.95),
                                    bool(abs(a.std() - 0.88) < 0.03)]
    a, dt, sh = made(init.Uniform(-0.5, 1.5), shape)
    stats[f"uniform_{sname}"] = [bool(a.min() >= -0.5), bool(a.max() <= 1.5), bool(abs(a.mean() - 0.5) < 0.02)]
rec["stats"] = stats

# Orthogonal: rows (or columns) orthonormal times the gain, also on a conv shape (flattened per output channel)
orth = {}
for shape, gain in (([8, 8], 1.0), ([5, 12], 2.0), ([12, 5], 1.0), ([6, 2, 2, 2], 1.0), ([4, 3, 3, 3], 0.5)):
    a, dt, sh = made(init.Orthogonal(gain=gain), shape)
    m2 = a.reshape(shape[0], -1)
    r_, c_ = m2.shape
    gram = m2 @ m2.T if r_ <= c_ else m2.T @ m2
    orth[str(shape)] = [bool(np.allclose(gram, gain ** 2 * np.eye(min(r_, c_)), atol=1e-4)), sh]
rec["orthogonal"] = orth

# an initializer applied to an existing parameter, in place, then parameters_to_vector
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
init.Constant(0.25)(model[0].weight)
init.Assign(np.array([1.0, -1.0, 0.5, 2.0], "float32"))(model[0].bias)
init.Dirac()(paddle.create_parameter([2, 2, 3], "float32"))
ky = nn.Linear(300, 200)
init.KaimingUniform()(ky.weight)
rec["reinit_kaiming"] = uniform_like(ky.weight.numpy(), np.sqrt(6.0 / 300))
init.Constant(0.0)(model[2].weight)
init.Constant(1.0)(model[2].bias)
vec = nn.utils.parameters_to_vector(model.parameters())
rec["reinit"] = [v(model[0].weight), v(model[0].bias), v(model[2].weight), v(model[2].bias)]
rec["to_vector"] = [v(vec), list(vec.shape), model[0].weight.stop_gradient]
out = model(paddle.to_tensor([[1.0, 2.0, 3.0]]))
out.sum().backward()
rec["reinit_forward"] = [v(out), v(model[0].weight.grad)]

# more fan rules: 1-D, 3-D (Conv1D) and 5-D (Conv3D) shapes, given fans, a transposed conv's default
more = {}
for shape in ([5000], [80, 30, 5], [16, 8, 3, 3, 3]):
    rf = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    fi = shape[1] * rf if len(shape) > 1 else shape[0]
    fo = shape[0] * rf if len(shape) > 1 else shape[0]
    a, dt, sh = made(init.XavierUniform(), shape)
    more[f"xu_{len(shape)}d"] = uniform_like(a, np.sqrt(6.0 / (fi + fo)))
    a, dt, sh = made(init.KaimingNormal(nonlinearity="selu"), shape)
    more[f"kn_selu_{len(shape)}d"] = std_close(a, 0.75 / np.sqrt(fi), 0.06)
a, dt, sh = made(init.XavierNormal(fan_in=20.0), [300, 100])
more["xn_fan_in_only"] = std_close(a, np.sqrt(2.0 / 120))
more["ku_fan_in_with_mode"] = err(lambda: init.KaimingUniform(fan_in=40.0, mode="fan_out"))
a, dt, sh = made(init.KaimingNormal(negative_slope=0.5, nonlinearity="relu"), [300, 100])
more["kn_slope_relu"] = std_close(a, np.sqrt(2.0 / 300))
a, dt, sh = made(init.KaimingNormal(negative_slope=0.5), [300, 100])
more["kn_slope_default"] = std_close(a, np.sqrt(2.0 / 300))
ct = nn.Conv2DTranspose(16, 8, 4)
a = ct.weight.numpy().astype(np.float64)
more["conv_t_default"] = [list(ct.weight.shape), std_close(a, np.sqrt(2.0 / (8 * 16)), 0.08), v(ct.bias)[:2]]
c1 = nn.Conv1D(20, 10, 5)
more["conv1d_default"] = std_close(c1.weight.numpy().astype(np.float64), np.sqrt(2.0 / 100), 0.08)
gru = nn.GRU(6, 40)
more["gru_default"] = [sorted(n for n, _ in gru.named_parameters()),
                       [uniform_like(p.numpy(), 1 / np.sqrt(40)) for p in gru.parameters()]]
emb_pad = nn.Embedding(6, 3, padding_idx=2)
more["emb_padding_row"] = v(emb_pad.weight[2])
for dt in ("float16", "float64"):
    p = paddle.create_parameter([200, 100], dt, default_initializer=init.XavierNormal())
    more[f"xn_{dt}"] = [str(p.dtype), std_close(p.numpy().astype(np.float64), np.sqrt(2.0 / 300))]
    p = paddle.create_parameter([3], dt, default_initializer=init.Constant(0.1))
    more[f"const_{dt}"] = [str(p.dtype), v(p)]
p = paddle.create_parameter([3], "int64", default_initializer=init.Constant(3.0))
more["const_int"] = [str(p.dtype), np.asarray(p.numpy()).tolist()]
bn_attr = nn.BatchNorm1D(2, weight_attr=paddle.ParamAttr(initializer=init.Constant(2.0), trainable=False),
                         bias_attr=paddle.ParamAttr(initializer=init.Constant(0.5)))
more["bn_attr"] = [v(bn_attr.weight), v(bn_attr.bias), bn_attr.weight.stop_gradient,
                   v(bn_attr(paddle.to_tensor([[1.0, 2.0], [3.0, 6.0]])))]
rec["more_fans"] = more

# misuse
rec["errors"] = {
    "dirac_2d": err(lambda: paddle.create_parameter([3, 3], "float32", default_initializer=init.Dirac())),
    "dirac_groups": err(lambda: nn.Conv2D(3, 4, 3, weight_attr=paddle.ParamAttr(initializer=init.Dirac(groups=2)))),
    "bilinear_2d": err(lambda: paddle.create_parameter([3, 3], "float32", default_initializer=init.Bilinear())),
    "bilinear_rect": err(lambda: paddle.create_parameter([1, 1, 3, 4], "float32", default_initializer=init.Bilinear())),
    "dirac_divisible": err(lambda: paddle.create_parameter([3, 2, 3], "float32", default_initializer=init.Dirac(groups=2))),
    "dirac_groups0": err(lambda: init.Dirac(groups=0)),
    "orthogonal_1d": err(lambda: paddle.create_parameter([4], "float32", default_initializer=init.Orthogonal())),
    "kaiming_nonlinearity": err(lambda: paddle.create_parameter(
        [2, 2], "float32", default_initializer=init.KaimingNormal(nonlinearity="gelu"))),
    "kaiming_mode": err(lambda: paddle.create_parameter([3, 3], "float32",
                                                        default_initializer=init.KaimingNormal(mode="fan_avg"))),
}

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
