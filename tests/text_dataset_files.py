"""Small synthetic files in the formats of ``paddle.text.datasets`` (the same bytes every time).

Used by ``tests/record_paddle_text.py`` (real Paddle reads them and its items are recorded) and by
``tests/text/test_text_datasets.py`` (pylayer_jax reads the same files and must give the recorded items).
``write_all(root)`` writes every file under ``root`` and returns their paths by data set.
"""

from __future__ import annotations

import gzip
import io
import os
import tarfile
import zipfile

import numpy as np

WORDS = ["the", "movie", "was", "good", "bad", "plot", "actor", "great", "boring", "fun", "story", "long"]


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def uci_housing(path: str) -> None:
    rng = np.random.default_rng(11)
    rows = np.round(rng.uniform(0, 100, size=(25, 14)), 4)
    with open(path, "w") as f:
        for r in rows:
            f.write(" " + " ".join(f"{v:.4f}" for v in r) + "\n")


def imdb(path: str) -> None:
    rng = np.random.default_rng(12)
    with tarfile.open(path, "w:gz") as tar:
        for mode in ("train", "test"):
            for kind in ("pos", "neg"):
                for i in range(4):
                    words = [WORDS[k] for k in rng.integers(0, len(WORDS), size=rng.integers(3, 9))]
                    text = " ".join(words).capitalize() + ", really! Yes." + ("\n" if i % 2 else "")
                    _add(tar, f"aclImdb/{mode}/{kind}/{i}_{i + 5}.txt", text.encode())
        _add(tar, "aclImdb/README", b"not a review")


def imikolov(path: str) -> None:
    rng = np.random.default_rng(13)
    with tarfile.open(path, "w:gz") as tar:
        for split, n in (("train", 12), ("valid", 5), ("test", 4)):
            lines = []
            for _ in range(n):
                words = [WORDS[k] for k in rng.integers(0, 8, size=rng.integers(2, 7))]
                if rng.random() < 0.3:
                    words.append("<unk>")
                lines.append(" " + " ".join(words) + " \n")
            _add(tar, f"./simple-examples/data/ptb.{split}.txt", "".join(lines).encode())


def movielens(path: str) -> None:
    movies = ["1::Toy Story (1995)::Animation|Children's|Comedy", "2::Jumanji (1995)::Adventure|Children's|Fantasy",
              "3::Grumpier Old Men (1995)::Comedy|Romance", "4::Waiting to Exhale (1995)::Comedy|Drama"]
    users = ["1::F::1::10::48067", "2::M::56::16::70072", "3::M::25::15::55117"]
    rng = np.random.default_rng(14)
    ratings = [f"{rng.integers(1, 4)}::{rng.integers(1, 5)}::{rng.integers(1, 6)}::978300760" for _ in range(30)]
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("ml-1m/movies.dat", "\n".join(movies) + "\n")
        z.writestr("ml-1m/users.dat", "\n".join(users) + "\n")
        z.writestr("ml-1m/ratings.dat", "\n".join(ratings) + "\n")


def _pairs(rng: np.random.Generator, n: int, src: list[str], trg: list[str]) -> bytes:
    lines = []
    for _ in range(n):
        s = " ".join(src[k] for k in rng.integers(0, len(src), size=rng.integers(2, 6)))
        t = " ".join(trg[k] for k in rng.integers(0, len(trg), size=rng.integers(2, 6)))
        lines.append(f"{s}\t{t}\n")
    lines.append("a line without a tab\n")
    return "".join(lines).encode()


EN = ["the", "house", "is", "small", "a", "dog", "runs", "cat"]
DE = ["das", "haus", "ist", "klein", "ein", "hund", "läuft", "katze"]


def wmt14(path: str) -> None:
    rng = np.random.default_rng(15)
    with tarfile.open(path, "w:gz") as tar:
        _add(tar, "wmt14/src.dict", ("\n".join(["<s>", "<e>", "<unk>", *EN[:6]]) + "\n").encode())
        _add(tar, "wmt14/trg.dict", ("\n".join(["<s>", "<e>", "<unk>", *DE[:6]]) + "\n").encode())
        for mode, n in (("train", 6), ("test", 3), ("gen", 2)):
            _add(tar, f"wmt14/{mode}/{mode}", _pairs(rng, n, EN, DE))


def wmt16(path: str) -> None:
    rng = np.random.default_rng(16)
    with tarfile.open(path, "w:gz") as tar:
        for mode, n in (("train", 10), ("test", 3), ("val", 3)):
            _add(tar, f"wmt16/{mode}", _pairs(rng, n, EN, DE))


def conll05(root: str) -> dict[str, str]:
    """The test archive (words and props gz files) and the word, verb and target dictionaries."""
    sentences = [
        (["The", "cat", "sat", "on", "the", "mat"],
         [["-", "*"], ["-", "(A0*"], ["sat", "(V*)"], ["-", "(AM-LOC*"], ["-", "*"], ["-", "*)"]]),
        (["Dogs", "bark", "and", "cats", "run", "."],
         [["-", "(A0*)", "*"], ["bark", "(V*)", "*"], ["-", "*", "*"], ["-", "*", "(A0*)"], ["run", "*", "(V*)"],
          ["-", "*", "*"]]),
    ]
    words = "".join("".join(w + "\n" for w in s) + "\n" for s, _ in sentences)
    props = "".join("".join(" ".join(p) + "\n" for p in ps) + "\n" for _, ps in sentences)
    paths = {k: os.path.join(root, n) for k, n in (("data_file", "conll05st-tests.tar.gz"),
                                                   ("word_dict_file", "wordDict.txt"),
                                                   ("verb_dict_file", "verbDict.txt"),
                                                   ("target_dict_file", "targetDict.txt"), ("emb_file", "emb"))}
    with tarfile.open(paths["data_file"], "w:gz") as tar:
        _add(tar, "conll05st-release/test.wsj/words/test.wsj.words.gz", gzip.compress(words.encode(), mtime=0))
        _add(tar, "conll05st-release/test.wsj/props/test.wsj.props.gz", gzip.compress(props.encode(), mtime=0))
    with open(paths["word_dict_file"], "w") as f:
        f.write("\n".join(["<unk>", "the", "cat", "sat", "on", "mat", "bark", "and", "run", ".", "bos", "eos"]) + "\n")
    with open(paths["verb_dict_file"], "w") as f:
        f.write("sit\nsat\nbark\nrun\n")
    with open(paths["target_dict_file"], "w") as f:
        f.write("B-A0\nI-A0\nB-AM-LOC\nI-AM-LOC\nB-V\nI-V\nO\n")
    with open(paths["emb_file"], "w") as f:
        f.write("0.0\n")
    return paths


def write_all(root: str) -> dict[str, object]:
    os.makedirs(root, exist_ok=True)
    out: dict[str, object] = {}
    for name, fn, fname in (("uci_housing", uci_housing, "housing.data"), ("imdb", imdb, "aclImdb_v1.tar.gz"),
                            ("imikolov", imikolov, "simple-examples.tgz"), ("movielens", movielens, "ml-1m.zip"),
                            ("wmt14", wmt14, "wmt14.tgz"), ("wmt16", wmt16, "wmt16.tar.gz")):
        p = os.path.join(root, fname)
        fn(p)
        out[name] = p
    out["conll05"] = conll05(root)
    return out
