"""Python work per eager step of ``ab_steps.py``'s rows, counted: the bytecode instructions and line events each step
runs (``sys.settrace`` with opcode events), in total and per function.

Counts do not depend on what else the machine runs, so they tell a change's effect on the Python side of a step where
timings on a shared machine cannot (the jitted program's run is not counted). ``--base REV`` counts another commit
of the package beside the working tree, as ``ab_steps.py`` exports it.

    python benchmarks/step_lines.py [--base REV] [--only mlp] [--top 20]
"""

from __future__ import annotations

import argparse
import collections
import importlib
import os
import sys
import tempfile
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))

from ab_steps import export, workloads  # noqa: E402


def count(fn: Callable[[], Any], steps: int = 10) -> tuple[float, float, collections.Counter]:
    """(instructions, line events, instructions per (file, function)) per step of ``fn``, warmed up first."""
    ops: collections.Counter = collections.Counter()
    lines = [0]

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "opcode":
            code = frame.f_code
            ops[(os.path.basename(code.co_filename), code.co_name)] += 1
        elif event == "line":
            lines[0] += 1
        return local

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if event == "call":
            frame.f_trace_opcodes = True
            return local
        return None

    for _ in range(30):  # compiles, the note, the step's program
        fn()
    sys.settrace(tracer)
    try:
        for _ in range(steps):
            fn()
    finally:
        sys.settrace(None)
    return sum(ops.values()) / steps, lines[0] / steps, ops


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="", help="a commit to count beside the working tree")
    ap.add_argument("--only", default="", help="count only the rows whose name contains this")
    ap.add_argument("--top", type=int, default=0, help="list the functions running the most instructions")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sides = [("new", importlib.import_module("pylayer_jax"))]
        if args.base:
            export(args.base, tmp)
            sys.path.insert(0, tmp)
            sides.insert(0, ("base", importlib.import_module("pylayer_jax_base")))
        rows = {side: workloads(pkg) for side, pkg in sides}
        print(f"{'row':46s} " + " ".join(f"{side + ' ops':>9s} {side + ' lines':>9s}" for side, _ in sides))
        for name in rows["new"]:
            if args.only not in name:
                continue
            got = {side: count(rows[side][name]) for side, _ in sides}
            print(f"{name:46s} " + " ".join(f"{got[side][0]:9.0f} {got[side][1]:9.0f}" for side, _ in sides))
            for (f, fn), n in got["new"][2].most_common(args.top):
                print(f"    {n / 10:8.1f}  {f}:{fn}")


if __name__ == "__main__":
    main()
