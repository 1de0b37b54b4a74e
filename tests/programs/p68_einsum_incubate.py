"""Tensor-contraction code as research repos write it: ``paddle.einsum`` in many forms (batched matmul
``bij,bjk->bik``, attention scores ``bhqd,bhkd->bhqk`` and their weighted sum, outer products, the trace ``ii->``,
the diagonal ``ii->i``, ellipsis ``...ij,...jk``, one operand used twice, three operands, implicit output without
``->``, transposes and sums) with their gradients; ``paddle.tensordot`` (an int and lists of axes), ``paddle.kron``,
``paddle.linalg.multi_dot``, ``paddle.bmm``, ``paddle.baddbmm``, ``paddle.addmm``, ``paddle.outer``,
``paddle.inner``, ``paddle.cdist`` (p=2, 1, inf), ``paddle.cartesian_prod``, ``paddle.combinations``; the
``paddle.incubate`` functions that run on CPU (segment_sum/mean/max/min, softmax_mask_fuse, graph_send_recv,
identity_loss) with gradients; a small einsum attention model trained 15 steps with
``paddle.incubate.optimizer.LookAhead`` wrapping Adam, then ``paddle.incubate.ModelAverage`` (apply / restore)
over a few more steps.

Left out: ``paddle.incubate.softmax_mask_fuse_upper_triangle`` raises NotImplementedError on CPU in Paddle 3.3.1
("only supports GPU now"); pylayer_jax computes it. The backward of ``paddle.baddbmm`` with a 2-D ``input`` of
shape [B, 1] fails in Paddle ("Input shape(B, 1, 1) must be equal with out shape(B, 1)"); pylayer_jax gives the
gradient (its forward, one value per batch added to every entry, matches Paddle). With a [B, N] ``input``
Paddle's gradient has the right values but the shape [B, 1, N]; pylayer_jax gives [B, N] (the other contractions'
gradients are recorded flattened).
"""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(68)
rec = {}


def v(t):
    a = np.asarray(t.numpy())
    return a.tolist() if a.dtype.kind in "biu" else np.round(a.astype(np.float64), 6).tolist()


def leaf(shape, scale=1.0):
    t = paddle.to_tensor((rng.standard_normal(shape) * scale).astype("float32"))
    t.stop_gradient = False
    return t


# ---------------------------------------------------------------- einsum forms with gradients
A = leaf([2, 3, 4])
B = leaf([2, 4, 5])
Q = leaf([2, 2, 3, 4])
K = leaf([2, 2, 5, 4])
V = leaf([2, 2, 5, 4])
u = leaf([3])
w = leaf([4])
S = leaf([4, 4])
E1 = leaf([2, 3, 3, 4])
E2 = leaf([2, 3, 4, 2])
M1 = leaf([3, 4])
M2 = leaf([4, 5])
M3 = leaf([5, 2])
forms = {
    "bmm": lambda: paddle.einsum("bij,bjk->bik", A, B),
    "attn": lambda: paddle.einsum("bhqk,bhkd->bhqd", F.softmax(paddle.einsum("bhqd,bhkd->bhqk", Q, K) / 2.0, -1), V),
    "outer": lambda: paddle.einsum("i,j->ij", u, w),
    "trace": lambda: paddle.einsum("ii->", S),
    "diag": lambda: paddle.einsum("ii->i", S),
    "ellipsis": lambda: paddle.einsum("...ij,...jk->...ik", E1, E2),
    "ellipsis_left": lambda: paddle.einsum("...ij,...jk", E1, E2),
    "repeated": lambda: paddle.einsum("ij,ij->i", M1, M1),
    "gram": lambda: paddle.einsum("ij,kj->ik", M1, M1),
    "three": lambda: paddle.einsum("ij,jk,kl->il", M1, M2, M3),
    "implicit": lambda: paddle.einsum("ij,jk", M1, M2),
    "implicit_sorted": lambda: paddle.einsum("ba,ac", M2.T, M2),
    "transpose": lambda: paddle.einsum("bij->bji", A),
    "sum_axis": lambda: paddle.einsum("bij->j", A),
    "dot": lambda: paddle.einsum("i,i->", w, w),
    "bilinear": lambda: paddle.einsum("i,ij,j->", u, M1, w),
    "scale_rows": lambda: paddle.einsum("ij,i->ij", M1, u),
}
leaves = [A, B, Q, K, V, u, w, S, E1, E2, M1, M2, M3]
for name, f in forms.items():
    for t in leaves:
        t.clear_gradient()
    out = f()
    wts = paddle.to_tensor(np.linspace(-1, 1, int(np.prod(out.shape)) or 1).astype("float32")).reshape(out.shape)
    (out * wts).sum().backward()
    rec[f"einsum_{name}"] = {"out": v(out), "shape": list(out.shape), "dtype": str(out.dtype),
                             "grads": [None if t.grad is None else v(t.grad) for t in leaves]}

# ---------------------------------------------------------------- other contractions
X = leaf([3, 4])
Y = leaf([4, 3])
P = leaf([2, 3, 4])
R = leaf([4, 3, 2])
C3 = leaf([2, 3, 5])
I2 = leaf([2, 5])
T3 = leaf([3, 3, 3])
others = {
    "tensordot_int": lambda: paddle.tensordot(P, leaf([3, 4, 2]), axes=2),
    "tensordot_lists": lambda: paddle.tensordot(P, R, axes=[[1, 2], [1, 0]]),
    "tensordot_zero": lambda: paddle.tensordot(X, w, axes=0),
    "kron": lambda: paddle.kron(X, leaf([2, 2])),
    "multi_dot": lambda: paddle.linalg.multi_dot([X, Y, leaf([3, 2])]),
    "multi_dot_vec": lambda: paddle.linalg.multi_dot([w, Y, u]),
    "bmm": lambda: paddle.bmm(P, leaf([2, 4, 5])),
    "baddbmm": lambda: paddle.baddbmm(C3, P, leaf([2, 4, 5]), beta=0.5, alpha=2.0),
    "baddbmm_rows": lambda: paddle.baddbmm(I2, P, leaf([2, 4, 5]), alpha=0.5),
    "tensordot_uneven": lambda: paddle.tensordot(T3, T3 * 0.5, axes=[[0], [2, 1]]),
    "addmm": lambda: paddle.addmm(leaf([3, 3]), X, Y, beta=0.3, alpha=1.5),
    "addmm_bcast": lambda: paddle.addmm(leaf([3]), X, Y),
    "outer": lambda: paddle.outer(u, w),
    "inner": lambda: paddle.inner(X, leaf([5, 4])),
    "inner_vec": lambda: paddle.inner(w, w),
    "cdist2": lambda: paddle.cdist(leaf([2, 3, 4]), leaf([2, 5, 4])),
    "cdist1": lambda: paddle.cdist(X, leaf([5, 4]), p=1.0),
    "cdist_inf": lambda: paddle.cdist(X, leaf([5, 4]), p=float("inf")),
    "matmul_T": lambda: paddle.matmul(X, Y, transpose_x=True, transpose_y=True),
    "mm": lambda: paddle.mm(X, Y),
    "dot_batch": lambda: paddle.dot(X, X * 2.0),
}
for name, f in others.items():
    x_in = [X, Y, P, R, C3, I2, T3, u, w]
    for t in x_in:
        t.clear_gradient()
    out = f()
    (out * out).sum().backward()
    rec[f"op_{name}"] = {"out": v(out), "shape": list(out.shape), "dtype": str(out.dtype),
                         "grads": [None if t.grad is None else v(t.grad.flatten()) for t in x_in]}

cp = paddle.cartesian_prod([paddle.to_tensor([1, 2, 3]), paddle.to_tensor([4, 5])])
rec["cartesian_prod"] = [v(cp), str(cp.dtype)]
cpf = paddle.cartesian_prod([paddle.to_tensor([0.5, 1.5]), paddle.to_tensor([2.0]), paddle.to_tensor([3.0, 4.0])])
rec["cartesian_prod_f"] = [v(cpf), list(cpf.shape)]
rec["cartesian_prod_one"] = v(paddle.cartesian_prod([paddle.to_tensor([7, 8, 9])]))
cmb = paddle.combinations(paddle.to_tensor([1, 2, 3, 4]))
rec["combinations"] = [v(cmb), str(cmb.dtype)]
rec["combinations_r3"] = v(paddle.combinations(paddle.to_tensor([1.0, 2.0, 3.0, 4.0]), r=3))
rec["combinations_repl"] = v(paddle.combinations(paddle.to_tensor([1, 2, 3]), r=2, with_replacement=True))
rec["combinations_r0"] = [v(paddle.combinations(paddle.to_tensor([1, 2, 3]), r=0)), str(paddle.combinations(
    paddle.to_tensor([1, 2, 3]), r=0).shape)]
cw = leaf([4])
(paddle.combinations(cw, r=2).prod(axis=1)).sum().backward()
rec["combinations_grad"] = v(cw.grad)

misuse = {
    "multi_dot_one": lambda: paddle.linalg.multi_dot([X]),
    "tensordot_sizes": lambda: paddle.tensordot(X, Y, axes=[[0], [0]]),
    "cdist_dims": lambda: paddle.cdist(X, Y),
    "einsum_operands": lambda: paddle.einsum("ij,jk->ik", X),
    "einsum_sizes": lambda: paddle.einsum("ij,jk->ik", X, X),
    "combinations_2d": lambda: paddle.combinations(X),
    "baddbmm_rows": lambda: paddle.baddbmm(paddle.ones([3, 5]), P, paddle.ones([2, 4, 5])),
    "bmm_2d": lambda: paddle.bmm(X, Y),
}
for name, f in misuse.items():
    try:
        f()
        rec[f"misuse_{name}"] = "no error"
    except Exception as e:  # noqa: BLE001  (the type is what code that catches it sees)
        rec[f"misuse_{name}"] = type(e).__name__

# ---------------------------------------------------------------- paddle.incubate functions
data = leaf([6, 3])
seg = paddle.to_tensor([0, 0, 1, 1, 1, 3], dtype="int64")
for name in ("segment_sum", "segment_mean", "segment_max", "segment_min"):
    data.clear_gradient()
    out = getattr(paddle.incubate, name)(data, seg)
    (out * paddle.arange(out.size, dtype="float32").reshape(out.shape)).sum().backward()
    rec[f"inc_{name}"] = [v(out), list(out.shape), v(data.grad)]
seg32 = paddle.to_tensor([0, 1, 1, 2, 2, 2], dtype="int32")
rec["inc_segment_sum_i32"] = v(paddle.incubate.segment_sum(data, seg32))

scores = leaf([2, 2, 4, 4])
mask = paddle.to_tensor(np.where(np.tril(np.ones((4, 4))) > 0, 0.0, -10000.0).astype("float32")).reshape([1, 1, 4, 4])
mask = paddle.tile(mask, [2, 1, 1, 1])
sm = paddle.incubate.softmax_mask_fuse(scores, mask)
(sm * paddle.arange(sm.size, dtype="float32").reshape(sm.shape)).sum().backward()
rec["inc_softmax_mask_fuse"] = [v(sm), v(scores.grad)]

feat = leaf([4, 3])
src = paddle.to_tensor([0, 1, 2, 0, 3], dtype="int64")
dst = paddle.to_tensor([1, 2, 1, 0, 0], dtype="int64")
for pool in ("sum", "mean", "max", "min"):
    feat.clear_gradient()
    out = paddle.incubate.graph_send_recv(feat, src, dst, pool_type=pool)
    (out * paddle.arange(out.size, dtype="float32").reshape(out.shape)).sum().backward()
    rec[f"inc_gsr_{pool}"] = [v(out), v(feat.grad)]
rec["inc_gsr_out_size"] = v(paddle.incubate.graph_send_recv(feat, src, dst, pool_type="sum", out_size=3))

il_in = leaf([3, 2])
for red in ("sum", "mean", "none", 0, 1, 2):
    il_in.clear_gradient()
    out = paddle.incubate.identity_loss(il_in * 2.0, reduction=red)
    out.sum().backward()
    rec[f"inc_identity_loss_{red}"] = [v(out), list(out.shape), v(il_in.grad)]


# ---------------------------------------------------------------- a model trained with LookAhead, then ModelAverage
class EinsumAttention(nn.Layer):
    def __init__(self, d=8, heads=2, classes=3):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d, bias_attr=False)  # a key bias has a zero gradient: Adam would amplify noise
        self.proj = self.create_parameter([d, d])
        self.bil = self.create_parameter([d, classes, d])
        self.bias = self.create_parameter([classes], is_bias=True)

    def forward(self, x):
        b, n, d = x.shape
        q, k, val = paddle.split(self.qkv(x), 3, axis=-1)
        q = q.reshape([b, n, self.h, d // self.h]).transpose([0, 2, 1, 3])
        k = k.reshape([b, n, self.h, d // self.h]).transpose([0, 2, 1, 3])
        val = val.reshape([b, n, self.h, d // self.h]).transpose([0, 2, 1, 3])
        att = F.softmax(paddle.einsum("bhqd,bhkd->bhqk", q, k) / (d // self.h) ** 0.5, axis=-1)
        o = paddle.einsum("bhqk,bhkd->bhqd", att, val).transpose([0, 2, 1, 3]).reshape([b, n, d])
        o = paddle.einsum("bnd,de->bne", o, self.proj) + x
        pooled = o.mean(axis=1)
        return paddle.einsum("bi,icj,bj->bc", pooled, self.bil, pooled) + self.bias, att


model = EinsumAttention()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(p.shape) * 0.3).astype("float32") for k, p in model.state_dict().items()})
rec["state_keys"] = list(model.state_dict().keys())
XS = rng.standard_normal((24, 5, 8)).astype("float32")
YS = (XS.sum((1, 2)) > 0).astype("int64") + (XS[:, 0, 0] > 1).astype("int64")

adam = paddle.optimizer.Adam(learning_rate=0.02, parameters=model.parameters())
opt = paddle.incubate.optimizer.LookAhead(adam, alpha=0.5, k=4)
losses, gnorms = [], []
for step in range(15):
    i = (step % 3) * 8
    logits, att = model(paddle.to_tensor(XS[i:i + 8]))
    loss = F.cross_entropy(logits, paddle.to_tensor(YS[i:i + 8]))
    loss.backward()
    gnorms.append(float(sum((p.grad ** 2).sum() for p in model.parameters()).sqrt()))
    opt.step()
    opt.clear_grad()
    losses.append(float(loss))
rec["la_loss"] = losses
rec["la_gnorm"] = gnorms
rec["la_params"] = {k: v(p) for k, p in model.state_dict().items()}
rec["att_rowsum"] = v(att.sum(-1))

avg = paddle.incubate.ModelAverage(0.15, parameters=model.parameters(), min_average_window=2, max_average_window=4)
opt2 = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
for step in range(6):
    i = (step % 3) * 8
    logits, _ = model(paddle.to_tensor(XS[i:i + 8]))
    loss = F.cross_entropy(logits, paddle.to_tensor(YS[i:i + 8]))
    loss.backward()
    opt2.step()
    avg.step()
    opt2.clear_grad()
    rec.setdefault("ma_loss", []).append(float(loss))
model.eval()
xe = paddle.to_tensor(XS[:8])
with paddle.no_grad():
    before = model(xe)[0]
    with avg.apply():
        during = model(xe)[0]
        rec["ma_applied_bias"] = v(model.bias)
    after = model(xe)[0]
    avg.apply(need_restore=False)
    kept = model(xe)[0]
    avg.restore()
    restored = model(xe)[0]
rec["ma_before"] = v(before)
rec["ma_during"] = v(during)
rec["ma_after"] = v(after)
rec["ma_kept"] = v(kept)
rec["ma_restored"] = v(restored)
rec["pred"] = v(paddle.argmax(restored, axis=1))

with open(os.environ["PROGRAM_OUT"], "w") as fh:
    json.dump(rec, fh)
