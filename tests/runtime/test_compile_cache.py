"""The persistent compilation cache pylayer_jax turns on (``_runtime/compile_cache.py``), in fresh interpreters.

Each test runs a short training script in a subprocess with its own cache directory under ``tmp_path``. Oracles:
the files JAX writes, JAX's cache-hit events, JAX's own settings, and the same script's results with the cache off.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import pylayer_jax
from pylayer_jax._runtime import compile_cache

SRC = os.path.dirname(os.path.dirname(os.path.abspath(pylayer_jax.__file__)))

SCRIPT = """
import json
import jax.monitoring
events = []
jax.monitoring.register_event_listener(lambda name, **kw: events.append(name))
import jax
import pylayer_jax as paddle
from pylayer_jax._runtime import compile_cache

paddle.seed(1)
net = paddle.nn.Linear(4, 2)
opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
x = paddle.to_tensor([[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 0.0]])
for _ in range(3):
    loss = (net(x) ** 2).mean()
    loss.backward()
    opt.step()
    opt.clear_grad()
print(json.dumps({"loss": float(loss), "w": net.weight.numpy().tolist(), "b": net.bias.numpy().tolist(),
                  "ours": compile_cache.CACHE_DIR, "jax_dir": jax.config.jax_compilation_cache_dir,
                  "min_secs": jax.config.jax_persistent_cache_min_compile_time_secs,
                  "max_size": jax.config.jax_compilation_cache_max_size,
                  "compiled": events.count("/jax/compilation_cache/compile_requests_use_cache"),
                  "hits": events.count("/jax/compilation_cache/cache_hits")}))
"""


def _run(tmp_path, **env: str) -> tuple[dict, str]:
    e = {k: v for k, v in os.environ.items()
         if not k.startswith(("PYLAYER_JAX_CACHE", "JAX_COMPILATION_CACHE", "JAX_PERSISTENT_CACHE"))}
    e["PYTHONPATH"] = SRC + os.pathsep + e.get("PYTHONPATH", "")
    e["XDG_CACHE_HOME"] = str(tmp_path / "xdg")  # never the real user's cache
    e.update(env)
    p = subprocess.run([sys.executable, "-c", SCRIPT], env=e, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


def _entries(path) -> list[str]:
    return [n for n in os.listdir(path) if n.endswith("-cache")] if os.path.isdir(path) else []


def _values(r: dict) -> tuple:
    return r["loss"], r["w"], r["b"]


@pytest.fixture(scope="module")
def uncached(tmp_path_factory) -> dict:
    r, _ = _run(tmp_path_factory.mktemp("off"), PYLAYER_JAX_CACHE_DIR="")
    return r


def test_the_second_run_reads_what_the_first_wrote(tmp_path, uncached) -> None:
    d = tmp_path / "xla"
    first, _ = _run(tmp_path, PYLAYER_JAX_CACHE_DIR=str(d))
    written = _entries(d)
    assert first["ours"] == first["jax_dir"] == str(d) and first["min_secs"] == 0.0
    # bounded by ``compile_cache.trim``, not by JAX, whose bound reads the whole directory at every write
    assert first["max_size"] == -1
    # every program the run compiled is written, however quick its compile (each step is one program, the same
    # from the first step on, besides any staging of a Python number)
    assert len(written) == first["compiled"] >= 1 and first["hits"] == 0
    second, _ = _run(tmp_path, PYLAYER_JAX_CACHE_DIR=str(d))
    assert second["hits"] == second["compiled"] == len(written)  # each program read back, none compiled again
    assert sorted(_entries(d)) == sorted(written)
    assert _values(first) == _values(second) == _values(uncached)


def test_the_default_directory_is_under_xdg_cache_home(tmp_path) -> None:
    r, _ = _run(tmp_path)
    d = tmp_path / "xdg" / "pylayer_jax" / "xla"
    assert r["ours"] == str(d) and _entries(d)
    assert os.stat(d).st_mode & 0o777 == 0o700


def test_an_empty_variable_turns_the_cache_off(tmp_path, uncached) -> None:
    assert uncached["ours"] is None and uncached["jax_dir"] is None and uncached["hits"] == 0
    assert uncached["min_secs"] == 1.0  # JAX's default, untouched
    r, _ = _run(tmp_path, PYLAYER_JAX_CACHE_DIR="")
    assert r["ours"] is None and not (tmp_path / "xdg").exists()


def test_a_directory_that_cannot_be_made_leaves_the_cache_off(tmp_path, uncached) -> None:
    (tmp_path / "file").write_text("not a directory")
    named, err = _run(tmp_path, PYLAYER_JAX_CACHE_DIR=str(tmp_path / "file" / "xla"))
    assert named["ours"] is None and named["jax_dir"] is None
    assert "PYLAYER_JAX_CACHE_DIR=" in err and "cannot be created or written" in err
    assert _values(named) == _values(uncached)
    default, err = _run(tmp_path, XDG_CACHE_HOME=str(tmp_path / "file"))  # the default place: silently off
    assert default["ours"] is None and "PYLAYER_JAX_CACHE_DIR" not in err
    assert _values(default) == _values(uncached)


def test_a_default_directory_others_may_write_is_not_used(tmp_path) -> None:
    d = tmp_path / "xdg" / "pylayer_jax" / "xla"
    d.mkdir(parents=True)
    d.chmod(0o777)
    r, _ = _run(tmp_path)
    assert r["ours"] is None and r["jax_dir"] is None and not _entries(d)


def test_jaxs_own_setting_wins(tmp_path) -> None:
    mine = tmp_path / "mine"
    r, _ = _run(tmp_path, JAX_COMPILATION_CACHE_DIR=str(mine), PYLAYER_JAX_CACHE_DIR=str(tmp_path / "xla"))
    assert r["ours"] is None and r["jax_dir"] == str(mine) and r["min_secs"] == 1.0
    assert not (tmp_path / "xla").exists()
    r, _ = _run(tmp_path, JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0.5", PYLAYER_JAX_CACHE_DIR=str(tmp_path / "x2"))
    assert r["ours"] == str(tmp_path / "x2") and r["min_secs"] == 0.5


def test_trim_removes_the_least_recently_used_programs_down_to_the_bound(tmp_path) -> None:
    d = tmp_path / "xla"
    d.mkdir()
    for k, used in enumerate([50, 10, 40, 20, 30]):  # five 100-byte programs, used at these times
        (d / f"p{k}-cache").write_bytes(b"x" * 100)
        (d / f"p{k}-atime").write_bytes(b"t")
        os.utime(d / f"p{k}-cache", (1_000_000 + used, 1_000_000 + used))
    assert compile_cache._due(str(d))  # never trimmed
    assert compile_cache.trim(str(d), max_bytes=250) == 3  # 500 bytes down to 200: the three used longest ago go
    assert sorted(_entries(d)) == ["p0-cache", "p2-cache"]
    assert sorted(n for n in os.listdir(d) if n.endswith("-atime")) == ["p0-atime", "p2-atime"]
    assert not compile_cache._due(str(d))  # the stamp says it was just trimmed
    assert compile_cache.trim(str(d), max_bytes=250) == 0  # within the bound: nothing goes
    assert compile_cache.trim(str(tmp_path / "missing")) == 0
