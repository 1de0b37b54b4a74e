"""``paddle.vision.transforms.functional``: image operations on numpy HWC arrays, Tensor CHW images and (when
Pillow is installed) PIL images.

Each function looks at its input's kind and runs the kernel for it: numpy arrays get the results Paddle's
OpenCV backend gives (computed here with numpy, see ``_np_image``), Tensors the results of Paddle's tensor
backend, PIL images Pillow's own. Paddle needs OpenCV installed for most numpy operations; here none is needed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._tensor.facade import Tensor
from ..._tensor.facade import to_tensor as _to_tensor
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
    """Resize to ``size``: (height, width), or an int for the shorter side (aspect ratio kept). numpy images
    support 'bilinear' and 'nearest'; Tensors every mode of ``nn.functional.interpolate``."""
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


def _not_here(name: str):
    def fn(*args, **kwargs):
        raise NotImplementedError(
            f"paddle.vision.transforms.{name} is not implemented in pylayer_jax (geometric warps are not "
            "supported yet); crop, pad, resize and flip are."
        )

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Not implemented here: calling ``{name}`` raises NotImplementedError."
    return fn


affine = _not_here("affine")
rotate = _not_here("rotate")
perspective = _not_here("perspective")
