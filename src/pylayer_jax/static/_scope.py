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

from .._runtime import dtypes as _dtypes
from .._runtime.array_protocol import as_numpy


class DenseTensor:
    """A value outside autograd, as Paddle's ``DenseTensor``: what ``scope.find_var(name).get_tensor()`` and
    ``Executor.run(..., return_numpy=False)`` return. ``np.array(t)`` reads it, ``t.shape()`` gives its shape,
    ``t.set(array, place)`` overwrites it. One bound to a scope is a view of the scope's current value."""

    def __init__(self, value: Any = None, scope: Scope | None = None, name: str | None = None) -> None:
        self._held, self._scope, self._name = value, scope, name

    def _get(self) -> Any:
        return self._scope.values.get(self._name) if self._scope is not None else self._held

    def _checked(self, api: str) -> Any:
        v = self._get()
        if v is None:
            raise RuntimeError(f"DenseTensor.{api}: the tensor holds no value yet; set one with t.set(array, place).")
        return v

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return as_numpy(np.asarray(self._checked("__array__")), dtype, copy, "Tensor")

    def shape(self) -> list[int]:
        v = self._get()
        return [] if v is None else list(v.shape)

    def _dtype(self) -> Any:
        return _dtypes.to_paddle(self._checked("_dtype").dtype)

    def _is_initialized(self) -> bool:
        return self._get() is not None

    def _numel(self) -> int:
        v = self._get()
        return 0 if v is None else int(np.prod(v.shape, dtype=np.int64))

    def lod(self) -> list:
        return []

    def set(self, value: Any, place: Any = None) -> None:
        """Overwrite the value; one in a scope keeps the shape and dtype of the current value."""
        arr = np.asarray(value)
        old = self._get()
        if self._scope is not None and old is not None:
            if tuple(arr.shape) != tuple(old.shape):
                raise ValueError(
                    f"Scope tensor {self._name}.set: the value must have the shape {list(old.shape)}, but "
                    f"received {list(arr.shape)}."
                )
            arr = arr.astype(old.dtype)
        if self._scope is not None:
            self._scope.values[self._name] = jnp.array(arr)
        else:
            self._held = jnp.array(arr)

    def __str__(self) -> str:
        v = self._get()
        if v is None:
            return "  - holder: not initialized"
        arr = np.asarray(v)
        return (f"  - shape: {list(arr.shape)}\n  - layout: NCHW\n  - place: Place(cpu)\n  - dtype: {arr.dtype}\n"
                f"  - data: [{' '.join(f'{x:g}' for x in arr.ravel())}]")


ScopeTensor = DenseTensor


class ScopeVar:
    def __init__(self, scope: Scope, name: str) -> None:
        self._scope, self._name = scope, name

    def get_tensor(self) -> DenseTensor:
        return DenseTensor(scope=self._scope, name=self._name)


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
