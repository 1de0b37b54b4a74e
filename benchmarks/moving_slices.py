"""What a training loop pays when its batches come out of one data Tensor through Paddle's slicing functions.

    python benchmarks/moving_slices.py [--epochs 3] [--batches 50] [--rows 64] [--fn slice]

An epoch is ``--batches`` minibatches of ``--rows`` rows, each cut out of the same whole-data-set Tensor with
``paddle.slice(X, [0], [i * rows], [(i + 1) * rows])`` (``--fn``: ``strided_slice``, ``narrow`` or ``crop``
instead, or ``getitem`` for ``X[i * rows:(i + 1) * rows]``), each followed by a step of a small MLP (16 -> 64 ->
1, ReLU, mse, SGD). Every batch of the first epoch has a new start. Printed per epoch: ms per step (mean and
median, wall time) and the XLA programs compiled during it.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

import pylayer_jax as paddle

COMPILES = [0]


def _count_compiles() -> None:
    def listener(event: str, duration: float, **kwargs: Any) -> None:
        if event == "/jax/core/compile/backend_compile_duration":
            COMPILES[0] += 1

    jax.monitoring.register_event_duration_secs_listener(listener)


def _cut(fn: str, rows: int) -> Callable[[Any, int], Any]:
    if fn == "slice":
        return lambda t, i: paddle.slice(t, [0], [i * rows], [(i + 1) * rows])
    if fn == "strided_slice":
        return lambda t, i: paddle.strided_slice(t, [0], [i * rows], [(i + 1) * rows], [1])
    if fn == "narrow":
        return lambda t, i: paddle.narrow(t, 0, i * rows, rows)
    if fn == "crop":
        return lambda t, i: paddle.crop(t, [rows, -1], [i * rows, 0])
    if fn == "getitem":
        return lambda t, i: t[i * rows:(i + 1) * rows]
    raise SystemExit(f"moving_slices: --fn must be slice, strided_slice, narrow, crop or getitem, not {fn!r}.")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batches", type=int, default=50)
    ap.add_argument("--rows", type=int, default=64)
    ap.add_argument("--fn", default="slice")
    args = ap.parse_args()
    _count_compiles()
    cut = _cut(args.fn, args.rows)
    rng = np.random.default_rng(0)
    nn, F = paddle.nn, paddle.nn.functional
    paddle.seed(0)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    xs = rng.standard_normal((args.batches * args.rows, 16)).astype("float32")
    X = paddle.to_tensor(xs)
    Y = paddle.to_tensor(np.sin(xs.sum(-1, keepdims=True)).astype("float32"))
    print(f"{args.fn}: {args.batches} batches of {args.rows} rows an epoch, MLP 16-64-1, mse, SGD")
    for epoch in range(args.epochs):
        times = []
        c0 = COMPILES[0]
        for i in range(args.batches):
            t = time.perf_counter()
            loss = F.mse_loss(model(cut(X, i)), cut(Y, i))
            loss.backward()
            opt.step()
            opt.clear_grad()
            float(loss)
            times.append((time.perf_counter() - t) * 1e3)
        print(f"epoch {epoch + 1}: {statistics.mean(times):7.2f} ms/step mean, {statistics.median(times):6.2f} median, "
              f"{COMPILES[0] - c0} programs compiled, last loss {float(loss):.5f}")


if __name__ == "__main__":
    main()
