"""How far a small eager step can go: the XLA part of the step against Paddle's whole step.

For the two small steps of ``bench.py`` (the 64×8 MLP training step and the [2,3] ``cus_tanh``
PyLayer step) this prints, in one run:

- our whole step, and the compiled XLA program that step runs, timed alone (the step's
  arrays fed straight to the cached ``jax.jit`` program: no Python of ours at all);
- Paddle's whole step (when an interpreter that has Paddle is given or found);
- what is left of Paddle's step for our Python once XLA has run, spread over the step's
  API calls (ops, ``apply``, ``backward()``, ``clear_grad()``, ``.grad`` reads);
- what one recorded op costs us alone, and what one plain ``jax.jit`` call costs.

    python benchmarks/floor.py [--paddle-python PATH]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from _workloads import mlp_step  # noqa: E402
from bench import CusTanh, _find, peer, timed  # noqa: E402

import pylayer_jax as paddle  # noqa: E402
from pylayer_jax._exec import deferred as _lazy  # noqa: E402


def program_alone(step: Callable[[], Any]) -> float:
    """The compiled program ``step`` ends in, timed alone on the arrays that step fed it (µs)."""
    prog, ext = program_alone_fn(step)
    return timed(lambda: prog(*ext))


def program_alone_fn(step: Callable[[], Any]) -> tuple[Any, list[Any]]:
    """(the compiled program ``step`` ends in, the arrays that step fed it)."""
    for _ in range(2 * _lazy.FUSE_AFTER + 2):  # compiled from the FUSE_AFTER-th sighting on, then replayed
        step()
    seen: list[tuple[Any, list[Any]]] = []
    run = _lazy._Buffer._run

    def spy(buf: Any, compile_ok: bool) -> None:
        live = tuple(i for i, r in enumerate(buf.refs) if r() is not None)
        key = (tuple(buf.calls), live, tuple(buf.ext_avals))
        ext = list(buf.ext)
        run(buf, compile_ok)
        prog = _lazy._PROGRAMS.get(key) or (buf.memo or {}).get(live)
        if prog is not None:
            seen.append((prog, ext))

    _lazy._Buffer._run = spy  # type: ignore[method-assign]
    try:
        step()
    finally:
        _lazy._Buffer._run = run  # type: ignore[method-assign]
    if len(seen) != 1:
        raise RuntimeError(f"floor.py: expected the step to run one compiled program, but it ran {len(seen)}.")
    return seen[0]


def recorded_op_us() -> float:
    """One op on a trainable tensor: recording into the buffer, its tape node and its Tensor (µs)."""
    w = paddle.to_tensor(np.random.default_rng(0).random((8, 8), np.float32))
    w.stop_gradient = False
    best = float("inf")
    for _ in range(300):
        t = time.perf_counter()
        for _ in range(100):
            paddle.tanh(w)
        best = min(best, (time.perf_counter() - t) / 100)
        _lazy.flush()
    return best * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paddle-python", help="interpreter with paddlepaddle installed (or env PADDLE_PYTHON)")
    args = ap.parse_args()
    rng = np.random.default_rng(0)

    x = paddle.to_tensor(rng.random((64, 8), np.float32))
    params = [paddle.to_tensor(rng.random(s, np.float32) * 0.1) for s in [(8, 8), (8,), (8, 8), (8,)]]
    for p in params:
        p.stop_gradient = False

    xs = paddle.to_tensor(rng.random((2, 3), np.float32))
    xs.stop_gradient = False

    def pylayer_step() -> Any:
        CusTanh.apply(xs).mean().backward()
        return xs.grad

    # API calls per step, the same in both libraries:
    # MLP: matmul, tanh, add, matmul, add, mean, backward, clear_grad x4, .grad = 12
    # PyLayer: apply, tanh, save_for_backward, mean, backward, saved_tensor, square, 1 - ., *, .grad = 10
    cases = {"mlp step 64x8": (mlp_step(paddle, x, params), 12), "pylayer step [2, 3]": (pylayer_step, 10)}
    rows = {name: (timed(fn), program_alone(fn), calls) for name, (fn, calls) in cases.items()}
    op_us = recorded_op_us()
    a, jtanh = jnp.ones((2, 3), jnp.float32), jax.jit(jnp.tanh)
    jit_us = timed(lambda: jtanh(a))
    pd = peer(_find("paddle", args.paddle_python, "PADDLE_PYTHON"), "peer_paddle.py")

    print(f"device: {jax.devices()[0].platform}, jax {jax.__version__}")
    print("| case | ours | its XLA program alone | Paddle | Paddle less XLA | API calls | left per call |")
    print("|---|---|---|---|---|---|---|")
    for name, (ours, prog, calls) in rows.items():
        p = pd.get(name)
        left = "-" if p is None else f"{p - prog:.1f} µs"
        per = "-" if p is None else f"{(p - prog) / calls:.1f} µs"
        print(f"| {name} | {ours:.1f} µs | {prog:.1f} µs | {'-' if p is None else f'{p:.1f} µs'} | {left} | {calls} | {per} |")
    paddle_op = pd.get("op tanh [2,3]")
    print(f"\none op on a trainable tensor, recorded (ours): {op_us:.1f} µs; one cached jax.jit call: {jit_us:.1f} µs"
          + ("" if paddle_op is None else f"; one Paddle eager op: {paddle_op:.1f} µs"))


if __name__ == "__main__":
    main()
