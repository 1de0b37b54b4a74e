"""paddle.save / paddle.load against real Paddle 3.3.1.

Paddle's own files (tests/data/paddle_ckpt, written by tests/record_paddle_checkpoints.py) must load
here exactly as Paddle loads them (expected.json: structure, types, names, dtypes, values); files
written here must load in real Paddle (run in a subprocess; skipped only when Paddle is absent).
"""

from __future__ import annotations

import collections
import io
import json
import os
import pickle
import re
import subprocess
import sys

import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax._api import checkpoint as _checkpoint

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the tests folder
DATA = os.path.join(HERE, "data", "paddle_ckpt")
EXPECTED = json.load(open(os.path.join(DATA, "expected.json")))["files"]
PADDLE_PYTHON = os.environ.get("PADDLE_PYTHON", "/tmp/paddle/bin/python")
RECORDER = os.path.join(HERE, "record_paddle_checkpoints.py")


def _values(arr):
    arr = np.asarray(arr)
    if arr.dtype.kind == "c":
        return [np.real(arr).reshape(-1).tolist(), np.imag(arr).reshape(-1).tolist()]
    if arr.dtype.kind == "f" or arr.dtype.name == "bfloat16":
        return [repr(float(v)) for v in arr.astype(np.float64).reshape(-1)]
    return arr.reshape(-1).tolist()


def describe(obj):
    """The same description the recording script makes of Paddle's loaded objects."""
    if isinstance(obj, paddle.Tensor):
        return {"kind": "Tensor", "name": obj.name, "dtype": obj.dtype.name, "shape": list(obj.shape),
                "stop_gradient": bool(obj.stop_gradient), "values": _values(obj.numpy())}
    if isinstance(obj, np.ndarray):
        return {"kind": "ndarray", "dtype": str(obj.dtype), "shape": list(obj.shape), "values": _values(obj)}
    if isinstance(obj, dict):
        kind = "OrderedDict" if type(obj) is collections.OrderedDict else "dict"
        return {"kind": kind, "items": [[k if isinstance(k, str) else repr(k), describe(v)] for k, v in obj.items()]}
    if isinstance(obj, list | tuple):
        return {"kind": type(obj).__name__, "items": [describe(v) for v in obj]}
    if isinstance(obj, set):
        return {"kind": "set", "items": sorted(repr(v) for v in obj)}
    return {"kind": type(obj).__name__, "value": repr(obj)}


def _norm(d):
    """Names Paddle and pylayer_jax make up for unnamed Tensors differ only in their counter."""
    return json.loads(re.sub(r"generated_tensor_\d+", "generated_tensor_N", json.dumps(d, sort_keys=True)))


# ---- Paddle's files load here as Paddle loads them ---------------------------------------------------
@pytest.mark.parametrize("fname", sorted(EXPECTED))
def test_loads_paddle_files_like_paddle(fname):
    path = os.path.join(DATA, fname)
    want = EXPECTED[fname]
    assert _norm(describe(paddle.load(path))) == _norm(want["load"])
    assert _norm(describe(paddle.load(path, return_numpy=True))) == _norm(want["load_numpy"])
    if "keep_name_table" in want:
        assert _norm(describe(paddle.load(path, keep_name_table=True))) == _norm(want["keep_name_table"])


def test_layer_state_dict_keeps_parameter_names_and_values():
    sd = paddle.load(os.path.join(DATA, "layer.pdparams"))
    assert list(sd) == ["0.weight", "0.bias", "1.weight", "1.bias", "1._mean", "1._variance"]
    assert sd["0.weight"].name == "linear_0.w_0"
    raw = pickle.load(open(os.path.join(DATA, "layer.pdparams"), "rb"))  # plain numpy arrays inside
    np.testing.assert_array_equal(sd["0.weight"].numpy(), raw["0.weight"])
    assert sd["0.weight"].dtype == paddle.float32 and sd["0.weight"].stop_gradient


def test_optimizer_state_dict_keeps_lr_scheduler_dict():
    sd = paddle.load(os.path.join(DATA, "adam.pdopt"))
    raw = pickle.load(open(os.path.join(DATA, "adam.pdopt"), "rb"))
    assert sd["LR_Scheduler"] == raw["LR_Scheduler"] and isinstance(sd["LR_Scheduler"]["last_lr"], float)
    assert isinstance(sd["linear_0.w_0_moment1_0"], paddle.Tensor)


# nested_p2: protocol 2 pickles array bytes as latin-1 strings, and whether an equal one-character str is
# written again or referenced from the memo depends on object identity in the writing process;
# numpy_only: its arrays load as Tensors (as in Paddle), so saving them again writes Tensors
_NOT_RESAVED = ("nested_p2.pdparams", "numpy_only.pdparams")


@pytest.mark.parametrize("fname", sorted(f for f in EXPECTED if "binary" not in f and f not in _NOT_RESAVED))
def test_resave_of_paddle_file_is_byte_identical(fname):
    """Loading Paddle's file and saving it again here gives Paddle's very bytes (same protocol)."""
    path = os.path.join(DATA, fname)
    data = open(path, "rb").read()
    protocol = 2 if "_p2" in fname else 3 if "_p3" in fname else 4
    buf = io.BytesIO()
    paddle.save(paddle.load(path), buf, protocol=protocol)
    assert buf.getvalue() == data


def test_binary_format_bytes_match_paddle():
    t = paddle.load(os.path.join(DATA, "binary.pdtensor"))
    buf = io.BytesIO()
    paddle.save(t, buf, use_binary_format=True)
    assert buf.getvalue() == open(os.path.join(DATA, "binary.pdtensor"), "rb").read()
    t16 = paddle.load(os.path.join(DATA, "binary_bf16.pdtensor"))
    buf = io.BytesIO()
    paddle.save(t16, buf, use_binary_format=True)
    assert buf.getvalue() == open(os.path.join(DATA, "binary_bf16.pdtensor"), "rb").read()


# ---- files written here load in real Paddle ----------------------------------------------------------
def _our_objects():
    vals = [[1.5, -2.25, 0.0], [3.0, 1.0, 0.0]]
    by_dtype = {dt: paddle.to_tensor(vals).astype(dt) for dt in
                ["float32", "float64", "float16", "bfloat16", "int64", "int32", "uint8", "int8", "bool",
                 "complex64"]}
    w = paddle.to_tensor([[0.5, -1.0]])
    w.name = "linear_7.w_0"
    x = paddle.to_tensor([1.5, -2.0, 3.25], stop_gradient=False)
    nonleaf = x * 2 + 1  # deferred, non-leaf: its value is saved
    state = {"fc.weight": w, "fc.bias": by_dtype["float64"], "LR_Scheduler": {"last_epoch": 3, "last_lr": 0.05}}
    nested = {"model": {"w": w}, "list": [by_dtype["bfloat16"], 3, 2.5, "s", None, (nonleaf, by_dtype["bool"])],
              "array": np.arange(3, dtype=np.int32)}
    return {
        "state.pdparams": (state, {}),
        "dtypes.pdparams": (by_dtype, {}),
        "dtypes_p2.pdparams": (by_dtype, {"protocol": 2}),
        "nested.pdparams": (nested, {}),
        "nested_p3.pdparams": (nested, {"protocol": 3}),
        "ordered.pdparams": (collections.OrderedDict([("b", w), ("a", [w])]), {}),
        "nonleaf.pdtensor": (nonleaf, {}),
        "binary.pdtensor": (by_dtype["float64"], {"use_binary_format": True}),
        "binary_bf16.pdtensor": (by_dtype["bfloat16"], {"use_binary_format": True}),
    }


@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle (PADDLE_PYTHON) is not installed")
@pytest.mark.parametrize("return_numpy", [False, True])
def test_paddle_loads_our_files(tmp_path, monkeypatch, return_numpy):
    objs = _our_objects()
    paths = []
    for fname, (obj, kw) in objs.items():
        paths.append(str(tmp_path / fname))
        paddle.save(obj, paths[-1], **kw)
    monkeypatch.setattr(_checkpoint, "_BIG_BYTES", 16)  # protocol 2 splits arrays over 16 bytes, as over 1 GiB
    objs["split_p2.pdparams"] = ({"w": paddle.arange(10, dtype="float32").reshape([2, 5])}, {})
    paths.append(str(tmp_path / "split_p2.pdparams"))
    paddle.save(objs["split_p2.pdparams"][0], paths[-1], protocol=2)
    assert "UnpackBigParamInfor@@" in pickle.load(open(paths[-1], "rb"))
    cmd = [PADDLE_PYTHON, RECORDER, "--describe", *(["--return-numpy"] if return_numpy else []), *paths]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    theirs = json.loads(out.stdout.strip().splitlines()[-1])
    for path, got in zip(paths, theirs):
        assert _norm(got) == _norm(describe(paddle.load(path, return_numpy=return_numpy))), path
    # and the values are the ones saved
    by_name = dict(zip(objs, theirs))
    state = by_name["state.pdparams"]["items"]
    assert state[0][0] == "fc.weight"
    if not return_numpy:
        assert state[0][1]["name"] == "linear_7.w_0"
    assert state[0][1]["values"] == ["0.5", "-1.0"]
    assert state[2] == ["LR_Scheduler", describe({"last_epoch": 3, "last_lr": 0.05})]
    assert by_name["nonleaf.pdtensor"]["values"] == ["4.0", "-3.0", "7.5"]
    split = by_name["split_p2.pdparams"]["items"]
    assert [k for k, _ in split] == ["w"] and split[0][1]["shape"] == [2, 5]
    assert split[0][1]["values"] == [repr(float(v)) for v in range(10)]


def test_protocol_2_splits_big_arrays_like_paddle(monkeypatch):
    monkeypatch.setattr(_checkpoint, "_BIG_BYTES", 16)
    w = paddle.arange(10, dtype="float32").reshape([2, 5])
    buf = io.BytesIO()
    paddle.save({"w": w, "b": paddle.ones([2])}, buf, protocol=2)
    raw = pickle.loads(buf.getvalue())
    assert raw["UnpackBigParamInfor@@"] == {"w": {"OriginShape": (2, 5), "slices": ["w@@.0", "w@@.1", "w@@.2"]}}
    np.testing.assert_array_equal(raw["w@@.1"], [4.0, 5.0, 6.0, 7.0])
    buf.seek(0)
    back = paddle.load(buf)
    assert sorted(back) == ["b", "w"]
    np.testing.assert_array_equal(back["w"].numpy(), w.numpy())


def test_tensor_subclasses_save_as_tensors():
    """A Parameter (a Tensor subclass) is written exactly as Paddle writes one: (name, array)."""
    Param = type("Param", (paddle.Tensor,), {"__slots__": ()})
    p = Param(paddle.to_tensor([1.0, 2.0])._value, False, name="linear_3.w_0")
    buf = io.BytesIO()
    paddle.save([p, {"p": p}], buf)
    raw = pickle.loads(buf.getvalue())
    assert raw[0][0] == "linear_3.w_0" and raw[1]["p"][0] == "linear_3.w_0"
    np.testing.assert_array_equal(raw[0][1], [1.0, 2.0])
    buf.seek(0)
    back = paddle.load(buf)
    assert type(back[0]) is paddle.Tensor and back[0].name == "linear_3.w_0" and back[0].stop_gradient


def test_numpy_scalars_and_complex_numbers_roundtrip():
    obj = {"lr": np.float32(0.5), "step": np.int64(3), "z": 1 + 2j, "s": {1, 2}, "fs": frozenset({3})}
    buf = io.BytesIO()
    paddle.save(obj, buf, protocol=2)
    buf.seek(0)
    back = paddle.load(buf)
    assert back == obj and type(back["lr"]) is np.float32 and type(back["step"]) is np.int64


def test_roundtrip_here_keeps_values_names_dtypes(tmp_path):
    for fname, (obj, kw) in _our_objects().items():
        path = str(tmp_path / fname)
        paddle.save(obj, path, **kw)
        back = paddle.load(path)
        if isinstance(obj, paddle.Tensor):
            assert back.dtype == obj.dtype and back.shape == obj.shape
            np.testing.assert_array_equal(np.asarray(back.numpy(), np.float64), np.asarray(obj.numpy(), np.float64))
    sd = paddle.load(str(tmp_path / "state.pdparams"))
    assert sd["fc.weight"].name == "linear_7.w_0"
    assert sd["LR_Scheduler"] == {"last_epoch": 3, "last_lr": 0.05}


def test_bytesio_roundtrip_and_same_bytes_as_file(tmp_path):
    state = {"w": paddle.to_tensor([1.0, 2.0]), "n": paddle.to_tensor([3], dtype="int64")}
    buf = io.BytesIO()
    paddle.save(state, buf)
    paddle.save(state, str(tmp_path / "s.pdparams"))
    assert buf.getvalue() == open(tmp_path / "s.pdparams", "rb").read()
    buf.seek(0)
    back = paddle.load(buf)
    np.testing.assert_array_equal(back["w"].numpy(), [1.0, 2.0])
    assert back["n"].dtype == paddle.int64


def test_pickle_protocol_config_is_deprecated_alias(tmp_path):
    with pytest.warns(UserWarning, match="'pickle_protocol' is a deprecated argument"):
        paddle.save(paddle.ones([2]), str(tmp_path / "t.pd"), pickle_protocol=2)
    assert open(tmp_path / "t.pd", "rb").read()[:2] == b"\x80\x02"


def test_empty_state_dict_warns_and_loads_empty(tmp_path):
    with pytest.warns(UserWarning, match="The input state dict is empty"):
        paddle.save({}, str(tmp_path / "e.pdparams"))
    assert paddle.load(str(tmp_path / "e.pdparams")) == {}


def test_save_creates_missing_folders(tmp_path):
    path = str(tmp_path / "a" / "b" / "w.pdparams")
    paddle.save({"w": paddle.ones([1])}, path)
    assert paddle.load(path)["w"].shape == [1]


# ---- safety: restricted unpickling, corrupt files, atomic writes ------------------------------------
class _Evil:
    def __reduce__(self):
        return (os.system, ("touch should_not_exist",))


def test_load_refuses_globals_paddle_files_never_contain(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "evil.pdparams"
    path.write_bytes(pickle.dumps({"x": _Evil()}))
    with pytest.raises(pickle.UnpicklingError, match=r"evil\.pdparams asks to import (posix|os|nt)\.system"):
        paddle.load(str(path))
    assert not (tmp_path / "should_not_exist").exists()


@pytest.mark.parametrize("cut", [1, 50, 200, -1])
def test_truncated_file_raises_corrupt_or_truncated(tmp_path, cut):
    data = open(os.path.join(DATA, "layer.pdparams"), "rb").read()
    path = tmp_path / "cut.pdparams"
    path.write_bytes(data[:cut])
    with pytest.raises(ValueError, match=r"cut\.pdparams is corrupt or truncated") as info:
        paddle.load(str(path))
    assert isinstance(info.value, pickle.UnpicklingError)


def test_garbage_and_empty_files_raise(tmp_path):
    (tmp_path / "junk").write_bytes(b"hello world garbage")
    with pytest.raises(ValueError, match="junk is corrupt or truncated"):
        paddle.load(str(tmp_path / "junk"))
    (tmp_path / "empty").write_bytes(b"")
    with pytest.raises(EOFError, match="empty .corrupt or truncated."):  # Paddle raises EOFError here
        paddle.load(str(tmp_path / "empty"))
    with pytest.raises(ValueError, match="BytesIO buffer is corrupt or truncated"):
        paddle.load(io.BytesIO(b"\x80\x04junk"))


def test_missing_file_and_directories(tmp_path):
    with pytest.raises(ValueError, match=r"the path \(.*nope\.pdparams\) to load model does not exist"):
        paddle.load(str(tmp_path / "nope.pdparams"))
    (tmp_path / "d").mkdir()
    assert paddle.load(str(tmp_path / "d")) == {}  # as Paddle: an empty folder loads as {}
    (tmp_path / "d" / "x").write_bytes(b"abc")
    with pytest.raises(ValueError, match="is a directory"):
        paddle.load(str(tmp_path / "d"))


def _leftovers(folder):
    return sorted(p for p in os.listdir(folder) if p.endswith(".tmp"))


def test_interrupted_save_keeps_old_file(tmp_path, monkeypatch):
    path = str(tmp_path / "m.pdparams")
    paddle.save({"a": paddle.ones([3]), "b": paddle.zeros([2])}, path)
    before = open(path, "rb").read()
    calls = []
    real = _checkpoint._array

    def interrupt_on_second(t):
        calls.append(t)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(t)

    monkeypatch.setattr(_checkpoint, "_array", interrupt_on_second)
    with pytest.raises(KeyboardInterrupt):
        paddle.save([paddle.full([4], 5.0), paddle.full([4], 6.0)], path)
    assert len(calls) == 2  # interrupted in the middle of writing the pickle
    assert open(path, "rb").read() == before
    assert _leftovers(tmp_path) == []
    monkeypatch.setattr(_checkpoint, "_array", real)

    def no_fsync(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", no_fsync)
    with pytest.raises(KeyboardInterrupt):
        paddle.save({"c": paddle.ones([1])}, path)
    assert open(path, "rb").read() == before
    assert _leftovers(tmp_path) == []


def test_saved_file_mode_follows_umask_and_symlinks_are_followed(tmp_path):
    path = tmp_path / "m.pdparams"
    old = os.umask(0o022)
    try:
        paddle.save({"a": paddle.ones([1])}, str(path))
    finally:
        os.umask(old)
    assert (os.stat(path).st_mode & 0o777) == 0o644  # what open(path, "wb") gives, not mkstemp's 0o600
    link = tmp_path / "latest.pdparams"
    os.symlink(path, link)
    paddle.save({"a": paddle.zeros([1])}, str(link))
    assert os.path.islink(link)
    np.testing.assert_array_equal(paddle.load(str(path))["a"].numpy(), [0.0])


def test_failed_save_into_bytesio_leaves_it_untouched(monkeypatch):
    buf = io.BytesIO(b"keep")
    buf.seek(4)

    def boom(t):
        raise KeyboardInterrupt

    monkeypatch.setattr(_checkpoint, "_array", boom)
    with pytest.raises(KeyboardInterrupt):
        paddle.save([1, paddle.ones([1])], buf)
    assert buf.getvalue() == b"keep"


def test_failed_save_leaves_no_file(tmp_path):
    path = tmp_path / "x.pdparams"
    with pytest.raises(TypeError, match="cannot save an object of type object"):
        paddle.save({"a": [object()]}, str(path))
    assert not path.exists() and _leftovers(tmp_path) == []


# ---- misuse --------------------------------------------------------------------------------------------
def test_save_argument_errors(tmp_path):
    p = str(tmp_path / "f.pd")
    t = paddle.ones([1])
    with pytest.raises(ValueError, match=r"expected 1 < protocol < 5, but received protocol=5"):
        paddle.save({"a": t}, p, protocol=5)
    with pytest.raises(ValueError, match=r"expected 1 < protocol < 5, but received protocol=1"):
        paddle.save([t], p, protocol=1)
    with pytest.raises(ValueError, match="'protocol' must be an int, but received str"):
        paddle.save([t], p, protocol="4")
    with pytest.raises(ValueError, match=r"additional config \(foo\) is not supported"):
        paddle.save([t], p, foo=1)
    with pytest.raises(TypeError, match="use_binary_format must be a bool, but received int"):
        paddle.save([t], p, use_binary_format=1)
    with pytest.raises(NotImplementedError, match="saves a single Tensor, but received list"):
        paddle.save([t], p, use_binary_format=True)
    with pytest.raises(ValueError, match="file name is empty"):
        paddle.save([t], str(tmp_path) + "/")
    with pytest.raises(ValueError, match="only saves to a file path or an io.BytesIO, but received int"):
        paddle.save([t], 3)
    with pytest.raises(NotImplementedError, match="iterable objects supported .* received bytes"):
        paddle.save(b"abc", p)
    with pytest.raises(NotImplementedError, match="received range"):
        paddle.save([range(3)], p)
    with pytest.raises(NotImplementedError, match="safetensors=True is not supported"):
        paddle.save({"a": t}, p, safetensors=True)
    assert not os.path.exists(p)


def test_saving_a_layer_raises(tmp_path):
    Layer = type("Layer", (), {"__module__": "pylayer_jax.nn.layer.layers"})
    Linear = type("Linear", (Layer,), {"__module__": "pylayer_jax.nn.layer.common"})
    with pytest.raises(ValueError, match=r"does not save a paddle.nn.Layer object .*state_dict\(\)"):
        paddle.save({"net": Linear()}, str(tmp_path / "n.pd"))


def test_load_argument_errors(tmp_path):
    p = str(tmp_path / "f.pd")
    paddle.save([paddle.ones([1])], p)
    with pytest.raises(ValueError, match=r"additional config \(foo\) of|additional config \(foo\) is not supported"):
        paddle.load(p, foo=1)
    with pytest.raises(TypeError, match="reads a file path or an io.BytesIO, but received int"):
        paddle.load(3)
    with pytest.raises(NotImplementedError, match="model_filename"):
        paddle.load(p, model_filename="x")


def test_traced_tensor_cannot_be_saved():
    import jax

    def f(a):
        paddle.save(paddle.Tensor(a), io.BytesIO())
        return a

    with pytest.raises(RuntimeError, match=r"Tensor\.numpy\(\) needs a concrete value"):
        jax.jit(f)(np.ones(2))


def test_pathlib_paths(tmp_path):
    paddle.save({"w": paddle.ones([2])}, tmp_path / "p.pdparams")
    assert paddle.load(tmp_path / "p.pdparams")["w"].shape == [2]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
