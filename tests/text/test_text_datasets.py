"""``paddle.text.datasets`` on small synthetic files in Paddle's formats (``tests/text_dataset_files.py``), against
what Paddle 3.3.1's classes give on the same files (recorded by ``tests/record_paddle_text.py``). Where Paddle numbers
entries in a Python set's order (Movielens categories and title words, Conll05st labels), which changes with the
hash seed, the items are compared decoded back to words."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest
import text_dataset_files

import pylayer_jax as paddle
from pylayer_jax.text import datasets as D

REC = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle_text.json").read_text())["datasets"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return text_dataset_files.write_all(str(tmp_path_factory.mktemp("text_data")))


def _items(ds):
    return [[np.asarray(a).tolist() for a in ds[i]] for i in range(len(ds))]


def _dtypes(ds):
    return [str(np.asarray(a).dtype) for a in ds[0]]


def _key(w):
    return [w.decode() if isinstance(w, bytes) else w, isinstance(w, bytes)]


@pytest.mark.parametrize("mode", ["train", "test"])
def test_uci_housing(files, mode):
    ds = D.UCIHousing(files["uci_housing"], mode=mode)
    rec = REC[f"uci_{mode}"]
    assert len(ds) == rec["len"] and _dtypes(ds) == rec["dtypes"]
    np.testing.assert_allclose(np.array([np.concatenate(it) for it in _items(ds)]),
                               np.array([np.concatenate(it) for it in rec["items"]]), rtol=1e-6)
    assert isinstance(paddle.text.UCIHousing(files["uci_housing"]), paddle.io.Dataset)


@pytest.mark.parametrize("mode", ["train", "test"])
def test_imdb(files, mode):
    ds = D.Imdb(files["imdb"], mode=mode, cutoff=2)
    rec = REC[f"imdb_{mode}"]
    assert len(ds) == rec["len"] and _dtypes(ds) == rec["dtypes"] and _items(ds) == rec["items"]
    assert [[*_key(w)[:1], i, _key(w)[1]] for w, i in ds.word_idx.items()] == rec["word_idx"]


@pytest.mark.parametrize("data_type,window,mode", [("NGRAM", 3, "train"), ("NGRAM", 2, "test"), ("SEQ", -1, "train"),
                                                   ("SEQ", 4, "test")])
def test_imikolov(files, data_type, window, mode):
    ds = D.Imikolov(files["imikolov"], data_type=data_type, window_size=window, mode=mode, min_word_freq=2)
    rec = REC[f"imikolov_{data_type}_{window}_{mode}"]
    assert len(ds) == rec["len"] and _dtypes(ds) == rec["dtypes"] and _items(ds) == rec["items"]
    assert [[*_key(w)[:1], i, _key(w)[1]] for w, i in ds.word_idx.items()] == rec["word_idx"]


@pytest.mark.parametrize("mode", ["train", "test"])
def test_movielens(files, mode):
    state = np.random.get_state()
    ds = D.Movielens(files["movielens"], mode=mode, test_ratio=0.3, rand_seed=5)
    after = float(np.random.random())
    np.random.set_state(state)
    rec = REC[f"movielens_{mode}"]
    assert len(ds) == rec["len"] and _dtypes(ds) == rec["dtypes"] and after == rec["next_random"]
    rcat = {v: k for k, v in ds.categories_dict.items()}
    rtitle = {v: k for k, v in ds.movie_title_dict.items()}
    decoded = [[*it[:5], [rcat[c] for c in it[5]], [rtitle[w] for w in it[6]], it[7]] for it in _items(ds)]
    assert decoded == rec["decoded"]
    assert sorted(ds.categories_dict) == rec["categories"] and sorted(ds.movie_title_dict) == rec["title_words"]
    assert list(ds.categories_dict.values()) == list(range(len(rec["categories"])))  # numbered in sorted order
    assert [str(ds.movie_info[1]), str(ds.user_info[2])] == [rec["movie_str"], rec["user_str"]]


@pytest.mark.parametrize("mode", ["train", "test", "gen"])
def test_wmt14(files, mode):
    ds = D.WMT14(files["wmt14"], mode=mode, dict_size=7)
    rec = REC[f"wmt14_{mode}"]
    assert len(ds) == rec["len"] and _dtypes(ds) == rec["dtypes"] and _items(ds) == rec["items"]
    src, trg = ds.get_dict()
    assert [src, trg] == [rec["src_dict"], rec["trg_dict"]]
    assert {str(k): v for k, v in ds.get_dict(reverse=True)[0].items()} == rec["reverse_src"]


@pytest.mark.parametrize("mode,lang,sizes", [("train", "en", (8, 9)), ("test", "de", (10, 6)), ("val", "en", (50, 50))])
def test_wmt16(files, mode, lang, sizes):
    ds = D.WMT16(files["wmt16"], mode=mode, src_dict_size=sizes[0], trg_dict_size=sizes[1], lang=lang)
    rec = REC[f"wmt16_{mode}_{lang}"]
    assert len(ds) == rec["len"] and _dtypes(ds) == rec["dtypes"] and _items(ds) == rec["items"]
    assert [ds.src_dict, ds.trg_dict] == [rec["src_dict"], rec["trg_dict"]]
    other = "de" if lang == "en" else "en"
    assert [ds.get_dict(lang), ds.get_dict(other)] == [rec["get_dict_src"], rec["get_dict_trg"]]
    rev = ds.get_dict(lang, reverse=True)  # (Paddle 3.3.1's get_dict ignores reverse; here it reverses)
    assert rev == {i: w for w, i in rec["get_dict_src"].items()}


def test_conll05st(files):
    c = files["conll05"]
    ds = D.Conll05st(**c)
    rec = REC["conll05"]
    rlabel = {v: k for k, v in ds.label_dict.items()}
    items = [[*it[:8], [rlabel[x] for x in it[8]]] for it in _items(ds)]
    assert len(ds) == rec["len"] and _dtypes(ds) == rec["dtypes"] and items == rec["items"]
    word, pred, label = ds.get_dict()
    assert [word, pred] == [rec["word_dict"], rec["predicate_dict"]] and sorted(label) == rec["labels"]
    assert (label["O"] == len(label) - 1) is rec["O_last"] and label == {"B-A0": 0, "I-A0": 1, "B-AM-LOC": 2,
                                                                       "I-AM-LOC": 3, "B-V": 4, "I-V": 5, "O": 6}
    assert (ds.get_embedding() == c["emb_file"]) is rec["embedding_is_emb_file"]


def test_no_download_and_misuse(files, tmp_path):
    with pytest.raises(ValueError, match=r"UCIHousing: data_file is not set and download=False; pass data_file="):
        D.UCIHousing(None, download=False)  # (Paddle: an AssertionError)
    with pytest.raises(RuntimeError, match=r"Imdb: data_file is not set, and pylayer_jax does not download data "
                                           r"sets.*IMDB archive aclImdb_v1.tar.gz"):
        D.Imdb()
    with pytest.raises(FileNotFoundError, match=r"WMT14: data_file='.*nothere.tgz' is not an existing file"):
        D.WMT14(str(tmp_path / "nothere.tgz"), dict_size=5)
    with pytest.raises(RuntimeError, match=r"Conll05st: word_dict_file is not set.*wordDict.txt"):
        D.Conll05st(data_file=files["conll05"]["data_file"])
    with pytest.raises(ValueError, match=r"UCIHousing: mode must be one of 'train', 'test', but received 'dev'"):
        D.UCIHousing(files["uci_housing"], mode="dev")
    with pytest.raises(ValueError, match=r"Imikolov: data_type='NGRAM' needs window_size >= 0"):
        D.Imikolov(files["imikolov"], min_word_freq=2)
    with pytest.raises(ValueError, match=r"Imdb: no word .* occurs more than cutoff=1000 times"):
        D.Imdb(files["imdb"], cutoff=1000)
    assert REC["imdb_empty_dict"] == "ValueError"
    with pytest.raises(ValueError, match=r"WMT16: src_dict_size must be a positive int.*received -1"):
        D.WMT16(files["wmt16"], trg_dict_size=5)
    with pytest.raises(ValueError, match=r"WMT16: lang must be 'en' or 'de', but received 'fr'"):
        D.WMT16(files["wmt16"], src_dict_size=5, trg_dict_size=5, lang="fr")
    bad = tmp_path / "housing.data"
    bad.write_text("1 2 3\n")
    with pytest.raises(ValueError, match=r"UCIHousing: '.*housing.data' holds 3 numbers, not rows of 14"):
        D.UCIHousing(str(bad))
