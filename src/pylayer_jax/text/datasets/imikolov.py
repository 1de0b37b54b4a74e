"""Imikolov: the Penn Treebank language-model data (Mikolov's simple-examples archive)."""

from __future__ import annotations

import collections
import tarfile
from typing import Any

import numpy as np

from ...io import Dataset
from ._common import check_mode, local_file

__all__ = ["Imikolov"]


def _key(word: Any) -> bytes:
    return word.encode() if isinstance(word, str) else word


class Imikolov(Dataset):
    """The PTB sentences of the local ``data_file`` (simple-examples.tgz: ``./simple-examples/data/ptb.<split>.txt``).

    The dictionary ``word_idx`` counts the words (bytes, as read from the archive) of the train and valid files,
    plus one ``'<s>'`` and one ``'<e>'`` a line, keeps those seen more than ``min_word_freq`` times, most frequent
    first (ties in byte order), and puts ``'<unk>'`` last (a ``b'<unk>'`` word of the text is an ordinary word, as
    in Paddle). ``data_type='NGRAM'``: every window of ``window_size`` ids of ``<s> line <e>`` is an item (a tuple of
    int arrays of shape []); ``'SEQ'``: an item is (``<s>`` + line, line + ``<e>``), lines whose source is longer
    than a positive ``window_size`` left out. ``mode`` 'train' reads ptb.train.txt, 'test' ptb.test.txt.
    """

    def __init__(self, data_file: str | None = None, data_type: str = "NGRAM", window_size: int = -1,
                 mode: str = "train", min_word_freq: int = 50, download: bool = True) -> None:
        api = "paddle.text.datasets.Imikolov"
        if not isinstance(data_type, str) or data_type.upper() not in ("NGRAM", "SEQ"):
            raise ValueError(f"{api}: data_type must be 'NGRAM' or 'SEQ', but received {data_type!r}.")
        self.data_type = data_type.upper()
        self.mode = check_mode(api, mode, ("train", "test"))
        if not isinstance(window_size, int):
            raise TypeError(f"{api}: window_size must be an int, but received {window_size!r}.")
        if self.data_type == "NGRAM" and window_size < 0:
            raise ValueError(f"{api}: data_type='NGRAM' needs window_size >= 0 (the n of the n-grams), but received "
                             f"{window_size}.")
        self.window_size = window_size
        self.min_word_freq = min_word_freq
        self.data_file = local_file(data_file, "data_file", api, download, "simple-examples.tgz archive")
        self.word_idx = self._build_word_dict(min_word_freq)
        self._load_anno()

    @staticmethod
    def _lines(tar: tarfile.TarFile, split: str) -> list[bytes]:
        name = f"./simple-examples/data/ptb.{split}.txt"
        try:
            return list(tar.extractfile(name))
        except KeyError:
            raise ValueError(f"paddle.text.datasets.Imikolov: the archive has no member {name!r}; pass the "
                             "simple-examples.tgz archive.") from None

    def _build_word_dict(self, cutoff: int) -> dict[Any, int]:
        freq: collections.Counter = collections.Counter()
        with tarfile.open(self.data_file) as tar:
            for split in ("train", "valid"):
                for line in self._lines(tar, split):
                    freq.update(line.strip().split())
                    freq["<s>"] += 1
                    freq["<e>"] += 1
        freq.pop("<unk>", None)
        kept = sorted(((w, c) for w, c in freq.items() if c > cutoff), key=lambda wc: (-wc[1], _key(wc[0])))
        word_idx: dict[Any, int] = {w: i for i, (w, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _load_anno(self) -> None:
        self.data = []
        unk = self.word_idx["<unk>"]
        with tarfile.open(self.data_file) as tar:
            lines = self._lines(tar, self.mode)
        for line in lines:
            words = line.strip().split()
            if self.data_type == "NGRAM":
                ids = [self.word_idx.get(w, unk) for w in ["<s>", *words, "<e>"]]
                n = self.window_size
                if len(ids) >= n:
                    self.data.extend(tuple(ids[i - n:i]) for i in range(n, len(ids) + 1))
            else:
                ids = [self.word_idx.get(w, unk) for w in words]
                src, trg = [self.word_idx.get("<s>", unk), *ids], [*ids, self.word_idx.get("<e>", unk)]
                if self.window_size > 0 and len(src) > self.window_size:
                    continue
                self.data.append((src, trg))

    def __getitem__(self, idx: int) -> tuple[Any, ...]:
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self) -> int:
        return len(self.data)
