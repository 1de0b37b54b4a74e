"""``paddle.enable_compat()`` / ``paddle.disable_compat()``: while enabled, ``import torch`` (and ``torch.nn``,
``torch.nn.functional``, ...) gives a module of its own whose names are this package's (``torch.sin is
paddle.sin``; ``torch.nn.Linear`` is ``pylayer_jax.nn.Linear``), as Paddle 3.3.1's torch proxy gives Paddle's
(layer L5).

Only the global switch is supported: Paddle's ``scope`` (proxying only inside given modules) and
``blocked_modules`` raise NotImplementedError here, and Paddle's torch-signature replacements of some names (its
``paddle.compat`` overrides, which ``torch.nn.Linear`` and others resolve to there) are not made: the proxy's names
are this package's Paddle-signature ones. A real ``torch`` already imported is set aside while the proxy
is on and put back by ``disable_compat``.

>>> import pylayer_jax as paddle
>>> paddle.enable_compat()
>>> import torch
>>> torch.sin is paddle.sin
True
>>> paddle.disable_compat()
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from typing import Any, Literal

_ROOT = __name__.split(".")[0]
_saved: dict[str, Any] = {}  # the real torch modules set aside while the proxy is on


def _is_torch(name: str) -> bool:
    return name == "torch" or name.startswith("torch.")


class _Proxy(types.ModuleType):
    """``torch[.x]``: a module of its own (as Paddle's proxy is) whose names are those of ``pylayer_jax[.x]``."""

    def __getattr__(self, name: str) -> Any:
        return getattr(importlib.import_module(self.__dict__["_target"]), name)

    def __dir__(self) -> list[str]:
        return dir(importlib.import_module(self.__dict__["_target"]))


class _ProxyLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        mod = _Proxy(spec.name)
        mod.__dict__["_target"] = self.target
        return mod

    def exec_module(self, _: Any) -> None:
        importlib.import_module(self.target)


class _TorchProxyFinder(importlib.abc.MetaPathFinder):
    """Finds ``torch[.x.y]`` as ``pylayer_jax[.x.y]``; a name the package lacks is not found (ImportError)."""

    def find_spec(self, fullname: str, *_: Any) -> Any:
        if not _is_torch(fullname):
            return None
        real = _ROOT + fullname[len("torch"):]
        try:
            importlib.import_module(real)
        except ImportError:
            return None
        return importlib.machinery.ModuleSpec(fullname, _ProxyLoader(real))


_FINDER = _TorchProxyFinder()


def enable_compat(*, scope: Any = None, blocked_modules: Any = None, backend: Literal["torch"] = "torch",
                  silent: bool = False) -> None:
    """Make ``import torch`` import this package (globally) until ``disable_compat``. ``silent`` (a bool) silences
    Paddle's warnings about changing the proxy's scope; with no scope here there are none to give."""
    if not isinstance(silent, bool):
        raise TypeError(f"enable_compat: silent must be a bool, but received {silent!r}.")
    if backend != "torch":
        raise ValueError(f"enable_compat: backend must be 'torch', the only one Paddle has, but received {backend!r}.")
    if scope is not None or blocked_modules is not None:
        raise NotImplementedError(
            "enable_compat: scope and blocked_modules (proxying torch only inside some modules) are not supported by "
            "pylayer_jax; call enable_compat() to proxy torch everywhere."
        )
    if _FINDER in sys.meta_path:
        return
    for name in [n for n in sys.modules if _is_torch(n)]:
        _saved[name] = sys.modules.pop(name)
    sys.meta_path.insert(0, _FINDER)


def disable_compat() -> None:
    """Stop ``import torch`` from importing this package, and put back a real torch set aside by ``enable_compat``;
    warns when the proxy was not on, as Paddle does."""
    if _FINDER not in sys.meta_path:
        warnings.warn("torch compat is not installed.", stacklevel=2)
        return
    sys.meta_path.remove(_FINDER)
    for name in [n for n in sys.modules if _is_torch(n)]:
        del sys.modules[name]
    sys.modules.update(_saved)
    _saved.clear()
