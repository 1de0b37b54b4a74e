"""Paddle's Tensor repr: header line, then the values indented under it.

Layer L0 (numpy only). Paddle's rules (precision 8, threshold 1000, edgeitems 3,
linewidth 80): a float with an integral value prints as ``3.``, others with 8 decimals;
every item is left-justified to the widest item (one leading space for non-negative
items when any item is negative); rows of a 1-D block wrap at the line width; arrays
over the threshold show the first and last ``edgeitems`` of each axis around ``...``.
``set_printoptions`` changes them for the process, as Paddle's does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

PRECISION = 8
THRESHOLD = 1000
EDGEITEMS = 3
LINEWIDTH = 80
SCI_MODE = False
_FLOATS = (np.float16, np.float32, np.float64)


def _item(v: np.generic) -> str:
    """One value as Paddle writes it, unpadded."""
    if v.dtype in _FLOATS:
        if SCI_MODE:
            return f"{v:.{PRECISION}e}"
        if np.ceil(v) == v:  # integral values and infinities; nan is never equal
            return f"{v:.0f}."
        return f"{v:.{PRECISION}f}"
    if np.iscomplexobj(v):
        re, im = float(np.real(v)), float(np.imag(v))
        sign = "+" if im >= 0 else ""
        f = "e" if SCI_MODE else "f"
        return f"({re:.{PRECISION}{f}}{sign}{im:.{PRECISION}{f}}j)"
    return str(v)


def _negative(v: Any) -> Any:
    """``v < 0`` as Paddle's printer asks it, elementwise; a complex value orders by its real part, then its
    imaginary part (numpy's order), so ``-0.5-1j`` counts as negative and ``1+2j`` gets the sign's space."""
    if np.iscomplexobj(v):
        re, im = np.real(v), np.imag(v)
        return (re < 0) | ((re == 0) & (im < 0))
    return v < 0


def _padded(v: np.generic, width: int, signed: bool) -> str:
    s = _item(v)
    if width <= len(s):
        return s
    if signed and not _negative(v):
        return " " + s.ljust(width - 1)
    return s.ljust(width)


def _edges(a: np.ndarray) -> np.ndarray:
    """The values a summarised print shows (for the column width)."""
    if a.ndim == 0 or a.size == 0:
        return a.reshape(-1)
    if a.shape[0] > 2 * EDGEITEMS:
        rows = [*a[:EDGEITEMS], *a[-EDGEITEMS:]]
    else:
        rows = list(a)
    if a.ndim == 1:
        return np.asarray(rows)
    return np.concatenate([_edges(r) for r in rows])


def _block(a: np.ndarray, summary: bool, indent: int, width: int, signed: bool) -> str:
    if a.ndim == 0:
        return _padded(a[()], width, signed)
    cut = summary and a.shape[0] > 2 * EDGEITEMS
    idx = [*range(EDGEITEMS), -1, *range(a.shape[0] - EDGEITEMS, a.shape[0])] if cut else range(a.shape[0])
    if a.ndim == 1:
        items = ["..." if i == -1 else _padded(a[i], width, signed) for i in idx]
        per_line = max(1, (LINEWIDTH - indent) // (width + 2))
        lines = [", ".join(items[k : k + per_line]) for k in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    parts = ["..." if i == -1 else _block(a[i], summary, indent + 1, width, signed) for i in idx]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def format_values(arr: np.ndarray, indent: int = 7) -> str:
    """The values block of a repr, its first line unindented, the others aligned under it."""
    if arr.dtype not in _FLOATS and "float" in arr.dtype.name:  # bfloat16 and friends print as float32
        arr = arr.astype(np.float32)
    shown = _edges(arr)
    width = max((len(_item(v)) for v in shown), default=0)
    signed = bool(arr.dtype.kind in "iufc" and shown.size and np.any(_negative(shown)))
    summary = arr.ndim > 0 and arr.size > THRESHOLD
    return _block(arr, summary, indent, width, signed)


def tensor_repr(shape: list[int], dtype: str, place: str, stop_gradient: bool, arr: np.ndarray) -> str:
    head = f"Tensor(shape={list(shape)}, dtype={dtype}, place={place}, stop_gradient={stop_gradient},"
    return f"{head}\n{' ' * 7}{format_values(arr, 7)})"


def set_printoptions(precision: int | None = None, threshold: int | None = None, edgeitems: int | None = None,
                     sci_mode: bool | None = None, linewidth: int | None = None) -> None:
    """Set how Tensors print, for the whole process (an option left None keeps its value): ``precision`` digits
    after the point (default 8), ``threshold`` elements above which a Tensor prints summarised (1000), with
    ``edgeitems`` values at each end of each axis (3), ``sci_mode`` for scientific notation (False), ``linewidth``
    characters per line (80).

    >>> import pylayer_jax as paddle
    >>> paddle.set_printoptions(precision=2)
    >>> print(paddle.to_tensor([1.123456, 2.0]))
    Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
           [1.12, 2.  ])
    >>> paddle.set_printoptions(precision=8)
    """
    g = globals()
    for name, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise TypeError(f"set_printoptions: {name} must be an int, but received {type(value).__name__} "
                            f"({value!r}); pass a whole number such as {g[name.upper()]}.")
        if value < 0:
            raise ValueError(f"set_printoptions: {name} must not be negative, but received {value}.")
    if sci_mode is not None and not isinstance(sci_mode, bool | int | np.integer):
        raise TypeError(f"set_printoptions: sci_mode must be a bool, but received {type(sci_mode).__name__} "
                        f"({sci_mode!r}); pass True or False.")
    for name, value in (("PRECISION", precision), ("THRESHOLD", threshold), ("EDGEITEMS", edgeitems),
                        ("LINEWIDTH", linewidth)):
        if value is not None:
            g[name] = int(value)
    if sci_mode is not None:
        g["SCI_MODE"] = bool(sci_mode)
