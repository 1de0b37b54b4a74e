"""Image kernels for Tensors in CHW layout (or NCHW where noted), built from this package's ops: what Paddle's
transforms compute on Tensor images."""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..._api import functional as _F
from ..._api.irregular import is_floating_point as _is_floating_point
from ..._api.irregular import where as _where
from ..._api.variadic import einsum as _einsum
from ..._tensor.facade import Tensor
from ..._tensor.facade import to_tensor as _make_tensor
from ...nn import functional as _NF
from . import _np_image


def check(img, api: str, data_format: str = "CHW") -> None:
    if not isinstance(img, Tensor) or img.ndim not in (3, 4) or data_format.lower() not in ("chw", "hwc"):
        shape = getattr(img, "shape", None)
        raise RuntimeError(
            f"{api}: a Tensor image must have 3 (CHW) or 4 (NCHW) dims and data_format 'CHW' or 'HWC'; got "
            f"{type(img).__name__} of shape {shape} with data_format {data_format!r}."
        )


def _h_axis(data_format: str) -> int:
    return -2 if data_format.lower() == "chw" else -3


def _w_axis(data_format: str) -> int:
    return -1 if data_format.lower() == "chw" else -2


def _c_axis(data_format: str) -> int:
    return -3 if data_format.lower() == "chw" else -1


def image_size(img, data_format: str = "CHW") -> tuple[int, int]:
    """(width, height)."""
    return img.shape[_w_axis(data_format)], img.shape[_h_axis(data_format)]


def to_tensor(pic, data_format: str = "CHW"):
    return pic if data_format.lower() == "chw" else pic.transpose((1, 2, 0))


def normalize(img, mean, std, data_format: str = "CHW"):
    check(img, "paddle.vision.transforms.normalize", data_format)
    m = _tensor_of(mean)
    s = _tensor_of(std)
    if data_format.lower() == "chw":
        m, s = m.reshape([-1, 1, 1]), s.reshape([-1, 1, 1])
    return (img - m) / s


def _tensor_of(values):
    return values if isinstance(values, Tensor) else _make_tensor(values)


def _float_image(img, api: str) -> None:
    if not _is_floating_point(img):
        raise TypeError(f"{api}: a Tensor image must be floating point here, but it is {img.dtype} (Paddle casts the "
                        "grey weights to the image's dtype, which makes them 0 for integers, and has no integer "
                        "kernel for the product); convert it first, e.g. img.astype('float32') / 255.")


def to_grayscale(img, num_output_channels: int = 1, data_format: str = "CHW"):
    api = "paddle.vision.transforms.to_grayscale"
    check(img, api, data_format)
    if num_output_channels not in (1, 3):
        raise ValueError(f"{api}: num_output_channels must be 1 or 3; got {num_output_channels}.")
    _float_image(img, api)
    w = _make_tensor([0.2989, 0.587, 0.114]).astype(img.dtype)
    if data_format.lower() == "chw":
        w = w.reshape((-1, 1, 1))
    c = _c_axis(data_format)
    g = (img * w).sum(axis=c, keepdim=True)
    shape = list(g.shape)
    shape[c] = num_output_channels
    return g.expand(shape)


def hflip(img, data_format: str = "CHW"):
    check(img, "paddle.vision.transforms.hflip", data_format)
    return img.flip(axis=[_w_axis(data_format)])


def vflip(img, data_format: str = "CHW"):
    check(img, "paddle.vision.transforms.vflip", data_format)
    return img.flip(axis=[_h_axis(data_format)])


def crop(img, top: int, left: int, height: int, width: int, data_format: str = "CHW"):
    check(img, "paddle.vision.transforms.crop", data_format)
    if data_format.lower() == "chw":
        return img[..., top : top + height, left : left + width]
    return img[..., top : top + height, left : left + width, :]


def center_crop(img, output_size, data_format: str = "CHW"):
    check(img, "paddle.vision.transforms.center_crop", data_format)
    w, h = image_size(img, data_format)
    top, left, th, tw = _np_image.center_box(h, w, output_size)
    return crop(img, top, left, th, tw, data_format)


def erase(img, i: int, j: int, h: int, w: int, v, inplace: bool = False):
    check(img, "paddle.vision.transforms.erase")
    if not inplace:
        img = img.clone()
    img[..., i : i + h, j : j + w] = v
    return img


def pad(img, padding, fill=0, padding_mode: str = "constant", data_format: str = "CHW"):
    api = "paddle.vision.transforms.pad"
    check(img, api, data_format)
    left, top, right, bottom = _np_image.parse_padding(padding, api)
    _np_image.check_pad_args(fill, padding_mode, api)
    if padding_mode == "symmetric":
        raise ValueError(f"{api}: padding_mode 'symmetric' is not supported for Tensor images (as in Paddle); use "
                         "'constant', 'edge' or 'reflect', or pad a numpy image.")
    if not isinstance(fill, numbers.Number):
        raise TypeError(f"{api}: a Tensor image is padded with one number; got fill={fill!r}.")
    mode = "replicate" if padding_mode == "edge" else padding_mode
    out = _NF.pad(img.unsqueeze(0), pad=[left, right, top, bottom], mode=mode, value=float(fill),
                  data_format="N" + data_format.upper())
    return out.squeeze(0)


def resize(img, size, interpolation: str = "bilinear", data_format: str = "CHW"):
    api = "paddle.vision.transforms.resize"
    check(img, api, data_format)
    _np_image._check_size(size, api)
    w, h = image_size(img, data_format)
    hw = _np_image.target_size(h, w, size)
    if hw is None:
        return img
    out = _NF.interpolate(img.unsqueeze(0), size=hw, mode=interpolation.lower(),
                          data_format="N" + data_format.upper())
    return out.squeeze(0)


def _blend(img1, img2, ratio: float):
    top = 1.0 if _is_floating_point(img1) else 255.0
    return _F.lerp(img2, img1, float(ratio)).clip(0, top).astype(img1.dtype)


def _channels(img, api: str) -> int:
    c = img.shape[-3]
    if c not in (1, 3):
        raise ValueError(f"{api}: a Tensor image must have 1 or 3 channels (CHW); got {c}.")
    return c


def _non_negative(factor, name: str, api: str) -> None:
    if factor < 0:
        raise ValueError(f"{api}: {name} must be non-negative; got {factor}.")


def adjust_brightness(img, factor: float):
    api = "paddle.vision.transforms.adjust_brightness"
    check(img, api)
    _non_negative(factor, "brightness_factor", api)
    _channels(img, api)
    return _blend(img, _F.zeros_like(img, img.dtype), factor)


def adjust_contrast(img, factor: float):
    api = "paddle.vision.transforms.adjust_contrast"
    check(img, api)
    _non_negative(factor, "contrast_factor", api)
    c = _channels(img, api)
    _float_image(img, api)
    dtype = img.dtype if _is_floating_point(img) else "float32"
    base = img if c == 1 else to_grayscale(img)
    target = _F.mean(base.astype(dtype), axis=(-3, -2, -1), keepdim=True)
    return _blend(img, target, factor)


def adjust_saturation(img, factor: float):
    api = "paddle.vision.transforms.adjust_saturation"
    check(img, api)
    _non_negative(factor, "saturation_factor", api)
    if _channels(img, api) == 1:
        return img
    _float_image(img, api)
    return _blend(img, to_grayscale(img), factor)


def _true_div(x, c: float):
    """``x / c`` correctly rounded, as Paddle's kernel divides: XLA turns a division by a constant into a multiply
    by its reciprocal, an ulp off at times, which a uint8 result's truncation makes a whole level. Divided in
    float64 (a reciprocal multiply there is far inside float32's rounding) and rounded back."""
    if str(x.dtype) != "paddle.float32":
        return x / c
    return (x.astype("float64") / c).astype("float32")


def _rgb_to_hsv(img):
    maxc = img.max(axis=-3)
    minc = img.min(axis=-3)
    same = maxc == minc
    ones = _F.ones_like(maxc)
    delta = maxc - minc
    s = delta / _where(same, ones, maxc)
    r, g, b = img.unbind(axis=-3)
    d = _where(same, ones, delta)
    rc, gc, bc = (maxc - r) / d, (maxc - g) / d, (maxc - b) / d
    hr = (maxc == r).astype(maxc.dtype) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)).astype(maxc.dtype) * (rc - bc + 2.0)
    hb = ((maxc != r) & (maxc != g)).astype(maxc.dtype) * (gc - rc + 4.0)
    h = _true_div(hr + hg + hb, 6.0) + 1.0
    h = h - h.trunc()
    return _F.stack([h, s, maxc], axis=-3)


def _hsv_to_rgb(img):
    h, s, v = img.unbind(axis=-3)
    f = h * 6.0
    i = _F.floor(f)
    f = f - i
    i = i.astype("int32") % 6
    p = _F.clip(v * (1.0 - s), 0.0, 1.0)
    q = _F.clip(v * (1.0 - s * f), 0.0, 1.0)
    t = _F.clip(v * (1.0 - s * (1.0 - f)), 0.0, 1.0)
    sector = (i.unsqueeze(axis=-3) == _F.arange(6, dtype=i.dtype).reshape((-1, 1, 1))).astype(img.dtype)
    table = _F.stack([_F.stack([v, q, p, p, t, v], axis=-3), _F.stack([t, v, v, q, p, p], axis=-3),
                      _F.stack([p, p, t, v, v, q], axis=-3)], axis=-4)
    return _einsum("...ijk, ...xijk -> ...xjk", sector, table)


def adjust_hue(img, factor: float):
    api = "paddle.vision.transforms.adjust_hue"
    check(img, api)
    if not -0.5 <= factor <= 0.5:
        raise ValueError(f"{api}: hue_factor must be in [-0.5, 0.5]; got {factor}.")
    if _channels(img, api) == 1:
        return img
    dtype = img.dtype
    x = _true_div(img.astype("float32"), 255.0) if str(dtype) == "paddle.uint8" else img
    h, s, v = _rgb_to_hsv(x).unbind(axis=-3)
    h = h + factor
    h = h - h.floor()
    out = _hsv_to_rgb(_F.stack([h, s, v], axis=-3))
    if str(dtype) == "paddle.uint8":
        out = (out * 255.0).astype(dtype)
    return out


# ---- geometric warps: an inverse map sampled with grid_sample, as Paddle's tensor backend does -------------
_WARP_MODES = ("nearest", "bilinear")


def _check_warp(img, interpolation, api: str) -> None:
    if interpolation not in _WARP_MODES:
        raise ValueError(f"{api}: interpolation must be one of {list(_WARP_MODES)} for Tensor images (Paddle samples "
                         f"them with grid_sample); got {interpolation!r}.")
    if not _is_floating_point(img):
        raise RuntimeError(f"{api}: a Tensor image must be float32 or float64 to be warped (Paddle's grid_sample has "
                           f"no kernel for {img.dtype}); cast it first, e.g. img.astype('float32').")


def _base_grid(ow: int, oh: int, x0: float, y0: float):
    """[1, oh*ow, 3] homogeneous pixel-centre coordinates (x, y, 1), x from ``x0`` and y from ``y0`` in unit steps,
    made with linspace in float32 as Paddle makes them."""
    xs = _F.linspace(x0, x0 + ow - 1.0, ow)
    ys = _F.linspace(y0, y0 + oh - 1.0, oh)
    gx = xs.reshape((1, ow)).expand((oh, ow))
    gy = ys.reshape((oh, 1)).expand((oh, ow))
    return _F.stack([gx, gy, _F.ones((oh, ow), "float32")], axis=-1).reshape((1, oh * ow, 3))


def _affine_grid(theta, w: int, h: int, ow: int, oh: int):
    """Paddle's grid for ``theta`` (6 float32 numbers, pixel units about the image centre): [-1, 1] coordinates.
    The map is scaled on the host with IEEE float32 division, as Paddle's kernel divides (XLA would multiply by the
    reciprocal, an ulp off, which can move a nearest sample across a pixel's edge)."""
    base = _base_grid(ow, oh, -ow * 0.5 + 0.5, -oh * 0.5 + 0.5)
    scaled = np.asarray(theta, np.float32).reshape(2, 3).T / np.asarray([0.5 * w, 0.5 * h], np.float32)
    return _F.bmm(base, _make_tensor(scaled[None])).reshape((1, oh, ow, 2))


def _grid_transform(img, grid, mode: str, fill):
    """Sample ``img`` (NCHW) at ``grid``; with ``fill``, points outside the image take that colour (a channel of
    ones sampled alongside marks how much of each output pixel came from inside)."""
    if img.shape[0] > 1:
        grid = grid.expand([img.shape[0], grid.shape[1], grid.shape[2], grid.shape[3]])
    grid = grid.astype(img.dtype)
    if fill is not None:
        img = _F.concat((img, _F.ones((img.shape[0], 1, img.shape[2], img.shape[3]), img.dtype)), axis=1)
    out = _NF.grid_sample(img, grid, mode=mode, padding_mode="zeros", align_corners=False)
    if fill is None:
        return out
    mask = out[:, -1:, :, :]
    out = out[:, :-1, :, :]
    mask = mask.tile([1, out.shape[1], 1, 1])
    n_fill = len(fill) if isinstance(fill, (tuple, list)) else 1
    if n_fill not in (1, out.shape[1]):
        raise ValueError(f"paddle.vision.transforms: fill has {n_fill} values but the image has {out.shape[1]} "
                         "channels; pass one number per channel (an int fill of a warp by affine means 3 values, "
                         "as in Paddle), or fill=None.")
    fill_img = _make_tensor(fill).reshape((1, n_fill, 1, 1)).astype(out.dtype).expand_as(out)
    if mode == "nearest":
        mask = (mask < 0.5).astype(out.dtype)
        return out * (1.0 - mask) + mask * fill_img
    return out * mask + (1.0 - mask) * fill_img


def _nchw(img, data_format: str):
    return img if data_format.lower() == "chw" else img.transpose((0, 3, 1, 2))


def _back(out, data_format: str):
    return out if data_format.lower() == "chw" else out.transpose((0, 2, 3, 1))


def affine(img, matrix, interpolation: str = "nearest", fill=None, data_format: str = "CHW"):
    """Warp by the inverse affine ``matrix`` (6 numbers, pixel units about the image centre)."""
    api = "paddle.vision.transforms.affine"
    check(img, api, data_format)
    _check_warp(img, interpolation, api)
    squeeze = img.ndim == 3
    x = _nchw(img.unsqueeze(0) if squeeze else img, data_format)
    theta = np.asarray([float(m) for m in matrix], np.float32)
    h, w = x.shape[-2], x.shape[-1]
    grid = _affine_grid(theta, w, h, w, h)
    if isinstance(fill, int):
        fill = (fill,) * 3
    out = _back(_grid_transform(x, grid, interpolation, fill), data_format)
    return out.squeeze(0) if squeeze else out


def _rotation_matrix(angle: float, center, w: int, h: int):
    """Paddle's float32 inverse rotation about ``center`` (the image centre when None), in centred pixel units."""
    rad = math.radians(-angle % 360)
    rc = (0.0, 0.0) if center is None else tuple(p - s * 0.5 for p, s in zip(center, (w, h)))
    m = [np.float32(v) for v in (math.cos(rad), math.sin(rad), 0.0, -math.sin(rad), math.cos(rad), 0.0)]
    f = np.float32
    m[2] = m[2] + ((m[0] * f(-rc[0]) + m[1] * f(-rc[1])) + f(rc[0]))
    m[5] = m[5] + ((m[3] * f(-rc[0]) + m[4] * f(-rc[1])) + f(rc[1]))
    return np.array(m, np.float32)


def rotate(img, angle: float, interpolation: str = "nearest", expand: bool = False, center=None, fill=None,
           data_format: str = "CHW"):
    """Rotate counter-clockwise by ``angle`` degrees about ``center`` (default: the image centre); ``expand`` grows
    the output to hold the whole rotated image."""
    api = "paddle.vision.transforms.rotate"
    check(img, api, data_format)
    if img.ndim != 3:
        raise ValueError(f"{api}: a Tensor image to rotate must be 3-D ({data_format}); got shape {list(img.shape)} "
                         "(Paddle's rotate does not take a batch either); rotate each image.")
    _check_warp(img, interpolation, api)
    w, h = image_size(img, data_format)
    x = _nchw(img.unsqueeze(0), data_format)
    m = _rotation_matrix(angle, center, w, h)
    if expand:
        corners = np.array([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0], [0.5 * w, 0.5 * h, 1.0],
                            [0.5 * w, -0.5 * h, 1.0]], np.float32)
        mm = m.reshape(2, 3)
        pos = (corners[:, :1] * mm[:, 0] + corners[:, 1:2] * mm[:, 1]) + corners[:, 2:] * mm[:, 2]
        size = np.ceil(pos.max(axis=0)) - np.floor(pos.min(axis=0))
        ow, oh = int(size[0]), int(size[1])
    else:
        ow, oh = w, h
    grid = _affine_grid(m, w, h, ow, oh)
    out = _back(_grid_transform(x, grid, interpolation, fill), data_format)
    return out.squeeze(0)


def perspective(img, coeffs, interpolation: str = "nearest", fill=None, data_format: str = "CHW"):
    """Warp by the perspective map ``coeffs`` (a, b, c, d, e, f, g, h: output pixel to input pixel)."""
    api = "paddle.vision.transforms.perspective"
    check(img, api, data_format)
    _check_warp(img, interpolation, api)
    squeeze = img.ndim == 3
    x = _nchw(img.unsqueeze(0) if squeeze else img, data_format)
    ow, oh = x.shape[-1], x.shape[-2]
    c = np.asarray([float(v) for v in coeffs], dtype=np.float32)
    # theta1 scaled on the host: IEEE float32 division, as Paddle's kernel divides (XLA turns a division by a
    # constant into a multiply by its reciprocal, an ulp off, which moves a nearest sample on a pixel's edge).
    scaled = c[:6].reshape(2, 3).T / np.asarray([0.5 * ow, 0.5 * oh], dtype=np.float32)
    theta2 = np.concatenate((np.tile(c[6:].reshape(1, 2), (2, 1)), np.ones((2, 1), np.float32)), axis=1)
    base = _base_grid(ow, oh, 0.5, 0.5)
    g1 = _F.bmm(base, _make_tensor(scaled[None]))
    g2 = _F.bmm(base, _make_tensor(theta2.T[None]))
    grid = (g1 / g2 - 1.0).reshape((1, oh, ow, 2))
    out = _back(_grid_transform(x, grid, interpolation, fill), data_format)
    return out.squeeze(0) if squeeze else out
