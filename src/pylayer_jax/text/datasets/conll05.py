"""Conll05st: the CoNLL-2005 semantic-role-labelling test set (WSJ) from local files."""

from __future__ import annotations

import gzip
import tarfile
from typing import Any

import numpy as np

from ...io import Dataset
from ._common import local_file

__all__ = ["Conll05st"]

UNK_IDX = 0
_WORDS = "conll05st-release/test.wsj/words/test.wsj.words.gz"
_PROPS = "conll05st-release/test.wsj/props/test.wsj.props.gz"


def _bio(column: list[str]) -> list[str]:
    """One predicate's bracketed argument column (``(A0*``, ``*``, ``*)``, ``(V*)``) as B-/I-/O tags."""
    tags, tag, inside = [], "O", False
    for mark in column:
        if mark == "*":
            tags.append(f"I-{tag}" if inside else "O")
        elif mark == "*)":
            tags.append(f"I-{tag}")
            inside = False
        elif "(" in mark:
            tag = mark[1:mark.find("*")]
            tags.append(f"B-{tag}")
            inside = ")" not in mark
        else:
            raise RuntimeError(f"paddle.text.datasets.Conll05st: unexpected label {mark!r} in the props file.")
    return tags


class Conll05st(Dataset):
    """The CoNLL-2005 test.wsj sentences from the local ``data_file`` (conll05st-tests.tar.gz) with the word, verb
    and target dictionaries (one entry a line: the line number is the id) and ``emb_file`` (only returned by
    ``get_embedding``).

    Each predicate of a sentence gives an item of 9 int arrays of the sentence's length: word ids, the ids of the
    words two and one before the verb, of the verb, one and two after it (each repeated; 'bos'/'eos' past the
    ends), the predicate id, the mark (1 within two words of the verb) and the label ids.

    ``label_dict`` numbers B-/I- pairs of the argument tags in the target file and 'O' last; the tags are taken in
    sorted order (Paddle takes them in a Python set's order, which changes with the string hash seed from run to
    run). ``get_dict()`` returns the three dictionaries.
    """

    def __init__(self, data_file: str | None = None, word_dict_file: str | None = None,
                 verb_dict_file: str | None = None, target_dict_file: str | None = None,
                 emb_file: str | None = None, download: bool = True) -> None:
        api = "paddle.text.datasets.Conll05st"
        self.data_file = local_file(data_file, "data_file", api, download, "conll05st-tests.tar.gz archive")
        self.word_dict_file = local_file(word_dict_file, "word_dict_file", api, download, "wordDict.txt file")
        self.verb_dict_file = local_file(verb_dict_file, "verb_dict_file", api, download, "verbDict.txt file")
        self.target_dict_file = local_file(target_dict_file, "target_dict_file", api, download, "targetDict.txt file")
        self.emb_file = local_file(emb_file, "emb_file", api, download, "embedding file (emb)")
        self.word_dict = self._load_dict(self.word_dict_file)
        self.predicate_dict = self._load_dict(self.verb_dict_file)
        self.label_dict = self._load_label_dict(self.target_dict_file)
        self._load_anno()

    @staticmethod
    def _load_dict(filename: str) -> dict[str, int]:
        with open(filename) as f:
            return {line.strip(): i for i, line in enumerate(f)}

    @staticmethod
    def _load_label_dict(filename: str) -> dict[str, int]:
        with open(filename) as f:
            tags = sorted({line.strip()[2:] for line in f if line.strip().startswith(("B-", "I-"))})
        d = {}
        for i, tag in enumerate(tags):
            d[f"B-{tag}"], d[f"I-{tag}"] = 2 * i, 2 * i + 1
        d["O"] = 2 * len(tags)
        return d

    def _load_anno(self) -> None:
        self.sentences, self.predicates, self.labels = [], [], []
        with tarfile.open(self.data_file) as tar:
            words = gzip.decompress(tar.extractfile(_WORDS).read()).decode().splitlines()
            props = gzip.decompress(tar.extractfile(_PROPS).read()).decode().splitlines()
        sentence: list[str] = []
        rows: list[list[str]] = []
        for word, prop in zip(words, props):
            cols = prop.strip().split()
            if cols:
                sentence.append(word.strip())
                rows.append(cols)
                continue
            if rows:  # the end of a sentence: column 0 names the verbs, each further column one verb's arguments
                columns = [[r[i] for r in rows] for i in range(len(rows[0]))]
                verbs = [v for v in columns[0] if v != "-"]
                for i, column in enumerate(columns[1:]):
                    self.sentences.append(sentence)
                    self.predicates.append(verbs[i])
                    self.labels.append(_bio(column))
            sentence, rows = [], []

    def __getitem__(self, idx: int) -> tuple[Any, ...]:
        sentence, predicate, labels = self.sentences[idx], self.predicates[idx], self.labels[idx]
        n = len(sentence)
        v = labels.index("B-V")
        mark = [0] * len(labels)
        for k in range(max(v - 2, 0), min(v + 3, len(labels))):
            mark[k] = 1
        ctx = [sentence[v - 2] if v > 1 else "bos", sentence[v - 1] if v > 0 else "bos", sentence[v],
               sentence[v + 1] if v < len(labels) - 1 else "eos", sentence[v + 2] if v < len(labels) - 2 else "eos"]
        word_ids = [self.word_dict.get(w, UNK_IDX) for w in sentence]
        ctx_ids = [[self.word_dict.get(c, UNK_IDX)] * n for c in ctx]
        pred_ids = [self.predicate_dict.get(predicate)] * n
        label_ids = [self.label_dict.get(t) for t in labels]
        return tuple(np.array(a) for a in (word_ids, *ctx_ids, pred_ids, mark, label_ids))

    def __len__(self) -> int:
        return len(self.sentences)

    def get_dict(self) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
        """(word dictionary, verb dictionary, label dictionary)."""
        return self.word_dict, self.predicate_dict, self.label_dict

    def get_embedding(self) -> str:
        """The path of the embedding file."""
        return self.emb_file
