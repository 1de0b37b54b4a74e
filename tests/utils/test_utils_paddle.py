"""``paddle.utils``: the nested-structure helpers, ``strtobool``, ``try_import``, ``require_version``, ``deprecated``
and ``download`` against Paddle 3.3.1 (results recorded by ``tests/record_paddle_utils.py``, cases in
``tests/utils_cases.py``), their misuse, and ``run_check``."""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import subprocess
import sys
import warnings

import jax
import pytest
from utils_cases import record

import pylayer_jax as paddle
from pylayer_jax.utils import _install_check
from pylayer_jax.utils import download as dl

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_utils.json")) as fh:
    PADDLE = json.load(fh)
OURS = record(paddle)

# Where Paddle raises a type that says nothing (an ``assert``, a bare Exception, an IndexError for a missing
# argument), a clearer one is raised: (Paddle's, ours).
CLEARER = {
    "deprecated level 3": ("AssertionError", "ValueError"),
    "deprecated since not str": ("AssertionError", "TypeError"),
    "deprecated update_to not paddle": ("AssertionError", "ValueError"),
    "map_structure none": ("IndexError", "TypeError"),
    "not a url": ("AssertionError", "ValueError"),
    **{f"require_version {k}": ("Exception", "RuntimeError")
       for k in ("1.0 to 2.6.2", "2.0 to 3.3", "3.3.2", "3.4 to 4.0", "4")},
}
KEYS = sorted(k for k in PADDLE if k != "paddle")


@pytest.mark.parametrize("key", KEYS)
def test_matches_paddle(key: str) -> None:
    if key in CLEARER:
        theirs, ours = CLEARER[key]
        assert PADDLE[key] == ["raises", theirs] and OURS[key] == ["raises", ours]
        assert issubclass(getattr(builtins, ours), Exception)  # (``except Exception`` still catches it)
    else:
        assert OURS[key] == PADDLE[key]


def test_public_names_are_paddles() -> None:
    assert paddle.utils.__all__ == ["deprecated", "run_check", "require_version", "try_import"]
    from pylayer_jax.utils.deprecated import VisibleDeprecationWarning
    assert issubclass(VisibleDeprecationWarning, UserWarning)
    assert dl.__all__ == ["get_weights_path_from_url"]


@pytest.mark.parametrize("call, err, match", [
    (lambda: paddle.utils.strtobool(1), TypeError, r"strtobool: val must be a str .* received int"),
    (lambda: paddle.utils.strtobool("maybe"), ValueError, r"Invalid truth value 'maybe': strtobool takes one of y"),
    (lambda: paddle.utils.try_import(3), TypeError, r"try_import: module_name must be a str, but received int"),
    (lambda: paddle.utils.require_version(3), TypeError, r"require_version: min_version must be a str .* received int"),
    (lambda: paddle.utils.require_version("3.0", 4.0), TypeError,
     r"require_version: max_version must be a str like '2.6.0' or None, but received float"),
    (lambda: paddle.utils.require_version("3.x"), ValueError,
     r"require_version: min_version must be up to four dot-separated numbers .* received '3.x'"),
    (lambda: paddle.utils.require_version("3.4"), RuntimeError,
     r"PaddlePaddle version 3.4 or higher is required, but this package implements PaddlePaddle 3.3.1's API"),
    (lambda: paddle.utils.require_version("2.0", "3.3"), RuntimeError,
     r"PaddlePaddle version in \[2.0, 3.3\] required, but this package implements PaddlePaddle 3.3.1's API"),
    (lambda: paddle.utils.deprecated(level=3), ValueError, r"deprecated: level must be 0, 1 or 2, but received 3"),
    (lambda: paddle.utils.deprecated(since=2.0), TypeError, r"deprecated: since must be a str, but received float"),
    (lambda: paddle.utils.deprecated(update_to="torch.add"), ValueError,
     r"deprecated: update_to must name the new API from 'paddle.' on, like 'paddle.add', but received 'torch.add'"),
    (lambda: paddle.utils.map_structure(abs), TypeError, r"map_structure: give at least one structure after func"),
    (lambda: paddle.utils.flatten({1: 2, "a": 3}), TypeError,
     r"flatten: the keys of a dict in a nested structure must be sortable .* received the keys \[1, 'a'\]"),
    (lambda: paddle.utils.pack_sequence_as([1], 5), TypeError,
     r"pack_sequence_as: flat_sequence must be a list, tuple or dict of the leaves, but received int"),
    (lambda: paddle.utils.pack_sequence_as([1, [2]], [1]), ValueError,
     r"pack_sequence_as: the structure has 2 leaves but flat_sequence holds 1 items"),
    (lambda: paddle.utils.pack_sequence_as(0, [1, 2]), ValueError,
     r"pack_sequence_as: the structure is a single leaf, so flat_sequence must hold one item, but it holds 2"),
    (lambda: paddle.utils.assert_same_structure([1], (1,)), TypeError,
     r"assert_same_structure: the two structures have different sequence types, list and tuple"),
    (lambda: paddle.utils.assert_same_structure({"a": 1}, {"b": 1}), ValueError,
     r"assert_same_structure: the two dicts have different keys, \['a'\] and \['b'\]"),
    (lambda: paddle.utils.assert_same_structure([1, [2, 3]], [[1, 2], 3]), ValueError,
     r"assert_same_structure: the two structures are not nested alike: 1 is a leaf where the other has \[1, 2\]"),
    (lambda: paddle.utils.assert_same_structure([1], [1, 2]), ValueError,
     r"assert_same_structure: the two structures have 1 and 2 leaves"),
])
def test_misuse_raises_a_clear_error(call, err, match) -> None:
    with pytest.raises(err, match=match):
        call()


def test_try_import_names_what_to_install() -> None:
    with pytest.raises(ImportError, match=r"Failed importing cv2\. .*\(usually with `pip install opencv-python`\)"):
        paddle.utils.try_import("cv2")
    assert paddle.utils.try_import("json.decoder").JSONDecoder is json.decoder.JSONDecoder


def test_deprecated_warns_at_each_call_and_keeps_the_function() -> None:
    @paddle.utils.deprecated(update_to="paddle.add", since="2.5.0", reason="merged", level=1)
    def plus(a, b):
        """Sum."""
        return a + b

    assert plus.__name__ == "plus" and plus.__doc__.endswith("Reason: merged\n\nSum.")
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        assert plus(2, 3) == 5 and plus(1, 1) == 2
    assert [w.category.__name__ for w in got] == ["VisibleDeprecationWarning"] * 2
    assert 'Please use "paddle.add" instead.' in str(got[0].message)
    assert got[0].filename == __file__  # (stacklevel: the warning points at the caller)

    @paddle.utils.deprecated(level=2)
    def gone():
        return 1

    with pytest.raises(RuntimeError, match=r'API "test_utils_paddle.*gone" has been deprecated\.'):
        gone()


# ---- download: cached files only ----------------------------------------------------------------------------------
def test_cached_file_is_found_and_md5_checked(tmp_path) -> None:
    (tmp_path / "w.pdparams").write_bytes(b"abc")
    url = "https://example.com/x/w.pdparams"
    good = hashlib.md5(b"abc").hexdigest()
    assert dl.get_path_from_url(url, str(tmp_path), good) == str(tmp_path / "w.pdparams")
    with pytest.raises(RuntimeError, match=r"the cached file .*w\.pdparams does not have the md5 sum 0+ given for "
                                           r"https://example.com/x/w.pdparams; it may be incomplete"):
        dl.get_path_from_url(url, str(tmp_path), "0" * 32)
    with pytest.raises(RuntimeError, match=r"get_path_from_url: https://example.com/x/v.pdparams is not in the local "
                                           r"cache: no file at .*v\.pdparams\. pylayer_jax downloads nothing"):
        dl.get_path_from_url("https://example.com/x/v.pdparams", str(tmp_path))
    with pytest.raises(RuntimeError, match=r"check_exist=False asks for a fresh download of https://example.com/x/"
                                           r"w.pdparams, which pylayer_jax cannot make"):
        dl.get_path_from_url(url, str(tmp_path), check_exist=False)
    with pytest.raises(ValueError, match=r"get_path_from_url: method must be 'get' or 'wget', but received 'curl'"):
        dl.get_path_from_url(url, str(tmp_path), method="curl")


def test_weights_path_is_pdaddles_cache(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(dl, "WEIGHTS_HOME", str(tmp_path))
    (tmp_path / "resnet18.pdparams").write_bytes(b"w")
    assert dl.get_weights_path_from_url("https://paddle-hapi.bj.bcebos.com/models/resnet18.pdparams") == \
        str(tmp_path / "resnet18.pdparams")
    assert PADDLE["WEIGHTS_HOME"] == "~/.cache/paddle/hapi/weights"
    with pytest.raises(RuntimeError, match=r"no file at .*resnet34\.pdparams"):
        dl.get_weights_path_from_url("https://paddle-hapi.bj.bcebos.com/models/resnet34.pdparams")


def test_unsafe_archive_is_refused(tmp_path) -> None:
    import zipfile
    with zipfile.ZipFile(tmp_path / "bad.zip", "w") as zf:
        zf.writestr("../escape.txt", "x")
    with pytest.raises(ValueError, match=r"holds the unsafe member name '../escape.txt'; not unpacked"):
        dl.get_path_from_url("https://example.com/bad.zip", str(tmp_path))
    assert not (tmp_path.parent / "escape.txt").exists()


# ---- run_check --------------------------------------------------------------------------------------------------
def test_run_check_runs_and_says_so(capsys) -> None:
    paddle.utils.run_check()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Running verify PaddlePaddle program ... "
    kind = "CPU" if jax.devices()[0].platform == "cpu" else jax.devices()[0].platform.upper()
    assert lines[1].startswith(f"pylayer_jax works well on 1 {kind} (an eager forward and backward")
    assert lines[-1] == "pylayer_jax is installed successfully! Let's start deep learning with pylayer_jax now."


def test_run_check_fails_loudly_on_a_wrong_gradient(monkeypatch) -> None:
    monkeypatch.setattr(_install_check._Tanh, "backward", staticmethod(lambda ctx, dy: dy))  # a wrong derivative
    with pytest.raises(RuntimeError, match=r"run_check: an eager backward through a PyLayer on the CPU gave .* where "
                                           r"jax.grad of the same function gives"):
        _install_check._single("CPU")


def test_run_check_on_two_devices_runs_the_parallel_step() -> None:
    # two CPU devices (XLA's host platform split in two) in a fresh interpreter: the check sums a gradient across them
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=2", "JAX_PLATFORMS": "cpu",
           "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", "import pylayer_jax as p; p.utils.run_check()"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "pylayer_jax works well on 2 CPUs." in out.stdout.splitlines()
