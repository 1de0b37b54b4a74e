"""``paddle.vision.image``: the image backend used to load images (``set_image_backend``, ``image_load``)."""

from __future__ import annotations

import numpy as np

from .transforms._pil_image import pil_module

__all__ = ["set_image_backend", "get_image_backend", "image_load"]

_BACKENDS = ("pil", "cv2", "tensor")
_image_backend = "pil"


def _check(backend) -> None:
    if backend not in _BACKENDS:
        raise ValueError(f"paddle.vision: the image backend must be one of {list(_BACKENDS)}; got {backend!r}.")


def set_image_backend(backend: str) -> None:
    """Choose how DatasetFolder / ImageFolder and the datasets load images: 'pil' (PIL images) or 'cv2' (numpy
    HWC arrays)."""
    global _image_backend
    _check(backend)
    _image_backend = backend


def get_image_backend() -> str:
    """The image backend: 'pil' unless ``set_image_backend`` changed it."""
    return _image_backend


def image_load(path: str, backend: str | None = None):
    """Load the image at ``path``: a PIL image for 'pil', a numpy HWC array for 'cv2'.

    Decoding image files needs Pillow (OpenCV is not used here). The 'cv2' backend returns the array in the
    channel order OpenCV's ``imread`` gives: BGR for colour images."""
    if backend is None:
        backend = _image_backend
    _check(backend)
    if backend == "tensor":
        raise ValueError("paddle.vision.image_load: the 'tensor' backend loads no files (Paddle returns None for "
                         "it); pass backend='pil' or backend='cv2'.")
    Image = pil_module()
    if backend == "pil":
        return Image.open(path)
    img = Image.open(path)
    arr = np.asarray(img.convert("RGB") if img.mode not in ("L", "RGB") else img)
    if arr.ndim == 2:
        arr = np.repeat(arr[:, :, None], 3, axis=2)
    return np.ascontiguousarray(arr[:, :, ::-1])
