"""Every loss of ``paddle.nn.functional`` with the arguments real code passes, and its ``paddle.nn`` class:
cross_entropy with soft labels, label_smoothing, the class axis not last, use_softmax=False, a class weight with
ignore_index (the weighted mean's normaliser), reductions none/sum/mean, int32 and int64 labels of shape [N] and
[N, 1]; nll_loss on [N, C] and [N, C, H, W]; binary_cross_entropy(_with_logits) with weight and pos_weight;
margin_ranking, hinge_embedding, cosine_embedding, triplet_margin (p, swap) and triplet_margin_with_distance (a
custom distance, swap), multi_label_soft_margin, multi_label_margin, multi_margin (p, margin, weight),
soft_margin, poisson_nll (log_input, full), gaussian_nll (full, var of shape [N, 1], [N] and a number's shape),
kl_div (log_target, batchmean), smooth_l1 (delta), HuberLoss, l1, mse, square_error_cost, log_loss,
sigmoid_focal_loss (normalizer), dice_loss, npair_loss, softmax_with_cross_entropy, hsigmoid_loss, ctc_loss
(norm_by_times, reductions), rnnt_loss, adaptive_log_softmax_with_loss and nn.AdaptiveLogSoftmaxWithLoss. For
each: the value and the gradient of every float input (of a weighted sum where the loss is not a number). Then a
small classifier trained with a weighted, label-smoothed nn.CrossEntropyLoss and SGD with momentum.

Not mirrored: Paddle 3.3.1's nn.AdaptiveLogSoftmaxWithLoss keeps its tail weights in a plain list (not in
``parameters()`` nor ``state_dict()``, so an optimizer never trains them); pylayer_jax registers them
(``tail_weights.<i>.<j>``). The program sets them with ``set_value`` and records only the head's keys.
Paddle 3.3.1's nn.TripletMarginWithDistanceLoss ignores its ``distance_function`` (its forward does not pass it
on, so the Euclidean distance is used); pylayer_jax uses it, so the class is probed with the default distance.
The gradient of a soft-label cross entropy in Paddle's kernel is ``softmax - label``, right only when each soft
label sums to 1 along the class axis; pylayer_jax gives the exact gradient (``softmax * label.sum() - label``),
so the program's soft labels are class probabilities along the axis used. F.margin_cross_entropy is left out:
Paddle 3.3.1 has no CPU kernel for it."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
rec = {}


def leaf(a, dtype="float32"):
    t = paddle.to_tensor(np.asarray(a).astype(dtype))
    t.stop_gradient = False
    return t


def probe(name, fn, *inputs):
    """The loss's value, its shape and dtype, and the gradient of each leaf input."""
    out = fn(*inputs)
    w = paddle.to_tensor(np.linspace(0.5, 1.5, max(int(np.prod(out.shape)), 1)).astype("float32")).reshape(out.shape)
    (out * w).sum().backward()
    grads = [None if (not isinstance(t, paddle.Tensor) or t.grad is None) else t.grad.numpy().tolist()
             for t in inputs]
    rec[name] = {"value": out.numpy().tolist(), "shape": list(out.shape), "dtype": str(out.dtype), "grads": grads}
    for t in inputs:
        if isinstance(t, paddle.Tensor) and t.grad is not None:
            t.clear_gradient()


N, C = 5, 4
logits = leaf(rng.standard_normal((N, C)))
labels = rng.integers(0, C, N)
labels[2] = 1
soft = rng.random((N, C)).astype("float32")
soft /= soft.sum(1, keepdims=True)
cw = paddle.to_tensor([1.0, 2.0, 0.5, 1.5])

# cross_entropy in its forms
for red in ("none", "sum", "mean"):
    probe(f"ce_{red}", lambda x, r=red: F.cross_entropy(x, paddle.to_tensor(labels), reduction=r), logits)
    probe(f"ce_w_ign_{red}", lambda x, r=red: F.cross_entropy(x, paddle.to_tensor(labels), weight=cw,
                                                              ignore_index=1, reduction=r), logits)
probe("ce_int32_col", lambda x: F.cross_entropy(x, paddle.to_tensor(labels[:, None].astype("int32"))), logits)
probe("ce_col_none", lambda x: F.cross_entropy(x, paddle.to_tensor(labels[:, None]), reduction="none"), logits)
probe("ce_soft", lambda x: F.cross_entropy(x, paddle.to_tensor(soft), soft_label=True), logits)
probe("ce_soft_w", lambda x: F.cross_entropy(x, paddle.to_tensor(soft), soft_label=True, weight=cw), logits)
probe("ce_soft_none", lambda x: F.cross_entropy(x, paddle.to_tensor(soft), soft_label=True, reduction="none"),
      logits)
probe("ce_smooth", lambda x: F.cross_entropy(x, paddle.to_tensor(labels), label_smoothing=0.2), logits)
probe("ce_smooth_w", lambda x: F.cross_entropy(x, paddle.to_tensor(labels), weight=cw, label_smoothing=0.1),
      logits)
probe("ce_nosoftmax", lambda x: F.cross_entropy(F.softmax(x), paddle.to_tensor(labels), use_softmax=False), logits)
probe("ce_nosoftmax_w", lambda x: F.cross_entropy(F.softmax(x), paddle.to_tensor(labels), weight=cw,
                                                  use_softmax=False, reduction="sum"), logits)
x3 = leaf(rng.standard_normal((2, C, 3)))
lab3 = rng.integers(0, C, (2, 1, 3))
probe("ce_axis1", lambda x: F.cross_entropy(x, paddle.to_tensor(lab3), axis=1), x3)
probe("ce_axis1_w_ign", lambda x: F.cross_entropy(x, paddle.to_tensor(lab3), axis=1, weight=cw, ignore_index=0,
                                                  reduction="none"), x3)
probe("ce_cls_ign", lambda x: nn.CrossEntropyLoss(ignore_index=2, reduction="mean")(x, paddle.to_tensor(labels)),
      logits)
soft0 = soft / soft.sum(0, keepdims=True)  # (class probabilities along axis 0)
probe("ce_cls_soft_axis", lambda x: nn.CrossEntropyLoss(soft_label=True, axis=0)(x, paddle.to_tensor(soft0)), logits)
probe("swce", lambda x: F.softmax_with_cross_entropy(x, paddle.to_tensor(labels[:, None])), logits)
probe("swce_soft", lambda x: F.softmax_with_cross_entropy(x, paddle.to_tensor(soft), soft_label=True), logits)

# nll_loss
logp = leaf(np.log(soft))
for red in ("none", "sum", "mean"):
    probe(f"nll_{red}", lambda x, r=red: F.nll_loss(x, paddle.to_tensor(labels), weight=cw, ignore_index=0,
                                                    reduction=r), logp)
lp4 = leaf(np.log(rng.dirichlet(np.ones(3), (2, 2, 2)).transpose(0, 3, 1, 2)))
probe("nll_4d", lambda x: nn.NLLLoss(weight=paddle.to_tensor([0.3, 1.0, 2.0]))(x, paddle.to_tensor(
    rng.integers(0, 3, (2, 2, 2)))), lp4)

# binary cross entropies
p = leaf(rng.uniform(0.05, 0.95, (N, 3)))
z = leaf(rng.standard_normal((N, 3)) * 2)
t01 = paddle.to_tensor(rng.integers(0, 2, (N, 3)).astype("float32"))
bw = paddle.to_tensor(rng.uniform(0.5, 2, (N, 3)).astype("float32"))
pw = paddle.to_tensor([1.0, 3.0, 0.5])
for red in ("none", "sum", "mean"):
    probe(f"bce_{red}", lambda x, r=red: F.binary_cross_entropy(x, t01, weight=bw, reduction=r), p)
    probe(f"bcel_{red}", lambda x, r=red: F.binary_cross_entropy_with_logits(x, t01, weight=bw, reduction=r,
                                                                            pos_weight=pw), z)
probe("bce_cls", lambda x: nn.BCELoss()(x, t01), p)
probe("bcel_cls", lambda x: nn.BCEWithLogitsLoss(pos_weight=pw)(x, t01), z)
probe("bcel_soft", lambda x: F.binary_cross_entropy_with_logits(x, paddle.to_tensor(rng.random((N, 3)).astype(
    "float32"))), z)

# margin losses
a, b = leaf(rng.standard_normal(N)), leaf(rng.standard_normal(N))
sgn = paddle.to_tensor(np.array([1, -1, 1, -1, 1], "float32"))
for red in ("none", "mean", "sum"):
    probe(f"mrank_{red}", lambda u, v, r=red: F.margin_ranking_loss(u, v, sgn, margin=0.3, reduction=r), a, b)
    probe(f"hinge_{red}", lambda u, r=red: F.hinge_embedding_loss(u, sgn, margin=0.5, reduction=r), a)
probe("mrank_cls", lambda u, v: nn.MarginRankingLoss(margin=0.1)(u, v, sgn), a, b)
probe("hinge_cls", lambda u: nn.HingeEmbeddingLoss(margin=2.0)(u, sgn), a)
e1, e2 = leaf(rng.standard_normal((N, 6))), leaf(rng.standard_normal((N, 6)))
for red in ("none", "mean", "sum"):
    probe(f"cosemb_{red}", lambda u, v, r=red: F.cosine_embedding_loss(u, v, sgn.astype("int64"), margin=0.2,
                                                                       reduction=r), e1, e2)
probe("cosemb_cls", lambda u, v: nn.CosineEmbeddingLoss(margin=-0.1)(u, v, sgn), e1, e2)
anc, pos, neg = leaf(rng.standard_normal((N, 6))), leaf(rng.standard_normal((N, 6))), leaf(rng.standard_normal((N, 6)))
probe("triplet", lambda u, v, w: F.triplet_margin_loss(u, v, w, margin=1.5), anc, pos, neg)
probe("triplet_p1_swap", lambda u, v, w: F.triplet_margin_loss(u, v, w, p=1.0, swap=True, reduction="none"),
      anc, pos, neg)
probe("triplet_cls", lambda u, v, w: nn.TripletMarginLoss(margin=0.5, p=3.0, swap=True, reduction="sum")(u, v, w),
      anc, pos, neg)
probe("tripletd", lambda u, v, w: F.triplet_margin_with_distance_loss(u, v, w, margin=0.8), anc, pos, neg)
probe("tripletd_cos_swap", lambda u, v, w: F.triplet_margin_with_distance_loss(
    u, v, w, distance_function=lambda s, t: 1 - F.cosine_similarity(s, t), swap=True, reduction="none"),
    anc, pos, neg)
probe("tripletd_cls", lambda u, v, w: nn.TripletMarginWithDistanceLoss(margin=2.0, swap=True, reduction="sum")(
    u, v, w), anc, pos, neg)
ml = leaf(rng.standard_normal((N, C)))
mlt = paddle.to_tensor(rng.integers(0, 2, (N, C)).astype("float32"))
probe("mlsm", lambda x: F.multi_label_soft_margin_loss(x, mlt), ml)
probe("mlsm_w_none", lambda x: F.multi_label_soft_margin_loss(x, mlt, weight=paddle.to_tensor(
    [1.0, 0.5, 2.0, 1.0]), reduction="none"), ml)
probe("mlsm_cls", lambda x: nn.MultiLabelSoftMarginLoss(reduction="sum")(x, mlt), ml)
mlm_t = paddle.to_tensor(np.array([[3, 0, -1, 1], [1, -1, 2, 0], [0, 1, 2, 3], [2, -1, -1, -1], [-1, 0, 0, 0]]))
probe("mlm", lambda x: F.multi_label_margin_loss(x, mlm_t, reduction="none"), ml)
probe("mlm_cls", lambda x: nn.MultiLabelMarginLoss()(x, mlm_t), ml)
probe("mm", lambda x: F.multi_margin_loss(x, paddle.to_tensor(labels)), ml)
probe("mm_p2_w", lambda x: F.multi_margin_loss(x, paddle.to_tensor(labels), p=2, margin=0.5, weight=cw,
                                               reduction="none"), ml)
probe("mm_cls", lambda x: nn.MultiMarginLoss(margin=2.0, reduction="sum")(x, paddle.to_tensor(labels)), ml)
probe("softm", lambda x: F.soft_margin_loss(x, paddle.to_tensor(np.where(soft > 0.25, 1.0, -1.0).astype(
    "float32"))), ml)
probe("softm_cls", lambda x: nn.SoftMarginLoss(reduction="none")(x, paddle.to_tensor(np.where(
    soft > 0.25, 1, -1).astype("float32"))), ml)

# regression-style likelihoods
rate_in = leaf(rng.standard_normal((N, 3)) * 0.5)
cnt = paddle.to_tensor(rng.poisson(2.0, (N, 3)).astype("float32"))
probe("pois", lambda x: F.poisson_nll_loss(x, cnt), rate_in)
probe("pois_full_none", lambda x: F.poisson_nll_loss(x, cnt, full=True, reduction="none"), rate_in)
probe("pois_rate", lambda x: F.poisson_nll_loss(x.exp(), cnt, log_input=False, epsilon=1e-6, full=True), rate_in)
probe("pois_cls", lambda x: nn.PoissonNLLLoss(log_input=True, full=True, reduction="sum")(x, cnt), rate_in)
mu = leaf(rng.standard_normal((N, 3)))
yt = paddle.to_tensor(rng.standard_normal((N, 3)).astype("float32"))
var = leaf(rng.uniform(0.3, 2.0, (N, 3)))
var1 = leaf(rng.uniform(0.3, 2.0, (N, 1)))
varN = leaf(rng.uniform(0.3, 2.0, (N,)))
probe("gnll", lambda m, v: F.gaussian_nll_loss(m, yt, v), mu, var)
probe("gnll_full_none", lambda m, v: F.gaussian_nll_loss(m, yt, v, full=True, reduction="none"), mu, var)
probe("gnll_var_col", lambda m, v: F.gaussian_nll_loss(m, yt, v, reduction="sum"), mu, var1)
probe("gnll_var_row", lambda m, v: F.gaussian_nll_loss(m, yt, v), mu, varN)
probe("gnll_cls", lambda m, v: nn.GaussianNLLLoss(full=True, epsilon=0.5)(m, yt, v), mu, var)
kin = leaf(np.log(soft))
ktg = paddle.to_tensor(rng.dirichlet(np.ones(C), N).astype("float32"))
for red in ("none", "sum", "mean", "batchmean"):
    probe(f"kl_{red}", lambda x, r=red: F.kl_div(x, ktg, reduction=r), kin)
    probe(f"kl_logt_{red}", lambda x, r=red: F.kl_div(x, ktg.log(), reduction=r, log_target=True), kin)
probe("kl_cls", lambda x: nn.KLDivLoss(reduction="batchmean")(x, ktg), kin)
reg = leaf(rng.standard_normal((N, 3)) * 2)
rt = paddle.to_tensor(rng.standard_normal((N, 3)).astype("float32"))
for red in ("none", "sum", "mean"):
    probe(f"sl1_{red}", lambda x, r=red: F.smooth_l1_loss(x, rt, reduction=r, delta=0.5), reg)
    probe(f"l1_{red}", lambda x, r=red: F.l1_loss(x, rt, reduction=r), reg)
    probe(f"mse_{red}", lambda x, r=red: F.mse_loss(x, rt, reduction=r), reg)
probe("sl1_d2", lambda x: F.smooth_l1_loss(x, rt, delta=2.0), reg)
probe("sl1_cls", lambda x: nn.SmoothL1Loss(delta=1.5, reduction="sum")(x, rt), reg)
probe("huber_cls", lambda x: nn.HuberLoss(delta=0.7)(x, rt), reg)
probe("l1_cls", lambda x: nn.L1Loss(reduction="sum")(x, rt), reg)
probe("mse_cls", lambda x: nn.MSELoss()(x, rt), reg)
probe("sqerr", lambda x: F.square_error_cost(x, rt), reg)
probe("logloss", lambda x: F.log_loss(x, t01[:, :1], epsilon=1e-3), p[:, :1])
try:
    F.log_loss(p, t01[:, :1])
    rec["logloss_shapes"] = "no error"
except ValueError as err:
    rec["logloss_shapes"] = type(err).__name__

# detection / segmentation / metric-learning losses
probe("focal", lambda x: F.sigmoid_focal_loss(x, t01), z)
probe("focal_norm", lambda x: F.sigmoid_focal_loss(x, t01, normalizer=paddle.to_tensor([4.0]), alpha=0.5,
                                                   gamma=1.5, reduction="mean"), z)
probe("focal_none", lambda x: F.sigmoid_focal_loss(x, t01, gamma=0.0, reduction="none"), z)
segp = leaf(F.softmax(paddle.to_tensor(rng.standard_normal((2, 3, 3, C)).astype("float32"))).numpy())
probe("dice", lambda x: F.dice_loss(x, paddle.to_tensor(rng.integers(0, C, (2, 3, 3, 1)))), segp)
probe("dice_eps", lambda x: F.dice_loss(x, paddle.to_tensor(rng.integers(0, C, (2, 3, 3, 1))), epsilon=0.1), segp)
probe("npair", lambda u, v: F.npair_loss(u, v, paddle.to_tensor(np.array([0, 1, 0, 2, 1], "float32"))), anc, pos)
probe("npair_l2", lambda u, v: F.npair_loss(u, v, paddle.to_tensor(np.array([3, 1, 2, 0, 4], "float32")),
                                            l2_reg=0.05), anc, pos)
hs_w = leaf(rng.standard_normal((C - 1, 6)) * 0.3)
hs_b = leaf(rng.standard_normal((C - 1, 1)) * 0.3)
probe("hsig", lambda x, w, bb: F.hsigmoid_loss(x, paddle.to_tensor(labels), C, w, bb), e1, hs_w, hs_b)

# sequence losses
T, B, K = 6, 2, 4
ctc_lp = leaf(np.log(rng.dirichlet(np.ones(K), (T, B))))
ctc_lab = paddle.to_tensor(np.array([[1, 2, 1], [3, 3, 0]], "int32"))
ilen = paddle.to_tensor(np.array([6, 5], "int64"))
llen = paddle.to_tensor(np.array([3, 2], "int64"))
for red in ("none", "sum", "mean"):
    probe(f"ctc_{red}", lambda x, r=red: F.ctc_loss(x, ctc_lab, ilen, llen, blank=0, reduction=r), ctc_lp)
probe("ctc_norm", lambda x: F.ctc_loss(x, ctc_lab, ilen, llen, reduction="sum", norm_by_times=True), ctc_lp)
probe("ctc_cls", lambda x: nn.CTCLoss(blank=0, reduction="mean")(x, ctc_lab, ilen, llen), ctc_lp)
rn = leaf(rng.standard_normal((2, 4, 3, 5)))
rn_lab = paddle.to_tensor(np.array([[1, 2], [4, 0]], "int32"))
rn_il = paddle.to_tensor(np.array([4, 3], "int32"))
rn_ll = paddle.to_tensor(np.array([2, 1], "int32"))
probe("rnnt", lambda x: F.rnnt_loss(x, rn_lab, rn_il, rn_ll, blank=0, fastemit_lambda=0.0), rn)
probe("rnnt_none", lambda x: F.rnnt_loss(x, rn_lab, rn_il, rn_ll, blank=0, fastemit_lambda=0.0, reduction="none"),
      rn)
probe("rnnt_cls", lambda x: nn.RNNTLoss(blank=0, fastemit_lambda=0.0, reduction="sum")(x, rn_lab, rn_il, rn_ll), rn)

# adaptive softmax
hid = leaf(rng.standard_normal((6, 8)))
asm_t = paddle.to_tensor(np.array([0, 3, 7, 9, 1, 5]))
asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3, 6], div_value=2.0, head_bias=True)
r = np.random.default_rng(5)
for prm in [asm.head_weight, asm.head_bias] + [w for pair in asm.tail_weights for w in pair]:
    prm.set_value((r.standard_normal(prm.shape) * 0.3).astype("float32"))
rec["asm_keys"] = sorted(k for k in asm.state_dict().keys() if k.startswith("head"))
o, l_ = asm(hid, asm_t)
l_.backward()
rec["asm"] = [o.numpy().tolist(), float(l_), hid.grad.numpy().tolist(), asm.head_weight.grad.numpy().tolist(),
              asm.tail_weights[1][0].grad.numpy().tolist()]
hid.clear_gradient()
rec["asm_logprob"] = asm.log_prob(hid).numpy().tolist()
rec["asm_predict"] = asm.predict(hid).numpy().tolist()
tail = [[w.detach() for w in pair] for pair in asm.tail_weights]
probe("asm_fn", lambda x: F.adaptive_log_softmax_with_loss(x, asm_t, asm.head_weight.detach(), tail, [3, 6, 10],
                                                           head_bias=asm.head_bias.detach())[1], hid)

# a classifier trained with a weighted, label-smoothed cross entropy
X = rng.standard_normal((60, 6)).astype("float32")
Y = (np.argmax(X[:, :3] + 0.3 * X[:, 3:], axis=1)).astype("int64")
model = nn.Sequential(nn.Linear(6, 16), nn.GELU(), nn.Linear(16, 3))
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.4).astype("float32") for k, v in model.state_dict().items()})
crit = nn.CrossEntropyLoss(weight=paddle.to_tensor([1.0, 1.5, 0.7]), label_smoothing=0.1)
opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=model.parameters())
rec["train"] = []
for step in range(20):
    i = (step % 3) * 20
    loss = crit(model(paddle.to_tensor(X[i:i + 20])), paddle.to_tensor(Y[i:i + 20]))
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["train"].append(float(loss))
model.eval()
with paddle.no_grad():
    pred = model(paddle.to_tensor(X)).argmax(-1)
rec["acc"] = float((pred.numpy() == Y).mean())
rec["final_w"] = model[2].weight.numpy().tolist()

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
