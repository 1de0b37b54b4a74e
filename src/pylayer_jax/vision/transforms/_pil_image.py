"""Image kernels for PIL images, used only when Pillow is importable (it is not a dependency of this package):
the same PIL calls Paddle's ``pil`` backend makes, so the results are Pillow's own."""

from __future__ import annotations

import sys

import numpy as np

from ..._tensor.facade import to_tensor as _to_tensor
from . import _np_image


def pil_module():
    """``PIL.Image``, or a clear ImportError when Pillow is not installed."""
    try:
        from PIL import Image
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "paddle.vision: this needs Pillow (PIL images, the 'pil' image backend), which is not installed and is "
            "not a dependency of pylayer_jax; install it (pip install pillow), or use numpy HWC arrays / the 'cv2' "
            "backend (backend='cv2') instead."
        ) from e
    return Image


def is_pil_image(img) -> bool:
    # a PIL image exists only if the program imported PIL; never import it just to check
    mod = sys.modules.get("PIL.Image")
    return mod is not None and isinstance(img, mod.Image)


def _interp(name: str):
    Image = pil_module()
    table = {"nearest": Image.Resampling.NEAREST, "bilinear": Image.Resampling.BILINEAR,
             "bicubic": Image.Resampling.BICUBIC, "box": Image.Resampling.BOX,
             "lanczos": Image.Resampling.LANCZOS, "hamming": Image.Resampling.HAMMING}
    if name not in table:
        raise ValueError(f"paddle.vision.transforms: interpolation must be one of {list(table)} for PIL images; "
                         f"got {name!r}.")
    return table[name]


def to_tensor(pic, data_format: str = "CHW"):
    if pic.mode in ("I", "I;16"):
        arr = np.asarray(pic, np.int32)
    elif pic.mode == "F":
        arr = np.asarray(pic, np.float32)
    elif pic.mode == "1":
        arr = 255 * np.asarray(pic, np.uint8)
    else:
        arr = np.asarray(pic)
    channels = 3 if pic.mode == "YCbCr" else 1 if pic.mode == "I;16" else len(pic.mode)
    img = _to_tensor(arr)
    if arr.dtype == np.uint8:
        img = img.astype("float32") / 255.0
    img = img.reshape([pic.size[1], pic.size[0], channels])
    return img.transpose([2, 0, 1]) if data_format == "CHW" else img


def resize(img, size, interpolation: str = "bilinear"):
    _np_image._check_size(size, "paddle.vision.transforms.resize")
    w, h = img.size
    hw = _np_image.target_size(h, w, size)
    if hw is None:
        return img
    return img.resize((hw[1], hw[0]), _interp(interpolation))


def pad(img, padding, fill=0, padding_mode: str = "constant"):
    Image = pil_module()
    api = "paddle.vision.transforms.pad"
    left, top, right, bottom = _np_image.parse_padding(padding, api)
    _np_image.check_pad_args(fill, padding_mode, api)
    palette = img.getpalette() if img.mode == "P" else None
    if padding_mode == "constant":
        from PIL import ImageOps

        out = ImageOps.expand(img, border=(left, top, right, bottom), fill=fill)
    else:
        arr = np.asarray(img)
        widths = [(top, bottom), (left, right)] + [(0, 0)] * (arr.ndim - 2)
        out = Image.fromarray(np.pad(arr, widths, padding_mode))
    if palette is not None:
        out.putpalette(palette)
    return out


def crop(img, top: int, left: int, height: int, width: int):
    return img.crop((left, top, left + width, top + height))


def center_crop(img, output_size):
    w, h = img.size
    top, left, th, tw = _np_image.center_box(h, w, output_size)
    return crop(img, top, left, th, tw)


def hflip(img):
    return img.transpose(pil_module().Transpose.FLIP_LEFT_RIGHT)


def vflip(img):
    return img.transpose(pil_module().Transpose.FLIP_TOP_BOTTOM)


def _enhance(kind: str, img, factor: float):
    from PIL import ImageEnhance

    return getattr(ImageEnhance, kind)(img).enhance(factor)


def adjust_brightness(img, factor: float):
    return _enhance("Brightness", img, factor)


def adjust_contrast(img, factor: float):
    return _enhance("Contrast", img, factor)


def adjust_saturation(img, factor: float):
    return _enhance("Color", img, factor)


def adjust_hue(img, factor: float):
    Image = pil_module()
    if not -0.5 <= factor <= 0.5:
        raise ValueError(f"paddle.vision.transforms.adjust_hue: hue_factor must be in [-0.5, 0.5]; got {factor}.")
    mode = img.mode
    if mode in {"L", "1", "I", "F"}:
        return img
    h, s, v = img.convert("HSV").split()
    hh = ((np.array(h, dtype=np.uint8).astype(np.int16) + int(factor * 255)) % 256).astype(np.uint8)
    return Image.merge("HSV", (Image.fromarray(hh, "L"), s, v)).convert(mode)


def to_grayscale(img, num_output_channels: int = 1):
    Image = pil_module()
    if num_output_channels == 1:
        return img.convert("L")
    if num_output_channels == 3:
        g = np.array(img.convert("L"), dtype=np.uint8)
        return Image.fromarray(np.dstack([g, g, g]), "RGB")
    raise ValueError(
        f"paddle.vision.transforms.to_grayscale: num_output_channels must be 1 or 3; got {num_output_channels}."
    )


def erase(img, i: int, j: int, h: int, w: int, v, inplace: bool = False):
    Image = pil_module()
    arr = np.array(img, dtype=np.uint8)
    arr[i : i + h, j : j + w, ...] = v
    return Image.fromarray(arr, "RGB")


def _warp_fill(fill):
    return (fill,) * 3 if isinstance(fill, int) else fill


def affine(img, matrix, interpolation: str = "nearest", fill=0):
    # as in Paddle, ``fill`` goes to Image.transform's ``fill`` (read only by custom transform handlers), not its
    # ``fillcolor``: the uncovered pixels stay black, as Paddle's PIL affine and perspective leave them
    Image = pil_module()
    return img.transform(img.size, Image.Transform.AFFINE, matrix, _interp(interpolation), _warp_fill(fill))


def rotate(img, angle: float, interpolation: str = "nearest", expand: bool = False, center=None, fill=0):
    return img.rotate(angle, _interp(interpolation), expand, center, fillcolor=_warp_fill(fill))


def perspective(img, coeffs, interpolation: str = "nearest", fill=0):
    Image = pil_module()
    return img.transform(img.size, Image.Transform.PERSPECTIVE, coeffs, _interp(interpolation), _warp_fill(fill))
