"""Cifar10 and Cifar100 from the local python-version archive (a tar.gz of pickled batches)."""

from __future__ import annotations

import pickle
import tarfile

import numpy as np

from ..._runtime.dtypes import get_default_dtype
from ...io import Dataset
from ..transforms._pil_image import pil_module
from ._common import backend_of, local_file

__all__ = ["Cifar10", "Cifar100"]


class Cifar10(Dataset):
    """CIFAR-10 from the local ``data_file`` (cifar-10-python.tar.gz): the members whose name holds
    'data_batch' (train) or 'test_batch' (test), in name order.

    An item is (image, label): a 32x32 RGB PIL image with the 'pil' backend, a 32x32x3 array with 'cv2'
    (after ``transform``; the 'cv2' result is cast to the default dtype), the label an int64 0-d array. Nothing
    is downloaded: without ``data_file`` it raises.

    The batches are Python pickles: open only archives you trust.
    """

    _FLAGS = {"train": "data_batch", "test": "test_batch"}
    _WHAT = "cifar-10-python.tar.gz"

    def __init__(self, data_file: str | None = None, mode: str = "train", transform=None, download: bool = True,
                 backend: str | None = None) -> None:
        api = f"paddle.vision.datasets.{type(self).__name__}"
        if not isinstance(mode, str) or mode.lower() not in ("train", "test"):
            raise ValueError(f"{api}: mode must be 'train' or 'test'; got {mode!r}.")
        self.mode = mode.lower()
        self.backend = backend_of(backend, api)
        self.flag = self._FLAGS[self.mode]
        self.data_file = local_file(data_file, "data_file", api, download, self._WHAT)
        self.transform = transform
        self._load_data()
        self.dtype = get_default_dtype()

    def _load_data(self) -> None:
        self.data = []
        with tarfile.open(self.data_file, mode="r") as f:
            names = sorted(m.name for m in f if self.flag in m.name)
            for name in names:
                batch = pickle.load(f.extractfile(name), encoding="bytes")
                labels = batch.get(b"labels", batch.get(b"fine_labels", None))
                if labels is None:
                    raise ValueError(f"paddle.vision.datasets.{type(self).__name__}: batch {name!r} has no labels "
                                     "(b'labels' or b'fine_labels').")
                for sample, label in zip(batch[b"data"], labels):
                    self.data.append((sample, label))

    def __getitem__(self, idx: int):
        image, label = self.data[idx]
        image = np.reshape(image, [3, 32, 32]).transpose([1, 2, 0])
        if self.backend == "pil":
            image = pil_module().fromarray(image.astype("uint8"))
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, np.array(label).astype("int64")
        return image.astype(self.dtype), np.array(label).astype("int64")

    def __len__(self) -> int:
        return len(self.data)


class Cifar100(Cifar10):
    """CIFAR-100 from the local ``data_file`` (cifar-100-python.tar.gz): the 'train' or 'test' member, with its
    fine labels."""

    _FLAGS = {"train": "train", "test": "test"}
    _WHAT = "cifar-100-python.tar.gz"
