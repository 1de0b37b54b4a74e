"""Cases of ``paddle.vision.ops`` shared by ``tests/record_paddle_vision_ops.py`` (run with real Paddle) and
``tests/vision/test_vision_ops.py``.

Each case is ``(name, inputs, expr, grads)``: ``inputs`` maps names to ``(kind, shape_or_values, dtype, seed)``
built by ``make`` (``"rand"``: uniform in [-1, 1); ``"pos"``: uniform in [0.5, 1.5); ``"value"``: the literal
values), bound as Tensors (those listed in ``grads`` with ``stop_gradient=False``); ``expr`` is evaluated with
``V`` (``paddle.vision.ops``), ``paddle`` and ``np``. For differentiable cases the recorder also keeps
d sum(out * w) / d input for each input in ``grads``, with w = cos(arange(out.size)) (a modulated deformable
convolution lists ``mask`` too: Paddle 3.3.1's kernel crashes when the mask needs no gradient).
"""

from __future__ import annotations

import numpy as np

BOXES = [[1.2, 0.5, 6.3, 5.1], [0.0, 0.0, 3.0, 3.0], [2.5, 1.5, 8.7, 7.9], [-1.0, 2.0, 4.0, 9.5],
         [3.3, 3.3, 4.6, 5.0]]


def make(kind, spec, dtype, seed):
    if kind == "value":
        return np.asarray(spec, dtype)
    rs = np.random.RandomState(seed)
    if kind == "rand":
        return rs.uniform(-1, 1, spec).astype(dtype)
    return rs.uniform(0.5, 1.5, spec).astype(dtype)


_ROI = {"x": ("rand", (2, 3, 8, 9), "float32", 1), "boxes": ("value", BOXES, "float32", 0),
        "bn": ("value", [2, 3], "int32", 0)}
_PS = {"x": ("rand", (2, 8, 8, 9), "float32", 2), "boxes": ("value", BOXES, "float32", 0),
       "bn": ("value", [2, 3], "int32", 0)}
_DC = {"x": ("rand", (2, 4, 6, 7), "float32", 3), "offset": ("rand", (2, 18, 4, 5), "float32", 4),
       "weight": ("rand", (3, 4, 3, 3), "float32", 5), "bias": ("rand", (3,), "float32", 6),
       "mask": ("pos", (2, 9, 4, 5), "float32", 7)}
_DCG = {"x": ("rand", (1, 4, 5, 6), "float32", 8), "offset": ("rand", (1, 36, 3, 4), "float32", 9),
        "weight": ("rand", (4, 2, 3, 3), "float32", 10), "mask": ("pos", (1, 18, 3, 4), "float32", 11)}
_PRIOR = {"prior": ("value", [[1, 1, 5, 6], [2, 3, 8, 9], [0.5, 0.5, 4, 3]], "float32", 0),
          "target": ("value", [[1, 2, 4, 6], [0, 1, 3, 5], [2, 2, 7, 7], [3, 1, 9, 4]], "float32", 0),
          "pvar": ("value", [[0.1, 0.1, 0.2, 0.2], [0.2, 0.1, 0.3, 0.2], [0.1, 0.3, 0.2, 0.1]], "float32", 0),
          "deltas": ("rand", (4, 3, 4), "float32", 12)}

CASES = [
    # RoI Align: adaptive and fixed sampling, aligned or not, a spatial scale
    ("roi_align", _ROI, "V.roi_align(x, boxes, bn, 3)", ["x"]),
    ("roi_align_fixed", _ROI, "V.roi_align(x, boxes, bn, (2, 3), 0.5, 2, False)", ["x"]),
    ("roi_align_scale", _ROI, "V.roi_align(x, boxes, bn, (4, 2), 0.7, -1, True)", ["x"]),
    ("roi_align_layer", _ROI, "V.RoIAlign((2, 2), 1.0)(x, boxes, bn, aligned=False)", ["x"]),
    ("roi_pool", _ROI, "V.roi_pool(x, boxes, bn, (3, 2))", ["x"]),
    ("roi_pool_scale", _ROI, "V.roi_pool(x, boxes, bn, 2, 0.6)", ["x"]),
    ("roi_pool_layer", _ROI, "V.RoIPool(3, 0.5)(x, boxes, bn)", ["x"]),
    ("psroi_pool", _PS, "V.psroi_pool(x, boxes, bn, 2)", ["x"]),
    ("psroi_pool_scale", _PS, "V.psroi_pool(x, boxes, bn, [2, 2], 0.5)", ["x"]),
    ("psroi_pool_layer", _PS, "V.PSRoIPool(2, 1.3)(x, boxes, bn)", ["x"]),
    # deformable convolution v1 / v2, with bias, stride, padding, dilation and groups
    ("deform_v1", _DC, "V.deform_conv2d(x, offset, weight, bias, padding=0)", ["x", "offset", "weight", "bias"]),
    ("deform_v2", _DC, "V.deform_conv2d(x, offset, weight, bias, mask=mask)", ["x", "offset", "weight", "mask"]),
    ("deform_strided", {**_DC, "offset": ("rand", (2, 18, 3, 4), "float32", 13),
                        "mask": ("pos", (2, 9, 3, 4), "float32", 14)},
     "V.deform_conv2d(x, offset * 2, weight, None, stride=2, padding=1, mask=mask)", ["x", "offset", "weight", "mask"]),
    ("deform_groups", _DCG, "V.deform_conv2d(x, offset, weight, stride=1, padding=1, dilation=2, "
     "deformable_groups=2, groups=2, mask=mask)", ["x", "offset", "weight", "mask"]),
    # box coding
    ("box_encode", _PRIOR, "V.box_coder(prior, [0.1, 0.1, 0.2, 0.2], target)", []),
    ("box_encode_var", _PRIOR, "V.box_coder(prior, pvar, target, box_normalized=False)", []),
    ("box_encode_novar", _PRIOR, "V.box_coder(prior, pvar * 0 + 1, target)", []),
    ("box_decode", _PRIOR, "V.box_coder(prior, [0.1, 0.1, 0.2, 0.2], deltas, 'decode_center_size')", []),
    ("box_decode_var", _PRIOR, "V.box_coder(prior, pvar, deltas, 'decode_center_size', False)", []),
    ("box_decode_axis1", {**_PRIOR, "prior": ("value", [[1, 1, 5, 6], [2, 3, 8, 9], [0.5, 0.5, 4, 3],
                                                       [1, 2, 3, 4]], "float32", 0),
                          "pvar": ("pos", (4, 4), "float32", 15)},
     "V.box_coder(prior, pvar, deltas, 'decode_center_size', True, axis=1)", []),
    # YOLO decoding
    ("yolo_box", {"x": ("rand", (2, 16, 3, 4), "float32", 16), "size": ("value", [[96, 128], [60, 70]], "int32", 0)},
     "V.yolo_box(x * 3, size, [10, 13, 16, 30], 3, 0.3, 32)", []),
    ("yolo_box_noclip", {"x": ("rand", (1, 21, 4, 4), "float32", 17), "size": ("value", [[50, 40]], "int32", 0)},
     "V.yolo_box(x * 3, size, [10, 13, 16, 30, 33, 23], 2, 0.1, 16, clip_bbox=False, scale_x_y=1.2)", []),
    ("yolo_box_iou", {"x": ("rand", (1, 18, 2, 3), "float32", 18), "size": ("value", [[64, 64]], "int32", 0)},
     "V.yolo_box(x * 3, size, [10, 13, 16, 30], 3, 0.2, 8, iou_aware=True, iou_aware_factor=0.4)", []),
    # SSD prior boxes
    ("prior_box", {"inp": ("rand", (1, 2, 3, 4), "float32", 19), "img": ("rand", (1, 3, 24, 30), "float32", 20)},
     "V.prior_box(inp, img, [4.0, 9.0], [8.0, 14.0], [2.0, 3.0], flip=True)", []),
    ("prior_box_order", {"inp": ("rand", (1, 2, 2, 3), "float32", 21), "img": ("rand", (1, 3, 20, 20), "float32", 22)},
     "V.prior_box(inp, img, 5.0, [10.0], [2.0, 0.5, 1.0], [0.1, 0.2, 0.3, 0.4], flip=False, clip=True, "
     "steps=[7.0, 6.0], offset=0.3, min_max_aspect_ratios_order=True)", []),
]

# misuse: what Paddle raises (type name), or that it accepts it
ERROR_CASES = [
    ("roi_align_list_size", _ROI, "V.roi_align(x, boxes, bn, [2, 2])"),
    ("roi_align_no_num", _ROI, "V.roi_align(x, boxes, None, 2)"),
    ("roi_align_bad_num", _ROI, "V.roi_align(x, boxes, paddle.to_tensor([5], 'int32'), 2)"),
    ("roi_pool_list_size", _ROI, "V.roi_pool(x, boxes, bn, [2, 2])"),
    ("psroi_zero", _PS, "V.psroi_pool(x, boxes, bn, (0, 2))"),
    ("psroi_one_channel", _ROI, "V.psroi_pool(x, boxes, bn, 1)"),
    ("box_coder_var_len", _PRIOR, "V.box_coder(prior, [0.1, 0.2], target)"),
    ("box_coder_var_type", _PRIOR, "V.box_coder(prior, 0.1, target)"),
    ("deform_offset_shape", _DC, "V.deform_conv2d(x, offset[:, :9], weight)"),
    ("prior_box_steps", {"inp": ("rand", (1, 2, 3, 4), "float32", 19), "img": ("rand", (1, 3, 24, 30), "float32", 20)},
     "V.prior_box(inp, img, [4.0], steps=[1.0, 2.0, 3.0])"),
    ("prior_box_max_number", {"inp": ("rand", (1, 2, 3, 4), "float32", 19),
                              "img": ("rand", (1, 3, 24, 30), "float32", 20)},
     "V.prior_box(inp, img, [4.0], 8.0)"),
]
