"""Cases for ``paddle.vision.ops`` generate_proposals, distribute_fpn_proposals, matrix_nms, yolo_loss and
read_file, recorded from Paddle 3.3.1 by ``tests/record_paddle_vision_detect.py`` into
``tests/data/paddle_vision_detect.npz`` / ``.json`` and checked by ``tests/vision/test_vision_detect.py``.

Each case: (name, inputs, expression, grads): inputs maps a name to (kind, spec, dtype, seed) built by ``make``;
the expression is evaluated with ``V`` = paddle.vision.ops; its outputs (a Tensor, or tuples / lists of Tensors
and None) are flattened in order (``flatten``); with grads, the gradient of sum(out0 * w), w = cos(arange), with
respect to the named inputs is recorded too. ERROR_CASES: misuse, with the exception type Paddle raises (or None).
"""

from __future__ import annotations

import numpy as np


def make(kind, spec, dtype, seed):
    if kind == "value":
        return np.asarray(spec, dtype)
    rs = np.random.RandomState(seed)
    if kind == "rand":
        return rs.uniform(-1, 1, spec).astype(dtype)
    if kind == "unit":
        return rs.uniform(0, 1, spec).astype(dtype)
    if kind == "boxes":  # (*shape, 4) boxes x1, y1, x2, y2: corners in [0, size), sides in [size/20, size/2)
        shape, size = spec
        lo = rs.uniform(0, size * 0.6, tuple(shape) + (2,))
        side = rs.uniform(size / 20, size / 2, tuple(shape) + (2,))
        return np.concatenate([lo, lo + side], -1).astype(dtype)
    if kind == "anchors":  # (h, w, a, 4) anchors centred on a stride-8 grid with a sizes
        h, w, sizes = spec
        cy, cx = np.meshgrid((np.arange(h) + 0.5) * 8, (np.arange(w) + 0.5) * 8, indexing="ij")
        half = np.asarray(sizes, np.float64)[None, None, :, None] / 2 * np.array([1.0, 1.2])
        ctr = np.stack([cx, cy], -1)[:, :, None, :]
        return np.concatenate([ctr - half, ctr + half], -1).astype(dtype)
    raise ValueError(kind)


def flatten(out):
    """The Tensors / None of an output, in order, and its structure as text ('T', 'N', '[T,T]')."""
    items, parts = [], []
    for o in (out if isinstance(out, tuple) else (out,)):
        if o is None:
            items.append(None)
            parts.append("N")
        elif isinstance(o, list):
            items.extend(o)
            parts.append("[" + ",".join("T" for _ in o) + "]")
        else:
            items.append(o)
            parts.append("T")
    return items, ",".join(parts)


# ---- generate_proposals: 2 images, 3 anchors on a 4 x 4 map ---------------------------------------------------
_GP = {"scores": ("unit", (2, 3, 4, 4), "float32", 1), "deltas": ("rand", (2, 12, 4, 4), "float32", 2),
       "img": ("value", [[30.0, 40.0], [25.0, 20.0]], "float32", 0),
       "anchors": ("anchors", (4, 4, [6.0, 11.0, 16.0]), "float32", 0),
       "var": ("value", np.tile([0.1, 0.1, 0.2, 0.2], (4, 4, 3, 1)), "float32", 0)}
_GP64 = {k: (v[0], v[1], "float64", v[3]) for k, v in _GP.items()}

# ---- distribute_fpn_proposals: RoIs from a few pixels to a few hundred ----------------------------------------
_ROIS = [[0, 0, 10, 10], [0, 0, 100, 120], [5, 5, 300, 260], [1, 1, 2, 2], [10, 10, 50, 40], [3, 3, 3, 3],
         [20, 30, 470, 500], [7, 2, 40, 90], [0, 0, 223, 223], [4, 8, 2, 10], [15, 15, 131, 143]]
_FPN = {"rois": ("value", _ROIS, "float32", 0), "num": ("value", [4, 7], "int32", 0)}
_SMALL = {"rois": ("value", [[0, 0, 5, 5], [1, 1, 9, 7], [2, 2, 3, 12]], "float32", 0),
          "num": ("value", [1, 2], "int64", 0)}

# ---- matrix_nms: 2 images, 7 overlapping boxes, 3 classes -----------------------------------------------------
_MN = {"boxes": ("boxes", ((2, 7), 1.0), "float32", 3), "scores": ("unit", (2, 3, 7), "float32", 4)}
_MNPIX = {"boxes": ("boxes", ((2, 7), 40.0), "float32", 5), "scores": ("unit", (2, 3, 7), "float32", 6)}

# ---- yolo_loss: 2 images, 2 of 3 anchors, 2 classes on a 4 x 4 grid (input 32 x 32) ---------------------------
_GT = [[[0.30, 0.40, 0.35, 0.42], [0.70, 0.20, 0.95, 0.90], [0.55, 0.62, 0.10, 0.12]],
       [[0.12, 0.81, 0.50, 0.30], [0.0, 0.0, 0.0, 0.0], [0.90, 0.45, 0.30, 0.66]]]
_YL = {"x": ("rand", (2, 14, 4, 4), "float32", 7), "gt": ("value", _GT, "float32", 0),
       "label": ("value", [[0, 1, 1], [1, 0, 0]], "int32", 0), "gs": ("unit", (2, 3), "float32", 8)}
# two boxes on the same cell and anchor (Paddle's backward keeps the later one's gradient)
_DUP = [[[0.30, 0.40, 0.35, 0.42], [0.33, 0.45, 0.30, 0.45], [0.80, 0.80, 0.60, 0.50]]]
_YLD = {"x": ("rand", (1, 14, 4, 4), "float32", 9), "gt": ("value", _DUP, "float32", 0),
        "label": ("value", [[0, 1, 0]], "int32", 0)}
_ANC = "[10, 13, 16, 30, 33, 23]"

CASES = [
    ("gp_basic", _GP, "V.generate_proposals(scores, deltas * 3, img, anchors, var, 10, 5, return_rois_num=True)", []),
    ("gp_all", _GP, "V.generate_proposals(scores, deltas * 3, img, anchors, var, -1, 0, 0.7, 2.0, "
                    "return_rois_num=True)", []),
    ("gp_pixel_eta", _GP, "V.generate_proposals(scores, deltas * 3, img, anchors, var, 30, 8, 0.7, 1.0, 0.8, True, "
                          "return_rois_num=True)", []),
    ("gp_none_left", _GP, "V.generate_proposals(scores, deltas, img, anchors, var, 10, 5, min_size=100.0, "
                          "return_rois_num=True)", []),
    ("gp_no_nms", _GP, "V.generate_proposals(scores, deltas * 3, img, anchors, var, 48, 5, nms_thresh=0.0, "
                       "return_rois_num=True)", []),
    ("gp_f64", _GP64, "V.generate_proposals(scores, deltas * 3, img, anchors, var, 12, 6, 0.4, "
                      "return_rois_num=True)", []),
    ("fpn_basic", _FPN, "V.distribute_fpn_proposals(rois, 2, 5, 4, 224, rois_num=num)", []),
    ("fpn_pixel", _FPN, "V.distribute_fpn_proposals(rois, 3, 4, 4, 112, pixel_offset=True, rois_num=num)", []),
    ("fpn_one_level", _SMALL, "V.distribute_fpn_proposals(rois, 2, 5, 4, 224, rois_num=num)", []),
    ("fpn_f64", {**_FPN, "rois": ("value", _ROIS, "float64", 0)},
     "V.distribute_fpn_proposals(rois, 1, 6, 3, 56, rois_num=num)", []),
    ("mnms_linear", _MN, "V.matrix_nms(boxes, scores, 0.1, 0.05, 10, 10)", []),
    ("mnms_gaussian", _MN, "V.matrix_nms(boxes, scores, 0.1, 0.05, 10, 10, use_gaussian=True, "
                           "gaussian_sigma=3.0, return_index=True)", []),
    ("mnms_topk", _MN, "V.matrix_nms(boxes, scores, 0.05, 0.1, 3, 4, return_index=True, return_rois_num=False)", []),
    ("mnms_none", _MN, "V.matrix_nms(boxes, scores, 0.999, 0.1, 10, 10, return_index=True)", []),
    ("mnms_all_classes", _MNPIX, "V.matrix_nms(boxes, scores, 0.2, 0.2, -1, -1, background_label=-1, "
                                 "normalized=False, return_index=True)", []),
    ("mnms_f64", {k: (v[0], v[1], "float64", v[3]) for k, v in _MN.items()},
     "V.matrix_nms(boxes, scores, 0.1, 0.05, 10, 10, use_gaussian=True)", []),
    ("yolo_loss", _YL, f"V.yolo_loss(x * 2, gt, label, {_ANC}, [1, 2], 2, 0.7, 8)", ["x"]),
    ("yolo_loss_score", _YL, f"V.yolo_loss(x * 2, gt, label, {_ANC}, [0, 1], 2, 0.5, 8, gt_score=gs, "
                             "use_label_smooth=False, scale_x_y=1.2)", ["x"]),
    ("yolo_loss_ignore", _YL, f"V.yolo_loss(x * 2, gt, label, {_ANC}, [2, 0], 2, 0.05, 8)", ["x"]),
    ("yolo_loss_dup", _YLD, f"V.yolo_loss(x * 2, gt, label, {_ANC}, [0, 1], 2, 0.7, 8)", ["x"]),
    ("yolo_loss_f64", {**_YL, "x": ("rand", (2, 14, 4, 4), "float64", 7), "gt": ("value", _GT, "float64", 0)},
     f"V.yolo_loss(x * 2, gt, label, {_ANC}, [1, 2], 2, 0.6, 16)", ["x"]),
]

# the bytes read_file reads (the recorder writes them to a file)
READ_BYTES = bytes(range(256)) + b"paddle read_file\n\x00\xff"

ERROR_CASES = [
    ("gp_no_rois_num", _GP, "V.generate_proposals(scores, deltas, img, anchors, var)"),
    ("gp_bad_deltas", _GP, "V.generate_proposals(scores, deltas[:, :8], img, anchors, var, return_rois_num=True)"),
    ("gp_img_dtype", _GP, "V.generate_proposals(scores, deltas, img.astype('float64'), anchors, var, "
                          "return_rois_num=True)"),
    ("fpn_one_level_range", _FPN, "V.distribute_fpn_proposals(rois, 2, 2, 4, 224, rois_num=num)"),
    ("fpn_level_zero", _FPN, "V.distribute_fpn_proposals(rois, 0, 3, 4, 224, rois_num=num)"),
    ("fpn_no_num", _FPN, "V.distribute_fpn_proposals(rois, 2, 5, 4, 224)"),
    ("fpn_float_scale", _FPN, "V.distribute_fpn_proposals(rois, 2, 5, 4, 224.5, rois_num=num)"),
    ("fpn_bad_sum", _FPN, "V.distribute_fpn_proposals(rois, 2, 5, 4, 224, rois_num=num - 1)"),
    ("mnms_2d", _MN, "V.matrix_nms(boxes[0], scores, 0.1, 0.1, 10, 10)"),
    ("mnms_box5", {**_MN, "boxes": ("unit", (2, 7, 5), "float32", 3)}, "V.matrix_nms(boxes, scores, 0.1, 0.1, 10, 10)"),
    ("mnms_count", _MN, "V.matrix_nms(boxes, scores[:, :, :6], 0.1, 0.1, 10, 10)"),
    ("yl_not_square", {**_YL, "x": ("rand", (2, 14, 4, 3), "float32", 7)},
     f"V.yolo_loss(x, gt, label, {_ANC}, [1, 2], 2, 0.7, 8)"),
    ("yl_channels", _YL, f"V.yolo_loss(x[:, :12], gt, label, {_ANC}, [1, 2], 2, 0.7, 8)"),
    ("yl_mask", _YL, f"V.yolo_loss(x, gt, label, {_ANC}, [1, 3], 2, 0.7, 8)"),
    ("yl_gt_box", _YL, f"V.yolo_loss(x, paddle.concat([gt, gt[:, :, :1]], 2), label, {_ANC}, [1, 2], 2, 0.7, 8)"),
    ("yl_gt_label", _YL, f"V.yolo_loss(x, gt, label[:, :2], {_ANC}, [1, 2], 2, 0.7, 8)"),
    ("yl_gt_score", _YL, f"V.yolo_loss(x, gt, label, {_ANC}, [1, 2], 2, 0.7, 8, gt_score=gs[:, :2])"),
    ("yl_class_num", {**_YL, "x": ("rand", (2, 10, 4, 4), "float32", 7)},
     f"V.yolo_loss(x, gt, label, {_ANC}, [1, 2], 0, 0.7, 8)"),
    ("yl_label_int64", _YL, f"V.yolo_loss(x, gt, label.astype('int64'), {_ANC}, [1, 2], 2, 0.7, 8)"),
    ("read_missing", {}, "V.read_file('/nonexistent/pylayer_jax_no_such_file.jpg')"),
]
