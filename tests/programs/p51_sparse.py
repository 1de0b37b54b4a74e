"""Sparse Tensors as user code writes them: COO and CSR Tensors built from indices / crows-cols / dense Tensors
(``sparse_coo_tensor``, ``sparse_csr_tensor``, ``to_sparse_coo``, ``to_sparse_csr``, batched 3-D CSR, a COO Tensor
with a dense channel axis), their parts (``indices``, ``values``, ``crows``, ``cols``, ``nnz``, shape, dtype,
``is_sparse_*``, the printed repr), ``coalesce`` of duplicates, element-wise math (add, subtract, multiply, divide,
pow, neg, abs, sqrt, tanh, sin, log1p, expm1, square, cast, isnan), ``transpose``, ``reshape``, ``sum``, ``slice``,
``mask_as``; ``paddle.sparse.nn`` layers (ReLU, ReLU6, LeakyReLU, Softmax on a CSR Tensor, BatchNorm, SubmConv3D,
Conv3D, MaxPool3D); a model whose learnable weight is the values of a sparse matrix (the gradient reaches a
Parameter through ``sparse_coo_tensor(..., stop_gradient=False)``) trained 30 steps with Adam, and a small voxel
network (SubmConv3D -> BatchNorm -> ReLU -> Conv3D -> dense head) trained 12 steps with Momentum, then evaluated.

Left out on purpose: ``paddle.sparse.matmul``, ``masked_matmul``, ``mv`` and ``addmm`` (Paddle 3.3.1 has no CPU
kernel for them and raises; pylayer_jax computes them on any device), and the ``.grad`` of a sparse Tensor built
by ``sparse_coo_tensor`` from a list with ``stop_gradient=False`` (Paddle makes the result a non-leaf of a hidden
values Tensor, so its ``.grad`` stays None and the gradient cannot be read; pylayer_jax gives the sparse Tensor
the gradient). A Tensor's ``.grad`` reports ``stop_gradient=False`` in Paddle and True here: not recorded.
"""
import json
import os

import numpy as np
import paddle
import paddle.sparse as sp

rng = np.random.default_rng(0)
rec = {}


def dense(t):
    return t.to_dense().numpy().tolist()


def parts(t):
    if t.is_sparse_coo():
        return {"indices": t.indices().numpy().tolist(), "values": t.values().numpy().tolist(), "nnz": t.nnz(),
                "shape": list(t.shape), "dtype": str(t.dtype)}
    return {"crows": t.crows().numpy().tolist(), "cols": t.cols().numpy().tolist(),
            "values": t.values().numpy().tolist(), "nnz": t.nnz(), "shape": list(t.shape), "dtype": str(t.dtype)}


# ---- building sparse Tensors ----------------------------------------------------------------------
idx = [[0, 0, 1, 2, 3], [1, 3, 0, 2, 3]]
x = sp.sparse_coo_tensor(idx, [1.5, -2.0, 3.0, 0.5, -1.0], [4, 4])
y = sp.sparse_coo_tensor([[0, 1, 1, 3], [1, 0, 2, 0]], [2.0, 1.0, -4.0, 2.5], [4, 4])
rec["coo"] = parts(x)
rec["coo_flags"] = [x.is_sparse(), x.is_sparse_coo(), x.is_sparse_csr(), x.stop_gradient, x.sparse_dim(),
                    x.dense_dim()]
rec["coo_repr"] = str(x)
c = sp.sparse_csr_tensor([0, 2, 3, 4, 5], [1, 3, 0, 2, 3], [1.5, -2.0, 3.0, 0.5, -1.0], [4, 4])
rec["csr"] = parts(c)
rec["csr_repr"] = str(c)
rec["csr_flags"] = [c.is_sparse_csr(), c.is_sparse_coo()]
rec["csr_dense_eq_coo"] = dense(c) == dense(x)
D = np.where(rng.random((3, 5)) < 0.4, rng.standard_normal((3, 5)), 0.0).astype("float32")
d = paddle.to_tensor(D)
rec["to_coo"] = parts(d.to_sparse_coo(2))
rec["to_csr"] = parts(d.to_sparse_csr())
rec["csr_to_coo"] = parts(d.to_sparse_csr().to_sparse_coo(2))
rec["coo_to_csr"] = parts(d.to_sparse_coo(2).to_sparse_csr())
B = np.where(rng.random((2, 3, 4)) < 0.5, rng.integers(1, 9, (2, 3, 4)), 0).astype("float32")
b3 = paddle.to_tensor(B).to_sparse_csr()
rec["csr3"] = parts(b3)
rec["csr3_dense"] = dense(b3)
F2 = np.where(rng.random((4, 3, 2)) < 0.5, rng.standard_normal((4, 3, 2)), 0.0).astype("float32")
ch = paddle.to_tensor(F2).to_sparse_coo(2)     # the last axis stays dense: values [nnz, 2]
rec["coo_dense_dim"] = parts(ch)
rec["coo_dense_dim_dims"] = [ch.sparse_dim(), ch.dense_dim()]
dup = sp.sparse_coo_tensor([[0, 2, 0, 1], [1, 2, 1, 0]], [1.0, 2.0, 3.0, 4.0], [3, 3])
rec["dup"] = parts(dup)
rec["coalesce"] = parts(sp.coalesce(dup))
rec["int_values"] = parts(sp.sparse_coo_tensor([[0, 1], [1, 1]], [3, 4], [2, 2]))
rec["f64"] = parts(sp.sparse_coo_tensor(idx, np.arange(5.0), [4, 4]))
rec["cast"] = parts(sp.cast(x, index_dtype="int32", value_dtype="float64"))

# ---- element-wise math and shape ops ----------------------------------------------------------------
rec["add"] = parts(sp.add(x, y))
rec["add_dense"] = dense(sp.add(x, y))
rec["subtract"] = dense(sp.subtract(x, y))
rec["multiply"] = dense(sp.multiply(x, y))
rec["add_csr"] = parts(sp.add(c, y.to_sparse_csr()))
rec["mul_csr"] = dense(sp.multiply(c, c))
rec["divide_scalar"] = parts(sp.divide(x, 2.0))
rec["pow"] = parts(sp.pow(x, 2))
rec["neg"] = parts(sp.neg(x))
ax = sp.abs(x)
rec["unary"] = {nm: sp.__dict__[nm](ax if nm in ("sqrt", "log1p") else x).values().numpy().tolist()
                for nm in ("abs", "sqrt", "tanh", "sin", "log1p", "expm1", "square", "atan", "sinh")}
rec["unary_csr"] = parts(sp.tanh(c))
rec["isnan"] = [sp.isnan(x).values().numpy().tolist(), dense(sp.isnan(x))]
rec["transpose"] = parts(sp.transpose(x, [1, 0]))
rec["transpose_csr"] = parts(sp.transpose(c, [1, 0]))
rec["transpose3"] = parts(sp.transpose(b3, [0, 2, 1]))
rec["reshape"] = parts(sp.reshape(x, [2, 8]))
rec["reshape_m1"] = parts(sp.reshape(x, [-1, 2]))
rec["sum_all"] = parts(sp.sum(x))
rec["sum0"] = dense(sp.sum(x, axis=0))
rec["sum1_keep"] = parts(sp.sum(x, axis=1, keepdim=True))
rec["sum_csr"] = parts(sp.sum(c, axis=-1))
rec["slice"] = parts(sp.slice(x, [0, 1], [1, 0], [4, 3]))
rec["mask_as"] = parts(sp.mask_as(paddle.arange(16, dtype="float32").reshape([4, 4]), x))
rec["mask_as_csr"] = parts(sp.mask_as(paddle.arange(16, dtype="float32").reshape([4, 4]), c))
rec["same_shape"] = [sp.is_same_shape(x, y), sp.is_same_shape(x, ch)]

# ---- activations and softmax ---------------------------------------------------------------------
rec["relu"] = sp.nn.ReLU()(x).values().numpy().tolist()
rec["relu6"] = sp.nn.functional.relu6(sp.multiply(x, x)).values().numpy().tolist()
rec["leaky"] = sp.nn.LeakyReLU(0.2)(x).values().numpy().tolist()
rec["softmax_csr"] = parts(sp.nn.Softmax()(c))
rec["softmax_csr3"] = parts(sp.nn.functional.softmax(b3))

# ---- gradients through sparse ops -----------------------------------------------------------------
base = paddle.to_tensor(D, stop_gradient=False)
s = base.to_sparse_coo(2)
out = sp.multiply(sp.tanh(s), sp.square(s))
(out.to_dense() * paddle.arange(15, dtype="float32").reshape([3, 5])).sum().backward()
rec["grad_dense_src"] = base.grad.numpy().tolist()
leaf = paddle.to_tensor(D).to_sparse_coo(2)
leaf.stop_gradient = False
sp.sum(sp.nn.functional.relu(sp.add(sp.sin(leaf), sp.multiply(leaf, leaf)))).backward()
rec["grad_sparse_leaf"] = parts(leaf.grad)
rec["leaf_is_leaf"] = leaf.is_leaf
cl = paddle.to_tensor(D).to_sparse_csr()
cl.stop_gradient = False
weights = sp.mask_as(paddle.arange(15, dtype="float32").reshape([3, 5]), cl)
sp.sum(sp.multiply(sp.nn.functional.softmax(cl), weights)).backward()
rec["grad_csr_softmax"] = parts(cl.grad)
vals = paddle.to_tensor([1.0, -2.0, 3.0, 0.5, 2.0], stop_gradient=False)
nograd = sp.sparse_coo_tensor(idx, vals, [4, 4])    # stop_gradient=True (the default) is set on vals too
rec["values_frozen"] = [nograd.stop_gradient, vals.stop_gradient]
withgrad = sp.sparse_coo_tensor(idx, vals * 2.0, [4, 4], stop_gradient=False)
sp.sum(sp.square(withgrad)).backward()
rec["grad_frozen_values"] = [vals.grad is None, withgrad.is_leaf]
vals2 = paddle.to_tensor([1.0, -2.0, 3.0, 0.5, 2.0])
w2 = sp.sparse_coo_tensor(idx, vals2, [4, 4], stop_gradient=False)   # now vals2 needs a gradient
sp.sum(sp.multiply(sp.sin(w2), w2)).backward()
rec["grad_values"] = [vals2.stop_gradient, vals2.grad.numpy().tolist(), w2.is_leaf, w2.grad is None]
csr_v = paddle.to_tensor([1.0, -2.0, 3.0, 0.5, 2.0])
w3 = sp.sparse_csr_tensor([0, 2, 3, 4, 5], [1, 3, 0, 2, 3], csr_v, [4, 4], stop_gradient=False)
sp.sum(sp.square(w3)).backward()
rec["grad_csr_copy"] = [csr_v.stop_gradient, csr_v.grad is None, w3.is_leaf, parts(w3.grad)]


# ---- a model whose weight is a sparse matrix's values ---------------------------------------------
class SparseMix(paddle.nn.Layer):
    """out = head(tanh(A) @ x) with A sparse [6, 6] of a fixed pattern and learnable values."""

    def __init__(self, pattern):
        super().__init__()
        self.pattern = pattern
        self.w = self.create_parameter([pattern.shape[1]], default_initializer=paddle.nn.initializer.Constant(0.3))
        self.head = paddle.nn.Linear(6, 1)

    def forward(self, feats):
        a = sp.sparse_coo_tensor(self.pattern, self.w, [6, 6], stop_gradient=False)
        a = sp.tanh(a)
        mixed = paddle.matmul(a.to_dense(), feats)          # [6, B]
        return self.head(mixed.t())


pattern = np.array([[0, 0, 1, 2, 2, 3, 4, 5, 5], [0, 3, 1, 0, 4, 3, 2, 1, 5]], dtype="int64")
model = SparseMix(pattern)
r = np.random.default_rng(1)
model.head.weight.set_value(r.standard_normal((6, 1)).astype("float32") * 0.5)
model.head.bias.set_value(np.zeros(1, "float32"))
XF = rng.standard_normal((6, 16)).astype("float32")
YF = (XF[0] - 0.5 * XF[3] + XF[5]).reshape(16, 1).astype("float32")
opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters())
rec["mix_loss"], rec["mix_wgrad"] = [], []
for step in range(30):
    loss = paddle.nn.functional.mse_loss(model(paddle.to_tensor(XF)), paddle.to_tensor(YF))
    loss.backward()
    if step in (0, 10, 29):
        rec["mix_wgrad"].append(model.w.grad.numpy().tolist())
    opt.step()
    opt.clear_grad()
    rec["mix_loss"].append(loss.item())
rec["mix_w"] = model.w.numpy().tolist()
rec["mix_keys"] = list(model.state_dict().keys())


# ---- a voxel network --------------------------------------------------------------------------------
class VoxelNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.subm = sp.nn.SubmConv3D(2, 4, 3, padding=1)
        self.bn = sp.nn.BatchNorm(4)
        self.act = sp.nn.ReLU()
        self.down = sp.nn.Conv3D(4, 3, 2, stride=2)
        self.head = paddle.nn.Linear(3, 2)

    def forward(self, v):
        h = self.act(self.bn(self.subm(v)))
        h = self.down(h)
        pooled = h.to_dense().sum(axis=[1, 2, 3])            # [N, 3]
        return self.head(pooled), h


def voxels(seed):
    g = np.random.default_rng(seed)
    grid = np.zeros((2, 4, 4, 4, 2), "float32")
    for n in range(2):
        pts = g.integers(0, 4, (6, 3))
        grid[n, pts[:, 0], pts[:, 1], pts[:, 2]] = g.standard_normal((6, 2))
    v = paddle.to_tensor(grid).to_sparse_coo(4)
    v.stop_gradient = False   # (Paddle's CPU sparse conv backward crashes when the input needs no gradient)
    return v


net = VoxelNet()
r = np.random.default_rng(2)
net.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") if "_mean" not in k and "_variance" not in k
                    else v.numpy() for k, v in net.state_dict().items()})
rec["voxel_keys"] = list(net.state_dict().keys())
rec["voxel_shapes"] = [list(p.shape) for p in net.parameters()]
rec["voxel_repr"] = [str(net.subm), str(net.down)]
v0 = voxels(5)
rec["vox_input"] = {"nnz": v0.nnz(), "indices": v0.indices().numpy().tolist(), "shape": list(v0.shape)}
sub = net.subm(v0)
rec["subm_out"] = {"nnz": sub.nnz(), "same_pattern": sub.indices().numpy().tolist() == v0.indices().numpy().tolist(),
                   "values": sub.values().numpy().tolist()}
dn = net.down(sub)
rec["down_out"] = parts(dn)
rec["pool"] = parts(sp.nn.MaxPool3D(2, 2)(v0))
target = paddle.to_tensor([0, 1])
opt2 = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9, parameters=net.parameters())
rec["vox_loss"] = []
for step in range(12):
    logits, h = net(voxels(10 + step % 3))
    loss = paddle.nn.functional.cross_entropy(logits, target)
    loss.backward()
    if step == 0:
        rec["vox_grads"] = {k: None if p.grad is None else p.grad.numpy().tolist() for k, p in net.named_parameters()}
        rec["vox_hidden"] = parts(h)
    opt2.step()
    opt2.clear_grad()
    rec["vox_loss"].append(loss.item())
rec["bn_running"] = [net.bn._mean.numpy().tolist(), net.bn._variance.numpy().tolist()]
net.eval()
with paddle.no_grad():
    logits, h = net(voxels(99))
rec["vox_eval"] = [logits.numpy().tolist(), parts(h)]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
