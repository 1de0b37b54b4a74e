"""MNIST and FashionMNIST from local idx files (gzip-compressed, as distributed)."""

from __future__ import annotations

import gzip
import struct

import numpy as np

from ..._runtime.dtypes import get_default_dtype
from ...io import Dataset
from ..transforms._pil_image import pil_module
from ._common import backend_of, local_file

__all__ = ["MNIST", "FashionMNIST"]


def _read_idx(path: str, magic: int, dims: int, api: str) -> np.ndarray:
    with gzip.GzipFile(path, "rb") as f:
        buf = f.read()
    head = ">" + "I" * (dims + 1)
    if len(buf) < struct.calcsize(head):
        raise ValueError(f"{api}: {path!r} is too short to be an idx file.")
    found, *shape = struct.unpack_from(head, buf, 0)
    if found != magic:
        raise ValueError(f"{api}: {path!r} is not an idx file of this kind (magic number {found}, expected {magic}).")
    count = int(np.prod(shape))
    data = np.frombuffer(buf, dtype=np.uint8, count=count, offset=struct.calcsize(head))
    return data.reshape(shape)


class MNIST(Dataset):
    """The MNIST digits from local ``image_path`` / ``label_path`` idx gz files.

    An item is (image, label): the image is a 28x28 PIL image ('L' mode) with the 'pil' backend, a float
    28x28 array with 'cv2' (both passed through ``transform`` first; the 'cv2' result is cast to the default
    dtype), the label an int64 array of shape [1]. Nothing is downloaded: without the paths it raises.
    """

    NAME = "mnist"
    _API = "paddle.vision.datasets.MNIST"

    def __init__(self, image_path: str | None = None, label_path: str | None = None, mode: str = "train",
                 transform=None, download: bool = True, backend: str | None = None) -> None:
        api = f"paddle.vision.datasets.{type(self).__name__}"
        if not isinstance(mode, str) or mode.lower() not in ("train", "test"):
            raise ValueError(f"{api}: mode must be 'train' or 'test'; got {mode!r}.")
        self.backend = backend_of(backend, api)
        self.mode = mode.lower()
        what = f"{self.mode} images idx gz file"
        self.image_path = local_file(image_path, "image_path", api, download, what)
        self.label_path = local_file(label_path, "label_path", api, download, f"{self.mode} labels idx gz file")
        self.transform = transform
        self._parse_dataset()
        self.dtype = get_default_dtype()

    def _parse_dataset(self) -> None:
        api = f"paddle.vision.datasets.{type(self).__name__}"
        images = _read_idx(self.image_path, 2051, 3, api)
        labels = _read_idx(self.label_path, 2049, 1, api)
        n = len(labels)
        if len(images) < n:
            raise ValueError(f"{api}: the image file holds {len(images)} images for {n} labels.")
        flat = images[:n].reshape(n, -1).astype("float32")
        self.images = list(flat)
        self.labels = [np.array([lab], dtype="int64") for lab in labels]

    def __getitem__(self, idx: int):
        image, label = self.images[idx], self.labels[idx]
        image = np.reshape(image, [28, 28])
        if self.backend == "pil":
            image = pil_module().fromarray(image.astype("uint8"), mode="L")
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(self.dtype), label.astype("int64")

    def __len__(self) -> int:
        return len(self.labels)


class FashionMNIST(MNIST):
    """Fashion-MNIST (the same idx format and item layout as MNIST)."""

    NAME = "fashion-mnist"
