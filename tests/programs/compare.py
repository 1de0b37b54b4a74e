"""Run the programs of this folder with real Paddle and with pylayer_jax and compare what they record.

``python tests/programs/compare.py [pNN_name ...]`` (all programs when none is named): each program runs twice,
unchanged (``_runner.py``: ``/tmp/paddle/bin/python`` or ``PADDLE_PYTHON`` for Paddle, this interpreter with
``src`` first on the path for pylayer_jax), and every recorded value is compared: numbers to ``rtol=1e-4``
(float32 over a few dozen steps), everything else exactly. A program that fails in either library is reported with
the end of its output. Not a test (the programs together take minutes); the differences they found are the focused
cases of ``tests/program_diff_cases.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(os.path.dirname(HERE)), "src")
PADDLE = os.environ.get("PADDLE_PYTHON", "/tmp/paddle/bin/python")


def _diff(a: Any, b: Any, path: str, out: list[str]) -> None:
    if isinstance(a, dict):
        if not isinstance(b, dict) or sorted(a) != sorted(b):
            out.append(f"keys {path}: {sorted(a)} != {sorted(b) if isinstance(b, dict) else b!r}")
            return
        for k in a:
            _diff(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list):
        if not isinstance(b, list) or len(a) != len(b):
            out.append(f"length {path}: {len(a)} != {len(b) if isinstance(b, list) else b!r}")
            return
        try:
            x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        except (TypeError, ValueError):
            for i, (p, q) in enumerate(zip(a, b)):
                _diff(p, q, f"{path}[{i}]", out)
            return
        if x.shape != y.shape or not np.allclose(x, y, rtol=1e-4, atol=1e-5, equal_nan=True):
            out.append(f"values {path}: max |diff| {np.nanmax(np.abs(x - y)) if x.shape == y.shape else 'shape'}")
    elif isinstance(a, float) or isinstance(b, float):
        if not np.isclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True):
            out.append(f"value {path}: {a!r} != {b!r}")
    elif a != b:
        out.append(f"value {path}: {a!r} != {b!r}")


def run(name: str, tmp: str) -> list[str]:
    script = os.path.join(HERE, name if name.endswith(".py") else name + ".py")
    results = {}
    for lib, exe, env in (("paddle", PADDLE, {}), ("jax", sys.executable, {"PYTHONPATH": SRC})):
        out = os.path.join(tmp, f"{lib}.json")
        proc = subprocess.run([exe, os.path.join(HERE, "_runner.py"), lib, script, out], capture_output=True, text=True,
                              env={**os.environ, **env}, timeout=600)
        if proc.returncode != 0 or not os.path.exists(out):
            return [f"{lib} failed: {(proc.stdout + proc.stderr)[-1500:]}"]
        with open(out) as f:
            results[lib] = json.load(f)
    found: list[str] = []
    _diff(results["paddle"], results["jax"], "", found)
    return found


def main(names: list[str]) -> int:
    names = names or sorted(f[:-3] for f in os.listdir(HERE) if f.startswith("p") and f[1:3].isdigit())
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            found = run(name, tmp)
            bad += bool(found)
            print(f"{name}: {'same' if not found else 'DIFFERENT'}")
            for line in found:
                print("   ", line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
