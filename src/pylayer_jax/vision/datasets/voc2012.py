"""VOC2012 semantic segmentation from the local VOCtrainval tar archive."""

from __future__ import annotations

import io
import tarfile

import numpy as np

from ..._runtime.dtypes import get_default_dtype
from ...io import Dataset
from ..transforms._pil_image import pil_module
from ._common import backend_of, local_file

__all__ = ["VOC2012"]

SET_FILE = "VOCdevkit/VOC2012/ImageSets/Segmentation/{}.txt"
DATA_FILE = "VOCdevkit/VOC2012/JPEGImages/{}.jpg"
LABEL_FILE = "VOCdevkit/VOC2012/SegmentationClass/{}.png"
# Paddle 3.3.1's mapping of modes to the segmentation lists
MODE_FLAG_MAP = {"train": "trainval", "test": "train", "valid": "val"}


class VOC2012(Dataset):
    """VOC2012 segmentation from the local ``data_file`` (VOCtrainval_11-May-2012.tar). ``mode`` picks the list
    ``VOCdevkit/VOC2012/ImageSets/Segmentation/{flag}.txt`` (Paddle's mapping: 'train' -> trainval, 'test' ->
    train, 'valid' -> val).

    An item is (image, label): the JPEG image and the PNG class map of one name of that list, as PIL images with
    the 'pil' backend; with 'cv2' as arrays (the image HWC, the label HW), both cast to the default dtype after
    ``transform`` (which sees the image only). Nothing is downloaded: without ``data_file`` it raises.
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", transform=None, download: bool = True,
                 backend: str | None = None) -> None:
        api = "paddle.vision.datasets.VOC2012"
        if not isinstance(mode, str) or mode.lower() not in MODE_FLAG_MAP:
            raise ValueError(f"{api}: mode should be 'train', 'valid' or 'test', but got {mode!r}.")
        self.backend = backend_of(backend, api)
        self.mode = mode.lower()
        self.flag = MODE_FLAG_MAP[self.mode]
        self.data_file = local_file(data_file, "data_file", api, download, "VOCtrainval_11-May-2012.tar archive")
        self.transform = transform
        self._load_anno(api)
        self.dtype = get_default_dtype()

    def _load_anno(self, api: str) -> None:
        self.data_tar = tarfile.open(self.data_file)
        self.name2mem = {m.name: m for m in self.data_tar.getmembers()}
        set_file = SET_FILE.format(self.flag)
        if set_file not in self.name2mem:
            raise FileNotFoundError(f"{api}: {self.data_file!r} has no member {set_file!r}; pass the VOC2012 "
                                    "trainval archive (with its ImageSets/Segmentation lists).")
        names = [line.strip().decode("utf-8") for line in self.data_tar.extractfile(self.name2mem[set_file])]
        names = [n for n in names if n]
        self.data = [DATA_FILE.format(n) for n in names]
        self.labels = [LABEL_FILE.format(n) for n in names]

    def _read(self, name: str):
        if name not in self.name2mem:
            raise FileNotFoundError(f"paddle.vision.datasets.VOC2012: {self.data_file!r} has no member {name!r}, "
                                    "which the segmentation list names.")
        if self.data_tar is None:
            self.data_tar = tarfile.open(self.data_file)
        return pil_module().open(io.BytesIO(self.data_tar.extractfile(self.name2mem[name]).read()))

    def __getitem__(self, idx: int):
        data, label = self._read(self.data[idx]), self._read(self.labels[idx])
        if self.backend == "cv2":
            data, label = np.array(data), np.array(label)
        if self.transform is not None:
            data = self.transform(data)
        if self.backend == "cv2":
            return data.astype(self.dtype), label.astype(self.dtype)
        return data, label

    def __len__(self) -> int:
        return len(self.data)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["data_tar"] = None  # (an open archive does not pickle: a DataLoader worker reopens it)
        return state

    def __del__(self) -> None:
        tar = getattr(self, "data_tar", None)
        if tar is not None:
            tar.close()
