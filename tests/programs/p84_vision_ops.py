"""``paddle.vision.ops`` as detection code uses them: ``nms`` (plain, with scores, per category with
``category_idxs``/``categories``, ``top_k``, several IoU thresholds), ``box_coder`` (encode and decode, variance as a
list and as a Tensor, ``box_normalized``, ``axis`` 0 and 1), ``prior_box`` (flip, clip, steps, offset,
``min_max_aspect_ratios_order``), ``roi_align`` (aligned or not, sampling_ratio, spatial_scale, several images by
``boxes_num``) and ``RoIAlign``, ``roi_pool``/``RoIPool``, ``psroi_pool``/``PSRoIPool``, ``deform_conv2d`` (with and
without mask, groups, deformable_groups, stride/padding/dilation) and the ``DeformConv2D`` layer, ``yolo_box``,
``yolo_loss`` (with gt_score, label smoothing, scale_x_y), ``matrix_nms``, ``generate_proposals``,
``distribute_fpn_proposals``: values, and the gradients of roi_align, roi_pool, psroi_pool, deform_conv2d and
yolo_loss; then a tiny two-stage detector head (conv backbone, roi_align over given proposals, box_coder targets,
smooth_l1 + cross_entropy) trained a few steps with Adam.

Deliberately not mirrored: ``distribute_fpn_proposals`` without ``rois_num`` (and ``generate_proposals`` with
``return_rois_num=False``) raise Paddle's bare ``AssertionError``; pylayer_jax raises a ValueError with the fix (its
convention for Paddle's asserts on arguments, see tests/vision/test_vision_detect.py), so the program leaves that
call out."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.vision import ops

rng = np.random.default_rng(0)
out = {}


def v(t):
    return np.round(np.asarray(t.numpy(), dtype="float64"), 5).tolist()


def g(t):
    return None if t.grad is None else v(t.grad)


def boxes(n, size=32.0):
    c = rng.uniform(4, size - 4, size=(n, 2))
    wh = rng.uniform(3, 12, size=(n, 2))
    return np.concatenate([c - wh / 2, c + wh / 2], 1).astype("float32")


# --- nms ---
B = boxes(12)
S = rng.uniform(0, 1, size=12).astype("float32")
CAT = rng.integers(0, 3, size=12).astype("int64")
bt, st, ct = paddle.to_tensor(B), paddle.to_tensor(S), paddle.to_tensor(CAT)
out["nms_plain"] = ops.nms(bt).tolist()
for thr in (0.1, 0.3, 0.6):
    out[f"nms_scores_{thr}"] = ops.nms(bt, iou_threshold=thr, scores=st).tolist()
out["nms_topk"] = ops.nms(bt, 0.3, st, top_k=4).tolist()
out["nms_cat"] = ops.nms(bt, 0.2, st, ct, categories=[0, 1, 2]).tolist()
out["nms_cat_sub"] = ops.nms(bt, 0.2, st, ct, categories=[0, 2], top_k=5).tolist()
out["nms_dtype"] = str(ops.nms(bt, 0.3, st).dtype)

# --- box_coder ---
prior = boxes(5)
pvar = rng.uniform(0.1, 0.3, size=(5, 4)).astype("float32")
target = boxes(3)
pt, pv, tt = paddle.to_tensor(prior), paddle.to_tensor(pvar), paddle.to_tensor(target)
enc = ops.box_coder(pt, [0.1, 0.1, 0.2, 0.2], tt, code_type="encode_center_size")
out["coder_enc_list"] = [list(enc.shape), v(enc)]
out["coder_enc_tensor"] = v(ops.box_coder(pt, pv, tt, "encode_center_size", box_normalized=False))
deltas = paddle.to_tensor(rng.normal(0, 0.5, size=(3, 5, 4)).astype("float32"))
out["coder_dec_axis0"] = v(ops.box_coder(pt, pv, deltas, "decode_center_size", axis=0))
out["coder_dec_axis1"] = v(ops.box_coder(paddle.to_tensor(prior[:3]), [0.1, 0.1, 0.2, 0.2], deltas,
                                         "decode_center_size", box_normalized=False, axis=1))

# --- prior_box ---
feat = paddle.to_tensor(rng.standard_normal((1, 4, 3, 4)).astype("float32"))
image = paddle.zeros([1, 3, 24, 32])
pb, pbv = ops.prior_box(feat, image, min_sizes=[4.0, 8.0], max_sizes=[6.0, 12.0], aspect_ratios=[2.0], flip=True,
                        clip=True)
out["prior_box"] = [list(pb.shape), v(pb), v(pbv)]
pb, pbv = ops.prior_box(feat, image, min_sizes=[5.0], aspect_ratios=[1.0, 3.0], variance=[0.1, 0.2, 0.3, 0.4],
                        steps=[8.0, 8.0], offset=0.25, min_max_aspect_ratios_order=True, max_sizes=[9.0])
out["prior_box_order"] = [list(pb.shape), v(pb), v(pbv)]

# --- roi_align / roi_pool / psroi_pool with gradients ---
X = rng.standard_normal((2, 4, 8, 8)).astype("float32")
R = np.array([[0.5, 1.0, 6.0, 5.5], [2.0, 2.0, 7.5, 7.0], [1.0, 0.0, 4.0, 3.0]], "float32")
bn = paddle.to_tensor([2, 1], dtype="int32")
for name, kw in {"aligned": {}, "unaligned": {"aligned": False}, "sr2": {"sampling_ratio": 2},
                 "scale": {"spatial_scale": 0.5, "sampling_ratio": 1}}.items():
    x = paddle.to_tensor(X, stop_gradient=False)
    r = ops.roi_align(x, paddle.to_tensor(R), bn, output_size=(2, 3), **kw)
    (r * paddle.arange(r.size, dtype="float32").reshape(r.shape)).sum().backward()
    out[f"roi_align_{name}"] = [list(r.shape), v(r), g(x)]
layer = ops.RoIAlign(output_size=2, spatial_scale=1.0)
out["RoIAlign"] = v(layer(paddle.to_tensor(X), paddle.to_tensor(R), bn))
x = paddle.to_tensor(X, stop_gradient=False)
r = ops.roi_pool(x, paddle.to_tensor(R), bn, output_size=2)
(r * paddle.arange(r.size, dtype="float32").reshape(r.shape)).sum().backward()
out["roi_pool"] = [list(r.shape), v(r), g(x)]
out["RoIPool"] = v(ops.RoIPool(output_size=(3, 2), spatial_scale=0.5)(paddle.to_tensor(X), paddle.to_tensor(R), bn))
XP = rng.standard_normal((2, 8, 6, 6)).astype("float32")
x = paddle.to_tensor(XP, stop_gradient=False)
r = ops.psroi_pool(x, paddle.to_tensor(R), bn, output_size=2)
(r * paddle.arange(r.size, dtype="float32").reshape(r.shape)).sum().backward()
out["psroi_pool"] = [list(r.shape), v(r), g(x)]
out["PSRoIPool"] = v(ops.PSRoIPool(2, 0.5)(paddle.to_tensor(XP), paddle.to_tensor(R), bn))

# --- deform_conv2d ---
XD = rng.standard_normal((2, 4, 6, 6)).astype("float32")
for name, (groups, dg, use_mask, stride, pad, dil) in {"mask": (1, 1, True, 1, 1, 1),
                                                       "nomask": (1, 1, False, 1, 0, 1),
                                                       "groups": (2, 2, True, 2, 1, 1),
                                                       "dil": (1, 2, True, 1, 2, 2)}.items():
    kh = kw = 3
    oh = (6 + 2 * pad - dil * (kh - 1) - 1) // stride + 1
    x = paddle.to_tensor(XD, stop_gradient=False)
    off = paddle.to_tensor(rng.normal(0, 0.7, size=(2, 2 * dg * kh * kw, oh, oh)).astype("float32"),
                           stop_gradient=False)
    mask = paddle.to_tensor(rng.uniform(0, 1, size=(2, dg * kh * kw, oh, oh)).astype("float32"),
                            stop_gradient=False) if use_mask else None
    w = paddle.to_tensor(rng.standard_normal((6, 4 // groups, kh, kw)).astype("float32") * 0.3, stop_gradient=False)
    b = paddle.to_tensor(rng.standard_normal(6).astype("float32"), stop_gradient=False)
    y = ops.deform_conv2d(x, off, w, b, stride=stride, padding=pad, dilation=dil, deformable_groups=dg,
                          groups=groups, mask=mask)
    (y * y).sum().backward()
    out[f"deform_{name}"] = [list(y.shape), v(y), g(x), g(off), g(w), g(b), None if mask is None else g(mask)]
paddle.seed(0)
dc = ops.DeformConv2D(4, 3, kernel_size=3, padding=1, deformable_groups=1)
for p in dc.parameters():
    p.set_value(rng.standard_normal(p.shape).astype("float32") * 0.2)
off = paddle.to_tensor(rng.normal(0, 0.5, size=(2, 18, 6, 6)).astype("float32"))
y = dc(paddle.to_tensor(XD), off)
out["DeformConv2D"] = [sorted(dc.state_dict().keys()), [list(p.shape) for p in dc.parameters()], v(y)]

# --- yolo_box / yolo_loss ---
anchors = [4, 5, 8, 6, 10, 12]
YX = rng.standard_normal((2, 3 * (5 + 2), 4, 4)).astype("float32")
img_size = paddle.to_tensor([[32, 32], [28, 36]], dtype="int32")
yb, ys = ops.yolo_box(paddle.to_tensor(YX), img_size, anchors, class_num=2, conf_thresh=0.3, downsample_ratio=8)
out["yolo_box"] = [list(yb.shape), v(yb), v(ys)]
yb, ys = ops.yolo_box(paddle.to_tensor(YX), img_size, anchors, 2, 0.2, 8, clip_bbox=False, scale_x_y=1.2,
                      iou_aware=False)
out["yolo_box_noclip"] = [v(yb), v(ys)]
gtb = np.zeros((2, 3, 4), "float32")
gtb[..., :2] = rng.uniform(0.2, 0.8, size=(2, 3, 2))
gtb[..., 2:] = rng.uniform(0.1, 0.4, size=(2, 3, 2))
gtb[1, 2] = 0
gtl = rng.integers(0, 2, size=(2, 3)).astype("int32")
gts = rng.uniform(0.5, 1, size=(2, 3)).astype("float32")
for name, kw in {"plain": {}, "score": {"gt_score": paddle.to_tensor(gts)},
                 "nosmooth": {"use_label_smooth": False, "scale_x_y": 1.1}}.items():
    x = paddle.to_tensor(YX, stop_gradient=False)
    loss = ops.yolo_loss(x, paddle.to_tensor(gtb), paddle.to_tensor(gtl), anchors, [0, 1, 2], class_num=2,
                         ignore_thresh=0.5, downsample_ratio=8, **kw)
    loss.sum().backward()
    out[f"yolo_loss_{name}"] = [list(loss.shape), v(loss), g(x)]
x = paddle.to_tensor(YX[:, :14], stop_gradient=False)
loss = ops.yolo_loss(x, paddle.to_tensor(gtb), paddle.to_tensor(gtl), anchors, [1, 2], 2, 0.7, 8)
loss.mean().backward()
out["yolo_loss_mask"] = [v(loss), g(x)]

# --- matrix_nms ---
MB = rng.uniform(0, 1, size=(2, 10, 4)).astype("float32")
MB = np.concatenate([np.minimum(MB[..., :2], MB[..., 2:]), np.maximum(MB[..., :2], MB[..., 2:])], -1)
MS = rng.uniform(0, 1, size=(2, 3, 10)).astype("float32")
o, idx, num = ops.matrix_nms(paddle.to_tensor(MB), paddle.to_tensor(MS), score_threshold=0.3, post_threshold=0.2,
                             nms_top_k=8, keep_top_k=6, return_index=True)
out["matrix_nms"] = [list(o.shape), v(o), idx.numpy().tolist(), num.numpy().tolist()]
res = ops.matrix_nms(paddle.to_tensor(MB), paddle.to_tensor(MS), 0.2, 0.1, -1, 10, use_gaussian=True,
                     gaussian_sigma=1.5, background_label=-1)
out["matrix_nms_gauss"] = [len(res), v(res[0]), res[1].numpy().tolist(), res[2] is None]

# --- generate_proposals / distribute_fpn_proposals ---
A, GH, GW = 3, 4, 4
sc = paddle.to_tensor(rng.uniform(0, 1, size=(2, A, GH, GW)).astype("float32"))
dl = paddle.to_tensor(rng.normal(0, 0.3, size=(2, 4 * A, GH, GW)).astype("float32"))
cy, cx = np.meshgrid(np.arange(GH) * 8 + 4, np.arange(GW) * 8 + 4, indexing="ij")
anc = np.stack([np.stack([cx - s, cy - s, cx + s, cy + s], -1) for s in (3, 6, 9)], 2).astype("float32")
var = np.full((GH, GW, A, 4), 1.0, "float32")
rois, probs, rn = ops.generate_proposals(sc, dl, paddle.to_tensor([[32.0, 32.0], [30.0, 28.0]]),
                                         paddle.to_tensor(anc), paddle.to_tensor(var), pre_nms_top_n=20,
                                         post_nms_top_n=6, nms_thresh=0.6, min_size=1.0, return_rois_num=True)
out["gen_proposals"] = [list(rois.shape), v(rois), v(probs), rn.numpy().tolist()]
rois2, probs2, rn2 = ops.generate_proposals(sc, dl, paddle.to_tensor([[32.0, 32.0], [30.0, 28.0]]),
                                            paddle.to_tensor(anc), paddle.to_tensor(var), pre_nms_top_n=10,
                                            post_nms_top_n=4, nms_thresh=0.5, min_size=0.5, pixel_offset=True,
                                            return_rois_num=True)
out["gen_proposals_offset"] = [v(rois2), v(probs2), rn2.numpy().tolist()]
FR = np.concatenate([boxes(5, 200.0) * np.array([1, 1, 1, 1], "float32"),
                     np.array([[0, 0, 150, 150], [10, 10, 20, 20], [0, 0, 90, 60]], "float32")])
multi, restore, nums = ops.distribute_fpn_proposals(paddle.to_tensor(FR), 2, 5, 4, 56,
                                                    rois_num=paddle.to_tensor([5, 3], dtype="int32"))
out["fpn"] = [[v(m) for m in multi], restore.numpy().tolist(), [n.numpy().tolist() for n in nums]]
multi, restore, nums = ops.distribute_fpn_proposals(paddle.to_tensor(FR), 2, 4, 3, 40, pixel_offset=True,
                                                    rois_num=paddle.to_tensor([8], dtype="int32"))
out["fpn_offset"] = [[v(m) for m in multi], restore.numpy().tolist(), [n.numpy().tolist() for n in nums]]

# --- a tiny detector head trained with roi_align + box_coder + smooth_l1 ---
imgs = rng.standard_normal((2, 3, 16, 16)).astype("float32")
props = np.concatenate([boxes(4, 16.0), boxes(4, 16.0)]).clip(0, 15.9)
gt = (props + rng.normal(0, 1.0, size=props.shape)).astype("float32").clip(0, 15.9)
labels = rng.integers(0, 3, size=8).astype("int64")


class Head(nn.Layer):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2D(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2D(8, 8, 3, stride=2,
                                                                                          padding=1), nn.ReLU())
        self.fc = nn.Linear(8 * 2 * 2, 16)
        self.cls = nn.Linear(16, 3)
        self.reg = nn.Linear(16, 4)

    def forward(self, x, rois, rois_num):
        f = self.backbone(x)
        r = ops.roi_align(f, rois, rois_num, output_size=2, spatial_scale=0.5, sampling_ratio=2)
        h = F.relu(self.fc(r.flatten(1)))
        return self.cls(h), self.reg(h)


model = Head()
for p in model.parameters():
    p.set_value(rng.standard_normal(p.shape).astype("float32") * 0.2)
opt = paddle.optimizer.Adam(5e-3, parameters=model.parameters())
pr, rn = paddle.to_tensor(props), paddle.to_tensor([4, 4], dtype="int32")
tgt = ops.box_coder(pr, [0.1, 0.1, 0.2, 0.2], paddle.to_tensor(gt), "encode_center_size", box_normalized=False)
idx = paddle.arange(8)
tgt = tgt[idx, idx]                      # each proposal against its own ground truth
out["targets"] = v(tgt)
losses = []
for _step in range(8):
    logits, deltas = model(paddle.to_tensor(imgs), pr, rn)
    loss = F.cross_entropy(logits, paddle.to_tensor(labels)) + F.smooth_l1_loss(deltas, tgt, delta=1.0)
    loss.backward()
    opt.step()
    opt.clear_grad()
    losses.append(float(loss))
out["losses"] = losses
logits, deltas = model(paddle.to_tensor(imgs), pr, rn)
dec = ops.box_coder(pr, [0.1, 0.1, 0.2, 0.2], deltas.unsqueeze(1), "decode_center_size", box_normalized=False,
                    axis=1)
scores = F.softmax(logits).max(1)
keep = ops.nms(dec.squeeze(1), 0.5, scores, logits.argmax(1), categories=[0, 1, 2])
out["eval"] = [v(dec), v(scores), keep.tolist()]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(out, f)
