"""Flowers102 from local files: the image archive (102flowers.tgz), the labels (imagelabels.mat) and the split
indices (setid.mat)."""

from __future__ import annotations

import io
import tarfile

import numpy as np

from ..._runtime.dtypes import get_default_dtype
from ...io import Dataset
from ..transforms._pil_image import pil_module
from ._common import backend_of, local_file

__all__ = ["Flowers"]

# Paddle's split names, as Paddle 3.3.1 maps them (its 'train' reads the larger 'tstid' list, 'test' the 'trnid' one)
MODE_FLAG_MAP = {"train": "tstid", "test": "trnid", "valid": "valid"}


def load_mat(path: str, key: str, api: str) -> np.ndarray:
    """The first row of the MATLAB array ``key`` in ``path`` (scipy, which jax depends on, reads the file)."""
    import scipy.io

    mat = scipy.io.loadmat(path)
    if key not in mat:
        keys = sorted(k for k in mat if not k.startswith('__'))
        raise ValueError(f"{api}: {path!r} has no array named {key!r} (it holds {keys}); "
                         "pass the Flowers102 file that holds it.")
    return np.asarray(mat[key])[0]


class Flowers(Dataset):
    """Flowers102 from the local ``data_file`` (102flowers.tgz), ``label_file`` (imagelabels.mat) and
    ``setid_file`` (setid.mat). ``mode`` 'train', 'valid' or 'test' picks the split (Paddle's mapping: 'train'
    reads setid's 'tstid' list, 'test' its 'trnid' list).

    An item is (image, label): the image ``jpg/image_{index:05}.jpg`` as a PIL image with the 'pil' backend, an
    HWC uint8 array with 'cv2' (after ``transform``; the 'cv2' result is cast to the default dtype); the label an
    int64 array of shape [1] (1 to 102). The images are read from the archive as they are asked for (Paddle
    extracts the archive next to it first; the items are the same). Nothing is downloaded: without the files it
    raises.
    """

    def __init__(self, data_file: str | None = None, label_file: str | None = None, setid_file: str | None = None,
                 mode: str = "train", transform=None, download: bool = True, backend: str | None = None) -> None:
        api = "paddle.vision.datasets.Flowers"
        if not isinstance(mode, str) or mode.lower() not in MODE_FLAG_MAP:
            raise ValueError(f"{api}: mode should be 'train', 'valid' or 'test', but got {mode!r}.")
        self.backend = backend_of(backend, api)
        self.mode = mode.lower()
        flag = MODE_FLAG_MAP[self.mode]
        self.data_file = local_file(data_file or None, "data_file", api, download, "102flowers.tgz image archive")
        self.label_file = local_file(label_file or None, "label_file", api, download, "imagelabels.mat label file")
        self.setid_file = local_file(setid_file or None, "setid_file", api, download, "setid.mat split file")
        self.transform = transform
        self.labels = load_mat(self.label_file, "labels", api)
        self.indexes = load_mat(self.setid_file, flag, api)
        with tarfile.open(self.data_file) as tar:
            self._members = {m.name.lstrip("./"): m for m in tar.getmembers() if m.isfile()}
        self._tar: tarfile.TarFile | None = None

    def _read(self, name: str) -> bytes:
        if name not in self._members:
            raise FileNotFoundError(f"paddle.vision.datasets.Flowers: {self.data_file!r} has no member {name!r}; "
                                    "pass the 102flowers.tgz archive that the split file's indices refer to.")
        if self._tar is None:
            self._tar = tarfile.open(self.data_file)
        return self._tar.extractfile(self._members[name]).read()

    def __getitem__(self, idx: int):
        index = int(self.indexes[idx])
        label = np.array([self.labels[index - 1]])
        image = pil_module().open(io.BytesIO(self._read(f"jpg/image_{index:05}.jpg")))
        if self.backend == "cv2":
            image = np.array(image)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(get_default_dtype()), label.astype("int64")

    def __len__(self) -> int:
        return len(self.indexes)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_tar"] = None  # (an open archive does not pickle: a DataLoader worker reopens it)
        return state
