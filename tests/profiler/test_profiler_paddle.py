"""``paddle.profiler`` against Paddle 3.3.1 (enums, schedulers, when ``on_trace_ready`` runs, the timer's printed
formats, the exported trace: recorded by ``tests/record_paddle_profiler.py``, cases in ``tests/profiler_cases.py``),
its times against the test's own clock, and misuse."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import time
import warnings

import pytest
from profiler_cases import record

import pylayer_jax as paddle
import pylayer_jax.profiler as P
from pylayer_jax._exec import deferred

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_profiler.json")) as fh:
    PADDLE = json.load(fh)
OURS = record(paddle)

# Paddle asserts (AssertionError) on bad scheduler arguments; a ValueError says what was wrong here
CLEARER = {"make_scheduler [('closed', -1), ('ready', 1), ('record', 1)]",
           "make_scheduler [('closed', 1), ('ready', 1), ('record', 0)]", "scheduler (4, 2)", "scheduler step -1"}


@pytest.mark.parametrize("key", sorted(k for k in PADDLE if k != "paddle"))
def test_matches_paddle(key: str) -> None:
    if key in CLEARER:
        assert PADDLE[key] == ["raises", "AssertionError"] and OURS[key] == ["raises", "ValueError"]
    elif key == "__all__":  # (Paddle's protobuf export and its loader are there, raising NotImplementedError)
        assert sorted(OURS[key]) == PADDLE[key]
    else:
        assert OURS[key] == PADDLE[key]


def _steps(prof, sleeps: list[float], num_samples: int | None = 4) -> None:
    for s in sleeps:
        time.sleep(s)
        prof.step(num_samples)


def _numbers(line: str) -> list[float]:
    return [float(v) for v in re.findall(r"\d+\.\d+|inf", line)]


def test_step_times_follow_the_clock() -> None:
    prof = P.Profiler(timer_only=True)
    prof.start()
    t0 = time.perf_counter()
    _steps(prof, [0.02, 0.02])
    elapsed = time.perf_counter() - t0
    avg, ips = _numbers(prof.step_info())
    assert 0.02 <= avg <= elapsed / 2 + 1e-3 and ips == pytest.approx(4 / avg, rel=2e-3)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        _steps(prof, [0.001] * 8 + [0.004, 0.008, 0.012])  # (10 warm-up steps in all, then the three summed)
        prof.stop()
    lines = buf.getvalue().splitlines()
    batch, speed = _numbers(lines[3]), _numbers(lines[4])
    # avg, max, min of the three steps after the warm-up (Paddle's timer would print inf as their minimum)
    last = prof._all_steps[-3:]
    assert all(t >= s for t, s in zip(last, [0.004, 0.008, 0.012]))
    assert batch == pytest.approx([sum(last) / 3, max(last), min(last)], abs=1e-5)
    assert speed[1:] == pytest.approx([4 / min(last), 4 / max(last)], rel=1e-6)
    assert speed[0] == pytest.approx(12 / sum(last), rel=1e-6)


def test_a_step_includes_the_work_recorded_in_it() -> None:
    prof = P.Profiler(timer_only=True)
    prof.start()
    x = paddle.randn([16])
    x.stop_gradient = False
    (x * 3).sum()  # recorded, not run yet
    assert not deferred.idle()
    prof.step()
    assert deferred.idle()  # (the step waited for it)
    prof.stop()


def test_summary_prints_steps_and_recorded_events(capsys) -> None:
    with P.Profiler(scheduler=(1, 3), on_trace_ready=lambda p: None) as prof:
        for _ in range(4):
            with P.RecordEvent("block"):
                time.sleep(0.005)
            prof.step()
    prof.summary(time_unit="ms")
    out = capsys.readouterr().out
    assert "Step Summary" in out and "Time unit: ms, every step" in out
    rows = {ln.split()[0]: ln for ln in out.splitlines() if ln.startswith(("ProfileStep", "block"))}
    assert rows["ProfileStep"].split()[1] == "2" and rows["block"].split()[1] == "2"  # (steps 1 and 2 recorded)
    total, avg, mx, mn, ratio = _numbers(rows["block"])
    assert 5.0 <= mn <= avg <= mx and total == pytest.approx(2 * avg, abs=0.02) and 0 < ratio <= 100
    prof.summary(views=P.SummaryView.UDFView)
    assert "Step Summary" not in capsys.readouterr().out


def test_the_export_holds_the_steps_events_and_xlas_trace(tmp_path) -> None:
    net = paddle.nn.Linear(4, 2)
    with P.Profiler(scheduler=(0, 2), on_trace_ready=P.export_chrome_tracing(str(tmp_path), "w")) as prof:
        for _ in range(3):
            with P.RecordEvent("fwd", P.TracerEventType.Forward):
                float(net(paddle.ones([8, 4])).sum())
            prof.step(8)
    (f,) = os.listdir(tmp_path)
    events = json.loads((tmp_path / f).read_text())["traceEvents"]
    ours = [e for e in events if e.get("pid") == os.getpid()]
    names = sorted(re.sub(r"\[.*\]$", "", e["name"]) for e in ours)
    assert names == ["ProfileStep#0", "ProfileStep#1", "fwd", "fwd"]
    assert {e["cat"] for e in ours} == {"ProfileStep", "Forward"}
    xla = [e for e in events if e.get("pid") != os.getpid() and e.get("ph") == "X"]
    assert xla  # XLA's trace of the programs that ran
    lo, hi = min(e["ts"] for e in ours), max(e["ts"] + e["dur"] for e in ours)
    assert any(lo - 1e5 <= e["ts"] <= hi + 1e5 for e in xla)  # (on the same clock)


def test_the_default_on_trace_ready_writes_to_profiler_log(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    prof = P.Profiler()
    assert not (tmp_path / "profiler_log").exists()  # (made when it first writes)
    prof.start()
    _steps(prof, [0.0])
    prof.stop()
    (f,) = os.listdir(tmp_path / "profiler_log")
    assert re.fullmatch(r"host_.*pid_\d+_time_[\d_]+\.paddle_trace\.json", f)


@pytest.mark.parametrize("call, err, match", [
    (lambda: P.Profiler(timer_only=True).step(), RuntimeError, r"Profiler.step: the profiler was not started"),
    (lambda: P.Profiler().stop(), RuntimeError, r"Profiler.stop: the profiler was not started"),
    (lambda: P.Profiler(scheduler="every step"), TypeError,
     r"Profiler: scheduler must be a callable, a \(start_step, end_step\) pair or None, but received str"),
    (lambda: P.Profiler(scheduler=(3, 3)), ValueError, r"a scheduler range must be \(start_step, end_step\) with "
                                                       r"end_step > start_step, but received \(3, 3\)"),
    (lambda: P.Profiler(targets=["cpu"]), TypeError, r"Profiler: targets must hold ProfilerTarget members"),
    (lambda: P.Profiler(timer_only=1), TypeError, r"Profiler: timer_only must be a bool, but received int"),
    (lambda: P.Profiler(on_trace_ready="dir"), TypeError, r"Profiler: on_trace_ready must be callable"),
    (lambda: P.make_scheduler(closed=1, ready=1, record=0), ValueError,
     r"make_scheduler: record must be an int > 0, but received 0"),
    (lambda: P.make_scheduler(closed=1, ready=1, record=1)(-1), ValueError,
     r"profiler scheduler: the step must be an int >= 0, but received -1"),
    (lambda: P.Profiler().export("t.pb", "pb"), ValueError, r"Profiler.export: format must be 'json'"),
    (lambda: P.Profiler().export(""), ValueError, r"Profiler.export: path must name the file to write"),
    (lambda: P.Profiler().summary(time_unit="min"), ValueError,
     r"Profiler.summary: time_unit must be 's', 'ms', 'us' or 'ns', but received 'min'"),
    (lambda: P.Profiler().summary(sorted_by="CPUTotal"), TypeError, r"sorted_by must be a SortedKeys member"),
    (lambda: P.Profiler().summary(views=["OverView"]), TypeError, r"views must be SummaryView members"),
    (lambda: P.RecordEvent(3), TypeError, r"RecordEvent: name must be a str, but received int"),
    (lambda: P.RecordEvent("a", "Forward"), TypeError, r"RecordEvent: event_type must be a TracerEventType member"),
    (lambda: P.export_chrome_tracing("/proc/no/such/dir"), RuntimeError,
     r"export_chrome_tracing: cannot create the directory '/proc/no/such/dir'"),
])
def test_misuse(call, err, match) -> None:
    with pytest.raises(err, match=match):
        call()


def test_step_arguments_are_checked_and_gpu_target_warns_without_a_gpu() -> None:
    prof = P.Profiler(timer_only=True)
    prof.start()
    with pytest.raises(ValueError, match=r"Profiler.step: num_samples must be an int >= 0 or None, but received -1"):
        prof.step(-1)
    with pytest.raises(TypeError, match=r"Profiler.step_info: unit must be a str such as 'images'"):
        prof.step_info(unit=3)
    prof.stop()
    if not paddle.device.cuda.device_count():
        with pytest.warns(UserWarning, match=r"Profiling ProfilerTarget.GPU is not supported in current context"):
            p = P.Profiler(targets=[P.ProfilerTarget.CPU, P.ProfilerTarget.GPU])
        assert p.targets == {P.ProfilerTarget.CPU}
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        P.make_scheduler(closed=0, ready=0, record=1)
    assert "record data after enabling profiler immediately" in str(got[0].message)
