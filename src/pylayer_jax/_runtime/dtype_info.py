"""``paddle.finfo`` and ``paddle.iinfo``: the limits of a floating or an integer dtype, as Paddle reports them.

Layer L0 (dtypes only): the numbers come from numpy's and ml_dtypes' tables for the same dtypes.
"""

from __future__ import annotations

import math
from typing import Any

import jax.numpy as jnp
import numpy as np

from .dtypes import DType, to_np

_FLOAT_NAMES = ("float32", "float64", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "complex64",
                "complex128")
_INT_NAMES = ("int8", "int16", "int32", "int64", "uint8")


def _name(api: str, dtype: Any, allowed: tuple[str, ...]) -> str:
    try:
        name = to_np(dtype).name
    except TypeError:
        name = None
    if name not in allowed:
        shown = dtype if isinstance(dtype, DType) else repr(dtype)
        raise ValueError(f"{api}: the argument must be one of paddle.{', paddle.'.join(allowed)}, but received "
                         f"{shown}; use {'paddle.finfo' if api == 'iinfo' else 'paddle.iinfo'} for the other kind.")
    return name


class finfo:  # noqa: N801 - Paddle's name
    """The limits of a floating dtype: ``bits``, ``eps``, ``min``, ``max``, ``tiny`` (= ``smallest_normal``),
    ``resolution`` and ``dtype`` (its name). A complex dtype reports its real part's.

    >>> import pylayer_jax as paddle
    >>> paddle.finfo(paddle.float16).max
    65504.0
    """

    def __init__(self, dtype: Any) -> None:
        name = _name("finfo", dtype, _FLOAT_NAMES)
        info = jnp.finfo(np.dtype(name))
        self.dtype = {"complex64": "float32", "complex128": "float64"}.get(name, name)
        self.bits = int(info.bits)
        self.eps, self.min, self.max = float(info.eps), float(info.min), float(info.max)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -math.floor(-math.log10(self.eps))  # (the decimal digits eps leaves, as Paddle)

    def __repr__(self) -> str:
        return (f"paddle.finfo(min={self.min:g}, max={self.max:g}, eps={self.eps:g}, resolution={self.resolution:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, bits={self.bits}, dtype={self.dtype})")

    __str__ = __repr__


class iinfo:  # noqa: N801 - Paddle's name
    """The limits of an integer dtype: ``bits``, ``min``, ``max`` (Python ints) and ``dtype`` (its name).

    >>> import pylayer_jax as paddle
    >>> paddle.iinfo(paddle.int8).min
    -128
    """

    def __init__(self, dtype: Any) -> None:
        name = _name("iinfo", dtype, _INT_NAMES)
        info = np.iinfo(np.dtype(name))
        self.dtype, self.bits, self.min, self.max = name, int(info.bits), int(info.min), int(info.max)

    def __repr__(self) -> str:
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"

    __str__ = __repr__
