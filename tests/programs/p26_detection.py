"""Detection-style training on anchors: IoU and GIoU computed by hand with maximum/minimum/clip, anchor matching by
argmax over IoU with a threshold (where, nonzero, gather, masked_select), box regression deltas with log/exp,
smooth_l1_loss over positives, F.sigmoid_focal_loss with normalizer, topk hard negatives, then decoding with
paddle.vision.ops.nms and box_coder-free delta decoding, and the number kept per score threshold."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
cx, cy = np.meshgrid(np.arange(4) * 8 + 4, np.arange(4) * 8 + 4)
anchors = np.concatenate([np.stack([cx.ravel() - s, cy.ravel() - s, cx.ravel() + s, cy.ravel() + s], 1)
                          for s in (4, 7)]).astype("float32")       # [32, 4]
A = anchors.shape[0]
NCLS = 3


def make_image():
    n = rng.integers(1, 4)
    c = rng.uniform(4, 28, size=(n, 2))
    wh = rng.uniform(5, 14, size=(n, 2))
    boxes = np.concatenate([c - wh / 2, c + wh / 2], 1).astype("float32")
    return boxes, rng.integers(0, NCLS, size=n).astype("int64")


data = [make_image() for _ in range(12)]
feats = rng.standard_normal((12, A, 10)).astype("float32")


def box_iou(a, b):
    lt = paddle.maximum(a[:, None, :2], b[None, :, :2])
    rb = paddle.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clip(min=0).prod(-1)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    iou = inter / union
    enc = (paddle.maximum(a[:, None, 2:], b[None, :, 2:]) - paddle.minimum(a[:, None, :2], b[None, :, :2])).prod(-1)
    return iou, iou - (enc - union) / enc


def encode(gt, an):
    wa, ha = an[:, 2] - an[:, 0], an[:, 3] - an[:, 1]
    wg, hg = gt[:, 2] - gt[:, 0], gt[:, 3] - gt[:, 1]
    return paddle.stack([((gt[:, 0] + gt[:, 2]) - (an[:, 0] + an[:, 2])) / 2 / wa,
                         ((gt[:, 1] + gt[:, 3]) - (an[:, 1] + an[:, 3])) / 2 / ha,
                         paddle.log(wg / wa), paddle.log(hg / ha)], -1)


head = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, NCLS + 4))
r = np.random.default_rng(1)
head.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in head.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=head.parameters())
an = paddle.to_tensor(anchors)
rec = {"loss": [], "npos": [], "giou_mean": []}
for step in range(12):
    gt, gl = paddle.to_tensor(data[step][0]), paddle.to_tensor(data[step][1])
    iou, giou = box_iou(an, gt)                                  # [A, G]
    best_iou, best_gt = iou.max(1), iou.argmax(1)
    force = iou.argmax(0)                                        # each gt gets its best anchor
    best_gt = paddle.scatter(best_gt, force, paddle.arange(gt.shape[0]))
    best_iou = paddle.scatter(best_iou, force, paddle.full([gt.shape[0]], 1.0))
    pos = best_iou >= 0.4
    pos_idx = paddle.nonzero(pos).squeeze(-1)
    cls_t = paddle.where(pos, paddle.gather(gl, best_gt), paddle.full_like(best_gt, NCLS))
    out = head(paddle.to_tensor(feats[step]))
    logits, deltas = out[:, :NCLS], out[:, NCLS:]
    onehot = F.one_hot(cls_t, NCLS + 1)[:, :NCLS]
    npos = paddle.maximum(pos.astype("float32").sum(), paddle.to_tensor(1.0))
    l_cls = F.sigmoid_focal_loss(logits, onehot, normalizer=npos, alpha=0.25, gamma=2.0)
    tgt = encode(paddle.gather(gt, paddle.gather(best_gt, pos_idx)), paddle.gather(an, pos_idx))
    l_box = F.smooth_l1_loss(paddle.gather(deltas, pos_idx), tgt, reduction="sum", delta=1.0 / 9) / npos
    neg_score = paddle.where(pos, paddle.full_like(best_iou, -1.0), F.sigmoid(logits).max(1))
    hard = paddle.topk(neg_score, k=5)[1]
    l_hard = F.binary_cross_entropy_with_logits(logits[hard], paddle.zeros([5, NCLS]))
    loss = l_cls + l_box + 0.1 * l_hard
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["loss"].append([loss.item(), l_cls.item(), l_box.item(), l_hard.item()])
    rec["npos"].append(int(pos.sum()))
    rec["giou_mean"].append(float(paddle.masked_select(giou.max(1), pos).mean()))

with paddle.no_grad():
    out = head(paddle.to_tensor(feats[0]))
    d = out[:, NCLS:]
    w, h = an[:, 2] - an[:, 0], an[:, 3] - an[:, 1]
    ctr = paddle.stack([(an[:, 0] + an[:, 2]) / 2 + d[:, 0] * w, (an[:, 1] + an[:, 3]) / 2 + d[:, 1] * h], -1)
    size = paddle.stack([w * d[:, 2].clip(max=4).exp(), h * d[:, 3].clip(max=4).exp()], -1)
    boxes = paddle.concat([ctr - size / 2, ctr + size / 2], -1)
    scores = F.sigmoid(out[:, :NCLS])
    score, label = scores.max(1), scores.argmax(1)
    order = paddle.argsort(score, descending=True)
    rec["top_scores"] = score[order[:6]].numpy().tolist()
    keep = paddle.vision.ops.nms(boxes, iou_threshold=0.5, scores=score)
    rec["nms_keep"] = keep.numpy().tolist()
    keep_c = paddle.vision.ops.nms(boxes, 0.3, scores=score, category_idxs=label, categories=list(range(NCLS)), top_k=8)
    rec["nms_cat"] = keep_c.numpy().tolist()
    rec["kept_per_thresh"] = [int((score > t).sum()) for t in (0.1, 0.2, 0.3, 0.5)]
    rec["boxes"] = boxes[keep[:3]].numpy().round(3).tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
