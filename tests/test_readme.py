"""The README's Python examples run as written (each block in a fresh interpreter, in a temporary folder)."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
SRC = str(pathlib.Path(__file__).resolve().parents[1] / "src")
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_readme_example_runs(i: int, tmp_path: pathlib.Path) -> None:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", BLOCKS[i]], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, f"README example {i} failed:\n{BLOCKS[i]}\n{out.stderr[-3000:]}"


def test_tour_prints_usage_with_help() -> None:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-m", "pylayer_jax", "--help"], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and out.stdout.startswith("usage: python -m pylayer_jax")
    assert "static program" in out.stdout and "=== eager" not in out.stdout  # usage only, no tour
