"""UCIHousing: the Boston housing table from the local ``housing.data`` file."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._runtime.dtypes import get_default_dtype
from ...io import Dataset
from ._common import check_mode, local_file

__all__ = ["UCIHousing"]

feature_names = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO", "B", "LSTAT"]


class UCIHousing(Dataset):
    """The UCI housing data from the local ``data_file`` (housing.data: 14 whitespace-separated numbers a row).

    Each of the 13 feature columns is centred on its mean and divided by its range (max - min) over the whole file;
    the first 80% of the rows are the 'train' split, the rest 'test'. An item is (features [13], price [1]) as
    arrays of the default dtype. Nothing is downloaded: without ``data_file`` it raises.
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", download: bool = True) -> None:
        api = "paddle.text.datasets.UCIHousing"
        self.mode = check_mode(api, mode, ("train", "test"))
        self.data_file = local_file(data_file, "data_file", api, download, "UCI housing.data file")
        self._load_data()
        self.dtype = get_default_dtype()

    def _load_data(self, feature_num: int = 14, ratio: float = 0.8) -> None:
        raw = np.fromfile(self.data_file, sep=" ")
        if raw.size == 0 or raw.size % feature_num:
            raise ValueError(f"paddle.text.datasets.UCIHousing: {self.data_file!r} holds {raw.size} numbers, not rows "
                             f"of {feature_num}; pass the housing.data file.")
        data = raw.reshape(-1, feature_num)
        top, bottom, mean = data.max(axis=0), data.min(axis=0), data.sum(axis=0) / data.shape[0]
        for i in range(feature_num - 1):
            data[:, i] = (data[:, i] - mean[i]) / (top[i] - bottom[i])
        cut = int(data.shape[0] * ratio)
        self.data = data[:cut] if self.mode == "train" else data[cut:]

    def __getitem__(self, idx: int) -> tuple[Any, Any]:
        row = self.data[idx]
        return np.array(row[:-1]).astype(self.dtype), np.array(row[-1:]).astype(self.dtype)

    def __len__(self) -> int:
        return len(self.data)
