"""Cases for ``paddle.utils`` (the nested-structure helpers, ``strtobool``, ``try_import``, ``require_version``,
``deprecated``, the cached-file side of ``download``), run by ``record_paddle_utils.py`` with real Paddle and by
``tests/utils/test_utils_paddle.py`` with pylayer_jax: the same function, ``record``, on either library."""

from __future__ import annotations

import collections
import hashlib
import io
import os
import tarfile
import tempfile
import warnings
import zipfile
from typing import Any

Point = collections.namedtuple("Point", ["x", "y"])


def _structures() -> dict[str, Any]:
    return {
        "int": 7,
        "none": None,
        "str": "abc",
        "bytes": b"ab",
        "empty list": [],
        "empty dict": {},
        "list": [1, 2, 3],
        "tuple of list": (1, [2, 3]),
        "dict unsorted keys": {"b": 1, "a": [2, 3], "c": (4,)},
        "namedtuple": Point(1, (2, 3)),
        "nested mix": [("a", 1), {"z": 2, "y": [3, {"k": 4}]}, Point([5], 6)],
        "range": range(3),
    }


def _outcome(fn: Any) -> Any:
    """``["ok", repr(result)]`` or ``["raises", exception type name]``."""
    try:
        return ["ok", repr(fn())]
    except Exception as e:  # noqa: BLE001  (recording what each library raises)
        return ["raises", type(e).__name__]


def _nest(u: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    structs = _structures()
    for name, s in structs.items():
        out[f"is_sequence {name}"] = _outcome(lambda s=s: u.is_sequence(s))
        out[f"flatten {name}"] = _outcome(lambda s=s: u.flatten(s))
        n = len(u.flatten(s))
        out[f"pack_sequence_as {name}"] = _outcome(lambda s=s, n=n: u.pack_sequence_as(s, [100 + i for i in range(n)]))
        out[f"map_structure {name}"] = _outcome(lambda s=s: u.map_structure(lambda v: [v], s))
        out[f"assert_same_structure self {name}"] = _outcome(lambda s=s: u.assert_same_structure(s, s))
    out["pack_sequence_as scalar one"] = _outcome(lambda: u.pack_sequence_as(5, [9]))
    out["pack_sequence_as scalar two"] = _outcome(lambda: u.pack_sequence_as(5, [9, 8]))
    out["pack_sequence_as flat not a sequence"] = _outcome(lambda: u.pack_sequence_as([1], 9))
    out["pack_sequence_as too few"] = _outcome(lambda: u.pack_sequence_as([1, [2, 3]], [1, 2]))
    out["pack_sequence_as too many"] = _outcome(lambda: u.pack_sequence_as([1, [2, 3]], [1, 2, 3, 4]))
    out["pack_sequence_as from a dict"] = _outcome(lambda: u.pack_sequence_as([0, (0,)], {"q": 5, "p": 6}))
    out["pack_sequence_as a string flat"] = _outcome(lambda: u.pack_sequence_as([0, 0], "xy"))
    out["flatten unsortable keys"] = _outcome(lambda: u.flatten({1: "a", "b": 2}))
    out["map_structure two"] = _outcome(lambda: u.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)]))
    out["map_structure two dicts"] = _outcome(
        lambda: u.map_structure(lambda a, b: a * b, {"b": 2, "a": 3}, {"a": 5, "b": 7}))
    out["map_structure shorter second"] = _outcome(lambda: u.map_structure(lambda a, b: a, [1, 2, 3], [1, 2]))
    out["map_structure longer second"] = _outcome(lambda: u.map_structure(lambda a, b: b, [1, 2], [7, 8, 9]))
    out["map_structure none"] = _outcome(lambda: u.map_structure(lambda a: a))
    pairs = {
        "list vs tuple": ([1, 2], (1, 2)),
        "list vs tuple unchecked": ([1, 2], (1, 2), False),
        "counts differ": ([1, 2], [1, 2, 3]),
        "nesting differs": ([1, [2]], [[1], 2]),
        "scalar vs list": (1, [1]),
        "dict keys differ": ({"a": 1}, {"b": 1}),
        "dict keys differ unchecked": ({"a": 1}, {"b": 1}, False),
        "same counts other nesting": ([1, [2, 3]], [[1, 2], 3]),
        "namedtuple vs tuple": (Point(1, 2), (1, 2)),
        "two scalars": (1, "x"),
    }
    for name, args in pairs.items():
        out[f"assert_same_structure {name}"] = _outcome(lambda args=args: u.assert_same_structure(*args))
    out["assert_same_structure skip_if"] = _outcome(
        lambda: u.assert_same_structure([1, [2]], [1, 2], skip_if=lambda v: isinstance(v, list) and len(v) == 1))
    return out


def _strtobool(u: Any) -> dict[str, Any]:
    return {f"strtobool {v!r}": _outcome(lambda v=v: u.strtobool(v))
            for v in ["y", "YES", "t", "True", "On", "1", "n", "No", "f", "FALSE", "off", "0", "maybe", ""]}


def _try_import(u: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    out["try_import json"] = u.try_import("json").__name__
    out["try_import os.path"] = u.try_import("os.path").__name__
    for name in ["no_such_module_q7", "cv2", "no_such_pkg_q7.sub"]:
        try:
            u.try_import(name)
            out[f"try_import {name}"] = "ok"
        except ImportError as e:
            out[f"try_import {name}"] = ["ImportError", str(e)]
    try:
        u.try_import("no_such_module_q7", "install it, please")
    except ImportError as e:
        out["try_import custom message"] = ["ImportError", str(e)]
    return out


def _require_version(u: Any) -> dict[str, Any]:
    cases = {
        "3.0": ("3.0",), "3.3.1": ("3.3.1",), "3.3.1.0": ("3.3.1.0",), "3.3.2": ("3.3.2",), "4": ("4",),
        "2.0 to 3.3.1": ("2.0", "3.3.1"), "2.0 to 3.3": ("2.0", "3.3"), "1.0 to 2.6.2": ("1.0", "2.6.2"),
        "3.4 to 4.0": ("3.4", "4.0"), "int": (3,), "bad format": ("3.x",), "five parts": ("1.2.3.4.5",),
        "max int": ("3.0", 4), "max bad format": ("3.0", "v4"),
    }
    return {f"require_version {k}": _outcome(lambda a=a: u.require_version(*a)) for k, a in cases.items()}


def _old(x: int) -> int:
    """Add one."""
    return x + 1


def _deprecated(u: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    cases = {
        "level 0": {"since": "2.0.0", "update_to": "paddle.new_add", "reason": "renamed", "level": 0},
        "level 1": {"since": "2.0.0", "update_to": "paddle.new_add", "reason": "renamed", "level": 1},
        "level 1 no since": {"level": 1},
        "level 1 future since": {"since": "9.0.0", "level": 1},
        "level 1 since 3.3.1": {"since": "3.3.1", "level": 1, "reason": "  padded  "},
        "level 2": {"since": "1.0", "level": 2},
    }
    for name, kw in cases.items():
        def fn(x: int) -> int:
            """Add one."""
            return x + 1
        wrapped = u.deprecated(**kw)(fn)
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            res = _outcome(lambda wrapped=wrapped: wrapped(1))
        out[f"deprecated {name}"] = {
            "result": res, "doc": wrapped.__doc__, "same function": wrapped is fn, "name": wrapped.__name__,
            "warnings": [[w.category.__name__, str(w.message)] for w in got],
        }
    for name, kw in {"update_to not paddle": {"update_to": "torch.add", "level": 1},
                     "level 3": {"level": 3}, "since not str": {"since": 2.0}}.items():
        out[f"deprecated {name}"] = _outcome(lambda kw=kw: u.deprecated(**kw)(_old))
    return out


def _write(path: str, data: bytes) -> str:
    with open(path, "wb") as fh:
        fh.write(data)
    return hashlib.md5(data).hexdigest()


def _tar(path: str, members: dict[str, bytes | None]) -> None:
    """A gzipped tar of ``members`` (None: a directory entry), in the given order."""
    with tarfile.open(path, "w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                tf.addfile(info)
            else:
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))


def _download(u: Any) -> dict[str, Any]:
    d = u.download
    out: dict[str, Any] = {"WEIGHTS_HOME": d.WEIGHTS_HOME.replace(os.path.expanduser("~"), "~"),
                           "is_url": [d.is_url(s) for s in ["http://a/b", "https://a/b.tar", "ftp://a", "/tmp/x"]]}
    with tempfile.TemporaryDirectory() as root:
        def rel(p: Any) -> Any:
            return os.path.relpath(p, root) if isinstance(p, str) else p
        md5 = _write(os.path.join(root, "w.pdparams"), b"weights")
        url = "https://example.com/models/w.pdparams"
        out["cached file"] = rel(d.get_path_from_url(url, root))
        out["cached file with md5"] = rel(d.get_path_from_url(url, root, md5))
        _tar(os.path.join(root, "one.tar.gz"), {"one.txt": b"1"})
        out["tar of one file"] = rel(d.get_path_from_url("https://example.com/one.tar.gz", root))
        out["tar of one file, not decompressed"] = rel(
            d.get_path_from_url("https://example.com/one.tar.gz", root, decompress=False))
        _tar(os.path.join(root, "dir.tar.gz"), {"pkg": None, "pkg/a.txt": b"a", "pkg/sub": None, "pkg/sub/b.txt": b"b"})
        out["tar of one dir"] = rel(d.get_path_from_url("https://example.com/dir.tar.gz", root))
        out["tar of one dir, files"] = sorted(os.listdir(os.path.join(root, "pkg")))
        _tar(os.path.join(root, "many.tar.gz"), {"a.txt": b"a", "b": None, "b/c.txt": b"c"})
        out["tar of many"] = rel(d.get_path_from_url("https://example.com/many.tar.gz", root))
        out["tar of many, files"] = sorted(os.listdir(os.path.join(root, "many.tar")))
        with zipfile.ZipFile(os.path.join(root, "z.zip"), "w") as zf:
            zf.writestr("m/", "")
            zf.writestr("m/x.txt", "x")
            zf.writestr("m/y.txt", "y")
        out["zip of one dir"] = rel(d.get_path_from_url("https://example.com/z.zip", root))
        out["zip of one dir, files"] = sorted(os.listdir(os.path.join(root, "m")))
        out["not a url"] = _outcome(lambda: d.get_path_from_url(os.path.join(root, "w.pdparams"), root))
    return out


def record(paddle: Any) -> dict[str, Any]:
    u = paddle.utils
    return {**_nest(u), **_strtobool(u), **_try_import(u), **_require_version(u), **_deprecated(u),
            **_download(u)}
