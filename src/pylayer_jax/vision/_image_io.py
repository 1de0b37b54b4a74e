"""``paddle.vision.ops.read_file`` and ``decode_jpeg``: the bytes of a file as a uint8 Tensor, and the JPEG image
they hold as a CHW uint8 Tensor. Paddle 3.3.1 decodes JPEG on GPUs only (nvJPEG; on the CPU it raises
NotImplementedError); here Pillow decodes it wherever the program runs, when Pillow is installed (it is not a
dependency of pylayer_jax)."""

from __future__ import annotations

import io
import os

import numpy as np

from .._tensor.facade import Tensor
from .._tensor.facade import to_tensor as _to_tensor

_MODES = ("unchanged", "gray", "rgb")


def read_file(filename, name=None):
    """The bytes of the file ``filename`` as a 1-D uint8 Tensor."""
    api = "paddle.vision.ops.read_file"
    if not isinstance(filename, (str, os.PathLike)):
        raise TypeError(f"{api}: filename must be a path (str); got {type(filename).__name__}.")
    path = os.fspath(filename)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{api}: no file at {path!r}; pass the path of an existing file.")
    if os.path.isdir(path):
        raise IsADirectoryError(f"{api}: {path!r} is a directory; pass the path of a file.")
    with open(path, "rb") as fh:
        data = fh.read()
    return _to_tensor(np.frombuffer(data, np.uint8).copy())


def _pil_image():
    try:
        from PIL import Image
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "paddle.vision.ops.decode_jpeg: decoding JPEG needs Pillow, which is not installed and is not a "
            "dependency of pylayer_jax; install it (pip install pillow). (Paddle 3.3.1 decodes JPEG only on GPUs.)"
        ) from e
    return Image


def decode_jpeg(x, mode: str = "unchanged", name=None):
    """Decode the JPEG bytes ``x`` (a 1-D uint8 Tensor, as ``read_file`` gives) into a [channels, height, width]
    uint8 Tensor: 'unchanged' keeps the file's channels (1 for a grayscale JPEG, 3 RGB for a colour one),
    'gray' gives the luma channel, 'rgb' three RGB channels. Needs Pillow; pixel values may differ from
    Paddle's GPU decoder (nvJPEG) by the rounding of the inverse DCT and upsampling."""
    api = "paddle.vision.ops.decode_jpeg"
    if mode not in _MODES:
        raise ValueError(f"{api}: mode must be one of {list(_MODES)}; got {mode!r}.")
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: x must be a Tensor of the file's bytes (read_file gives one); got "
                        f"{type(x).__name__}.")
    data = x.numpy()
    if data.dtype != np.uint8 or data.ndim != 1:
        raise ValueError(f"{api}: x must be a 1-D uint8 Tensor of the JPEG file's bytes; got a {data.dtype} "
                         f"Tensor of shape {list(data.shape)}.")
    Image = _pil_image()
    try:
        img = Image.open(io.BytesIO(data.tobytes()))
        fmt = img.format
    except Exception as e:  # noqa: BLE001  (Pillow raises several types for bytes it cannot read)
        raise ValueError(f"{api}: x does not hold a JPEG image that can be decoded ({type(e).__name__}: {e}).") from e
    if fmt != "JPEG":
        raise ValueError(f"{api}: x holds a {fmt} image, not a JPEG; decode_jpeg reads JPEG only.")
    if mode == "unchanged" and img.mode not in ("L", "RGB"):
        raise ValueError(f"{api}: mode 'unchanged' supports JPEGs of 1 or 3 channels (as Paddle's decoder); this "
                         f"one is {img.mode}: pass mode='rgb' or mode='gray'.")
    if mode == "gray":
        img.draft("L", img.size)  # the decoder's own luma channel (no colour conversion and back)
        img = img.convert("L")
    elif mode == "rgb":
        img = img.convert("RGB")
    try:
        arr = np.asarray(img, np.uint8)
    except OSError as e:
        raise ValueError(f"{api}: x holds a damaged JPEG that cannot be decoded ({e}).") from e
    if arr.ndim == 2:
        arr = arr[:, :, None]
    return _to_tensor(np.ascontiguousarray(arr.transpose(2, 0, 1)))
