"""What a new input shape costs: time per step and memory over a loop whose batch size never repeats.

    python benchmarks/new_shapes.py [--pairs 20] [--shapes 2000] [--every 100]

1. Time: the 64x8 MLP SGD step of bench.py's ``new batch size`` row (``_workloads.batch_loop``) on a new batch
   size every step, against ``jax.jit(jax.grad(loss))`` of the same loss on a new batch size every call (one
   XLA compile each: the floor for a new shape), interleaved in one process; the median per step by wall
   time and by process CPU time (compiles run on other threads too), and the ratio.
2. Memory: the resident set size (RSS) while the loop runs ``--shapes`` new batch sizes, every ``--every``;
   the caches fill during the first few hundred shapes, after which memory stays flat.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from _workloads import batch_loop  # noqa: E402

import pylayer_jax as paddle  # noqa: E402
from pylayer_jax._exec import deferred  # noqa: E402
from pylayer_jax._runtime import kernel_cache  # noqa: E402


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _jax_step() -> tuple:
    rng = np.random.default_rng(0)
    ps = [jnp.asarray(rng.standard_normal(s).astype("float32")) for s in [(64, 8), (8,), (8, 1), (1,)]]

    def loss(ps, x):  # noqa: ANN001, ANN202
        w1, b1, w2, b2 = ps
        return jnp.mean((jnp.tanh(x @ w1 + b1) @ w2 + b2) ** 2)

    return jax.jit(jax.grad(loss)), ps, rng


def times(pairs: int) -> None:
    g, ps, rng = _jax_step()
    batch_loop(paddle, [3, 4, 5])()  # the step's first sightings (call by call) and the family's first program
    g(ps, jax.device_put(rng.standard_normal((3, 64)).astype("float32"))).block_until_ready()
    ours: list[tuple[float, float]] = []
    plain: list[tuple[float, float]] = []
    for i in range(pairs):
        run = batch_loop(paddle, [1000 + 2 * i])  # (the batch is made before the clock starts)
        w, c = time.perf_counter(), time.process_time()
        run()
        ours.append((time.perf_counter() - w, time.process_time() - c))
        x = jax.device_put(rng.standard_normal((1001 + 2 * i, 64)).astype("float32"))
        w, c = time.perf_counter(), time.process_time()
        jax.block_until_ready(g(ps, x))
        plain.append((time.perf_counter() - w, time.process_time() - c))
    o_w, o_c = (statistics.median(v) * 1e3 for v in zip(*ours))
    j_w, j_c = (statistics.median(v) * 1e3 for v in zip(*plain))
    print(f"new batch size every step, median of {pairs} (ms per step): wall {o_w:.1f} ours, {j_w:.1f} "
          f"jax.jit(jax.grad) ({o_w / j_w:.2f}x); process CPU {o_c:.1f} ours, {j_c:.1f} jax.jit(jax.grad) "
          f"({o_c / j_c:.2f}x)")


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
          f"programs compiled {deferred.STATS['compiled']}, cached {len(deferred._PROGRAMS)}; kernel cache "
          f"{kernel_cache.STATS}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=20, help="new shapes timed, each side (0: no timing)")
    ap.add_argument("--shapes", type=int, default=2000, help="new shapes in the memory loop (0: none)")
    ap.add_argument("--every", type=int, default=100, help="print RSS every this many shapes")
    args = ap.parse_args()
    if args.pairs:
        times(args.pairs)
    if args.shapes:
        memory(args.shapes, args.every)


if __name__ == "__main__":
    main()
