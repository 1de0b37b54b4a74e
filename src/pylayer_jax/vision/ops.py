"""``paddle.vision.ops``: detection operators. RoI Align / RoI pooling / position-sensitive RoI pooling,
deformable convolution (with their Layers) and ``yolo_loss`` are differentiable table ops; ``box_coder``,
``yolo_box`` and ``prior_box`` compute Paddle's values without gradients (as in Paddle); ``nms``,
``matrix_nms``, ``generate_proposals`` and ``distribute_fpn_proposals`` run on the host; ``read_file`` reads a
file's bytes and ``decode_jpeg`` decodes them (with Pillow, on any device: Paddle 3.3.1 decodes on GPUs only)."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence

import jax
import numpy as np

from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from .._tensor.facade import to_tensor as _to_tensor
from ..nn.initializer import Normal
from ..nn.layer._activation import ReLU
from ..nn.layer._container import Sequential
from ..nn.layer._conv import Conv2D
from ..nn.layer._layers import Layer
from ..nn.layer._norm import BatchNorm2D
from ._image_io import decode_jpeg as decode_jpeg
from ._image_io import read_file as read_file
from ._proposals import distribute_fpn_proposals as distribute_fpn_proposals
from ._proposals import generate_proposals as generate_proposals
from ._proposals import matrix_nms as matrix_nms

__all__ = [
    "ConvNormActivation", "nms", "roi_align", "RoIAlign", "roi_pool", "RoIPool", "psroi_pool", "PSRoIPool",
    "deform_conv2d", "DeformConv2D", "box_coder", "yolo_box", "yolo_loss", "prior_box", "generate_proposals",
    "distribute_fpn_proposals", "matrix_nms", "read_file", "decode_jpeg",
]


class ConvNormActivation(Sequential):
    """Conv2D, then a normalisation layer (default BatchNorm2D), then an activation (default ReLU), as one
    Sequential whose sublayers are named 0, 1, 2. ``padding`` defaults to keeping the size at stride 1; the
    convolution has a bias only when there is no normalisation layer (unless ``bias`` says otherwise)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size=3, stride=1, padding=None, groups: int = 1,
                 norm_layer: Callable | None = BatchNorm2D, activation_layer: Callable | None = ReLU,
                 dilation: int = 1, bias: bool | None = None) -> None:
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [Conv2D(in_channels, out_channels, kernel_size, stride, padding, dilation=dilation, groups=groups,
                         bias_attr=bias)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)


def _host(x, name: str, api: str) -> np.ndarray:
    if isinstance(x, Tensor):
        return x.numpy()
    raise TypeError(f"{api}: {name} must be a Tensor; got {type(x).__name__}.")


def _greedy_nms(boxes: np.ndarray, iou_threshold: float) -> np.ndarray:
    """Indices of the boxes kept, in the given order: each box is dropped when its IoU with an earlier kept box
    is above ``iou_threshold`` (areas without the +1 pixel convention)."""
    x1, y1, x2, y2 = (boxes[:, k] for k in range(4))
    areas = (x2 - x1) * (y2 - y1)
    dropped = np.zeros(len(boxes), bool)
    keep = []
    for i in range(len(boxes)):
        if dropped[i]:
            continue
        keep.append(i)
        rest = np.arange(i + 1, len(boxes))
        rest = rest[~dropped[rest]]
        if rest.size == 0:
            continue
        w = np.maximum(np.minimum(x2[i], x2[rest]) - np.maximum(x1[i], x1[rest]), 0)
        h = np.maximum(np.minimum(y2[i], y2[rest]) - np.maximum(y1[i], y1[rest]), 0)
        inter = w * h
        iou = inter / (areas[i] + areas[rest] - inter)
        dropped[rest[iou > iou_threshold]] = True
    return np.asarray(keep, np.int64)


def _by_score(idx: np.ndarray, scores: np.ndarray) -> np.ndarray:
    return idx[np.argsort(-scores[idx], kind="stable")]


def nms(boxes, iou_threshold: float = 0.3, scores=None, category_idxs=None, categories: Sequence[int] | None = None,
        top_k: int | None = None):
    """Non-maximum suppression of ``boxes`` ([N, 4] as x1, y1, x2, y2): the int64 indices of the boxes kept.

    Without ``scores`` the boxes are taken in their order; with ``scores``, from the highest score down; with
    ``category_idxs`` and ``categories``, within each category separately, the result sorted by score and cut to
    ``top_k``. Runs on the host (its result is a set of indices, with no gradient)."""
    api = "paddle.vision.ops.nms"
    b = _host(boxes, "boxes", api)
    if b.ndim != 2 or b.shape[1] != 4:
        raise ValueError(f"{api}: boxes must have shape [N, 4]; got {list(b.shape)}.")
    if scores is None:
        return _to_tensor(_greedy_nms(b, iou_threshold))
    s = _host(scores, "scores", api).reshape(-1)
    if s.shape[0] != b.shape[0]:
        raise ValueError(f"{api}: scores must hold one score per box ({b.shape[0]}); got {s.shape[0]}.")
    if category_idxs is None:
        order = np.argsort(-s, kind="stable")
        return _to_tensor(order[_greedy_nms(b[order], iou_threshold)])
    if top_k is not None and top_k > s.shape[0]:
        raise ValueError(f"{api}: top_k ({top_k}) must not exceed the number of boxes ({s.shape[0]}).")
    if categories is None:
        raise ValueError(f"{api}: categories (the list of category ids) is needed when category_idxs is given.")
    cats = _host(category_idxs, "category_idxs", api).reshape(-1)
    keep_mask = np.zeros(s.shape[0], bool)
    for c in categories:
        members = np.nonzero(cats == c)[0]
        if members.size == 0:
            continue
        order = _by_score(members, s)
        keep_mask[order[_greedy_nms(b[order], iou_threshold)]] = True
    kept = _by_score(np.nonzero(keep_mask)[0], s)
    if top_k is not None:
        kept = kept[:top_k]
    return _to_tensor(kept.astype(np.int64))


# ---- RoI operators ------------------------------------------------------------------------------------------
def _pair(output_size, api: str) -> tuple[int, int]:
    if isinstance(output_size, bool) or not isinstance(output_size, (int, tuple, list)):
        raise TypeError(f"{api}: output_size must be an int or 2 ints (height, width); got "
                        f"{type(output_size).__name__}.")
    if isinstance(output_size, int):
        return output_size, output_size
    if len(output_size) != 2:
        raise ValueError(f"{api}: output_size must hold 2 values (height, width); got {len(output_size)}.")
    return int(output_size[0]), int(output_size[1])


def _check_rois(x, boxes, boxes_num, api: str) -> None:
    for name, t in (("x", x), ("boxes", boxes), ("boxes_num", boxes_num)):
        if not isinstance(t, Tensor):
            raise TypeError(f"{api}: {name} must be a Tensor; got {type(t).__name__}.")
    if x.ndim != 4:
        raise ValueError(f"{api}: x must be 4-D [N, C, H, W]; got shape {list(x.shape)}.")
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"{api}: boxes must have shape [num_boxes, 4] (x1, y1, x2, y2); got {list(boxes.shape)}.")
    if boxes_num.ndim != 1 or boxes_num.shape[0] != x.shape[0]:
        raise ValueError(f"{api}: boxes_num must hold one count per image ({x.shape[0]}); got shape "
                         f"{list(boxes_num.shape)}.")
    if not isinstance(boxes_num._value, jax.core.Tracer) and int(np.asarray(boxes_num._value).sum()) != boxes.shape[0]:
        raise ValueError(f"{api}: boxes_num must add up to the number of boxes ({boxes.shape[0]}); got "
                         f"{np.asarray(boxes_num._value).tolist()}.")


def _scale(spatial_scale) -> Tensor:
    """The spatial scale as a float32 0-d Tensor (Paddle's float attribute), passed to the kernel at run time."""
    return _to_tensor(np.float32(spatial_scale))


def _grid_bound(boxes, size: int, spatial_scale: float, lo: int, hi: int, api: str) -> int:
    """The largest adaptive sample grid (ceil(roi side / bins), sides of at least 1 as the backward takes them)
    over the boxes along one axis."""
    if isinstance(boxes._value, jax.core.Tracer):
        raise ValueError(f"{api}: with sampling_ratio <= 0 the sample grid depends on the box values, which are "
                         "not known while tracing; pass sampling_ratio > 0 there.")
    b = np.asarray(boxes._value)
    side = np.maximum((b[:, hi] - b[:, lo]).astype(np.float64) * spatial_scale, 1)
    return max(1, int(np.ceil(side / size).max(initial=1)))


def roi_align(x, boxes, boxes_num, output_size, spatial_scale: float = 1.0, sampling_ratio: int = -1,
              aligned: bool = True, name=None):
    """RoI Align (Mask R-CNN): each box ([x1, y1, x2, y2], ``boxes_num`` of them per image) is split into
    ``output_size`` bins and each bin is the mean of bilinear samples of ``x`` ([N, C, H, W]) on a regular grid
    (``sampling_ratio`` per side, or ceil(bin size) when <= 0); ``aligned`` shifts the box by half a pixel.
    Returns [num_boxes, C, out_h, out_w]; gradients reach ``x`` (with Paddle's backward, which takes boxes smaller
    than a pixel as 1 x 1)."""
    api = "paddle.vision.ops.roi_align"
    ph, pw = _pair(output_size, api)
    if boxes_num is None:
        raise ValueError(f"{api}: boxes_num (the number of boxes of each image) is required.")
    _check_rois(x, boxes, boxes_num, api)
    if sampling_ratio > 0:
        gh = gw = int(sampling_ratio)
    else:
        gh = _grid_bound(boxes, ph, spatial_scale, 1, 3, api) + 1
        gw = _grid_bound(boxes, pw, spatial_scale, 0, 2, api) + 1
    return apply_op(TABLE["roi_align"], (x, boxes, boxes_num, _scale(spatial_scale)), {
        "pooled_height": ph, "pooled_width": pw, "sampling_ratio": int(sampling_ratio), "aligned": bool(aligned),
        "grid_h": gh, "grid_w": gw})


class RoIAlign(Layer):
    """Layer form of ``roi_align`` with a fixed ``output_size`` and ``spatial_scale``."""

    def __init__(self, output_size, spatial_scale: float = 1.0) -> None:
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num, aligned: bool = True):
        return roi_align(x, boxes, boxes_num, self._output_size, self._spatial_scale, aligned=aligned)


def roi_pool(x, boxes, boxes_num, output_size, spatial_scale: float = 1.0, name=None):
    """RoI max pooling (Fast R-CNN): each box, rounded to whole pixels of the scaled map, is split into
    ``output_size`` bins, each the maximum of ``x`` over its pixels (0 when empty). [num_boxes, C, out_h,
    out_w]; the gradient goes to each bin's maximum."""
    api = "paddle.vision.ops.roi_pool"
    ph, pw = _pair(output_size, api)
    if boxes_num is None:
        raise ValueError(f"{api}: boxes_num (the number of boxes of each image) is required.")
    _check_rois(x, boxes, boxes_num, api)
    return apply_op(TABLE["roi_pool"], (x, boxes, boxes_num, _scale(spatial_scale)),
                    {"pooled_height": ph, "pooled_width": pw})


class RoIPool(Layer):
    """Layer form of ``roi_pool`` with a fixed ``output_size`` and ``spatial_scale``."""

    def __init__(self, output_size, spatial_scale: float = 1.0) -> None:
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return roi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


def psroi_pool(x, boxes, boxes_num, output_size, spatial_scale: float = 1.0, name=None):
    """Position-sensitive RoI average pooling (R-FCN): bin (i, j) of output channel c averages input channel
    (c * out_h + i) * out_w + j over the bin, so ``x`` has C = channels * out_h * out_w channels.
    [num_boxes, channels, out_h, out_w]; gradients reach ``x``."""
    api = "paddle.vision.ops.psroi_pool"
    ph, pw = _pair(output_size, api)
    if ph * pw == 0:
        raise ValueError(f"{api}: output_size must not contain 0; got {output_size}.")
    _check_rois(x, boxes, boxes_num, api)
    if x.shape[1] % (ph * pw):
        raise ValueError(f"{api}: the channels of x ({x.shape[1]}) must be a multiple of out_h * out_w "
                         f"({ph * pw}).")
    return apply_op(TABLE["psroi_pool"], (x, boxes, boxes_num, _scale(spatial_scale)),
                    {"pooled_height": ph, "pooled_width": pw})


class PSRoIPool(Layer):
    """Layer form of ``psroi_pool`` with a fixed ``output_size`` and ``spatial_scale``."""

    def __init__(self, output_size, spatial_scale: float = 1.0) -> None:
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return psroi_pool(x, boxes, boxes_num, self.output_size, self.spatial_scale)


# ---- deformable convolution ---------------------------------------------------------------------------------
def _two(v, name: str, api: str) -> tuple[int, int]:
    if isinstance(v, numbers.Integral):
        return int(v), int(v)
    if isinstance(v, (list, tuple)) and len(v) == 2 and all(isinstance(e, numbers.Integral) for e in v):
        return int(v[0]), int(v[1])
    raise ValueError(f"{api}: {name} must be an int or 2 ints; got {v!r}.")


def deform_conv2d(x, offset, weight, bias=None, stride=1, padding=0, dilation=1, deformable_groups: int = 1,
                  groups: int = 1, mask=None, name=None):
    """Deformable convolution: v1 (``mask`` None) or v2 (modulated by ``mask``). Each kernel tap samples ``x``
    ([N, C, H, W]) bilinearly at its regular place moved by ``offset`` ([N, 2 * deformable_groups * kh * kw,
    H_out, W_out], (dy, dx) pairs); ``mask`` ([N, deformable_groups * kh * kw, H_out, W_out]) scales the samples.
    Gradients reach ``x``, ``offset``, ``weight``, ``mask`` and ``bias``."""
    api = "paddle.vision.ops.deform_conv2d"
    st, pad, dil = _two(stride, "stride", api), _two(padding, "padding", api), _two(dilation, "dilation", api)
    if x.ndim != 4 or weight.ndim != 4:
        raise ValueError(f"{api}: x must be [N, C, H, W] and weight [out_channels, C / groups, kh, kw]; got "
                         f"{list(x.shape)} and {list(weight.shape)}.")
    n, c, h, w = x.shape
    cout, cin_g, kh, kw = weight.shape
    if c % groups or cout % groups or cin_g * groups != c:
        raise ValueError(f"{api}: weight's second dim ({cin_g}) times groups ({groups}) must equal the input "
                         f"channels ({c}), and out_channels ({cout}) must divide by groups.")
    if c % deformable_groups:
        raise ValueError(f"{api}: the input channels ({c}) must divide by deformable_groups ({deformable_groups}).")
    ho = (h + 2 * pad[0] - (dil[0] * (kh - 1) + 1)) // st[0] + 1
    wo = (w + 2 * pad[1] - (dil[1] * (kw - 1) + 1)) // st[1] + 1
    want = [n, 2 * deformable_groups * kh * kw, ho, wo]
    if list(offset.shape) != want:
        raise ValueError(f"{api}: offset must have shape {want} (2 * deformable_groups * kh * kw channels at the "
                         f"output size); got {list(offset.shape)}.")
    if mask is not None and list(mask.shape) != [n, deformable_groups * kh * kw, ho, wo]:
        raise ValueError(f"{api}: mask must have shape {[n, deformable_groups * kh * kw, ho, wo]}; got "
                         f"{list(mask.shape)}.")
    out = apply_op(TABLE["deformable_conv"], (x, offset, weight, mask), {
        "stride": st, "padding": pad, "dilation": dil, "deformable_groups": int(deformable_groups),
        "groups": int(groups)})
    if bias is not None:
        out = out + bias.reshape([1, -1, 1, 1])
    return out


class DeformConv2D(Layer):
    """Deformable convolution layer: ``weight`` [out_channels, in_channels / groups, kh, kw] (normal with std
    sqrt(2 / (kh * kw * in_channels))) and ``bias`` [out_channels]; ``forward(x, offset, mask=None)``."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 deformable_groups: int = 1, groups: int = 1, weight_attr=None, bias_attr=None) -> None:
        super().__init__()
        api = "paddle.vision.ops.DeformConv2D"
        if weight_attr is False:
            raise ValueError(f"{api}: weight_attr must not be False (the layer needs its weight).")
        if in_channels % groups != 0:
            raise ValueError(f"{api}: in_channels ({in_channels}) must be divisible by groups ({groups}).")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._deformable_groups, self._groups = deformable_groups, groups
        self._stride = _two(stride, "stride", api)
        self._padding = _two(padding, "padding", api)
        self._dilation = _two(dilation, "dilation", api)
        self._kernel_size = _two(kernel_size, "kernel_size", api)
        std = (2.0 / (self._kernel_size[0] * self._kernel_size[1] * in_channels)) ** 0.5
        self.weight = self.create_parameter([out_channels, in_channels // groups, *self._kernel_size], weight_attr,
                                            default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter([out_channels], bias_attr, is_bias=True)

    def forward(self, x, offset, mask=None):
        return deform_conv2d(x, offset, self.weight, self.bias, self._stride, self._padding, self._dilation,
                             self._deformable_groups, self._groups, mask)


# ---- box coding, YOLO decoding, prior boxes (no gradients, as in Paddle) -----------------------------------
def box_coder(prior_box, prior_box_var, target_box, code_type: str = "encode_center_size",
              box_normalized: bool = True, axis: int = 0, name=None):
    """Encode ``target_box`` ([N, 4]) against ``prior_box`` ([M, 4]) into [N, M, 4] offsets, or decode
    ``target_box`` ([N, M, 4]) back into boxes ('decode_center_size'; ``axis`` 0 pairs prior j with column j,
    1 prior i with row i). ``prior_box_var`` is a [M, 4] Tensor or 4 numbers; ``box_normalized`` False adds a
    pixel to widths and heights."""
    api = "paddle.vision.ops.box_coder"
    if code_type not in ("encode_center_size", "decode_center_size"):
        raise ValueError(f"{api}: code_type must be 'encode_center_size' or 'decode_center_size'; got {code_type!r}.")
    if isinstance(prior_box_var, Tensor):
        var, variance = prior_box_var, ()
    elif isinstance(prior_box_var, (list, tuple)):
        if len(prior_box_var) != 4:
            raise ValueError(f"{api}: prior_box_var as a list must hold 4 numbers; got {len(prior_box_var)}.")
        var, variance = None, tuple(float(v) for v in prior_box_var)
    else:
        raise TypeError(f"{api}: prior_box_var must be a Tensor or a list/tuple of 4 numbers; got "
                        f"{type(prior_box_var).__name__}.")
    if prior_box.ndim != 2 or prior_box.shape[1] != 4:
        raise ValueError(f"{api}: prior_box must have shape [M, 4]; got {list(prior_box.shape)}.")
    if code_type == "encode_center_size":
        if target_box.ndim != 2 or target_box.shape[1] != 4:
            raise ValueError(f"{api}: to encode, target_box must have shape [N, 4]; got {list(target_box.shape)}.")
    else:
        if target_box.ndim != 3 or target_box.shape[2] != 4:
            raise ValueError(f"{api}: to decode, target_box must have shape [N, M, 4]; got "
                             f"{list(target_box.shape)}.")
        if axis not in (0, 1):
            raise ValueError(f"{api}: axis must be 0 or 1; got {axis}.")
        if prior_box.shape[0] != target_box.shape[1 - axis]:
            raise ValueError(f"{api}: prior_box has {prior_box.shape[0]} boxes but target_box's dim {1 - axis} "
                             f"has {target_box.shape[1 - axis]} (axis={axis}).")
    return apply_op(TABLE["box_coder"], (prior_box, var, target_box), {
        "code_type": code_type, "box_normalized": bool(box_normalized), "axis": int(axis), "variance": variance})


def yolo_box(x, img_size, anchors, class_num: int, conf_thresh: float, downsample_ratio: int, clip_bbox: bool = True,
             name=None, scale_x_y: float = 1.0, iou_aware: bool = False, iou_aware_factor: float = 0.5):
    """Decode a YOLOv3 head ``x`` ([N, A * (5 + class_num), H, W]; A more IoU channels first with ``iou_aware``)
    for images of ``img_size`` ([N, 2] int32 height, width): (boxes [N, A*H*W, 4], scores [N, A*H*W,
    class_num]), zero where the confidence is below ``conf_thresh``."""
    api = "paddle.vision.ops.yolo_box"
    if not isinstance(anchors, (list, tuple)) or len(anchors) % 2:
        raise ValueError(f"{api}: anchors must be a list of (width, height) pairs, flattened; got {anchors!r}.")
    an = len(anchors) // 2
    want = an * (6 + class_num) if iou_aware else an * (5 + class_num)
    if x.ndim != 4 or x.shape[1] != want:
        raise ValueError(f"{api}: x must be [N, {want}, H, W] for {an} anchors and {class_num} classes"
                         f"{' (iou_aware)' if iou_aware else ''}; got {list(x.shape)}.")
    if img_size.ndim != 2 or list(img_size.shape) != [x.shape[0], 2]:
        raise ValueError(f"{api}: img_size must be [N, 2] (height, width); got {list(img_size.shape)}.")
    return apply_op(TABLE["yolo_box"], (x, img_size), {
        "anchors": tuple(int(a) for a in anchors), "class_num": int(class_num), "conf_thresh": float(conf_thresh),
        "downsample_ratio": int(downsample_ratio), "clip_bbox": bool(clip_bbox), "scale_x_y": float(scale_x_y),
        "iou_aware": bool(iou_aware), "iou_aware_factor": float(iou_aware_factor)})


def yolo_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num: int, ignore_thresh: float, downsample_ratio: int,
              gt_score=None, use_label_smooth: bool = True, name=None, scale_x_y: float = 1.0):
    """YOLOv3 loss of the head ``x`` ([N, len(anchor_mask) * (5 + class_num), H, H]) against ``gt_box`` ([N, B,
    4] centre x, y, width, height as fractions of the input size; boxes of zero width or height are padding),
    ``gt_label`` ([N, B] int32) and the optional mixup ``gt_score`` ([N, B]): [N] losses. Each box is matched
    to the anchor (of all ``anchors``) closest in shape; when that anchor is in ``anchor_mask`` its cell pays
    sigmoid cross entropy on x, y, L1 on log w, h (weighted by 2 - w * h), and the class terms (targets smoothed
    to 1 - 1/class_num (at most 1/40 off) with ``use_label_smooth``); every prediction pays objectness loss,
    except those overlapping a box by more than ``ignore_thresh``. Gradients reach ``x`` (Paddle's: where two
    boxes share a cell and anchor, the later box's)."""
    api = "paddle.vision.ops.yolo_loss"
    for nm, t in (("x", x), ("gt_box", gt_box), ("gt_label", gt_label)):
        if not isinstance(t, Tensor):
            raise TypeError(f"{api}: {nm} must be a Tensor; got {type(t).__name__}.")
    if not isinstance(anchors, (list, tuple)) or len(anchors) % 2 or not anchors:
        raise ValueError(f"{api}: anchors must be a list of (width, height) pairs, flattened; got {anchors!r}.")
    an = len(anchors) // 2
    if not isinstance(anchor_mask, (list, tuple)) or not anchor_mask:
        raise ValueError(f"{api}: anchor_mask must be a non-empty list of anchor indices; got {anchor_mask!r}.")
    bad = [int(a) for a in anchor_mask if not 0 <= int(a) < an]
    if bad:
        raise ValueError(f"{api}: anchor_mask must index the {an} anchors (0..{an - 1}); got {list(anchor_mask)}.")
    if isinstance(class_num, bool) or not isinstance(class_num, numbers.Integral) or class_num <= 0:
        raise ValueError(f"{api}: class_num must be an integer greater than 0; got {class_num!r}.")
    m = len(anchor_mask)
    if x.ndim != 4 or x.shape[1] != m * (5 + class_num) or x.shape[2] != x.shape[3]:
        raise ValueError(f"{api}: x must be [N, {m * (5 + class_num)}, H, H] (len(anchor_mask) * (5 + class_num) "
                         f"channels, a square grid); got {list(x.shape)}.")
    n = x.shape[0]
    if gt_box.ndim != 3 or gt_box.shape[0] != n or gt_box.shape[2] != 4:
        raise ValueError(f"{api}: gt_box must be [N, B, 4] with N = {n}; got {list(gt_box.shape)}.")
    b = gt_box.shape[1]
    if list(gt_label.shape) != [n, b]:
        raise ValueError(f"{api}: gt_label must be [N, B] = {[n, b]} (one class per box); got "
                         f"{list(gt_label.shape)}.")
    if str(gt_label.dtype) != "paddle.int32":
        raise TypeError(f"{api}: gt_label must be int32 (as Paddle's kernel reads it); got {gt_label.dtype}; "
                        "cast it with gt_label.astype('int32').")
    if str(x.dtype) not in ("paddle.float32", "paddle.float64") or gt_box.dtype != x.dtype:
        raise TypeError(f"{api}: x and gt_box must both be float32 or both float64; got {x.dtype} and "
                        f"{gt_box.dtype}.")
    if gt_score is not None:
        if not isinstance(gt_score, Tensor):
            raise TypeError(f"{api}: gt_score must be a Tensor or None; got {type(gt_score).__name__}.")
        if list(gt_score.shape) != [n, b]:
            raise ValueError(f"{api}: gt_score must be [N, B] = {[n, b]} (one mixup score per box); got "
                             f"{list(gt_score.shape)}.")
        if gt_score.dtype != x.dtype:
            raise TypeError(f"{api}: gt_score must have x's dtype ({x.dtype}); got {gt_score.dtype}.")
    return apply_op(TABLE["yolo_loss"], (x, gt_box, gt_label, gt_score), {
        "anchors": tuple(int(a) for a in anchors), "anchor_mask": tuple(int(a) for a in anchor_mask),
        "class_num": int(class_num), "ignore_thresh": float(ignore_thresh),
        "downsample_ratio": int(downsample_ratio), "use_label_smooth": bool(use_label_smooth),
        "scale_x_y": float(scale_x_y)})


def _expand_ratios(ratios, flip: bool) -> list[float]:
    out = [1.0]
    for ar in ratios:
        if not any(abs(ar - r) < 1e-6 for r in out):
            out.append(ar)
            if flip:
                out.append(float(np.float32(1.0) / np.float32(ar)))
    return out


def prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=(1.0,), variance=(0.1, 0.1, 0.2, 0.2),
              flip: bool = False, clip: bool = False, steps=(0.0, 0.0), offset: float = 0.5,
              min_max_aspect_ratios_order: bool = False, name=None):
    """SSD prior boxes for each cell of ``input``'s feature map ([N, C, H, W]) over ``image`` ([N, C, Hi, Wi]):
    (boxes [H, W, num_priors, 4] normalised x1, y1, x2, y2; variances of the same shape)."""
    api = "paddle.vision.ops.prior_box"
    seq = (list, tuple)
    min_sizes = [float(v) for v in (min_sizes if isinstance(min_sizes, seq) else [min_sizes])]
    ratios = [float(v) for v in (aspect_ratios if isinstance(aspect_ratios, seq) else [aspect_ratios])]
    steps = [float(v) for v in (steps if isinstance(steps, seq) else [steps])]
    if len(steps) != 2:
        raise ValueError(f"{api}: steps must be (step_w, step_h); got {steps}.")
    if max_sizes is not None and not isinstance(max_sizes, seq):
        raise TypeError(f"{api}: max_sizes must be a list of sizes (one per min size) or None; got "
                        f"{type(max_sizes).__name__} (Paddle 3.3.1 takes no single number here either).")
    max_sizes = [float(v) for v in (max_sizes or [])]
    if max_sizes and len(max_sizes) != len(min_sizes):
        raise ValueError(f"{api}: max_sizes must hold one size per min size ({len(min_sizes)}); got {len(max_sizes)}.")
    if input.ndim != 4 or image.ndim != 4:
        raise ValueError(f"{api}: input and image must be 4-D [N, C, H, W]; got {list(input.shape)} and "
                         f"{list(image.shape)}.")
    t = np.float64 if str(input.dtype) == "paddle.float64" else np.float32
    fh, fw = input.shape[2], input.shape[3]
    ih, iw = image.shape[2], image.shape[3]
    if steps[0] == 0 or steps[1] == 0:
        step_w, step_h = t(iw) / t(fw), t(ih) / t(fh)
    else:
        step_w, step_h = t(steps[0]), t(steps[1])
    f32 = np.float32
    sizes: list[tuple] = []  # (half width, half height) of each prior, as the kernel rounds them
    for s, mn in enumerate(min_sizes):
        square = [] if not max_sizes else [t(np.sqrt(f32(mn) * f32(max_sizes[s])) / 2.0)] * 2
        rs = [(t(f32(mn) * np.sqrt(f32(ar)) / 2.0), t(f32(mn) / np.sqrt(f32(ar)) / 2.0))
              for ar in _expand_ratios(ratios, flip)]
        if min_max_aspect_ratios_order:
            sizes.append((t(mn / 2.0), t(mn / 2.0)))
            if square:
                sizes.append(tuple(square))
            sizes.extend(r for ar, r in zip(_expand_ratios(ratios, flip), rs) if abs(ar - 1.0) >= 1e-6)
        else:
            sizes.extend(rs)
            if square:
                sizes.append(tuple(square))
    half = np.array(sizes, t)  # [P, 2]
    cx = (np.arange(fw, dtype=t) + t(offset)) * step_w
    cy = (np.arange(fh, dtype=t) + t(offset)) * step_h
    cxg = np.broadcast_to(cx[None, :, None], (fh, fw, len(sizes)))
    cyg = np.broadcast_to(cy[:, None, None], (fh, fw, len(sizes)))
    boxes = np.stack([(cxg - half[:, 0]) / t(iw), (cyg - half[:, 1]) / t(ih), (cxg + half[:, 0]) / t(iw),
                      (cyg + half[:, 1]) / t(ih)], -1).astype(t)
    if clip:
        boxes = np.clip(boxes, 0, 1).astype(t)
    var = np.broadcast_to(np.asarray(variance, np.float32).astype(t), boxes.shape[:3] + (len(variance),))
    return _to_tensor(boxes), _to_tensor(np.ascontiguousarray(var))
