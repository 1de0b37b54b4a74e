"""``paddle.vision.transforms``' transform classes.

The random transforms draw their parameters exactly as Paddle's eager mode does, from Python's ``random``
module (flips, crops, colour factors, ColorJitter's order) and numpy's global generator (RandomResizedCrop's
scale and ratio, RandomErasing): under the same ``random.seed`` / ``np.random.seed`` they make the same choices.
"""

from __future__ import annotations

import math
import numbers
import random
import traceback
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..._api.random import normal as _normal
from ..._tensor.facade import to_tensor as _to_tensor
from . import functional as F

__all__ = [
    "BaseTransform", "Compose", "ToTensor", "Resize", "RandomResizedCrop", "CenterCrop", "RandomHorizontalFlip",
    "RandomVerticalFlip", "Normalize", "Transpose", "BrightnessTransform", "ContrastTransform",
    "SaturationTransform", "HueTransform", "ColorJitter", "RandomCrop", "Pad", "Grayscale", "RandomErasing",
    "RandomAffine", "RandomRotation", "RandomPerspective",
]


def _get_image_size(img) -> tuple[int, int]:
    """(width, height) of a PIL image, numpy HWC array or Tensor (CHW / NCHW)."""
    if F._is_pil_image(img):
        return img.size
    if F._is_numpy_image(img):
        return img.shape[1], img.shape[0]
    if F._is_tensor_image(img):
        if img.ndim in (3, 4):
            return img.shape[-1], img.shape[-2]
        raise ValueError(f"paddle.vision.transforms: a Tensor image must have 3 or 4 dims; got {img.ndim}.")
    raise TypeError(f"paddle.vision.transforms: unexpected image type {type(img).__name__}.")


def _check_input(value, name: str, center: float = 1, bound=(0, float("inf")), clip_first_on_zero: bool = True):
    """[low, high] for a jitter amount (a number v gives [center - v, center + v]); None when it is a no-op."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"paddle.vision.transforms: {name} as a single number must be non-negative; got {value}.")
        value = [center - value, center + value]
        if clip_first_on_zero:
            value[0] = max(value[0], 0)
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"paddle.vision.transforms: {name} range must be ordered within {bound}; got {value}.")
    else:
        raise TypeError(f"paddle.vision.transforms: {name} must be a number or a (min, max) pair; got {value!r}.")
    if value[0] == value[1] == center:
        return None
    return value


class Compose:
    """Apply ``transforms`` in order."""

    def __init__(self, transforms: Sequence[Any]) -> None:
        self.transforms = transforms

    def __call__(self, data):
        for f in self.transforms:
            try:
                data = f(data)
            except Exception as e:
                # Paddle prints which transform failed, then re-raises
                print(f"fail to perform transform [{f}] with error: {e} and stack:\n{traceback.format_exc()}")
                raise
        return data

    def __repr__(self) -> str:
        return self.__class__.__name__ + "(" + "".join(f"\n    {t}" for t in self.transforms) + "\n)"


class BaseTransform:
    """Base of the transforms: ``keys`` names what each element of a tuple input is ("image", "coords", "boxes",
    "mask"); each is passed to ``_apply_<key>``, elements beyond the keys pass through unchanged."""

    def __init__(self, keys: Sequence[str] | None = None) -> None:
        if keys is None:
            keys = ("image",)
        elif not isinstance(keys, Sequence):
            raise ValueError(f"paddle.vision.transforms: keys must be a sequence; got keys={keys!r}.")
        for k in keys:
            if self._get_apply(k) is None:
                raise NotImplementedError(f"paddle.vision.transforms: key {k!r} is an unsupported data structure.")
        self.keys = keys
        self.params = None

    def _get_params(self, inputs):
        return None

    def __call__(self, inputs):
        if not isinstance(inputs, tuple):
            inputs = (inputs,)
        self.params = self._get_params(inputs)
        outputs = []
        for i in range(min(len(inputs), len(self.keys))):
            fn = self._get_apply(self.keys[i])
            outputs.append(inputs[i] if fn is None else fn(inputs[i]))
        if len(inputs) > len(self.keys):
            outputs.extend(inputs[len(self.keys):])
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _get_apply(self, key):
        return getattr(self, f"_apply_{key}", None)

    def _apply_image(self, image):
        raise NotImplementedError

    def _apply_boxes(self, boxes):
        raise NotImplementedError

    def _apply_mask(self, mask):
        raise NotImplementedError

    def _apply_coords(self, coords):
        raise NotImplementedError


class ToTensor(BaseTransform):
    """numpy HWC / PIL image to a Tensor (CHW by default), uint8 scaled to [0, 1]."""

    def __init__(self, data_format: str = "CHW", keys=None) -> None:
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img):
        return F.to_tensor(img, self.data_format)


class Resize(BaseTransform):
    """Resize to ``size`` ((h, w), or an int for the shorter side)."""

    def __init__(self, size, interpolation: str = "bilinear", keys=None) -> None:
        super().__init__(keys)
        if isinstance(size, bool) or not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
            raise TypeError(f"paddle.vision.transforms.Resize: size must be an int or a (height, width) pair; got "
                            f"{size!r}.")
        self.size = size
        self.interpolation = interpolation

    def _apply_image(self, img):
        return F.resize(img, self.size, self.interpolation)


class RandomResizedCrop(BaseTransform):
    """Crop a random area (``scale`` of the image) with a random aspect ratio (``ratio``), then resize to ``size``."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4, 4.0 / 3), interpolation: str = "bilinear",
                 keys=None) -> None:
        super().__init__(keys)
        self.size = (size, size) if isinstance(size, int) else size
        if scale[0] > scale[1]:
            raise ValueError(f"paddle.vision.transforms.RandomResizedCrop: scale must be (min, max); got {scale}.")
        if ratio[0] > ratio[1]:
            raise ValueError(f"paddle.vision.transforms.RandomResizedCrop: ratio must be (min, max); got {ratio}.")
        self.scale = scale
        self.ratio = ratio
        self.interpolation = interpolation

    def _dynamic_get_param(self, image, attempts: int = 10):
        width, height = _get_image_size(image)
        area = height * width
        for _ in range(attempts):
            target_area = np.random.uniform(*self.scale) * area
            log_ratio = tuple(math.log(x) for x in self.ratio)
            aspect_ratio = math.exp(np.random.uniform(*log_ratio))
            w = int(round(math.sqrt(target_area * aspect_ratio)))
            h = int(round(math.sqrt(target_area / aspect_ratio)))
            if 0 < w <= width and 0 < h <= height:
                i = random.randint(0, height - h)
                j = random.randint(0, width - w)
                return i, j, h, w
        # fallback: the central crop of the nearest allowed ratio
        in_ratio = float(width) / float(height)
        if in_ratio < min(self.ratio):
            w = width
            h = int(round(w / min(self.ratio)))
        elif in_ratio > max(self.ratio):
            h = height
            w = int(round(h * max(self.ratio)))
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def _apply_image(self, img):
        i, j, h, w = self._dynamic_get_param(img)
        return F.resize(F.crop(img, i, j, h, w), self.size, self.interpolation)


class CenterCrop(BaseTransform):
    """Crop the centre to ``size``."""

    def __init__(self, size, keys=None) -> None:
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else size

    def _apply_image(self, img):
        return F.center_crop(img, self.size)


def _check_prob(prob, api: str) -> None:
    if not 0 <= prob <= 1:
        raise ValueError(f"paddle.vision.transforms.{api}: prob must be in [0, 1]; got {prob}.")


class RandomHorizontalFlip(BaseTransform):
    """Mirror left to right with probability ``prob`` (drawn with ``random.random()``)."""

    def __init__(self, prob: float = 0.5, keys=None) -> None:
        super().__init__(keys)
        _check_prob(prob, "RandomHorizontalFlip")
        self.prob = prob

    def _apply_image(self, img):
        if random.random() < self.prob:
            return F.hflip(img)
        return img


class RandomVerticalFlip(BaseTransform):
    """Mirror top to bottom with probability ``prob`` (drawn with ``random.random()``)."""

    def __init__(self, prob: float = 0.5, keys=None) -> None:
        super().__init__(keys)
        _check_prob(prob, "RandomVerticalFlip")
        self.prob = prob

    def _apply_image(self, img):
        if random.random() < self.prob:
            return F.vflip(img)
        return img


class Normalize(BaseTransform):
    """``(img - mean) / std`` per channel (a number applies to 3 channels)."""

    def __init__(self, mean=0.0, std=1.0, data_format: str = "CHW", to_rgb: bool = False, keys=None) -> None:
        super().__init__(keys)
        if isinstance(mean, numbers.Number):
            mean = [mean, mean, mean]
        if isinstance(std, numbers.Number):
            std = [std, std, std]
        self.mean = mean
        self.std = std
        self.data_format = data_format
        self.to_rgb = to_rgb

    def _apply_image(self, img):
        return F.normalize(img, self.mean, self.std, self.data_format, self.to_rgb)


class Transpose(BaseTransform):
    """Permute the axes (default HWC to CHW); a PIL image becomes a numpy array, a 2-D array gains a channel."""

    def __init__(self, order=(2, 0, 1), keys=None) -> None:
        super().__init__(keys)
        self.order = order

    def _apply_image(self, img):
        if F._is_tensor_image(img):
            return img.transpose(self.order)
        if F._is_pil_image(img):
            img = np.asarray(img)
        if img.ndim == 2:
            img = img[..., np.newaxis]
        return img.transpose(self.order)


class BrightnessTransform(BaseTransform):
    """Brightness scaled by a factor drawn uniformly from [max(0, 1 - value), 1 + value]."""

    def __init__(self, value: float, keys=None) -> None:
        super().__init__(keys)
        self.value = _check_input(value, "brightness")

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_brightness(img, random.uniform(self.value[0], self.value[1]))


class ContrastTransform(BaseTransform):
    """Contrast scaled by a factor drawn uniformly from [max(0, 1 - value), 1 + value]."""

    def __init__(self, value: float, keys=None) -> None:
        super().__init__(keys)
        if isinstance(value, numbers.Number) and value < 0:
            raise ValueError(f"paddle.vision.transforms.ContrastTransform: value must be non-negative; got {value}.")
        self.value = _check_input(value, "contrast")

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_contrast(img, random.uniform(self.value[0], self.value[1]))


class SaturationTransform(BaseTransform):
    """Saturation scaled by a factor drawn uniformly from [max(0, 1 - value), 1 + value]."""

    def __init__(self, value: float, keys=None) -> None:
        super().__init__(keys)
        self.value = _check_input(value, "saturation")

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_saturation(img, random.uniform(self.value[0], self.value[1]))


class HueTransform(BaseTransform):
    """Hue shifted by a factor drawn uniformly from [-value, value] (value in [0, 0.5])."""

    def __init__(self, value: float, keys=None) -> None:
        super().__init__(keys)
        self.value = _check_input(value, "hue", center=0, bound=(-0.5, 0.5), clip_first_on_zero=False)

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_hue(img, random.uniform(self.value[0], self.value[1]))


class ColorJitter(BaseTransform):
    """Brightness, contrast, saturation and hue jitter, applied in a random order (``random.shuffle``)."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0, keys=None) -> None:
        super().__init__(keys)
        self.brightness = brightness
        self.contrast = contrast
        self.saturation = saturation
        self.hue = hue

    def _get_param(self, brightness, contrast, saturation, hue):
        transforms = []
        if brightness is not None:
            transforms.append(BrightnessTransform(brightness, self.keys))
        if contrast is not None:
            transforms.append(ContrastTransform(contrast, self.keys))
        if saturation is not None:
            transforms.append(SaturationTransform(saturation, self.keys))
        if hue is not None:
            transforms.append(HueTransform(hue, self.keys))
        random.shuffle(transforms)
        return Compose(transforms)

    def _apply_image(self, img):
        return self._get_param(self.brightness, self.contrast, self.saturation, self.hue)(img)


class RandomCrop(BaseTransform):
    """Crop a random ``size`` box (after optional ``padding``; ``pad_if_needed`` pads a smaller image)."""

    def __init__(self, size, padding=None, pad_if_needed: bool = False, fill=0, padding_mode: str = "constant",
                 keys=None) -> None:
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else size
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        self.padding_mode = padding_mode

    def _get_param(self, img, output_size):
        w, h = _get_image_size(img)
        th, tw = output_size
        if w == tw and h == th:
            return 0, 0, h, w
        if h < th or w < tw:
            raise ValueError(
                f"paddle.vision.transforms.RandomCrop: the crop size {(th, tw)} is larger than the image "
                f"({h}, {w}); pass pad_if_needed=True or padding to enlarge the image first."
            )
        return random.randint(0, h - th), random.randint(0, w - tw), th, tw

    def _apply_image(self, img):
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        w, h = _get_image_size(img)
        if self.pad_if_needed and w < self.size[1]:
            img = F.pad(img, (self.size[1] - w, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and h < self.size[0]:
            img = F.pad(img, (0, self.size[0] - h), self.fill, self.padding_mode)
        i, j, h, w = self._get_param(img, self.size)
        return F.crop(img, i, j, h, w)


class Pad(BaseTransform):
    """Pad each border (see ``functional.pad``)."""

    def __init__(self, padding, fill=0, padding_mode: str = "constant", keys=None) -> None:
        api = "paddle.vision.transforms.Pad"
        if isinstance(padding, list):
            padding = tuple(padding)
        if isinstance(fill, list):
            fill = tuple(fill)
        F._np.parse_padding(padding, api)
        F._np.check_pad_args(fill, padding_mode, api)
        super().__init__(keys)
        self.padding = padding
        self.fill = fill
        self.padding_mode = padding_mode

    def _apply_image(self, img):
        return F.pad(img, self.padding, self.fill, self.padding_mode)


class Grayscale(BaseTransform):
    """Gray image with ``num_output_channels`` (1 or 3) channels."""

    def __init__(self, num_output_channels: int = 1, keys=None) -> None:
        super().__init__(keys)
        self.num_output_channels = num_output_channels

    def _apply_image(self, img):
        return F.to_grayscale(img, self.num_output_channels)


class RandomErasing(BaseTransform):
    """With probability ``prob``, set a random box (area ``scale`` of the image, aspect ``ratio``) to ``value``
    (a number, a per-channel sequence, or "random" for normal noise)."""

    def __init__(self, prob: float = 0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace: bool = False,
                 keys=None) -> None:
        super().__init__(keys)
        api = "paddle.vision.transforms.RandomErasing"
        if not isinstance(scale, (tuple, list)) or not (0 <= scale[0] <= scale[1] <= 1):
            raise ValueError(f"{api}: scale must be a (min, max) pair within [0, 1]; got {scale!r}.")
        if not isinstance(ratio, (tuple, list)) or not (0 <= ratio[0] <= ratio[1]):
            raise ValueError(f"{api}: ratio must be a (min, max) pair of non-negative numbers; got {ratio!r}.")
        _check_prob(prob, "RandomErasing")
        if not isinstance(value, (numbers.Number, str, tuple, list)):
            raise TypeError(f"{api}: value must be a number, a sequence or 'random'; got {type(value).__name__}.")
        if isinstance(value, str) and value != "random":
            raise ValueError(f"{api}: a string value must be 'random'; got {value!r}.")
        self.prob = prob
        self.scale = scale
        self.ratio = ratio
        self.value = value
        self.inplace = inplace

    def _dynamic_get_param(self, img, scale, ratio, value):
        if F._is_pil_image(img):
            h, w, c = np.asarray(img).astype(np.uint8).shape[-3:]
        elif F._is_numpy_image(img):
            h, w, c = img.shape[-3:]
        else:
            c, h, w = img.shape[-3:]
        area = h * w
        log_ratio = np.log(ratio)
        for _ in range(10):
            erase_area = np.random.uniform(*scale) * area
            aspect = np.exp(np.random.uniform(*log_ratio))
            eh = int(round(np.sqrt(erase_area * aspect)))
            ew = int(round(np.sqrt(erase_area / aspect)))
            if eh >= h or ew >= w:
                continue
            if F._is_tensor_image(img):
                if value is None:
                    v = _normal(shape=[c, eh, ew]).astype(img.dtype)
                else:
                    v = _to_tensor(value, dtype=img.dtype)[:, None, None]
            elif value is None:
                v = np.random.normal(size=[eh, ew, c]) * 255
            else:
                v = np.array(value)[None, None, :]
            top = np.random.randint(0, h - eh + 1)
            left = np.random.randint(0, w - ew + 1)
            return top, left, eh, ew, v
        return 0, 0, h, w, img

    def _apply_image(self, img):
        if random.random() < self.prob:
            if isinstance(self.value, numbers.Number):
                value = [self.value]
            elif isinstance(self.value, str):
                value = None
            else:
                value = self.value
            if value is not None and len(value) not in (1, 3):
                raise ValueError("paddle.vision.transforms.RandomErasing: value must be one number or one per "
                                 f"channel (3); got {len(value)} values.")
            top, left, eh, ew, v = self._dynamic_get_param(img, self.scale, self.ratio, value)
            return F.erase(img, top, left, eh, ew, v, self.inplace)
        return img


def _check_sequence_input(x, name: str, req_sizes: tuple[int, ...], api: str) -> None:
    msg = " or ".join(str(n) for n in req_sizes)
    if not isinstance(x, Sequence) or isinstance(x, str):
        raise TypeError(f"paddle.vision.transforms.{api}: {name} must be a sequence of length {msg}; got "
                        f"{type(x).__name__}.")
    if len(x) not in req_sizes:
        raise ValueError(f"paddle.vision.transforms.{api}: {name} must be a sequence of length {msg}; got "
                         f"{len(x)} values.")


def _setup_angle(x, name: str, api: str, req_sizes: tuple[int, ...] = (2,)) -> list[float]:
    """[-x, x] for a number (which must be non-negative), else the sequence as floats."""
    if isinstance(x, numbers.Number):
        if x < 0:
            raise ValueError(f"paddle.vision.transforms.{api}: {name} as a single number must be non-negative; got "
                             f"{x}.")
        x = [-x, x]
    else:
        _check_sequence_input(x, name, req_sizes, api)
    return [float(d) for d in x]


def _check_warp_interpolation(interpolation, api: str) -> None:
    if interpolation not in ("nearest", "bilinear", "bicubic"):
        raise ValueError(f"paddle.vision.transforms.{api}: interpolation must be 'nearest', 'bilinear' or 'bicubic'; "
                         f"got {interpolation!r}.")


class RandomAffine(BaseTransform):
    """A random affine map: rotation by an angle drawn from ``degrees``, a shift of up to ``translate`` (fractions
    of the width and height), a scale drawn from ``scale`` and shears drawn from ``shear`` (x range, then y range
    with 4 values); drawn with ``random.uniform`` as Paddle draws them."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, interpolation: str = "nearest", fill=0,
                 center=None, keys=None) -> None:
        api = "RandomAffine"
        self.degrees = _setup_angle(degrees, "degrees", api)
        super().__init__(keys)
        _check_warp_interpolation(interpolation, api)
        self.interpolation = interpolation
        if translate is not None:
            _check_sequence_input(translate, "translate", (2,), api)
            for t in translate:
                if not 0.0 <= t <= 1.0:
                    raise ValueError(f"paddle.vision.transforms.{api}: translate values must be in [0, 1]; got {t}.")
        self.translate = translate
        if scale is not None:
            _check_sequence_input(scale, "scale", (2,), api)
            for s in scale:
                if s <= 0:
                    raise ValueError(f"paddle.vision.transforms.{api}: scale values must be positive; got {s}.")
        self.scale = scale
        self.shear = None if shear is None else _setup_angle(shear, "shear", api, (2, 4))
        if fill is None:
            fill = 0
        elif not isinstance(fill, (Sequence, numbers.Number)):
            raise TypeError(f"paddle.vision.transforms.{api}: fill must be a number or a sequence; got "
                            f"{type(fill).__name__}.")
        self.fill = fill
        if center is not None:
            _check_sequence_input(center, "center", (2,), api)
        self.center = center

    def _get_param(self, img_size, degrees, translate=None, scale_ranges=None, shears=None):
        angle = random.uniform(degrees[0], degrees[1])
        if translate is not None:
            max_dx = float(translate[0] * img_size[0])
            max_dy = float(translate[1] * img_size[1])
            translations = (int(random.uniform(-max_dx, max_dx)), int(random.uniform(-max_dy, max_dy)))
        else:
            translations = (0, 0)
        scale = random.uniform(scale_ranges[0], scale_ranges[1]) if scale_ranges is not None else 1.0
        shear_x, shear_y = 0.0, 0.0
        if shears is not None:
            shear_x = random.uniform(shears[0], shears[1])
            if len(shears) == 4:
                shear_y = random.uniform(shears[2], shears[3])
        return angle, translations, scale, (shear_x, shear_y)

    def _apply_image(self, img):
        w, h = _get_image_size(img)
        ret = self._get_param([w, h], self.degrees, self.translate, self.scale, self.shear)
        return F.affine(img, *ret, interpolation=self.interpolation, fill=self.fill, center=self.center)


class RandomRotation(BaseTransform):
    """Rotate by an angle drawn uniformly (``random.uniform``) from ``degrees`` ((-d, d) for a number d)."""

    def __init__(self, degrees, interpolation: str = "nearest", expand: bool = False, center=None, fill=0,
                 keys=None) -> None:
        api = "paddle.vision.transforms.RandomRotation"
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise ValueError(f"{api}: degrees as a single number must be non-negative; got {degrees}.")
            self.degrees = (-degrees, degrees)
        else:
            if len(degrees) != 2:
                raise ValueError(f"{api}: degrees as a sequence must hold 2 values (min, max); got {len(degrees)}.")
            self.degrees = degrees
        super().__init__(keys)
        self.interpolation = interpolation
        self.expand = expand
        self.center = center
        self.fill = fill

    def _get_param(self, degrees):
        return random.uniform(degrees[0], degrees[1])

    def _apply_image(self, img):
        angle = self._get_param(self.degrees)
        return F.rotate(img, angle, self.interpolation, self.expand, self.center, self.fill)


class RandomPerspective(BaseTransform):
    """With probability ``prob``, move the 4 corners inwards by random amounts up to ``distortion_scale`` of half
    the width and height (``random.uniform`` draws, as Paddle's) and warp the image accordingly."""

    def __init__(self, prob: float = 0.5, distortion_scale: float = 0.5, interpolation: str = "nearest", fill=0,
                 keys=None) -> None:
        api = "RandomPerspective"
        super().__init__(keys)
        _check_prob(prob, api)
        if not 0 <= distortion_scale <= 1:
            raise ValueError(f"paddle.vision.transforms.{api}: distortion_scale must be in [0, 1]; got "
                             f"{distortion_scale}.")
        _check_warp_interpolation(interpolation, api)
        if not isinstance(fill, (numbers.Number, str, list, tuple)):
            raise TypeError(f"paddle.vision.transforms.{api}: fill must be a number or a sequence; got "
                            f"{type(fill).__name__}.")
        self.prob = prob
        self.distortion_scale = distortion_scale
        self.interpolation = interpolation
        self.fill = fill

    def get_params(self, width: int, height: int, distortion_scale: float):
        """(startpoints, endpoints): the image's corners and where they move to."""
        hh, hw = height // 2, width // 2
        dw, dh = int(distortion_scale * hw), int(distortion_scale * hh)
        topleft = [int(random.uniform(0, dw + 1)), int(random.uniform(0, dh + 1))]
        topright = [int(random.uniform(width - dw - 1, width)), int(random.uniform(0, dh + 1))]
        botright = [int(random.uniform(width - dw - 1, width)), int(random.uniform(height - dh - 1, height))]
        botleft = [int(random.uniform(0, dw + 1)), int(random.uniform(height - dh - 1, height))]
        startpoints = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        return startpoints, [topleft, topright, botright, botleft]

    def _apply_image(self, img):
        width, height = _get_image_size(img)
        if random.random() < self.prob:
            startpoints, endpoints = self.get_params(width, height, self.distortion_scale)
            return F.perspective(img, startpoints, endpoints, self.interpolation, self.fill)
        return img
