"""``paddle.vision.transforms`` against Paddle 3.3.1 (cases ``tests/vision_cases.py``, recorded by
``tests/record_paddle_vision.py`` with OpenCV 4.12 installed, since Paddle hands numpy images to OpenCV).

numpy images: the outputs, dtypes and shapes are Paddle's (with OpenCV) exactly for uint8 data, including
bilinear resizing's fixed-point rounding and OpenCV's quirks that Paddle passes on (a scalar ``fill`` pads the
first channel only; ``hflip`` of an HxWx1 image returns HxW); float results agree to float32 rounding. Tensor
images: Paddle's values to float32 rounding (a uint8 Tensor's hue, computed in float32 and truncated, to one
level). PIL images (Pillow is used when installed): Pillow's own results.
Random transforms draw from Python's ``random`` and numpy's global generator exactly as Paddle's eager mode does,
so under the same seeds the outputs are the same, value for value (checked over several draws). Misuse raises a
sentence naming the API; the recorded Paddle exception types are checked where they are sensible (Paddle's bare
AssertionErrors become ValueErrors here).
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
import vision_cases as C  # noqa: E402

with open(os.path.join(TESTS, "data", "paddle_vision.json")) as _f:
    REF = json.load(_f)
ARR = np.load(os.path.join(TESTS, "data", "paddle_vision.npz"))
T = paddle.vision.transforms
F = T.functional


def _describe(out):
    return C.describe(paddle, out)


def _run(case):
    name, kind, shape, dtype, seed, expr = case
    img = C.image(kind, shape, dtype, seed, paddle)
    return eval(expr, {"F": F, "T": T, "np": np, "img": img, "paddle": paddle})


def _compare(name, out, ref, entry):
    kind, arr = _describe(out)
    assert kind == entry["kind"], name
    assert str(arr.dtype) == entry["dtype"], name
    assert list(arr.shape) == entry["shape"], name
    if arr.dtype.kind in "iu" and kind == "tensor":
        # integers computed in float32 and truncated (a uint8 Tensor's hue): a level apart where float32 rounding
        # of the HSV round trip lands on the other side of an integer
        assert np.abs(arr.astype(np.int64) - ref.astype(np.int64)).max() <= 1, name
    elif arr.dtype.kind in "iu":
        np.testing.assert_array_equal(arr, ref, err_msg=name)
    else:
        scale = max(1.0, float(np.abs(ref).max(initial=0.0)))
        np.testing.assert_allclose(arr, ref, rtol=1e-5, atol=1e-6 * scale, err_msg=name)


@pytest.mark.parametrize("case", C.TRANSFORM_CASES, ids=[c[0] for c in C.TRANSFORM_CASES])
def test_transform_as_paddle(case):
    name = case[0]
    _compare(name, _run(case), ARR[f"t/{name}/0"], REF["transforms"][name][0])


@pytest.mark.parametrize("case", C.RANDOM_CASES, ids=[c[0] for c in C.RANDOM_CASES])
def test_random_transform_same_draws_as_paddle(case):
    name = case[0]
    random.seed(C.RANDOM_SEED)
    np.random.seed(C.RANDOM_SEED)
    for r in range(C.RANDOM_REPEATS):
        _compare(f"{name}/{r}", _run(case), ARR[f"t/{name}/{r}"], REF["random"][name][r])


def test_random_transforms_vary_between_draws():
    # the recorded draws differ from one another (the random cases are not constant by accident)
    for name in ("r_hflip", "r_crop", "r_resized_crop", "r_jitter", "r_pipeline"):
        outs = [ARR[f"t/{name}/{r}"] for r in range(C.RANDOM_REPEATS)]
        assert any(o.shape != outs[0].shape or not np.array_equal(o, outs[0]) for o in outs[1:]), name


def test_broadcast_gray_is_read_only_view_like_paddle():
    out = F.to_grayscale(C.array((4, 5, 3), "uint8", 0), 3)
    assert not out.flags.writeable
    assert np.array_equal(out[..., 0], out[..., 2])


@pytest.mark.parametrize("case", C.GRAD_CASES, ids=[c[0] for c in C.GRAD_CASES])
def test_gradients_through_tensor_transforms_as_paddle(case):
    name, shape, seed, expr = case
    img = paddle.to_tensor(C.array(shape, "float32", seed).transpose(2, 0, 1) / 255.0, stop_gradient=False)
    out = eval(expr, {"F": F, "T": T, "img": img})
    w = paddle.to_tensor(np.cos(np.arange(out.size)).reshape(out.shape).astype("float32"))
    (g,) = paddle.grad((out * w).sum(), [img])
    np.testing.assert_allclose(out.numpy(), ARR[f"g/{name}/out"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(g.numpy(), ARR[f"g/{name}/grad"], rtol=1e-5, atol=1e-6)


# ---- numpy bilinear resize: a wider sweep against OpenCV's rule (recorded cases above are Paddle+OpenCV) ----
def _reference_bilinear_float64(img, oh, ow):
    """Half-pixel bilinear interpolation in float64 with OpenCV's edge rules (x clamped, y rows clamped)."""
    h, w = img.shape[:2]
    src = img.astype(np.float64).reshape(h, w, -1)

    def taps(dst, n):
        pos = (np.arange(dst) + 0.5) * (n / dst) - 0.5
        i = np.floor(pos).astype(int)
        return i, pos - i

    xi, xf = taps(ow, w)
    xf = np.where(xi < 0, 0.0, np.where(xi >= w - 1, 0.0, xf))
    xi = np.clip(xi, 0, w - 1)
    yi, yf = taps(oh, h)
    rows = src[:, xi] * (1 - xf)[None, :, None] + src[:, np.minimum(xi + 1, w - 1)] * xf[None, :, None]
    out = rows[np.clip(yi, 0, h - 1)] * (1 - yf)[:, None, None] + rows[np.clip(yi + 1, 0, h - 1)] * yf[:, None, None]
    return out.reshape((oh, ow) + img.shape[2:])


@pytest.mark.parametrize("seed", range(6))
def test_uint8_resize_within_one_level_of_exact_bilinear(seed):
    # OpenCV's fixed-point result (reproduced exactly above for the recorded cases) is within one grey level of
    # the exact bilinear value, and float images match it to float32 rounding
    rs = np.random.RandomState(seed)
    h, w, oh, ow = (int(v) for v in rs.randint(1, 30, 4))
    img = rs.randint(0, 256, (h, w, 3)).astype(np.uint8)
    ref = _reference_bilinear_float64(img, oh, ow)
    out = F.resize(img, (oh, ow))
    assert out.shape == (oh, ow, 3) and out.dtype == np.uint8
    assert np.abs(out.astype(np.float64) - ref).max() <= 1.0 + 1e-9
    outf = F.resize(img.astype(np.float32), (oh, ow))
    np.testing.assert_allclose(outf, ref, rtol=0, atol=1e-3)


# ---- misuse -------------------------------------------------------------------------------------------------
ERRORS = {
    "bad_type_list": (TypeError, r"to_tensor: img must be a PIL image, a Tensor image \(CHW\) or a numpy array"),
    "bad_ndim": (TypeError, r"hflip: img must be .* got ndarray with 4 dims"),
    "bad_pad_len": (ValueError, r"pad: padding must be an int or a 2- or 4-element sequence; got a 3-element"),
    "t_pad_symmetric": (ValueError, r"padding_mode 'symmetric' is not supported for Tensor images"),
    "bad_gray_channels": (ValueError, r"to_grayscale: num_output_channels must be 1 or 3; got 2"),
    "t_gray_channels": (ValueError, r"to_grayscale: num_output_channels must be 1 or 3; got 2"),
    "hue_range": (ValueError, r"adjust_hue: hue_factor must be in \[-0.5, 0.5\]; got 0.7"),
    "bad_size": (TypeError, r"resize: size must be an int .* or a \(height, width\) pair; got \(1, 2, 3\)"),
    "to_tensor_format": (ValueError, r"to_tensor: data_format must be 'CHW' or 'HWC'; got 'NCHW'"),
    "t_bad_ndim": (RuntimeError, r"hflip: a Tensor image must have 3 \(CHW\) or 4 \(NCHW\) dims"),
}


@pytest.mark.parametrize("name,expr", C.ERROR_CASES, ids=[c[0] for c in C.ERROR_CASES])
def test_misuse_raises(name, expr):
    exc, pattern = ERRORS[name]
    paddle_type = REF["errors"][name]
    # the same exception type as Paddle, except where Paddle raises a bare AssertionError
    assert exc.__name__ == paddle_type or paddle_type == "AssertionError", (name, paddle_type)
    with pytest.raises(exc, match=pattern):
        eval(expr, {"F": F, "np": np, "paddle": paddle})


@pytest.mark.parametrize("expr,exc,pattern", [
    ("F.resize(np.zeros((4, 4, 3), np.uint8), (2, 2), 'cubic')", ValueError,
     r"resize: interpolation must be one of .* for numpy images \(OpenCV's kernels\); got 'cubic'"),
    ("F.adjust_hue(np.zeros((4, 4, 3), np.uint8), 0.6)", ValueError, r"hue_factor must be in \[-0.5, 0.5\]; got 0.6"),
    ("F.adjust_hue(np.zeros((4, 4), np.uint8), 0.1)", ValueError, r"adjust_hue: a numpy image must be HxWx3"),
    ("T.RandomHorizontalFlip(1.5)", ValueError, r"RandomHorizontalFlip: prob must be in \[0, 1\]; got 1.5"),
    ("T.RandomCrop(8)(np.zeros((4, 4, 3), np.uint8))", ValueError,
     r"RandomCrop: the crop size \(8, 8\) is larger than the image \(4, 4\)"),
    ("T.Pad(1, padding_mode='wrap')", ValueError, r"padding_mode must be one of .*; got 'wrap'"),
    ("T.Resize('big')", TypeError, r"Resize: size must be an int or a \(height, width\) pair"),
    ("T.BrightnessTransform(-1)", ValueError, r"brightness as a single number must be non-negative"),
    ("T.RandomErasing(value='noise')", ValueError, r"a string value must be 'random'"),
    ("T.ToTensor(keys=['label'])", NotImplementedError, r"key 'label' is an unsupported data structure"),
    ("F.adjust_brightness(paddle.zeros([3, 4, 4]), -0.5)", ValueError, r"brightness_factor must be non-negative"),
    ("F.adjust_contrast(paddle.zeros([2, 4, 4]), 0.5)", ValueError, r"must have 1 or 3 channels \(CHW\); got 2"),
])
def test_misuse_of_our_extras_raises(expr, exc, pattern):
    with pytest.raises(exc, match=pattern):
        eval(expr, {"F": F, "T": T, "np": np, "paddle": paddle})


def test_compose_reports_the_failing_transform(capsys):
    with pytest.raises(TypeError):
        T.Compose([T.ToTensor()])("not an image")
    assert "fail to perform transform" in capsys.readouterr().out


def test_keys_pass_extra_inputs_through():
    img = C.array((6, 8, 3), "uint8", 1)
    out = T.Resize((3, 4), keys=("image",))((img, "label"))
    assert isinstance(out, tuple) and out[1] == "label"
    np.testing.assert_array_equal(out[0], F.resize(img, (3, 4)))


def test_without_opencv_paddle_raises_importerror_and_we_do_not():
    # recorded: Paddle's numpy resize needs OpenCV; here the same call works without it
    assert REF["without_opencv"].startswith("ImportError")
    assert F.resize(np.zeros((4, 4, 3), np.uint8), 2).shape == (2, 2, 3)
