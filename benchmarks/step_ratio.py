"""A compiled training step (``paddle.jit.to_static``) against a hand-written ``jax.jit(jax.value_and_grad)`` +
optax step doing the same work, alternated in one process.

The machine may be shared and noisy: each round times a batch of ours, then a batch of the reference,
by thread CPU time (``time.thread_time_ns``: time others take on the cores is not counted) and by wall
time; the ratio reported is of the per-side minimum over the rounds, and the median of per-round ratios.

    python benchmarks/step_ratio.py [--rounds 40] [--batch 500]
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
from _workloads import mlp_train_step, pylayer_train_step  # noqa: E402
from bench import CusTanh, jax_mlp_loss, jax_sgd  # noqa: E402  (the benchmarks' one cus_tanh PyLayer, JAX step)

import pylayer_jax as paddle  # noqa: E402


def workloads() -> dict[str, tuple[Callable[[], Any], Callable[[], Any]]]:
    rng = np.random.default_rng(0)
    x_np = rng.random((64, 8), np.float32)
    p_np = [rng.random(s, np.float32) * 0.1 for s in [(8, 8), (8,), (8, 8), (8,)]]
    x = paddle.to_tensor(x_np)
    params = [paddle.to_tensor(p, stop_gradient=False) for p in p_np]
    mlp = paddle.jit.to_static(mlp_train_step(paddle, params))

    loss = jax_mlp_loss
    jx = jnp.asarray(x_np)
    out = {"mlp step 64x8 SGD": (lambda: mlp(x), jax_sgd(loss, [jnp.asarray(p) for p in p_np], jx, donate=True))}

    w_np = rng.random((2, 3), np.float32)
    pl = paddle.jit.to_static(pylayer_train_step(paddle, CusTanh, paddle.to_tensor(w_np, stop_gradient=False)))
    out["pylayer step [2, 3] SGD"] = (pl, jax_sgd(lambda ps, _: jnp.mean(jnp.tanh(ps[0])), [jnp.asarray(w_np)], None,
                                                  donate=True))

    class Net(paddle.nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.l1, self.l2 = paddle.nn.Linear(8, 8), paddle.nn.Linear(8, 8)
            self.opt = paddle.optimizer.SGD(0.01, parameters=self.parameters())

        @paddle.jit.to_static
        def train_step(self, x: Any) -> Any:
            loss = self.l2(paddle.tanh(self.l1(x))).mean()
            loss.backward()
            self.opt.step()
            self.opt.clear_grad()
            return loss

    net = Net()
    lp = [jnp.asarray(p._value) for p in (net.l1.weight, net.l1.bias, net.l2.weight, net.l2.bias)]
    out["Layer method step 64x8 SGD"] = (lambda: net.train_step(x), jax_sgd(loss, lp, jx, donate=True))
    return out


def batch(fn: Callable[[], Any], n: int) -> tuple[int, int]:
    t0, w0 = time.thread_time_ns(), time.perf_counter_ns()
    for _ in range(n):
        out = fn()
    jax.block_until_ready(out._value if isinstance(out, paddle.Tensor) else out)
    return time.thread_time_ns() - t0, time.perf_counter_ns() - w0


def compare(ours: Callable[[], Any], ref: Callable[[], Any], rounds: int, n: int) -> dict[str, float]:
    for _ in range(20):  # warm: compiles, the fast path, the rates
        ours()
        ref()
    cpu: dict[str, list[float]] = {"ours": [], "ref": []}
    wall: dict[str, list[float]] = {"ours": [], "ref": []}
    for _ in range(rounds):
        for name, fn in (("ours", ours), ("ref", ref)):
            c, w = batch(fn, n)
            cpu[name].append(c / n / 1e3)
            wall[name].append(w / n / 1e3)
    return {
        "ours_cpu": min(cpu["ours"]), "ref_cpu": min(cpu["ref"]),
        "ours_wall": min(wall["ours"]), "ref_wall": min(wall["ref"]),
        "ratio_cpu_min": min(cpu["ours"]) / min(cpu["ref"]),
        "ratio_cpu_median": statistics.median(a / b for a, b in zip(cpu["ours"], cpu["ref"])),
        "ratio_wall_min": min(wall["ours"]) / min(wall["ref"]),
        "ratio_wall_median": statistics.median(a / b for a, b in zip(wall["ours"], wall["ref"])),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--only", default="", help="run only the workloads whose name contains this")
    args = ap.parse_args()
    print(f"{'workload':30s} {'ours cpu':>9s} {'jax cpu':>8s} {'ratio':>6s} {'(med)':>6s}   "
          f"{'ours wall':>9s} {'jax wall':>8s} {'ratio':>6s} {'(med)':>6s}   (µs per step)")
    for name, (ours, ref) in workloads().items():
        if args.only not in name:
            continue
        r = compare(ours, ref, args.rounds, args.batch)
        print(f"{name:30s} {r['ours_cpu']:9.2f} {r['ref_cpu']:8.2f} {r['ratio_cpu_min']:6.2f} "
              f"{r['ratio_cpu_median']:6.2f}   {r['ours_wall']:9.2f} {r['ref_wall']:8.2f} "
              f"{r['ratio_wall_min']:6.2f} {r['ratio_wall_median']:6.2f}", flush=True)


if __name__ == "__main__":
    main()
