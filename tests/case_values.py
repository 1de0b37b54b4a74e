"""What the ``*_cases.py`` modules record of a result, written once: run by ``record_paddle_*.py`` with Paddle 3.3.1
and by the tests with pylayer_jax, so it uses only numpy and the Tensor methods both libraries have."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def _v(t: Any) -> Any:
    """A tensor's values as nested lists: integers and bools as they are, floats as float64."""
    a = np.asarray(t.numpy())
    return a.tolist() if a.dtype.kind in "biu" else a.astype(np.float64).tolist()


def _grad(t: Any) -> Any:
    """``t.grad``'s values (``_v``), or None."""
    return None if t.grad is None else _v(t.grad)


def _attempt(f: Callable[[], Any]) -> Any:
    """``f()``, or the name of the exception type it raised (the type is the result)."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001  (the type is the result)
        return type(e).__name__
