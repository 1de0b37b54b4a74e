"""Cases found by the whole programs ``tests/programs/p83_vision_transforms.py`` and ``p84_vision_ops.py``, written
as Paddle code: ``record(paddle)`` runs them with the given library and returns what they give.
``record_paddle_program_diffs_ae.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_ae.json``;
``test_program_diffs_ae.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _v


def _image(paddle: Any, h: int = 10, w: int = 13, seed: int = 0) -> Any:
    return paddle.to_tensor(np.random.default_rng(seed).integers(0, 256, size=(3, h, w), dtype=np.uint8))


def perspective_tensor(paddle: Any, out: dict[str, Any]) -> None:
    """``transforms.perspective`` of a CHW Tensor (p83): Paddle scales the map by the image's half size with a float32
    division; a multiply by the reciprocal, an ulp off, moved a nearest sample on a pixel's edge outside the image."""
    tf = paddle.vision.transforms.functional
    img = _image(paddle).astype("float32") / 255.0
    sp, ep = [[0, 0], [12, 0], [12, 9], [0, 9]], [[1, 0], [11, 2], [12, 9], [0, 7]]
    out["persp_nearest"] = _v(tf.perspective(img, sp, ep))
    out["persp_bilinear"] = _v(tf.perspective(img, sp, ep, interpolation="bilinear", fill=[0.5, 0.5, 0.5]))
    out["persp_other"] = _v(tf.perspective(img, sp, [[0, 1], [12, 0], [10, 8], [2, 9]]))


def rotate_affine_tensor(paddle: Any, out: dict[str, Any]) -> None:
    """``transforms.rotate``/``affine`` of a CHW Tensor (p83's RandomRotation): the same float32 division of the map
    by the image's half size as perspective's; one nearest sample of an expanded rotation differed."""
    tf = paddle.vision.transforms.functional
    img = paddle.to_tensor(np.random.default_rng(0).integers(0, 256, size=(10, 13, 3), dtype=np.uint8)
                           .transpose(2, 0, 1).astype("float32") / 255.0)
    out["rotate_expand_center"] = _v(tf.rotate(img, 37.90578345674649, expand=True, center=(3, 3)))
    out["rotate_plain"] = [_v(tf.rotate(img, a)) for a in (-19.21314862466587, 90.0, 33.3)]
    out["affine"] = [_v(tf.affine(img, 23.0, (1, -2), 0.9, (4.0, 2.0))),
                     _v(tf.affine(img, -41.0, (0, 1), 1.15, 0.0, interpolation="bilinear", center=(2, 7)))]


def interpolate_uint8(paddle: Any, out: dict[str, Any]) -> None:
    """``F.interpolate`` of uint8 images in the linear modes (p83's ``Resize`` of a uint8 CHW Tensor): Paddle's
    kernel weighs each corner in float32 and truncates; the weights were cast to uint8 (all zeros). Not mirrored:
    Paddle 3.3.1's 1-D ``linear`` mode on uint8 takes the lower neighbour only (its weights truncated); pylayer_jax
    interpolates in float32 and truncates, as the 2-D and 3-D modes do (test_program_diffs_ae checks it)."""
    f = paddle.nn.functional
    x = paddle.to_tensor(np.random.default_rng(1).integers(0, 256, size=(2, 3, 9, 11), dtype=np.uint8))
    for ac in (False, True):
        for am in (0, 1):
            out[f"bilinear_{ac}_{am}"] = _v(f.interpolate(x, size=(13, 7), mode="bilinear", align_corners=ac,
                                                          align_mode=am))
    out["bilinear_down"] = _v(f.interpolate(x, size=(4, 5), mode="bilinear"))
    out["bilinear_scale"] = _v(f.interpolate(x, scale_factor=1.5, mode="bilinear"))
    out["bilinear_nhwc"] = _v(f.interpolate(x.transpose([0, 2, 3, 1]), size=(6, 8), mode="bilinear",
                                            data_format="NHWC"))
    out["bilinear_one_row"] = _v(f.interpolate(x, size=(1, 5), mode="bilinear"))
    x3 = paddle.to_tensor(np.random.default_rng(2).integers(0, 256, size=(1, 2, 3, 5, 6), dtype=np.uint8))
    for ac in (False, True):
        out[f"trilinear_{ac}"] = _v(f.interpolate(x3, size=(4, 7, 9), mode="trilinear", align_corners=ac))
    out["nearest_u8"] = _v(f.interpolate(x, size=(5, 6), mode="nearest"))
    tr = paddle.vision.transforms
    out["Resize_u8"] = [_v(tr.Resize((7, 17))(_image(paddle))), _v(tr.functional.resize(_image(paddle), 8)),
                        str(tr.Resize(6)(_image(paddle)).dtype)]


def hue_uint8(paddle: Any, out: dict[str, Any]) -> None:
    """``adjust_hue`` of a uint8 CHW Tensor (p83's image): Paddle scales it by a true float32 division by 255 (and
    divides the hue by 6 so); a multiply by the reciprocal moved a level of one pixel in eight after the truncation to
    uint8. (Paddle's own division of the saturation is an ulp off IEEE's now and then, a level off in about 0.2% of
    pixels of other images: this one has none.)"""
    tf = paddle.vision.transforms.functional
    img = paddle.to_tensor(np.random.default_rng(0).integers(0, 256, size=(10, 13, 3), dtype=np.uint8).transpose(2, 0, 1))
    out["hue_u8"] = [_v(tf.adjust_hue(img, f)) for f in (0.2, 0.45, -0.3, 0.1)]


CASES = [perspective_tensor, rotate_affine_tensor, interpolate_uint8, hue_uint8]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
