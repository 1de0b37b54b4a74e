"""The new-batch-size rows of ``benchmarks/new_shapes.py`` (the 64x8 MLP SGD step, padded to a bucket) timed
against another commit of the package in one process, interleaved (the base exported as in ``ab_steps.py``).

Rows: the never-repeating loop (batch ``step % 500 + 1``, run on in chunks of ``--chunk`` steps, so each side meets
the same sizes in the same round), and bench.py's ``new batch size every step`` row (a new model on batch sizes
1..60). Each round times a chunk of the base, then of the working tree, by thread CPU time (``time.thread_time``:
time others take on the cores is not counted) and wall time; reported are the means per step over all rounds and
the median of the per-round ratios.

    python benchmarks/ab_new_shapes.py [--base REV] [--rounds 10] [--chunk 100]
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
from _workloads import batch_loop  # noqa: E402
from ab_steps import export  # noqa: E402


def loop_chunks(paddle: Any, chunk: int) -> Callable[[], Any]:
    """A callable running the next ``chunk`` steps of the never-repeating loop."""
    net1, net2 = paddle.nn.Linear(64, 8), paddle.nn.Linear(8, 1)
    opt = paddle.optimizer.SGD(0.01, parameters=net1.parameters() + net2.parameters())
    rng = np.random.default_rng(1)
    data = {b: rng.standard_normal((b, 64)).astype("float32") for b in range(1, 501)}
    at = [0]

    def run() -> float:
        loss = None
        for _ in range(chunk):
            loss = (net2(paddle.tanh(net1(paddle.to_tensor(data[at[0] % 500 + 1])))) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            at[0] += 1
        return float(loss)

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD", help="the commit to compare the working tree with")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--chunk", type=int, default=100)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        export(args.base, tmp)
        sys.path.insert(0, tmp)
        sides = [importlib.import_module("pylayer_jax_base"), importlib.import_module("pylayer_jax")]
        rows: dict[str, tuple[list[Callable[[], Any]], int]] = {
            "batch step % 500 + 1": ([loop_chunks(p, args.chunk) for p in sides], args.chunk),
            "new model, batch 1..60": ([(lambda p=p: batch_loop(p, list(range(1, 61)))()) for p in sides], 60),
        }
        for p in sides:  # the family's first programs (and the buckets of 64, 256 and 1024 rows)
            batch_loop(p, [3, 4, 5, 30, 200, 600])()
        print(f"{'row':24s} {'base cpu':>8s} {'new cpu':>8s} {'ratio':>6s}   {'base wall':>9s} {'new wall':>8s}"
              f"   (ms per step, mean over {args.rounds} rounds; ratio: the median per round; base {args.base})")
        for name, (fns, steps) in rows.items():
            res: list[list[tuple[float, float]]] = [[], []]
            for _ in range(args.rounds):
                for k, f in enumerate(fns):
                    c, w = time.thread_time(), time.perf_counter()
                    f()
                    res[k].append(((time.thread_time() - c) * 1e3 / steps, (time.perf_counter() - w) * 1e3 / steps))
            (ca, wa), (cb, wb) = ([statistics.mean(v) for v in zip(*r)] for r in res)
            med = statistics.median(b[0] / a[0] for a, b in zip(*res))
            print(f"{name:24s} {ca:8.3f} {cb:8.3f} {med:6.3f}   {wa:9.3f} {wb:8.3f}", flush=True)


if __name__ == "__main__":
    main()
