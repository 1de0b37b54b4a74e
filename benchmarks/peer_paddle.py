"""The benchmark workloads in real Paddle; run with an interpreter that has paddle, prints JSON."""

from __future__ import annotations

import json
import os
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from _timing import per_call_us  # noqa: E402
from _workloads import (  # noqa: E402
    LAYER_STEP,
    SCHEDULE,
    batch_loop,
    cus_tanh_layer,
    grl_step,
    layer_step,
    mlp_step,
    mlp_train_step,
    pylayer_step,
    pylayer_train_step,
    schedule_step,
)
from paddle.autograd import PyLayer  # noqa: E402

CusTanh = cus_tanh_layer(paddle, PyLayer)  # (the benchmarks' one custom PyLayer, from _workloads)


def main() -> None:
    if "--steps" in sys.argv:  # only the training-step rows (bench.py --steps)
        print(json.dumps(train_steps()))
        return
    res: dict[str, float] = {}
    a = paddle.to_tensor(np.random.rand(2, 3).astype("float32"))
    b = paddle.to_tensor(np.random.rand(3, 2).astype("float32"))
    res["op tanh [2,3]"] = per_call_us(lambda: paddle.tanh(a))
    res["op add [2,3]"] = per_call_us(lambda: a + a)
    res["op matmul [2,3]x[3,2]"] = per_call_us(lambda: paddle.matmul(a, b))
    res["op sum [2,3]"] = per_call_us(lambda: paddle.sum(a))
    for bsz, w in [(64, 8), (1024, 1024)]:
        x = paddle.to_tensor(np.random.rand(bsz, w).astype("float32"))
        params = [paddle.to_tensor(np.random.rand(*s).astype("float32") * 0.1) for s in [(w, w), (w,), (w, w), (w,)]]
        for p in params:
            p.stop_gradient = False

        res[f"mlp step {bsz}x{w}"] = per_call_us(mlp_step(paddle, x, params), min_time=0.5 if w < 1000 else 3.0, repeats=5)
    for shape in ([2, 3], [1000, 1000]):
        x = paddle.to_tensor(np.random.rand(*shape).astype("float32"))
        x.stop_gradient = False

        pstep = pylayer_step(CusTanh, x)
        res[f"pylayer step {shape}"] = per_call_us(pstep, min_time=0.5 if shape[0] < 1000 else 2.0)
    res.update(train_steps())
    res.update(static_runs())
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((64, 8)).astype("float32"))
    w = paddle.to_tensor(rng.standard_normal((8, 8)).astype("float32") * 0.1, stop_gradient=False)
    res["GRL PyLayer step (float alpha, x ** 2) 64x8"] = per_call_us(grl_step(paddle, PyLayer, x, w, 0.5))
    res["GRL PyLayer step, alpha changing every step, 64x8"] = per_call_us(
        grl_step(paddle, PyLayer, x, w, lambda i: 0.5 + 1e-6 * i))
    res[SCHEDULE] = per_call_us(schedule_step(paddle, x, w))
    res[LAYER_STEP] = per_call_us(layer_step(paddle))
    res["epoch 10x64 + last batch 17, MLP 64x8"] = per_call_us(batch_loop(paddle, [64] * 10 + [17]), min_time=2.0)
    sizes = list(range(1, 61))
    loop = batch_loop(paddle, sizes)
    t0 = time.perf_counter()
    loop()
    res["new batch size every step (1..60), per step"] = (time.perf_counter() - t0) * 1e6 / len(sizes)
    print(json.dumps(res))


def train_steps() -> dict[str, float]:
    """The training-step rows (Paddle runs the step eagerly, beside our compiled and eager ones)."""
    res: dict[str, float] = {}
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.random((64, 8), np.float32))
    params = [paddle.to_tensor(rng.random(s, np.float32) * 0.1, stop_gradient=False)
              for s in [(8, 8), (8,), (8, 8), (8,)]]
    step = mlp_train_step(paddle, params)
    res["compiled mlp step 64x8 (to_static: fwd, bwd, SGD)"] = per_call_us(lambda: step(x))
    res["eager mlp step 64x8 (fwd, bwd, SGD)"] = res["compiled mlp step 64x8 (to_static: fwd, bwd, SGD)"]
    w = paddle.to_tensor(rng.random((2, 3), np.float32), stop_gradient=False)
    res["compiled pylayer step [2, 3] (to_static: fwd, bwd, SGD)"] = per_call_us(pylayer_train_step(paddle, CusTanh, w))
    res["eager pylayer step [2, 3] (fwd, bwd, SGD)"] = res["compiled pylayer step [2, 3] (to_static: fwd, bwd, SGD)"]
    return res


def static_runs() -> dict[str, float]:
    res = {}
    paddle.enable_static()
    main_prog, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_prog, start):
        data = paddle.static.data(name="X", shape=[None, 5], dtype="float32")
        data.stop_gradient = False
        ret = paddle.static.nn.static_pylayer(lambda x: paddle.exp(x), [data], lambda dy: 2 * paddle.exp(dy))
        grad = paddle.static.gradients([ret], data)[0]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    for rows in (1, 200000):
        feed = {"X": np.random.rand(rows, 5).astype("float32")}
        res[f"static run {rows}x5"] = per_call_us(
            lambda feed=feed: exe.run(main_prog, feed=feed, fetch_list=[data, grad, ret]), min_time=1.0
        )
    paddle.disable_static()
    return res


if __name__ == "__main__":
    main()
