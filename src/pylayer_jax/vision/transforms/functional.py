"""``paddle.vision.transforms.functional``: image operations on numpy HWC arrays, Tensor CHW images and (when
Pillow is installed) PIL images.

Each function looks at its input's kind and runs the kernel for it: numpy arrays get the results Paddle's
OpenCV backend gives (computed here with numpy, see ``_np_image``, ``_cv_resize`` and ``_cv_warp``), Tensors the
results of Paddle's tensor backend, PIL images Pillow's own. Paddle needs OpenCV installed for most numpy operations; here none is needed.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from ..._tensor.facade import Tensor
from ..._tensor.facade import to_tensor as _to_tensor
from . import _cv_warp as _cvw
from . import _np_image as _np
from . import _pil_image as _pil
from . import _tensor_image as _t

__all__ = [
    "to_tensor", "resize", "pad", "crop", "center_crop", "hflip", "vflip", "adjust_brightness", "adjust_contrast",
    "adjust_saturation", "adjust_hue", "to_grayscale", "normalize", "erase", "affine", "rotate", "perspective",
]


def _is_pil_image(img) -> bool:
    return _pil.is_pil_image(img)


def _is_tensor_image(img) -> bool:
    return isinstance(img, Tensor)


def _is_numpy_image(img) -> bool:
    return isinstance(img, np.ndarray) and img.ndim in (2, 3)


def _kind(img, api: str) -> str:
    if _is_pil_image(img):
        return "pil"
    if _is_tensor_image(img):
        return "tensor"
    if _is_numpy_image(img):
        return "numpy"
    extra = f" with {img.ndim} dims" if isinstance(img, np.ndarray) else ""
    raise TypeError(
        f"paddle.vision.transforms.{api}: img must be a PIL image, a Tensor image (CHW) or a numpy array with 2 or "
        f"3 dims (HWC); got {type(img).__name__}{extra}."
    )


def _route(api: str, img: Any, *args: Any) -> Any:
    """``api`` of the image's own kind: the PIL, Tensor or numpy module's function of that name."""
    kind = _kind(img, api)
    return getattr(_pil if kind == "pil" else _t if kind == "tensor" else _np, api)(img, *args)


def to_tensor(pic, data_format: str = "CHW") -> Tensor:
    """A numpy HWC array or PIL image as a Tensor (CHW by default); uint8 data is scaled to [0, 1] float32,
    other dtypes keep their values. A 2-D array gains a channel axis of 1."""
    kind = _kind(pic, "to_tensor")
    if kind == "tensor":
        return _t.to_tensor(pic, data_format)
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"paddle.vision.transforms.to_tensor: data_format must be 'CHW' or 'HWC'; got "
                         f"{data_format!r}.")
    if kind == "pil":
        return _pil.to_tensor(pic, data_format)
    arr = pic[:, :, None] if pic.ndim == 2 else pic
    img = _to_tensor(arr.transpose((2, 0, 1)) if data_format == "CHW" else arr)
    if arr.dtype == np.uint8:
        return img.astype("float32") / 255.0
    return img


def resize(img, size, interpolation: str = "bilinear"):
    """Resize to ``size``: (height, width), or an int for the shorter side (aspect ratio kept). numpy images take
    OpenCV's 'nearest', 'bilinear', 'area', 'bicubic' and 'lanczos'; Tensors the modes of
    ``nn.functional.interpolate``; PIL images Pillow's filters."""
    return _route("resize", img, size, interpolation)


def pad(img, padding, fill=0, padding_mode: str = "constant"):
    """Pad each border: ``padding`` is an int, (left/right, top/bottom) or (left, top, right, bottom);
    ``padding_mode`` one of constant, edge, reflect, symmetric."""
    return _route("pad", img, padding, fill, padding_mode)


def crop(img, top: int, left: int, height: int, width: int):
    """The box of ``height`` x ``width`` whose top-left corner is (top, left)."""
    kind = _kind(img, "crop")
    if kind == "pil":
        return _pil.crop(img, top, left, height, width)
    if kind == "tensor":
        return _t.crop(img, top, left, height, width)
    return img[top : top + height, left : left + width]


def center_crop(img, output_size):
    """The centred box of ``output_size`` ((height, width) or an int for a square)."""
    kind = _kind(img, "center_crop")
    if kind == "pil":
        return _pil.center_crop(img, output_size)
    if kind == "tensor":
        return _t.center_crop(img, output_size)
    top, left, th, tw = _np.center_box(img.shape[0], img.shape[1], output_size)
    return img[top : top + th, left : left + tw]


def hflip(img):
    """Mirror left to right."""
    return _route("hflip", img)


def vflip(img):
    """Mirror top to bottom."""
    return _route("vflip", img)


def adjust_brightness(img, brightness_factor: float):
    """Scale the brightness: 0 gives black, 1 the image, 2 twice as bright (clipped)."""
    return _route("adjust_brightness", img, brightness_factor)


def adjust_contrast(img, contrast_factor: float):
    """Scale the contrast: 0 gives a solid gray image, 1 the image, 2 twice the contrast."""
    return _route("adjust_contrast", img, contrast_factor)


def adjust_saturation(img, saturation_factor: float):
    """Scale the colour saturation: 0 gives a gray image, 1 the image. For numpy images Paddle draws the blend
    weight from ``np.random`` in [max(0, 1 - factor), 1 + factor] (as it does here)."""
    return _route("adjust_saturation", img, saturation_factor)


def adjust_hue(img, hue_factor: float):
    """Shift the hue by ``hue_factor`` in [-0.5, 0.5] (a numpy image goes through 8-bit HSV with the hue over
    0..255, as Paddle's OpenCV call does)."""
    return _route("adjust_hue", img, hue_factor)


def to_grayscale(img, num_output_channels: int = 1):
    """Gray image with 1 channel, or 3 equal ones."""
    return _route("to_grayscale", img, num_output_channels)


def normalize(img, mean, std, data_format: str = "CHW", to_rgb: bool = False):
    """``(img - mean) / std`` per channel; ``data_format`` says where the channels are. numpy and PIL images
    become float32 arrays (``to_rgb`` reverses their channel order first)."""
    if _is_tensor_image(img):
        return _t.normalize(img, mean, std, data_format)
    if _is_pil_image(img):
        img = np.array(img).astype(np.float32)
    if not isinstance(img, np.ndarray):
        raise TypeError(f"paddle.vision.transforms.normalize: img must be a Tensor, numpy array or PIL image; got "
                        f"{type(img).__name__}.")
    return _np.normalize(img, mean, std, data_format, to_rgb)


def erase(img, i: int, j: int, h: int, w: int, v, inplace: bool = False):
    """The box at (i, j) of h x w set to ``v``."""
    if _is_tensor_image(img):
        return _t.erase(img, i, j, h, w, v, inplace=inplace)
    if _is_pil_image(img):
        return _pil.erase(img, i, j, h, w, v, inplace=inplace)
    return _np.erase(img, i, j, h, w, v, inplace=inplace)


def _get_affine_matrix(center, angle: float, translate, scale: float, shear) -> list[float]:
    """The inverse of the affine map (rotation by ``angle`` degrees about ``center``, ``scale``, ``shear`` degrees
    along x and y, then ``translate``) as 6 numbers: the output-to-input pixel map PIL and the Tensor kernel use."""
    rot = math.radians(angle)
    sx, sy = math.radians(shear[0]), math.radians(shear[1])
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    cx, cy = center
    tx, ty = translate
    m = [v / scale for v in (d, -b, 0.0, -c, a, 0.0)]
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty)
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty)
    m[2] += cx
    m[5] += cy
    return m


def _affine_args(img, angle, translate, scale, shear, interpolation, center):
    api = "paddle.vision.transforms.affine"
    _kind(img, "affine")
    if isinstance(angle, bool) or not isinstance(angle, (int, float)):
        raise TypeError(f"{api}: angle must be an int or a float (degrees); got {type(angle).__name__}.")
    if not isinstance(translate, (list, tuple)):
        raise TypeError(f"{api}: translate must be a sequence (dx, dy); got {type(translate).__name__}.")
    if len(translate) != 2:
        raise ValueError(f"{api}: translate must hold 2 values (dx, dy); got {len(translate)}.")
    if scale <= 0.0:
        raise ValueError(f"{api}: scale must be positive; got {scale}.")
    if not isinstance(shear, (numbers.Number, list, tuple)):
        raise TypeError(f"{api}: shear must be a number or a sequence of 1 or 2 numbers (degrees); got "
                        f"{type(shear).__name__}.")
    if not isinstance(interpolation, str):
        raise TypeError(f"{api}: interpolation must be a string such as 'nearest' or 'bilinear'; got "
                        f"{type(interpolation).__name__}.")
    shear = [shear, 0.0] if isinstance(shear, numbers.Number) else list(shear)
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"{api}: shear must hold 1 or 2 values (x, y); got {shear}.")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError(f"{api}: center must be a sequence (x, y) or None; got {type(center).__name__}.")
    return float(angle), list(translate), shear


def affine(img, angle: float, translate, scale: float, shear, interpolation: str = "nearest", fill=0, center=None):
    """Rotate by ``angle`` degrees (counter-clockwise) about ``center`` (default: the image centre), scale by
    ``scale``, shear by ``shear`` degrees (a number: along x; two numbers: x and y), and shift by ``translate``
    pixels; uncovered pixels take ``fill``. numpy images follow Paddle's OpenCV call (whose translation replaces
    the rotation's offset, so it turns about the top-left corner), PIL images Pillow's, Tensors Paddle's grid."""
    angle, translate, shear = _affine_args(img, angle, translate, scale, shear, interpolation, center)
    kind = _kind(img, "affine")
    if kind == "pil":
        width, height = img.size
        if center is None:
            center = [width * 0.5, height * 0.5]
        return _pil.affine(img, _get_affine_matrix(center, angle, translate, scale, shear), interpolation, fill)
    if kind == "numpy":
        # Paddle reads the array's (rows, cols) as (width, height) here: the default centre is (rows/2, cols/2)
        width, height = img.shape[0:2]
        if center is None:
            center = (width * 0.5, height * 0.5)
        return _cvw.affine(img, angle, translate, scale, shear, interpolation, fill, center)
    center_f = [0.0, 0.0]
    if center is not None:
        # as in Paddle: the centre is taken relative to (shape[-2] / 2, shape[-1] / 2)
        height, width = img.shape[-1], img.shape[-2]
        center_f = [1.0 * (c - s * 0.5) for c, s in zip(center, [width, height])]
    matrix = _get_affine_matrix(center_f, angle, [1.0 * t for t in translate], scale, shear)
    return _t.affine(img, matrix, interpolation, fill)


def rotate(img, angle: float, interpolation: str = "nearest", expand: bool = False, center=None, fill=0):
    """Rotate counter-clockwise by ``angle`` degrees about ``center`` (default: the image centre); ``expand``
    enlarges the output to hold the whole rotated image; uncovered pixels take ``fill``."""
    kind = _kind(img, "rotate")
    if isinstance(center, list):
        center = tuple(center)
    if isinstance(fill, list):
        fill = tuple(fill)
    if kind == "pil":
        return _pil.rotate(img, angle, interpolation, expand, center, fill)
    if kind == "tensor":
        return _t.rotate(img, angle, interpolation, expand, center, fill)
    return _cvw.rotate(img, angle, interpolation, expand, center, fill)


def _get_perspective_coeffs(startpoints, endpoints) -> list[float]:
    """The 8 coefficients (a, b, c, d, e, f, g, h) of the perspective map taking ``endpoints`` to ``startpoints``
    (x' = (a x + b y + c) / (g x + h y + 1), y' = (d x + e y + f) / (g x + h y + 1)), by least squares."""
    a = np.zeros((2 * len(startpoints), 8))
    for i, (p1, p2) in enumerate(zip(endpoints, startpoints)):
        a[2 * i] = [p1[0], p1[1], 1, 0, 0, 0, -p2[0] * p1[0], -p2[0] * p1[1]]
        a[2 * i + 1] = [0, 0, 0, p1[0], p1[1], 1, -p2[1] * p1[0], -p2[1] * p1[1]]
    b = np.array(startpoints).reshape([8])
    return list(np.linalg.lstsq(a, b, rcond=None)[0])


def _check_points(points, name: str) -> None:
    arr = np.asarray(points)
    if arr.shape != (4, 2):
        raise ValueError(f"paddle.vision.transforms.perspective: {name} must be 4 points [[x, y], ...] (top-left, "
                         f"top-right, bottom-right, bottom-left); got shape {list(arr.shape)}.")


def perspective(img, startpoints, endpoints, interpolation: str = "nearest", fill=0):
    """Warp so that the 4 ``startpoints`` (top-left, top-right, bottom-right, bottom-left) land on ``endpoints``;
    uncovered pixels take ``fill``."""
    kind = _kind(img, "perspective")
    _check_points(startpoints, "startpoints")
    _check_points(endpoints, "endpoints")
    if kind == "numpy":
        return _cvw.perspective(img, startpoints, endpoints, interpolation, fill)
    coeffs = _get_perspective_coeffs(startpoints, endpoints)
    if kind == "pil":
        return _pil.perspective(img, coeffs, interpolation, fill)
    return _t.perspective(img, coeffs, interpolation, fill)
