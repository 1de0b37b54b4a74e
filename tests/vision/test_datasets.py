"""``paddle.vision.datasets`` against Paddle 3.3.1 on small synthetic files in the formats Paddle reads (gzip idx
files for MNIST, python-version tar.gz archives for CIFAR; made by ``tests/vision_cases.py`` in a temporary folder
on both sides, recorded by ``tests/record_paddle_vision.py``): lengths, item kinds (PIL image or array), values,
label dtypes and shapes for both image backends, and the folder data sets. Nothing is downloaded: a missing file
raises a sentence saying which file to pass (Paddle asserts, or starts a download).

Deliberate differences: MNIST files of any length are read (Paddle parses in chunks of 100 records and fails on
other lengths); DatasetFolder honours ``is_valid_file`` when ``extensions`` is None (Paddle replaces a None
``extensions`` by the image extensions before looking at it, so its ``is_valid_file`` is never used).
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTS)
import vision_cases as C  # noqa: E402

with open(os.path.join(TESTS, "data", "paddle_vision.json")) as _f:
    REF = json.load(_f)["datasets"]
ARR = np.load(os.path.join(TESTS, "data", "paddle_vision.npz"))
D = paddle.vision.datasets
T = paddle.vision.transforms


def _kind(im):
    return C.describe(paddle, im)


@pytest.mark.parametrize("backend", ["cv2", "pil"])
def test_mnist_as_paddle(tmp_path, backend):
    ip, lp = C.write_mnist(str(tmp_path))
    ds = D.MNIST(image_path=ip, label_path=lp, backend=backend)
    ref = REF[f"mnist_{backend}"]
    assert len(ds) == ref["len"]
    for n, i in enumerate((0, 7, 99)):
        im, lab = ds[i]
        kind, arr = _kind(im)
        assert kind == ref["kinds"][n]
        want = ARR[f"d/mnist_{backend}/{i}/image"]
        assert arr.dtype == want.dtype and arr.shape == want.shape
        np.testing.assert_array_equal(arr, want)
        assert str(lab.dtype) == ref["label_dtype"] and list(lab.shape) == ref["label_shape"]
        np.testing.assert_array_equal(lab, ARR[f"d/mnist_{backend}/{i}/label"])


def test_fashion_mnist_with_transform_as_paddle(tmp_path):
    ip, lp = C.write_mnist(str(tmp_path))
    ds = D.FashionMNIST(image_path=ip, label_path=lp, mode="test", backend="cv2", transform=T.Compose([T.ToTensor()]))
    ref = REF["fashion_tensor"]
    im, _ = ds[3]
    assert len(ds) == ref["len"] and isinstance(im, paddle.Tensor)
    assert str(im.dtype) == ref["dtype"] and list(im.shape) == ref["shape"]
    np.testing.assert_allclose(im.numpy(), ARR["d/fashion/3/image"], rtol=1e-6)


def test_mnist_reads_files_of_any_length(tmp_path):
    ip, lp = C.write_mnist(str(tmp_path), count=7, seed=3)
    ds = D.MNIST(image_path=ip, label_path=lp, backend="cv2")
    assert len(ds) == 7
    rs = np.random.RandomState(3)
    images = rs.randint(0, 256, (7, 28, 28)).astype(np.uint8)
    labels = rs.randint(0, 10, 7)
    im, lab = ds[5]
    np.testing.assert_array_equal(im, images[5].astype(np.float32))
    assert lab.tolist() == [labels[5]]


@pytest.mark.parametrize("hundred", [False, True])
@pytest.mark.parametrize("mode", ["train", "test"])
@pytest.mark.parametrize("backend", ["cv2", "pil"])
def test_cifar_as_paddle(tmp_path, hundred, mode, backend):
    path = C.write_cifar(str(tmp_path), hundred)
    key = "cifar100" if hundred else "cifar10"
    ds = (D.Cifar100 if hundred else D.Cifar10)(data_file=path, mode=mode, backend=backend)
    ref = REF[f"{key}_{mode}_{backend}"]
    assert len(ds) == ref["len"]
    for i in range(len(ds)):
        im, lab = ds[i]
        kind, arr = _kind(im)
        assert kind == ref["kinds"][i]
        want = ARR[f"d/{key}_{mode}_{backend}/{i}"]
        assert arr.dtype == want.dtype and arr.shape == want.shape
        np.testing.assert_array_equal(arr, want)
        assert int(lab) == ref["labels"][i]
        assert str(lab.dtype) == ref["label_dtype"] and list(lab.shape) == ref["label_shape"]


def test_dataset_in_a_dataloader(tmp_path):
    path = C.write_cifar(str(tmp_path))
    ds = D.Cifar10(data_file=path, backend="cv2", transform=T.Compose([T.ToTensor()]))
    xb, yb = next(iter(paddle.io.DataLoader(ds, batch_size=3)))
    assert xb.shape == [3, 3, 32, 32] and yb.shape == [3]
    np.testing.assert_allclose(xb.numpy()[1], ds[1][0].numpy(), rtol=1e-6)


@pytest.mark.parametrize("expr,exc,pattern,paddle_name", [
    ("D.MNIST(download=False)", ValueError, r"MNIST: image_path is not set and download=False; pass image_path=",
     "mnist_no_path"),
    ("D.Cifar10(download=False)", ValueError, r"Cifar10: data_file is not set and download=False", "cifar_no_file"),
    ("D.MNIST(image_path=__file__, label_path=__file__, mode='valid')", ValueError,
     r"MNIST: mode must be 'train' or 'test'; got 'valid'", "bad_mode"),
    ("D.Cifar10(data_file=__file__, backend='tensor')", ValueError,
     r"Cifar10: backend must be 'pil' or 'cv2'; got 'tensor'", "bad_backend"),
])
def test_misuse_raises(expr, exc, pattern, paddle_name):
    # Paddle raises the same type, or a bare AssertionError where we raise a ValueError
    assert REF[paddle_name] in (exc.__name__, "AssertionError")
    with pytest.raises(exc, match=pattern):
        eval(expr, {"D": D, "__file__": __file__})


@pytest.mark.parametrize("expr,exc,pattern", [
    ("D.MNIST()", RuntimeError, r"MNIST: image_path is not set, and pylayer_jax does not download data sets"),
    ("D.Cifar100(mode='test')", RuntimeError, r"download the cifar-100-python.tar.gz yourself and pass its path"),
    ("D.MNIST(image_path='/no/such/file', label_path='/no/such/file')", FileNotFoundError,
     r"image_path='/no/such/file' is not an existing file"),
    ("D.DatasetFolder('/no/such/dir')", FileNotFoundError, r"DatasetFolder: root='/no/such/dir' is not an existing"),
])
def test_no_download(expr, exc, pattern):
    with pytest.raises(exc, match=pattern):
        eval(expr, {"D": D})


def test_mnist_wrong_file_kind(tmp_path):
    ip, lp = C.write_mnist(str(tmp_path))
    with pytest.raises(ValueError, match=r"is not an idx file of this kind \(magic number 2049, expected 2051\)"):
        D.MNIST(image_path=lp, label_path=ip, backend="cv2")


def _npy_tree(root):
    for cls, n in (("cat", 2), ("dog", 3)):
        os.makedirs(os.path.join(root, cls, "sub"))
        for i in range(n):
            np.save(os.path.join(root, cls, "sub" if i == 0 else "", f"{i}.npy"), np.full((2, 2, 3), i, np.uint8))
    open(os.path.join(root, "dog", "notes.txt"), "w").close()


def test_dataset_folder_over_npy_files(tmp_path):
    root = str(tmp_path)
    _npy_tree(root)
    ds = D.DatasetFolder(root, loader=np.load, extensions=(".npy",), transform=T.ToTensor())
    assert ds.classes == ["cat", "dog"] and ds.class_to_idx == {"cat": 0, "dog": 1}
    assert len(ds) == 5 and ds.targets == [0, 0, 1, 1, 1]
    assert [os.path.relpath(p, root) for p, _ in ds.samples] == [
        "cat/1.npy", "cat/sub/0.npy", "dog/1.npy", "dog/2.npy", "dog/sub/0.npy"]
    x, y = ds[3]
    assert y == 1 and x.shape == [3, 2, 2]
    np.testing.assert_allclose(x.numpy(), 2 / 255.0, rtol=1e-6)
    by_name = D.DatasetFolder(root, loader=np.load, is_valid_file=lambda p: p.endswith("0.npy"))
    assert len(by_name) == 2
    imgs = D.ImageFolder(root, loader=np.load, extensions=(".npy",))
    assert len(imgs) == 5 and isinstance(imgs[0], list) and imgs[0][0].shape == (2, 2, 3)
    with pytest.raises(RuntimeError, match=r"DatasetFolder: found no valid files in the subfolders"):
        D.DatasetFolder(root, loader=np.load, extensions=(".png",))


def test_image_folder_and_backends_with_pillow(tmp_path):
    from PIL import Image

    root = str(tmp_path)
    os.makedirs(os.path.join(root, "a"))
    arr = C.array((5, 6, 3), "uint8", 9)
    Image.fromarray(arr).save(os.path.join(root, "a", "x.png"))
    ds = D.ImageFolder(root)
    assert isinstance(ds[0][0], Image.Image) and ds[0][0].mode == "RGB"
    np.testing.assert_array_equal(np.asarray(ds[0][0]), arr)
    assert paddle.vision.get_image_backend() == "pil"
    try:
        paddle.vision.set_image_backend("cv2")
        got = D.DatasetFolder(root)[0][0]
        np.testing.assert_array_equal(got, arr)  # RGB, as Paddle's cv2 loader converts
        np.testing.assert_array_equal(paddle.vision.image_load(os.path.join(root, "a", "x.png")), arr[:, :, ::-1])
    finally:
        paddle.vision.set_image_backend("pil")
    with pytest.raises(ValueError, match=r"the image backend must be one of \['pil', 'cv2', 'tensor'\]; got 'gif'"):
        paddle.vision.set_image_backend("gif")
    with pytest.raises(ValueError, match=r"image_load: the 'tensor' backend loads no files"):
        paddle.vision.image_load(os.path.join(root, "a", "x.png"), backend="tensor")
