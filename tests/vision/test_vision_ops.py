"""``paddle.vision.ops`` detection operators against Paddle 3.3.1 (cases ``tests/vision_ops_cases.py``, recorded
by ``tests/record_paddle_vision_ops.py``): values of roi_align / roi_pool / psroi_pool / deform_conv2d (and their
Layers), box_coder, yolo_box and prior_box to float32 rounding, and the gradients of the differentiable ones with
respect to every input Paddle differentiates; the table ops' gradients are also checked against ``jax.vjp`` by
``tests/ops/test_ops_generated.py`` (samples in ``tests/op_samples.py``).
"""

from __future__ import annotations

import json
import os
import sys

import jax
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax._ops.table import TABLE

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTS)
import vision_ops_cases as C  # noqa: E402
from vision_ops_support import assert_as_recorded, bind  # noqa: E402

with open(os.path.join(TESTS, "data", "paddle_vision_ops.json")) as _f:
    REF = json.load(_f)
ARR = np.load(os.path.join(TESTS, "data", "paddle_vision_ops.npz"))
V = paddle.vision.ops


def _bind(inputs, grads):
    return bind(C.make, inputs, grads)


@pytest.mark.parametrize("case", C.CASES, ids=[c[0] for c in C.CASES])
def test_op_as_paddle(case):
    name, inputs, expr, grads = case
    env = _bind(inputs, grads)
    out = eval(expr, env)
    assert_as_recorded(name, list(out) if isinstance(out, (tuple, list)) else [out], ARR, env, grads)


# ---- misuse -------------------------------------------------------------------------------------------------
ERRORS = {
    "roi_align_list_size": None,
    "roi_align_no_num": (ValueError, r"roi_align: boxes_num \(the number of boxes of each image\) is required"),
    "roi_align_bad_num": (ValueError, r"roi_align: boxes_num must hold one count per image \(2\); got shape \[1\]"),
    "roi_pool_list_size": None,
    "psroi_zero": (ValueError, r"psroi_pool: output_size must not contain 0"),
    "psroi_one_channel": None,
    "box_coder_var_len": (ValueError, r"box_coder: prior_box_var as a list must hold 4 numbers; got 2"),
    "box_coder_var_type": (TypeError, r"box_coder: prior_box_var must be a Tensor or a list/tuple of 4 numbers"),
    "deform_offset_shape": (ValueError, r"deform_conv2d: offset must have shape \[2, 18, 4, 5\]"),
    "prior_box_steps": (ValueError, r"prior_box: steps must be \(step_w, step_h\)"),
    "prior_box_max_number": (TypeError, r"prior_box: max_sizes must be a list of sizes"),
}


@pytest.mark.parametrize("name,inputs,expr", C.ERROR_CASES, ids=[c[0] for c in C.ERROR_CASES])
def test_misuse_as_paddle(name, inputs, expr):
    paddle_type = REF["errors"][name]
    if ERRORS[name] is None:  # Paddle accepts it: so do we
        assert paddle_type is None, name
        eval(expr, _bind(inputs, []))
        return
    exc, pattern = ERRORS[name]
    # Paddle's bare AssertionErrors are ValueErrors here
    assert exc.__name__ == paddle_type or (paddle_type == "AssertionError" and exc is ValueError), (name, paddle_type)
    with pytest.raises(exc, match=pattern):
        eval(expr, _bind(inputs, []))


@pytest.mark.parametrize("expr,exc,pattern", [
    ("V.roi_align(x, boxes[:, :3], bn, 2)", ValueError, r"roi_align: boxes must have shape \[num_boxes, 4\]"),
    ("V.roi_pool(x, boxes, paddle.to_tensor([1, 1], 'int32'), 2)", ValueError,
     r"roi_pool: boxes_num must add up to the number of boxes \(5\); got \[1, 1\]"),
    ("V.psroi_pool(x, boxes, bn, 2)", ValueError, r"psroi_pool: the channels of x \(3\) must be a multiple of"),
    ("V.roi_align(x, boxes, bn, 'big')", TypeError, r"roi_align: output_size must be an int or 2 ints"),
    ("V.box_coder(boxes, [0.1] * 4, boxes, 'center')", ValueError, r"box_coder: code_type must be"),
    ("V.yolo_box(x, bn, [1, 2, 3], 2, 0.1, 8)", ValueError, r"yolo_box: anchors must be a list of \(width, height\)"),
    ("V.yolo_box(x, bn, [1, 2], 2, 0.1, 8)", ValueError, r"yolo_box: x must be \[N, 7, H, W\]"),
    ("V.DeformConv2D(4, 2, 3, groups=3)", ValueError, r"DeformConv2D: in_channels \(4\) must be divisible by groups"),
])
def test_misuse_of_our_extras_raises(expr, exc, pattern):
    with pytest.raises(exc, match=pattern):
        eval(expr, _bind(C._ROI, []))


def test_roi_align_under_jit_needs_a_fixed_sampling_ratio():
    # the adaptive grid depends on box values; traced boxes have none, so a fixed ratio is required, and works
    env = _bind(C._ROI, [])
    want = V.roi_align(env["x"], env["boxes"], env["bn"], 2, sampling_ratio=2).numpy()

    def f(v):
        return V.roi_align(paddle.Tensor(v), env["boxes"], env["bn"], 2, sampling_ratio=2)._value

    np.testing.assert_allclose(np.asarray(jax.jit(f)(env["x"]._value)), want, rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError, match=r"roi_align: with sampling_ratio <= 0 the sample grid depends on the box"):
        jax.jit(lambda b: V.roi_align(env["x"], paddle.Tensor(b), env["bn"], 2)._value)(env["boxes"]._value)


def test_deform_conv2d_layer_shapes_and_init():
    paddle.seed(3)
    layer = V.DeformConv2D(4, 6, 3, padding=1)
    assert layer.weight.shape == [6, 4, 3, 3] and layer.bias.shape == [6]
    assert float(layer.bias.abs().sum()) == 0.0
    # normal with std sqrt(2 / (3 * 3 * 4)), as Paddle's default initializer
    assert abs(float(layer.weight.std()) - (2.0 / 36) ** 0.5) < 0.06
    x = paddle.rand([1, 4, 5, 5])
    off = paddle.zeros([1, 18, 5, 5])
    # with zero offsets (and no mask) it is the plain convolution
    want = paddle.nn.functional.conv2d(x, layer.weight, layer.bias, padding=1)
    np.testing.assert_allclose(layer(x, off).numpy(), want.numpy(), rtol=1e-5, atol=1e-5)


def test_table_ops_registered():
    for name in ("roi_align", "roi_pool", "psroi_pool", "deformable_conv", "box_coder", "yolo_box"):
        assert name in TABLE
