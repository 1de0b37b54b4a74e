"""Cases for ``paddle.profiler``, run by ``record_paddle_profiler.py`` with real Paddle and by
``tests/profiler/test_profiler_paddle.py`` with pylayer_jax: the same function, ``record``, on either library.
Times differ between runs and libraries, so printed numbers are recorded as ``N``: the format is compared, and the
tests check the numbers against their own clock."""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import re
import tempfile
import time
import warnings
from typing import Any


def _outcome(fn: Any) -> Any:
    try:
        return ["ok", fn()]
    except Exception as e:  # noqa: BLE001  (recording what each library raises)
        return ["raises", type(e).__name__]


def numbers_out(text: str) -> str:
    """``text`` with every number written as ``N`` (and runs of spaces as one)."""
    return re.sub(r" +", " ", re.sub(r"-?\d+(\.\d+)?|inf", "N", text))


def _train(paddle: Any, prof: Any, steps: int, num_samples: int | None = 8, sleep: float = 0.0) -> None:
    net = paddle.nn.Linear(4, 2)
    for _ in range(steps):
        with paddle.profiler.RecordEvent("my_block"):
            net(paddle.ones([8, 4])).mean()
            if sleep:
                time.sleep(sleep)
        prof.step(num_samples=num_samples)


def _drop() -> None:
    """Let the last Profiler go (Paddle's native profiler exists once: a new Profiler needs the last one gone)."""
    gc.collect()


def record(paddle: Any) -> dict[str, Any]:
    P = paddle.profiler
    out: dict[str, Any] = {}
    out["ProfilerState"] = [[m.name, m.value] for m in P.ProfilerState]
    out["ProfilerTarget"] = [[m.name, m.value] for m in P.ProfilerTarget]
    out["SortedKeys"] = [[m.name, m.value] for m in P.SortedKeys]
    out["SummaryView"] = [[m.name, m.value] for m in P.SummaryView]
    out["__all__"] = sorted(P.__all__)
    for kw in [{"closed": 1, "ready": 1, "record": 2, "repeat": 2, "skip_first": 1},
               {"closed": 0, "ready": 2, "record": 3}, {"closed": 2, "ready": 0, "record": 1, "repeat": 1},
               {"closed": 0, "ready": 0, "record": 1}]:
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            s = P.make_scheduler(**kw)
        out[f"make_scheduler {sorted(kw.items())}"] = {
            "states": [s(i).name for i in range(14)], "warnings": [w.category.__name__ for w in got]}
    for kw in [{"closed": 1, "ready": 1, "record": 0}, {"closed": -1, "ready": 1, "record": 1}]:
        out[f"make_scheduler {sorted(kw.items())}"] = _outcome(lambda kw=kw: P.make_scheduler(**kw))
    out["scheduler step -1"] = _outcome(lambda: P.make_scheduler(closed=1, ready=1, record=1)(-1))
    for rng in [(1, 4), (0, 3), (3, 6)]:
        prof = None
        _drop()
        prof = P.Profiler(scheduler=rng, on_trace_ready=lambda p: None)
        out[f"scheduler {rng}"] = [prof.scheduler(i).name for i in range(9)]
    out["scheduler (4, 2)"] = _outcome(lambda: P.Profiler(scheduler=(4, 2)))

    # when on_trace_ready runs: the step numbers it sees
    for name, sched, steps in [("range (1, 4)", (1, 4), 6), ("range (1, 4), stopped at 3", (1, 4), 3),
                               ("periodic", P.make_scheduler(closed=1, ready=1, record=2, repeat=2), 10),
                               ("default", None, 3)]:
        seen: list[int] = []
        prof = None
        _drop()
        prof = P.Profiler(scheduler=sched, on_trace_ready=lambda p, seen=seen: seen.append(p.step_num))
        prof.start()
        _train(paddle, prof, steps)
        prof.stop()
        out[f"on_trace_ready {name}"] = seen
    seen2: list[int] = []
    prof = None
    _drop()
    with P.Profiler(scheduler=(0, 2), on_trace_ready=lambda p: seen2.append(p.step_num)) as prof:
        _train(paddle, prof, 3)
    out["on_trace_ready as a context manager"] = seen2

    # timer_only: step_info and the summary stop() prints
    prof = None
    _drop()
    prof = P.Profiler(timer_only=True, on_trace_ready=lambda p: seen2.append(-1))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        prof.start()
        _train(paddle, prof, 3)
        info = prof.step_info()
        info_steps = prof.step_info(unit="images")
        _train(paddle, prof, 12, sleep=0.001)
        prof.stop()
    out["timer_only step_info"] = numbers_out(info)
    out["timer_only step_info after reset"] = numbers_out(info_steps)
    out["timer_only stop prints"] = numbers_out(buf.getvalue()).splitlines()
    out["timer_only on_trace_ready"] = -1 in seen2
    prof = None
    _drop()
    prof = P.Profiler(timer_only=True)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        prof.start()
        _train(paddle, prof, 12, num_samples=None)
        steps_info = prof.step_info()
        prof.stop()
    out["timer_only without samples step_info"] = numbers_out(steps_info)
    out["timer_only without samples stop prints"] = numbers_out(buf.getvalue()).splitlines()
    prof = None
    _drop()
    prof = P.Profiler(timer_only=True)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        prof.start()
        _train(paddle, prof, 5)
        prof.stop()
    out["timer_only few steps stop prints"] = buf.getvalue().splitlines()

    # export_chrome_tracing: the file it writes
    with tempfile.TemporaryDirectory() as d:
        prof = None
        _drop()
        prof = P.Profiler(scheduler=(0, 2), on_trace_ready=P.export_chrome_tracing(d, "worker"))
        prof.start()
        _train(paddle, prof, 3)
        prof.stop()
        files = sorted(os.listdir(d))
        out["export files"] = [re.sub(r"\d", "N", f) for f in files if f.endswith(".json")]
        with open(os.path.join(d, [f for f in files if f.endswith(".json")][0])) as fh:
            trace = json.load(fh)
        events = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
        for e in events:  # (a name ends with its duration: "my_block[306.185 us]")
            e["name"] = re.sub(r"\[[^]]*\]$", "", e["name"])
        out["export top keys"] = sorted(trace)
        steps = sorted({e["name"] for e in events if e.get("name", "").startswith("ProfileStep")})
        out["export ProfileStep names"] = steps
        out["export has my_block"] = any(e.get("name") == "my_block" for e in events)
        out["export my_block keys"] = sorted(next(e for e in events if e.get("name") == "my_block"))
        blk = next(e for e in events if e.get("name") == "my_block")
        out["export my_block fields"] = [blk["ph"], blk["cat"], sorted(blk["args"]), type(blk["ts"]).__name__,
                                         str(blk["tid"]).endswith("(Python)")]
    with tempfile.TemporaryDirectory() as d:
        sub = os.path.join(d, "a", "b")
        P.export_chrome_tracing(sub)
        out["export_chrome_tracing makes the directory"] = os.path.isdir(sub)

    # RecordEvent forms
    ev = P.RecordEvent("x")
    with ev as entered:
        out["RecordEvent enter returns itself"] = entered is ev

    @P.RecordEvent("decorated")
    def f(a: int) -> int:
        return a + 1

    out["RecordEvent as a decorator"] = f(1)
    out["RecordEvent outside a profiler"] = _outcome(lambda: [P.RecordEvent("y").begin(), P.RecordEvent("y").end()])
    return out
