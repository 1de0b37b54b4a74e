"""Streams and events: ``paddle.device.Stream``/``Event``, ``current_stream``, ``set_stream``, ``stream_guard``
(layer L5).

JAX has no user streams: XLA orders each device's work itself. So a Stream here names a device and runs nothing
apart: work "on" any stream is the device's one queue, which makes ``wait_event``/``wait_stream`` already true
(they only check their argument), ``Stream.synchronize`` waits for the device, ``query`` says whether its work is
done, and ``stream_guard`` just makes the stream current. An ``Event.record`` waits for the work queued so far and
notes the time, so ``start.elapsed_time(end)`` is the milliseconds between two records, as with CUDA events that
time work. They work on the CPU too (Paddle's CPU build has no streams): code written for a GPU runs, in order.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from .._runtime import device as _device
from . import _query


def _place(device: Any, api: str) -> Any:
    """The Place ``device`` names (None: where new tensors go; an int: that GPU)."""
    if device is None:
        name = _device.get_device()
    elif isinstance(device, int) and not isinstance(device, bool):
        name = f"gpu:{_query.gpu_index(device, api)}"
    else:
        name = _device.resolve(device, api)[0]
    return _device.CPUPlace() if name == "cpu" else _device.CUDAPlace(int(name[4:]))


class Stream:
    """A stream of ``device`` (None: the current device; an int, ``'gpu:x'``, ``'cpu'``, a Place); ``priority``
    is kept (1 high, 2 normal) and changes nothing: XLA orders the device's work.

    >>> import pylayer_jax as paddle
    >>> s = paddle.device.Stream()
    >>> with paddle.device.stream_guard(s):
    ...     y = paddle.ones([2]) + 1
    >>> s.synchronize(); s.query()
    True
    """

    def __init__(self, device: Any = None, priority: int = 2, stream_base: Any = None) -> None:
        if not isinstance(priority, int) or isinstance(priority, bool):
            raise TypeError(f"Stream: priority must be an int (1 high, 2 normal), but received {priority!r}.")
        if stream_base is not None:
            if not isinstance(stream_base, Stream):
                raise TypeError(
                    f"Stream: stream_base must be a Stream, but received {type(stream_base).__name__} (there are no "
                    "native CUDA streams under JAX)."
                )
            device = stream_base.device
        self.device = _place(device, "paddle.device.Stream")
        self.priority = priority

    @property
    def stream_base(self) -> Stream:
        return self

    @property
    def place(self) -> Any:
        return self.device

    def _jax_device(self) -> Any:
        return self.device.device()

    def wait_event(self, event: Event) -> None:
        """Make later work wait for ``event``: already so (one queue per device)."""
        _check(event, Event, "Stream.wait_event", "event")

    def wait_stream(self, stream: Stream) -> None:
        """Make later work wait for ``stream``'s: already so (one queue per device)."""
        _check(stream, Stream, "Stream.wait_stream", "stream")

    def record_event(self, event: Event | None = None) -> Event:
        """Record ``event`` (a new one if None) on this stream and return it."""
        if event is None:
            event = Event()
        _check(event, Event, "Stream.record_event", "event")
        event.record(self)
        return event

    def query(self) -> bool:
        """Whether the device's queued work is done (without waiting)."""
        return _query.ready(self._jax_device())

    def synchronize(self) -> None:
        """Wait for the device's queued work."""
        _query.wait_for(self._jax_device())

    def __repr__(self) -> str:
        return f"<paddle.device.Stream device={self.device!r} stream={id(self):#x}>"


class Event:
    """A point in a device's work; ``record`` waits for the work queued so far and notes the time, so
    ``elapsed_time`` between two recorded events (``enable_timing=True``) is the milliseconds of the work between.

    >>> import pylayer_jax as paddle
    >>> start, end = paddle.device.Event(enable_timing=True), paddle.device.Event(enable_timing=True)
    >>> start.record(); y = paddle.ones([64, 64]) @ paddle.ones([64, 64]); end.record()
    >>> start.elapsed_time(end) >= 0
    True
    """

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False) -> None:
        for name, v in (("enable_timing", enable_timing), ("blocking", blocking), ("interprocess", interprocess)):
            if not isinstance(v, bool):
                raise TypeError(f"Event: {name} must be a bool, but received {type(v).__name__}.")
        self.device = _place(None, "paddle.device.Event")
        self.enable_timing = enable_timing
        self._time: float | None = None

    @property
    def event_base(self) -> Event:
        return self

    def record(self, stream: Stream | None = None) -> None:
        """Mark this point of ``stream``'s work (None: the current stream): waits for it, then notes the time."""
        if stream is None:
            stream = current_stream(self.device)
        _check(stream, Stream, "Event.record", "stream")
        stream.synchronize()
        self._time = time.perf_counter()

    def query(self) -> bool:
        """Whether the work before the recorded point is done: always, once ``record`` returned."""
        return True

    def synchronize(self) -> None:
        """Wait for the work before the recorded point: ``record`` already did."""

    def elapsed_time(self, end_event: Event) -> float:
        """Milliseconds from this event's record to ``end_event``'s."""
        _check(end_event, Event, "Event.elapsed_time", "end_event")
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError(
                "Event.elapsed_time: both events must be created with enable_timing=True to be timed."
            )
        if self._time is None or end_event._time is None:
            raise RuntimeError(
                f"Event.elapsed_time: the {'start' if self._time is None else 'end'} event was never recorded; "
                "call record() on both events first."
            )
        return (end_event._time - self._time) * 1000.0

    def __repr__(self) -> str:
        return f"Event(device={self.device!r}, event_base={id(self):#x})"


def _check(obj: Any, cls: type, api: str, name: str) -> None:
    if not isinstance(obj, cls):
        raise TypeError(f"{api}: {name} must be a paddle.device.{cls.__name__}, but received {type(obj).__name__}.")


# each thread's current stream per device (a default one made on first use)
_local = threading.local()


def _current() -> dict[Any, Stream]:
    d = _local.__dict__.get("streams")
    if d is None:
        d = _local.streams = {}
    return d


def current_stream(device: Any = None) -> Stream:
    """The current stream of ``device`` (None: the current device): its default one unless ``set_stream`` or
    ``stream_guard`` chose another."""
    place = _place(device, "paddle.device.current_stream")
    streams = _current()
    s = streams.get(place)
    if s is None:
        s = streams[place] = Stream(place)
    return s


def set_stream(stream: Stream) -> Stream:
    """Make ``stream`` its device's current stream; returns the one it replaces."""
    _check(stream, Stream, "paddle.device.set_stream", "stream")
    prev = current_stream(stream.device)
    _current()[stream.device] = stream
    return prev


class stream_guard:  # noqa: N801  (Paddle's name)
    """Within the ``with`` block, ``stream`` (None: no change) is its device's current stream."""

    def __init__(self, stream: Stream | None = None) -> None:
        if stream is not None:
            _check(stream, Stream, "paddle.device.stream_guard", "stream")
        self.stream = stream

    def __enter__(self) -> None:
        if self.stream is not None:
            self._prev = set_stream(self.stream)

    def __exit__(self, *exc: object) -> None:
        if self.stream is not None:
            set_stream(self._prev)


StreamContext = stream_guard


def stream(stream: Stream | None) -> stream_guard:
    """``stream_guard(stream)``."""
    return stream_guard(stream)
