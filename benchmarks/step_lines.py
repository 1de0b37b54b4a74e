"""Python lines run per replayed eager step, per function: a count that does not depend on the machine's load.

Runs a step (the GRL PyLayer step of ``bench.py``, the same step written with plain ops, or the [2, 3] PyLayer
step) until it replays, then counts ``sys.settrace`` line events over a few steps; prints the total per step
and the functions that ran the most lines. ``--base REV`` counts the same for another commit (exported as in
``ab_steps.py``) and prints both, with the difference per function.

    python benchmarks/step_lines.py [--step grl|grl_alpha|plain|pylayer] [--base REV] [--top 30]
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

import numpy as np  # noqa: E402
from _workloads import grl_step  # noqa: E402
from ab_steps import export  # noqa: E402


def step(paddle: Any, which: str) -> Callable[[], Any]:
    pylayer = importlib.import_module(paddle.__name__ + ".autograd").PyLayer
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((64, 8)).astype("float32"))
    w = paddle.to_tensor(rng.standard_normal((8, 8)).astype("float32") * 0.1, stop_gradient=False)
    if which == "grl":
        return grl_step(paddle, pylayer, x, w, 0.5)
    if which == "grl_alpha":
        return grl_step(paddle, pylayer, x, w, lambda i: 0.5 + 1e-6 * i)
    if which == "plain":  # the GRL step without the PyLayer: ``h * 1.0`` and its gradient as plain ops

        def plain() -> Any:
            loss = ((paddle.matmul(x, w) * 1.0) ** 2).mean()
            loss.backward()
            w.clear_grad()
            return loss

        return plain

    class CusTanh(pylayer):
        @staticmethod
        def forward(ctx, v):  # noqa: ANN001, ANN205
            y = paddle.tanh(v)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):  # noqa: ANN001, ANN205
            (y,) = ctx.saved_tensor()
            return dy * (1 - paddle.square(y))

    xp = paddle.to_tensor(rng.random((2, 3), np.float32), stop_gradient=False)

    def pstep() -> Any:
        CusTanh.apply(xp).mean().backward()
        return xp.grad

    return pstep


def count(fn: Callable[[], Any], n: int = 4) -> collections.Counter:
    """Line events per (file, function), per step, over ``n`` steps after 40 to warm (compiles, the note)."""
    for _ in range(40):
        fn()
    counts: collections.Counter = collections.Counter()

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            c = frame.f_code
            counts[(os.path.basename(c.co_filename), c.co_name)] += 1
        return local

    sys.settrace(lambda frame, event, arg: local if event == "call" else None)
    try:
        for _ in range(n):
            fn()
    finally:
        sys.settrace(None)
    return collections.Counter({k: v / n for k, v in counts.items()})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--step", default="grl", choices=["grl", "grl_alpha", "plain", "pylayer"])
    ap.add_argument("--base", default="", help="another commit to count beside the working tree")
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    new = count(step(importlib.import_module("pylayer_jax"), args.step))
    if not args.base:
        print(f"{args.step}: {sum(new.values()):.1f} lines per step")
        for (f, name), c in new.most_common(args.top):
            print(f"  {c:7.1f}  {f:20s} {name}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        export(args.base, tmp)
        sys.path.insert(0, tmp)
        base = count(step(importlib.import_module("pylayer_jax_base"), args.step))
    print(f"{args.step}: {sum(base.values()):.1f} lines per step at {args.base}, {sum(new.values()):.1f} now")
    rows = sorted(set(base) | set(new), key=lambda k: -abs(new[k] - base[k]))
    for f, name in rows[: args.top]:
        print(f"  {base[(f, name)]:7.1f} {new[(f, name)]:7.1f} {new[(f, name)] - base[(f, name)]:+7.1f}  {f:20s} {name}")


if __name__ == "__main__":
    main()
