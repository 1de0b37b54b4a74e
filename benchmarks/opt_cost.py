"""What the optimizer adds to the small eager training step (the 64×8 MLP of ``bench.py``).

Cases, timed interleaved in one process (round after round, each case a batch per round; the best
batch of each kept), by wall time and by this thread's CPU time:

- ``none``: forward, backward, clear_grad of each parameter (``mlp_step`` without its ``.grad`` read);
- ``SGD`` / ``AdamW``: forward, backward, ``opt.step()``, ``opt.clear_grad()`` (the update joins the program of
  the backward: one program per step); with ``--apart`` also each with the update run in the program after the
  backward's (``deferred.JOIN = False``: the backward's program returns the gradients, the next takes them);
  with ``--full`` also each with its update recorded in full every step (``full``) and, besides, each parameter
  updated apart (``per-param``);
- each one's compiled XLA program alone (the step's arrays fed straight to it, as ``floor.py`` does);
- JAX (+ optax) doing the same work in one ``jax.jit``;
- with ``--base REV``, the same steps (none, SGD, AdamW where it has it) of the package at commit ``REV``, exported
  beside the working tree as ``pylayer_jax_base`` (``ab_steps.export``) and timed in the same rounds: what the update
  costs against another version's (``--base 70c0111^``: the plain SGD before the optimizers were rebuilt on optax).

    python benchmarks/opt_cost.py [--rounds N] [--size 64x8] [--apart] [--full] [--profile] [--base REV]

``--profile`` prints, per optimizer, the Python functions one step calls (cProfile, per step).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from _workloads import mlp_opt_step, optimizers  # noqa: E402
from ab_steps import export  # noqa: E402
from bench import OPTAX, jax_mlp_loss, jax_step  # noqa: E402
from floor import program_alone_fn  # noqa: E402

import pylayer_jax as paddle  # noqa: E402
from pylayer_jax._exec import deferred  # noqa: E402


def _joined(step: Callable[[], Any], join: bool) -> Callable[[], Any]:
    """``step`` with the optimizer's update joining backward's program (or run apart): each case sets it, since
    the cases run interleaved."""

    def run() -> Any:
        deferred.JOIN = join
        return step()

    return run


def cases(x_np: Any, p_np: list[Any], full: bool = False, apart: bool = False) -> dict[str, Callable[[], Any]]:
    x = paddle.to_tensor(x_np)
    params = [paddle.to_tensor(p, stop_gradient=False) for p in p_np]
    out: dict[str, Callable[[], Any]] = {"none": mlp_opt_step(paddle, x, params)}
    jx = jnp.asarray(x_np)
    for name, make in optimizers(paddle).items():
        for off in ("", *((" apart",) if apart else ()), *((" full", " per-param") if full else ())):
            ps = [paddle.to_tensor(p, stop_gradient=False) for p in p_np]
            opt = make(ps)
            if off in (" full", " per-param"):  # the update recorded in full every step (no repeat of the last step's)
                opt._fast_record = lambda *a: None
            if off == " per-param":  # and each parameter updated apart (no flat update)
                opt._FLAT = False
            out[name + off] = _joined(mlp_opt_step(paddle, x, ps, opt), off != " apart")
        out[f"JAX {name}"] = jax_step(jax_mlp_loss, [jnp.asarray(p) for p in p_np], jx, OPTAX[name])
    jg = jax.jit(jax.grad(jax_mlp_loss))
    jp0 = [jnp.asarray(p) for p in p_np]
    out["JAX none"] = lambda: jg(jp0, jx)
    return out


def base_cases(rev: str, where: str, x_np: Any, p_np: list[Any]) -> dict[str, Callable[[], Any]]:
    """The steps of ``cases`` (none and each optimizer the package at ``rev`` has) of the package at ``rev``, exported
    under ``where``."""
    export(rev, where)
    sys.path.insert(0, where)
    base = importlib.import_module("pylayer_jax_base")
    x = base.to_tensor(x_np)
    out = {"base none": mlp_opt_step(base, x, [base.to_tensor(p, stop_gradient=False) for p in p_np])}
    for name, make in optimizers(base).items():
        if hasattr(base.optimizer, name):
            ps = [base.to_tensor(p, stop_gradient=False) for p in p_np]
            out["base " + name] = mlp_opt_step(base, x, ps, make(ps))
    return out


def _sync(v: Any) -> None:
    v = v._value if isinstance(v, paddle.Tensor) else v
    if hasattr(v, "block_until_ready"):
        v.block_until_ready()


def measure(fns: dict[str, Callable[[], Any]], rounds: int, batch_s: float = 0.05) -> dict[str, tuple[float, float]]:
    """(best wall µs, best thread-CPU µs, best process-CPU µs) per call of each case, interleaved round by round."""
    n = {}
    for k, fn in fns.items():
        for _ in range(10):
            _sync(fn())
        m = 1
        while True:
            t = time.perf_counter()
            for _ in range(m):
                fn()
            if time.perf_counter() - t > batch_s:
                break
            m *= 2
        n[k] = m
    best = {k: [float("inf")] * 3 for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            m = n[k]
            p0, c0, t0 = time.process_time(), time.thread_time(), time.perf_counter()
            for _ in range(m):
                out = fn()
            _sync(out)
            t1, c1, p1 = time.perf_counter(), time.thread_time(), time.process_time()
            b = best[k]
            b[0] = min(b[0], (t1 - t0) / m * 1e6)
            b[1] = min(b[1], (c1 - c0) / m * 1e6)
            b[2] = min(b[2], (p1 - p0) / m * 1e6)
    return {k: (v[0], v[1], v[2]) for k, v in best.items()}


def profile(fn: Callable[[], Any], steps: int = 2000, top: int = 25) -> None:
    for _ in range(10):
        fn()
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(steps):
        fn()
    pr.disable()
    st = pstats.Stats(pr)
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][3])  # (cc, nc, tt, ct, callers)
    print(f"{'calls/step':>10} {'tottime µs/step':>16} {'cumtime µs/step':>16}  function")
    for (file, line, func), (_, nc, tt, ct, _) in rows[:top]:
        print(f"{nc / steps:10.2f} {tt / steps * 1e6:16.2f} {ct / steps * 1e6:16.2f}  {os.path.basename(file)}:{line} {func}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--size", default="64x8")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--apart", action="store_true",
                    help="also time each optimizer with its update run after the backward's program, not joined")
    ap.add_argument("--full", action="store_true",
                    help="also time each optimizer with its update recorded in full every step, and also per parameter")
    ap.add_argument("--base", default=None, metavar="REV",
                    help="also time the steps of the package at commit REV, in the same rounds (e.g. 70c0111^)")
    args = ap.parse_args()
    if args.base is not None:
        with tempfile.TemporaryDirectory() as tmp:
            report(args, tmp)
    else:
        report(args, None)


def report(args: argparse.Namespace, tmp: str | None) -> None:
    """Time the cases (with the package at ``args.base`` exported under ``tmp``) and print the table."""
    b, h = (int(v) for v in args.size.split("x"))
    rng = np.random.default_rng(0)
    x_np = rng.random((b, h), np.float32)
    p_np = [rng.random(s, np.float32) * 0.1 for s in [(h, h), (h,), (h, h), (h,)]]
    fns = cases(x_np, p_np, args.full, args.apart)
    if tmp is not None:
        fns.update(base_cases(args.base, tmp, x_np, p_np))
    if args.profile:
        for k in ("none", *OPTAX):
            print(f"\n== {k}")
            profile(fns[k])
        return
    for k in [k for k in fns if not k.startswith(("JAX", "base"))]:
        prog, ext = program_alone_fn(fns[k])
        fns[f"XLA {k}"] = (lambda prog=prog, ext=ext: prog(*ext)[0])
    for fn in fns.values():  # each case's steady state (the program compiled, the step replayed), unsynced
        for _ in range(100):
            fn()
    res = measure(fns, args.rounds)
    print(f"{'case':<12} {'wall µs':>9} {'thread cpu':>11} {'process cpu':>12}")
    for k, (w, c, pc) in res.items():
        print(f"{k:<12} {w:9.1f} {c:11.1f} {pc:12.1f}")
    base = res["none"]
    for name in OPTAX:
        w, c, _ = res[name]
        print(f"{name}: {w / base[0]:.2f}x none (wall), {c / base[1]:.2f}x (cpu); ours/JAX {w / res['JAX ' + name][0]:.2f}x"
              f" (wall); XLA alone {res['XLA ' + name][0]:.1f} µs vs none's {res['XLA none'][0]:.1f}")
        if name + " apart" in res:
            w, c, _ = res[name + " apart"]
            print(f"{name} apart: {w / base[0]:.2f}x none (wall), {c / base[1]:.2f}x (cpu); XLA alone "
                  f"{res['XLA ' + name + ' apart'][0]:.1f} µs")
    w, c, _ = res["AdamW"]
    print(f"AdamW/SGD: {w / res['SGD'][0]:.2f}x (wall), {c / res['SGD'][1]:.2f}x (cpu)")
    if args.base is not None:
        for name in ("none", *OPTAX):
            if "base " + name in res:
                (w, c, _), (bw, bc, _) = res[name], res["base " + name]
                print(f"{name} vs {args.base}: {w / bw:.2f}x (wall), {c / bc:.2f}x (cpu)")


if __name__ == "__main__":
    main()
