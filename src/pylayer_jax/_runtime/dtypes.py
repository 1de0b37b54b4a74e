"""Paddle dtype names and objects, mapped to numpy/jax dtypes.

Layer L0: imports nothing from the package but the JAX settings (`_runtime.jax_setup`).
"""

from __future__ import annotations

import threading
from typing import Any

import jax.numpy as jnp
import numpy as np

from . import jax_setup as _jax_setup  # noqa: F401  (x64 on, before any array is made)


class DType:
    """A Paddle dtype (``pylayer_jax.float32`` ...), printing as ``paddle.float32``."""

    __slots__ = ("name", "np_dtype")

    def __init__(self, name: str, np_dtype: Any) -> None:
        self.name = name
        self.np_dtype = None if np_dtype is None else np.dtype(np_dtype)

    def __repr__(self) -> str:
        return f"paddle.{self.name}"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DType):
            return self.name == other.name
        try:
            return self.np_dtype == to_np(other)
        except TypeError:
            return False

    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def is_floating_point(self) -> bool:
        return self.np_dtype is not None and jnp.issubdtype(self.np_dtype, jnp.floating)


_NAMES = [
    "bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16",
    "float32", "float64", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2",
]
DTYPES: dict[str, DType] = {n: DType(n, jnp.dtype(n)) for n in _NAMES}
# Paddle's other dtype objects: the unsigned ints a cast can make (``x.astype(paddle.uint32)``; Paddle 3.3.1 has
# no CPU kernel making them otherwise), and ``pstring`` / ``raw`` (its string and undefined types: no tensor of
# them can be made, ``to_np`` refuses them)
UNUSUAL: dict[str, DType] = {**{n: DType(n, n) for n in ("uint16", "uint32", "uint64")},
                             "pstring": DType("pstring", None), "raw": DType("raw", None)}
_BY_NP: dict[np.dtype, DType] = {d.np_dtype: d for d in [*DTYPES.values(), *list(UNUSUAL.values())[:3]]}
# (Paddle reads ``'float'`` and ``float`` as numpy does: float64, whatever the default dtype)
_ALIASES = {"float": "float64", "double": "float64", "int": "int64", "long": "int64", "half": "float16"}


def to_np(dtype: Any) -> np.dtype:
    """Any dtype spelling (DType, 'float32', np/jnp dtype, Python type) -> numpy dtype."""
    if isinstance(dtype, DType):
        if dtype.np_dtype is None:
            raise ValueError(f"paddle.{dtype.name} is a dtype no tensor can have here (as in Paddle 3.3.1, where "
                             f"casting to it fails); use one of {', '.join(_NAMES)}.")
        return dtype.np_dtype
    if isinstance(dtype, str):
        name = dtype.replace("paddle.", "")
        name = _ALIASES.get(name, name)
        if name in DTYPES:
            return DTYPES[name].np_dtype
        # (the ops name dtypes by their names, so 'uint16' is the unsigned int here; Paddle reads the name as
        # bfloat16, its legacy name for it, while its ``paddle.uint16`` casts to unsigned integers as here)
        if name in UNUSUAL:
            return to_np(UNUSUAL[name])
        raise TypeError(f"dtype {dtype!r} is not a dtype pylayer_jax knows; use one of {', '.join(_NAMES)}.")
    if dtype is float:
        return np.dtype("float64")
    if dtype is int:
        return np.dtype("int64")
    if dtype is bool:
        return np.dtype("bool")
    try:
        return np.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype {dtype!r} is not a dtype pylayer_jax knows; use one of {', '.join(_NAMES)}.") from None


def to_paddle(dtype: Any) -> DType:
    """Any dtype spelling -> the DType object."""
    if isinstance(dtype, DType):
        return dtype
    return _BY_NP[to_np(dtype)]


def is_float(dtype: Any) -> bool:
    return bool(jnp.issubdtype(to_np(dtype), jnp.inexact))


class _Default(threading.local):
    name = "float32"


_default = _Default()


def get_default_dtype() -> str:
    """The dtype Python floats become (``'float32'`` unless changed)."""
    return _default.name


def set_default_dtype(d: Any) -> None:
    """Set the dtype Python floats become: float16, bfloat16, float32 or float64."""
    name = to_paddle(d).name
    if name not in ("float16", "bfloat16", "float32", "float64"):
        raise TypeError(
            f"set_default_dtype only accepts floating dtypes (float16, bfloat16, float32, float64), but received {name}."
        )
    _default.name = name


def default_float() -> np.dtype:
    return DTYPES[_default.name].np_dtype
