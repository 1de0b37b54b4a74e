"""``paddle.vision.transforms``' geometric warps (affine, rotate, perspective and their random transforms) and
OpenCV's area / bicubic / lanczos resize against Paddle 3.3.1 (cases ``tests/vision_warp_cases.py``, recorded by
``tests/record_paddle_vision_warps.py`` with OpenCV 4.12, since Paddle hands numpy images to OpenCV).

numpy images: OpenCV's results exactly for uint8 images (fixed-point maps, 1/32-pixel tables, the 15-bit and
11-bit weights; OpenCV's float32 bicubic resize of uint8 images, whose rounding can in rare cases land a level
apart from the one here, gives the same values in these cases); float images to float32 rounding. Paddle's own quirks are kept: ``affine`` of a numpy image turns
about its top-left corner (the translation replaces the rotation's offset) with (rows/2, cols/2) as its default
centre, a scalar ``fill`` of ``rotate``/``perspective`` fills the first channel only, and Pillow's affine and
perspective leave uncovered pixels black whatever ``fill`` says. Tensor images: Paddle's values and gradients to
float32 rounding. PIL images: Pillow's own results, value for value.
"""

from __future__ import annotations

import json
import os
import random
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTS)
import vision_cases as VC  # noqa: E402
import vision_warp_cases as C  # noqa: E402

with open(os.path.join(TESTS, "data", "paddle_vision_warps.json")) as _f:
    REF = json.load(_f)
ARR = np.load(os.path.join(TESTS, "data", "paddle_vision_warps.npz"))
T = paddle.vision.transforms
F = T.functional


def _run(case):
    name, kind, shape, dtype, seed, expr = case
    img = VC.image(kind, shape, dtype, seed, paddle)
    return eval(expr, {"F": F, "T": T, "np": np, "img": img, "paddle": paddle})


def _compare(name, out, ref, entry):
    kind, arr = VC.describe(paddle, out)
    assert kind == entry["kind"], name
    assert str(arr.dtype) == entry["dtype"], name
    assert list(arr.shape) == entry["shape"], name
    if arr.dtype.kind in "iu":
        np.testing.assert_array_equal(arr, ref, err_msg=name)
    else:
        scale = max(1.0, float(np.abs(ref).max(initial=0.0)))
        np.testing.assert_allclose(arr, ref, rtol=1e-5, atol=2e-6 * scale, err_msg=name)


@pytest.mark.parametrize("case", C.TRANSFORM_CASES, ids=[c[0] for c in C.TRANSFORM_CASES])
def test_warp_as_paddle(case):
    name = case[0]
    _compare(name, _run(case), ARR[f"t/{name}/0"], REF["transforms"][name][0])


@pytest.mark.parametrize("case", C.RANDOM_CASES, ids=[c[0] for c in C.RANDOM_CASES])
def test_random_warp_same_draws_as_paddle(case):
    name = case[0]
    random.seed(VC.RANDOM_SEED)
    np.random.seed(VC.RANDOM_SEED)
    outs = []
    for r in range(VC.RANDOM_REPEATS):
        out = _run(case)
        _compare(f"{name}/{r}", out, ARR[f"t/{name}/{r}"], REF["random"][name][r])
        outs.append(VC.describe(paddle, out)[1])
    # the draws differ from one another (the case is not constant by accident)
    assert any(o.shape != outs[0].shape or not np.array_equal(o, outs[0]) for o in outs[1:]), name


@pytest.mark.parametrize("case", C.GRAD_CASES, ids=[c[0] for c in C.GRAD_CASES])
def test_gradients_through_tensor_warps_as_paddle(case):
    name, shape, seed, expr = case
    img = paddle.to_tensor(VC.array(shape, "float32", seed).transpose(2, 0, 1) / 255.0, stop_gradient=False)
    out = eval(expr, {"F": F, "T": T, "img": img, "np": np})
    w = paddle.to_tensor(np.cos(np.arange(out.size)).reshape(out.shape).astype("float32"))
    (g,) = paddle.grad((out * w).sum(), [img])
    np.testing.assert_allclose(out.numpy(), ARR[f"g/{name}/out"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(g.numpy(), ARR[f"g/{name}/grad"], rtol=1e-5, atol=1e-6)


def test_float64_tensor_warps_like_float32():
    # Paddle raises for float64 Tensor images (its matrix stays float32); here they warp, with the float32 result
    img = paddle.to_tensor(VC.array((6, 7, 3), "float32", 5).transpose(2, 0, 1))
    for fn in (lambda x: F.rotate(x, 30, "bilinear"), lambda x: F.affine(x, 20, (1, 0), 1.1, 3, "bilinear")):
        out64 = fn(img.astype("float64"))
        assert out64.dtype == paddle.float64
        np.testing.assert_allclose(out64.numpy(), fn(img).numpy(), rtol=1e-5, atol=1e-4)


def test_without_opencv_paddle_raises_importerror_and_we_do_not():
    assert REF["without_opencv"].startswith("ImportError")
    assert F.rotate(np.zeros((4, 4, 3), np.uint8), 10).shape == (4, 4, 3)


# ---- misuse -------------------------------------------------------------------------------------------------
ERRORS = {
    "affine_translate": (TypeError, r"affine: translate must be a sequence \(dx, dy\); got int"),
    "affine_translate_len": (ValueError, r"affine: translate must hold 2 values \(dx, dy\); got 3"),
    "affine_scale": (ValueError, r"affine: scale must be positive; got 0"),
    "affine_shear_len": (ValueError, r"affine: shear must hold 1 or 2 values \(x, y\); got \[1, 2, 3\]"),
    "affine_angle": (TypeError, r"affine: angle must be an int or a float \(degrees\); got str"),
    "affine_interp_type": (TypeError, r"affine: interpolation must be a string"),
    "affine_center_type": (TypeError, r"affine: center must be a sequence \(x, y\) or None; got int"),
    "t_rotate_bicubic": (ValueError, r"rotate: interpolation must be one of \['nearest', 'bilinear'\] for Tensor"),
    "t_affine_uint8": (RuntimeError, r"affine: a Tensor image must be float32 or float64 to be warped"),
    "t_affine_1ch_int_fill": (ValueError, r"fill has 3 values but the image has 1 channels"),
    "t_rotate_batch": (ValueError, r"rotate: a Tensor image to rotate must be 3-D"),
    "n_warp_bad_interp": (ValueError, r"rotate: interpolation must be one of .* for numpy images; got 'cubic'"),
    "n_resize_bad_interp": (ValueError, r"resize: interpolation must be one of .* for numpy images"),
    "t_resize_lanczos": (ValueError, r"mode must be one of"),
    "r_affine_degrees": (ValueError, r"RandomAffine: degrees as a single number must be non-negative; got -5"),
    "r_affine_translate_len": (ValueError, r"RandomAffine: translate must be a sequence of length 2; got 1"),
    "r_affine_translate_range": (ValueError, r"RandomAffine: translate values must be in \[0, 1\]; got 2"),
    "r_affine_scale": (ValueError, r"RandomAffine: scale values must be positive; got 0"),
    "r_affine_shear": (ValueError, r"RandomAffine: shear must be a sequence of length 2 or 4; got 3"),
    "r_affine_interp": (ValueError, r"RandomAffine: interpolation must be 'nearest', 'bilinear' or 'bicubic'"),
    "r_affine_fill": (TypeError, r"RandomAffine: fill must be a number or a sequence; got object"),
    "r_rotation_degrees": (ValueError, r"RandomRotation: degrees as a single number must be non-negative"),
    "r_rotation_len": (ValueError, r"RandomRotation: degrees as a sequence must hold 2 values"),
    "r_perspective_prob": (ValueError, r"RandomPerspective: prob must be in \[0, 1\]; got 2"),
    "r_perspective_scale": (ValueError, r"RandomPerspective: distortion_scale must be in \[0, 1\]; got 2"),
}
# Paddle's bare AssertionErrors, and the KeyError of its OpenCV interpolation table, are ValueErrors here
SENSIBLE = {"AssertionError": ValueError, "KeyError": ValueError}


@pytest.mark.parametrize("name,expr", C.ERROR_CASES, ids=[c[0] for c in C.ERROR_CASES])
def test_misuse_raises(name, expr):
    exc, pattern = ERRORS[name]
    paddle_type = REF["errors"][name]
    assert exc.__name__ == paddle_type or SENSIBLE.get(paddle_type) is exc, (name, paddle_type)
    with pytest.raises(exc, match=pattern):
        eval(expr, {"F": F, "T": T, "np": np, "paddle": paddle})


@pytest.mark.parametrize("expr,exc,pattern", [
    ("F.perspective(paddle.zeros([3, 4, 4]), [[0, 0], [1, 1]], [[0, 0], [1, 1]])", ValueError,
     r"perspective: startpoints must be 4 points"),
    ("F.rotate(np.zeros((4, 4, 3), np.int32), 10)", TypeError, r"rotate: OpenCV warps uint8, uint16, int16"),
])
def test_misuse_of_our_extras_raises(expr, exc, pattern):
    with pytest.raises(exc, match=pattern):
        eval(expr, {"F": F, "T": T, "np": np, "paddle": paddle})
