"""How ``paddle.tensor`` and its submodules find their functions (layer L7).

Each submodule has the names Paddle 3.3.1 puts there (``_names.py``, recorded from Paddle), and each name resolves,
on first use, to this package's function of that name where Paddle also exposes it: ``paddle.<name>``,
``paddle.linalg.<name>``, a Tensor method (taking the Tensor first), or ``_own`` for the few that live only here.
Names are looked up in the package's public namespace (the package root, imported before any of its
subpackages), so ``paddle.tensor.add is paddle.add``. A name Paddle has there that this package does not implement
raises AttributeError saying so.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

from .. import linalg as _linalg
from .._tensor.facade import Tensor
from . import _own
from ._names import NAMES

_ROOT = sys.modules[__name__.split(".")[0]]
_OWN = {"tensor": _own.tensor, "fill_constant": _own.fill_constant, "create_array": _own.create_array,
        "array_write": _own.array_write, "array_read": _own.array_read, "array_length": _own.array_length}

# where to look, by where Paddle also exposes the name
_ORDER = {"": ("", "linalg", "Tensor"), "linalg": ("linalg", "", "Tensor"), "Tensor": ("", "Tensor"),
          "signal": ("signal",), None: ()}
SUBMODULES = tuple(s for s in NAMES if s)


def _find(where: str, name: str) -> Any:
    if where == "":
        return getattr(_ROOT, name, None)
    if where == "linalg":
        return getattr(_linalg, name, None)
    if where == "Tensor":
        return getattr(Tensor, name, None)
    return getattr(getattr(_ROOT, where, None), name, None)  # (paddle.signal, where the package has it)


def resolve(sub: str, name: str) -> Any:
    """The function ``paddle.tensor[.sub].<name>`` stands for."""
    path = "paddle.tensor" + (f".{sub}" if sub else "")
    names = NAMES[sub]
    if name not in names:
        raise AttributeError(f"module '{path}' has no attribute {name!r}")
    if name in _OWN:
        return _OWN[name]
    for where in _ORDER[names[name]]:
        fn = _find(where, name)
        if fn is not None:
            return fn
    raise AttributeError(
        f"{path}.{name}: Paddle 3.3.1 has this function, but pylayer_jax does not implement it; use another "
        f"function from paddle.tensor, or write it with jax.numpy."
    )


def module_getattr(module: str, sub: str) -> Callable[[str], Any]:
    """The ``__getattr__`` of submodule ``sub`` (``module`` its name): resolves a name once and keeps it."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        if not sub and name in SUBMODULES:
            value = importlib.import_module(f"{module}.{name}")
        else:
            value = resolve(sub, name)
        setattr(sys.modules[module], name, value)
        return value

    return __getattr__


def module_dir(module: str, sub: str) -> Callable[[], list[str]]:
    """The ``__dir__`` of submodule ``sub``: Paddle's names there."""

    def __dir__() -> list[str]:
        extra = SUBMODULES if not sub else ()
        return sorted({*NAMES[sub], *extra} | {n for n in vars(sys.modules[module]) if not n.startswith("_")})

    return __dir__
