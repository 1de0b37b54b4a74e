"""``paddle.audio.datasets.ESC50`` and ``TESS`` from tiny folders in Paddle's layout under a temporary
``DATA_HOME`` (built by ``tests/graph_dataset_cases.py``), against Paddle 3.3.1's recorded by
``tests/record_paddle_graph_datasets.py``: the files and labels of each mode and split, and the items of every
``feat_type`` (features to float32 rounding)."""

from __future__ import annotations

import json
import pathlib

import graph_dataset_cases as G
import pytest

import pylayer_jax as paddle
from pylayer_jax.audio.datasets import esc50, tess

REC = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle_graph_datasets.json").read_text())


def test_items_match_paddle(tmp_path):
    ours = json.loads(json.dumps(G.audio(paddle, str(tmp_path))))
    assert G.mismatches(ours, REC["audio"]) == []


@pytest.fixture
def home(tmp_path, monkeypatch):
    G.build_audio(str(tmp_path))
    monkeypatch.setattr(esc50, "DATA_HOME", str(tmp_path))
    monkeypatch.setattr(tess, "DATA_HOME", str(tmp_path))
    return tmp_path


def test_tess_folds_follow_sorted_order(home):
    # sorted: OAF_angry/{back,bar}, YAF_ps/{bath,cab}, YAF_sad/dog; file i is in fold i % 2 + 1
    dev = paddle.audio.datasets.TESS(mode="dev", n_folds=2, split=2)
    assert [pathlib.Path(f).name for f in dev.files] == ["OAF_bar_angry.wav", "YAF_cab_ps.wav"]
    assert dev.labels == [0, 5]
    train = paddle.audio.datasets.TESS(mode="train", n_folds=2, split=2)
    assert [pathlib.Path(f).name for f in train.files] == ["OAF_back_angry.wav", "YAF_bath_ps.wav", "YAF_dog_sad.wav"]
    feat, label = train[2]
    assert label == 6 and feat.shape == [600] and feat.dtype == paddle.float32


@pytest.mark.parametrize("make, exc, match", [
    (lambda: paddle.audio.datasets.ESC50(split=6), ValueError, "ESC50: split should be an integer with 1 <= split <= 5"),
    (lambda: paddle.audio.datasets.ESC50(feat_type="fbank"), RuntimeError, "unknown feat_type 'fbank'; it must be one"),
    (lambda: paddle.audio.datasets.TESS(n_folds=0), ValueError, "TESS: n_folds should be an integer >= 1, but got 0"),
    (lambda: paddle.audio.datasets.TESS(n_folds=3, split=4), ValueError,
     "split should be an integer with 1 <= split <= n_folds \\(3\\), but got 4"),
])
def test_misuse(home, make, exc, match):
    with pytest.raises(exc, match=match):
        make()


def test_missing_folder_says_where(tmp_path, monkeypatch):
    monkeypatch.setattr(esc50, "DATA_HOME", str(tmp_path))
    monkeypatch.setattr(tess, "DATA_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="ESC-50-master' is missing, and pylayer_jax does not download"):
        paddle.audio.datasets.ESC50()
    with pytest.raises(FileNotFoundError, match="TESS_Toronto_emotional_speech_set' is missing"):
        paddle.audio.datasets.TESS()
