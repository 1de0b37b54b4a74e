"""WMT14: the English-French translation subset from the local wmt14 tar archive."""

from __future__ import annotations

import tarfile
from typing import Any

import numpy as np

from ...io import Dataset
from ._common import check_mode, local_file, positive

__all__ = ["WMT14"]

START, END, UNK, UNK_IDX = "<s>", "<e>", "<unk>", 2


class WMT14(Dataset):
    """WMT14 sentence pairs from the local ``data_file`` (wmt14.tgz).

    The dictionaries are the first ``dict_size`` lines of the members ending in ``src.dict`` and ``trg.dict``; the
    pairs are the tab-separated lines of the members ending in ``<mode>/<mode>`` (lines without exactly one tab are
    skipped, and pairs with more than 80 ids on a side). An item is (source ids with ``<s>``/``<e>`` around them,
    ``<s>`` + target ids, target ids + ``<e>``), unknown words id 2.
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", dict_size: int = -1,
                 download: bool = True) -> None:
        api = "paddle.text.datasets.WMT14"
        self.mode = check_mode(api, mode, ("train", "test", "gen"))
        self.data_file = local_file(data_file, "data_file", api, download, "WMT14 archive wmt14.tgz")
        self.dict_size = positive(api, "dict_size", dict_size)
        self._load_data()

    def _load_data(self) -> None:
        api = "paddle.text.datasets.WMT14"

        def read_dict(tar: tarfile.TarFile, suffix: str) -> dict[str, int]:
            names = [m.name for m in tar if m.name.endswith(suffix)]
            if len(names) != 1:
                raise ValueError(f"{api}: the archive must hold one member ending in {suffix!r}, but holds {names}.")
            out = {}
            for i, line in enumerate(tar.extractfile(names[0])):
                if i >= self.dict_size:
                    break
                out[line.strip().decode()] = i
            return out

        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as tar:
            self.src_dict = read_dict(tar, "src.dict")
            self.trg_dict = read_dict(tar, "trg.dict")
            suffix = f"{self.mode}/{self.mode}"
            for name in [m.name for m in tar if m.name.endswith(suffix)]:
                for line in tar.extractfile(name):
                    parts = line.decode().strip().split("\t")
                    if len(parts) != 2:
                        continue
                    src = [self.src_dict.get(w, UNK_IDX) for w in [START, *parts[0].split(), END]]
                    trg = [self.trg_dict.get(w, UNK_IDX) for w in parts[1].split()]
                    if len(src) > 80 or len(trg) > 80:
                        continue
                    self.src_ids.append(src)
                    self.trg_ids.append([self.trg_dict[START], *trg])
                    self.trg_ids_next.append([*trg, self.trg_dict[END]])

    def __getitem__(self, idx: int) -> tuple[Any, Any, Any]:
        return np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]), np.array(self.trg_ids_next[idx])

    def __len__(self) -> int:
        return len(self.src_ids)

    def get_dict(self, reverse: bool = False) -> tuple[dict, dict]:
        """(source dictionary, target dictionary); ``reverse``: id -> word instead of word -> id."""
        src, trg = self.src_dict, self.trg_dict
        if reverse:
            src, trg = {v: k for k, v in src.items()}, {v: k for k, v in trg.items()}
        return src, trg
