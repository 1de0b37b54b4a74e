"""Imdb: the IMDB movie-review sentiment data from the local aclImdb tar archive."""

from __future__ import annotations

import collections
import re
import string
import tarfile
from typing import Any

import numpy as np

from ...io import Dataset
from ._common import check_mode, local_file

__all__ = ["Imdb"]

_PUNCT = string.punctuation.encode("latin-1")


class Imdb(Dataset):
    """IMDB reviews from the local ``data_file`` (aclImdb_v1.tar.gz).

    A review is the bytes of a member ``aclImdb/<train|test>/<pos|neg>/*.txt`` with the trailing newline, the ASCII
    punctuation removed, lower-cased and split on whitespace (so its words are bytes). The dictionary ``word_idx``
    holds every word seen more than ``cutoff`` times in all four folders, most frequent first (ties in byte
    order), and ``'<unk>'`` last. An item is (word ids int64 [n], label int64 [1]): 0 for a positive review, 1 for
    a negative one; the positive reviews of the split come first, each group in archive order.
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", cutoff: int = 150,
                 download: bool = True) -> None:
        api = "paddle.text.datasets.Imdb"
        self.mode = check_mode(api, mode, ("train", "test"))
        self.data_file = local_file(data_file, "data_file", api, download, "IMDB archive aclImdb_v1.tar.gz")
        self.word_idx = self._build_word_dict(cutoff)
        self._load_anno()

    def _tokenize(self, pattern: re.Pattern) -> list[list[bytes]]:
        docs = []
        with tarfile.open(self.data_file) as tar:
            for member in tar:
                if pattern.match(member.name):
                    text = tar.extractfile(member).read().rstrip(b"\n\r")
                    docs.append(text.translate(None, _PUNCT).lower().split())
        return docs

    def _build_word_dict(self, cutoff: int) -> dict[Any, int]:
        if not isinstance(cutoff, int):
            raise TypeError(f"paddle.text.datasets.Imdb: cutoff must be an int, but received {cutoff!r}.")
        freq: collections.Counter = collections.Counter()
        for doc in self._tokenize(re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$")):
            freq.update(doc)
        kept = sorted(((w, c) for w, c in freq.items() if c > cutoff), key=lambda wc: (-wc[1], wc[0]))
        if not kept:
            raise ValueError(f"paddle.text.datasets.Imdb: no word of {self.data_file!r} occurs more than cutoff={cutoff} "
                             "times, so the dictionary would be empty; pass a smaller cutoff.")
        word_idx: dict[Any, int] = {w: i for i, (w, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _load_anno(self) -> None:
        unk = self.word_idx["<unk>"]
        self.docs, self.labels = [], []
        for label, kind in ((0, "pos"), (1, "neg")):
            for doc in self._tokenize(re.compile(rf"aclImdb/{self.mode}/{kind}/.*\.txt$")):
                self.docs.append([self.word_idx.get(w, unk) for w in doc])
                self.labels.append(label)

    def __getitem__(self, idx: int) -> tuple[Any, Any]:
        return np.array(self.docs[idx]), np.array([self.labels[idx]])

    def __len__(self) -> int:
        return len(self.docs)
