"""The eager step rows of ``bench.py`` with the default settings against the same code with deferral off
(``PYLAYER_JAX_LAZY=0``: every call dispatched at once), or against another environment setting.

``PYLAYER_JAX_LAZY`` is read when the package is imported, so each side runs in its own interpreter: two worker
processes (this file with ``--worker``) build the same rows and time batches of steps when asked, in turn (A, B,
A, B ...), so that both see the same machine state. Each batch is timed by the worker's thread CPU time
(``time.thread_time``: time other processes take on the cores is not counted) and by wall time; printed are
the per-side minima over the rounds and the median of the per-round CPU ratios (B / A).

The rows: the 64x8 MLP step (forward, backward, clear_grad), an ``nn.Layer`` model's training step (AdamW with a cosine
schedule and clipping), the GRL PyLayer step with a float ``alpha`` and
with ``alpha`` changing every step, a step whose temperature, leaky_relu slope and hardtanh bound change every
step, the [2, 3] PyLayer step (``cus_tanh``), an epoch of ten 64-row batches and a
last batch of 17 (SGD), and a loop whose batch size never repeats (1..60, SGD: each worker runs it once, at its
start, so this row has one round per pair of workers; ``--shape-pairs`` sets how many; with deferral off it
takes about a second a step, each op compiling its kernels for each new shape). ``--big`` adds the 1024x1024 MLP
step and the [1000, 1000] PyLayer step (XLA-bound: for settings that change the compiled code). Both workers run
with the compilation cache off (``PYLAYER_JAX_CACHE_DIR=``), so that every compile is timed.

``--paddle-python PATH`` makes side B real Paddle instead (the same rows, ``import paddle``, in that interpreter):
the two libraries timed in turn on the same machine state, where ``bench.py``'s Paddle column is timed after ours.
``--pairs N`` times the step rows in N fresh pairs of workers and adds a table of each pair's result: a process's
own speed (where its memory landed, the interpreter's hash seed) moves a small step by 20-30% on this machine, for
either library, more than most changes being measured.

    python benchmarks/lazy_off.py [--rounds 15] [--batch 100] [--only grl] [--against PYLAYER_JAX_LAZY=0]
    python benchmarks/lazy_off.py --paddle-python /path/to/python --only GRL
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")

NEW_SHAPES = "new batch size every step (1..60), per step"


def rows(paddle: Any, big: bool = False) -> dict[str, tuple[Callable[[], Any], int]]:
    """row -> (step function, steps it makes per call)."""
    import numpy as np
    from _workloads import (
        LAYER_STEP,
        SCHEDULE,
        batch_loop,
        cus_tanh_layer,
        grl_step,
        layer_step,
        mlp_step,
        pylayer_step,
        schedule_step,
    )

    pylayer = paddle.autograd.PyLayer
    rng = np.random.default_rng(0)
    out: dict[str, tuple[Callable[[], Any], int]] = {}
    params = [paddle.to_tensor(rng.random(s, np.float32) * 0.1, stop_gradient=False)
              for s in [(8, 8), (8,), (8, 8), (8,)]]
    out["mlp step 64x8"] = (mlp_step(paddle, paddle.to_tensor(rng.random((64, 8), np.float32)), params), 1)
    x = paddle.to_tensor(rng.standard_normal((64, 8)).astype("float32"))
    w = paddle.to_tensor(rng.standard_normal((8, 8)).astype("float32") * 0.1, stop_gradient=False)
    out["GRL PyLayer step (float alpha, x ** 2) 64x8"] = (grl_step(paddle, pylayer, x, w, 0.5), 1)
    w2 = paddle.to_tensor(rng.standard_normal((8, 8)).astype("float32") * 0.1, stop_gradient=False)
    out["GRL PyLayer step, alpha changing every step, 64x8"] = (
        grl_step(paddle, pylayer, x, w2, lambda i: 0.5 + 1e-6 * i), 1)
    w3 = paddle.to_tensor(rng.standard_normal((8, 8)).astype("float32") * 0.1, stop_gradient=False)
    out[SCHEDULE] = (schedule_step(paddle, x, w3), 1)

    cus_tanh = cus_tanh_layer(paddle, pylayer)

    xp = paddle.to_tensor(rng.random((2, 3), np.float32), stop_gradient=False)
    out["pylayer step [2, 3]"] = (pylayer_step(cus_tanh, xp), 1)
    out["epoch 10x64 + last batch 17, MLP 64x8"] = (batch_loop(paddle, [64] * 10 + [17]), 11)
    out[LAYER_STEP] = (layer_step(paddle), 1)
    if big:  # XLA-bound rows (to compare settings that change the compiled code)
        params = [paddle.to_tensor(rng.random(s, np.float32) * 0.1, stop_gradient=False)
                  for s in [(1024, 1024), (1024,), (1024, 1024), (1024,)]]
        out["mlp step 1024x1024"] = (mlp_step(paddle, paddle.to_tensor(rng.random((1024, 1024), np.float32)), params), 1)
        xb = paddle.to_tensor(rng.random((1000, 1000), np.float32), stop_gradient=False)
        out["pylayer step [1000, 1000]"] = (pylayer_step(cus_tanh, xb), 1)
    return out


def worker(big: bool, lib: str) -> None:
    """Answers ``row<TAB>n`` lines with the thread CPU and wall µs per step of ``n`` calls of that row, ``lib`` (the
    package, or ``paddle``) running them."""
    sys.path.insert(0, HERE)
    import importlib
    import warnings

    warnings.filterwarnings("ignore")
    paddle = importlib.import_module(lib)  # (first, as a script imports it)
    from _workloads import batch_loop

    # the modules the loop uses, loaded before the clock starts: ``import paddle`` loads them all, this package loads
    # ``optimizer`` (and optax) on first use, which is no cost of a step
    paddle.optimizer.SGD, paddle.nn.Linear  # noqa: B018
    t0, w0 = time.process_time(), time.perf_counter()  # the loop whose batch size never repeats, first
    batch_loop(paddle, list(range(1, 61)))()
    first = {"cpu": (time.process_time() - t0) / 60 * 1e6, "wall": (time.perf_counter() - w0) / 60 * 1e6}
    table = rows(paddle, big)
    print(json.dumps({"ready": list(table), NEW_SHAPES: first}), flush=True)
    for line in sys.stdin:
        name, n = line.rstrip("\n").split("\t")
        fn, per = table[name]
        if n == "warm":
            for _ in range(30):
                fn()
            print("{}", flush=True)
            continue
        t0, w0 = time.thread_time(), time.perf_counter()
        for _ in range(int(n)):
            out = fn()
        if hasattr(out, "_value"):
            out._value.block_until_ready()
        steps = int(n) * per
        print(json.dumps({"cpu": (time.thread_time() - t0) / steps * 1e6,
                          "wall": (time.perf_counter() - w0) / steps * 1e6}), flush=True)


def start(env: dict[str, str], big: bool, python: str = sys.executable, lib: str = "pylayer_jax",
          ) -> tuple[subprocess.Popen, dict]:
    p = subprocess.Popen([python, os.path.abspath(__file__), "--worker", "--lib", lib] + ["--big"] * big, env=env,
                         text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    return p, json.loads(p.stdout.readline())


def ask(p: subprocess.Popen, name: str, n: int | str) -> dict:
    p.stdin.write(f"{name}\t{n}\n")
    p.stdin.flush()
    line = p.stdout.readline()
    if not line:
        raise RuntimeError(f"the worker stopped at {name!r}")
    return json.loads(line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--batch", type=int, default=100, help="calls of a row per timed batch")
    ap.add_argument("--only", default="", help="only the rows whose name contains this")
    ap.add_argument("--against", default="PYLAYER_JAX_LAZY=0", metavar="VAR=VALUE",
                    help="the setting of side B (side A: the environment as it is, without PYLAYER_JAX_LAZY)")
    ap.add_argument("--big", action="store_true", help="add the 1024x1024 MLP step and the [1000, 1000] PyLayer step")
    ap.add_argument("--shape-pairs", type=int, default=1, help="worker pairs started (rounds of the new-shape row)")
    ap.add_argument("--pairs", type=int, default=1,
                    help="worker pairs that time the step rows (a fresh pair of processes each: the spread between "
                         "processes shows)")
    ap.add_argument("--paddle-python", default="", help="side B: real Paddle in this interpreter (not --against)")
    ap.add_argument("--lib", default="pylayer_jax", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a.big, a.lib)
        return
    if a.paddle_python:
        a.against = "Paddle (" + a.paddle_python + ")"
    var, _, value = a.against.partition("=") if not a.paddle_python else ("", "", "")
    env_a = {k: v for k, v in os.environ.items() if k != "PYLAYER_JAX_LAZY"}
    env_a["PYTHONPATH"] = SRC + os.pathsep + env_a.get("PYTHONPATH", "")
    env_a["PYLAYER_JAX_CACHE_DIR"] = ""  # (no compilation cache: the new-shape row would read what earlier runs wrote)
    env_b = {**env_a, var: value} if var else dict(env_a)
    side_b = (a.paddle_python, "paddle") if a.paddle_python else (sys.executable, "pylayer_jax")
    res: dict[str, tuple[list[dict], list[dict]]] = {}
    per_pair: dict[str, list[tuple[float, float]]] = {}  # row -> (A cpu, B cpu) of each pair: its fastest rounds
    for pair in range(max(a.shape_pairs, a.pairs, 1)):
        pa, ra = start(env_a, a.big)
        pb, rb = start(env_b, a.big, *side_b)
        for side, r in ((0, ra), (1, rb)):
            res.setdefault(NEW_SHAPES, ([], []))[side].append(r[NEW_SHAPES])
        try:
            if pair < a.pairs:  # the step rows: each pair of workers times them, batches in turn
                for name in ra["ready"]:
                    if a.only and a.only not in name:
                        continue
                    ask(pa, name, "warm")
                    ask(pb, name, "warm")
                    sa, sb = res.setdefault(name, ([], []))
                    pa_rounds, pb_rounds = [], []
                    for _ in range(a.rounds):
                        pa_rounds.append(ask(pa, name, a.batch))
                        pb_rounds.append(ask(pb, name, a.batch))
                    sa += pa_rounds
                    sb += pb_rounds
                    per_pair.setdefault(name, []).append((min(r["cpu"] for r in pa_rounds),
                                                          min(r["cpu"] for r in pb_rounds)))
        finally:
            for p in (pa, pb):
                p.stdin.close()
                p.wait()
    print(f"A: default settings; B: {a.against}. µs per step: thread CPU (minimum over rounds), wall (minimum); "
          f"{a.rounds} rounds of {a.batch} calls; the new-shape row: process CPU, one run per worker, "
          f"{len(res[NEW_SHAPES][0])} workers a side")
    print("| row | A cpu | B cpu | B/A cpu (min) | B/A cpu (median of rounds) | A wall | B wall | B/A wall |")
    print("|---|---|---|---|---|---|---|---|")
    for name, (sa, sb) in res.items():
        if a.only and a.only not in name:
            continue
        ca, cb = min(r["cpu"] for r in sa), min(r["cpu"] for r in sb)
        wa, wb = min(r["wall"] for r in sa), min(r["wall"] for r in sb)
        med = statistics.median(y["cpu"] / x["cpu"] for x, y in zip(sa, sb))
        print(f"| {name} | {ca:.1f} | {cb:.1f} | {cb / ca:.2f}x | {med:.2f}x | {wa:.1f} | {wb:.1f} | {wb / wa:.2f}x |")
    if a.pairs > 1:
        print(f"\nPer pair of worker processes ({a.pairs} pairs, each its fastest round, thread CPU µs per step): "
              "how far a process's own speed moves the rows")
        print("| row | A, per pair | B, per pair | B/A per pair | B/A median of pairs |")
        print("|---|---|---|---|---|")
        for name, pairs in per_pair.items():
            ratios = [b / x for x, b in pairs]
            print(f"| {name} | {', '.join(f'{x:.1f}' for x, _ in pairs)} | {', '.join(f'{b:.1f}' for _, b in pairs)} | "
                  f"{', '.join(f'{r:.2f}x' for r in ratios)} | {statistics.median(ratios):.2f}x |")


if __name__ == "__main__":
    main()
