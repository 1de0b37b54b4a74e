"""``paddle.reader`` (and ``paddle.batch``), ``paddle.special``, ``paddle.functional``, ``paddle.random``,
``paddle.cuda`` and ``paddle.hub``: the cases of ``tests/small_modules_cases.py`` against Paddle 3.3.1's results
(``tests/record_paddle_small_modules.py``), and the misuse errors."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recorded import Recorded, assert_close, paddle_fixture  # noqa: E402
from small_modules_cases import record  # noqa: E402

REF = paddle_fixture("paddle_small_modules.json")
OURS = Recorded(record, paddle)


@pytest.mark.parametrize("key", sorted(REF))
def test_as_paddle(key: str) -> None:
    assert_close(OURS[key], REF[key], key, rtol=1e-6)


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(REF)


def test_reader_misuse() -> None:
    with pytest.raises(ValueError, match=r"paddle\.batch: batch_size must be a positive integer, but received -2"):
        paddle.batch(lambda: iter([1]), -2)
    with pytest.raises(TypeError, match=r"paddle\.reader\.shuffle: a reader is a function .* received list"):
        paddle.reader.shuffle([1, 2], 2)
    with pytest.raises(ValueError, match=r"multiprocess_reader: a reader gave None"):
        list(paddle.reader.multiprocess_reader([lambda: iter([1, None])])())

    def bad(v: int) -> int:
        raise KeyError(v)

    with pytest.raises(KeyError):  # a mapper's error reaches the reading loop
        list(paddle.reader.xmap_readers(bad, lambda: iter(range(5)), 2, 2)())


def test_functional_split_misuse() -> None:
    y = paddle.ones([2, 5])
    with pytest.raises(ValueError, match=r"functional\.split: split_size_or_sections must be a positive int"):
        paddle.functional.split(y, 0, dim=1)
    with pytest.raises(ValueError, match=r"the sizes \[2, 2\] must be non-negative and add up to the size 5"):
        paddle.functional.split(y, [2, 2], dim=1)
    with pytest.raises(ValueError, match=r"functional\.split: dim must be an int in \[-2, 2\), but received 2"):
        paddle.functional.split(y, 2, dim=2)


def test_functional_split_gradient() -> None:
    x = paddle.to_tensor(np.arange(7, dtype="float32"), stop_gradient=False)
    a, b, c = paddle.functional.split(x, 3)
    (a.sum() + 2 * b.sum() + 3 * c.sum()).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1, 1, 1, 2, 2, 2, 3])


def test_cuda_mem_get_info_says_there_is_no_cuda_device() -> None:
    with pytest.raises(ValueError, match=r"paddle\.cuda\.mem_get_info: Expected a cuda device"):
        paddle.cuda.mem_get_info()


def test_device_context_misuse() -> None:
    with pytest.raises(ValueError, match=r"paddle\.device\.device: The device specification 3\.5 is invalid"):
        paddle.device.device(3.5)


def _repo(tmp_path: object, deps: str = "[]") -> str:
    d = os.path.join(str(tmp_path), "repo")
    os.makedirs(d)
    with open(os.path.join(d, "helper_mod.py"), "w") as fh:
        fh.write("WIDTH = 3\n")
    with open(os.path.join(d, "hubconf.py"), "w") as fh:
        fh.write(f"dependencies = {deps}\n"
                 "import pylayer_jax as paddle\nfrom helper_mod import WIDTH\n"
                 "def tiny(out=2):\n    'A Linear of WIDTH inputs.'\n    return paddle.nn.Linear(WIDTH, out)\n"
                 "def _private():\n    pass\n"
                 "CONST = 1\n")
    return d


def test_hub_local(tmp_path: object) -> None:
    d = _repo(tmp_path)
    assert paddle.hub.list(d, source="local") == ["tiny"]
    assert paddle.hub.help(d, "tiny", source="local") == "A Linear of WIDTH inputs."
    layer = paddle.hub.load(d, "tiny", source="local", out=5)
    assert layer.weight.shape == [3, 5]
    with pytest.raises(RuntimeError, match="Cannot find callable nope in hubconf"):
        paddle.hub.load(d, "nope", source="local")
    with pytest.raises(ValueError, match='Unknown source: "svn"'):
        paddle.hub.list(d, source="svn")


def test_hub_missing_dependency(tmp_path: object) -> None:
    d = _repo(tmp_path, deps="['no_such_package_xyz']")
    with pytest.raises(RuntimeError, match="Missing dependencies: no_such_package_xyz"):
        paddle.hub.load(d, "tiny", source="local")


def test_hub_github_reads_the_cache(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PADDLE_HOME", str(tmp_path))
    with pytest.raises(RuntimeError, match=r"paddle\.hub\.list: the github repository 'me/models' cannot be "
                                           r"fetched .* extract the repository into .*me_models_main"):
        paddle.hub.list("me/models")
    src = _repo(tmp_path)
    os.makedirs(os.path.join(str(tmp_path), "hub"))
    os.rename(src, os.path.join(str(tmp_path), "hub", "me_models_dev"))
    assert paddle.hub.list("me/models:dev") == ["tiny"]


def test_hub_load_state_dict_from_url(tmp_path: object) -> None:
    sd = {"w": paddle.to_tensor([1.0, 2.0])}
    paddle.save(sd, os.path.join(str(tmp_path), "w.pdparams"))
    got = paddle.hub.load_state_dict_from_url("https://example.com/x/w.pdparams", model_dir=str(tmp_path))
    np.testing.assert_array_equal(got["w"].numpy(), [1.0, 2.0])
    got = paddle.hub.load_state_dict_from_url("https://e.com/w.pdparams", model_dir=str(tmp_path), map_location="np")
    assert isinstance(got["w"], np.ndarray)
    with pytest.raises(RuntimeError, match=r"load_state_dict_from_url: .*missing\.pdparams is not there"):
        paddle.hub.load_state_dict_from_url("https://e.com/missing.pdparams", model_dir=str(tmp_path))
