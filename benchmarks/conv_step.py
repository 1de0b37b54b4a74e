"""A small CNN's training step (two 3x3 convolutions with batch norm, ReLU and max pooling, a linear head, cross
entropy, Adam; batch 32 of 3x32x32 images), as a Paddle user writes it, against the same step in plain JAX
(``jax.jit(jax.value_and_grad)`` + optax) and in Paddle (when an interpreter with it is given or found).

The step's time here is XLA's: convolutions on the CPU run at the speed of XLA's own kernels, so this row shows
where XLA, not the package, sets the pace (Paddle's CPU build calls oneDNN).

    python benchmarks/conv_step.py [--paddle-python PATH] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH, CLASSES = 32, 10


def data() -> tuple[Any, Any]:
    import numpy as np

    rng = np.random.default_rng(0)
    return rng.random((BATCH, 3, 32, 32), np.float32), rng.integers(0, CLASSES, (BATCH,)).astype("int64")


def paddle_step(paddle: Any) -> Any:
    """The step in either library's Paddle API (``paddle`` is real Paddle or pylayer_jax)."""
    nn = paddle.nn
    paddle.seed(0)
    net = nn.Sequential(nn.Conv2D(3, 32, 3, padding=1), nn.BatchNorm2D(32), nn.ReLU(), nn.MaxPool2D(2),
                        nn.Conv2D(32, 64, 3, padding=1), nn.BatchNorm2D(64), nn.ReLU(), nn.MaxPool2D(2),
                        nn.Flatten(), nn.Linear(64 * 8 * 8, CLASSES))
    opt = paddle.optimizer.Adam(1e-3, parameters=net.parameters())
    x_np, y_np = data()
    x, y = paddle.to_tensor(x_np), paddle.to_tensor(y_np)
    loss_fn = nn.CrossEntropyLoss()

    def step() -> Any:
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step


def jax_step() -> Any:
    import jax
    import jax.numpy as jnp
    import optax

    keys = iter(jax.random.split(jax.random.PRNGKey(0), 8))

    def w(shape: tuple[int, ...]) -> Any:
        return jax.random.normal(next(keys), shape, jnp.float32) * 0.05

    params = {"c1": w((32, 3, 3, 3)), "b1": jnp.zeros(32, jnp.float32), "g1": jnp.ones(32, jnp.float32),
              "s1": jnp.zeros(32, jnp.float32), "c2": w((64, 32, 3, 3)), "b2": jnp.zeros(64, jnp.float32),
              "g2": jnp.ones(64, jnp.float32), "s2": jnp.zeros(64, jnp.float32), "w": w((4096, CLASSES)),
              "b": jnp.zeros(CLASSES, jnp.float32)}

    def block(h: Any, c: Any, b: Any, g: Any, s: Any) -> Any:
        h = jax.lax.conv_general_dilated(h, c, (1, 1), ((1, 1), (1, 1))) + b[None, :, None, None]
        m, v = h.mean((0, 2, 3), keepdims=True), h.var((0, 2, 3), keepdims=True)
        h = jax.nn.relu((h - m) / jnp.sqrt(v + 1e-5) * g[None, :, None, None] + s[None, :, None, None])
        return jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    def loss(p: Any, x: Any, y: Any) -> Any:
        h = block(block(x, p["c1"], p["b1"], p["g1"], p["s1"]), p["c2"], p["b2"], p["g2"], p["s2"])
        out = h.reshape(BATCH, -1) @ p["w"] + p["b"]
        return -jnp.mean(jax.nn.log_softmax(out)[jnp.arange(BATCH), y])

    tx = optax.adam(1e-3)

    @jax.jit
    def update(p: Any, st: Any, x: Any, y: Any) -> Any:
        value, g = jax.value_and_grad(loss)(p, x, y)
        upd, st = tx.update(g, st, p)
        return optax.apply_updates(p, upd), st, value

    x_np, y_np = data()
    x, y = jnp.asarray(x_np), jnp.asarray(y_np)
    state = [params, tx.init(params)]

    def step() -> Any:
        state[0], state[1], value = update(state[0], state[1], x, y)
        return value

    return step


def per_step_ms(step: Any, sync: Any, rounds: int) -> float:
    """The fastest of ``rounds`` rounds of 10 steps, wall milliseconds per step (after 5 warm-up steps)."""
    for _ in range(5):
        sync(step())
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(10):
            out = step()
        sync(out)
        best = min(best, (time.perf_counter() - t) / 10)
    return best * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paddle-python", help="interpreter with paddlepaddle installed (or env PADDLE_PYTHON)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--peer", action="store_true", help=argparse.SUPPRESS)  # (run inside Paddle's interpreter)
    args = ap.parse_args()
    if args.peer:
        import paddle

        print(json.dumps({"paddle": per_step_ms(paddle_step(paddle), lambda t: t.item(), args.rounds)}))
        return
    import jax

    import pylayer_jax as paddle

    ours = per_step_ms(paddle_step(paddle), lambda t: t.item(), args.rounds)
    plain = per_step_ms(jax_step(), jax.block_until_ready, args.rounds)
    theirs = None
    python = args.paddle_python or os.environ.get("PADDLE_PYTHON")
    if python:
        out = subprocess.run([python, os.path.abspath(__file__), "--peer", "--rounds", str(args.rounds)],
                             capture_output=True, text=True, timeout=1800)
        theirs = json.loads(out.stdout.strip().splitlines()[-1])["paddle"] if out.returncode == 0 else None
    print("| case (ms per step, wall) | pylayer_jax | JAX | Paddle | ours/JAX | ours/Paddle |")
    print("|---|---|---|---|---|---|")
    pd = f"{theirs:.1f}" if theirs else "-"
    ratio = f"{ours / theirs:.2f}x" if theirs else "-"
    print(f"| CNN step: 2 conv 3x3 + BN + ReLU + pool, linear, Adam; 32x3x32x32 | {ours:.1f} | {plain:.1f} | {pd} | "
          f"{ours / plain:.2f}x | {ratio} |")


if __name__ == "__main__":
    main()
