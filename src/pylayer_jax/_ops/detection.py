"""Detection operators of ``paddle.vision.ops`` (layer L1): roi_align, roi_pool, psroi_pool, deformable
convolution, box_coder, yolo_box and yolo_loss, as jax functions with Paddle's CPU kernels' arithmetic.

The RoI ops map each box to its image with ``boxes_num`` (a cumulative sum searched in the kernel), and sample or
pool through per-axis weight matrices (RoI Align's bilinear weights and RoI pooling's bin masks are separable), so
every box is handled at once and gradients reach ``x`` through the gathers; boxes get no gradient, as in Paddle.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .table import defop


def _batch_of(boxes_num, k: int):
    """The image index of each of ``k`` boxes, given how many boxes each image has."""
    ends = jnp.cumsum(boxes_num.astype(jnp.int64))
    return jnp.searchsorted(ends, jnp.arange(k), side="right")


def _round_away(v):
    """std::round: halves away from zero."""
    return jnp.sign(v) * jnp.floor(jnp.abs(v) + 0.5)


def _align_axis(start, size, pooled: int, grid, grid_max: int, extent: int, dt):
    """[k, pooled, extent] RoI Align weights along one axis: the sum over a bin's ``grid`` samples of each
    sample's two linear weights (zero for samples before -1 or past ``extent``)."""
    bin_ = size / pooled
    g = jnp.arange(grid_max, dtype=dt)
    pos = start[:, None, None] + bin_[:, None, None] * (
        jnp.arange(pooled, dtype=dt)[None, :, None] + (g[None, None, :] + dt(0.5)) / grid[:, None, None])
    live = (g[None, None, :] < grid[:, None, None]) & ~((pos < -1.0) | (pos > extent))
    pos = jnp.where(pos <= 0, dt(0), pos)
    low = jnp.floor(pos).astype(jnp.int64)
    edge = low >= extent - 1
    low = jnp.where(edge, extent - 1, low)
    high = jnp.where(edge, extent - 1, low + 1)
    pos = jnp.where(edge, low.astype(dt), pos)
    w_low = (high.astype(dt) - pos) * live
    w_high = (dt(1) - (high.astype(dt) - pos)) * live
    onehot = jax.nn.one_hot(low, extent, dtype=dt) * w_low[..., None] + jax.nn.one_hot(high, extent, dtype=dt) * w_high[..., None]
    return onehot.sum(axis=2)


def _roi_align(x, boxes, boxes_num, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned, grid_h,
               grid_w, backward=False):
    n, c, h, w = x.shape
    k = boxes.shape[0]
    dt = x.dtype.type
    b = boxes.astype(x.dtype)
    off = dt(0.5) if aligned else dt(0)
    x1, y1, x2, y2 = (b[:, i] * spatial_scale.astype(x.dtype) - off for i in range(4))
    rw, rh = x2 - x1, y2 - y1
    if backward or not aligned:
        # Paddle's backward kernel takes every box as at least 1 x 1, aligned or not
        rw, rh = jnp.maximum(rw, dt(1)), jnp.maximum(rh, dt(1))
    if sampling_ratio > 0:
        gh = gw = jnp.full((k,), sampling_ratio, jnp.int64)
    else:
        gh = jnp.ceil(rh / pooled_height).astype(jnp.int64)
        gw = jnp.ceil(rw / pooled_width).astype(jnp.int64)
    ay = _align_axis(y1, rh, pooled_height, gh.astype(x.dtype), grid_h, h, dt)
    ax = _align_axis(x1, rw, pooled_width, gw.astype(x.dtype), grid_w, w, dt)
    count = dt(1) / (gh * gw).astype(x.dtype)
    xb = x[_batch_of(boxes_num, k)]
    return jnp.einsum("kph,kchw,kqw->kcpq", ay, xb, ax) * count[:, None, None, None]


def _roi_align_vjp(s, ct, pooled_height=1, pooled_width=1, sampling_ratio=-1, aligned=True, grid_h=1, grid_w=1):
    """Paddle's backward: the bilinear weights of the forward, except that boxes smaller than a pixel count as
    1 x 1 (its forward keeps them smaller when ``aligned``)."""
    boxes, boxes_num, scale = s["boxes"], s["boxes_num"], s["spatial_scale"]
    _, pull = jax.vjp(lambda v: _roi_align(v, boxes, boxes_num, scale, pooled_height, pooled_width, sampling_ratio,
                                           aligned, grid_h, grid_w, backward=True), s["x"])
    return pull(ct)[0], None, None, None


_ROI_TENSORS = ("x", "boxes", "boxes_num", "spatial_scale")
_ROI_FIXED = ("boxes", "boxes_num", "spatial_scale")


@defop(_ROI_TENSORS, saves=_ROI_TENSORS, vjp=_roi_align_vjp, nondiff=_ROI_FIXED, method=False)
def roi_align(x, boxes, boxes_num, spatial_scale, pooled_height=1, pooled_width=1, sampling_ratio=-1, aligned=True,
              grid_h=1, grid_w=1):
    """RoI Align of ``boxes`` ([k, 4] x1, y1, x2, y2) over ``x`` ([n, c, h, w]): [k, c, pooled_height,
    pooled_width] means of bilinear samples; ``grid_h``/``grid_w`` bound the per-bin sample grid (the caller
    computes them from the boxes when ``sampling_ratio`` <= 0). ``spatial_scale`` is a 0-d Tensor (a runtime
    value, so that one compiled kernel serves every scale)."""
    return _roi_align(x, boxes, boxes_num, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned,
                      grid_h, grid_w)


def _bin_masks(start, pooled: int, extent: int, bin_, dt):
    """[k, pooled, extent] membership of each position in each bin [floor(p * bin), ceil((p + 1) * bin)) shifted
    by ``start`` and clipped to the extent, with whether the bin is empty ([k, pooled])."""
    p = jnp.arange(pooled, dtype=dt)[None, :]
    lo = jnp.clip(jnp.floor(p * bin_[:, None]).astype(jnp.int64) + start[:, None], 0, extent)
    hi = jnp.clip(jnp.ceil((p + 1) * bin_[:, None]).astype(jnp.int64) + start[:, None], 0, extent)
    pos = jnp.arange(extent)[None, None, :]
    return (pos >= lo[..., None]) & (pos < hi[..., None]), hi <= lo


@defop(_ROI_TENSORS, saves=_ROI_TENSORS, nondiff=_ROI_FIXED, method=False)
def roi_pool(x, boxes, boxes_num, spatial_scale, pooled_height=1, pooled_width=1):
    """RoI max pooling: [k, c, pooled_height, pooled_width] maxima of each box's bins (0 for an empty bin); the
    gradient goes to the first maximum of each bin in row-major order, as Paddle's argmax does."""
    n, c, h, w = x.shape
    k = boxes.shape[0]
    b = boxes.astype(x.dtype)
    sw, sh, ew, eh = (_round_away(b[:, i] * spatial_scale.astype(x.dtype)).astype(jnp.int64) for i in range(4))
    bh = jnp.maximum(eh - sh + 1, 1).astype(jnp.float32) / jnp.float32(pooled_height)
    bw = jnp.maximum(ew - sw + 1, 1).astype(jnp.float32) / jnp.float32(pooled_width)
    mh, eh_ = _bin_masks(sh, pooled_height, h, bh, jnp.float32)
    mw, ew_ = _bin_masks(sw, pooled_width, w, bw, jnp.float32)
    xb = x[_batch_of(boxes_num, k)]  # [k, c, h, w]
    low = jnp.finfo(x.dtype).min if jnp.issubdtype(x.dtype, jnp.floating) else jnp.iinfo(x.dtype).min
    # per row: the first maximum within each column bin; then the first row holding the bin's maximum
    rows = jnp.where(mw[:, None, None, :, :], xb[:, :, :, None, :], low)  # [k, c, h, q, w]
    col = jnp.argmax(rows, axis=-1)  # [k, c, h, q]
    row_max = jnp.take_along_axis(rows, col[..., None], axis=-1)[..., 0]  # [k, c, h, q]
    cand = jnp.where(mh[:, None, :, :, None], row_max[:, :, None, :, :], low)  # [k, c, p, h, q]
    r = jnp.argmax(cand, axis=3)  # [k, c, p, q]
    cq = jnp.take_along_axis(jnp.broadcast_to(col[:, :, None], cand.shape), r[:, :, :, None, :], axis=3)[:, :, :, 0]
    flat = xb.reshape(k, c, h * w)
    out = jnp.take_along_axis(flat, (r * w + cq).reshape(k, c, -1), axis=-1).reshape(r.shape)
    empty = eh_[:, None, :, None] | ew_[:, None, None, :]
    return jnp.where(empty, jnp.zeros((), x.dtype), out)


@defop(_ROI_TENSORS, saves=_ROI_TENSORS, nondiff=_ROI_FIXED, method=False)
def psroi_pool(x, boxes, boxes_num, spatial_scale, pooled_height=1, pooled_width=1):
    """Position-sensitive RoI average pooling: output channel ``o`` of bin (p, q) averages input channel
    ``(o * pooled_height + p) * pooled_width + q`` over the bin; [k, c / (pooled_height * pooled_width),
    pooled_height, pooled_width]."""
    n, c, h, w = x.shape
    k = boxes.shape[0]
    dt = x.dtype.type
    b = boxes.astype(x.dtype)
    ss = spatial_scale.astype(x.dtype)
    sw, sh = _round_away(b[:, 0]) * ss, _round_away(b[:, 1]) * ss
    ew, eh = (_round_away(b[:, 2]) + dt(1)) * ss, (_round_away(b[:, 3]) + dt(1)) * ss
    bh = jnp.maximum(eh - sh, dt(0.1)) / dt(pooled_height)
    bw = jnp.maximum(ew - sw, dt(0.1)) / dt(pooled_width)

    def masks(start, bin_, pooled, extent):
        p = jnp.arange(pooled, dtype=x.dtype)[None, :]
        lo = jnp.clip(jnp.floor(p * bin_[:, None] + start[:, None]).astype(jnp.int64), 0, extent)
        hi = jnp.clip(jnp.ceil((p + 1) * bin_[:, None] + start[:, None]).astype(jnp.int64), 0, extent)
        pos = jnp.arange(extent)[None, None, :]
        return ((pos >= lo[..., None]) & (pos < hi[..., None])).astype(x.dtype), hi - lo

    mh, lh = masks(sh, bh, pooled_height, h)
    mw, lw = masks(sw, bw, pooled_width, w)
    xb = x[_batch_of(boxes_num, k)].reshape(k, c // (pooled_height * pooled_width), pooled_height, pooled_width, h, w)
    total = jnp.einsum("kph,kqw,kopqhw->kopq", mh, mw, xb)
    area = (lh[:, :, None] * lw[:, None, :]).astype(x.dtype)
    empty = (lh[:, :, None] <= 0) | (lw[:, None, :] <= 0)
    return jnp.where(empty[:, None], jnp.zeros((), x.dtype), total / jnp.where(empty, dt(1), area)[:, None])


@defop(("x", "offset", "weight", "mask"), saves=("x", "offset", "weight", "mask"), method=False)
def deformable_conv(x, offset, weight, mask=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1),
                    deformable_groups=1, groups=1):
    """Deformable convolution (v1; v2 with ``mask``): each kernel tap samples ``x`` bilinearly at its place plus
    ``offset`` ([n, 2 * deformable_groups * kh * kw, ho, wo], (dy, dx) pairs), scaled by ``mask``
    ([n, deformable_groups * kh * kw, ho, wo]); [n, out_channels, ho, wo] without bias."""
    n, cin, h, w = x.shape
    cout, cin_g, kh, kw = weight.shape
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    ho = (h + 2 * ph - (dh * (kh - 1) + 1)) // sh + 1
    wo = (w + 2 * pw - (dw * (kw - 1) + 1)) // sw + 1
    kk, dg = kh * kw, deformable_groups
    dt = x.dtype
    off = offset.reshape(n, dg, kk, 2, ho, wo).astype(dt)
    ky = jnp.repeat(jnp.arange(kh), kw)
    kx = jnp.tile(jnp.arange(kw), kh)
    base_h = (jnp.arange(ho) * sh - ph)[None, :, None] + (ky * dh)[:, None, None]  # [kk, ho, 1]
    base_w = (jnp.arange(wo) * sw - pw)[None, None, :] + (kx * dw)[:, None, None]  # [kk, 1, wo]
    hi = base_h.astype(dt) + off[:, :, :, 0]
    wi = base_w.astype(dt) + off[:, :, :, 1]  # [n, dg, kk, ho, wo]
    inside = (hi > -1) & (wi > -1) & (hi < h) & (wi < w)
    h0, w0 = jnp.floor(hi), jnp.floor(wi)
    lh, lw = hi - h0, wi - w0
    h0, w0 = h0.astype(jnp.int64), w0.astype(jnp.int64)
    xg = x.reshape(n, dg, cin // dg, h * w)
    col = jnp.zeros((n, dg, cin // dg, kk, ho, wo), dt)
    for dy, dx, wt in ((0, 0, (1 - lh) * (1 - lw)), (0, 1, (1 - lh) * lw), (1, 0, lh * (1 - lw)), (1, 1, lh * lw)):
        hh, ww = h0 + dy, w0 + dx
        ok = (hh >= 0) & (hh <= h - 1) & (ww >= 0) & (ww <= w - 1)
        idx = (jnp.clip(hh, 0, h - 1) * w + jnp.clip(ww, 0, w - 1)).reshape(n, dg, 1, -1)
        v = jnp.take_along_axis(xg, jnp.broadcast_to(idx, (n, dg, cin // dg, idx.shape[-1])), axis=-1)
        col = col + v.reshape(col.shape) * jnp.where(ok & inside, wt, 0)[:, :, None]
    if mask is not None:
        col = col * mask.reshape(n, dg, 1, kk, ho, wo).astype(dt)
    col = col.reshape(n, groups, cin // groups, kk, ho * wo)
    wg = weight.reshape(groups, cout // groups, cin_g, kk)
    return jnp.einsum("ngckl,gock->ngol", col, wg).reshape(n, cout, ho, wo)


@defop(("prior_box", "prior_box_var", "target_box"), differentiable=False, method=False)
def box_coder(prior_box, prior_box_var=None, target_box=None, code_type="encode_center_size", box_normalized=True,
              axis=0, variance=()):
    """Encode ``target_box`` against ``prior_box`` (center offsets over the prior's size, log size ratios), or
    decode it back, each divided (encode) or scaled (decode) by the variances."""
    dt = target_box.dtype.type
    norm = dt(0) if box_normalized else dt(1)
    p = prior_box.astype(target_box.dtype)
    pw = p[..., 2] - p[..., 0] + norm
    ph = p[..., 3] - p[..., 1] + norm
    pcx = p[..., 0] + pw / 2
    pcy = p[..., 1] + ph / 2
    t = target_box
    if code_type == "encode_center_size":
        tcx = (t[:, 2] + t[:, 0]) / 2
        tcy = (t[:, 3] + t[:, 1]) / 2
        tw = t[:, 2] - t[:, 0] + norm
        th = t[:, 3] - t[:, 1] + norm
        out = jnp.stack([(tcx[:, None] - pcx[None]) / pw[None], (tcy[:, None] - pcy[None]) / ph[None],
                         jnp.log(jnp.abs(tw[:, None] / pw[None])), jnp.log(jnp.abs(th[:, None] / ph[None]))], -1)
        if prior_box_var is not None:
            out = out / prior_box_var.astype(t.dtype)[None]
        elif len(variance):
            out = out / jnp.asarray(variance, jnp.float32).astype(t.dtype)
        return out
    if axis == 0:
        pw, ph, pcx, pcy = (v[None, :] for v in (pw, ph, pcx, pcy))
    else:
        pw, ph, pcx, pcy = (v[:, None] for v in (pw, ph, pcx, pcy))
    if prior_box_var is not None:
        var = prior_box_var.astype(t.dtype)
        var = var[None, :, :] if axis == 0 else var[:, None, :]
    elif len(variance):
        var = jnp.asarray(variance, jnp.float32).astype(t.dtype)
    else:
        var = jnp.ones((4,), t.dtype)
    cx = var[..., 0] * t[..., 0] * pw + pcx
    cy = var[..., 1] * t[..., 1] * ph + pcy
    bw = jnp.exp(var[..., 2] * t[..., 2]) * pw
    bh = jnp.exp(var[..., 3] * t[..., 3]) * ph
    return jnp.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2 - norm, cy + bh / 2 - norm], -1)


@defop(("x", "img_size"), differentiable=False, method=False)
def yolo_box(x, img_size, anchors=(), class_num=1, conf_thresh=0.01, downsample_ratio=32, clip_bbox=True,
             scale_x_y=1.0, iou_aware=False, iou_aware_factor=0.5):
    """YOLOv3 boxes ([n, a*h*w, 4] x1, y1, x2, y2 in image pixels) and scores ([n, a*h*w, class_num]) from the
    head ``x`` ([n, a * (5 + class_num), h, w], with a IoU channels first when ``iou_aware``); predictions whose
    confidence is below ``conf_thresh`` are all zero."""
    n, _, h, w = x.shape
    an = len(anchors) // 2
    dt = x.dtype.type
    if iou_aware:
        iou = jax.nn.sigmoid(x[:, :an])
        body = x[:, an:].reshape(n, an, 5 + class_num, h, w)
    else:
        body = x.reshape(n, an, 5 + class_num, h, w)
    conf = jax.nn.sigmoid(body[:, :, 4])
    if iou_aware:
        conf = conf ** dt(1 - iou_aware_factor) * iou ** dt(iou_aware_factor)
    keep = conf >= dt(conf_thresh)
    img_h = img_size[:, 0].astype(x.dtype)[:, None, None, None]
    img_w = img_size[:, 1].astype(x.dtype)[:, None, None, None]
    scale, bias = dt(scale_x_y), dt(-0.5 * (scale_x_y - 1.0))
    gx = jnp.arange(w, dtype=x.dtype)[None, None, None, :]
    gy = jnp.arange(h, dtype=x.dtype)[None, None, :, None]
    anc = jnp.asarray(anchors, x.dtype).reshape(an, 2)
    cx = (gx + jax.nn.sigmoid(body[:, :, 0]) * scale + bias) * img_w / dt(w)
    cy = (gy + jax.nn.sigmoid(body[:, :, 1]) * scale + bias) * img_h / dt(h)
    bw = jnp.exp(body[:, :, 2]) * anc[None, :, 0, None, None] * img_w / dt(downsample_ratio * w)
    bh = jnp.exp(body[:, :, 3]) * anc[None, :, 1, None, None] * img_h / dt(downsample_ratio * h)
    x1, y1, x2, y2 = cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
    if clip_bbox:
        x1 = jnp.where(x1 > 0, x1, dt(0))
        y1 = jnp.where(y1 > 0, y1, dt(0))
        x2 = jnp.where(x2 < img_w - 1, x2, img_w - 1)
        y2 = jnp.where(y2 < img_h - 1, y2, img_h - 1)
    boxes = jnp.where(keep[..., None], jnp.stack([x1, y1, x2, y2], -1), dt(0)).reshape(n, an * h * w, 4)
    scores = conf[:, :, None] * jax.nn.sigmoid(body[:, :, 5:])  # [n, an, cls, h, w]
    scores = jnp.where(keep[:, :, None], scores, dt(0)).transpose(0, 1, 3, 4, 2).reshape(n, an * h * w, class_num)
    return boxes, scores


# ---- YOLOv3 loss ----------------------------------------------------------------------------------------------
def _sce(x, label):
    """Sigmoid cross entropy with logits, written as Paddle's kernel writes it."""
    return jnp.maximum(x, 0) - x * label + jnp.log1p(jnp.exp(-jnp.abs(x)))


def _sce_backward(x, label):
    """The same loss in a form whose derivative is exactly Paddle's ``sigmoid(x) - label`` (also at x = 0)."""
    return jax.nn.softplus(x) - x * label


def _l1_backward(x, y):
    """|x - y| with Paddle's derivative: 1 where x > y, else -1 (also at x = y)."""
    return jnp.where(x > y, x - y, y - x)


def _overlap(c1, w1, c2, w2):
    return jnp.minimum(c1 + w1 / 2, c2 + w2 / 2) - jnp.maximum(c1 - w1 / 2, c2 - w2 / 2)


def _center_iou(x1, y1, w1, h1, x2, y2, w2, h2):
    """IoU of boxes given by centre and size (0 when they do not overlap)."""
    ow, oh = _overlap(x1, w1, x2, w2), _overlap(y1, h1, y2, h2)
    inter = jnp.where((ow < 0) | (oh < 0), jnp.zeros((), ow.dtype), ow * oh)
    return inter / (w1 * h1 + w2 * h2 - inter)


def _yolo_loss(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio,
               use_label_smooth, scale_x_y, backward=False):
    n, _, h, w = x.shape
    m, b = len(anchor_mask), gt_box.shape[1]
    dt = x.dtype.type
    xr = x.reshape(n, m, 5 + class_num, h, w)
    input_size = downsample_ratio * h
    anc = jnp.asarray(anchors, x.dtype).reshape(-1, 2)
    used = anc[jnp.asarray(anchor_mask)]  # [m, 2]
    sce, l1 = (_sce_backward, _l1_backward) if backward else (_sce, lambda a, c: jnp.abs(a - c))
    if use_label_smooth:
        smooth = dt(min(1.0 / class_num, 1.0 / 40))
        pos, neg = dt(1) - smooth, smooth
    else:
        pos, neg = dt(1), dt(0)
    gt = gt_box.astype(x.dtype)
    gx, gy, gw, gh = (gt[..., k] for k in range(4))  # [n, b]
    score = jnp.ones((n, b), x.dtype) if gt_score is None else gt_score.astype(x.dtype)
    valid = ~((gw < 1e-6) | (gh < 1e-6))

    # predicted boxes (no gradient: they only decide which objectness losses are ignored)
    xs = jax.lax.stop_gradient(xr)
    bias = dt(-0.5 * (scale_x_y - 1.0))
    px = (jnp.arange(w, dtype=x.dtype)[None, None, None, :] + jax.nn.sigmoid(xs[:, :, 0]) * dt(scale_x_y) + bias) / h
    py = (jnp.arange(h, dtype=x.dtype)[None, None, :, None] + jax.nn.sigmoid(xs[:, :, 1]) * dt(scale_x_y) + bias) / h
    pw = jnp.exp(xs[:, :, 2]) * used[None, :, 0, None, None] / input_size
    ph = jnp.exp(xs[:, :, 3]) * used[None, :, 1, None, None] / input_size
    e = (slice(None), None, None, None, slice(None))  # gt [n, b] -> [n, 1, 1, 1, b]
    iou = _center_iou(px[..., None], py[..., None], pw[..., None], ph[..., None], gx[e], gy[e], gw[e], gh[e])
    best = jnp.max(jnp.where(valid[e], iou, dt(0)), axis=-1, initial=dt(0))
    obj = jnp.where(best > dt(ignore_thresh), dt(-1), dt(0))  # [n, m, h, w]

    # each ground-truth box: its cell and its best anchor (by shape), if that anchor is one of anchor_mask's
    gi = jnp.clip(jnp.trunc(gx * w).astype(jnp.int32), 0, w - 1)
    gj = jnp.clip(jnp.trunc(gy * h).astype(jnp.int32), 0, h - 1)
    aw, ah = anc[:, 0] / dt(input_size), anc[:, 1] / dt(input_size)
    zero = jnp.zeros((), x.dtype)
    a_iou = _center_iou(zero, zero, aw[None, None, :], ah[None, None, :], zero, zero, gw[..., None], gh[..., None])
    best_n = jnp.argmax(a_iou, axis=-1)  # [n, b]
    slot = [-1] * anc.shape[0]
    for k, a in reversed(list(enumerate(anchor_mask))):
        slot[a] = k
    midx = jnp.asarray(slot, jnp.int32)[best_n]
    matched = valid & (midx >= 0)
    mc = jnp.maximum(midx, 0)
    cell = (mc * h + gj) * w + gi
    # a later box on the same cell and anchor replaces the objectness target (and, in Paddle's backward, the
    # gradient) of an earlier one
    later = jnp.triu(jnp.ones((b, b), bool), 1)[None] & matched[:, None, :] & (cell[:, :, None] == cell[:, None, :])
    last = matched & ~jnp.any(later, axis=-1)
    rows = jnp.arange(n)[:, None]
    obj = obj.at[rows, jnp.where(last, mc, m), gj, gi].set(score, mode="drop")

    pred = xr[rows, mc, :, gj, gi]  # [n, b, 5 + class_num]
    tx = gx * h - gi.astype(x.dtype)
    ty = gy * h - gj.astype(x.dtype)
    an_w, an_h = anc[best_n, 0], anc[best_n, 1]
    tw = jnp.log(jnp.where(matched, gw * input_size / an_w, dt(1)))
    th = jnp.log(jnp.where(matched, gh * input_size / an_h, dt(1)))
    box_scale = (dt(2) - gw * gh) * score
    loc = (sce(pred[..., 0], tx) + sce(pred[..., 1], ty) + l1(pred[..., 2], tw) + l1(pred[..., 3], th)) * box_scale
    target = jnp.where(jnp.arange(class_num)[None, None, :] == gt_label[..., None].astype(jnp.int32), pos, neg)
    cls = jnp.sum(sce(pred[..., 5:], target), axis=-1) * score
    counted = last if backward else matched
    per_gt = jnp.where(counted, loc + cls, dt(0))

    conf = xr[:, :, 4]
    objness = jnp.where(obj > dt(1e-5), sce(conf, dt(1)) * obj, jnp.where(obj > dt(-0.5), sce(conf, dt(0)), dt(0)))
    return jnp.sum(per_gt, axis=1) + jnp.sum(objness, axis=(1, 2, 3))


def _yolo_loss_vjp(s, ct, anchors=(), anchor_mask=(), class_num=1, ignore_thresh=0.7, downsample_ratio=32,
                   use_label_smooth=True, scale_x_y=1.0):
    """Paddle's backward: sigmoid(x) - target for the cross entropies, +-1 for the L1 terms (-1 where equal),
    and, where several boxes fall on one cell and anchor, only the last box's gradient."""
    gt_box, gt_label, gt_score = s["gt_box"], s["gt_label"], s["gt_score"]
    _, pull = jax.vjp(lambda v: _yolo_loss(v, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num,
                                           ignore_thresh, downsample_ratio, use_label_smooth, scale_x_y,
                                           backward=True), s["x"])
    return pull(ct)[0], None, None, None


_YOLO_TENSORS = ("x", "gt_box", "gt_label", "gt_score")


@defop(_YOLO_TENSORS, saves=_YOLO_TENSORS, vjp=_yolo_loss_vjp, nondiff=_YOLO_TENSORS[1:], method=False)
def yolo_loss(x, gt_box, gt_label, gt_score=None, anchors=(), anchor_mask=(), class_num=1, ignore_thresh=0.7,
              downsample_ratio=32, use_label_smooth=True, scale_x_y=1.0):
    """YOLOv3 loss per image ([n]) of the head ``x`` ([n, len(anchor_mask) * (5 + class_num), h, h]) against
    ``gt_box`` ([n, b, 4] centre x, y, width, height over the input size), ``gt_label`` ([n, b]) and the optional
    mixup ``gt_score`` ([n, b]): sigmoid cross entropy on x, y, objectness and classes, L1 on log width/height,
    box terms weighted by 2 - w * h; objectness of predictions overlapping a box by more than ``ignore_thresh``
    is ignored. Gradients reach ``x`` only."""
    return _yolo_loss(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, ignore_thresh,
                      downsample_ratio, use_label_smooth, scale_x_y)
