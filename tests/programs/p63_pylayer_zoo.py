"""Custom autograd as users write it with ``paddle.autograd.PyLayer``: a straight-through rounding / sign estimator
(identity gradient), a gradient-clipping layer (identity forward, clipped gradient), a custom activation saving its
input with ``ctx.save_for_backward`` and reading ``ctx.saved_tensor()``, a PyLayer with several outputs (one not
used in the loss, an integer index output marked with ``ctx.mark_non_differentiable``,
``set_materialize_grads(False)`` so that the unused output's gradient arrives as None), non-Tensor arguments
(floats, ints, lists, None, keyword arguments, a Tensor inside a list), backward returning None for an input, a
backward computed with paddle ops on saved tensors, a PyLayer inside an ``nn.Layer`` trained 20 steps with Adam,
PyLayers under ``paddle.jit.to_static``, ``paddle.grad(create_graph=True)`` through a backward written with paddle
ops (double backward), in-place ops in forward on the input (``ctx.mark_not_inplace``; Paddle has no
``mark_dirty``), ``ctx`` attributes, the ``stop_gradient`` of outputs, a model with a PyLayer trained under
``to_static``, ``recompute`` (itself a PyLayer), ``once_differentiable``, a PyLayer whose output dtype differs from
its input's, and the misuse users hit (backward returning the wrong number of gradients or a gradient for an input
that needs none, forward returning no Tensor, returning a leaf input unchanged): the exception types are recorded.

Left out (Paddle 3.3.1 crashes or is wrong; pylayer_jax keeps the sane result): a second ``backward`` through a
PyLayer's node (``retain_graph=True`` then ``backward()`` again) is a segmentation fault in Paddle, so every graph
here is walked once; with ``ctx.mark_not_inplace(x)`` and forward returning ``x``, Paddle's new output carries no
gradient back to ``x`` (``x.grad`` stays None; pylayer_jax gives backward's gradient), so only the output is recorded
there; a backward returning a gradient of the wrong shape (``[1]`` for a ``[2, 2]`` input) is accepted by Paddle,
which stores the wrong-shaped ``x.grad`` (pylayer_jax raises a ValueError naming the shapes); calling the class on
Tensors (``Cube(x)`` instead of ``Cube.apply(x)``) gives an unused PyLayer object in Paddle (pylayer_jax raises a
TypeError that names ``apply``); ``paddle.grad(..., create_graph=True)`` hands backward a gradient whose
``stop_gradient`` is False in Paddle and True here (without create_graph both say False); and a backward that
returns a gradient for an input ``paddle.grad`` was not asked about raises in Paddle even when that input needs a
gradient, so the double backward asks for every input. Also not mirrored: a tensor saved with
``save_for_backward`` and written in place afterwards reaches backward with its new values in Paddle (pylayer_jax keeps
the values it had when saved: the gradient of what forward computed); a second ``paddle.grad`` through a backward
decorated with ``once_differentiable`` silently adds nothing in Paddle (pylayer_jax raises a RuntimeError saying so);
``ctx.save_for_backward`` called in backward is ignored by Paddle (a RuntimeError here: it only configures forward);
a backward returning a numpy array raises in Paddle (taken here), one returning an int64 gradient for a float32 input
leaves an int64 ``x.grad`` in Paddle (cast to float32 here), and a float32 gradient for a float64 input leaves a
float32 ``x.grad`` (float64 here); ``saved_tensor()`` gives the saved Tensor objects themselves in Paddle (``is``
holds) and fresh Tensors of the same values here; forward returning a dict of Tensors raises in Paddle (taken here)."""
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
    if t is None:
        return None
    a = t.numpy()
    return a.tolist() if a.dtype.kind in "biu" else a.astype("float64").tolist()


def attempt(f):
    try:
        r = f()
        return ["ok", r]
    except Exception as e:  # the type is the result
        return ["error", type(e).__name__]


def leaf(a, dtype="float32"):
    return paddle.to_tensor(np.asarray(a, dtype=dtype), stop_gradient=False)


# --- 1. straight-through estimators ---
class RoundSTE(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return paddle.round(x)

    @staticmethod
    def backward(ctx, dy):
        return dy


class SignSTE(PyLayer):
    @staticmethod
    def forward(ctx, x, clip=1.0):
        ctx.save_for_backward(x)
        ctx.clip = clip
        return paddle.sign(x)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy * (x.abs() <= ctx.clip).astype(dy.dtype)


x = leaf(rng.standard_normal((3, 4)) * 1.5)
y = RoundSTE.apply(x * 2.0)
(y * paddle.arange(12, dtype="float32").reshape([3, 4])).sum().backward()
rec["round_ste"] = [v(y), v(x.grad), y.stop_gradient, y.dtype == paddle.float32]
x2 = leaf(rng.standard_normal((5,)) * 1.5)
s = SignSTE.apply(x2, clip=0.8)
(s * paddle.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0])).sum().backward()
rec["sign_ste"] = [v(s), v(x2.grad)]


# --- 2. gradient clipping layer ---
class ClipGrad(PyLayer):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.lo, ctx.hi = lo, hi
        return x.clone()

    @staticmethod
    def backward(ctx, dy):
        return paddle.clip(dy, ctx.lo, ctx.hi)


x3 = leaf(rng.standard_normal((4,)))
out = ClipGrad.apply(x3, -0.5, 0.5)
(out * paddle.to_tensor([-3.0, -0.2, 0.3, 4.0])).sum().backward()
rec["clip_grad"] = [v(out), v(x3.grad)]


# --- 3. a custom activation saving its input ---
class Swish(PyLayer):
    @staticmethod
    def forward(ctx, x, beta):
        ctx.save_for_backward(x, beta)
        return x * F.sigmoid(beta * x)

    @staticmethod
    def backward(ctx, dy):
        x, beta = ctx.saved_tensor()
        sg = F.sigmoid(beta * x)
        dx = dy * (sg + beta * x * sg * (1 - sg))
        dbeta = (dy * x * x * sg * (1 - sg)).sum().reshape(beta.shape)
        return dx, dbeta


x4 = leaf(rng.standard_normal((2, 3)))
beta = leaf([1.3])
sw = Swish.apply(x4, beta)
sw.pow(2).sum().backward()
ref_x = leaf(x4.numpy())
ref_b = leaf([1.3])
(ref_x * F.sigmoid(ref_b * ref_x)).pow(2).sum().backward()
rec["swish"] = [v(sw), v(x4.grad), v(beta.grad), v(ref_x.grad), v(ref_b.grad)]


# --- 4. several outputs, non-differentiable ones, None grads ---
class TopAndRest(PyLayer):
    @staticmethod
    def forward(ctx, x):
        idx = paddle.argmax(x, axis=-1)
        top = paddle.max(x, axis=-1)
        rest = x - top.unsqueeze(-1)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        ctx.set_materialize_grads(False)
        return top, idx, rest

    @staticmethod
    def backward(ctx, g_top, g_idx, g_rest):
        x, idx = ctx.saved_tensor()
        ctx.seen = [g_top is None, g_idx is None, g_rest is None]
        onehot = F.one_hot(idx, x.shape[-1]).astype(x.dtype)
        dx = paddle.zeros_like(x)
        if g_top is not None:
            dx = dx + g_top.unsqueeze(-1) * onehot
        if g_rest is not None:
            dx = dx + g_rest - g_rest.sum(-1, keepdim=True) * onehot
        return dx


seen_log = []


class TopAndRestLogged(TopAndRest):
    @staticmethod
    def backward(ctx, g_top, g_idx, g_rest):
        seen_log.append([g_top is None, g_idx is None, g_rest is None])
        return TopAndRest.backward(ctx, g_top, g_idx, g_rest)


x5 = leaf(rng.standard_normal((3, 4)))
top, idx, rest = TopAndRestLogged.apply(x5)
rec["multi_out_flags"] = [top.stop_gradient, idx.stop_gradient, rest.stop_gradient, str(idx.dtype)]
(top * 2.0).sum().backward()                 # only `top` used
rec["multi_out_top_only"] = [v(top), v(idx), v(x5.grad)]
x6 = leaf(x5.numpy())
top, idx, rest = TopAndRestLogged.apply(x6)
(top.sum() + (rest * rest).sum()).backward()
rec["multi_out_both"] = [v(rest), v(x6.grad)]
rec["multi_out_seen"] = seen_log


class TwoOutMaterialized(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2.0, x * 3.0

    @staticmethod
    def backward(ctx, ga, gb):
        seen_log.append([ga is None, gb is None, v(gb)])
        return ga * 2.0 + gb * 3.0


x7 = leaf([1.0, 2.0])
a, b = TwoOutMaterialized.apply(x7)
a.sum().backward()                            # b unused: a zero gradient arrives (materialised)
rec["materialized"] = [v(x7.grad), seen_log[-1]]


# --- 5. non-Tensor arguments, keywords, None, a None gradient ---
class Affine(PyLayer):
    @staticmethod
    def forward(ctx, x, w, bias=None, scale=1.0, axes=(0,), n=2, tag=None):
        ctx.save_for_backward(x, w)
        ctx.scale, ctx.axes, ctx.n, ctx.tag, ctx.has_bias = scale, list(axes), n, tag, bias is not None
        y = (x * w) * scale
        for _ in range(n - 1):
            y = y + x
        if bias is not None:
            y = y + bias
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w = ctx.saved_tensor()
        dx = dy * w * ctx.scale + dy * (ctx.n - 1)
        dw = (dy * x * ctx.scale).sum(axis=ctx.axes)
        if ctx.has_bias:
            return dx, dw, dy.sum(axis=ctx.axes)
        return dx, dw


x8 = leaf(rng.standard_normal((3, 2)))
w8 = leaf(rng.standard_normal((2,)))
b8 = leaf([0.5, -0.5])
y8 = Affine.apply(x8, w8, b8, scale=0.5, axes=[0], n=3, tag="hello")
(y8 ** 2).sum().backward()
rec["kw_args"] = [v(y8), v(x8.grad), v(w8.grad), v(b8.grad)]
x9 = leaf(rng.standard_normal((3, 2)))
w9 = leaf(rng.standard_normal((2,)))
y9 = Affine.apply(x9, w9, None, 2.0, (0,), 1)
y9.sum().backward()
rec["positional_args_none_bias"] = [v(y9), v(x9.grad), v(w9.grad)]


class NoGradForSecond(PyLayer):
    @staticmethod
    def forward(ctx, x, mask):
        ctx.save_for_backward(mask)
        return x * mask

    @staticmethod
    def backward(ctx, dy):
        (mask,) = ctx.saved_tensor()
        return dy * mask, None


x10 = leaf([1.0, -2.0, 3.0])
m10 = leaf([1.0, 0.0, 1.0])
NoGradForSecond.apply(x10, m10).sum().backward()
rec["none_grad"] = [v(x10.grad), v(m10.grad)]
x11 = leaf([1.0, 2.0])
m11 = paddle.to_tensor([0.0, 1.0])           # stop_gradient=True input: backward's None fits it
r11 = NoGradForSecond.apply(x11, m11)
r11.sum().backward()
rec["none_grad_constant"] = [v(x11.grad), m11.grad is None, r11.stop_gradient]


class ListArg(PyLayer):
    @staticmethod
    def forward(ctx, x, coefs, offset):
        ctx.coefs = coefs
        out = paddle.zeros_like(x)
        for i, c in enumerate(coefs):
            out = out + c * x ** (i + 1)
        return out + offset

    @staticmethod
    def backward(ctx, dy):
        # the backward uses the saved non-tensor list; x itself comes from ctx
        x = ctx.x
        d = paddle.zeros_like(x)
        for i, c in enumerate(ctx.coefs):
            d = d + c * (i + 1) * x ** i
        return dy * d


class ListArgSaving(ListArg):
    @staticmethod
    def forward(ctx, x, coefs, offset):
        ctx.x = x
        return ListArg.forward(ctx, x, coefs, offset)


x12 = leaf([0.5, 1.0, -1.5])
y12 = ListArgSaving.apply(x12, [1.0, -0.5, 0.25], 3)
y12.sum().backward()
rec["list_arg"] = [v(y12), v(x12.grad)]


class WeightedSum(PyLayer):
    @staticmethod
    def forward(ctx, xs, w, squash=False):
        ctx.save_for_backward(w)
        ctx.n = len(xs)
        y = paddle.add_n([x * w for x in xs])
        return paddle.tanh(y) if squash else y

    @staticmethod
    def backward(ctx, dy):
        (w,) = ctx.saved_tensor()
        return [dy * w * (k + 1) for k in range(ctx.n)], dy * 0.0 + 1.0


xa, xb, ws = leaf([1.0, 2.0]), leaf([3.0, 4.0]), leaf([0.5, -1.0])
yl = WeightedSum.apply([xa, xb], ws)
(yl * yl).sum().backward()
rec["tensor_list_arg"] = [v(yl), v(xa.grad), v(xb.grad), v(ws.grad)]


# --- 6. no input needs a gradient; all inputs constants ---
xc = paddle.to_tensor([1.0, 2.0])
yc = Swish.apply(xc, paddle.to_tensor([1.0]))
rec["all_constant"] = [v(yc), yc.stop_gradient]
with paddle.no_grad():
    yn = Swish.apply(leaf([1.0, 2.0]), leaf([1.0]))
rec["under_no_grad"] = [v(yn), yn.stop_gradient]


# --- 7. PyLayer inside an nn.Layer, trained ---
class QuantLinear(nn.Layer):
    def __init__(self, fin, fout, bits):
        super().__init__()
        self.lin = nn.Linear(fin, fout)
        self.levels = 2 ** bits - 1

    def forward(self, x):
        scale = self.lin.weight.abs().max() / (self.levels / 2)
        wq = RoundSTE.apply(self.lin.weight / scale) * scale
        return F.linear(x, wq, self.lin.bias)


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.q1 = QuantLinear(5, 8, 4)
        self.beta = self.create_parameter([1], default_initializer=nn.initializer.Constant(1.0))
        self.q2 = QuantLinear(8, 2, 4)

    def forward(self, x):
        h = Swish.apply(self.q1(x), self.beta)
        h = ClipGrad.apply(h, -0.1, 0.1)
        return self.q2(h)


X = rng.standard_normal((24, 5)).astype("float32")
Y = np.stack([np.sin(X[:, 0]) + X[:, 1], X[:, 2] * X[:, 3]], 1).astype("float32")
net = Net()
r = np.random.default_rng(1)
net.set_state_dict({k: (r.standard_normal(p.shape) * 0.5 + (1.0 if k == "beta" else 0.0)).astype("float32")
                    for k, p in net.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=net.parameters())
rec["train_loss"] = []
for step in range(20):
    i = (step % 3) * 8
    pred = net(paddle.to_tensor(X[i:i + 8]))
    loss = F.mse_loss(pred, paddle.to_tensor(Y[i:i + 8]))
    loss.backward()
    if step == 0:
        rec["train_grads0"] = {n: v(p.grad) for n, p in net.named_parameters()}
    opt.step()
    opt.clear_grad()
    rec["train_loss"].append(float(loss))
rec["train_beta"] = v(net.beta)
net.eval()
rec["train_eval"] = v(net(paddle.to_tensor(X[:4])))


# --- 8. under paddle.jit.to_static ---
class Scaled(nn.Layer):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    def forward(self, x):
        return SignSTE.apply(self.lin(x)) + Swish.apply(x, paddle.to_tensor([0.7]))


sm = Scaled()
sm.set_state_dict({k: (np.random.default_rng(2).standard_normal(p.shape) * 0.5).astype("float32")
                   for k, p in sm.state_dict().items()})
xs = paddle.to_tensor(rng.standard_normal((2, 3)).astype("float32"))
eager = sm(xs)
eager.sum().backward()
eager_grads = [v(p.grad) for p in sm.parameters()]
sm.clear_gradients()
static = paddle.jit.to_static(sm)
st = static(xs)
st.sum().backward()
rec["to_static"] = [v(eager), v(st), eager_grads, [v(p.grad) for p in sm.parameters()]]


@paddle.jit.to_static
def static_fn(x, w):
    return Affine.apply(x, w, None, scale=2.0, axes=[0], n=2).sum()


xf, wf = leaf(rng.standard_normal((3, 2))), leaf([0.3, -0.7])
lf = static_fn(xf, wf)
lf.backward()
rec["to_static_fn"] = [float(lf), v(xf.grad), v(wf.grad)]


# --- 9. double backward through a backward written with paddle ops ---
class Cube(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 3.0 * x * x * dy


xd = leaf([0.5, -1.0, 2.0])
yd = Cube.apply(xd)
(g,) = paddle.grad(yd.sum(), xd, create_graph=True)
rec["double_first"] = [v(g), g.stop_gradient]
(g2,) = paddle.grad((g * g).sum(), xd)
rec["double_second"] = v(g2)
xd2 = leaf([1.0, 2.0])
bd2 = leaf([1.0])
gs, gb = paddle.grad(Swish.apply(xd2, bd2).sum(), [xd2, bd2], create_graph=True)
(gs.sum() + gb.sum()).backward()
rec["double_swish"] = [v(gs), v(gb), v(xd2.grad), v(bd2.grad)]
# gradient penalty: the backward graph of a PyLayer is trained through
wp = leaf([[0.3, -0.2], [0.1, 0.4]])
xp = leaf([[1.0, -1.0], [0.5, 2.0]])
hp = Cube.apply(paddle.matmul(xp, wp))
(gx,) = paddle.grad(hp.sum(), xp, create_graph=True)
pen = ((gx.norm(p=2, axis=1) - 1.0) ** 2).mean()
pen.backward()
rec["grad_penalty"] = [float(pen), v(gx), v(wp.grad)]


# --- 10. in-place ops in forward ---
class InplaceRelu(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = x.clone()
        y.clip_(min=0.0)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy * (y > 0).astype(dy.dtype)


xi = leaf([-1.0, 0.5, 2.0])
yi = InplaceRelu.apply(xi * 1.0)
(yi * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
rec["inplace_clone"] = [v(yi), v(xi.grad)]


class PassThrough(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_not_inplace(x)
        return x

    @staticmethod
    def backward(ctx, dy):
        return dy * 4.0


class Identity(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, dy):
        return dy * 4.0


xt = leaf([1.0, 2.0])
h = xt * 1.0
yt = PassThrough.apply(h)
rec["not_inplace"] = [v(yt), yt is h, yt.stop_gradient]
xt = leaf([1.0, 2.0])
h = xt * 1.0
yt = Identity.apply(h)
(yt * yt).sum().backward()
rec["returns_input"] = [v(yt), v(xt.grad), yt is h]
rec["returns_leaf_input"] = attempt(lambda: Identity.apply(leaf([1.0])) and "done")


class ScaleInPlace(PyLayer):
    @staticmethod
    def forward(ctx, x):
        x.scale_(2.0)
        return x

    @staticmethod
    def backward(ctx, dy):
        return dy * 2.0


xsi = leaf([1.0, -3.0])
hsi = xsi * 1.0
ysi = ScaleInPlace.apply(hsi)
(ysi * paddle.to_tensor([1.0, 10.0])).sum().backward()
rec["inplace_on_input"] = [v(ysi), v(hsi), v(xsi.grad)]


# --- 11. a PyLayer applied twice, saved tensors kept per call; grads accumulate over two graphs ---
xr = leaf([1.0, 2.0])
ya = Cube.apply(xr)
yb = Cube.apply(ya * 0.5)
yb.sum().backward()
first = v(xr.grad)
Cube.apply(xr * 2.0).sum().backward()
rec["applied_twice"] = [v(yb), first, v(xr.grad)]


# --- 12. ctx attributes and the tensors forward sees ---
class Inspect(PyLayer):
    @staticmethod
    def forward(ctx, x, y):
        info.append([x.stop_gradient, y.stop_gradient, paddle.is_grad_enabled()])
        ctx.save_for_backward(x)
        return x + y

    @staticmethod
    def backward(ctx, dy):
        info.append([paddle.is_grad_enabled(), dy.stop_gradient, list(dy.shape)])
        return dy, dy * 2


info = []
ia, ib = leaf([1.0, 2.0]), leaf([3.0, 4.0])
Inspect.apply(ia, ib).sum().backward()
rec["inspect"] = [info, v(ia.grad), v(ib.grad)]


# --- 13. more that users write: to_static training, recompute, once_differentiable, dtypes, tuples ---
class HalfSTE(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return paddle.round(x)

    @staticmethod
    def backward(ctx, dy):
        return dy * 0.5


class StaticNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 1)

    def forward(self, x):
        return self.lin(HalfSTE.apply(x * 3.0))


snet = StaticNet()
snet.lin.weight.set_value(paddle.to_tensor([[0.1], [0.2], [-0.3]]))
snet.lin.bias.set_value(paddle.to_tensor([0.05]))
snet_static = paddle.jit.to_static(snet)
sopt = paddle.optimizer.SGD(0.1, parameters=snet.parameters())
XS = paddle.to_tensor(np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3), stop_gradient=False)
rec["static_train"] = []
for _ in range(4):
    loss = (snet_static(XS) ** 2).mean()
    loss.backward()
    rec["static_train"].append([float(loss), v(XS.grad)[0]])
    sopt.step()
    sopt.clear_grad()
    XS.clear_gradient()
rec["static_train_w"] = v(snet.lin.weight)

from paddle.distributed.fleet.utils import recompute  # noqa: E402  (recompute is a PyLayer)

blk = nn.Sequential(nn.Linear(3, 3), nn.Tanh())
blk[0].weight.set_value(paddle.eye(3) * 0.5)
blk[0].bias.set_value(paddle.zeros([3]))
xrc = leaf([[1.0, 2.0, 3.0]])
yrc = recompute(blk, xrc)
yrc.sum().backward()
rec["recompute"] = [v(yrc), v(xrc.grad), v(blk[0].weight.grad), v(blk[0].bias.grad)]

from paddle.autograd.py_layer import once_differentiable  # noqa: E402


class OnceCube(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        info.append([paddle.is_grad_enabled(), dy.stop_gradient])
        return 3 * x * x * dy


info = []
xo = leaf([1.0, 2.0])
OnceCube.apply(xo).sum().backward()
rec["once_differentiable"] = [v(xo.grad), info]


class ToBf16(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x.astype("bfloat16") * 2

    @staticmethod
    def backward(ctx, dy):
        info.append(str(dy.dtype))
        return dy.astype("float32") * 2


info = []
xb16 = leaf([1.0, 2.0])
yb16 = ToBf16.apply(xb16)
yb16.astype("float32").sum().backward()
rec["dtype_change"] = [str(yb16.dtype), str(xb16.grad.dtype), v(xb16.grad), info]


class OneTuple(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return (x * 2,)

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


class Nothing(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        info.append(ctx.saved_tensor() is None)
        return dy


info = []
xtup = leaf([1.0])
rtup = OneTuple.apply(xtup)
rtup[0].sum().backward()
xn = leaf([1.0])
Nothing.apply(xn).sum().backward()
rec["one_tuple_nothing_saved"] = [type(rtup).__name__, len(rtup), v(xtup.grad), info]


class NonDiffFloat(PyLayer):
    @staticmethod
    def forward(ctx, x):
        a, b = x * 2, x * 3
        ctx.mark_non_differentiable(b)
        return a, b

    @staticmethod
    def backward(ctx, da, db):
        info.append(v(db))
        return da * 2


info = []
xnd = leaf([1.0, 2.0])
and_, bnd = NonDiffFloat.apply(xnd)
(and_.sum() + bnd.sum()).backward()
rec["non_diff_float"] = [and_.stop_gradient, bnd.stop_gradient, v(xnd.grad), info]


# --- 14. misuse ---
class TooMany(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2.0

    @staticmethod
    def backward(ctx, dy):
        return dy, dy


class TooFew(PyLayer):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, dy):
        return dy


class NoTensorOut(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return 3.0

    @staticmethod
    def backward(ctx, dy):
        return dy


def misuse_too_many():
    x = leaf([1.0, 2.0])
    TooMany.apply(x).sum().backward()
    return v(x.grad)


def misuse_too_few():
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    TooFew.apply(x, y).sum().backward()
    return v(x.grad)


rec["misuse_too_many"] = attempt(misuse_too_many)
rec["misuse_too_few"] = attempt(misuse_too_few)
rec["misuse_no_tensor_out"] = attempt(lambda: NoTensorOut.apply(leaf([1.0])))


def misuse_grad_for_constant():
    x = leaf([1.0, 2.0])
    Swish.apply(x, paddle.to_tensor([1.0])).sum().backward()   # backward returns a gradient for the constant beta
    return v(x.grad)


rec["misuse_grad_for_constant"] = attempt(misuse_grad_for_constant)
rec["misuse_saved_twice"] = attempt(lambda: Cube.apply(leaf([1.0])).sum().backward() or "done")

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
