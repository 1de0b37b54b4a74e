"""End-to-end time of short scripts, import included, each in a fresh interpreter (what a notebook user waits for).

    python benchmarks/e2e.py [--paddle-python PATH] [--repeat N] [--steps N] [--no-new-shapes] [--base REV]
    python benchmarks/e2e.py --lib paddle --python PATH [--new-shapes]    # one run of one library

The table's scripts: ``import`` alone; a 100-step SGD script of a 64x8 MLP on a batch of 32 (model build,
steps, a final loss read: ``_workloads.batch_loop``); the same with a new batch size every step (1, 2, ..., 100).
Columns: pylayer_jax's first run (an empty compilation-cache directory), its second run (the directory the first
run wrote), the cache off (``PYLAYER_JAX_CACHE_DIR=``), Paddle (``--paddle-python`` or ``PADDLE_PYTHON``), and the
ratios. Each cell is the median of ``--repeat`` runs (taken in turn), as wall seconds and the interpreter's CPU
seconds (user + sys: the steadier number on a busy machine); ``programs`` says how many XLA programs a run of
pylayer_jax compiled and how many it read from the cache. ``--base REV`` adds the first runs of the package at
another commit (exported with ``git archive``), taken in turn with the others: on a shared machine only such an
A/B in one round says anything.

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
if {steps}:
    from _workloads import batch_loop
    sizes = list(range(1, {steps} + 1)) if {new_shapes} else [32] * {steps}
    loss = batch_loop(paddle, sizes)()
lowered = sum(e.endswith("jaxpr_to_mlir_module_duration") for e in events)
hits = events.count("/jax/compilation_cache/cache_hits")
print(json.dumps({{"loss": loss, "compiled": lowered - hits, "read": hits}}))
"""


def run_once(lib: str, python: str, steps: int, new_shapes: bool, env: dict[str, str]) -> dict:
    """One fresh interpreter: wall and CPU seconds, the loss, the programs compiled and read from the cache."""
    code = SCRIPT.format(here=HERE, lib=lib, steps=steps, new_shapes=new_shapes)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        raise RuntimeError(f"{lib} run failed:\n{p.stderr[-3000:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"wall": wall, "cpu": cpu, **json.loads(p.stdout.strip().splitlines()[-1])}


def e2e_seconds(lib: str = "pylayer_jax", python: str = sys.executable, steps: int = 100, new_shapes: bool = False,
                env: dict[str, str] | None = None) -> float:
    """Wall seconds of one fresh interpreter running ``steps`` SGD steps of a 64x8 MLP with ``lib``."""
    return run_once(lib, python, steps, new_shapes, {**os.environ, **(env or {})})["wall"]


def _base_env(pyc: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
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


def export(rev: str, where: str) -> str:
    """The package at commit ``rev`` under ``where`` (``git archive``); returns the folder to put on the path."""
    root = os.path.dirname(HERE)
    tar = subprocess.run(["git", "-C", root, "archive", rev, "src/pylayer_jax"], check=True, capture_output=True).stdout
    os.makedirs(where)
    subprocess.run(["tar", "-x", "-C", where], input=tar, check=True)
    return os.path.join(where, "src")


def table(paddle_python: str | None, repeat: int, steps: int, new_shapes: bool = True, base: str | None = None) -> str:
    rows = [("import", 0, False), (f"{steps} SGD steps, 64x8 MLP, batch 32", steps, False)]
    if new_shapes:  # (the longest row by far: each step compiles its kernels for its new shape)
        rows.append((f"{steps} SGD steps, new batch size every step (1..{steps})", steps, True))
    with tempfile.TemporaryDirectory(prefix="e2e_") as tmp:
        env = _base_env(os.path.join(tmp, "pyc"))
        base_env = {}
        if base:  # another commit's package, run in turn with this tree's (an A/B on the same machine state)
            base_src = export(base, os.path.join(tmp, "base"))
            base_env = {**env, "PYTHONPATH": base_src + os.pathsep + env["PYTHONPATH"]}
        libs = [("pylayer_jax", sys.executable, env)] + ([("paddle", paddle_python, env)] if paddle_python else [])
        if base:
            libs.append(("pylayer_jax", sys.executable, base_env))
        for lib, py, e in libs:  # bytecode written once, untimed
            run_once(lib, py, 0, False, {**e, "PYLAYER_JAX_CACHE_DIR": ""})
        res: dict[tuple[int, str], list[dict]] = {}
        for r in range(repeat):
            for i, (_, steps_, new) in enumerate(rows):
                cache = os.path.join(tmp, f"xla_{r}_{i}")
                plans = [("first", "pylayer_jax", {"PYLAYER_JAX_CACHE_DIR": cache})]
                if base:
                    plans.append(("base", "pylayer_jax", {**base_env, "PYLAYER_JAX_CACHE_DIR": cache + "_base"}))
                if steps_:
                    plans += [("second", "pylayer_jax", {"PYLAYER_JAX_CACHE_DIR": cache}),
                              ("off", "pylayer_jax", {"PYLAYER_JAX_CACHE_DIR": ""})]
                if paddle_python:
                    plans.append(("paddle", "paddle", {}))
                for col, lib, extra in plans:
                    py = paddle_python if lib == "paddle" else sys.executable
                    res.setdefault((i, col), []).append(run_once(lib, py, steps_, new, {**env, **extra}))
    head = ["script", "pylayer_jax first run", "second run (cache)", "cache off", "Paddle", "first/Paddle",
            "second/Paddle", "programs compiled+read (first, second, off)"]
    if base:
        head[4:4] = [f"first run at {base}"]
        head.append("first/base")
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, (name, _, _) in enumerate(rows):
        g = {c: res.get((i, c), []) for c in ("first", "second", "off", "paddle", "base")}
        progs = ", ".join(_programs(g[c]) for c in ("first", "second", "off"))
        cells = [name, _cell(g["first"]), _cell(g["second"]), _cell(g["off"]), _cell(g["paddle"]),
                 _ratio(g["first"], g["paddle"]), _ratio(g["second"], g["paddle"]), progs]
        if base:
            cells[4:4] = [_cell(g["base"])]
            cells.append(_ratio(g["first"], g["base"]))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", help="one run of this library (pylayer_jax or paddle) instead of the table")
    ap.add_argument("--python", default=sys.executable, help="the interpreter of --lib")
    ap.add_argument("--paddle-python", help="interpreter with paddlepaddle installed (or env PADDLE_PYTHON)")
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--new-shapes", action="store_true", help="with --lib: a new batch size every step")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-new-shapes", action="store_true", help="leave the new-batch-size-every-step row out")
    ap.add_argument("--base", help="also run the package at this commit (a column of first runs), in turn with this tree")
    a = ap.parse_args()
    if a.lib:
        r = run_once(a.lib, a.python, a.steps, a.new_shapes, {**os.environ})
        print(f"{a.lib}: {r['wall']:.2f} s (cpu {r['cpu']:.2f} s) for {a.steps} steps, import included")
        return
    print(table(_find_paddle(a.paddle_python), a.repeat, a.steps, not a.no_new_shapes, a.base))


if __name__ == "__main__":
    main()
