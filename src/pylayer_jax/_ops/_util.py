"""Helpers shared by op definitions: Paddle's axis and dtype conventions on jnp."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from .. import _dtypes


def axis_arg(axis: Any) -> Any:
    """Paddle axis (int, list, tuple, None) -> jnp axis."""
    if isinstance(axis, list):
        return tuple(axis)
    if isinstance(axis, tuple) and len(axis) == 0:
        return None
    return axis


def as_float(*xs: Any) -> Any:
    """Integers and bools become the default float dtype (Paddle's rule for true division etc.)."""
    out = []
    for x in xs:
        if isinstance(x, int | bool):
            out.append(float(x))
        elif not isinstance(x, float) and not jnp.issubdtype(jnp.result_type(x), jnp.inexact):
            out.append(jnp.asarray(x).astype(_dtypes.default_float()))
        else:
            out.append(x)
    return out if len(out) > 1 else out[0]


def dtype_arg(dtype: Any) -> Any:
    return None if dtype is None else _dtypes.to_np(dtype)
