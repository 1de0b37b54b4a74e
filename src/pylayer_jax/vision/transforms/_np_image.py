"""Image kernels for numpy arrays in HWC layout: what Paddle's transforms compute on numpy images.

Paddle hands numpy images to OpenCV (its ``cv2`` backend). OpenCV is not a dependency here, so these kernels
compute the same results with numpy: bilinear resizing of ``uint8`` images with OpenCV's fixed-point
arithmetic (11-bit coefficients, the two-stage rounding of its vectorised vertical pass), of float images with
its float coefficients, nearest-neighbour resizing with its source index rule, border padding with its border
modes, its RGB-to-gray weights (15-bit fixed point for ``uint8``) and its 8-bit HSV conversions (hue over 0..255:
fixed-point division tables one way, float32 the other). ``tests/vision`` compares them with
OpenCV's results recorded through Paddle.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence

import numpy as np

_COEF_BITS = 11
_COEF_SCALE = 1 << _COEF_BITS
_RESIZE_MODES = ("nearest", "bilinear", "area", "bicubic", "lanczos")


def _check_size(size, api: str) -> None:
    if isinstance(size, bool) or not (
        isinstance(size, int) or (isinstance(size, Iterable) and not isinstance(size, str) and len(size) == 2)
    ):
        raise TypeError(f"{api}: size must be an int (the shorter side) or a (height, width) pair; got {size!r}.")


def target_size(h: int, w: int, size) -> tuple[int, int] | None:
    """(out_h, out_w) for Paddle's ``size`` rule: an int sets the shorter side and keeps the aspect ratio (None
    when the shorter side already has that length), a pair is (height, width)."""
    if isinstance(size, int):
        if (w <= h and w == size) or (h <= w and h == size):
            return None
        if w < h:
            return int(size * h / w), size
        return size, int(size * w / h)
    oh, ow = size
    return int(oh), int(ow)


def _linear_taps(dst: int, src: int, clamp: bool):
    """Source index and weight of each destination pixel along one axis (half-pixel centres).

    Along x the position is clamped into the image (weight 0 on the right neighbour); along y it is not: the
    rows are clamped instead and the weights keep their value, as in OpenCV."""
    scale = 1.0 / (dst / src)
    pos = (np.arange(dst, dtype=np.float64) + 0.5) * scale - 0.5
    idx = np.floor(pos).astype(np.int64)
    frac = pos - idx
    if clamp:
        low = idx < 0
        idx[low], frac[low] = 0, 0.0
        high = idx >= src - 1
        idx[high], frac[high] = src - 1, 0.0
    return idx, frac


def _resize_bilinear(img: np.ndarray, oh: int, ow: int) -> np.ndarray:
    h, w = img.shape[:2]
    src = img.reshape(h, w, -1)
    xi, xf = _linear_taps(ow, w, True)
    yi, yf = _linear_taps(oh, h, False)
    x1 = np.minimum(xi + 1, w - 1)
    y0, y1 = np.clip(yi, 0, h - 1), np.clip(yi + 1, 0, h - 1)
    if img.dtype == np.uint8:
        ax = np.rint(np.stack([1.0 - xf, xf]).astype(np.float32) * _COEF_SCALE).astype(np.int64)
        ay = np.rint(np.stack([1.0 - yf, yf]).astype(np.float32) * _COEF_SCALE).astype(np.int64)
        s = src.astype(np.int64)
        rows = s[:, xi, :] * ax[0][None, :, None] + s[:, x1, :] * ax[1][None, :, None]
        # vertical pass: each row sum is shifted right by 4, multiplied by its 16-bit weight keeping the high
        # half, and the two halves are added and rounded by 2 bits
        top = ((rows[y0] >> 4) * ay[0][:, None, None]) >> 16
        bot = ((rows[y1] >> 4) * ay[1][:, None, None]) >> 16
        out = np.clip((top + bot + 2) >> 2, 0, 255).astype(np.uint8)
    else:
        ct = np.float64 if img.dtype == np.float64 else np.float32
        ax = np.stack([1.0 - xf, xf]).astype(ct)
        ay = np.stack([1.0 - yf, yf]).astype(ct)
        s = src.astype(ct)
        rows = s[:, xi, :] * ax[0][None, :, None] + s[:, x1, :] * ax[1][None, :, None]
        out = rows[y0] * ay[0][:, None, None] + rows[y1] * ay[1][:, None, None]
        out = _cast_back(out, img.dtype)
    return out.reshape((oh, ow) + img.shape[2:])


def _cast_back(out: np.ndarray, dtype) -> np.ndarray:
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return np.clip(np.rint(out), info.min, info.max).astype(dtype)
    return out.astype(dtype)


def _resize_nearest(img: np.ndarray, oh: int, ow: int) -> np.ndarray:
    h, w = img.shape[:2]
    yi = np.minimum(np.floor(np.arange(oh) * (1.0 / (oh / h))).astype(np.int64), h - 1)
    xi = np.minimum(np.floor(np.arange(ow) * (1.0 / (ow / w))).astype(np.int64), w - 1)
    return img[yi][:, xi]


def resize(img: np.ndarray, size, interpolation: str = "bilinear") -> np.ndarray:
    _check_size(size, "paddle.vision.transforms.resize")
    if interpolation not in _RESIZE_MODES:
        raise ValueError(
            f"paddle.vision.transforms.resize: interpolation must be one of {list(_RESIZE_MODES)} for numpy images "
            f"(OpenCV's kernels); got {interpolation!r}."
        )
    h, w = img.shape[:2]
    hw = target_size(h, w, size)
    if hw is None:
        return img
    oh, ow = hw
    if oh <= 0 or ow <= 0:
        raise ValueError(f"paddle.vision.transforms.resize: the output size must be positive; got {(oh, ow)}.")
    if interpolation == "nearest":
        return _resize_nearest(img, oh, ow)
    if interpolation == "bilinear":
        return _resize_bilinear(img, oh, ow)
    from . import _cv_resize  # (it builds on this module's helpers)

    return _cv_resize.resize(img, oh, ow, interpolation)


def parse_padding(padding, api: str) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) from Paddle's int / (lr, tb) / (l, t, r, b) padding."""
    if isinstance(padding, bool) or not isinstance(padding, (numbers.Number, list, tuple)):
        raise TypeError(f"{api}: padding must be an int or a list/tuple of 2 or 4 ints; got {padding!r}.")
    if isinstance(padding, Sequence) and len(padding) not in (2, 4):
        raise ValueError(
            f"{api}: padding must be an int or a 2- or 4-element sequence; got a {len(padding)}-element one."
        )
    if isinstance(padding, numbers.Number):
        p = int(padding)
        return p, p, p, p
    if len(padding) == 2:
        return int(padding[0]), int(padding[1]), int(padding[0]), int(padding[1])
    return tuple(int(p) for p in padding)


_PAD_MODES = {"constant": "constant", "edge": "edge", "reflect": "reflect", "symmetric": "symmetric"}


def check_pad_args(fill, padding_mode, api: str) -> None:
    if not isinstance(fill, (numbers.Number, str, list, tuple)):
        raise TypeError(f"{api}: fill must be a number or a per-channel list/tuple; got {type(fill).__name__}.")
    if not isinstance(padding_mode, str) or padding_mode not in _PAD_MODES:
        raise ValueError(
            f"{api}: padding_mode must be one of {list(_PAD_MODES)}; got {padding_mode!r}."
        )


def pad(img: np.ndarray, padding, fill=0, padding_mode: str = "constant") -> np.ndarray:
    api = "paddle.vision.transforms.pad"
    left, top, right, bottom = parse_padding(padding, api)
    check_pad_args(fill, padding_mode, api)
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
    if padding_mode != "constant":
        return np.pad(img, widths, mode=_PAD_MODES[padding_mode])
    out = np.pad(img, widths, mode="constant")
    # OpenCV's border value is a 4-vector: a number fills the first channel only, a sequence channel by channel
    values = [fill] if isinstance(fill, numbers.Number) else list(fill)
    channels = 1 if img.ndim == 2 else img.shape[2]
    per_channel = np.array([values[c] if c < min(len(values), 4) else 0 for c in range(channels)], np.float64)
    mask = np.ones(out.shape[:2], bool)
    mask[top : top + img.shape[0], left : left + img.shape[1]] = False
    fillv = _cast_back(per_channel, img.dtype)
    if img.ndim == 2:
        out[mask] = fillv[0]
    else:
        out[mask] = fillv
    return out


def center_box(h: int, w: int, output_size) -> tuple[int, int, int, int]:
    """(top, left, height, width) of the centred box of ``output_size`` (an int for a square)."""
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    th, tw = output_size
    return int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw


def hflip(img: np.ndarray) -> np.ndarray:
    out = img[:, ::-1]
    # OpenCV returns a single-channel HxWx1 image as HxW, and Paddle's hflip does not add the axis back
    return np.ascontiguousarray(out[:, :, 0] if out.ndim == 3 and out.shape[2] == 1 else out)


def vflip(img: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(img[::-1])


def _lut(img: np.ndarray, table: np.ndarray) -> np.ndarray:
    return table[img]


def adjust_brightness(img: np.ndarray, factor: float) -> np.ndarray:
    table = np.array([i * factor for i in range(256)]).clip(0, 255).astype(np.uint8)
    return _lut(img.astype(np.uint8), table)


def adjust_contrast(img: np.ndarray, factor: float) -> np.ndarray:
    # Paddle's numpy contrast pivots on the fixed gray level 74, not on the image's mean
    table = np.array([(i - 74) * factor + 74 for i in range(256)]).clip(0, 255).astype(np.uint8)
    return _lut(img.astype(np.uint8), table)


_GRAY_FIXED = (9798, 19235, 3735)  # 0.299, 0.587, 0.114 in 15-bit fixed point
_GRAY_FLOAT = (0.299, 0.587, 0.114)


def _gray(img: np.ndarray, order: str) -> np.ndarray:
    """One channel from three (R, G, B weighted 0.299, 0.587, 0.114; ``order`` names the channels' colours):
    15-bit fixed-point weights for uint8, float weights otherwise."""
    idx = (0, 1, 2) if order == "rgb" else (2, 1, 0)
    if img.dtype == np.uint8:
        s = img.astype(np.int64)
        acc = sum(s[..., i] * wt for i, wt in zip(idx, _GRAY_FIXED))
        return ((acc + (1 << 14)) >> 15).astype(np.uint8)
    ct = np.float64 if img.dtype == np.float64 else np.float32
    s = img.astype(ct)
    acc = s[..., idx[0]] * ct(_GRAY_FLOAT[0]) + s[..., idx[1]] * ct(_GRAY_FLOAT[1]) + s[..., idx[2]] * ct(_GRAY_FLOAT[2])
    return _cast_back(acc, img.dtype)


def to_grayscale(img: np.ndarray, num_output_channels: int = 1) -> np.ndarray:
    if num_output_channels not in (1, 3):
        raise ValueError(
            f"paddle.vision.transforms.to_grayscale: num_output_channels must be 1 or 3; got {num_output_channels}."
        )
    if img.ndim != 3 or img.shape[2] not in (3, 4):
        raise ValueError(
            f"paddle.vision.transforms.to_grayscale: a numpy image must be HxWx3 (RGB) or HxWx4; got shape "
            f"{img.shape}."
        )
    g = _gray(img[..., :3], "rgb")[:, :, None]
    if num_output_channels == 1:
        return g
    return np.broadcast_to(g, img.shape)


def adjust_saturation(img: np.ndarray, factor: float) -> np.ndarray:
    dtype = img.dtype
    f = img.astype(np.float32)
    # Paddle draws the blend weight again here, from numpy's global generator
    alpha = np.random.uniform(max(0, 1 - factor), 1 + factor)
    gray = _gray(f, "bgr")[..., None]
    return (f * alpha + gray * (1 - alpha)).clip(0, 255).astype(dtype)


_SDIV = np.array([0] + [round((255 << 12) / i) for i in range(1, 256)], np.int64)
_HDIV = np.array([0] + [round((256 << 12) / (6.0 * i)) for i in range(1, 256)], np.int64)
_SECTORS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


def _to_hsv_full(img: np.ndarray) -> np.ndarray:
    """uint8 HSV with hue over 0..255 (OpenCV's 12-bit fixed-point division tables); channel 0 is read as blue,
    channel 2 as red, as Paddle's call passes them."""
    x = img.astype(np.int64)
    b, g, r = x[..., 0], x[..., 1], x[..., 2]
    v = np.maximum(np.maximum(r, g), b)
    diff = v - np.minimum(np.minimum(r, g), b)
    sat = (diff * _SDIV[v] + (1 << 11)) >> 12
    h = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    h = (h * _HDIV[diff] + (1 << 11)) >> 12
    h = np.where(h < 0, h + 256, h)
    return np.stack([h, sat, v], axis=-1).astype(np.uint8)


def _from_hsv_full(hsv: np.ndarray) -> np.ndarray:
    """Back to three uint8 channels (blue, green, red order), computed in float32 with the hue read over 0..255
    as OpenCV does for 8-bit data."""
    f32 = np.float32
    h = hsv[..., 0].astype(f32) * f32(6.0 / 255)
    s = hsv[..., 1].astype(f32) * f32(1 / 255.0)
    v = hsv[..., 2].astype(f32) * f32(1 / 255.0)
    sector = np.floor(h).astype(np.int64)
    f = (h - sector).astype(f32)
    tab = np.stack([v, v * (f32(1) - s), v * (f32(1) - s * f), v * (f32(1) - s * (f32(1) - f))], axis=-1)
    out = np.take_along_axis(tab, _SECTORS[sector % 6], axis=-1)
    out = np.where((s == 0)[..., None], v[..., None], out)
    return np.clip(np.rint(out * f32(255)), 0, 255).astype(np.uint8)


def adjust_hue(img: np.ndarray, factor: float) -> np.ndarray:
    if not -0.5 <= factor <= 0.5:
        raise ValueError(f"paddle.vision.transforms.adjust_hue: hue_factor must be in [-0.5, 0.5]; got {factor}.")
    if img.ndim != 3 or img.shape[2] != 3:
        raise ValueError(f"paddle.vision.transforms.adjust_hue: a numpy image must be HxWx3; got shape {img.shape}.")
    dtype = img.dtype
    hsv = _to_hsv_full(img.astype(np.uint8))
    hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(factor * 255)) % 256).astype(np.uint8)
    return _from_hsv_full(hsv).astype(dtype)


def normalize(img: np.ndarray, mean, std, data_format: str = "CHW", to_rgb: bool = False) -> np.ndarray:
    shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
    m = np.float32(np.array(mean).reshape(shape))
    s = np.float32(np.array(std).reshape(shape))
    if to_rgb:
        img = img[..., ::-1]
    return (img - m) / s


def erase(img: np.ndarray, i: int, j: int, h: int, w: int, v, inplace: bool = False) -> np.ndarray:
    if not inplace:
        img = img.copy()
    img[i : i + h, j : j + w, ...] = v
    return img


