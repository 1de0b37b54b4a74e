"""Argument checks shared by ``decompose`` and ``auto_recompute``."""

from __future__ import annotations

from typing import Any


def program(api: str, prog: Any) -> None:
    from ..static import Program

    if not isinstance(prog, Program):
        raise TypeError(f"{api}: program must be a paddle.static.Program, but received {type(prog).__name__}.")


def values(api: str, name: str, vs: Any) -> list[Any]:
    from ..static._variable import Variable

    if not isinstance(vs, (list, tuple)):
        raise TypeError(f"{api}: {name} must be a list or tuple of the program's Values, but received "
                        f"{type(vs).__name__}.")
    for i, v in enumerate(vs):
        if not isinstance(v, Variable):
            raise TypeError(f"{api}: {name}[{i}] must be a Value of the program, but received {type(v).__name__}.")
    return list(vs)


def index(api: str, name: str, i: Any) -> None:
    if not isinstance(i, int) or isinstance(i, bool):
        raise TypeError(f"{api}: {name} must be an int, but received {type(i).__name__}.")
