"""Static/dynamic mode switches (``paddle.enable_static`` ...).

Layer L6. Static mode makes ``default_main_program()`` the program that ops on
Variables are recorded into. The mode lives in the thread-local ``_state.modes``.
"""

from __future__ import annotations

from .._runtime import device as _device
from .._runtime.state import modes
from ._program import default_main_program


def enable_static() -> None:
    """Switch to static mode: build programs with ``paddle.static`` and run them with an Executor."""
    modes.static_mode = True
    if modes.static_program is None:
        modes.static_program = default_main_program()


def disable_static(place: object = None) -> None:
    """Switch back to dynamic (eager) mode; ``place`` (a device string or Place), if given, becomes the
    device new tensors go to, as ``paddle.device.set_device`` makes it."""
    if place is not None:
        _device.set_device(_device.resolve(place, "paddle.disable_static")[0])
    modes.static_mode = False
    modes.static_program = None


def in_dynamic_mode() -> bool:
    """Whether ops run eagerly (True) or are recorded into a static program (False)."""
    return not modes.static_mode


def in_pir_mode() -> bool:
    """Always False: static programs here follow Paddle's Program IR with named Variables (``x.grad_name``,
    ``block.var(name)``, fetching by name), so code that branches on this takes that path."""
    return False
