"""OpenCV's geometric warps for numpy images, reimplemented with numpy: what Paddle's cv2 backend computes for
``affine``, ``rotate`` and ``perspective`` (``warpAffine`` / ``warpPerspective`` with ``getRotationMatrix2D`` /
``getPerspectiveTransform``).

The inverse map is evaluated in fixed point (10 fractional bits for affine maps, a rounded division for
perspective ones) and quantised to 1/32 pixel; the kernel weights are products of two 32-entry tables per axis
(linear, cubic with a = -0.75, Lanczos-4), in 15-bit fixed point for uint8 images (their sum adjusted to exactly 1)
and float for the others; kernel taps outside the image take the border value, and a position whose whole kernel
lies outside is the border value. ``tests/vision`` compares the results with OpenCV's recorded through Paddle.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._np_image import _cast_back

_TAB_BITS = 5
_TAB_SIZE = 1 << _TAB_BITS
_REMAP_BITS = 15
_AB_BITS = 10
_WARP_MODES = {"nearest": 0, "bilinear": 2, "area": 2, "bicubic": 4, "lanczos": 8}


def _cubic_coeffs(x: np.ndarray) -> np.ndarray:
    """OpenCV's 4 cubic weights (a = -0.75) for fractional offsets ``x`` (float32 arithmetic)."""
    f = np.float32
    x = x.astype(f)
    a = f(-0.75)
    x1 = x + f(1)
    c0 = ((a * x1 - f(5) * a) * x1 + f(8) * a) * x1 - f(4) * a
    c1 = ((a + f(2)) * x - (a + f(3))) * x * x + f(1)
    y = f(1) - x
    c2 = ((a + f(2)) * y - (a + f(3))) * y * y + f(1)
    c3 = f(1) - c0 - c1 - c2
    return np.stack([c0, c1, c2, c3], axis=-1).astype(f)


_S45 = 0.70710678118654752440084436210485
_LANCZOS_CS = ((1, 0), (-_S45, -_S45), (0, 1), (_S45, -_S45), (-1, 0), (_S45, _S45), (0, -1), (-_S45, _S45))


def _lanczos_coeffs(x: np.ndarray) -> np.ndarray:
    """OpenCV's 8 Lanczos-4 weights for fractional offsets ``x``, normalised to sum to 1 (float32 results)."""
    x = np.asarray(x, np.float32)
    y0 = -(x.astype(np.float64) + 3) * np.pi * 0.25
    s0, c0 = np.sin(y0), np.cos(y0)
    out = []
    for i in range(8):
        yi = (x + np.float32(3 - i)).astype(np.float32)
        y = -yi.astype(np.float64) * np.pi * 0.25
        with np.errstate(divide="ignore", invalid="ignore"):
            v = ((_LANCZOS_CS[i][0] * s0 + _LANCZOS_CS[i][1] * c0) / (y * y)).astype(np.float32)
        out.append(np.where(np.abs(yi) >= np.float32(1e-6), v, np.float32(1e30)))
    c = np.stack(out, axis=-1)
    total = np.zeros(x.shape, np.float32)
    for i in range(8):
        total = (total + c[..., i]).astype(np.float32)
    return (c * (np.float32(1) / total)[..., None]).astype(np.float32)


def _taps_1d(ksize: int, x: np.ndarray) -> np.ndarray:
    if ksize == 2:
        x = x.astype(np.float32)
        return np.stack([np.float32(1) - x, x], axis=-1)
    return _cubic_coeffs(x) if ksize == 4 else _lanczos_coeffs(x)


_TABLES: dict = {}


def _warp_tables(ksize: int) -> tuple[np.ndarray, np.ndarray]:
    """([32*32, k*k] float32 weights, the same in 15-bit fixed point summing to 2**15) for each 1/32-pixel
    offset (fy, fx)."""
    if ksize in _TABLES:
        return _TABLES[ksize]
    t1 = _taps_1d(ksize, np.arange(_TAB_SIZE, dtype=np.float32) * np.float32(1.0 / _TAB_SIZE))
    tab = (t1[:, None, :, None] * t1[None, :, None, :]).astype(np.float32)  # [fy, fx, ky, kx]
    itab = np.rint(tab.astype(np.float64) * (1 << _REMAP_BITS)).astype(np.int64)
    half = ksize // 2
    one = 1 << _REMAP_BITS
    for i in range(_TAB_SIZE):
        for j in range(_TAB_SIZE):
            t = itab[i, j]
            diff = int(t.sum()) - one
            if diff == 0:
                continue
            lo = hi = (half, half)
            for k1 in range(half, min(half + 2, ksize)):
                for k2 in range(half, min(half + 2, ksize)):
                    if t[k1, k2] < t[lo]:
                        lo = (k1, k2)
                    elif t[k1, k2] > t[hi]:
                        hi = (k1, k2)
            if diff < 0:
                t[hi] -= diff
            else:
                t[lo] -= diff
    k2 = ksize * ksize
    _TABLES[ksize] = (tab.reshape(_TAB_SIZE * _TAB_SIZE, k2), itab.reshape(_TAB_SIZE * _TAB_SIZE, k2))
    return _TABLES[ksize]


def _border_vector(fill, channels: int) -> np.ndarray:
    """OpenCV's 4-element border value: a number fills the first channel only, a sequence channel by channel."""
    values = [fill] if isinstance(fill, numbers.Number) else list(fill)
    return np.array([float(values[c]) if c < min(len(values), 4) else 0.0 for c in range(channels)], np.float64)


_WARP_DTYPES = (np.uint8, np.uint16, np.int16, np.float32, np.float64)


def _remap(img: np.ndarray, ix: np.ndarray, iy: np.ndarray, frac: np.ndarray | None, ksize: int, fill,
           api: str) -> np.ndarray:
    """Sample ``img`` at integer positions (ix, iy) with the kernel of ``ksize`` taps (0: nearest) at the 1/32-pixel
    offsets ``frac`` (fy * 32 + fx); taps outside take the border value ``fill``."""
    if img.dtype.type not in _WARP_DTYPES:
        raise TypeError(f"{api}: OpenCV warps uint8, uint16, int16, float32 and float64 images; got {img.dtype}. "
                        "Convert the image first.")
    h, w = img.shape[:2]
    src = img.reshape(h, w, -1)
    cn = src.shape[2]
    integer = img.dtype == np.uint8  # 15-bit fixed point for 8-bit images; float weights for the others
    bval = _cast_back(_border_vector(fill, cn), img.dtype)
    if ksize == 0:
        inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
        out = np.where(inside[..., None], src[np.clip(iy, 0, h - 1), np.clip(ix, 0, w - 1)], bval)
        return out.astype(img.dtype)
    tab, itab = _warp_tables(ksize)
    wts = itab[frac] if integer else tab[frac]
    x0, y0 = ix - (ksize // 2 - 1), iy - (ksize // 2 - 1)
    acc_t = np.int64 if integer else (np.float64 if img.dtype == np.float64 else np.float32)
    acc = np.zeros(ix.shape + (cn,), acc_t)
    bv = bval.astype(acc_t)
    for ky in range(ksize):
        yy = y0 + ky
        for kx in range(ksize):
            xx = x0 + kx
            inside = (xx >= 0) & (xx < w) & (yy >= 0) & (yy < h)
            v = np.where(inside[..., None], src[np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)].astype(acc_t), bv)
            acc = (acc + v * wts[..., ky * ksize + kx, None].astype(acc_t)).astype(acc_t)
    if integer:
        out = np.clip((acc + (1 << (_REMAP_BITS - 1))) >> _REMAP_BITS, 0, 255)
    else:
        out = _cast_back(acc, img.dtype)
    # a position whose whole kernel lies outside the image is the border value
    away = (x0 >= w) | (x0 + ksize <= 0) | (y0 >= h) | (y0 + ksize <= 0)
    out = np.where(away[..., None], bval, out)
    return out.astype(img.dtype)


def _shape_back(out: np.ndarray, img: np.ndarray, oh: int, ow: int) -> np.ndarray:
    return out.reshape((oh, ow) + img.shape[2:])


def _invert_affine(m: np.ndarray) -> np.ndarray:
    m = np.array(m, np.float64).reshape(2, 3)
    d = m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]
    d = 1.0 / d if d != 0 else 0.0
    a11, a22 = m[1, 1] * d, m[0, 0] * d
    m[0, 0], m[0, 1], m[1, 0], m[1, 1] = a11, -m[0, 1] * d, -m[1, 0] * d, a22
    b1 = -m[0, 0] * m[0, 2] - m[0, 1] * m[1, 2]
    b2 = -m[1, 0] * m[0, 2] - m[1, 1] * m[1, 2]
    m[0, 2], m[1, 2] = b1, b2
    return m


def _check_interp(interpolation, api: str) -> int:
    if interpolation not in _WARP_MODES:
        raise ValueError(f"{api}: interpolation must be one of {list(_WARP_MODES)} for numpy images; got "
                         f"{interpolation!r}.")
    return _WARP_MODES[interpolation]


def warp_affine(img: np.ndarray, m, size: tuple[int, int], interpolation: str, fill, api: str) -> np.ndarray:
    """OpenCV's ``warpAffine(img, m, (width, height))`` with the forward map ``m`` ([2, 3])."""
    ksize = _check_interp(interpolation, api)
    ow, oh = size
    mi = _invert_affine(m)
    ys = np.arange(oh, dtype=np.float64)[:, None]
    xs = np.arange(ow, dtype=np.float64)[None, :]
    scale = 1 << _AB_BITS
    delta = scale // 2 if ksize == 0 else scale // _TAB_SIZE // 2
    x0 = np.rint((mi[0, 1] * ys + mi[0, 2]) * scale).astype(np.int64) + delta
    y0 = np.rint((mi[1, 1] * ys + mi[1, 2]) * scale).astype(np.int64) + delta
    ax = np.rint(mi[0, 0] * xs * scale).astype(np.int64)
    ay = np.rint(mi[1, 0] * xs * scale).astype(np.int64)
    if ksize == 0:
        out = _remap(img, (x0 + ax) >> _AB_BITS, (y0 + ay) >> _AB_BITS, None, 0, fill, api)
        return _shape_back(out, img, oh, ow)
    gx = (x0 + ax) >> (_AB_BITS - _TAB_BITS)
    gy = (y0 + ay) >> (_AB_BITS - _TAB_BITS)
    frac = (gy & (_TAB_SIZE - 1)) * _TAB_SIZE + (gx & (_TAB_SIZE - 1))
    out = _remap(img, gx >> _TAB_BITS, gy >> _TAB_BITS, frac, ksize, fill, api)
    return _shape_back(out, img, oh, ow)


def warp_perspective(img: np.ndarray, m, size: tuple[int, int], interpolation: str, fill, api: str) -> np.ndarray:
    """OpenCV's ``warpPerspective(img, m, (width, height))`` with the forward map ``m`` ([3, 3])."""
    ksize = _check_interp(interpolation, api)
    ow, oh = size
    mi = np.linalg.inv(np.array(m, np.float64).reshape(3, 3))
    ys = np.arange(oh, dtype=np.float64)[:, None]
    xs = np.arange(ow, dtype=np.float64)[None, :]
    x0 = mi[0, 1] * ys + mi[0, 2]
    y0 = mi[1, 1] * ys + mi[1, 2]
    w0 = mi[2, 1] * ys + mi[2, 2]
    wv = w0 + mi[2, 0] * xs
    unit = 1.0 if ksize == 0 else float(_TAB_SIZE)
    with np.errstate(divide="ignore"):
        wv = np.where(wv != 0, unit / np.where(wv != 0, wv, 1.0), 0.0)
    lim = float(np.iinfo(np.int32).max), float(np.iinfo(np.int32).min)
    fx = np.clip((x0 + mi[0, 0] * xs) * wv, lim[1], lim[0])
    fy = np.clip((y0 + mi[1, 0] * xs) * wv, lim[1], lim[0])
    gx, gy = np.rint(fx).astype(np.int64), np.rint(fy).astype(np.int64)
    if ksize == 0:
        return _shape_back(_remap(img, gx, gy, None, 0, fill, api), img, oh, ow)
    frac = (gy & (_TAB_SIZE - 1)) * _TAB_SIZE + (gx & (_TAB_SIZE - 1))
    out = _remap(img, gx >> _TAB_BITS, gy >> _TAB_BITS, frac, ksize, fill, api)
    return _shape_back(out, img, oh, ow)


def rotation_matrix(center, angle: float, scale: float) -> np.ndarray:
    """OpenCV's getRotationMatrix2D: rotation by ``angle`` degrees (counter-clockwise) and ``scale`` about
    ``center``, as a forward [2, 3] map."""
    rad = angle * np.pi / 180
    alpha, beta = np.cos(rad) * scale, np.sin(rad) * scale
    cx, cy = center
    return np.array([[alpha, beta, (1 - alpha) * cx - beta * cy], [-beta, alpha, beta * cx + (1 - alpha) * cy]])


def affine(img: np.ndarray, angle: float, translate, scale: float, shear, interpolation: str = "nearest", fill=0,
           center=None) -> np.ndarray:
    api = "paddle.vision.transforms.affine"
    h, w = img.shape[0:2]
    if isinstance(fill, int):
        fill = (fill,) * 3
    if center is None:
        center = (w / 2.0, h / 2.0)
    r = rotation_matrix(center, angle, scale)
    sx = math.tan(shear[0] * math.pi / 180)
    sy = math.tan(shear[1] * math.pi / 180)
    m = np.ones([2, 3])
    m[0] = r[0] + sy * r[1]
    m[1] = r[1] + sx * r[0]
    # as in Paddle's call: the translation replaces the offset of the rotation about the centre
    m[0, 2], m[1, 2] = translate
    return warp_affine(img, m, (w, h), interpolation, fill, api)


def rotate(img: np.ndarray, angle: float, interpolation: str = "nearest", expand: bool = False, center=None,
           fill=0) -> np.ndarray:
    api = "paddle.vision.transforms.rotate"
    h, w = img.shape[0:2]
    if center is None:
        center = (w / 2.0, h / 2.0)
    m = rotation_matrix(center, angle, 1)
    if expand:
        rad = -math.radians(angle)
        e = [round(math.cos(rad), 15), round(math.sin(rad), 15), 0.0, round(-math.sin(rad), 15),
             round(math.cos(rad), 15), 0.0]

        def apply(x, y):
            return e[0] * x + e[1] * y + e[2], e[3] * x + e[4] * y + e[5]

        e[2], e[5] = apply(-center[0], -center[1])
        e[2] += center[0]
        e[5] += center[1]
        pts = [apply(x, y) for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
        xx, yy = [p[0] for p in pts], [p[1] for p in pts]
        nw = math.ceil(max(xx)) - math.floor(min(xx))
        nh = math.ceil(max(yy)) - math.floor(min(yy))
        m[0, 2] += (nw - w) * 0.5
        m[1, 2] += (nh - h) * 0.5
        w, h = int(nw), int(nh)
    return warp_affine(img, m, (w, h), interpolation, fill, api)


def perspective_transform(src, dst) -> np.ndarray:
    """OpenCV's getPerspectiveTransform: the [3, 3] map taking the 4 ``src`` points to ``dst`` (solved in float64
    from float32 points)."""
    s = np.asarray(src, np.float32).astype(np.float64)
    d = np.asarray(dst, np.float32).astype(np.float64)
    a = np.zeros((8, 8))
    b = np.zeros(8)
    for i in range(4):
        a[i] = [s[i, 0], s[i, 1], 1, 0, 0, 0, -s[i, 0] * d[i, 0], -s[i, 1] * d[i, 0]]
        a[i + 4] = [0, 0, 0, s[i, 0], s[i, 1], 1, -s[i, 0] * d[i, 1], -s[i, 1] * d[i, 1]]
        b[i], b[i + 4] = d[i, 0], d[i, 1]
    return np.append(np.linalg.solve(a, b), 1.0).reshape(3, 3)


def perspective(img: np.ndarray, startpoints, endpoints, interpolation: str = "nearest", fill=0) -> np.ndarray:
    api = "paddle.vision.transforms.perspective"
    h, w = img.shape[0:2]
    m = perspective_transform(startpoints, endpoints)
    return warp_perspective(img, m, (w, h), interpolation, fill, api)
