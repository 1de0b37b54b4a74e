"""The scope: where persistable values (parameters, optimizer state) live between runs.

Layer L6. A Scope maps names to jax arrays. ``Executor.run`` reads parameters from it
and writes the updated ones back only after a run succeeded, so a failed run leaves it
unchanged.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import jax.numpy as jnp
import numpy as np

from .._runtime.array_protocol import as_numpy


class ScopeTensor:
    """What ``scope.find_var(name).get_tensor()`` returns: a view of the scope's current value."""

    def __init__(self, scope: Scope, name: str) -> None:
        self._scope, self._name = scope, name

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return as_numpy(np.asarray(self._scope.values[self._name]), dtype, copy, "Tensor")

    def shape(self) -> list[int]:
        return list(self._scope.values[self._name].shape)

    def set(self, value: Any, place: Any = None) -> None:
        """Overwrite the value (shape and dtype of the current one are kept)."""
        old = self._scope.values.get(self._name)
        arr = np.asarray(value)
        if old is not None:
            if tuple(arr.shape) != tuple(old.shape):
                raise ValueError(
                    f"Scope tensor {self._name}.set: the value must have the shape {list(old.shape)}, but "
                    f"received {list(arr.shape)}."
                )
            arr = arr.astype(old.dtype)
        self._scope.values[self._name] = jnp.array(arr)


class ScopeVar:
    def __init__(self, scope: Scope, name: str) -> None:
        self._scope, self._name = scope, name

    def get_tensor(self) -> ScopeTensor:
        return ScopeTensor(self._scope, self._name)


class Scope:
    """Names -> values of persistable Variables (``paddle.static.global_scope()``)."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def find_var(self, name: str) -> ScopeVar | None:
        return ScopeVar(self, name) if name in self.values else None

    def var(self, name: str) -> ScopeVar:
        return ScopeVar(self, name)

    def local_var_names(self) -> list[str]:
        return list(self.values)

    def __repr__(self) -> str:
        return f"Scope({sorted(self.values)})"


_scopes: list[Scope] = [Scope()]


def global_scope() -> Scope:
    """The scope Executor.run uses by default (the innermost ``scope_guard``'s, else the global one)."""
    return _scopes[-1]


@contextlib.contextmanager
def scope_guard(scope: Scope) -> Iterator[None]:
    """Make ``scope`` the one ``global_scope()`` returns inside the ``with`` block."""
    if not isinstance(scope, Scope):
        raise TypeError(f"scope_guard expects a paddle.static.Scope, but received {type(scope).__name__}.")
    _scopes.append(scope)
    try:
        yield
    finally:
        _scopes.pop()
