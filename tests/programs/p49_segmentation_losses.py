"""Dense prediction: a small encoder-decoder segmenter (Conv2D with padding='same' and dilation, BatchNorm2D
trained then evaluated, F.interpolate bilinear with align_corners True and False, nearest, by scale_factor and by
size), a spatial transformer (F.affine_grid + F.grid_sample) in front, an F.unfold patch feature, and per-pixel
losses: nn.CrossEntropyLoss(axis=1) on [N, C, H, W] logits with ignore_index and a weight per class, soft dice,
a focal loss by hand and F.sigmoid_focal_loss, F.binary_cross_entropy_with_logits with pos_weight, a Lovasz-like
hinge (paddle.sort descending, cumsum, gather); Momentum with OneCycleLR. Then F.dice_loss,
softmax_with_cross_entropy on axis 1, NHWC and align_mode=1 resizing, pixel_shuffle, BatchNorm2D in NHWC and with
use_global_stats, OneCycleLR's linear and three-phase forms, a 5-D (volumetric) grid_sample, a 1-D focal-loss
normalizer, and the ValueErrors of a wrong class weight or label shape. Records losses per step, the learning
rates, output statistics, gradients, and each loss's value and gradient on fixed logits.

Left out: Paddle 3.3.1's CPU grid_sample backward crashes (segmentation fault) when the sampled input does not need
a gradient but the grid does; the transformer here samples the output of a learnable 1x1 stem instead.
Not mirrored: ``F.cross_entropy(logits, labels, axis=1, label_smoothing=0.1)`` with hard labels and the class axis
not last: Paddle one-hots the labels with ``input.shape[-1]`` classes onto a new last axis and then compares them
with the input along ``axis`` (a ValueError for [2, 3, 4, 4] logits, and a silently wrong loss where the shapes
happen to agree); pylayer_jax smooths along ``axis`` (the same loss as the logits moved to the last axis). The
program smooths with the class axis last."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
N, C, H, W = 12, 3, 12, 12
imgs = rng.standard_normal((N, 1, H, W)).astype("float32") * 0.5
yy, xx = np.mgrid[:H, :W]
labels = np.zeros((N, H, W), dtype="int64")
for i in range(N):
    labels[i][(yy - 6 - i % 3) ** 2 + (xx - 5) ** 2 < 10 + i] = 1
    labels[i][(xx > 8) & (yy < 4 + i % 4)] = 2
    imgs[i, 0] += labels[i] * 0.7
labels[:, 0, :] = 255                       # a border row ignored by the loss


class Seg(nn.Layer):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2D(1, 1, 1)
        self.loc = nn.Sequential(nn.AdaptiveAvgPool2D(3), nn.Flatten(), nn.Linear(9, 6))
        self.enc1 = nn.Sequential(nn.Conv2D(1, 8, 3, padding="same", bias_attr=False), nn.BatchNorm2D(8), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2D(8, 12, 3, stride=2, padding=1), nn.BatchNorm2D(12), nn.ReLU())
        self.ctx = nn.Sequential(nn.Conv2D(12, 12, 3, padding="same", dilation=2), nn.BatchNorm2D(12), nn.ReLU())
        self.dec = nn.Sequential(nn.Conv2D(20 + 9, 8, 3, padding=1), nn.BatchNorm2D(8), nn.ReLU())
        self.head = nn.Conv2D(8, C, 1)

    def forward(self, x, align):
        x = self.stem(x)
        theta = self.loc(x).reshape([-1, 2, 3]) * 0.1 + paddle.to_tensor([[1.0, 0, 0], [0, 1.0, 0]])
        grid = F.affine_grid(theta, x.shape, align_corners=False)
        x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
        a = self.enc1(x)                                        # 12x12
        b = self.ctx(self.enc2(a))                              # 6x6
        up = F.interpolate(b, scale_factor=2, mode="bilinear", align_corners=align)
        up_n = F.interpolate(b[:, :4], size=[H, W], mode="nearest")
        patches = F.unfold(x, kernel_sizes=3, paddings=1)      # [N, 9, H*W]
        patches = patches.reshape([x.shape[0], 9, H, W])
        h = self.dec(paddle.concat([a, up[:, :8], up_n, patches], axis=1))
        return self.head(h)


model = Seg()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") if "_variance" not in k
                      else np.ones(v.shape, "float32") for k, v in model.state_dict().items()})
steps = 16
sched = paddle.optimizer.lr.OneCycleLR(max_learning_rate=0.05, total_steps=steps, phase_pct=0.3)
opt = paddle.optimizer.Momentum(learning_rate=sched, momentum=0.9, parameters=model.parameters())
ce = nn.CrossEntropyLoss(weight=paddle.to_tensor([0.5, 1.0, 2.0]), ignore_index=255, axis=1)


def soft_dice(logits, lab):
    prob = F.softmax(logits, axis=1)
    valid = (lab != 255).astype("float32").unsqueeze(1)
    onehot = F.one_hot(paddle.where(lab == 255, paddle.zeros_like(lab), lab), C).transpose([0, 3, 1, 2])
    inter = (prob * onehot * valid).sum(axis=[2, 3])
    den = ((prob + onehot) * valid).sum(axis=[2, 3])
    return 1 - ((2 * inter + 1) / (den + 1)).mean()


def focal(logit, target, alpha=0.25, gamma=2.0):
    p = F.sigmoid(logit)
    ce_ = F.binary_cross_entropy_with_logits(logit, target, reduction="none")
    pt = p * target + (1 - p) * (1 - target)
    a = alpha * target + (1 - alpha) * (1 - target)
    return (a * (1 - pt) ** gamma * ce_).mean()


def lovasz_hinge(logit, target):
    signs = 2 * target - 1
    errors = 1 - logit * signs
    errors_sorted, perm = paddle.sort(errors, descending=True), paddle.argsort(errors, descending=True)
    gt_sorted = paddle.gather(target, perm)
    gts = gt_sorted.sum()
    inter = gts - gt_sorted.cumsum(0)
    union = gts + (1 - gt_sorted).cumsum(0)
    jac = 1 - inter / union
    jac = paddle.concat([jac[:1], jac[1:] - jac[:-1]])
    return paddle.dot(F.relu(errors_sorted), jac)


rec = {"loss": [], "ce": [], "dice": [], "lr": [], "gnorm": []}
for step in range(steps):
    i = (step * 4) % N
    x = paddle.to_tensor(imgs[i:i + 4])
    y = paddle.to_tensor(labels[i:i + 4])
    logits = model(x, align=step % 2 == 0)
    l_ce = ce(logits, y)
    l_dice = soft_dice(logits, y)
    fg = (y == 1).astype("float32")
    l_bce = F.binary_cross_entropy_with_logits(logits[:, 1], fg, pos_weight=paddle.to_tensor([2.0]))
    loss = l_ce + l_dice + 0.5 * l_bce
    loss.backward()
    rec.setdefault("nograd", [n for n, p in model.named_parameters() if p.grad is None])
    rec["gnorm"].append(float(paddle.add_n([(p.grad ** 2).sum() for p in model.parameters() if p.grad is not None])))
    rec["lr"].append(opt.get_lr())
    opt.step()
    opt.clear_grad()
    sched.step()
    rec["loss"].append(loss.item())
    rec["ce"].append(l_ce.item())
    rec["dice"].append(l_dice.item())
rec["bn_running"] = [model.enc1[1]._mean.numpy().tolist(), model.ctx[1]._variance.numpy().tolist()]

model.eval()
with paddle.no_grad():
    out = model(paddle.to_tensor(imgs[:4]), align=True)
    pred = out.argmax(axis=1)
    rec["eval_stats"] = [float(out.mean()), float(out.std()), float(out.max()), float(out.min())]
    rec["eval_shape"] = [out.shape, str(out.dtype), str(pred.dtype)]
    lab = paddle.to_tensor(labels[:4])
    valid = lab != 255
    rec["pixel_acc"] = float(((pred == lab) & valid).astype("float32").sum() / valid.astype("float32").sum())
    rec["ious"] = [float((((pred == c) & (lab == c)).astype("float32").sum() + 1)
                         / (((pred == c) | (lab == c)) & valid).astype("float32").sum().add(paddle.to_tensor(1.0)))
                   for c in range(C)]

# interpolate variants on a fixed tensor, values and gradients
t = paddle.to_tensor(rng.standard_normal((1, 2, 3, 4)).astype("float32"), stop_gradient=False)
ups = [F.interpolate(t, scale_factor=2, mode="bilinear", align_corners=True),
       F.interpolate(t, scale_factor=2, mode="bilinear", align_corners=False),
       F.interpolate(t, size=[5, 7], mode="bilinear", align_corners=False),
       F.interpolate(t, size=[5, 7], mode="nearest"),
       F.interpolate(t, scale_factor=[1.5, 2.5], mode="nearest"),
       F.interpolate(t, size=[2, 3], mode="bicubic", align_corners=False),
       nn.Upsample(scale_factor=2, mode="bilinear")(t),
       nn.UpsamplingNearest2D(scale_factor=2)(t)]
rec["interp_shapes"] = [u.shape for u in ups]
rec["interp_vals"] = [u.numpy().tolist() for u in ups]
paddle.add_n([(u * (k + 1)).sum() for k, u in enumerate(ups)]).backward()
rec["interp_grad"] = t.grad.numpy().tolist()

# spatial transformer alone: rotation, grid values and gradient to theta
img = paddle.to_tensor(rng.standard_normal((2, 1, 5, 6)).astype("float32"), stop_gradient=False)
ang = paddle.to_tensor([0.3, -0.5], stop_gradient=False)
theta = paddle.stack([paddle.stack([ang.cos(), -ang.sin(), paddle.full([2], 0.1)], 1),
                      paddle.stack([ang.sin(), ang.cos(), paddle.full([2], -0.2)], 1)], 1)
for ac in (True, False):
    grid = F.affine_grid(theta, [2, 1, 4, 5], align_corners=ac)
    for mode, pad in (("bilinear", "zeros"), ("nearest", "border"), ("bilinear", "reflection")):
        o = F.grid_sample(img, grid, mode=mode, padding_mode=pad, align_corners=ac)
        rec[f"gs_{ac}_{mode}_{pad}"] = o.numpy().tolist()
    rec[f"grid_{ac}"] = grid.numpy().tolist()
    (F.grid_sample(img, grid, align_corners=ac) ** 2).sum().backward(retain_graph=True)
rec["gs_grads"] = [img.grad.numpy().tolist(), ang.grad.numpy().tolist()]

u = F.unfold(paddle.to_tensor(np.arange(2 * 2 * 5 * 5, dtype="float32").reshape(2, 2, 5, 5)),
             kernel_sizes=[2, 3], strides=[2, 1], paddings=[1, 0, 0, 1], dilations=[1, 2])
rec["unfold"] = [u.shape, u.numpy().sum(axis=-1).tolist()]
rec["fold_back"] = F.fold(F.unfold(t.detach(), 2, strides=1), output_sizes=[3, 4], kernel_sizes=2).numpy().tolist()

# each loss on fixed logits: values and gradients
lg = paddle.to_tensor(rng.standard_normal((2, C, 4, 4)).astype("float32"), stop_gradient=False)
lab = paddle.to_tensor(rng.integers(0, C, (2, 4, 4)))
lab[0, 0] = 255
losses = {
    "ce_mean": ce(lg, lab),
    "ce_sum": nn.CrossEntropyLoss(ignore_index=255, axis=1, reduction="sum")(lg, lab),
    "ce_none": F.cross_entropy(lg, lab, ignore_index=255, axis=1, reduction="none").sum(),
    "ce_ls": F.cross_entropy(lg.transpose([0, 2, 3, 1]), lab.clip(0, C - 1), label_smoothing=0.1),
    "ce_soft": F.cross_entropy(lg.transpose([0, 2, 3, 1]), F.softmax(lg.detach() * 2, axis=1).transpose([0, 2, 3, 1]),
                               soft_label=True),
    "ce_unsq": F.cross_entropy(lg, lab.clip(0, C - 1).unsqueeze(1), axis=1, weight=paddle.to_tensor([1.0, 2.0, 3.0])),
    "nll": F.nll_loss(F.log_softmax(lg, axis=1), lab, ignore_index=255),
    "dice": soft_dice(lg, lab),
    "focal_hand": focal(lg[:, 1], (lab == 1).astype("float32")),
    "focal_F": F.sigmoid_focal_loss(lg[:, 1], (lab == 1).astype("float32"), reduction="mean"),
    "focal_F_norm": F.sigmoid_focal_loss(lg[:, 2], (lab == 2).astype("float32"),
                                         normalizer=paddle.to_tensor([5.0]), alpha=0.5, gamma=1.5),
    "bce_pw": F.binary_cross_entropy_with_logits(lg[:, 0], (lab == 0).astype("float32"),
                                                 pos_weight=paddle.to_tensor([3.0])),
    "bce_w": F.binary_cross_entropy_with_logits(lg[:, 0], (lab == 0).astype("float32"), weight=paddle.full([4], 0.5),
                                                reduction="sum"),
    "bce_layer": nn.BCEWithLogitsLoss(pos_weight=paddle.to_tensor([0.5, 1.0, 1.5, 2.0]))(
        lg[:, 2], (lab == 2).astype("float32")),
    "lovasz": lovasz_hinge(lg[0, 1].flatten(), (lab[0] == 1).astype("float32").flatten()),
}
for k, v in losses.items():
    lg.clear_gradient()
    g, = paddle.grad(v, lg, retain_graph=True)
    rec[f"loss_{k}"] = [float(v), float(g.abs().sum()), g[0, :, 1].numpy().tolist()]
# the mistakes such code makes, caught: a class weight of the wrong length, labels of the wrong shape
for name, bad in (("weight_len", lambda: F.cross_entropy(lg, lab.clip(0, C - 1), axis=1, weight=paddle.to_tensor([1.0, 2.0]))),
                  ("label_shape", lambda: F.cross_entropy(lg, lab.clip(0, C - 1)[:, :1], axis=1)),
                  ("nll_weight_len", lambda: F.nll_loss(F.log_softmax(lg, 1), lab.clip(0, 2),
                                                        weight=paddle.ones([4])))):
    try:
        bad()
        rec["bad_" + name] = "ok"
    except ValueError as e:
        rec["bad_" + name] = type(e).__name__
# a volumetric spatial transformer: 5-D affine_grid + grid_sample (trilinear, nearest), with gradients
vol = paddle.to_tensor(rng.standard_normal((2, 2, 3, 4, 5)).astype("float32"), stop_gradient=False)
th3 = paddle.to_tensor((np.eye(3, 4)[None] + rng.standard_normal((2, 3, 4)) * 0.2).astype("float32"),
                       stop_gradient=False)
g3 = F.affine_grid(th3, [2, 2, 2, 3, 4], align_corners=False)
v_lin = F.grid_sample(vol, g3, mode="bilinear", padding_mode="border", align_corners=False)
v_near = F.grid_sample(vol, g3 * 1.2, mode="nearest", padding_mode="zeros", align_corners=False)
(v_lin ** 2).sum().backward()
rec["grid_sample_3d"] = [v_lin.shape, v_lin.numpy().ravel().tolist()[:12], v_near.numpy().ravel().tolist()[:12],
                         float(vol.grad.abs().sum()), th3.grad.numpy().tolist()]
rec["focal_normalizer_1d"] = float(F.sigmoid_focal_loss(lg[:, 1], (lab == 1).astype("float32"),
                                                        normalizer=paddle.to_tensor([1.0, 2.0, 3.0, 4.0])))
srt, idx = paddle.sort(lg[0, 0].flatten(), descending=True), paddle.argsort(lg[0, 0].flatten(), descending=True)
rec["sort"] = [srt.numpy().tolist(), idx.numpy().tolist(), paddle.topk(lg[0, 0].flatten(), 3)[1].numpy().tolist()]
rec["ce_all_ignored"] = float(ce(lg[:1, :, :1], paddle.full([1, 1, 4], 255, dtype="int64")))

# more of the same area: Paddle's own dice_loss, softmax_with_cross_entropy on axis 1, NHWC resizing, align_mode,
# pixel_shuffle, BatchNorm2D in NHWC and with use_global_stats, OneCycleLR's other forms
prob = F.softmax(lg, axis=1).transpose([0, 2, 3, 1])
lab_c = lab.clip(0, C - 1)
rec["dice_loss"] = float(F.dice_loss(prob, lab_c.unsqueeze(-1)))
swce = F.softmax_with_cross_entropy(lg, lab_c.unsqueeze(1), axis=1, return_softmax=True)
rec["swce"] = [swce[0].shape, float(swce[0].sum()), float(swce[1][0, :, 0, 0].sum())]
rec["swce_ignore"] = float(F.softmax_with_cross_entropy(lg, lab.unsqueeze(1), axis=1, ignore_index=255).sum())
nhwc = t.detach().transpose([0, 2, 3, 1])
rec["interp_nhwc"] = [F.interpolate(nhwc, scale_factor=2, mode="bilinear", data_format="NHWC").shape,
                      float(F.interpolate(nhwc, size=[4, 6], mode="bilinear", data_format="NHWC").sum()),
                      F.interpolate(t.detach(), size=[5, 6], mode="bilinear", align_corners=False,
                                    align_mode=1)[0, 0].numpy().tolist(),
                      F.interpolate(t.detach(), scale_factor=1.7, mode="bilinear",
                                 recompute_scale_factor=True)[0, 1].numpy().tolist(),
                      nn.UpsamplingBilinear2D(size=[4, 7])(t.detach())[0, 0].numpy().tolist(),
                      F.interpolate(t.detach()[:, :, 0], scale_factor=2, mode="linear", align_corners=True,
                                    data_format="NCW").numpy().tolist()]
ps = F.pixel_shuffle(paddle.arange(32, dtype="float32").reshape([1, 8, 2, 2]), 2)
rec["pixel_shuffle"] = [ps.shape, ps[0, 1].numpy().tolist(), F.pixel_unshuffle(ps, 2).numpy().ravel().tolist()[:8]]
bn = nn.BatchNorm2D(3, momentum=0.8, epsilon=1e-3, data_format="NHWC")
xb = paddle.to_tensor(rng.standard_normal((2, 4, 4, 3)).astype("float32") * 2 + 1, stop_gradient=False)
yb = bn(xb)
(yb * paddle.arange(3, dtype="float32")).sum().backward()
rec["bn_nhwc"] = [float(yb.std()), bn._mean.numpy().tolist(), bn._variance.numpy().tolist(),
                  xb.grad[0, 0].numpy().tolist(), bn.weight.grad.numpy().tolist()]
bn_g = nn.BatchNorm2D(3, use_global_stats=True)
rec["bn_global"] = [float(bn_g(lg.detach()).sum()), bn_g._mean.numpy().tolist()]
bn.eval()
rec["bn_eval_nhwc"] = float(bn(xb.detach()).sum())
for kw in ({"anneal_strategy": "linear"}, {"three_phase": True, "end_learning_rate": 1e-4},
           {"divide_factor": 10.0, "phase_pct": 0.5}):
    sch = paddle.optimizer.lr.OneCycleLR(max_learning_rate=0.1, total_steps=10, **kw)
    lrs = []
    for _ in range(10):
        lrs.append(sch())
        sch.step()
    rec["onecycle_" + "_".join(kw)] = lrs
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
