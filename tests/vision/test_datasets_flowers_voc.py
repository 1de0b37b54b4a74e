"""``paddle.vision.datasets.Flowers`` and ``VOC2012`` from tiny archives in Paddle's file formats (built by
``tests/graph_dataset_cases.py``), item by item against Paddle 3.3.1's recorded by
``tests/record_paddle_graph_datasets.py``: lengths per mode, item types (PIL image class and mode, array dtype and
shape), pixels, labels, and a transform on each backend."""

from __future__ import annotations

import json
import pathlib
import pickle

import graph_dataset_cases as G
import numpy as np
import pytest

import pylayer_jax as paddle

REC = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle_graph_datasets.json").read_text())


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("vision_sets")
    return str(tmp), G.build_flowers(str(tmp)), G.build_voc(str(tmp))


def test_items_match_paddle(tmp_path):
    ours = json.loads(json.dumps(G.vision(paddle, str(tmp_path))))
    assert G.mismatches(ours, REC["vision"]) == []


def test_flowers_pickles_after_reading(files):
    _, (data, labels, setid), _ = files
    ds = paddle.vision.datasets.Flowers(data, labels, setid, mode="valid", backend="cv2")
    first = ds[0]
    again = pickle.loads(pickle.dumps(ds))[0]
    np.testing.assert_array_equal(again[0], first[0])
    assert again[1].tolist() == [5] and again[1].dtype == np.int64


def test_voc_in_a_dataloader(files):
    voc = files[2]
    ds = paddle.vision.datasets.VOC2012(voc, mode="test", backend="cv2")
    batch = next(iter(paddle.io.DataLoader(ds, batch_size=2)))
    assert batch[0].shape == [2, 5, 7, 3] and batch[1].shape == [2, 5, 7]
    assert batch[1].numpy().max() == 255.0  # (the border class of VOC's label maps)


@pytest.mark.parametrize("make, exc, match", [
    (lambda d, lb, s, v: paddle.vision.datasets.Flowers(d, lb, s, mode="training"), ValueError,
     "Flowers: mode should be 'train', 'valid' or 'test', but got 'training'"),
    (lambda d, lb, s, v: paddle.vision.datasets.Flowers(d, None, s, download=False), ValueError,
     "label_file is not set and download=False; pass label_file="),
    (lambda d, lb, s, v: paddle.vision.datasets.Flowers(d, lb, None), RuntimeError,
     "setid_file is not set, and pylayer_jax does not download data sets"),
    (lambda d, lb, s, v: paddle.vision.datasets.Flowers(d + ".missing", lb, s), FileNotFoundError,
     "data_file=.*is not an existing file"),
    (lambda d, lb, s, v: paddle.vision.datasets.Flowers(d, s, s), ValueError,
     "has no array named 'labels'"),
    (lambda d, lb, s, v: paddle.vision.datasets.Flowers(d, lb, s, backend="tensor"), ValueError,
     "backend must be 'pil' or 'cv2'"),
    (lambda d, lb, s, v: paddle.vision.datasets.VOC2012(v, mode="val"), ValueError,
     "VOC2012: mode should be 'train', 'valid' or 'test', but got 'val'"),
    (lambda d, lb, s, v: paddle.vision.datasets.VOC2012(None, download=False), ValueError,
     "data_file is not set and download=False"),
    (lambda d, lb, s, v: paddle.vision.datasets.VOC2012(d), FileNotFoundError,
     "has no member 'VOCdevkit/VOC2012/ImageSets/Segmentation/trainval.txt'"),
])
def test_misuse(files, make, exc, match):
    _, (data, labels, setid), voc = files
    with pytest.raises(exc, match=match):
        make(data, labels, setid, voc)
