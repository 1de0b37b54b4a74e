"""Tensor methods of everyday Paddle code, in-place and utility ones first: ``fill_`` / ``zero_``,
``fill_diagonal_`` (offset, wrap, non-square), ``fill_diagonal_tensor_`` (offset, dims), ``index_put_`` (accumulate),
``index_fill_``, ``masked_fill_`` with a Tensor value, ``masked_scatter_``, ``scatter_`` (overwrite True/False),
``paddle.scatter_nd_add``, ``put_along_axis_`` (assign/add/mul, reduce), ``index_add_``, ``clip_``,
``exponential_`` / ``uniform_`` / ``normal_`` (shapes, dtypes and loose statistics only), ``copy_`` and
``set_value``; ``clone`` and ``detach`` on shared memory (a write through one seen by the other?), ``numpy()`` and
``np.asarray`` (``__array__``) after a write; ``element_size``, ``is_contiguous`` / ``contiguous``, ``tolist`` /
``item`` on several dtypes, ``__index__`` (a tensor as a list index and in ``range``), ``__bool__``, ``__len__``,
``__contains__``, iteration; ``register_hook`` and ``handle.remove()``, ``retain_grads`` on a non-leaf,
``backward(grad_tensor=...)``, ``Tensor.apply`` / ``apply_`` (under no_grad), ``inplace_version`` counting the
writes; and the gradients after in-place ops: a non-leaf edited in place then backward, a leaf's clone edited in
place, in-place ops chained in a small model trained a few SGD steps; the gradients reaching the sources of in-place
writes (``index_add_``'s source, ``scatter_``'s updates, ``index_put_``'s values, ``masked_scatter_``'s source,
``put_along_axis_``'s values, ``copy_``'s source), a hook on a non-leaf with ``retain_grads``, ``detach_``.

Left out (Paddle 3.3.1 crashes or is wrong; pylayer_jax raises a clear error instead): ``fill_diagonal_`` of a 1-D
tensor is a SIGFPE in Paddle (a ValueError here); ``put_along_axis_`` with an index past the axis writes nothing
for it in Paddle (an IndexError here); ``Tensor.apply_`` whose function returns a non-Tensor is a segmentation
fault in Paddle (a TypeError here), and one that changes the shape or dtype swaps the storage in Paddle (a ValueError
here: the tensor keeps its shape and dtype). A float Tensor as a list index (``lst[paddle.to_tensor(1.0)]``) is
truncated by Paddle's ``__index__``; here it is a TypeError (only integer tensors index), so ``float_tensor * [..]``
is a TypeError too (only a 0-D int Tensor repeats a sequence, as ``int``). ``set_value`` does not count in Paddle's
``inplace_version``; here it does, so a backward through a tensor overwritten by ``set_value`` after an op saved it
raises (Paddle silently uses the new values). Ops that save their output (``exp``, ``tanh``) edited in place then
backward raise in Paddle (see p30): the in-place edits here follow ops that save their inputs.
Paddle 3.3.1 gives a zero gradient to a Tensor ``value`` of ``masked_fill`` / ``masked_fill_`` (the value written
at every masked position); pylayer_jax gives its gradient (the sum of the output's gradient there), so the value
filled here stops gradient. ``tolist()`` of a bfloat16 Tensor gives the raw 16-bit patterns in Paddle (16320 for
1.5); here the values, so only bfloat16 ``item()`` is recorded.
"""

import json
import os

import numpy as np
import paddle

rng = np.random.default_rng(7)
rec = {}


def v(t):
    return np.asarray(t.numpy()).astype(np.float64).tolist()


def err(fn):
    try:
        fn()
        return "ok"
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


# ---------- fills ----------
a = paddle.to_tensor(np.arange(12, dtype="float32").reshape(3, 4))
a.fill_(2.5)
rec["fill_"] = v(a)
a.zero_()
rec["zero_"] = v(a)
for name, shape, val, off, wrap in (("sq", (4, 4), 1.0, 0, False), ("off1", (3, 4), 5.0, 1, False),
                                    ("offneg", (4, 3), 7.0, -1, False), ("tall_wrap", (7, 3), 9.0, 0, True),
                                    ("tall_nowrap", (7, 3), 9.0, 0, False)):
    t = paddle.zeros(shape)
    out = t.fill_diagonal_(val, offset=off, wrap=wrap)
    rec["fill_diagonal_" + name] = [v(t), out is t]
t = paddle.zeros([3, 4])
t.fill_diagonal_tensor_(paddle.to_tensor([1.0, 2.0, 3.0]), offset=1)
rec["fill_diagonal_tensor_off1"] = v(t)
t = paddle.zeros([2, 3, 3])
t.fill_diagonal_tensor_(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), dim1=0, dim2=2)
rec["fill_diagonal_tensor_dims"] = v(t)
rec["fill_diagonal_tensor_fn"] = v(paddle.ones([3, 3]).fill_diagonal_tensor(paddle.to_tensor([7.0, 8.0]), offset=-1))

# ---------- indexed writes ----------
base = rng.standard_normal((4, 5)).astype("float32")
t = paddle.to_tensor(base)
idx = (paddle.to_tensor([0, 2, 0]), paddle.to_tensor([1, 3, 1]))
t.index_put_(idx, paddle.to_tensor([1.0, 2.0, 3.0]), accumulate=True)
rec["index_put_acc"] = v(t)
t = paddle.to_tensor(base)
t.index_put_((paddle.to_tensor([1, 3]),), paddle.to_tensor(9.0))
rec["index_put_row"] = v(t)
t = paddle.to_tensor(base)
t.index_fill_(paddle.to_tensor([0, 3]), axis=1, value=-1.0)
rec["index_fill_"] = v(t)
t = paddle.to_tensor(base)
mask = paddle.to_tensor(base > 0.3)
t.masked_fill_(mask, paddle.to_tensor(4.0))
rec["masked_fill_tensor"] = v(t)
t = paddle.to_tensor(base)
t.masked_fill_(paddle.to_tensor(base[0] > 0), -2.0)  # a mask broadcast over the rows
rec["masked_fill_bcast"] = v(t)
t = paddle.to_tensor(base)
src = paddle.to_tensor(np.arange(20, dtype="float32").reshape(4, 5) + 100)
t.masked_scatter_(mask, src)
rec["masked_scatter_"] = v(t)
rec["masked_scatter_fn"] = v(paddle.masked_scatter(paddle.to_tensor(base), mask, src))
t = paddle.zeros([4, 3])
upd = paddle.to_tensor(np.arange(9, dtype="float32").reshape(3, 3) + 1)
t.scatter_(paddle.to_tensor([1, 3, 1]), upd, overwrite=False)
rec["scatter_add_mode"] = v(t)
t = paddle.zeros([4, 3])
t.scatter_(paddle.to_tensor([2, 0]), upd[:2], overwrite=True)
rec["scatter_overwrite"] = v(t)
rec["scatter_nd_add"] = v(paddle.scatter_nd_add(paddle.zeros([3, 4]), paddle.to_tensor([[0, 1], [2, 3], [0, 1]]),
                                                paddle.to_tensor([1.0, 2.0, 3.0])))
rec["scatter_nd_add_rows"] = v(paddle.scatter_nd_add(paddle.ones([3, 2]), paddle.to_tensor([[1], [1]]),
                                                     paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])))
for red in ("assign", "add", "mul", "multiply", "mean", "amax", "amin"):
    t = paddle.to_tensor(base)
    res = err(lambda t=t, red=red: t.put_along_axis_(paddle.to_tensor([[0, 1, 0, 2, 3]]), paddle.to_tensor(3.0),
                                                     axis=0, reduce=red))
    rec["put_along_axis_" + red] = [res, v(t)]
t = paddle.to_tensor(base)
t.put_along_axis_(paddle.to_tensor([[0], [1], [1], [4]]), paddle.to_tensor([[1.0], [2.0], [3.0], [4.0]]), axis=1,
                  reduce="add", include_self=False)
rec["put_along_axis_noself"] = v(t)
t = paddle.to_tensor(base)
t.index_add_(paddle.to_tensor([0, 2, 0]), 0, paddle.ones([3, 5]), alpha=2.0)
rec["index_add_"] = v(t)
t = paddle.to_tensor(base)
t.clip_(min=-0.5, max=0.5)
rec["clip_"] = v(t)
t = paddle.to_tensor(base)
t.clip_(max=0.1)
rec["clip_max"] = v(t)

# ---------- random in-place fills: shapes, dtypes, loose statistics ----------
paddle.seed(1)
for name, make in (("exponential_", lambda t: t.exponential_(lam=2.0)),
                   ("uniform_", lambda t: t.uniform_(min=-2.0, max=1.0)),
                   ("normal_", lambda t: t.normal_(mean=3.0, std=0.5))):
    t = paddle.zeros([4000], dtype="float64" if name == "normal_" else "float32")
    out = make(t)
    arr = t.numpy()
    rec[name] = {"same": out is t, "dtype": str(t.dtype), "shape": t.shape,
                 "mean_ok": bool(abs(arr.mean() - {"exponential_": 0.5, "uniform_": -0.5, "normal_": 3.0}[name])
                                 < 0.05),
                 "min": bool(arr.min() >= (0 if name == "exponential_" else -2.0 if name == "uniform_" else -9)),
                 "max": bool(arr.max() <= (99 if name != "uniform_" else 1.0))}

# ---------- copies, sharing ----------
x = paddle.to_tensor([1.0, 2.0, 3.0])
c = x.clone()
d = x.detach()
x[0] = 10.0
rec["clone_sees_write"] = v(c)
rec["detach_sees_write"] = v(d)
d[1] = 20.0
rec["orig_sees_detach_write"] = v(x)
n = x.numpy()
x[2] = 30.0
rec["numpy_after_write"] = n.tolist()
arr = np.asarray(x)
rec["array_protocol"] = [arr.dtype.name, arr.tolist()]
y = paddle.zeros([3])
y.copy_(x)
x[0] = -1.0
rec["copy_"] = [v(y), v(x)]
y.set_value(np.array([4.0, 5.0, 6.0], "float32"))
rec["set_value"] = v(y)
z = paddle.zeros([2, 3], dtype="float64")
rec["copy_other_dtype"] = err(lambda: z.copy_(paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype="float32")))

# ---------- utilities ----------
for dt in ("float16", "float32", "float64", "int8", "int32", "int64", "bool", "complex64", "bfloat16", "uint8"):
    rec["element_size_" + dt] = paddle.zeros([2], dtype=dt).element_size()
m = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
tr = m.transpose([1, 0])
rec["contiguous"] = [m.is_contiguous(), tr.contiguous().is_contiguous(), v(tr.contiguous())]
rec["tolist"] = {
    "f32": paddle.to_tensor([[1.5, 2.0]]).tolist(),
    "i64": paddle.to_tensor([[1, 2], [3, 4]]).tolist(),
    "bool": paddle.to_tensor([True, False]).tolist(),
    "scalar": paddle.to_tensor(3).tolist(),
    "f16": paddle.to_tensor([0.5, 1.25], dtype="float16").tolist(),
    "c64": [[z_.real, z_.imag] for z_ in paddle.to_tensor([1 + 2j, 3 - 1j], dtype="complex64").tolist()],
}
rec["item_types"] = [type(paddle.to_tensor(2.5).item()).__name__, type(paddle.to_tensor(7).item()).__name__,
                     type(paddle.to_tensor(True).item()).__name__, paddle.to_tensor([[4]]).item(),
                     paddle.to_tensor([1.0, 2.0, 3.0]).item(2), paddle.to_tensor([[1, 2], [3, 4]]).item(1, 0),
                     type(paddle.to_tensor(1.5, dtype="float16").item()).__name__]
i3 = paddle.to_tensor(3)
lst = list(range(10))
rec["index"] = [lst[i3], list(range(i3)), lst[paddle.to_tensor(1):paddle.to_tensor(4)], "ab" * paddle.to_tensor(2),
                [0] * paddle.to_tensor(3), err(lambda: lst[paddle.to_tensor([1, 2])])]
rec["bool"] = [bool(paddle.to_tensor(0.0)), bool(paddle.to_tensor([2])), err(lambda: bool(paddle.ones([2]))),
               "yes" if paddle.to_tensor(1) else "no"]
rec["len"] = [len(paddle.zeros([5, 2])), err(lambda: len(paddle.to_tensor(1.0)))]
s = paddle.to_tensor([1.0, 2.0, 3.0])
rec["contains"] = [2.0 in s, 5.0 in s, paddle.to_tensor(3.0) in s]
rec["iter"] = [[v(r) for r in paddle.to_tensor([[1, 2], [3, 4]])], [float(e) for e in s],
               err(lambda: list(paddle.to_tensor(1.0)))]

# ---------- hooks, retain_grads, backward with a seed ----------
w = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
seen = []
h1 = w.register_hook(lambda g: seen.append(v(g)))
h2 = w.register_hook(lambda g: g * 10)
(w * w).sum().backward()
rec["hooks_first"] = [seen[:], v(w.grad)]
h2.remove()
w.clear_grad()
(w * w).sum().backward()
rec["hooks_after_remove"] = [seen[:], v(w.grad)]
h1.remove()
rec["hook_remove_twice"] = err(lambda: h1.remove())

w = paddle.to_tensor([[1.0, -2.0], [0.5, 3.0]], stop_gradient=False)
hmid = w * 2
hmid.retain_grads()
out = (hmid.tanh() * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])).sum()
other = w.exp()
out.backward()
rec["retain_grads"] = [v(hmid.grad), v(w.grad), other.grad is None]
w2 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
y2 = w2 ** 2
y2.backward(grad_tensor=paddle.to_tensor([1.0, 0.5, -1.0]))
rec["backward_seed"] = v(w2.grad)
y3 = (w2 * 3).reshape([3, 1])
y3.backward(paddle.to_tensor([[2.0], [2.0], [2.0]]))
rec["backward_seed_accum"] = v(w2.grad)

# ---------- apply / apply_ / inplace_version ----------
t = paddle.to_tensor([1.0, 4.0, 9.0])
r = t.apply(lambda q: q.sqrt() + 1)
rec["apply"] = [v(r), v(t)]
t.apply_(lambda q: q * 2)
rec["apply_"] = v(t)
leaf = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
rec["apply_leaf"] = err(lambda: leaf.apply(lambda q: q * 2))
with paddle.no_grad():
    rec["apply_leaf_no_grad"] = [err(lambda: leaf.apply_(lambda q: q + 1)), v(leaf)]
t = paddle.to_tensor([1.0, 2.0])
vers = [t.inplace_version]
t.add_(paddle.to_tensor([1.0, 1.0]))
vers.append(t.inplace_version)
t[0] = 5.0
vers.append(t.inplace_version)
t.zero_()
vers.append(t.inplace_version)
t.fill_(3.0)
vers.append(t.inplace_version)
rec["inplace_version"] = vers

# ---------- gradients through in-place edits ----------
p = paddle.to_tensor(rng.standard_normal((3, 4)).astype("float32"), stop_gradient=False)
q = p * 1.5
q.clip_(min=-1.0, max=1.0)
q.index_fill_(paddle.to_tensor([1]), axis=0, value=0.0)
q.masked_fill_(q > 0.8, 2.0)
q.scale_(3.0)
(q * q).sum().backward()
rec["nonleaf_inplace_grad"] = [v(q), v(p.grad)]

p.clear_grad()
r = p.clone()
r[:, 0] = 0.0
r.index_add_(paddle.to_tensor([0, 2]), 0, p[:2] * 2, alpha=1.0)
r.put_along_axis_(paddle.to_tensor([[1, 1, 1, 1]]), paddle.to_tensor(1.0), axis=0, reduce="add")
(r ** 2).sum().backward()
rec["clone_inplace_grad"] = [v(r), v(p.grad)]

p.clear_grad()
u = paddle.scale(p, 2.0, bias=1.0)
u.index_put_((paddle.to_tensor([0, 2]), paddle.to_tensor([1, 3])), p[1, :2] * 4, accumulate=True)
u.scatter_(paddle.to_tensor([1]), p[2:] * -1.0, overwrite=True)
u.sum().backward()
rec["index_put_scatter_grad"] = [v(u), v(p.grad)]

p.clear_grad()
s2 = p.sin()
s2.masked_scatter_(paddle.to_tensor(np.array([[True, False, True, False]] * 3)), p * 5)
s2.fill_diagonal_(0.5)
s2.sum().backward()
rec["masked_scatter_grad"] = [v(s2), v(p.grad)]

# gradients reaching the values written in place (the source of each write)
val = paddle.to_tensor(2.0, stop_gradient=False)
src_ = paddle.to_tensor(rng.standard_normal((3, 4)).astype("float32"), stop_gradient=False)
upd_ = paddle.to_tensor(rng.standard_normal((2, 4)).astype("float32"), stop_gradient=False)
dia = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
g = p * 1.0
g.masked_fill_(g > 0, val.detach())
g.index_add_(paddle.to_tensor([2, 2]), 0, upd_, alpha=0.5)
g.scatter_(paddle.to_tensor([0, 0]), upd_ * 2.0, overwrite=False)
g.index_put_((paddle.to_tensor([1]), paddle.to_tensor([3])), val * 3.0, accumulate=True)
g2 = g * paddle.to_tensor(np.arange(12, dtype="float32").reshape(3, 4))
g2.fill_diagonal_tensor_(dia)
g2.masked_scatter_(paddle.to_tensor(np.eye(3, 4, k=1) > 0), src_)
(g2 ** 2).sum().backward()
rec["source_grads"] = [v(g2)] + [None if t_.grad is None else v(t_.grad) for t_ in (val, upd_, dia, src_, p)]
pv = paddle.to_tensor(rng.standard_normal((2, 3)).astype("float32"), stop_gradient=False)
tgt = paddle.zeros([2, 3])
tgt.stop_gradient = False
tgt2 = tgt * 1.0
tgt2.put_along_axis_(paddle.to_tensor([[2, 0, 1], [1, 1, 0]]), pv, axis=1, reduce="add")
(tgt2 * paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
rec["put_along_axis_src_grad"] = [v(tgt2), v(pv.grad), v(tgt.grad)]
xc = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
yc = paddle.zeros([3])
yc.stop_gradient = False
yc2 = yc * 1.0
yc2.copy_(xc * 2)
(yc2 * yc2).sum().backward()
rec["copy_grad"] = [v(yc2), None if xc.grad is None else v(xc.grad), None if yc.grad is None else v(yc.grad)]
nh = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
mid = nh * 3
calls = []
hh = mid.register_hook(lambda gr: calls.append(v(gr)) or gr * 0.5)
mid.retain_grads()
(mid ** 2).sum().backward()
rec["nonleaf_hook"] = [calls, v(mid.grad), v(nh.grad)]
hh.remove()
nh.clear_grad()
mid2 = nh * 3
(mid2 ** 2).sum().backward()
rec["nonleaf_hook_removed_new_graph"] = v(nh.grad)
dt = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
dd = dt * 2
dd.detach_()
rec["detach_"] = [dd.stop_gradient, dd.is_leaf, v(dd)]
rec["bf16"] = [paddle.to_tensor(1.5, dtype="bfloat16").item(), str(paddle.to_tensor([1.0], dtype="bfloat16").dtype)]
rec["fill_diag_3d"] = v(paddle.zeros([2, 2, 2]).fill_diagonal_(4.0))

# a small model whose forward edits its activations in place, trained by SGD
W = paddle.to_tensor(rng.standard_normal((4, 6)).astype("float32") * 0.5, stop_gradient=False)
B = paddle.to_tensor(np.zeros(6, "float32"), stop_gradient=False)
V = paddle.to_tensor(rng.standard_normal((6, 1)).astype("float32") * 0.5, stop_gradient=False)
X = paddle.to_tensor(rng.standard_normal((10, 4)).astype("float32"))
Y = paddle.to_tensor(rng.standard_normal((10, 1)).astype("float32"))
opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[W, B, V])
losses = []
for step in range(8):
    h = X @ W + B
    h.clip_(min=-2.0, max=2.0)
    h.masked_fill_(h < 0, 0.0)
    h.index_fill_(paddle.to_tensor([step % 6]), axis=1, value=0.0)
    h.scale_(0.5).add_(paddle.ones([6]) * 0.1)
    loss = ((h @ V - Y) ** 2).mean()
    loss.backward()
    opt.step()
    opt.clear_grad()
    losses.append(float(loss))
rec["train_inplace"] = {"losses": losses, "W": v(W), "V": v(V)}

# errors users meet
leafw = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
rec["inplace_on_leaf"] = err(lambda: leafw.add_(paddle.ones([2])))

with open(os.environ["PROGRAM_OUT"], "w") as fh:
    json.dump(rec, fh)
