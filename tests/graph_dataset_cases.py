"""Cases recorded from Paddle 3.3.1 (``tests/record_paddle_graph_datasets.py``) and replayed by
``tests/geometric/test_sampling.py``, ``tests/vision/test_datasets_flowers_voc.py`` and
``tests/audio/test_datasets.py``: ``record(paddle, tmp)`` runs them with whichever package
is passed (real Paddle, or pylayer_jax in the tests), so both sides make the very same calls.

Graph sampling is random in Paddle (its kernels seed from ``std::random_device``), so only the calls whose result
does not depend on the draw are recorded: ``sample_size`` at least every degree (all neighbours, in CSC order) or 0,
a single hop of ``graph_khop_sampler`` taking every neighbour, and the re-indexing. ``sample_size=-1`` crashes
Paddle 3.3.1's CPU kernels (a length error / a segmentation fault), so it is not recorded; it gives every neighbour
here, as Paddle documents.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# edges (src -> dst) in CSC form: the in-neighbours of node v are ROW[COLPTR[v]:COLPTR[v + 1]]
ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]
NODES = [0, 8, 1, 2, 7, 5]


def _v(t: Any) -> Any:
    return [np.asarray(t.numpy()).tolist(), str(t.dtype).replace("paddle.", ""), list(t.shape)]


def graph(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for dt in ("int32", "int64"):
        row, col = paddle.to_tensor(ROW, dtype=dt), paddle.to_tensor(COLPTR, dtype=dt)
        nodes, eids = paddle.to_tensor(NODES, dtype=dt), paddle.to_tensor([10 * i for i in range(13)], dtype=dt)
        w = paddle.to_tensor(np.linspace(0.5, 2.0, 13).astype("float32"))
        for size in (2, 7, 0):
            r = paddle.geometric.sample_neighbors(row, col, nodes, sample_size=size, eids=eids, return_eids=True)
            out[f"uniform_{dt}_{size}"] = [_v(t) for t in r]
            if size:  # (weighted with sample_size 0 crashes Paddle's kernel)
                r = paddle.geometric.weighted_sample_neighbors(row, col, w, nodes, sample_size=size, eids=eids,
                                                               return_eids=True)
                out[f"weighted_{dt}_{size}"] = [_v(t) for t in r]
        r = paddle.geometric.sample_neighbors(row.reshape([-1, 1]), col.reshape([-1, 1]), nodes, sample_size=3)
        out[f"uniform_2d_{dt}"] = [_v(t) for t in r]
        r = paddle.incubate.graph_sample_neighbors(row, col, nodes, eids=eids, sample_size=5, return_eids=True)
        out[f"incubate_{dt}"] = [_v(t) for t in r]
        r = paddle.incubate.graph_khop_sampler(row, col, paddle.to_tensor([0, 8, 1, 2], dtype=dt), [5], eids, True)
        out[f"khop_{dt}"] = [_v(t) for t in r]
        r = paddle.incubate.graph_khop_sampler(row, col, paddle.to_tensor([6, 1], dtype=dt), (2,))
        out[f"khop_noeids_{dt}"] = [_v(t) for t in r]
    x = paddle.to_tensor([0, 1, 2])
    nb = paddle.to_tensor([8, 9, 0, 4, 7, 6, 7, 0, 2, 3, 5, 1])
    ct = paddle.to_tensor([2, 3, 2, 1, 3, 1], dtype="int32")
    out["graph_reindex_two_types"] = [_v(t) for t in paddle.incubate.graph_reindex(x, nb, ct)]
    out["reindex_graph_two_types"] = [_v(t) for t in paddle.geometric.reindex_graph(x, nb, ct)]
    out["graph_reindex_one_type"] = [_v(t) for t in paddle.incubate.graph_reindex(x, nb[:7], ct[:3])]
    return out


def record(paddle: Any, tmp: str) -> dict[str, Any]:
    return {"graph": graph(paddle), "vision": vision(paddle, tmp), "audio": audio(paddle, tmp),
            "prim_autograd": prim_autograd(paddle)}


# ---- vision datasets from tiny archives in Paddle's file formats ----------------------------------------------
def _jpeg(arr: np.ndarray) -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="JPEG", quality=90)
    return buf.getvalue()


def _png_palette(arr: np.ndarray) -> bytes:
    import io

    from PIL import Image

    img = Image.fromarray(arr.astype(np.uint8), mode="P")
    img.putpalette([0, 0, 0, 128, 0, 0, 0, 128, 0] + [255] * (256 * 3 - 9))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def _add(tar: Any, name: str, data: bytes) -> None:
    import io
    import tarfile

    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def _image(k: int, h: int = 6, w: int = 8) -> np.ndarray:
    rng = np.random.default_rng(k)
    return (rng.integers(0, 256, (h, w, 3)) // 32 * 32).astype(np.uint8)


def build_flowers(tmp: str) -> tuple[str, str, str]:
    import os
    import tarfile

    import scipy.io

    data = os.path.join(tmp, "102flowers.tgz")
    with tarfile.open(data, "w:gz") as tar:
        for i in range(1, 8):
            _add(tar, f"jpg/image_{i:05}.jpg", _jpeg(_image(i, 6 + i % 2, 8)))
    labels = os.path.join(tmp, "imagelabels.mat")
    scipy.io.savemat(labels, {"labels": np.array([[77, 3, 102, 1, 5, 5, 40]], np.uint8)})
    setid = os.path.join(tmp, "setid.mat")
    scipy.io.savemat(setid, {"trnid": np.array([[2, 7]], np.uint16), "valid": np.array([[5]], np.uint16),
                             "tstid": np.array([[1, 3, 4, 6]], np.uint16)})
    return data, labels, setid


def build_voc(tmp: str) -> str:
    import os
    import tarfile

    path = os.path.join(tmp, "VOCtrainval_11-May-2012.tar")
    names = ["2007_000032", "2007_000039", "2008_000123"]
    with tarfile.open(path, "w") as tar:
        root = "VOCdevkit/VOC2012/"
        for flag, pick in (("trainval", names), ("train", names[:2]), ("val", names[2:])):
            _add(tar, f"{root}ImageSets/Segmentation/{flag}.txt", ("\n".join(pick) + "\n").encode())
        for k, n in enumerate(names):
            _add(tar, f"{root}JPEGImages/{n}.jpg", _jpeg(_image(10 + k, 5, 7)))
            seg = np.random.default_rng(20 + k).integers(0, 3, (5, 7))
            seg[0, 0] = 255
            _add(tar, f"{root}SegmentationClass/{n}.png", _png_palette(seg))
    return path


def _item(x: Any) -> Any:
    """What an item part is: a PIL image (class, mode, size, pixels), an array or a Tensor (type, dtype, shape,
    values), or a plain value."""
    if hasattr(x, "getpixel"):
        return ["PIL", type(x).__name__, x.mode, list(x.size), np.asarray(x).tolist()]
    if isinstance(x, np.ndarray):
        return ["ndarray", str(x.dtype), list(x.shape), np.round(x.astype(np.float64), 4).tolist()]
    if hasattr(x, "numpy"):
        v = np.asarray(x.numpy())
        return ["Tensor", str(x.dtype).replace("paddle.", ""), list(x.shape), np.round(v.astype(np.float64), 4).tolist()]
    return [type(x).__name__, x]


def vision(paddle: Any, tmp: str) -> dict[str, Any]:
    import os

    out: dict[str, Any] = {}
    d = os.path.join(tmp, "vision")
    os.makedirs(d, exist_ok=True)
    data, labels, setid = build_flowers(d)
    Flowers, VOC2012 = paddle.vision.datasets.Flowers, paddle.vision.datasets.VOC2012
    for mode in ("train", "valid", "test"):
        for backend in ("pil", "cv2"):
            ds = Flowers(data, labels, setid, mode=mode, backend=backend, download=False)
            out[f"flowers_{mode}_{backend}"] = [len(ds), [[_item(p) for p in ds[i]] for i in range(len(ds))]]
    ds = Flowers(data, labels, setid, mode="test", transform=paddle.vision.transforms.ToTensor(), backend="cv2")
    out["flowers_totensor_cv2"] = [_item(p) for p in ds[1]]
    ds = Flowers(data, labels, setid, transform=paddle.vision.transforms.Resize((4, 5)), backend="pil")
    out["flowers_resize_pil"] = [_item(p) for p in ds[0]]
    voc = build_voc(d)
    for mode in ("train", "valid", "test"):
        for backend in ("pil", "cv2"):
            ds = VOC2012(voc, mode=mode, backend=backend, download=False)
            out[f"voc_{mode}_{backend}"] = [len(ds), [[_item(p) for p in ds[i]] for i in range(len(ds))]]
    ds = VOC2012(voc, mode="valid", transform=paddle.vision.transforms.ToTensor(), backend="cv2")
    out["voc_totensor_cv2"] = [_item(p) for p in ds[0]]
    return out


# ---- audio datasets from tiny folders in Paddle's layout ------------------------------------------------------
def _wav(path: str, k: int, frames: int = 800, rate: int = 8000) -> None:
    import wave

    t = np.arange(frames) / rate
    x = 0.5 * np.sin(2 * np.pi * (300 + 50 * k) * t) + 0.1 * np.random.default_rng(k).standard_normal(frames)
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes((np.clip(x, -1, 1) * 32767).astype("<i2").tobytes())


def build_audio(home: str) -> None:
    import os

    esc = os.path.join(home, "ESC-50-master")
    os.makedirs(os.path.join(esc, "meta"))
    os.makedirs(os.path.join(esc, "audio"))
    rows = [("1-100-A-0.wav", 1, 0, "dog"), ("1-101-A-41.wav", 1, 41, "chainsaw"), ("2-102-A-3.wav", 2, 3, "cow"),
            ("5-103-B-49.wav", 5, 49, "hand_saw"), ("3-104-A-0.wav", 3, 0, "dog")]
    with open(os.path.join(esc, "meta", "esc50.csv"), "w") as fh:
        fh.write("filename,fold,target,category,esc10,src_file,take\n")
        for k, (name, fold, target, cat) in enumerate(rows):
            fh.write(f"{name},{fold},{target},{cat},False,{100 + k},A\n")
            _wav(os.path.join(esc, "audio", name), k)
    tess = os.path.join(home, "TESS_Toronto_emotional_speech_set")
    for k, (folder, name) in enumerate([("OAF_angry", "OAF_back_angry"), ("OAF_angry", "OAF_bar_angry"),
                                        ("YAF_sad", "YAF_dog_sad"), ("YAF_ps", "YAF_bath_ps"),
                                        ("YAF_ps", "YAF_cab_ps")]):
        os.makedirs(os.path.join(tess, folder), exist_ok=True)
        _wav(os.path.join(tess, folder, name + ".wav"), 10 + k, frames=600)


AUDIO_FEATS = {"raw": {}, "melspectrogram": {"n_fft": 128, "hop_length": 64, "n_mels": 16},
               "mfcc": {"n_mfcc": 8, "n_fft": 128, "n_mels": 16}, "logmelspectrogram": {"n_fft": 128, "n_mels": 16},
               "spectrogram": {"n_fft": 128, "hop_length": 64}}


def audio(paddle: Any, tmp: str) -> dict[str, Any]:
    """ESC50 and TESS items; TESS with one fold and mode='dev' (every file, keyed by name: Paddle lists the files in
    the file system's order)."""
    import importlib
    import os

    home = os.path.join(tmp, "audio_home")
    build_audio(home)
    out: dict[str, Any] = {}
    esc50 = importlib.import_module(paddle.__name__ + ".audio.datasets.esc50")
    tess = importlib.import_module(paddle.__name__ + ".audio.datasets.tess")
    saved = esc50.DATA_HOME, tess.DATA_HOME
    esc50.DATA_HOME = tess.DATA_HOME = home
    try:
        for mode, split in (("train", 1), ("dev", 1), ("dev", 5)):
            ds = paddle.audio.datasets.ESC50(mode=mode, split=split)
            out[f"esc50_{mode}_{split}"] = [len(ds), [os.path.basename(f) for f in ds.files], list(ds.labels)]
        for feat, config in AUDIO_FEATS.items():
            ds = paddle.audio.datasets.ESC50(mode="dev", split=1, feat_type=feat, **config)
            out[f"esc50_feat_{feat}"] = [[_item(p) for p in ds[i]] for i in range(len(ds))]
        ds = paddle.audio.datasets.TESS(mode="dev", n_folds=1, split=1, feat_type="mfcc", n_mfcc=6, n_fft=128,
                                        n_mels=12)
        out["tess_dev"] = {os.path.basename(f): [_item(p) for p in ds[i]] for i, f in enumerate(ds.files)}
        ds = paddle.audio.datasets.TESS(mode="train", n_folds=1, split=1)
        out["tess_train_one_fold"] = len(ds)
    finally:
        esc50.DATA_HOME, tess.DATA_HOME = saved
    return out


def mismatches(ours: Any, ref: Any, path: str = "") -> list[str]:
    """Where ``ours`` differs from ``ref``: numbers within float32 rounding of the feature layers (rtol 1e-4, atol
    1e-3 on values rounded to 4 decimals), everything else exactly."""
    def numeric(a: Any) -> bool:
        try:
            return np.asarray(a).dtype.kind in "if"
        except ValueError:
            return False

    if isinstance(ref, dict):
        if not isinstance(ours, dict) or set(ours) != set(ref):
            return [f"{path}: keys {sorted(ours) if isinstance(ours, dict) else ours} != {sorted(ref)}"]
        return [m for k in ref for m in mismatches(ours[k], ref[k], f"{path}/{k}")]
    if isinstance(ref, list) and ref and numeric(ref):
        if not numeric(ours) or np.shape(ours) != np.shape(ref):
            return [f"{path}: shape {np.shape(ours)} != {np.shape(ref)}"]
        return [] if np.allclose(ours, ref, rtol=1e-4, atol=1e-3) else [f"{path}: values differ"]
    if isinstance(ref, list):
        if not isinstance(ours, list) or len(ours) != len(ref):
            return [f"{path}: {str(ours)[:80]} != {str(ref)[:80]}"]
        return [m for i, (a, b) in enumerate(zip(ours, ref)) for m in mismatches(a, b, f"{path}[{i}]")]
    return [] if ours == ref else [f"{path}: {ours!r} != {ref!r}"]


# ---- paddle.incubate.autograd.grad / forward_grad in a static program ----------------------------------------
def _error(fn: Any) -> Any:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type and message are what is recorded
        return [type(e).__name__, str(e)]
    return None


def prim_autograd(paddle: Any) -> dict[str, Any]:
    """``grad`` without prim (``static.gradients``) on one input and on a list with cotangents, and the errors of
    dynamic mode and of ``forward_grad`` without prim. (With prim on, Paddle 3.3.1's own path raises in its PIR
    programs; those results are checked against jax in the tests.)"""
    ia = paddle.incubate.autograd
    out: dict[str, Any] = {}
    x0 = paddle.to_tensor([2.0], stop_gradient=False)
    out["dynamic_grad"] = _error(lambda: ia.grad(x0 * x0, x0))
    out["dynamic_forward_grad"] = _error(lambda: ia.forward_grad(x0 * x0, x0))
    xv = np.array([1.0, 2.0, 3.0], "float32")
    zv, vv = np.array([4.0, 5.0, 6.0], "float32"), np.array([1.0, 0.5, 2.0], "float32")
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", shape=[3], dtype="float32")
            x.stop_gradient = False
            z = paddle.static.data("z", shape=[3], dtype="float32")
            z.stop_gradient = False
            v = paddle.static.data("v", shape=[3], dtype="float32")
            y = paddle.tanh(x) * z + x * x
            g_single = ia.grad(y, x)
            g_list = ia.grad([y], [x, z], [v])
            out["forward_grad_without_prim"] = _error(lambda: ia.forward_grad(y, x))
            out["grad_bad_outputs"] = _error(lambda: ia.grad(3.0, x))
            out["prim_enabled_default"] = ia.prim_enabled()
        exe = paddle.static.Executor()
        exe.run(start)
        res = exe.run(main, feed={"x": xv, "z": zv, "v": vv}, fetch_list=[g_single, *g_list])
        out["grad_single"] = [type(g_single).__name__ != "list", np.asarray(res[0]).tolist()]
        out["grad_list"] = [type(g_list).__name__, len(g_list), [np.asarray(r).tolist() for r in res[1:]]]
    finally:
        paddle.disable_static()
    return out
