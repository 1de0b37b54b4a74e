"""End-to-end time of short scripts, import included, each in a fresh interpreter (what a notebook user waits for).

    python benchmarks/e2e.py [--paddle-python PATH] [--repeat N] [--steps N] [--no-new-shapes] [--only dann]
                             [--base REV] [--lazy-new-shapes]
    python benchmarks/e2e.py --lib paddle --python PATH --script dann --steps 150   # one run of one library

The table's scripts: ``import`` alone; a 100-step SGD script of a 64x8 MLP on a batch of 32 (model build,
steps, a final loss read: ``_workloads.batch_loop``); the same with a new batch size every step (1, 2, ..., 100);
the PyLayer training scripts of ``_scripts.py`` (DANN with a gradient-reversal PyLayer and Adam, a custom tanh
PyLayer in an MLP with Momentum, a straight-through quantisation PyLayer on weights with SGD), written as a
Paddle user writes them: the same text runs with ``import paddle``.
Columns: pylayer_jax's first run (an empty compilation-cache directory), its second run (the directory the first
run wrote), the cache off (``PYLAYER_JAX_CACHE_DIR=``), a first run with deferral off (``PYLAYER_JAX_LAZY=0``:
every call dispatched at once; left out of the new-batch-size script, where each op then compiles for each new
shape, a minute and more, unless ``--lazy-new-shapes``), Paddle (``--paddle-python`` or ``PADDLE_PYTHON``), and the
ratios. Each cell is the median of ``--repeat`` runs (taken in turn), as wall seconds and the interpreter's CPU
seconds (user + sys: the steadier number on a busy machine); ``programs`` says how many XLA programs a run of
pylayer_jax compiled and how many it read from the cache. ``losses vs Paddle``: the largest relative difference
between the losses pylayer_jax's runs read (every 10 steps) and Paddle's (the PyLayer scripts set their weights
from NumPy; the MLP scripts keep each library's own initialisation, so their losses are not compared).
``--base REV`` adds the first runs of the package at another commit (exported with ``git archive``), taken in
turn with the others: on a shared machine only such an A/B in one round says anything.

Each script imports the library first, as a user's script does (importing JAX before pylayer_jax would leave
JAX's import outside what ``import pylayer_jax`` does about the garbage collector: ``_runtime/import_gc.py``).

Both libraries run with compiled bytecode (``PYTHONPYCACHEPREFIX`` in a temporary directory, written by an
untimed import first), as an installed package has; ``PYTHONDONTWRITEBYTECODE=1`` would otherwise recompile
every source file of pylayer_jax (not installed as a wheel here) at each start.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from _scripts import BATCH, SCRIPTS

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")

SCRIPT = """
import json, sys
sys.path.insert(0, {here!r})
events = []
import {lib} as paddle  # (first, as a script does: importing JAX before it would change what the import costs)
if {lib!r} == "pylayer_jax":  # (the import compiles nothing: tests/api/test_import_paths.py)
    import jax.monitoring
    jax.monitoring.register_event_listener(lambda name, **kw: events.append(name))
    jax.monitoring.register_event_duration_secs_listener(lambda name, secs, **kw: events.append(name))
loss = None
if {script!r} in ("mlp", "mlp_new") and {steps}:
    from _workloads import batch_loop
    sizes = list(range(1, {steps} + 1)) if {script!r} == "mlp_new" else [32] * {steps}
    loss = [batch_loop(paddle, sizes)()]
elif {script!r} != "import":
    from _scripts import SCRIPTS
    loss = SCRIPTS[{script!r}][0](paddle, {steps})
lowered = sum(e.endswith("jaxpr_to_mlir_module_duration") for e in events)
hits = events.count("/jax/compilation_cache/cache_hits")
print(json.dumps({{"loss": loss, "compiled": lowered - hits, "read": hits}}))
"""


def run_once(lib: str, python: str, script: str, steps: int, env: dict[str, str]) -> dict:
    """One fresh interpreter: wall and CPU seconds, the losses, the programs compiled and read from the cache."""
    code = SCRIPT.format(here=HERE, lib=lib, script=script, steps=steps)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        raise RuntimeError(f"{lib} run of {script} failed:\n{p.stderr[-3000:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"wall": wall, "cpu": cpu, **json.loads(p.stdout.strip().splitlines()[-1])}


def _base_env(pyc: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYLAYER_JAX_LAZY")}
    env["PYTHONPYCACHEPREFIX"] = pyc
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _find_paddle(given: str | None) -> str | None:
    for p in (given, os.environ.get("PADDLE_PYTHON")):
        if p and shutil.which(p):
            return p
    return None


def _cell(runs: list[dict]) -> str:
    if not runs:
        return "-"
    return f"{statistics.median(r['wall'] for r in runs):.2f} s (cpu {statistics.median(r['cpu'] for r in runs):.2f})"


def _ratio(a: list[dict], b: list[dict]) -> str:
    if not a or not b:
        return "-"
    wall = statistics.median(r["wall"] for r in a) / statistics.median(r["wall"] for r in b)
    cpu = statistics.median(r["cpu"] for r in a) / statistics.median(r["cpu"] for r in b)
    return f"{wall:.2f}x (cpu {cpu:.2f}x)"


def _programs(runs: list[dict]) -> str:
    return "/".join(f"{r['compiled']}+{r['read']}" for r in runs[:1]) if runs else "-"


def _agree(ours: list[dict], paddle: list[dict]) -> str:
    """The largest relative difference between the losses of pylayer_jax's runs and Paddle's first run."""
    if not paddle or paddle[0]["loss"] is None:
        return "-"
    ref = np.asarray(paddle[0]["loss"], np.float64)
    worst = max(float(np.max(np.abs(np.asarray(r["loss"], np.float64) - ref) / np.maximum(np.abs(ref), 1e-12)))
                for r in ours)
    return f"{worst:.1e}"


def export(rev: str, where: str) -> str:
    """The package at commit ``rev`` under ``where`` (``git archive``); returns the folder to put on the path."""
    root = os.path.dirname(HERE)
    tar = subprocess.run(["git", "-C", root, "archive", rev, "src/pylayer_jax"], check=True, capture_output=True).stdout
    os.makedirs(where)
    subprocess.run(["tar", "-x", "-C", where], input=tar, check=True)
    return os.path.join(where, "src")


def rows_of(steps: int, new_shapes: bool, only: str = "") -> list[tuple[str, str, int]]:
    """(row name, script, steps) of the table: ``import``, the MLP scripts, the PyLayer scripts of ``_scripts``."""
    rows = [("import", "import", 0), (f"{steps} SGD steps, 64x8 MLP, batch 32", "mlp", steps)]
    if new_shapes:  # (the longest row by far: each step compiles its kernels for its new shape)
        rows.append((f"{steps} SGD steps, new batch size every step (1..{steps})", "mlp_new", steps))
    rows += [(f"{name}: {n} steps, batch {BATCH}: {what}", name, n) for name, (_, n, what) in SCRIPTS.items()]
    return [r for r in rows if only in r[1]] if only else rows


def table(paddle_python: str | None, repeat: int, steps: int, new_shapes: bool = True, base: str | None = None,
          only: str = "", lazy_new_shapes: bool = False) -> str:
    rows = rows_of(steps, new_shapes, only)
    with tempfile.TemporaryDirectory(prefix="e2e_") as tmp:
        env = _base_env(os.path.join(tmp, "pyc"))
        base_env = {}
        if base:  # another commit's package, run in turn with this tree's (an A/B on the same machine state)
            base_src = export(base, os.path.join(tmp, "base"))
            base_env = {**env, "PYTHONPATH": base_src + os.pathsep + env["PYTHONPATH"]}
        libs = [("pylayer_jax", sys.executable, env)] + ([("paddle", paddle_python, env)] if paddle_python else [])
        if base:
            libs.append(("pylayer_jax", sys.executable, base_env))
        for lib, py, e in libs:  # bytecode written once, untimed (the scripts' modules too)
            run_once(lib, py, "ste", 1, {**e, "PYLAYER_JAX_CACHE_DIR": ""})
        res: dict[tuple[int, str], list[dict]] = {}
        for r in range(repeat):
            for i, (_, script, steps_) in enumerate(rows):
                cache = os.path.join(tmp, f"xla_{r}_{i}")
                plans = [("first", "pylayer_jax", {"PYLAYER_JAX_CACHE_DIR": cache})]
                if base:
                    plans.append(("base", "pylayer_jax", {**base_env, "PYLAYER_JAX_CACHE_DIR": cache + "_base"}))
                if steps_:
                    plans += [("second", "pylayer_jax", {"PYLAYER_JAX_CACHE_DIR": cache}),
                              ("off", "pylayer_jax", {"PYLAYER_JAX_CACHE_DIR": ""})]
                if steps_ and (script != "mlp_new" or lazy_new_shapes):  # (deferral off: a minute and more)
                    plans.append(("lazy0", "pylayer_jax", {"PYLAYER_JAX_CACHE_DIR": cache + "_lazy0",
                                                           "PYLAYER_JAX_LAZY": "0"}))
                if paddle_python:
                    plans.append(("paddle", "paddle", {}))
                for col, lib, extra in plans:
                    py = paddle_python if lib == "paddle" else sys.executable
                    res.setdefault((i, col), []).append(run_once(lib, py, script, steps_, {**env, **extra}))
    head = ["script", "pylayer_jax first run", "second run (cache)", "cache off", "LAZY=0 first run", "Paddle",
            "first/Paddle", "second/Paddle", "first/LAZY=0", "programs compiled+read (first, second, off, LAZY=0)",
            "losses vs Paddle"]
    if base:
        head[5:5] = [f"first run at {base}"]
        head.append("first/base")
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, (name, script, _) in enumerate(rows):
        g = {c: res.get((i, c), []) for c in ("first", "second", "off", "lazy0", "paddle", "base")}
        progs = ", ".join(_programs(g[c]) for c in ("first", "second", "off", "lazy0"))
        ours = g["first"] + g["second"] + g["off"] + g["lazy0"]
        cells = [name, _cell(g["first"]), _cell(g["second"]), _cell(g["off"]), _cell(g["lazy0"]), _cell(g["paddle"]),
                 _ratio(g["first"], g["paddle"]), _ratio(g["second"], g["paddle"]), _ratio(g["first"], g["lazy0"]),
                 progs, "-" if script in ("import", "mlp", "mlp_new") else _agree(ours, g["paddle"])]
        if base:
            cells[5:5] = [_cell(g["base"])]
            cells.append(_ratio(g["first"], g["base"]))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", help="one run of this library (pylayer_jax or paddle) instead of the table")
    ap.add_argument("--python", default=sys.executable, help="the interpreter of --lib")
    ap.add_argument("--script", default="mlp", help="with --lib: import, mlp, mlp_new or a script of _scripts.py")
    ap.add_argument("--paddle-python", help="interpreter with paddlepaddle installed (or env PADDLE_PYTHON)")
    ap.add_argument("--steps", type=int, default=100, help="steps of the MLP scripts (and of --script)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-new-shapes", action="store_true", help="leave the new-batch-size-every-step row out")
    ap.add_argument("--only", default="", help="only the rows whose script name contains this (import, mlp, dann...)")
    ap.add_argument("--lazy-new-shapes", action="store_true",
                    help="run the new-batch-size script with PYLAYER_JAX_LAZY=0 too (each op compiles per shape)")
    ap.add_argument("--base", help="also run the package at this commit (a column of first runs), in turn with this tree")
    a = ap.parse_args()
    if a.lib:
        r = run_once(a.lib, a.python, a.script, a.steps, {**os.environ})
        print(f"{a.lib}: {r['wall']:.2f} s (cpu {r['cpu']:.2f} s) for {a.steps} steps of {a.script}, import included"
              f" ({r['compiled']} programs compiled, {r['read']} read); losses {r['loss']}")
        return
    print(table(_find_paddle(a.paddle_python), a.repeat, a.steps, not a.no_new_shapes, a.base, a.only,
                a.lazy_new_shapes))


if __name__ == "__main__":
    main()
