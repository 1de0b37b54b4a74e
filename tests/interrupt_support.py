"""The interrupt harness of the reliability tests: ``KeyboardInterrupt`` raised from a ``sys.settrace`` hook at
the k-th line event inside chosen files of the package (``tests/exec/test_interrupt.py``,
``tests/optimizer/test_step_interrupt.py``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np


class LineInterrupt:
    """Raises KeyboardInterrupt at the k-th line event in the files ``inside(filename)`` accepts (k = 0: never);
    ``at`` is then (file, line, function). Given a list ``where``, it notes (file, line) of every event."""

    def __init__(self, k: int, inside: Callable[[str], bool], where: list | None = None) -> None:
        self.k, self.n, self.at, self.where, self.inside = k, 0, None, where, inside

    def glob(self, frame: Any, event: str, arg: Any) -> Callable | None:
        return self.loc if self.inside(frame.f_code.co_filename) else None

    def loc(self, frame: Any, event: str, arg: Any) -> Callable:
        if event == "line":
            self.n += 1
            if self.where is not None:
                self.where.append((os.path.basename(frame.f_code.co_filename), frame.f_lineno))
            if self.n == self.k:
                self.at = (os.path.basename(frame.f_code.co_filename), frame.f_lineno, frame.f_code.co_name)
                raise KeyboardInterrupt
        return self.loc

    def run(self, fn: Callable[[], Any]) -> None:
        """``fn()`` with the hook set; the interrupt it raises is caught here."""
        sys.settrace(self.glob)
        try:
            fn()
        except KeyboardInterrupt:
            pass
        finally:
            sys.settrace(None)


def close(a: np.ndarray, b: np.ndarray) -> bool:
    """The same shape and values (to float64 rounding)."""
    return a.shape == b.shape and np.allclose(a, b, rtol=1e-10, atol=1e-12)
