"""Attribute values in cache keys, compared exactly (layer L0).

A kernel is cached under its attributes, and the kernel bakes the attribute values in. Python's
``==`` makes ``-0.0 == 0.0``, ``1.0 == 1 == True`` and ``nan != nan``, so with plain values a
``paddle.full(s, -0.0)`` would reuse the kernel compiled for ``0.0`` (the wrong sign of zero),
``paddle.full(s, 1)`` the one for ``True`` (a bool result), and every ``nan`` would compile a new
kernel. :func:`exact` wraps the values that ``==`` confuses (bools, complex numbers, and floats that
are NaN or whole, signed zeros included) in :class:`Exact`, equal only to a value of the same type
and the same bits (every NaN alike); other values stay as they are. :func:`plain` unwraps a key's
attributes for the kernel's function.
"""

from __future__ import annotations

import math
from typing import Any


def _hash(v: Any) -> int:
    if type(v) is complex:
        return hash((_hash(v.real), _hash(v.imag)))
    return hash(v) if v == v else 0x7FF8  # (a NaN's own hash is its id: every NaN must hash alike)


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if type(a) is float:
        if a != a:
            return b != b
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if type(a) is complex:
        return _same(a.real, b.real) and _same(a.imag, b.imag)
    return a == b


class Exact:
    """A value in a cache key equal only to a value of the same type and bits (``-0.0`` is not ``0.0``,
    ``1.0`` is not ``1``, ``True`` is not ``1``, a NaN is a NaN)."""

    __slots__ = ("value", "_h")

    def __init__(self, value: Any) -> None:
        self.value = value
        self._h = _hash(value)

    def __hash__(self) -> int:
        return self._h

    def __eq__(self, other: object) -> bool:
        return type(other) is Exact and _same(self.value, other.value)

    def __repr__(self) -> str:
        return repr(self.value)


TRUE = Exact(True)
FALSE = Exact(False)
_ZERO = Exact(0.0)
_NEG_ZERO = Exact(-0.0)
# one Exact per whole float (``1 - x`` is ``scale(x, -1.0, 1)`` every step): a key lookup that meets the same
# object skips ``__eq__``; floats only, so 1.0 never meets 1 or True here
_WHOLE: dict[float, Exact] = {}


def exact(v: Any) -> Any:
    """``v`` as a cache key holds it: wrapped in :class:`Exact` where ``==`` would confuse it."""
    t = type(v)
    if t is float:
        if v != v:
            return Exact(v)
        if not v.is_integer():
            return v
        if v == 0.0:
            return _NEG_ZERO if math.copysign(1.0, v) < 0 else _ZERO
        e = _WHOLE.get(v)
        if e is None:
            e = Exact(v)
            if len(_WHOLE) < 1024:
                _WHOLE[v] = e
        return e
    if t is bool:
        return TRUE if v else FALSE
    if t is complex:
        return Exact(v)
    return v


def plain(v: Any) -> Any:
    """A key's attribute (or tuple of them, nested) with the :class:`Exact` wrappers taken off."""
    t = type(v)
    if t is Exact:
        return v.value
    if t is tuple:
        return tuple([plain(e) for e in v])
    return v
