"""Progress display of ``Model.fit``/``evaluate``/``predict`` (layer L5).

``ProgressBar`` writes Paddle's terminal text: with ``verbose=1`` one bar per epoch rewritten in
place (``step 3/5 [=====>....] - loss: 1.1650 - acc: 0.4667 - ETA: 0s - 2ms/step``), with
``verbose=2`` one line per printed step. Inside a Jupyter (IPython kernel) session ``verbose=1``
draws a notebook-native ``tqdm`` widget instead (``NotebookBar``), fed with the same values.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import Any

import numpy as np


def in_notebook() -> bool:
    """True when running in an IPython kernel (Jupyter), where output is a widget, not a terminal."""
    if "ipykernel" not in sys.modules:
        return False
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None)
    shell = get() if callable(get) else None
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def _bar_width(width: int) -> int:
    cols = shutil.get_terminal_size().columns
    cols = cols if cols > 0 else 80
    return min(width, min(int(cols * 0.6), cols - 50))


def _number(v: Any) -> str | None:
    """Paddle's formatting of one logged number: 4 decimals, scientific when tiny."""
    if isinstance(v, np.ndarray) and v.size == 1 and v.dtype in (np.float32, np.float64):
        v = v.item()
    if isinstance(v, float | np.floating):
        return f"{v:.4f}" if abs(v) > 1e-3 else f"{v:.4e}"
    return None


def format_values(values: list[tuple[str, Any]]) -> str:
    """`` - loss: 1.0949 - acc: 0.6000`` for ``[("loss", [1.0949]), ("acc", 0.6)]``."""
    out = ""
    for k, val in values:
        out += f" - {k}:"
        for v in val if isinstance(val, list) else [val]:
            s = _number(v)
            out += f" {s}" if s is not None else f" {v}"
    return out


def _per_step(seconds: float, name: str) -> str:
    if seconds >= 1 or seconds == 0:
        return f" - {seconds:.0f}s/{name}"
    if seconds >= 1e-3:
        return f" - {seconds * 1e3:.0f}ms/{name}"
    return f" - {seconds * 1e6:.0f}us/{name}"


def _eta(seconds: int) -> str:
    if seconds > 3600:
        return f"{seconds // 3600}:{(seconds % 3600) // 60:02}:{seconds % 60:02}"
    if seconds > 60:
        return f"{seconds // 60}:{seconds % 60:02}"
    return f"{seconds}s"


class ProgressBar:
    """Paddle's text progress bar: ``num`` steps (or None when unknown), ``verbose`` 1 (bar) or 2/3 (lines)."""

    def __init__(self, num: int | None = None, width: int = 30, verbose: int = 1, name: str = "step") -> None:
        if num is not None and (not isinstance(num, int) or isinstance(num, bool) or num <= 0):
            raise TypeError(f"ProgressBar: num must be None or an integer > 0, but received {num!r}.")
        self._num = num
        self._width = _bar_width(width)
        self._verbose = verbose
        self._name = name
        self._total_width = 0
        self._start = time.time()
        # Paddle redraws in place on any POSIX system, in a terminal or not
        self._dynamic = (hasattr(sys.stdout, "isatty") and sys.stdout.isatty()) or os.name == "posix" \
            or "ipykernel" in sys.modules or "PYCHARM_HOSTED" in os.environ

    def _count(self, current: int) -> str:
        if self._num is None:
            return f"{self._name} {current:3}"
        digits = int(np.log10(self._num)) + 1
        return f"{self._name} {current:{digits}d}/{self._num}"

    def update(self, current: int, values: list[tuple[str, Any]] | None = None) -> None:
        """Show step ``current`` with the logged ``values`` (a list of ``(name, value)``)."""
        values = list(values or [])
        per_step = (time.time() - self._start) / current if current else 0
        fps = _per_step(per_step, self._name)
        out = sys.stdout
        if self._verbose == 1:
            prev = self._total_width
            out.write("\b" * prev + "\r" if self._dynamic else "\n")
            head = self._count(current)
            if self._num is not None:
                done = int(self._width * float(current) / self._num)
                bar = ""
                if done > 0:
                    bar = "=" * (done - 1) + (">" if current < self._num else "=")
                head += " [" + bar + "." * (self._width - done) + "]"
            self._total_width = len(head)
            out.write(head)
            info = format_values(values)
            if self._num is not None and current < self._num:
                info += f" - ETA: {_eta(int(per_step * (self._num - current)))}"
            info += fps
            self._total_width += len(info)
            if prev > self._total_width:
                info += " " * (prev - self._total_width)
            if self._num is None or current >= self._num:
                info += "\n"
            out.write(info)
            out.flush()
        elif self._verbose in (2, 3):
            out.write(self._count(current) + format_values(values) + fps + "\n")
            out.flush()


def __getattr__(name: str) -> Any:
    """``_tqdm_notebook`` (the module) and ``_notebook_tqdm`` (its bar), imported when first asked for: importing
    ``tqdm.notebook`` imports IPython, a third of a second, which a script outside Jupyter never needs."""
    if name not in ("_tqdm_notebook", "_notebook_tqdm"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import tqdm.notebook

    globals().update(_tqdm_notebook=tqdm.notebook, _notebook_tqdm=tqdm.notebook.tqdm)
    return globals()[name]


def _tqdm(name: str) -> Any:
    return globals()[name] if name in globals() else __getattr__(name)


class NotebookBar:
    """The notebook form of ``ProgressBar(verbose=1)``: a ``tqdm`` widget with the values as postfix."""

    def __init__(self, num: int | None = None, verbose: int = 1, name: str = "step") -> None:
        self._bar = _tqdm("_notebook_tqdm")(total=num, unit=name, leave=True)
        self._shown = 0

    def update(self, current: int, values: list[tuple[str, Any]] | None = None) -> None:
        post = {}
        for k, val in values or []:
            vs = val if isinstance(val, list) else [val]
            post[k] = " ".join(_number(v) or str(v) for v in vs)
        self._bar.set_postfix(post, refresh=False)
        self._bar.update(current - self._shown)
        self._shown = current
        if self._bar.total is not None and current >= self._bar.total:
            self._bar.close()


def widgets_available() -> bool:
    """True when tqdm's notebook widget can be drawn: it needs ipywidgets (``tqdm.notebook`` leaves
    ``IProgress`` None without it). Checking first avoids a half-built tqdm object whose ``__del__`` prints
    a traceback into the notebook; without widgets the text bar is used, which works in Jupyter too."""
    return getattr(_tqdm("_tqdm_notebook"), "IProgress", None) is not None


def make_bar(num: int | None, verbose: int) -> ProgressBar | NotebookBar:
    """The bar for one epoch or evaluation: the tqdm widget in Jupyter with ``verbose=1`` (when the kernel
    has ipywidgets, which tqdm's widget needs), Paddle's text otherwise."""
    if verbose == 1 and in_notebook() and widgets_available():
        return NotebookBar(num, verbose)
    return ProgressBar(num, verbose=verbose)
