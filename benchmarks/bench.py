"""pylayer_jax benchmarks: one run prints a table of times (µs) and ratios.

Columns: pylayer_jax; plain JAX (the limit: jitted functions, or jax.jit(jax.grad(...)));
real Paddle and PyTorch when an interpreter that has them is given (or found).

    python benchmarks/bench.py [--paddle-python PATH] [--torch-python PATH] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
from _timing import per_call_us  # noqa: E402
from _workloads import (  # noqa: E402
    LAYER_STEP,
    SCHEDULE,
    batch_loop,
    cus_tanh_layer,
    grl_step,
    layer_step,
    mlp_opt_step,
    mlp_step,
    mlp_train_step,
    optimizers,
    pylayer_step,
    pylayer_train_step,
    schedule_step,
)

import pylayer_jax as paddle  # noqa: E402
from pylayer_jax._autograd import fused_backward  # noqa: E402
from pylayer_jax._exec import deferred  # noqa: E402
from pylayer_jax._ops.table import TABLE  # noqa: E402
from pylayer_jax._runtime import kernel_cache  # noqa: E402
from pylayer_jax.autograd import PyLayer  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def _block(x: Any) -> Any:
    leaves = jax.tree_util.tree_leaves(x, is_leaf=lambda t: isinstance(t, paddle.Tensor))
    for leaf in leaves:
        v = leaf._value if isinstance(leaf, paddle.Tensor) else leaf
        if hasattr(v, "block_until_ready"):
            v.block_until_ready()
    return x


QUICK = [False]  # --quick: one short batch per case (a smoke run: the numbers mean little)


def timed(fn: Callable[[], Any], big: bool = False) -> float:
    if QUICK[0]:
        return per_call_us(fn, min_time=0.01, repeats=1, sync=_block, warmup=2)
    return per_call_us(fn, min_time=3.0 if big else 0.5, sync=_block)


CusTanh = cus_tanh_layer(paddle, PyLayer)  # (the benchmarks' one custom PyLayer, from _workloads)


@jax.custom_vjp
def tanh_ref(x):
    return jnp.tanh(x)


def _tanh_fwd(x):
    y = jnp.tanh(x)
    return y, y


def _tanh_bwd(y, dy):
    return (dy * (1 - y * y),)


tanh_ref.defvjp(_tanh_fwd, _tanh_bwd)


def ours() -> dict[str, tuple[float, float | None]]:
    """case -> (pylayer_jax µs, plain JAX µs or None)."""
    res: dict[str, tuple[float, float | None]] = {}
    rng = np.random.default_rng(0)
    a_np, b_np = rng.random((2, 3), np.float32), rng.random((3, 2), np.float32)
    a, b = paddle.to_tensor(a_np), paddle.to_tensor(b_np)
    ja, jb = jnp.asarray(a_np), jnp.asarray(b_np)
    jt, jadd, jmm, jsum = jax.jit(jnp.tanh), jax.jit(jnp.add), jax.jit(jnp.matmul), jax.jit(jnp.sum)
    # ops are recorded and run when a value is needed: ``_value`` makes each call run at once
    res["op tanh [2,3]"] = (timed(lambda: paddle.tanh(a)._value), timed(lambda: jt(ja)))
    res["op add [2,3]"] = (timed(lambda: (a + a)._value), timed(lambda: jadd(ja, ja)))
    res["op matmul [2,3]x[3,2]"] = (timed(lambda: paddle.matmul(a, b)._value), timed(lambda: jmm(ja, jb)))
    res["op sum [2,3]"] = (timed(lambda: paddle.sum(a)._value), timed(lambda: jsum(ja)))

    for bsz, w in [(64, 8), (1024, 1024)]:
        x_np = rng.random((bsz, w), np.float32)
        p_np = [rng.random(s, np.float32) * 0.1 for s in [(w, w), (w,), (w, w), (w,)]]
        x = paddle.to_tensor(x_np)
        params = [paddle.to_tensor(p) for p in p_np]
        for p in params:
            p.stop_gradient = False

        step = mlp_step(paddle, x, params)

        loss = jax_mlp_loss
        g = jax.jit(jax.grad(loss))
        jx, jp = jnp.asarray(x_np), [jnp.asarray(p) for p in p_np]
        res[f"mlp step {bsz}x{w}"] = (timed(step, big=w > 1000 - 1), timed(lambda g=g, jp=jp, jx=jx: g(jp, jx), big=w > 999))
        res.update(_optimizer_rows(x_np, p_np, loss, big=w > 999))

    for shape in ((2, 3), (1000, 1000)):
        x_np = rng.random(shape, np.float32)
        x = paddle.to_tensor(x_np)
        x.stop_gradient = False

        pstep = pylayer_step(CusTanh, x)
        jg = jax.jit(jax.grad(lambda v: jnp.mean(tanh_ref(v))))
        jx = jnp.asarray(x_np)
        res[f"pylayer step {list(shape)}"] = (timed(pstep, big=shape[0] > 999), timed(lambda jg=jg, jx=jx: jg(jx), big=shape[0] > 999))

    res.update(compiled_steps())

    # traced: jax.jit(jax.grad(.)) of a 3-layer MLP whose activation is the PyLayer vs a hand-written custom_vjp
    ws = [jnp.asarray(rng.random((256, 256), np.float32) * 0.1) for _ in range(3)]
    xin = jnp.asarray(rng.random((512, 256), np.float32))

    def mlp(ws, x, act):
        for w in ws:
            x = act(x @ w)
        return jnp.mean(x)

    g_ours = jax.jit(jax.grad(lambda ws, x: mlp(ws, x, CusTanh.apply)))
    g_ref = jax.jit(jax.grad(lambda ws, x: mlp(ws, x, tanh_ref)))
    res["traced jit(grad) MLP 3x256, batch 512"] = (timed(lambda: g_ours(ws, xin), big=True),
                                                   timed(lambda: g_ref(ws, xin), big=True))
    res.update(static_runs())
    res.update(shape_rows())
    return res


def compiled_steps() -> dict[str, tuple[float, float | None]]:
    """Whole training steps under ``paddle.jit.to_static`` (forward, backward, SGD step, clear_grad) against a
    hand-written ``jax.jit`` of ``jax.value_and_grad`` and an optax SGD update doing the same work."""
    res: dict[str, tuple[float, float | None]] = {}
    rng = np.random.default_rng(0)
    x_np = rng.random((64, 8), np.float32)
    p_np = [rng.random(s, np.float32) * 0.1 for s in [(8, 8), (8,), (8, 8), (8,)]]
    x = paddle.to_tensor(x_np)
    params = [paddle.to_tensor(p, stop_gradient=False) for p in p_np]
    fast = paddle.jit.to_static(mlp_train_step(paddle, params))

    jax_mlp = timed(jax_sgd(jax_mlp_loss, [jnp.asarray(p) for p in p_np], jnp.asarray(x_np)))
    res["compiled mlp step 64x8 (to_static: fwd, bwd, SGD)"] = (timed(lambda: fast(x)), jax_mlp)
    eager = mlp_train_step(paddle, [paddle.to_tensor(p, stop_gradient=False) for p in p_np])
    res["eager mlp step 64x8 (fwd, bwd, SGD)"] = (timed(lambda: eager(x)), jax_mlp)

    w_np = rng.random((2, 3), np.float32)
    w = paddle.to_tensor(w_np, stop_gradient=False)
    pfast = paddle.jit.to_static(pylayer_train_step(paddle, CusTanh, w))
    jax_pl = timed(jax_sgd(lambda ps, _: jnp.mean(tanh_ref(ps[0])), [jnp.asarray(w_np)], None))
    res["compiled pylayer step [2, 3] (to_static: fwd, bwd, SGD)"] = (timed(pfast), jax_pl)
    peager = pylayer_train_step(paddle, CusTanh, paddle.to_tensor(w_np, stop_gradient=False))
    res["eager pylayer step [2, 3] (fwd, bwd, SGD)"] = (timed(peager), jax_pl)
    return res


def jax_mlp_loss(ps: list[Any], x: Any) -> Any:
    """The loss of the ``mlp step`` rows in JAX: ``mean(tanh(x @ w1 + b1) @ w2 + b2)``."""
    w1, b1, w2, b2 = ps
    return jnp.mean(jnp.matmul(jnp.tanh(jnp.matmul(x, w1) + b1), w2) + b2)


# optax's rules with the settings of ``_workloads.optimizers``
OPTAX = {"SGD": optax.sgd(1e-3), "AdamW": optax.adamw(1e-3, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.01)}


def jax_step(loss: Callable[..., Any], ps: list[Any], x: Any, tx: Any, donate: bool = False) -> Callable[[], Any]:
    """A hand-written training step (one call a step, returning the loss): ``jax.jit`` of
    ``jax.value_and_grad`` and the optax update ``tx``; with ``donate`` the parameters and optimizer state are
    donated to it."""
    state = [tx.init(ps)]

    def jstep(ps: Any, st: Any, x: Any) -> Any:
        value, g = jax.value_and_grad(loss)(ps, x)
        upd, st = tx.update(g, st, ps)
        return optax.apply_updates(ps, upd), st, value

    jstep = jax.jit(jstep, donate_argnums=(0, 1) if donate else ())

    def run() -> Any:
        ps[:], state[0], value = jstep(list(ps), state[0], x)
        return value

    return run


def jax_sgd(loss: Callable[..., Any], ps: list[Any], x: Any, lr: float = 0.01, donate: bool = False
            ) -> Callable[[], Any]:
    """``jax_step`` with an optax SGD update."""
    return jax_step(loss, ps, x, optax.sgd(lr), donate)


def cache_sizes() -> dict[str, int]:
    """Kernels and compiled executables the package's caches hold now."""
    ops = [c for op in TABLE.values() for c in (op._fwd, op._bwd)]
    return {
        "op kernels": sum(len(c) for c in ops),
        "op executables": sum(kernel_cache.executables(c) for c in ops),
        "fused backward kernels": len(fused_backward._KERNELS),
        "buffer programs": len(deferred._PROGRAMS),
        "eval_shape entries": len(deferred._SHAPES),
    }


def new_shape_loop(n: int = 60) -> tuple[float, dict[str, int]]:
    """(µs per step, cache sizes after) of an MLP loop whose batch size never repeats (1..n)."""
    run = batch_loop(paddle, list(range(1, n + 1)))
    t0 = time.perf_counter()
    run()
    return (time.perf_counter() - t0) * 1e6 / n, cache_sizes()


def jax_new_shape_us(n: int = 20) -> float:
    """µs per step of ``jax.jit(jax.grad(loss))`` on a new batch size each step (its compile floor)."""
    rng = np.random.default_rng(0)
    ps = [jnp.asarray(rng.standard_normal(s).astype("float32")) for s in [(64, 8), (8,), (8, 1), (1,)]]

    def loss(ps, x):
        w1, b1, w2, b2 = ps
        return jnp.mean((jnp.tanh(x @ w1 + b1) @ w2 + b2) ** 2)

    g = jax.jit(jax.grad(loss))
    t0 = time.perf_counter()
    for b in range(1, n + 1):  # (device_put: jnp.asarray would compile a conversion per new shape too)
        _block(g(ps, jax.device_put(rng.standard_normal((b, 64)).astype("float32"))))
    return (time.perf_counter() - t0) * 1e6 / n


def shape_rows() -> dict[str, tuple[float, float | None]]:
    """Rows for the cliffs: a PyLayer with a float argument, numbers changing every step, a smaller last batch, a
    never-repeating batch size."""
    res: dict[str, tuple[float, float | None]] = {}
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((64, 8)).astype("float32"))
    w = paddle.to_tensor(rng.standard_normal((8, 8)).astype("float32") * 0.1, stop_gradient=False)
    res["GRL PyLayer step (float alpha, x ** 2) 64x8"] = (timed(grl_step(paddle, PyLayer, x, w, 0.5)), None)
    res["GRL PyLayer step, alpha changing every step, 64x8"] = (
        timed(grl_step(paddle, PyLayer, x, w, lambda i: 0.5 + 1e-6 * i)), None)
    res[SCHEDULE] = (timed(schedule_step(paddle, x, w)), None)
    res[LAYER_STEP] = (timed(layer_step(paddle)), None)
    epoch = batch_loop(paddle, [64] * 10 + [17])
    res["epoch 10x64 + last batch 17, MLP 64x8"] = (timed(epoch, big=True), None)
    n = 10 if QUICK[0] else 60
    per_step, _ = new_shape_loop(n)
    res[f"new batch size every step (1..{n}), per step"] = (per_step, jax_new_shape_us(min(n, 20)))
    return res


def _optimizer_rows(x_np: Any, p_np: list[Any], loss: Callable[..., Any], big: bool,
                    ) -> dict[str, tuple[float, float]]:
    """The MLP step with an SGD and with an AdamW update: ours (eager: forward, backward, step, clear_grad) vs
    ``jax.jit`` of ``jax.value_and_grad`` + the optax rule, with the batch as an argument (our step computes the
    loss's value too, and reads the batch from an input)."""
    rows = {}
    jx = jnp.asarray(x_np)
    for name, make in optimizers(paddle).items():
        params = [paddle.to_tensor(p, stop_gradient=False) for p in p_np]
        step = mlp_opt_step(paddle, paddle.to_tensor(x_np), params, make(params))
        jrun = jax_step(loss, [jnp.asarray(p) for p in p_np], jx, OPTAX[name])
        rows[f"mlp {name} step {x_np.shape[0]}x{x_np.shape[1]}"] = (timed(step, big=big), timed(jrun, big=big))
    return rows


def static_runs() -> dict[str, tuple[float, float | None]]:
    res: dict[str, tuple[float, float | None]] = {}
    paddle.enable_static()
    try:
        main_prog, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main_prog, start):
            data = paddle.static.data(name="X", shape=[None, 5], dtype="float32")
            data.stop_gradient = False
            ret = paddle.static.nn.static_pylayer(lambda x: paddle.exp(x), [data], lambda dy: 2 * paddle.exp(dy))
            grad = paddle.static.gradients([ret], data)[0]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)

        def plain(x):
            y, vjp = jax.vjp(jnp.exp, x)
            return x, 2 * jnp.exp(jnp.ones_like(y)), y

        jplain = jax.jit(plain)
        for rows in (1, 200000):
            feed_np = np.random.rand(rows, 5).astype("float32")
            feed = {"X": feed_np}
            ours_t = timed(lambda feed=feed: exe.run(main_prog, feed=feed, fetch_list=[data, grad, ret]), big=rows > 1)
            jx = feed_np
            jax_t = timed(lambda jx=jx: [np.asarray(v) for v in jplain(jx)], big=rows > 1)
            res[f"static run {rows}x5"] = (ours_t, jax_t)
    finally:
        paddle.disable_static()
    return res


def peer(python: str | None, script: str, *flags: str) -> dict[str, float]:
    if not python:
        return {}
    out = subprocess.run([python, os.path.join(HERE, script), *flags], capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        print(f"[{script} failed: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else out.returncode}]")
        return {}
    return json.loads(out.stdout.strip().splitlines()[-1])


def _find(module: str, flag: str | None, env: str) -> str | None:
    if flag:
        return flag
    if os.environ.get(env):
        return os.environ[env]
    probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
    return sys.executable if probe.returncode == 0 else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paddle-python", help="interpreter with paddlepaddle installed (or env PADDLE_PYTHON)")
    ap.add_argument("--torch-python", help="interpreter with torch installed (or env TORCH_PYTHON)")
    ap.add_argument("--quick", action="store_true", help="one short batch per case and no peers: a smoke run")
    ap.add_argument("--steps", type=int, default=0, metavar="N",
                    help="only the training-step rows (compiled and eager), N rounds, Paddle's process after ours")
    args = ap.parse_args()
    QUICK[0] = args.quick
    if args.steps:
        paddle_py = _find("paddle", args.paddle_python, "PADDLE_PYTHON")
        for _ in range(args.steps):
            _table(compiled_steps(), peer(paddle_py, "peer_paddle.py", "--steps"), {})
        return
    mine = ours()
    pd = {} if args.quick else peer(_find("paddle", args.paddle_python, "PADDLE_PYTHON"), "peer_paddle.py")
    th = {} if args.quick else peer(_find("torch", args.torch_python, "TORCH_PYTHON"), "peer_torch.py")
    _table(mine, pd, th)


def _table(mine: dict[str, tuple[float, float | None]], pd: dict[str, float], th: dict[str, float]) -> None:
    def fmt(v: float | None) -> str:
        if v is None:
            return "-"
        return f"{v / 1000:.2f} ms" if v >= 1000 else f"{v:.1f} µs"

    def ratio(a: float, b: float | None) -> str:
        return "-" if not b else f"{a / b:.2f}x"

    print(f"device: {jax.devices()[0].platform}, jax {jax.__version__}")
    print("| case | pylayer_jax | plain JAX | Paddle | PyTorch | ours/JAX | ours/Paddle | ours/PyTorch |")
    print("|---|---|---|---|---|---|---|---|")
    for case, (t, j) in mine.items():
        p, tt = pd.get(case), th.get(case)
        print(f"| {case} | {fmt(t)} | {fmt(j)} | {fmt(p)} | {fmt(tt)} | {ratio(t, j)} | {ratio(t, p)} | {ratio(t, tt)} |")


if __name__ == "__main__":
    main()
