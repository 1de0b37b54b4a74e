"""Sequence lengths that change every step: a text classifier's training loop whose batches are not padded.

    python benchmarks/seq_lengths.py [--paddle-python PATH] [--lengths 32 128] [--steps 300]

The step, written as a Paddle user writes it (the same text runs with ``import paddle``): token ids of shape
[16, T] with T drawn at random from 1..L every step (seeded), ``nn.Embedding(1000, 32)``, the mean over the
sequence axis, ``nn.Linear(32, 4)``, cross entropy, Adam, the loss read every step. Each new T is a new shape of
the step, which runs padded along the sequence axis (``_autograd.row_buckets``; ``PYLAYER_JAX_BUCKETS=0``: each
length compiled for its shape).
Each library runs in a fresh process per L (ours with the compilation cache off); the table gives the whole loop's wall time, the median ms per step
of its first and last quarter, and (ours) the step programs compiled.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

LOOP = r"""
import json, sys, time
import numpy as np
lib, L, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if lib == "paddle":
    import paddle
else:
    sys.path.insert(0, sys.argv[4])
    import pylayer_jax as paddle
nn = paddle.nn
paddle.seed(0)
emb = nn.Embedding(1000, 32)
lin = nn.Linear(32, 4)
opt = paddle.optimizer.Adam(parameters=emb.parameters() + lin.parameters(), learning_rate=1e-3)
rng = np.random.default_rng(0)
lengths = rng.integers(1, L + 1, steps)
times = []
start = time.perf_counter()
for T in lengths:
    t = time.perf_counter()
    ids = paddle.to_tensor(rng.integers(0, 1000, (16, int(T))))
    y = paddle.to_tensor(rng.integers(0, 4, (16,)))
    loss = nn.functional.cross_entropy(lin(emb(ids).mean(axis=1)), y)
    loss.backward()
    opt.step()
    opt.clear_grad()
    float(loss)
    times.append(time.perf_counter() - t)
total = time.perf_counter() - start
compiled = None
if lib != "paddle":
    from pylayer_jax._exec import deferred
    compiled = deferred.STATS["compiled"]
q = max(1, steps // 4)
print(json.dumps({"total": total, "first": float(np.median(times[:q])) * 1e3,
                  "last": float(np.median(times[-q:])) * 1e3, "compiled": compiled}))
"""


def run(python: str, lib: str, length: int, steps: int) -> dict:
    env = dict(os.environ, PYLAYER_JAX_CACHE_DIR="")  # (no compilation cache: every compile is timed)
    out = subprocess.run([python, "-c", LOOP, lib, str(length), str(steps), os.path.join(os.path.dirname(HERE), "src")],
                         capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paddle-python", default=os.environ.get("PADDLE_PYTHON"))
    ap.add_argument("--lengths", type=int, nargs="+", default=[32, 128])
    ap.add_argument("--steps", type=int, default=300)
    a = ap.parse_args()
    print("| T drawn from | library | loop (s) | ms/step, first quarter | ms/step, last quarter | programs compiled |")
    print("|---|---|---|---|---|---|")
    for length in a.lengths:
        rows = [("pylayer_jax", run(sys.executable, "ours", length, a.steps))]
        if a.paddle_python:
            rows.append(("Paddle", run(a.paddle_python, "paddle", length, a.steps)))
        for name, r in rows:
            c = "-" if r["compiled"] is None else r["compiled"]
            print(f"| 1..{length} ({a.steps} steps) | {name} | {r['total']:.2f} | {r['first']:.2f} | {r['last']:.2f} | {c} |")


if __name__ == "__main__":
    main()
