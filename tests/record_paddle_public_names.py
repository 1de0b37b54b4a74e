"""Record the public names of Paddle 3.3.1's modules into tests/data/paddle_public_names.json.

Run with the Paddle oracle: ``/tmp/paddle/bin/python tests/record_paddle_public_names.py``. For each module (its path
under ``paddle``; "" is ``paddle`` itself) the names of its ``__all__`` (the names not starting with ``_`` where it
has none), or null where Paddle has no such module. ``tests/test_coverage_counts.py`` counts how many of them
``pylayer_jax`` has at the same path.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

MODULES = [
    "", "nn", "nn.functional", "nn.initializer", "nn.utils", "optimizer", "optimizer.lr", "io", "metric", "vision",
    "vision.ops", "vision.transforms", "vision.models", "vision.datasets", "geometric", "incubate", "incubate.nn",
    "incubate.nn.functional", "incubate.autograd", "incubate.optimizer", "distribution", "linalg", "fft", "signal",
    "static", "static.nn", "jit", "amp", "autograd", "audio", "audio.functional", "audio.features", "audio.datasets",
    "text", "text.datasets", "utils", "device", "device.cuda", "framework", "hapi", "callbacks", "profiler",
    "inference", "sparse", "sparse.nn", "sparse.nn.functional", "quantization", "distributed", "distributed.fleet",
    "special", "random", "regularizer", "tensor", "hub", "sysconfig", "onnx", "compat", "decomposition", "cost_model",
    "reader", "version",
]


def main() -> None:
    out: dict[str, list[str] | None] = {}
    for m in MODULES:
        try:
            mod = importlib.import_module("paddle" + ("." + m if m else ""))
        except ImportError:
            out[m] = None
            continue
        names = getattr(mod, "__all__", None)
        if names is None:
            names = [n for n in dir(mod) if not n.startswith("_")]
        out[m] = sorted(set(names))
    path = Path(__file__).resolve().parent / "data" / "paddle_public_names.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"{sum(len(v) for v in out.values() if v)} names in {len(out)} modules -> {path}")


if __name__ == "__main__":
    main()
