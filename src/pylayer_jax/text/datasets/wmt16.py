"""WMT16: the English-German (Multi30k) translation data from the local wmt16 tar archive."""

from __future__ import annotations

import collections
import tarfile
from typing import Any

import numpy as np

from ...io import Dataset
from ._common import check_mode, local_file, positive

__all__ = ["WMT16"]

START_MARK, END_MARK, UNK_MARK = "<s>", "<e>", "<unk>"
TOTAL_EN_WORDS, TOTAL_DE_WORDS = 11250, 19220


class WMT16(Dataset):
    """WMT16 sentence pairs from the local ``data_file`` (wmt16.tar.gz with members wmt16/train, wmt16/test,
    wmt16/val: ``english<TAB>german`` lines).

    ``lang`` is the source language ('en' or 'de'). Each dictionary is ``<s>``, ``<e>``, ``<unk>`` and then the most
    frequent words of wmt16/train (ties in first-seen order) up to its size. As in Paddle 3.3.1 both dictionaries
    count the words of the *source* column (its builder reads the column of ``lang`` for either language), so the
    target dictionary holds source-language words; the results are Paddle's. Paddle caches the dictionaries as
    files under its data home; here they are built in memory, nothing is written. An item is (``<s>`` + source ids +
    ``<e>``, ``<s>`` + target ids, target ids + ``<e>``).
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", src_dict_size: int = -1,
                 trg_dict_size: int = -1, lang: str = "en", download: bool = True) -> None:
        api = "paddle.text.datasets.WMT16"
        self.mode = check_mode(api, mode, ("train", "test", "val"))
        self.data_file = local_file(data_file, "data_file", api, download, "WMT16 archive wmt16.tar.gz")
        if lang not in ("en", "de"):
            raise ValueError(f"{api}: lang must be 'en' or 'de', but received {lang!r}.")
        self.lang = lang
        positive(api, "src_dict_size", src_dict_size)
        positive(api, "trg_dict_size", trg_dict_size)
        self.src_dict_size = min(src_dict_size, TOTAL_EN_WORDS if lang == "en" else TOTAL_DE_WORDS)
        self.trg_dict_size = min(trg_dict_size, TOTAL_DE_WORDS if lang == "en" else TOTAL_EN_WORDS)
        self._words = self._count_words()
        self.src_dict = self._load_dict(src_dict_size)
        self.trg_dict = self._load_dict(trg_dict_size)  # (from the source column too: see the class docstring)
        self._load_data()

    def _lines(self, member: str) -> list[list[str]]:
        with tarfile.open(self.data_file, mode="r") as tar:
            try:
                f = tar.extractfile(member)
            except KeyError:
                raise ValueError(f"paddle.text.datasets.WMT16: the archive has no member {member!r}; pass the "
                                 "wmt16.tar.gz archive.") from None
            rows = [line.decode().strip().split("\t") for line in f]
        return [r for r in rows if len(r) == 2]

    def _count_words(self) -> list[str]:
        counts: collections.Counter = collections.Counter()
        col = 0 if self.lang == "en" else 1
        for row in self._lines("wmt16/train"):
            counts.update(row[col].split())
        return [w for w, _ in sorted(counts.items(), key=lambda wc: wc[1], reverse=True)]

    def _load_dict(self, dict_size: int, reverse: bool = False) -> dict:
        words = self._words if dict_size < 3 else self._words[:dict_size - 3]
        entries = [START_MARK, END_MARK, UNK_MARK, *words]
        return {i: w for i, w in enumerate(entries)} if reverse else {w: i for i, w in enumerate(entries)}

    def _load_data(self) -> None:
        start, end, unk = self.src_dict[START_MARK], self.src_dict[END_MARK], self.src_dict[UNK_MARK]
        src_col = 0 if self.lang == "en" else 1
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        for row in self._lines(f"wmt16/{self.mode}"):
            src = [start, *(self.src_dict.get(w, unk) for w in row[src_col].split()), end]
            trg = [self.trg_dict.get(w, unk) for w in row[1 - src_col].split()]
            self.src_ids.append(src)
            self.trg_ids.append([start, *trg])
            self.trg_ids_next.append([*trg, end])

    def __getitem__(self, idx: int) -> tuple[Any, Any, Any]:
        return np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]), np.array(self.trg_ids_next[idx])

    def __len__(self) -> int:
        return len(self.src_ids)

    def get_dict(self, lang: str, reverse: bool = False) -> dict:
        """The dictionary of ``lang`` ('en' or 'de'): word -> id, or id -> word with ``reverse``."""
        if lang not in ("en", "de"):
            raise ValueError(f"paddle.text.datasets.WMT16.get_dict: lang must be 'en' or 'de', but received {lang!r}.")
        size = self.src_dict_size if lang == self.lang else self.trg_dict_size
        return self._load_dict(size, reverse)
