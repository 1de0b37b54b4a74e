"""End-to-end time of a 100-step training script, import included, in a fresh interpreter.

    python benchmarks/e2e.py [--lib pylayer_jax|paddle] [--python PATH] [--steps N] [--new-shapes]

Prints the wall time of the whole subprocess (interpreter start, import, model build, steps,
a final loss read). ``--new-shapes``: the batch size changes every step (1, 2, ..., N).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

SCRIPT = """
import sys
sys.path.insert(0, {here!r})
import {lib} as paddle
from _workloads import batch_loop
sizes = list(range(1, {steps} + 1)) if {new_shapes} else [32] * {steps}
print(batch_loop(paddle, sizes)())
"""


def e2e_seconds(lib: str = "pylayer_jax", python: str = sys.executable, steps: int = 100, new_shapes: bool = False,
                env: dict[str, str] | None = None) -> float:
    """Wall seconds of one fresh interpreter running ``steps`` SGD steps of a 64x8 MLP with ``lib``."""
    code = SCRIPT.format(here=HERE, lib=lib, steps=steps, new_shapes=new_shapes)
    t0 = time.perf_counter()
    subprocess.run([python, "-c", code], check=True, env={**os.environ, **(env or {})}, capture_output=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", default="pylayer_jax")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--new-shapes", action="store_true")
    a = ap.parse_args()
    print(f"{a.lib}: {e2e_seconds(a.lib, a.python, a.steps, a.new_shapes):.2f} s for {a.steps} steps, import included")


if __name__ == "__main__":
    main()
