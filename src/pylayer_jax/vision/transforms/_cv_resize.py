"""OpenCV's ``resize`` with INTER_AREA, INTER_CUBIC and INTER_LANCZOS4 for numpy images, reimplemented with numpy:
what Paddle's cv2 backend computes for ``resize(img, size, 'area' | 'bicubic' | 'lanczos')``.

The resize is separable: a horizontal pass (kernel taps clamped into the row) then a vertical one (rows clamped).
uint8 images use 11-bit fixed-point weights for the Lanczos and linear kernels (integer sums horizontally, a
rounded fixed-point combination vertically) and float32 for the cubic one when both sides have at least 4 pixels
(fixed point below that), as the other dtypes do (float64 for float64 images). Shrinking by INTER_AREA
averages each output pixel's box of source pixels (with fractional weights at its edges when the factor is not an
integer); enlarging by it interpolates linearly with weights that keep source pixels' edges sharp.
"""

from __future__ import annotations

import numpy as np

from ._cv_warp import _taps_1d
from ._np_image import _cast_back

_COEF_BITS = 11
_COEF_SCALE = 1 << _COEF_BITS


def _axis_taps(dst: int, src: int, ksize: int, area: bool, clamp: bool) -> tuple[np.ndarray, np.ndarray]:
    """([dst, ksize] source indices clamped into [0, src), [dst, ksize] float32 weights) along one axis.

    ``clamp`` (the horizontal axis of the 2-tap kernel): a position before the first or past the last pixel takes
    that pixel with weight 1; along the other axis, and for longer kernels, only the indices are clamped."""
    inv = dst / src
    scale = 1.0 / inv
    d = np.arange(dst, dtype=np.float64)
    if area:
        s = np.floor(d * scale).astype(np.int64)
        f = ((d + 1) - (s + 1) * inv).astype(np.float32)
        f = np.where(f <= 0, np.float32(0), f - np.floor(f)).astype(np.float32)
    else:
        f = ((d + 0.5) * scale - 0.5).astype(np.float32)
        s = np.floor(f).astype(np.int64)
        f = (f - s.astype(np.float32)).astype(np.float32)
    if clamp and ksize == 2:
        low = s < 0
        s[low], f[low] = 0, 0
        high = s >= src - 1
        s[high], f[high] = src - 1, 0
    idx = np.clip(s[:, None] + np.arange(ksize) - (ksize // 2 - 1), 0, src - 1)
    return idx, _taps_1d(ksize, f)


def _fixed(w: np.ndarray) -> np.ndarray:
    return np.rint(w.astype(np.float32) * np.float32(_COEF_SCALE)).astype(np.int64)


def _vertical_u8(rows: list[np.ndarray], beta: np.ndarray) -> np.ndarray:
    """Combine integer row sums ([oh, width] each) with fixed-point weights ``beta`` ([oh, k]): for 2 taps, each
    row sum shifted right by 4 and multiplied keeping the high 16 bits, the halves added and rounded by 2 bits
    (OpenCV's vectorised linear pass); for more taps, the 22-bit fixed-point sum rounded."""
    if len(rows) == 4:
        # the cubic pass: a float32 sum S0*b0 + (S1*b1 + (S2*b2 + S3*b3)) of the weights over 2**22, rounded to even
        f = np.float32
        b = (beta.astype(f) * f(1.0 / (_COEF_SCALE * _COEF_SCALE))).astype(f)
        r = [x.astype(f) for x in rows]
        v = r[0] * b[:, 0, None] + (r[1] * b[:, 1, None] + (r[2] * b[:, 2, None] + r[3] * b[:, 3, None]))
        return np.clip(np.rint(v), 0, 255).astype(np.int64)
    if len(rows) == 2:
        top = ((rows[0] >> 4) * beta[:, 0, None]) >> 16
        bot = ((rows[1] >> 4) * beta[:, 1, None]) >> 16
        return np.clip((top + bot + 2) >> 2, 0, 255)
    acc = sum(r * beta[:, k, None] for k, r in enumerate(rows))
    return np.clip((acc + (1 << (2 * _COEF_BITS - 1))) >> (2 * _COEF_BITS), 0, 255)


def _resize_kernel(img: np.ndarray, oh: int, ow: int, ksize: int, area: bool) -> np.ndarray:
    h, w = img.shape[:2]
    src = img.reshape(h, w, -1)
    cn = src.shape[2]
    xi, xw = _axis_taps(ow, w, ksize, area, True)
    yi, yw = _axis_taps(oh, h, ksize, area, False)
    # OpenCV 4.12 resizes uint8 images with the cubic kernel in float32 once both sides have 4 pixels or more
    if img.dtype == np.uint8 and (ksize != 4 or min(h, w) < 4):
        s = src.astype(np.int64)
        ax, ay = _fixed(xw), _fixed(yw)
        hrow = sum(s[:, xi[:, k], :] * ax[None, :, k, None] for k in range(ksize)).reshape(h, ow * cn)
        out = _vertical_u8([hrow[yi[:, k]] for k in range(ksize)], ay).astype(np.uint8)
    else:
        ct = np.float64 if img.dtype == np.float64 else np.float32
        s = src.astype(ct)
        hrow = np.zeros((h, ow, cn), ct)
        for k in range(ksize):
            hrow = hrow + s[:, xi[:, k], :] * xw[None, :, k, None].astype(ct)
        acc = np.zeros((oh, ow, cn), ct)
        for k in range(ksize):
            acc = acc + hrow[yi[:, k]] * yw[:, k, None, None].astype(ct)
        out = _cast_back(acc, img.dtype)
    return out.reshape((oh, ow) + img.shape[2:])


def _area_table(dst: int, src: int, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """([dst, n] source indices, [dst, n] float32 weights; padding has weight 0) of each output pixel's box of
    ``scale`` source pixels, in OpenCV's order (partial first pixel, whole ones, partial last)."""
    rows: list[list[tuple[int, float]]] = []
    for dx in range(dst):
        f1 = dx * scale
        f2 = f1 + scale
        cell = min(scale, src - f1)
        s1, s2 = int(np.ceil(f1)), int(np.floor(f2))
        s2 = min(s2, src - 1)
        s1 = min(s1, s2)
        terms = []
        if s1 - f1 > 1e-3:
            terms.append((s1 - 1, (s1 - f1) / cell))
        terms.extend((sx, 1.0 / cell) for sx in range(s1, s2))
        if f2 - s2 > 1e-3:
            terms.append((s2, min(min(f2 - s2, 1.0), cell) / cell))
        rows.append(terms)
    n = max(len(t) for t in rows)
    idx = np.zeros((dst, n), np.int64)
    wts = np.zeros((dst, n), np.float32)
    for i, terms in enumerate(rows):
        for j, (sx, a) in enumerate(terms):
            idx[i, j], wts[i, j] = sx, np.float32(a)
    return idx, wts


def _resize_area_fast(img: np.ndarray, oh: int, ow: int, sy: int, sx: int) -> np.ndarray:
    """Shrink by the integer factors (sy, sx): the mean of each box (partial boxes at the far edges)."""
    h, w = img.shape[:2]
    src = img.reshape(h, w, -1)
    wide = np.float64 if img.dtype == np.float64 else np.float32
    acc = np.zeros((oh, ow, src.shape[2]), np.int64 if img.dtype == np.uint8 else wide)
    count = np.zeros((oh, ow, 1), np.int64)
    for i in range(sy):
        for j in range(sx):
            yy, xx = np.arange(oh) * sy + i, np.arange(ow) * sx + j
            ok = (yy < h)[:, None, None] & (xx < w)[None, :, None]
            v = src[np.minimum(yy, h - 1)][:, np.minimum(xx, w - 1)]
            acc = acc + np.where(ok, v, 0).astype(acc.dtype)
            count = count + ok
    full = count == sy * sx
    if img.dtype == np.uint8 and sy == sx == 2:
        mean = np.where(full, (acc + 2) >> 2, np.rint(acc.astype(np.float32) / count.astype(np.float32)))
    else:
        scale = np.float32(1.0 / (sy * sx))
        mean = np.where(full, acc.astype(wide) * scale.astype(wide),
                        acc.astype(np.float32) / np.maximum(count, 1).astype(np.float32))
    return _cast_back(mean, img.dtype).reshape((oh, ow) + img.shape[2:])


def _resize_area(img: np.ndarray, oh: int, ow: int) -> np.ndarray:
    h, w = img.shape[:2]
    sy, sx = 1.0 / (oh / h), 1.0 / (ow / w)
    isy, isx = int(round(sy)), int(round(sx))
    eps = np.finfo(np.float64).eps
    if abs(sx - isx) < eps and abs(sy - isy) < eps:
        return _resize_area_fast(img, oh, ow, isy, isx)
    src = img.reshape(h, w, -1)
    ct = np.float64 if img.dtype == np.float64 else np.float32
    xi, xw = _area_table(ow, w, sx)
    yi, yw = _area_table(oh, h, sy)
    s = src.astype(ct)
    rows = np.zeros((h, ow, src.shape[2]), ct)
    for j in range(xi.shape[1]):
        rows = rows + s[:, xi[:, j], :] * xw[None, :, j, None].astype(ct)
    acc = np.zeros((oh, ow, src.shape[2]), ct)
    for j in range(yi.shape[1]):
        acc = acc + yw[:, j, None, None].astype(ct) * rows[yi[:, j]]
    return _cast_back(acc, img.dtype).reshape((oh, ow) + img.shape[2:])


def resize(img: np.ndarray, oh: int, ow: int, interpolation: str) -> np.ndarray:
    """``img`` resized to (oh, ow) by 'area', 'bicubic' or 'lanczos' as OpenCV does."""
    h, w = img.shape[:2]
    if interpolation == "area":
        if oh <= h and ow <= w:
            return _resize_area(img, oh, ow)
        return _resize_kernel(img, oh, ow, 2, True)
    return _resize_kernel(img, oh, ow, 4 if interpolation == "bicubic" else 8, False)
