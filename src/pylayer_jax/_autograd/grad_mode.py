"""Grad-mode switches: context managers that also work as decorators (layer L5).

The mode is thread-local (``_state.modes``) and always restored in ``finally``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from .._runtime.state import modes


class _GradMode:
    """Set grad mode to ``self._target`` inside a ``with`` block or a decorated function."""

    _target = True

    def __enter__(self) -> None:
        self._prev = modes.grad_enabled
        modes.grad_enabled = self._target

    def __exit__(self, *exc: Any) -> None:
        modes.grad_enabled = self._prev

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        target = self._target
        if inspect.isgeneratorfunction(fn):
            # as Paddle's decorator: the mode is set from the first ``next`` until the generator ends, so the code
            # that consumes it between its yields runs in that mode too
            @functools.wraps(fn)
            def gen_wrapper(*args: Any, **kwargs: Any) -> Any:
                gen = fn(*args, **kwargs)
                prev = modes.grad_enabled
                modes.grad_enabled = target
                try:
                    return (yield from gen)
                finally:
                    modes.grad_enabled = prev

            return gen_wrapper

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            prev = modes.grad_enabled
            modes.grad_enabled = target
            try:
                return fn(*args, **kwargs)
            finally:
                modes.grad_enabled = prev

        return wrapper


class no_grad(_GradMode):  # noqa: N801
    """Turn gradient recording off: ``with paddle.no_grad():`` or ``@paddle.no_grad()``."""

    _target = False


class enable_grad(_GradMode):  # noqa: N801
    """Turn gradient recording on inside a no_grad region."""

    _target = True


class set_grad_enabled(_GradMode):  # noqa: N801
    """Set gradient recording to ``mode`` (a context manager or decorator)."""

    def __init__(self, mode: bool) -> None:
        self._target = bool(mode)
        self._prev = modes.grad_enabled
        modes.grad_enabled = self._target  # takes effect immediately, like Paddle/torch

    def __enter__(self) -> None:
        modes.grad_enabled = self._target  # keep the mode from before __init__ changed it, to restore on exit

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        modes.grad_enabled = self._prev  # as a decorator it only applies inside the function
        return super().__call__(fn)


def is_grad_enabled() -> bool:
    """Whether ops record gradients right now."""
    return modes.grad_enabled
