"""Paddle's functions, each one line over the op table (layer L5)."""

from __future__ import annotations

from ._op_table import TABLE
from ._tensor_methods import public

for _name, _op in TABLE.items():
    if _op.method or _name in ("cast",):
        globals()[_name] = public(_op)
