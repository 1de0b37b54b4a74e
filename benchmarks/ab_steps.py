"""The eager step rows of ``bench.py`` (a GRL PyLayer step with a float ``alpha``, with ``alpha`` changing every
step, the [2, 3] PyLayer step, the 64x8 MLP step) and a minimal replayed step (a matmul, a mean, backward,
clear_grad: the fixed cost of a step) and the GRL step written with plain ops (what its PyLayer adds), timed against another commit of the package in one process,
interleaved.

The other commit is exported with ``git archive`` into a temporary folder as the package ``pylayer_jax_base`` (the
package imports itself relatively), so both run side by side on the same machine state: on a shared machine
only such an A/B says anything. Each round times a batch of the base, then of the working tree, by thread CPU
time (``time.thread_time_ns``: time others take on the cores is not counted) and wall time; reported are the
per-side minima and the median of the per-round ratios.

    python benchmarks/ab_steps.py [--base REV] [--rounds 21] [--batch 200] [--only grl] [--warm 30]
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "src"))

import numpy as np  # noqa: E402
from _workloads import (  # noqa: E402
    LAYER_STEP,
    SCHEDULE,
    cus_tanh_layer,
    grl_step,
    layer_step,
    mlp_step,
    pylayer_step,
    schedule_step,
)


def export(rev: str, where: str) -> None:
    """The package at ``rev`` as ``pylayer_jax_base`` under ``where``."""
    tar = subprocess.run(["git", "-C", ROOT, "archive", rev, "src/pylayer_jax"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", where], input=tar, check=True)
    os.rename(os.path.join(where, "src", "pylayer_jax"), os.path.join(where, "pylayer_jax_base"))
    for dirpath, _, files in os.walk(os.path.join(where, "pylayer_jax_base")):
        for f in files:
            if f.endswith(".py"):
                p = os.path.join(dirpath, f)
                with open(p) as fh:
                    text = fh.read()
                if '"pylayer_jax._' in text:  # the one absolute self-import (a dtype table)
                    with open(p, "w") as fh:
                        fh.write(text.replace('"pylayer_jax._', '"pylayer_jax_base._'))


def workloads(paddle: Any) -> dict[str, Callable[[], Any]]:
    pylayer = importlib.import_module(paddle.__name__ + ".autograd").PyLayer
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((64, 8)).astype("float32"))
    out = {}
    w = paddle.to_tensor(rng.standard_normal((8, 8)).astype("float32") * 0.1, stop_gradient=False)
    out["GRL PyLayer step (float alpha, x ** 2) 64x8"] = grl_step(paddle, pylayer, x, w, 0.5)
    w2 = paddle.to_tensor(rng.standard_normal((8, 8)).astype("float32") * 0.1, stop_gradient=False)
    out["GRL PyLayer step, alpha changing every step"] = grl_step(paddle, pylayer, x, w2, lambda i: 0.5 + 1e-6 * i)

    cus_tanh = cus_tanh_layer(paddle, pylayer)

    xp = paddle.to_tensor(rng.random((2, 3), np.float32), stop_gradient=False)
    out["pylayer step [2, 3]"] = pylayer_step(cus_tanh, xp)
    params = [paddle.to_tensor(rng.random(s, np.float32) * 0.1, stop_gradient=False)
              for s in [(8, 8), (8,), (8, 8), (8,)]]
    out["mlp step 64x8"] = mlp_step(paddle, paddle.to_tensor(rng.random((64, 8), np.float32)), params)
    wm = paddle.to_tensor(rng.standard_normal((8, 8)).astype("float32") * 0.1, stop_gradient=False)

    def minimal() -> Any:
        loss = paddle.matmul(x, wm).mean()
        loss.backward()
        wm.clear_grad()
        return loss

    out["minimal step (matmul, mean) 64x8"] = minimal
    wp = paddle.to_tensor(rng.standard_normal((8, 8)).astype("float32") * 0.1, stop_gradient=False)

    def plain_grl() -> Any:  # the GRL step without its PyLayer: what the PyLayer adds is the difference
        loss = ((paddle.matmul(x, wp) * 1.0) ** 2).mean()
        loss.backward()
        wp.clear_grad()
        return loss

    out["GRL step written with plain ops 64x8"] = plain_grl
    w3 = paddle.to_tensor(rng.standard_normal((8, 8)).astype("float32") * 0.1, stop_gradient=False)
    out[SCHEDULE] = schedule_step(paddle, x, w3)
    out[LAYER_STEP] = layer_step(paddle)
    return out


def batch(fn: Callable[[], Any], n: int) -> tuple[float, float]:
    t0, w0 = time.thread_time_ns(), time.perf_counter_ns()
    for _ in range(n):
        out = fn()
    out._value.block_until_ready()
    return (time.thread_time_ns() - t0) / n / 1e3, (time.perf_counter_ns() - w0) / n / 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD", help="the commit to compare the working tree with")
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument("--only", default="", help="run only the rows whose name contains this")
    ap.add_argument("--warm", type=int, default=30, help="untimed steps of each side before the rounds")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        export(args.base, tmp)
        sys.path.insert(0, tmp)
        base = workloads(importlib.import_module("pylayer_jax_base"))
        new = workloads(importlib.import_module("pylayer_jax"))
        print(f"{'row':46s} {'base cpu':>8s} {'new cpu':>8s} {'ratio':>6s} {'(med)':>6s}   "
              f"{'base wall':>9s} {'new wall':>8s} {'ratio':>6s}   (µs per step, base {args.base})")
        for name in base:
            if args.only not in name:
                continue
            fa, fb = base[name], new[name]
            for _ in range(args.warm):  # warm: compiles, the note, the step's program
                fa()
                fb()
            ca, cb, wa, wb = [], [], [], []
            for _ in range(args.rounds):
                c, w = batch(fa, args.batch)
                ca.append(c)
                wa.append(w)
                c, w = batch(fb, args.batch)
                cb.append(c)
                wb.append(w)
            med = statistics.median(b / a for a, b in zip(ca, cb))
            print(f"{name:46s} {min(ca):8.1f} {min(cb):8.1f} {min(cb) / min(ca):6.3f} {med:6.3f}   "
                  f"{min(wa):9.1f} {min(wb):8.1f} {min(wb) / min(wa):6.3f}", flush=True)


if __name__ == "__main__":
    main()
