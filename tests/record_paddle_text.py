"""Record Paddle 3.3.1's ``paddle.text`` results into tests/data/paddle_text.json.

Run with ``/tmp/paddle/bin/python tests/record_paddle_text.py``. Records ``viterbi_decode`` (with and without the
start/stop tags, several lengths, float32 and float64, through ``ViterbiDecoder`` too) and the exception types of
its misuse, and what each ``paddle.text.datasets`` class gives on the synthetic files of ``tests/text_dataset_files.py``
(lengths, items, dictionaries; where Paddle numbers entries in a Python set's order, the items are recorded decoded
back to words, since that order changes with the hash seed).
"""

import json
import os
import sys
import tempfile

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import text_dataset_files  # noqa: E402

OUT = os.path.join(HERE, "data", "paddle_text.json")


def error_type(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording which type Paddle raises
        return type(e).__name__
    return None


def viterbi_cases():
    rng = np.random.default_rng(7)
    cases = []
    for b, t, n, lens, dtype in [(4, 6, 5, [6, 3, 1, 4], "float32"), (3, 5, 4, [2, 2, 3], "float64"),
                                 (2, 4, 3, [0, 2], "float32"), (1, 7, 6, [7], "float32")]:
        pot = rng.standard_normal((b, t, n)).astype(dtype)
        trans = rng.standard_normal((n, n)).astype(dtype)
        for inc in (True, False):
            s, p = paddle.text.viterbi_decode(paddle.to_tensor(pot), paddle.to_tensor(trans),
                                              paddle.to_tensor(np.array(lens, "int64")), inc)
            cases.append({"potentials": pot.tolist(), "transitions": trans.tolist(), "lengths": lens, "dtype": dtype,
                          "include": inc, "scores": s.numpy().tolist(), "paths": p.numpy().tolist(),
                          "scores_dtype": str(s.dtype).split(".")[-1], "paths_dtype": str(p.dtype).split(".")[-1]})
    dec = paddle.text.ViterbiDecoder(paddle.to_tensor(np.array(cases[0]["transitions"], "float32")), False)
    s, p = dec(paddle.to_tensor(np.array(cases[0]["potentials"], "float32")), paddle.to_tensor([6, 3, 1, 4]))
    layer = {"scores": s.numpy().tolist(), "paths": p.numpy().tolist(), "n_parameters": len(dec.parameters()),
             "n_buffers": len(dec.buffers()), "state_dict": list(dec.state_dict())}
    pot = paddle.to_tensor(rng.standard_normal((2, 4, 3)).astype("float32"))
    tr = paddle.to_tensor(rng.standard_normal((3, 3)).astype("float32"))
    V = paddle.text.viterbi_decode
    errors = {
        "lengths_too_long": error_type(lambda: V(pot, tr, paddle.to_tensor([6, 2]), False)),
        "lengths_int32": error_type(lambda: V(pot, tr, paddle.to_tensor([3, 2], "int32"), False)),
        "mixed_dtypes": error_type(lambda: V(pot.astype("float64"), tr, paddle.to_tensor([3, 2]), False)),
        "rank2": error_type(lambda: V(pot[0], tr, paddle.to_tensor([3]), False)),
        "transition_shape": error_type(lambda: V(pot, tr[:2], paddle.to_tensor([3, 2]), False)),
        "lengths_shape": error_type(lambda: V(pot, tr, paddle.to_tensor([3]), False)),
        "int_potentials": error_type(lambda: V(pot.astype("int64"), tr, paddle.to_tensor([3, 2]), False)),
        "include_int": error_type(lambda: V(pot, tr, paddle.to_tensor([3, 2]), 1)),
    }
    pot.stop_gradient = False
    s, p = V(pot, tr, paddle.to_tensor([3, 2]), False)
    return {"cases": cases, "layer": layer, "errors": errors, "stop_gradient": [s.stop_gradient, p.stop_gradient]}


def items(ds, k=None):
    k = len(ds) if k is None else k
    return [[np.asarray(a).tolist() for a in ds[i]] for i in range(k)]


def dtypes(ds):
    return [str(np.asarray(a).dtype) for a in ds[0]]


def key(w):
    return w.decode() if isinstance(w, bytes) else w


def datasets(files):
    from paddle.text import datasets as D

    rec = {}
    for mode in ("train", "test"):
        ds = D.UCIHousing(files["uci_housing"], mode=mode)
        rec[f"uci_{mode}"] = {"len": len(ds), "items": items(ds), "dtypes": dtypes(ds)}
    for mode in ("train", "test"):
        ds = D.Imdb(files["imdb"], mode=mode, cutoff=2)
        rec[f"imdb_{mode}"] = {"len": len(ds), "items": items(ds), "dtypes": dtypes(ds),
                               "word_idx": [[key(w), i, isinstance(w, bytes)] for w, i in ds.word_idx.items()]}
    rec["imdb_empty_dict"] = error_type(lambda: D.Imdb(files["imdb"], cutoff=1000))
    for data_type, window, mode in (("NGRAM", 3, "train"), ("NGRAM", 2, "test"), ("SEQ", -1, "train"),
                                    ("SEQ", 4, "test")):
        ds = D.Imikolov(files["imikolov"], data_type=data_type, window_size=window, mode=mode, min_word_freq=2)
        rec[f"imikolov_{data_type}_{window}_{mode}"] = {
            "len": len(ds), "items": items(ds), "dtypes": dtypes(ds),
            "word_idx": [[key(w), i, isinstance(w, bytes)] for w, i in ds.word_idx.items()]}
    rec["imikolov_ngram_no_window"] = error_type(lambda: D.Imikolov(files["imikolov"], min_word_freq=2))
    for mode in ("train", "test"):
        state = np.random.get_state()
        ds = D.Movielens(files["movielens"], mode=mode, test_ratio=0.3, rand_seed=5)
        after = float(np.random.random())  # the global numpy generator is where Paddle leaves it
        np.random.set_state(state)
        rcat = {v: k for k, v in ds.categories_dict.items()}
        rtitle = {v: k for k, v in ds.movie_title_dict.items()}
        decoded = [[*(np.asarray(a).tolist() for a in it[:5]), [rcat[c] for c in np.asarray(it[5]).tolist()],
                    [rtitle[w] for w in np.asarray(it[6]).tolist()], np.asarray(it[7]).tolist()]
                   for it in (ds[i] for i in range(len(ds)))]
        rec[f"movielens_{mode}"] = {"len": len(ds), "decoded": decoded, "dtypes": dtypes(ds), "next_random": after,
                                    "categories": sorted(ds.categories_dict), "title_words": sorted(ds.movie_title_dict),
                                    "movie_str": str(ds.movie_info[1]), "user_str": str(ds.user_info[2])}
    for mode in ("train", "test", "gen"):
        ds = D.WMT14(files["wmt14"], mode=mode, dict_size=7)
        src, trg = ds.get_dict()
        rsrc, _ = ds.get_dict(reverse=True)
        rec[f"wmt14_{mode}"] = {"len": len(ds), "items": items(ds), "dtypes": dtypes(ds), "src_dict": src,
                                "trg_dict": trg, "reverse_src": {str(k): v for k, v in rsrc.items()}}
    home = tempfile.mkdtemp()
    paddle.dataset.common.DATA_HOME = home  # Paddle caches the WMT16 dictionaries there: a fresh, empty one
    os.makedirs(os.path.join(home, "wmt16"), exist_ok=True)
    for mode, lang, sizes in (("train", "en", (8, 9)), ("test", "de", (10, 6)), ("val", "en", (50, 50))):
        ds = D.WMT16(files["wmt16"], mode=mode, src_dict_size=sizes[0], trg_dict_size=sizes[1], lang=lang)
        other = "de" if lang == "en" else "en"
        rec[f"wmt16_{mode}_{lang}"] = {"len": len(ds), "items": items(ds), "dtypes": dtypes(ds),
                                       "src_dict": ds.src_dict, "trg_dict": ds.trg_dict,
                                       "get_dict_src": ds.get_dict(lang), "get_dict_trg": ds.get_dict(other)}
        for f in os.listdir(os.path.join(home, "wmt16")):
            os.remove(os.path.join(home, "wmt16", f))
    c = files["conll05"]
    ds = D.Conll05st(**c)
    rlabel = {v: k for k, v in ds.label_dict.items()}
    rec["conll05"] = {"len": len(ds), "items": [[*(np.asarray(a).tolist() for a in it[:8]),
                                                 [rlabel[x] for x in np.asarray(it[8]).tolist()]]
                                                for it in (ds[i] for i in range(len(ds)))],
                      "dtypes": dtypes(ds), "word_dict": ds.word_dict, "predicate_dict": ds.predicate_dict,
                      "labels": sorted(ds.label_dict), "O_last": ds.label_dict["O"] == len(ds.label_dict) - 1,
                      "embedding_is_emb_file": ds.get_embedding() == c["emb_file"]}
    rec["uci_no_file_no_download"] = error_type(lambda: D.UCIHousing(None, download=False))
    rec["uci_bad_mode"] = error_type(lambda: D.UCIHousing(files["uci_housing"], mode="dev"))
    return rec


def main():
    root = tempfile.mkdtemp()
    files = text_dataset_files.write_all(root)
    out = {"paddle": paddle.__version__, "viterbi": viterbi_cases(), "datasets": datasets(files)}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=None, sort_keys=True)
    print(f"-> {OUT}")


if __name__ == "__main__":
    main()
