"""``paddle.vision.ops`` generate_proposals, distribute_fpn_proposals, matrix_nms, yolo_loss and read_file against
Paddle 3.3.1 (cases ``tests/vision_detect_cases.py``, recorded by ``tests/record_paddle_vision_detect.py``): every
output (values, shapes, dtypes, the None slots, the per-image / per-level counts) and yolo_loss's gradient with
respect to x (Paddle's backward, also where two boxes share a cell); decode_jpeg (which Paddle 3.3.1 runs on GPUs
only) against the pixels encoded; misuse raises a sentence.
"""

from __future__ import annotations

import io
import json
import os
import sys

import jax
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax._ops.detection import _yolo_loss

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTS)
import vision_detect_cases as C  # noqa: E402
from vision_ops_support import assert_as_recorded, bind  # noqa: E402

with open(os.path.join(TESTS, "data", "paddle_vision_detect.json")) as _f:
    REF = json.load(_f)
ARR = np.load(os.path.join(TESTS, "data", "paddle_vision_detect.npz"))
V = paddle.vision.ops


def _bind(inputs, grads):
    return bind(C.make, inputs, grads)


@pytest.mark.parametrize("case", C.CASES, ids=[c[0] for c in C.CASES])
def test_as_paddle(case):
    name, inputs, expr, grads = case
    env = _bind(inputs, grads)
    items, structure = C.flatten(eval(expr, env))
    assert structure == REF["structure"][name], name
    assert_as_recorded(name, items, ARR, env, grads)


def test_yolo_loss_duplicate_cell_gradient_is_the_later_boxs():
    # the forward counts both boxes on one cell; Paddle's backward (and ours) only the later one: so the gradient
    # differs from jax's derivative of the forward exactly on that cell's box and class channels
    name, inputs, expr, _ = next(c for c in C.CASES if c[0] == "yolo_loss_dup")
    env = _bind(inputs, ["x"])
    x = env["x"]
    loss = eval(expr, env)
    (g,) = paddle.grad(loss.sum(), [x])
    args = (env["gt"]._value, env["label"]._value, None, (10, 13, 16, 30, 33, 23), (0, 1), 2, 0.7, 8, True, 1.0)
    auto = np.asarray(jax.jit(jax.grad(lambda v: _yolo_loss(v * 2, *args).sum()))(x._value))
    diff = np.nonzero(np.abs(g.numpy() - auto) > 1e-6)
    assert diff[0].size > 0 and set(diff[1].tolist()) <= {0, 1, 2, 3, 5, 6}, diff


def test_read_file_as_paddle(tmp_path):
    path = tmp_path / "bytes.bin"
    path.write_bytes(C.READ_BYTES)
    out = V.read_file(str(path))
    ref = ARR["read_file/out0"]
    assert out.dtype == paddle.uint8 and out.shape == list(ref.shape)
    np.testing.assert_array_equal(out.numpy(), ref)


# ---- decode_jpeg (Pillow; Paddle 3.3.1 decodes on GPUs only, so the oracle is the image encoded) -------------
def _jpeg(arr, **kw):
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="JPEG", quality=95, **kw)
    return paddle.to_tensor(np.frombuffer(buf.getvalue(), np.uint8).copy())


def _smooth_rgb(h=16, w=24):
    yy, xx = np.mgrid[0:h, 0:w]
    return np.stack([40 + 6 * xx, 60 + 8 * yy, 200 - 3 * xx - 2 * yy], -1).astype(np.uint8)


@pytest.mark.parametrize("mode,channels", [("unchanged", 3), ("rgb", 3), ("gray", 1)])
def test_decode_jpeg_colour(tmp_path, mode, channels):
    img = _smooth_rgb()
    path = tmp_path / "img.jpg"
    path.write_bytes(_jpeg(img).numpy().tobytes())
    out = V.decode_jpeg(V.read_file(str(path)), mode)
    assert out.dtype == paddle.uint8 and out.shape == [channels, 16, 24]
    want = img.transpose(2, 0, 1).astype(float)
    if channels == 1:  # the luma (ITU-R BT.601) of the pixels
        want = (0.299 * want[0] + 0.587 * want[1] + 0.114 * want[2])[None]
    assert np.abs(out.numpy().astype(float) - want).max() <= 6


def test_decode_jpeg_grayscale_file():
    img = (np.add.outer(np.arange(16) * 9, np.arange(8) * 5) + 20).astype(np.uint8)
    data = _jpeg(img)
    un, rgb = V.decode_jpeg(data), V.decode_jpeg(data, mode="rgb")
    assert un.shape == [1, 16, 8] and rgb.shape == [3, 16, 8]
    assert np.abs(un.numpy()[0].astype(int) - img).max() <= 4
    np.testing.assert_array_equal(rgb.numpy(), np.repeat(un.numpy(), 3, axis=0))


# ---- misuse ---------------------------------------------------------------------------------------------------
# (exception, message pattern, whether the type is Paddle's (Paddle's bare AssertionErrors are ValueErrors here))
ERRORS = {
    "gp_no_rois_num": (ValueError, r"generate_proposals: return_rois_num must be True", True),
    # Paddle indexes out of range (IndexError); the shape is checked first here
    "gp_bad_deltas": (ValueError, r"generate_proposals: bbox_deltas must have shape \[N, 4 \* A, H, W\] = "
                      r"\[2, 12, 4, 4\]", False),
    # a dtype mismatch is a TypeError here (Paddle's kernel raises ValueError)
    "gp_img_dtype": (TypeError, r"generate_proposals: img_size must have the dtype of scores \(float32\); got "
                     r"float64", False),
    "fpn_one_level_range": (ValueError, r"distribute_fpn_proposals: max_level \(2\) must be greater than min_level",
                            True),
    "fpn_level_zero": (ValueError, r"distribute_fpn_proposals: min_level and max_level must be greater than 0", True),
    "fpn_no_num": (ValueError, r"distribute_fpn_proposals: rois_num \(the number of RoIs of each image\) is "
                   r"required", True),
    "fpn_float_scale": (TypeError, r"distribute_fpn_proposals: refer_scale must be an int; got float 224.5", True),
    # Paddle silently distributes only the RoIs the counts cover
    "fpn_bad_sum": (ValueError, r"distribute_fpn_proposals: rois_num must add up to the number of RoIs \(11\); "
                    r"got \[3, 6\]", False),
    "mnms_2d": (ValueError, r"matrix_nms: bboxes must be 3-D; got shape \[7, 4\]", True),
    "mnms_box5": (ValueError, r"matrix_nms: bboxes must have shape \[N, M, 4\]", True),
    "mnms_count": (ValueError, r"matrix_nms: scores must have shape \[N, C, M\] with N, M of bboxes \(2, 7\); got "
                   r"\[2, 3, 6\]", True),
    "yl_not_square": (ValueError, r"yolo_loss: x must be \[N, 14, H, H\] .*a square grid\); got \[2, 14, 4, 3\]", True),
    "yl_channels": (ValueError, r"yolo_loss: x must be \[N, 14, H, H\]", True),
    "yl_mask": (ValueError, r"yolo_loss: anchor_mask must index the 3 anchors \(0..2\); got \[1, 3\]", True),
    "yl_gt_box": (ValueError, r"yolo_loss: gt_box must be \[N, B, 4\] with N = 2; got \[2, 3, 5\]", True),
    "yl_gt_label": (ValueError, r"yolo_loss: gt_label must be \[N, B\] = \[2, 3\]", True),
    "yl_gt_score": (ValueError, r"yolo_loss: gt_score must be \[N, B\] = \[2, 3\]", True),
    "yl_class_num": (ValueError, r"yolo_loss: class_num must be an integer greater than 0; got 0", True),
    "yl_label_int64": (TypeError, r"yolo_loss: gt_label must be int32 .* got paddle.int64", False),
    # Paddle: RuntimeError about tensor metadata
    "read_missing": (FileNotFoundError, r"read_file: no file at '/nonexistent/pylayer_jax_no_such_file.jpg'", False),
}


@pytest.mark.parametrize("name,inputs,expr", C.ERROR_CASES, ids=[c[0] for c in C.ERROR_CASES])
def test_misuse(name, inputs, expr):
    exc, pattern, same = ERRORS[name]
    paddle_type = REF["errors"][name]
    as_paddle = exc.__name__ == paddle_type or (paddle_type == "AssertionError" and exc is ValueError)
    assert as_paddle is same, (name, paddle_type)
    with pytest.raises(exc, match=pattern):
        eval(expr, _bind(inputs, []))


@pytest.mark.parametrize("expr,exc,pattern", [
    ("V.decode_jpeg(data, 'bgr')", ValueError, r"decode_jpeg: mode must be one of \['unchanged', 'gray', 'rgb'\]; "
                                               r"got 'bgr'"),
    ("V.decode_jpeg(data.astype('int32'))", ValueError, r"decode_jpeg: x must be a 1-D uint8 Tensor .* int32"),
    ("V.decode_jpeg(data.reshape([1, -1]))", ValueError, r"decode_jpeg: x must be a 1-D uint8 Tensor"),
    ("V.decode_jpeg(data.numpy())", TypeError, r"decode_jpeg: x must be a Tensor of the file's bytes"),
    ("V.decode_jpeg(paddle.to_tensor(np.arange(50, dtype='uint8')))", ValueError,
     r"decode_jpeg: x does not hold a JPEG image that can be decoded"),
    ("V.decode_jpeg(png)", ValueError, r"decode_jpeg: x holds a PNG image, not a JPEG"),
    ("V.decode_jpeg(cmyk)", ValueError, r"decode_jpeg: mode 'unchanged' supports JPEGs of 1 or 3 channels .* CMYK"),
    ("V.read_file(3)", TypeError, r"read_file: filename must be a path \(str\); got int"),
    ("V.read_file(tmp)", IsADirectoryError, r"read_file: .* is a directory"),
    ("V.matrix_nms(mboxes, mscores.astype('float64'), 0.1, 0.1, 10, 10)", TypeError,
     r"matrix_nms: scores must have the dtype of bboxes \(float32\); got float64"),
    ("V.generate_proposals(scores, deltas, img, anchors[:2], var, return_rois_num=True)", ValueError,
     r"generate_proposals: anchors must hold H \* W \* A boxes of 4 \(\[4, 4, 3, 4\]\)"),
    ("V.distribute_fpn_proposals(rois[:, :3], 2, 5, 4, 224, rois_num=num)", ValueError,
     r"distribute_fpn_proposals: fpn_rois must have shape \[N, 4\]"),
    ("V.yolo_loss(x, gt.astype('float64'), label, [10, 13, 16, 30, 33, 23], [1, 2], 2, 0.7, 8)", TypeError,
     r"yolo_loss: x and gt_box must both be float32 or both float64"),
])
def test_misuse_of_our_extras(tmp_path, expr, exc, pattern):
    from PIL import Image

    mn = _bind(C._MN, [])
    env = {**_bind(C._GP, []), **_bind(C._FPN, []), **_bind(C._YL, []), "mboxes": mn["boxes"],
           "mscores": mn["scores"]}
    env["data"] = _jpeg(_smooth_rgb())
    buf = io.BytesIO()
    Image.fromarray(_smooth_rgb()).save(buf, format="PNG")
    env["png"] = paddle.to_tensor(np.frombuffer(buf.getvalue(), np.uint8).copy())
    buf = io.BytesIO()
    Image.fromarray(_smooth_rgb()).convert("CMYK").save(buf, format="JPEG")
    env["cmyk"] = paddle.to_tensor(np.frombuffer(buf.getvalue(), np.uint8).copy())
    env["tmp"] = str(tmp_path)
    with pytest.raises(exc, match=pattern):
        eval(expr, env)
