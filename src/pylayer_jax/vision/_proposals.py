"""Host-side detection post-processing of ``paddle.vision.ops``: ``generate_proposals`` (RPN proposals),
``distribute_fpn_proposals`` (RoIs to FPN levels) and ``matrix_nms``. Their results are sets of boxes whose
number depends on the values, with no gradient (as in Paddle), so they run in numpy, in the inputs' float dtype
with the arithmetic of Paddle's CPU kernels."""

from __future__ import annotations

import numbers

import numpy as np

from .._tensor.facade import Tensor
from .._tensor.facade import to_tensor as _to_tensor

_FLOATS = (np.float32, np.float64)


def _array(t, name: str, api: str, ndim: int | None = None, floating: bool = True) -> np.ndarray:
    if not isinstance(t, Tensor):
        raise TypeError(f"{api}: {name} must be a Tensor; got {type(t).__name__}.")
    a = t.numpy()
    if ndim is not None and a.ndim != ndim:
        raise ValueError(f"{api}: {name} must be {ndim}-D; got shape {list(a.shape)}.")
    if floating and a.dtype.type not in _FLOATS:
        raise TypeError(f"{api}: {name} must be float32 or float64; got {a.dtype}.")
    return a


def _area(b: np.ndarray, normalized: bool) -> np.ndarray:
    """Box areas (0 for a box with x2 < x1 or y2 < y1); un-normalized boxes count their last pixel."""
    w, h = b[..., 2] - b[..., 0], b[..., 3] - b[..., 1]
    one = b.dtype.type(0 if normalized else 1)
    return np.where((w < 0) | (h < 0), b.dtype.type(0), (w + one) * (h + one))


def _iou(a: np.ndarray, b: np.ndarray, normalized: bool) -> np.ndarray:
    """IoU of every box of ``a`` ([p, 4]) with every box of ``b`` ([q, 4]): [p, q], 0 for disjoint boxes."""
    a, b = a[:, None, :], b[None, :, :]
    disjoint = (b[..., 0] > a[..., 2]) | (b[..., 2] < a[..., 0]) | (b[..., 1] > a[..., 3]) | (b[..., 3] < a[..., 1])
    one = a.dtype.type(0 if normalized else 1)
    iw = np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]) + one
    ih = np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]) + one
    inter = iw * ih
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (_area(a, normalized) + _area(b, normalized) - inter)
    return np.where(disjoint, a.dtype.type(0), iou)


# ---- generate_proposals ---------------------------------------------------------------------------------------
_BBOX_CLIP = np.log(1000.0 / 16.0)


def _decode(anchors, deltas, var, offset):
    t = anchors.dtype.type
    aw = anchors[:, 2] - anchors[:, 0] + offset
    ah = anchors[:, 3] - anchors[:, 1] + offset
    acx = anchors[:, 0] + t(0.5) * aw
    acy = anchors[:, 1] + t(0.5) * ah
    clip = t(_BBOX_CLIP)
    cx = var[:, 0] * deltas[:, 0] * aw + acx
    cy = var[:, 1] * deltas[:, 1] * ah + acy
    bw = np.exp(np.minimum(var[:, 2] * deltas[:, 2], clip)) * aw
    bh = np.exp(np.minimum(var[:, 3] * deltas[:, 3], clip)) * ah
    half_w, half_h = bw / t(2), bh / t(2)
    return np.stack([cx - half_w, cy - half_h, cx + half_w - offset, cy + half_h - offset], 1)


def _greedy(boxes, scores, thresh, eta, normalized):
    """Paddle's NMS: highest score first (ties: the later box first), adaptive threshold shrunk by ``eta``."""
    order = np.argsort(scores, kind="stable")[::-1]
    kept: list[int] = []
    t = boxes.dtype.type
    adaptive = t(thresh)
    for i in order:
        ok = not kept or bool(np.all(_iou(boxes[i:i + 1], boxes[kept], normalized)[0] <= adaptive))
        if ok:
            kept.append(int(i))
            if eta < 1 and adaptive > 0.5:
                adaptive = t(adaptive * t(eta))
    return np.asarray(kept, np.int64)


def _proposals_one(scores, deltas, im, anchors, var, pre, post, nms_thresh, min_size, eta, pixel_offset):
    t = scores.dtype.type
    offset = t(1 if pixel_offset else 0)
    order = np.argsort(-scores, kind="stable")
    if 0 < pre < scores.size:
        order = order[:pre]
    sc = scores[order]
    boxes = _decode(anchors[order], deltas[order], var[order], offset)
    im_h, im_w = im[0], im[1]
    boxes[:, 0::2] = np.maximum(np.minimum(boxes[:, 0::2], im_w - offset), t(0))
    boxes[:, 1::2] = np.maximum(np.minimum(boxes[:, 1::2], im_h - offset), t(0))
    ws = boxes[:, 2] - boxes[:, 0] + offset
    hs = boxes[:, 3] - boxes[:, 1] + offset
    floor = t(max(min_size, 1.0))
    keep = (ws >= floor) & (hs >= floor)
    if pixel_offset:
        keep &= (boxes[:, 0] + ws / t(2) <= im_w) & (boxes[:, 1] + hs / t(2) <= im_h)
    if not keep.any():
        return np.zeros((1, 4), t), np.zeros((1,), t)
    boxes, sc = boxes[keep], sc[keep]
    if nms_thresh <= 0:
        return boxes, sc
    kept = _greedy(boxes, sc, nms_thresh, eta, normalized=not pixel_offset)
    if post > 0:
        kept = kept[:post]
    return boxes[kept], sc[kept]


def generate_proposals(scores, bbox_deltas, img_size, anchors, variances, pre_nms_top_n: int = 6000,
                       post_nms_top_n: int = 1000, nms_thresh: float = 0.5, min_size: float = 0.1, eta: float = 1.0,
                       pixel_offset: bool = False, return_rois_num: bool = False, name=None):
    """RPN proposals. Per image: the ``pre_nms_top_n`` highest ``scores`` ([N, A, H, W]) of the anchors
    ([H, W, A, 4] x1, y1, x2, y2), decoded with ``bbox_deltas`` ([N, 4A, H, W]) scaled by ``variances``
    ([H, W, A, 4]), clipped to the image (``img_size`` [N, 2] height, width), without boxes narrower or lower
    than max(``min_size``, 1), then NMS at ``nms_thresh`` (adaptive with ``eta`` < 1) cut to ``post_nms_top_n``;
    with ``nms_thresh`` <= 0 the boxes left, uncut, highest score first (Paddle leaves them in its partial
    sort's order when ``pre_nms_top_n`` is below the number of anchors). An image with no box left gives one zero box of score 0.
    Returns (rois [K, 4], probs [K, 1], rois_num [N] int32); ``pixel_offset`` counts the last pixel in sizes.
    As in Paddle's dynamic mode, ``return_rois_num`` must be True. No gradient; runs on the host."""
    api = "paddle.vision.ops.generate_proposals"
    if not return_rois_num:
        raise ValueError(f"{api}: return_rois_num must be True (Paddle's dynamic mode returns rois_num always and "
                         "refuses False); pass return_rois_num=True.")
    s = _array(scores, "scores", api, 4)
    d = _array(bbox_deltas, "bbox_deltas", api, 4)
    im = _array(img_size, "img_size", api, 2)
    a = _array(anchors, "anchors", api)
    v = _array(variances, "variances", api)
    n, na, h, w = s.shape
    for nm, arr in (("bbox_deltas", d), ("img_size", im), ("anchors", a), ("variances", v)):
        if arr.dtype != s.dtype:
            raise TypeError(f"{api}: {nm} must have the dtype of scores ({s.dtype}); got {arr.dtype}.")
    if list(d.shape) != [n, 4 * na, h, w]:
        raise ValueError(f"{api}: bbox_deltas must have shape [N, 4 * A, H, W] = {[n, 4 * na, h, w]} for scores "
                         f"of shape {list(s.shape)}; got {list(d.shape)}.")
    if list(im.shape) != [n, 2]:
        raise ValueError(f"{api}: img_size must have shape [N, 2] = {[n, 2]} (height, width of each image); got "
                         f"{list(im.shape)}.")
    for nm, arr in (("anchors", a), ("variances", v)):
        if arr.size != h * w * na * 4:
            raise ValueError(f"{api}: {nm} must hold H * W * A boxes of 4 ({[h, w, na, 4]}) for scores of shape "
                             f"{list(s.shape)}; got shape {list(arr.shape)}.")
    a, v = a.reshape(-1, 4), v.reshape(-1, 4)
    rois, probs, nums = [], [], []
    for i in range(n):
        b, p = _proposals_one(s[i].transpose(1, 2, 0).reshape(-1), d[i].transpose(1, 2, 0).reshape(-1, 4), im[i],
                              a, v, int(pre_nms_top_n), int(post_nms_top_n), float(nms_thresh), float(min_size),
                              float(eta), bool(pixel_offset))
        rois.append(b)
        probs.append(p)
        nums.append(len(b))
    return (_to_tensor(np.concatenate(rois).astype(s.dtype)),
            _to_tensor(np.concatenate(probs).astype(s.dtype).reshape(-1, 1)),
            _to_tensor(np.asarray(nums, np.int32)))


# ---- distribute_fpn_proposals ---------------------------------------------------------------------------------
def distribute_fpn_proposals(fpn_rois, min_level: int, max_level: int, refer_level: int, refer_scale: int,
                             pixel_offset: bool = False, rois_num=None, name=None):
    """Distribute RoIs ([N, 4] x1, y1, x2, y2; ``rois_num`` of them per image) over the FPN levels
    ``min_level``..``max_level``: level floor(log2(sqrt(area) / ``refer_scale`` + 1e-6) + ``refer_level``),
    clipped to the range (``pixel_offset`` counts the last pixel in the area). Returns (multi_rois: the RoIs of
    each level in their order, restore_ind [N, 1] int32: where each RoI went in their concatenation,
    rois_num_per_level: the int32 [B] count per image of each level). No gradient; runs on the host."""
    api = "paddle.vision.ops.distribute_fpn_proposals"
    if not (min_level > 0 and max_level > 0):
        raise ValueError(f"{api}: min_level and max_level must be greater than 0; got {min_level} and {max_level}.")
    levels = max_level - min_level + 1
    if levels <= 1:
        raise ValueError(f"{api}: max_level ({max_level}) must be greater than min_level ({min_level}) (Paddle "
                         "needs at least two levels).")
    if levels >= 100:
        raise ValueError(f"{api}: at most 99 levels are supported (max_level - min_level + 1 < 100); got {levels}.")
    if isinstance(refer_scale, bool) or not isinstance(refer_scale, numbers.Integral):
        raise TypeError(f"{api}: refer_scale must be an int; got {type(refer_scale).__name__} {refer_scale!r}.")
    if rois_num is None:
        raise ValueError(f"{api}: rois_num (the number of RoIs of each image) is required in dynamic mode.")
    r = _array(fpn_rois, "fpn_rois", api, 2)
    if r.shape[1] != 4:
        raise ValueError(f"{api}: fpn_rois must have shape [N, 4] (x1, y1, x2, y2); got {list(r.shape)}.")
    num = _array(rois_num, "rois_num", api, 1, floating=False)
    if num.dtype.kind not in "iu":
        raise TypeError(f"{api}: rois_num must be an int32 or int64 Tensor; got {num.dtype}.")
    if int(num.sum()) != r.shape[0]:
        raise ValueError(f"{api}: rois_num must add up to the number of RoIs ({r.shape[0]}); got {num.tolist()}.")
    t = r.dtype.type
    scale = np.sqrt(_area(r, normalized=not pixel_offset))
    lvl = np.floor(np.log2(scale / t(int(refer_scale)) + t(1e-6)) + t(refer_level))
    lvl = np.clip(lvl, min_level, max_level).astype(np.int64) - min_level
    order = np.argsort(lvl, kind="stable")
    restore = np.empty(r.shape[0], np.int32)
    restore[order] = np.arange(r.shape[0], dtype=np.int32)
    image = np.repeat(np.arange(num.shape[0]), num.astype(np.int64))
    multi = [_to_tensor(np.ascontiguousarray(r[lvl == k])) for k in range(levels)]
    counts = [_to_tensor(np.bincount(image[lvl == k], minlength=num.shape[0]).astype(np.int32))
              for k in range(levels)]
    return multi, _to_tensor(restore.reshape(-1, 1)), counts


# ---- matrix_nms -----------------------------------------------------------------------------------------------
def _matrix_nms_class(boxes, scores, score_threshold, post_threshold, top_k, use_gaussian, sigma, normalized):
    t = scores.dtype.type
    cand = np.nonzero(scores > t(score_threshold))[0]
    if cand.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, scores.dtype)
    cand = cand[np.argsort(-scores[cand], kind="stable")]
    if top_k > -1:
        cand = cand[:top_k]
    sc = scores[cand]
    iou = np.tril(_iou(boxes[cand], boxes[cand], normalized), -1)  # iou[i, j] for j < i
    iou_max = iou.max(axis=1)  # the largest IoU of each box with a higher-scored one (0 for the first)
    if use_gaussian:
        decay = np.exp((iou_max[None, :] * iou_max[None, :] - iou * iou) * t(sigma))
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            decay = ((1.0 - iou.astype(np.float64)) / (1.0 - iou_max[None, :].astype(np.float64))).astype(t)
    lower = np.tril(np.ones(iou.shape, bool), -1)
    min_decay = np.min(np.where(lower, decay, t(1)), axis=1, initial=t(1))
    ds = (min_decay * sc).astype(t)
    ds[0] = sc[0]
    keep = ds > t(post_threshold)
    return cand[keep], ds[keep]


def matrix_nms(bboxes, scores, score_threshold: float, post_threshold: float, nms_top_k: int, keep_top_k: int,
               use_gaussian: bool = False, gaussian_sigma: float = 2.0, background_label: int = 0,
               normalized: bool = True, return_index: bool = False, return_rois_num: bool = True, name=None):
    """Matrix NMS (SOLOv2). Per image and class (but ``background_label``): the boxes scoring above
    ``score_threshold``, the ``nms_top_k`` best (-1: all), each score decayed by its overlaps with higher-scored
    boxes (linear (1 - iou) / (1 - max_iou), or exp((max_iou² - iou²) * ``gaussian_sigma``) with
    ``use_gaussian``) and kept above ``post_threshold``; then the ``keep_top_k`` best of the image over all
    classes. ``bboxes`` [N, M, 4], ``scores`` [N, C, M]. Returns (out [K, 6] rows of label, score, x1, y1, x2,
    y2; rois_num [N] int32 or None; index [K, 1] int32 of the box in the flattened [N * M] batch, or None), in
    that order, as Paddle's dynamic mode. No gradient; runs on the host."""
    api = "paddle.vision.ops.matrix_nms"
    b = _array(bboxes, "bboxes", api, 3)
    s = _array(scores, "scores", api, 3)
    if b.shape[2] != 4:
        raise ValueError(f"{api}: bboxes must have shape [N, M, 4] (x1, y1, x2, y2); got {list(b.shape)}.")
    if s.shape[0] != b.shape[0] or s.shape[2] != b.shape[1]:
        raise ValueError(f"{api}: scores must have shape [N, C, M] with N, M of bboxes ({b.shape[0]}, "
                         f"{b.shape[1]}); got {list(s.shape)}.")
    if s.dtype != b.dtype:
        raise TypeError(f"{api}: scores must have the dtype of bboxes ({b.dtype}); got {s.dtype}.")
    n, c, m = s.shape
    rows, index, nums = [], [], []
    for i in range(n):
        idx, ds, cls = [], [], []
        for k in range(c):
            if k == background_label:
                continue
            ki, kd = _matrix_nms_class(b[i], s[i, k], score_threshold, post_threshold, int(nms_top_k),
                                       bool(use_gaussian), float(gaussian_sigma), bool(normalized))
            idx.append(ki)
            ds.append(kd)
            cls.append(np.full(ki.shape, k, s.dtype))
        ki = np.concatenate(idx) if idx else np.zeros(0, np.int64)
        kd = np.concatenate(ds) if ds else np.zeros(0, s.dtype)
        kc = np.concatenate(cls) if cls else np.zeros(0, s.dtype)
        order = np.argsort(-kd, kind="stable")
        if keep_top_k > -1:
            order = order[:keep_top_k]
        ki, kd, kc = ki[order], kd[order], kc[order]
        rows.append(np.concatenate([kc[:, None], kd[:, None], b[i][ki]], axis=1).astype(s.dtype))
        index.append((i * m + ki).astype(np.int32))
        nums.append(len(ki))
    out = _to_tensor(np.concatenate(rows).reshape(-1, 6).astype(s.dtype))
    rois_num = _to_tensor(np.asarray(nums, np.int32)) if return_rois_num else None
    idx_t = _to_tensor(np.concatenate(index).reshape(-1, 1).astype(np.int32)) if return_index else None
    return out, rois_num, idx_t
