"""``paddle.decomposition.decomp``: ``decompose``."""

from __future__ import annotations

from typing import Any

from . import _check

__all__ = ["decompose"]


def decompose(program: Any, src_vars: Any, blacklist: frozenset = frozenset(), whitelist: frozenset = frozenset(),
              start_index: int = 0, end_index: int = -1) -> list[Any]:
    """Replace the composite operators of ``program``'s global block in ``[start_index, end_index)`` (those in
    ``whitelist`` when it is given, never those in ``blacklist``) by primitive ones, and return the Values that
    replace ``src_vars``. This package's operators are JAX primitives already, so the program is unchanged and the
    Values returned are ``src_vars`` (see the package's docstring)."""
    api = "paddle.decomposition.decompose"
    _check.program(api, program)
    out = _check.values(api, "src_vars", src_vars)
    for name, ops in (("blacklist", blacklist), ("whitelist", whitelist)):
        if not isinstance(ops, (set, frozenset, list, tuple)) or not all(isinstance(o, str) for o in ops):
            raise TypeError(f"{api}: {name} must be a set of op names (str), but received {ops!r}.")
    _check.index(api, "start_index", start_index)
    _check.index(api, "end_index", end_index)
    return out
