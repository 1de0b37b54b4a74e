"""The whole programs ``tests/programs/p83_vision_transforms.py`` and ``tests/programs/p84_vision_ops.py`` against
Paddle 3.3.1: the differences they showed (the perspective of a Tensor image, uint8 images through interpolate and
adjust_hue), as focused cases (``tests/program_diff_cases_ae.py``, recorded by
``tests/record_paddle_program_diffs_ae.py``), and the errors added for integer images where Paddle has no kernel."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.vision.transforms.functional as TF

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_ae import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_ae.json", paddle)


def test_interpolate_integer_errors_say_what_to_do() -> None:
    f = paddle.nn.functional
    x = paddle.ones([1, 1, 3, 4], dtype="uint8")
    with pytest.raises(TypeError, match=r"interpolate: mode 'bicubic' needs a floating-point input .* but x is "
                                        r"uint8; cast it first, e.g. x.astype\('float32'\)"):
        f.interpolate(x, size=(5, 6), mode="bicubic")
    with pytest.raises(TypeError, match=r"interpolate: mode 'bilinear' needs a floating-point input \(Paddle's "
                                        r"kernels interpolate only uint8 among integer types .* but x is int32"):
        f.interpolate(x.astype("int32"), size=(5, 6), mode="bilinear")
    assert f.interpolate(x.astype("int64"), size=(5, 6)).numpy().tolist() == [[[[1] * 6] * 5]]


def test_uint8_linear_interpolates_in_float32_and_truncates() -> None:
    # not Paddle's 1-D uint8 kernel (the lower neighbour only): the float32 interpolation, truncated, as bilinear's
    f = paddle.nn.functional
    x = paddle.to_tensor((np.arange(10).reshape(2, 1, 5) * 7).astype("uint8"))
    want = np.trunc(f.interpolate(x.astype("float32"), size=[7], mode="linear").numpy()).astype("uint8")
    got = f.interpolate(x, size=[7], mode="linear")
    assert str(got.dtype) == "paddle.uint8"
    np.testing.assert_array_equal(got.numpy(), want)
    assert want[0, 0].tolist() == [0, 4, 9, 14, 19, 24, 28]


@pytest.mark.parametrize("fn", [lambda t: TF.to_grayscale(t), lambda t: TF.adjust_saturation(t, 1.5),
                                lambda t: TF.adjust_contrast(t, 1.5)])
def test_grey_of_integer_tensor_image_says_what_to_do(fn) -> None:  # noqa: ANN001
    img = paddle.ones([3, 4, 5], dtype="uint8")
    with pytest.raises(TypeError, match=r"paddle.vision.transforms.(to_grayscale|adjust_saturation|adjust_contrast): "
                                        r"a Tensor image must be floating point here, but it is paddle.uint8 .* "
                                        r"img.astype\('float32'\) / 255"):
        fn(img)
