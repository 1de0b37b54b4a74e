"""What a new input shape costs: time per step and memory over a loop whose batch size never repeats.

    python benchmarks/new_shapes.py [--pairs 20] [--loop 1000] [--shapes 2000] [--every 100] [--rows 100]

1. Time: the 64x8 MLP SGD step of bench.py's ``new batch size`` row (``_workloads.batch_loop``) on a new batch
   size every step (padded to a bucket size: ``_autograd.row_buckets``), the same with bucketing off
   (``PYLAYER_JAX_BUCKETS=0``: one program compiled per new size), ``jax.jit(jax.grad(loss))`` of the same loss
   and ``jax.jit`` of the whole SGD step on a new batch size every call (one XLA compile each: the floor for a
   new shape without padding), interleaved in one process; the median per step by wall time and by process CPU
   time (compiles use other threads too).
2. The never-repeating loop: ``--loop`` steps with batch ``step % 500 + 1`` (sizes 1 to 500, each new until
   step 500), ms per step (mean and median, wall and process CPU) and the programs compiled, bucketing on; then
   ``--loop-off`` steps of the same loop with it off.
3. Memory: the resident set size (RSS) while the loop runs ``--shapes`` new batch sizes, every ``--every``;
   the caches fill during the first few hundred shapes, after which memory stays flat.
4. ``--rows``: bench.py's two rows alone, in its order: an epoch of 10 batches of 64 and a last batch of 17 (the
   median over ``--rows`` epochs, wall and process CPU, and the same epoch without its last batch: what the last
   batch adds), then a new model on a new batch size every step, 1..60 (ms per step over the loop).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from _workloads import batch_loop  # noqa: E402

import pylayer_jax as paddle  # noqa: E402
from pylayer_jax._autograd import row_buckets  # noqa: E402
from pylayer_jax._exec import deferred  # noqa: E402
from pylayer_jax._runtime import kernel_cache  # noqa: E402


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _jax_steps() -> tuple:
    """``jax.jit(jax.grad(loss))`` and ``jax.jit`` of the whole SGD step (value_and_grad and the update)."""
    rng = np.random.default_rng(0)
    ps = [jnp.asarray(rng.standard_normal(s).astype("float32")) for s in [(64, 8), (8,), (8, 1), (1,)]]

    def loss(ps, x):  # noqa: ANN001, ANN202
        w1, b1, w2, b2 = ps
        return jnp.mean((jnp.tanh(x @ w1 + b1) @ w2 + b2) ** 2)

    @jax.jit
    def sgd_step(ps, x):  # noqa: ANN001, ANN202
        value, g = jax.value_and_grad(loss)(ps, x)
        return [p - 0.01 * d for p, d in zip(ps, g)], value

    return jax.jit(jax.grad(loss)), sgd_step, ps, rng


def _our_steps() -> Callable[[np.ndarray], float]:
    """One step of ``_workloads.batch_loop``'s training loop (the same model and SGD) per call, on a given batch."""
    net1, net2 = paddle.nn.Linear(64, 8), paddle.nn.Linear(8, 1)
    opt = paddle.optimizer.SGD(0.01, parameters=net1.parameters() + net2.parameters())

    def step(x: np.ndarray) -> Any:
        loss = (net2(paddle.tanh(net1(paddle.to_tensor(x)))) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step


def times(pairs: int) -> None:
    g, sgd_step, ps, rng = _jax_steps()
    ours = _our_steps()
    for b in (3, 4, 5):  # the step's first sightings (call by call) and the family's first program
        float(ours(rng.standard_normal((b, 64)).astype("float32")))
        x = jax.device_put(rng.standard_normal((b, 64)).astype("float32"))
        jax.block_until_ready((g(ps, x), sgd_step(ps, x)))
    res: dict[str, list[tuple[float, float]]] = {"ours": [], "ours, buckets off": [], "jax.jit(jax.grad)": [],
                                                  "jax.jit(SGD step)": []}
    for i in range(pairs):
        for k, name in enumerate(res):
            b = 1000 + 4 * i + k  # a batch size nobody has seen (one bucket, 1024: its program compiles once)
            x_np = rng.standard_normal((b, 64)).astype("float32")
            w, c = time.perf_counter(), time.process_time()
            if k < 2:
                deferred.BUCKETS = k == 0
                ours(x_np)  # (the step's backward ran its program: nothing is left to wait for)
                deferred.BUCKETS = True
            else:
                x = jax.device_put(x_np)
                jax.block_until_ready(g(ps, x) if k == 2 else sgd_step(ps, x))
            res[name].append((time.perf_counter() - w, time.process_time() - c))
    med = {name: [statistics.median(v) * 1e3 for v in zip(*r)] for name, r in res.items()}
    o_w, o_c = med["ours"]
    print(f"new batch size every step, the median of {pairs} steps each, interleaved (ms per step):")
    for name, (w, c) in med.items():
        print(f"  {name:18s} wall {w:6.1f}, process CPU {c:6.1f}" + (
            "" if name == "ours" else f"   ours/this: wall {o_w / w:.2f}x, process CPU {o_c / c:.2f}x"))


def loop(steps: int, off_steps: int) -> None:
    """The never-repeating loop: batch ``step % 500 + 1``, bucketing on, then ``off_steps`` of it off."""
    for label, n, on in (("on", steps, True), ("off", off_steps, False)):
        if not n:
            continue
        deferred.BUCKETS = on
        ours = _our_steps()
        rng = np.random.default_rng(1)
        data = {b: rng.standard_normal((b, 64)).astype("float32") for b in range(1, min(n, 500) + 1)}
        c0, b0 = deferred.STATS["compiled"], row_buckets.STATS["compiled"]
        per = []
        for step in range(n):
            w, c = time.perf_counter(), time.process_time()
            ours(data[step % 500 + 1])
            per.append((time.perf_counter() - w, time.process_time() - c))
        deferred.BUCKETS = True
        wall, cpu = (np.array(v) * 1e3 for v in zip(*per))
        print(f"batch = step % 500 + 1, {n} steps, buckets {label}: wall mean {wall.mean():.2f} median "
              f"{np.median(wall):.2f} ms/step, process CPU mean {cpu.mean():.2f} median {np.median(cpu):.2f}; "
              f"programs compiled: {deferred.STATS['compiled'] - c0} whole-step, "
              f"{row_buckets.STATS['compiled'] - b0} bucket", flush=True)


def memory(n: int, every: int) -> None:
    batch_loop(paddle, [64] * 5)()
    start = rss_mib()
    print(f"RSS before the loop: {start:.0f} MiB")
    marks = []
    for c in range(0, n, every):
        run = batch_loop(paddle, list(range(100 + c, 100 + c + every)))
        w, p = time.perf_counter(), time.process_time()
        run()
        w, p = time.perf_counter() - w, time.process_time() - p
        marks.append(rss_mib())
        print(f"  {c + every} new shapes: RSS {marks[-1]:.0f} MiB (+{marks[-1] - start:.0f}); these {every} steps "
              f"{w * 1e3 / every:.0f} ms wall, {p * 1e3 / every:.0f} ms process CPU per step", flush=True)
    print(f"{n} new shapes: RSS +{marks[-1] - start:.0f} MiB over the loop, max +{max(marks) - start:.0f} MiB; "
          f"programs compiled {deferred.STATS['compiled']} (and {row_buckets.STATS['compiled']} bucket programs), cached {len(deferred._PROGRAMS)}; kernel cache "
          f"{kernel_cache.STATS}")


def rows(epochs: int) -> None:
    res: dict[str, list[tuple[float, float]]] = {"epoch": [], "without the last batch": []}
    runs = {"epoch": batch_loop(paddle, [64] * 10 + [17]), "without the last batch": batch_loop(paddle, [64] * 10)}
    for _ in range(5):
        for f in runs.values():
            f()
    for _ in range(epochs):  # interleaved
        for name, f in runs.items():
            w, c = time.perf_counter(), time.process_time()
            f()
            res[name].append((time.perf_counter() - w, time.process_time() - c))
    med = {name: [statistics.median(v) * 1e3 for v in zip(*r)] for name, r in res.items()}
    (ew, ec), (nw, nc) = med["epoch"], med["without the last batch"]
    print(f"epoch 10x64 + last batch 17 (median of {epochs}): wall {ew:.2f} ms, process CPU {ec:.2f} ms; without "
          f"the last batch {nw:.2f} / {nc:.2f}: the last batch adds {ew - nw:.2f} / {ec - nc:.2f} ms")
    run = batch_loop(paddle, list(range(1, 61)))
    c0, b0 = deferred.STATS["compiled"], row_buckets.STATS["compiled"]
    w, c = time.perf_counter(), time.process_time()
    run()
    w, c = time.perf_counter() - w, time.process_time() - c
    print(f"new batch size every step (1..60): wall {w * 1e3 / 60:.2f} ms, process CPU {c * 1e3 / 60:.2f} ms per "
          f"step; programs compiled: {deferred.STATS['compiled'] - c0} whole-step, "
          f"{row_buckets.STATS['compiled'] - b0} bucket")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=20, help="new shapes timed, each side (0: no timing)")
    ap.add_argument("--loop", type=int, default=1000, help="steps of the never-repeating loop (0: none)")
    ap.add_argument("--loop-off", type=int, default=60, help="steps of that loop with bucketing off")
    ap.add_argument("--shapes", type=int, default=2000, help="new shapes in the memory loop (0: none)")
    ap.add_argument("--every", type=int, default=100, help="print RSS every this many shapes")
    ap.add_argument("--rows", type=int, default=0, metavar="EPOCHS", help="bench.py's epoch and new batch size rows")
    args = ap.parse_args()
    if args.rows:
        rows(args.rows)
    if args.pairs:
        times(args.pairs)
    if args.loop or args.loop_off:
        loop(args.loop, args.loop_off)
    if args.shapes:
        memory(args.shapes, args.every)


if __name__ == "__main__":
    main()
