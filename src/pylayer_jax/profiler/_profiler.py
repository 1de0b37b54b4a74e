"""``paddle.profiler``: time training steps and record what ran (layer L6).

``Profiler`` times each ``step()`` (after waiting for the work queued so far, so that a step's time holds its
computation: ops here are recorded and run later, and JAX dispatches asynchronously), prints Paddle's
"Perf Summary" of the step times at ``stop()``, and, unless ``timer_only``, records a trace while its scheduler says
RECORD: the steps (``ProfileStep#n``), every ``RecordEvent``, and XLA's own trace of the compiled programs
(``jax.profiler``, where it can start: one trace at a time in a process). ``on_trace_ready`` is called when a
recording ends, as in Paddle; ``export_chrome_tracing(dir)`` writes the trace as Chrome-trace JSON
(``chrome://tracing``, Perfetto), XLA's events included.

What differs from Paddle: there is no per-operator or per-kernel table (ops are fused into XLA programs; XLA's
trace shows its kernels in the exported file), ``summary()`` prints the step times and the recorded events only,
and ``record_shapes``, ``profile_memory``, ``with_flops`` and ``emit_nvtx`` add nothing (they are kept as
attributes); the default ``on_trace_ready`` makes ``./profiler_log/`` when it first writes, not when the Profiler is
made; ``export`` writes JSON only (Paddle's protobuf format is not available).
"""

from __future__ import annotations

import datetime
import gzip
import json
import os
import shutil
import socket
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from contextlib import ContextDecorator
from enum import Enum
from typing import Any

import jax

from .._runtime import device as _device
from ..device._query import wait_for
from ._timer import StepTimer


class SummaryView(Enum):
    DeviceView = 0
    OverView = 1
    ModelView = 2
    DistributedView = 3
    KernelView = 4
    OperatorView = 5
    MemoryView = 6
    MemoryManipulationView = 7
    UDFView = 8


class ProfilerState(Enum):
    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3  # the last step of a RECORD run


class ProfilerTarget(Enum):
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


class SortedKeys(Enum):
    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


class TracerEventType(Enum):
    Operator = 0
    Dataloader = 1
    ProfileStep = 2
    CudaRuntime = 3
    Kernel = 4
    Memcpy = 5
    Memset = 6
    UserDefined = 7
    OperatorInner = 8
    Forward = 9
    Backward = 10
    Optimization = 11
    Communication = 12
    PythonOp = 13
    PythonUserDefined = 14
    DygraphKernelLaunch = 15
    StaticKernelLaunch = 16


_RECORDING = (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)


def _count(name: str, v: Any, positive: bool = False) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < (1 if positive else 0):
        raise ValueError(
            f"make_scheduler: {name} must be an int {'> 0' if positive else '>= 0'}, but received {v!r}."
        )
    return v


def make_scheduler(*, closed: int, ready: int, record: int, repeat: int = 0,
                   skip_first: int = 0) -> Callable[[int], ProfilerState]:
    """A scheduler: after ``skip_first`` steps, periods of ``closed`` CLOSED, ``ready`` READY and ``record``
    recording steps (the last one RECORD_AND_RETURN), ``repeat`` times (0: for ever), then CLOSED.

    >>> import pylayer_jax.profiler as profiler
    >>> s = profiler.make_scheduler(closed=1, ready=1, record=2)
    >>> [s(i).name for i in range(4)]
    ['CLOSED', 'READY', 'RECORD', 'RECORD_AND_RETURN']
    """
    closed, ready, record = _count("closed", closed), _count("ready", ready), _count("record", record, True)
    repeat, skip_first = _count("repeat", repeat), _count("skip_first", skip_first)
    if ready == 0:
        warnings.warn("Profiler will record data after enabling profiler immediately, some data collected at the "
                      "beginning of profiling may be 'noisy' because of overhead.", stacklevel=2)
    period = closed + ready + record

    def scheduler(step: int) -> ProfilerState:
        if not isinstance(step, int) or step < 0:
            raise ValueError(f"profiler scheduler: the step must be an int >= 0, but received {step!r}.")
        if step < skip_first:
            return ProfilerState.CLOSED
        step -= skip_first
        if repeat > 0 and step // period >= repeat:
            return ProfilerState.CLOSED
        at = step % period
        if at < closed:
            return ProfilerState.CLOSED
        if at < closed + ready:
            return ProfilerState.READY
        return ProfilerState.RECORD_AND_RETURN if at == period - 1 else ProfilerState.RECORD

    return scheduler


def _always_record(step: int) -> ProfilerState:
    return ProfilerState.RECORD


def export_chrome_tracing(dir_name: str, worker_name: str | None = None) -> Callable[[Profiler], None]:
    """An ``on_trace_ready`` that writes each recording to ``dir_name`` as
    ``<worker_name>_time_<date>.paddle_trace.json`` (Chrome-trace JSON; worker name by default
    ``host_<host>pid_<pid>``)."""
    try:
        os.makedirs(dir_name, exist_ok=True)
    except OSError as e:
        raise RuntimeError(f"export_chrome_tracing: cannot create the directory {dir_name!r} for the traces: {e}.") \
            from None
    return _writer(dir_name, worker_name)


def _writer(dir_name: str, worker_name: str | None) -> Callable[[Profiler], None]:
    def handle(prof: Profiler) -> None:
        worker = worker_name or f"host_{socket.gethostname()}pid_{os.getpid()}"
        stamp = datetime.datetime.now().strftime("%Y_%m_%d_%H_%M_%S_%f")
        os.makedirs(dir_name, exist_ok=True)
        prof.export(os.path.join(dir_name, f"{worker}_time_{stamp}.paddle_trace.json"), "json")

    return handle


# the profilers that are recording now (RecordEvent adds its events to them)
_recording: list[Profiler] = []
_lock = threading.Lock()


class _Result:
    """One recording: host events ``(name, category, start, end, thread id)`` in seconds of perf_counter, and
    XLA's trace events if it ran."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, float, float, int]] = []
        self.xla_events: list[dict[str, Any]] = []  # (their times in microseconds from xla_start)
        self.xla_start = 0.0


class Profiler:
    """Time training steps and record a trace (see the module notes).

    >>> import pylayer_jax as paddle
    >>> import pylayer_jax.profiler as profiler
    >>> prof = profiler.Profiler(timer_only=True)
    >>> prof.start()
    >>> for i in range(3):
    ...     y = paddle.ones([4]) * i
    ...     prof.step(num_samples=4)
    >>> prof.step_info().startswith(" batch_cost:")
    True
    >>> prof.stop()
    """

    def __init__(self, *, targets: Iterable[ProfilerTarget] | None = None,
                 scheduler: Callable[[int], ProfilerState] | tuple[int, int] | None = None,
                 on_trace_ready: Callable[[Profiler], None] | None = None, record_shapes: bool = False,
                 profile_memory: bool = False, timer_only: bool = False, emit_nvtx: bool = False,
                 custom_device_types: list[str] | None = None, with_flops: bool = False) -> None:
        supported = [ProfilerTarget.CPU, ProfilerTarget.CUSTOM_DEVICE] + ([ProfilerTarget.GPU] if _device.gpus() else [])
        if targets:
            targets = list(targets)
            for t in targets:
                if not isinstance(t, ProfilerTarget):
                    raise TypeError(f"Profiler: targets must hold ProfilerTarget members, but received {t!r}.")
            for t in [t for t in targets if t not in supported]:
                warnings.warn(f"Profiling {t} is not supported in current context.", stacklevel=2)
            self.targets = {t for t in targets if t in supported}
        else:
            self.targets = set(supported)
        if callable(scheduler):
            self.scheduler = scheduler
        elif isinstance(scheduler, tuple | list):
            if len(scheduler) != 2 or not all(isinstance(v, int) for v in scheduler) or scheduler[1] <= scheduler[0]:
                raise ValueError(
                    f"Profiler: a scheduler range must be (start_step, end_step) with end_step > start_step, but "
                    f"received {scheduler!r}."
                )
            start, end = max(scheduler[0], 0), scheduler[1]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # (a range from step 0 has no READY step, on purpose)
                self.scheduler = make_scheduler(closed=max(start - 1, 0), ready=1 if start >= 1 else 0,
                                                record=end - start, repeat=1)
        elif scheduler is None:
            self.scheduler = _always_record
        else:
            raise TypeError(
                f"Profiler: scheduler must be a callable, a (start_step, end_step) pair or None, but received "
                f"{type(scheduler).__name__}."
            )
        if on_trace_ready is not None and not callable(on_trace_ready):
            raise TypeError(f"Profiler: on_trace_ready must be callable, but received {type(on_trace_ready).__name__}.")
        self.on_trace_ready = on_trace_ready if on_trace_ready is not None else _writer("./profiler_log/", None)
        for name, flag in (("record_shapes", record_shapes), ("profile_memory", profile_memory),
                           ("timer_only", timer_only), ("emit_nvtx", emit_nvtx), ("with_flops", with_flops)):
            if not isinstance(flag, bool):
                raise TypeError(f"Profiler: {name} must be a bool, but received {type(flag).__name__}.")
        self.record_shapes, self.profile_memory, self.with_flops = record_shapes, profile_memory, with_flops
        self.timer_only, self.emit_nvtx = timer_only, emit_nvtx
        self.custom_device_types = list(custom_device_types or [])
        self.step_num = 0
        self.previous_state = ProfilerState.CLOSED
        self.current_state = self.scheduler(0)
        self.profiler_result: _Result | None = None
        self._timer: StepTimer | None = None
        self._all_steps: list[float] = []
        self._live: _Result | None = None
        self._step_began = 0.0
        self._xla_dir: str | None = None

    # ---- the run -----------------------------------------------------------------------------------------------
    def __enter__(self) -> Profiler:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Start timing (and recording, when the scheduler says so for step 0)."""
        wait_for(_device.default_device())
        self._timer = StepTimer()
        if not self.timer_only and self.current_state in _RECORDING:
            self._begin_recording()

    def step(self, num_samples: int | None = None) -> None:
        """End a step (``num_samples``: its batch size, for samples/s) and begin the next."""
        if self._timer is None:
            raise RuntimeError("Profiler.step: the profiler was not started; call start() (or use it in a with block).")
        if num_samples is not None and (not isinstance(num_samples, int) or isinstance(num_samples, bool)
                                        or num_samples < 0):
            raise ValueError(f"Profiler.step: num_samples must be an int >= 0 or None, but received {num_samples!r}.")
        wait_for(_device.default_device())
        self._timer.step(num_samples)
        self._all_steps.append(self._timer.times[-1])
        if self.timer_only:
            return
        self._end_step_event()
        self.previous_state = self.current_state
        self.step_num += 1
        self.current_state = self.scheduler(self.step_num)
        self._transition()

    def stop(self) -> None:
        """Stop: print the step-time summary (after more than 10 steps), and end a recording in progress (calling
        ``on_trace_ready``)."""
        if self._timer is None:
            raise RuntimeError("Profiler.stop: the profiler was not started; call start() first.")
        wait_for(_device.default_device())
        for line in self._timer.summary_lines():
            print(line)
        self._timer = None
        if self.timer_only:
            return
        if self.current_state == ProfilerState.READY:
            warnings.warn("Improper Profiler state transform: READY->CLOSED, profiler will start and stop without "
                          "saving data", stacklevel=2)
        if self._live is not None:
            self._end_step_event()
            self._finish_recording()
            if self.on_trace_ready:
                self.on_trace_ready(self)

    def step_info(self, unit: str | None = None) -> str:
        """The average step time and speed since the last ``step_info()``, as Paddle prints them."""
        if self._timer is None:
            raise RuntimeError("Profiler.step_info: the profiler was not started; call start() first.")
        if unit is not None and not isinstance(unit, str):
            raise TypeError(f"Profiler.step_info: unit must be a str such as 'images', but received {unit!r}.")
        return self._timer.step_info(unit or "samples")

    # ---- recording ---------------------------------------------------------------------------------------------
    def _transition(self) -> None:
        prev, cur = self.previous_state, self.current_state
        if prev == ProfilerState.READY and cur == ProfilerState.CLOSED:
            warnings.warn("Improper schedule: READY->CLOSED, profiler will start and stop without saving data",
                          stacklevel=3)
        elif prev == ProfilerState.RECORD and cur in (ProfilerState.CLOSED, ProfilerState.READY):
            warnings.warn(f"Improper schedule: RECORD->{cur.name}, profiler will not saving data", stacklevel=3)
            self._finish_recording()
            self.profiler_result = None
        elif prev == ProfilerState.RECORD_AND_RETURN:
            self._finish_recording()
            if cur in _RECORDING:
                self._begin_recording()
            if self.on_trace_ready:
                self.on_trace_ready(self)
            return
        if cur in _RECORDING and self._live is None:
            self._begin_recording()
        elif self._live is not None:
            self._step_began = time.perf_counter()

    def _begin_recording(self) -> None:
        self._live = _Result()
        self._step_began = time.perf_counter()
        self._xla_dir = tempfile.mkdtemp(prefix="pylayer_jax_trace_")
        self._live.xla_start = time.perf_counter()
        try:
            jax.profiler.start_trace(self._xla_dir, create_perfetto_trace=True, profiler_options=_xla_options())
        except Exception as e:  # noqa: BLE001  (another trace is running: record the host events only)
            warnings.warn(f"Profiler: XLA's trace could not start ({e}); the host events are recorded alone.",
                          stacklevel=3)
            shutil.rmtree(self._xla_dir, ignore_errors=True)
            self._xla_dir = None
        with _lock:
            _recording.append(self)

    def _end_step_event(self) -> None:
        if self._live is not None:
            self._live.events.append((f"ProfileStep#{self.step_num}", TracerEventType.ProfileStep.name,
                                      self._step_began, time.perf_counter(), threading.get_ident()))
            self._step_began = time.perf_counter()

    def _finish_recording(self) -> None:
        live, self._live = self._live, None
        with _lock:
            if self in _recording:
                _recording.remove(self)
        if live is None:
            return
        if self._xla_dir is not None:
            try:
                jax.profiler.stop_trace()
                live.xla_events = _read_xla_trace(self._xla_dir)
            finally:
                shutil.rmtree(self._xla_dir, ignore_errors=True)
                self._xla_dir = None
        self.profiler_result = live

    def _add(self, name: str, kind: str, t0: float, t1: float) -> None:
        if self._live is not None:
            self._live.events.append((name, kind, t0, t1, threading.get_ident()))

    # ---- results -----------------------------------------------------------------------------------------------
    def export(self, path: str = "", format: str = "json") -> None:
        """Write the last recording to ``path`` as Chrome-trace JSON (nothing when there is none)."""
        if format != "json":
            raise ValueError(f"Profiler.export: format must be 'json' (Chrome trace), but received {format!r}; "
                             "Paddle's protobuf format is not available here.")
        if not isinstance(path, str) or not path:
            raise ValueError(f"Profiler.export: path must name the file to write, but received {path!r}.")
        res = self.profiler_result
        if res is None:
            return
        t0 = min((e[2] for e in res.events), default=0.0)
        epoch = time.time() - time.perf_counter()  # (perf_counter seconds -> wall-clock microseconds)
        pid = os.getpid()
        events = [{
            "name": f"{name}[{(end - start) * 1e6:.3f} us]", "pid": pid, "tid": f"{tid}(Python)",
            "ts": int((start + epoch) * 1e6), "dur": round((end - start) * 1e6, 3), "ph": "X", "cat": kind,
            "cname": "thread_state_runnable",
            "args": {"start_time": f"{(start - t0) * 1e6:.3f} us", "end_time": f"{(end - t0) * 1e6:.3f} us"},
        } for name, kind, start, end, tid in res.events]
        shift = (res.xla_start + epoch) * 1e6  # (XLA's times count from its trace's start: put them on the same clock)
        xla = [{**e, "ts": e["ts"] + shift} if isinstance(e.get("ts"), int | float) else e for e in res.xla_events]
        trace = {"displayTimeUnit": "ms", "schemaVersion": "1.0", "span_index": "0",
                 "traceEvents": events + xla, "ExtraInfo": {"source": "pylayer_jax"}}
        with open(path, "w") as fh:
            json.dump(trace, fh)

    def summary(self, sorted_by: SortedKeys = SortedKeys.CPUTotal, op_detail: bool = True, thread_sep: bool = False,
                time_unit: str = "ms", views: SummaryView | list[SummaryView] | None = None) -> None:
        """Print the step times and, for a recording, its events (steps and ``RecordEvent``s) with calls, total,
        average, max, min and share of the recorded time, sorted by ``sorted_by`` (GPU keys sort by host time: no
        device times are measured per event). ``op_detail`` and ``thread_sep`` change nothing: there is no
        per-operator table, and events of all threads are merged."""
        scale = {"s": 1.0, "ms": 1e3, "us": 1e6, "ns": 1e9}.get(time_unit)
        if scale is None:
            raise ValueError(f"Profiler.summary: time_unit must be 's', 'ms', 'us' or 'ns', but received {time_unit!r}.")
        if not isinstance(sorted_by, SortedKeys):
            raise TypeError(f"Profiler.summary: sorted_by must be a SortedKeys member, but received {sorted_by!r}.")
        if not isinstance(op_detail, bool) or not isinstance(thread_sep, bool):
            raise TypeError("Profiler.summary: op_detail and thread_sep must be bools.")
        views = [views] if isinstance(views, SummaryView) else list(views or [])
        if any(not isinstance(v, SummaryView) for v in views):
            raise TypeError(f"Profiler.summary: views must be SummaryView members, but received {views!r}.")
        if not views or SummaryView.OverView in views:
            print(_step_table(self._all_steps, scale, time_unit))
        if self.profiler_result is not None and (not views or SummaryView.UDFView in views):
            print(_event_table(self.profiler_result.events, sorted_by, scale, time_unit))


def _xla_options() -> Any:
    """XLA's trace without its Python tracer (which notes every Python call: slow, and this profiler's own events
    already mark the spans that matter)."""
    opts = jax.profiler.ProfileOptions()
    opts.python_tracer_level = 0
    opts.enable_hlo_proto = False
    return opts


def _read_xla_trace(log_dir: str) -> list[dict[str, Any]]:
    """XLA's trace events from the perfetto trace ``jax.profiler`` wrote under ``log_dir``."""
    for root, _dirs, files in os.walk(log_dir):
        for f in files:
            if f == "perfetto_trace.json.gz":
                with gzip.open(os.path.join(root, f), "rt") as fh:
                    data = json.load(fh)
                return list(data.get("traceEvents", [])) if isinstance(data, dict) else list(data)
    return []


def _step_table(times: list[float], scale: float, unit: str) -> str:
    line = "-" * 100
    if not times:
        return "\n".join(["Step Summary".center(100, "-"), "No steps were timed (call step() in the loop).", line])
    warm = len(times) > 10
    used = times[10:] if warm else times
    cells = [("Steps", "Total", "Avg", "Max", "Min"),
             (str(len(used)), *(f"{v * scale:.2f}" for v in (sum(used), sum(used) / len(used), max(used), min(used))))]
    rows = ["  ".join(c.ljust(18) for c in r) for r in cells]
    note = "the first 10 steps (warm-up) left out" if warm else "every step"
    return "\n".join(["Step Summary".center(100, "-"), f"Time unit: {unit}, {note}", line, rows[0], line, rows[1],
                      line])


def _event_table(events: list[tuple[str, str, float, float, int]], sorted_by: SortedKeys, scale: float,
                 unit: str) -> str:
    steps = [e for e in events if e[1] == TracerEventType.ProfileStep.name]
    span = sum(e[3] - e[2] for e in steps) or sum(e[3] - e[2] for e in events) or 1.0
    stats: dict[str, list[float]] = {}
    for name, kind, t0, t1, _tid in events:
        key = "ProfileStep" if kind == TracerEventType.ProfileStep.name else name
        stats.setdefault(key, []).append(t1 - t0)
    key = {SortedKeys.CPUTotal: sum, SortedKeys.GPUTotal: sum, SortedKeys.CPUMax: max, SortedKeys.GPUMax: max,
           SortedKeys.CPUMin: min, SortedKeys.GPUMin: min}.get(sorted_by, lambda v: sum(v) / len(v))
    width = max([len(n) for n in stats] + [20]) + 2
    line = "-" * (width + 58)
    out = ["Event Summary".center(width + 58, "-"), f"Time unit: {unit}", line,
           f"{'Name'.ljust(width)}{'Calls'.ljust(8)}CPU Total / Avg / Max / Min / Ratio(%)", line]
    for name, v in sorted(stats.items(), key=lambda kv: -key(kv[1])):
        total = sum(v)
        out.append(f"{name.ljust(width)}{str(len(v)).ljust(8)}{total * scale:.2f} / {total / len(v) * scale:.2f} / "
                   f"{max(v) * scale:.2f} / {min(v) * scale:.2f} / {100 * total / span:.2f}")
    out.append(line)
    return "\n".join(out)


class RecordEvent(ContextDecorator):
    """A named span of host time, recorded by the profilers recording now (nothing otherwise): use
    ``begin()``/``end()``, a ``with`` block or a decorator.

    >>> import pylayer_jax.profiler as profiler
    >>> with profiler.RecordEvent("data"):
    ...     pass
    """

    def __init__(self, name: str, event_type: TracerEventType = TracerEventType.PythonUserDefined) -> None:
        if not isinstance(name, str):
            raise TypeError(f"RecordEvent: name must be a str, but received {type(name).__name__}.")
        if not isinstance(event_type, TracerEventType):
            raise TypeError(f"RecordEvent: event_type must be a TracerEventType member, but received {event_type!r}.")
        self.name = name
        self.event_type = event_type
        self._began: float | None = None

    def __enter__(self) -> RecordEvent:
        self.begin()
        return self

    def __exit__(self, *exc: object) -> None:
        self.end()

    def begin(self) -> None:
        """Mark the span's start."""
        self._began = time.perf_counter() if _recording else None

    def end(self) -> None:
        """Mark the span's end: the recording profilers note it."""
        if self._began is None:
            return
        t1 = time.perf_counter()
        with _lock:
            profs = list(_recording)
        for p in profs:
            p._add(self.name, self.event_type.name, self._began, t1)
        self._began = None


def export_protobuf(dir_name: str, worker_name: str | None = None) -> Callable[[Profiler], None]:
    """Paddle's ``on_trace_ready`` writing its protobuf trace format: that format is Paddle's own and not written
    here, so this raises NotImplementedError; ``export_chrome_tracing(dir_name)`` writes the same recording as
    Chrome-trace JSON."""
    raise NotImplementedError(
        f"paddle.profiler.export_protobuf({dir_name!r}): Paddle's protobuf trace format is not available in "
        "pylayer_jax; use paddle.profiler.export_chrome_tracing(dir_name) (Chrome-trace JSON) instead."
    )


def load_profiler_result(filename: str) -> Any:
    """Paddle's reader of its protobuf trace files: that format is not written or read here, so this raises
    NotImplementedError (a Chrome-trace JSON from ``export_chrome_tracing`` is read with ``json.load``)."""
    raise NotImplementedError(
        f"paddle.profiler.load_profiler_result({filename!r}): Paddle's protobuf trace format is not available in "
        "pylayer_jax; export with paddle.profiler.export_chrome_tracing and read the JSON with json.load."
    )
