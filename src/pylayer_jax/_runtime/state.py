"""Thread-local mode state: grad mode, saved-tensor hook stack, static recorder, RNG.

Layer L0. Every change of mode goes through a context manager that restores the
previous value in ``finally``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any


class _Modes(threading.local):
    def __init__(self) -> None:
        self.grad_enabled = True
        # innermost pair last: (pack_hook, unpack_hook)
        self.saved_hooks: list[tuple[Any, Any]] = []
        # the static Program being recorded into, or None in dynamic mode
        self.static_program: Any = None
        self.static_mode = False
        # depth of PyLayer.forward calls (ctx methods are only legal inside)
        self.pylayer_forward_ctx: list[Any] = []
        # the implicit-input capture of the to_static function being traced, or None
        self.capture: Any = None
        # depth of a PyLayer's forward or backward running on tracers (the traced driver)
        self.pylayer_user = 0
        # a whole training step is being traced (jit.to_static of a function calling backward()): ops on
        # tracers record tape nodes, so backward() inside the trace walks them
        self.trace_tape = False


modes = _Modes()


class grad_mode:  # noqa: N801 - used like a function: ``with grad_mode(False):``
    """Set grad mode for a block and restore it after (a class: cheaper than a generator context)."""

    __slots__ = ("enabled", "prev")

    def __init__(self, enabled: bool) -> None:
        self.enabled = bool(enabled)

    def __enter__(self) -> None:
        self.prev = modes.grad_enabled
        modes.grad_enabled = self.enabled

    def __exit__(self, *exc: Any) -> None:
        modes.grad_enabled = self.prev


@contextlib.contextmanager
def saved_hooks_pushed(pack: Any, unpack: Any) -> Iterator[None]:
    modes.saved_hooks.append((pack, unpack))
    try:
        yield
    finally:
        modes.saved_hooks.pop()


def current_saved_hooks() -> tuple[Any, Any] | None:
    return modes.saved_hooks[-1] if modes.saved_hooks else None


@contextlib.contextmanager
def static_recording_paused() -> Iterator[None]:
    """Run user code on arrays (a pylayer's or cond's functions, traced or lowered): nothing is recorded."""
    prev = modes.static_program
    modes.static_program = None
    try:
        yield
    finally:
        modes.static_program = prev
