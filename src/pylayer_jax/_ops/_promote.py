"""Paddle's dtype rules for elementwise ops, and op aliases (layer L1).

Paddle promotes between two tensors only when both are floating (``float32 + float64`` is
float64); any other mismatch (``int32 + int64``, ``int64 + float32``, ``bool + int64``) is a
TypeError. A Python scalar adapts to the tensor: an integer tensor with a float scalar
becomes float32. In ``+ - * / // % **`` a 0-D tensor meeting an N-D one is read the same way,
as a number of its kind (see ``_with_zero_d``). Math ops (``exp``, ``sqrt``, ``divide`` ...) given integers compute in
float32 whatever the default dtype is. Inside a kernel a Python scalar arrives as a weakly
typed value, which is how it is told apart from a tensor.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from .table import TABLE, Op, defop


def is_weak(v: Any) -> bool:
    """True for Python scalars and weakly typed arrays (a scalar passed into a kernel)."""
    if v is None:
        return False
    if isinstance(v, bool | int | float | complex):
        return True
    try:
        return bool(jax.typeof(v).weak_type)
    except TypeError:
        return False


def _inexact(dt: Any) -> bool:
    return bool(jnp.issubdtype(dt, jnp.inexact))


def binary(api: str, x: Any, y: Any) -> tuple[Any, Any]:
    """Apply Paddle's two-operand dtype rule; returns the operands ready for a jnp call."""
    wx, wy = is_weak(x), is_weak(y)
    if not wx and not wy:
        dx, dy = jnp.result_type(x), jnp.result_type(y)
        if dx != dy and api in _ZERO_D_AS_NUMBER and (jnp.ndim(x) == 0) != (jnp.ndim(y) == 0):
            return _with_zero_d(x, y, dx, dy)
        if dx != dy and not (_inexact(dx) and _inexact(dy)):
            raise TypeError(
                f"{api}: Paddle combines tensors of different dtypes only when both are floating point, but "
                f"received {dx} and {dy}. Cast one of them with .astype() to the other's dtype first."
            )
        return x, y
    if wx and not wy:
        y, x = _with_scalar(y, x)
    elif wy and not wx:
        x, y = _with_scalar(x, y)
    return x, y


# the arithmetic ops in which Paddle reads a 0-D tensor against an N-D one as a number of its kind
_ZERO_D_AS_NUMBER = frozenset(("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow"))


def _kind(dt: Any) -> int:
    return 0 if dt == jnp.bool_ else 2 if _inexact(dt) else 1


def _with_zero_d(x: Any, y: Any, dx: Any, dy: Any) -> tuple[Any, Any]:
    """A 0-D tensor meeting an N-D one in ``+ - * / // % **``: of the same kind (bool, integer, floating) or a lower
    one, it takes the N-D one's dtype (``float32 [N] + float64 []`` is float32, ``int32 [N] + int64 []`` int32);
    of a higher kind its dtype wins (``int64 [N] + float32 []`` is float32), as in Paddle."""
    zx = jnp.ndim(x) == 0
    z_dt, n_dt = (dx, dy) if zx else (dy, dx)
    target = n_dt if _kind(z_dt) <= _kind(n_dt) else z_dt
    return _cast(x, target), _cast(y, target)


def _cast(x: Any, dt: Any) -> Any:
    x = jnp.asarray(x)
    return float32_of(x).astype(dt) if x.dtype == jnp.bool_ and _inexact(dt) else x.astype(dt)


def _with_scalar(t: Any, s: Any) -> tuple[Any, Any]:
    """A tensor meeting a Python scalar: an integer/bool tensor and a float scalar give float32."""
    if _inexact(jnp.result_type(s)) and not _inexact(jnp.result_type(t)):
        t = float32_of(t)
    return t, s


def float32_of(x: Any) -> Any:
    """``x`` as float32; a bool goes through int8 first, since XLA rewrites ``float(bool) / y`` as a select that
    gives 0 for ``False / 0.0`` (IEEE and Paddle: NaN)."""
    x = jnp.asarray(x)
    if x.dtype == jnp.bool_:
        x = x.astype(jnp.int8)
    return x.astype(jnp.float32)


def autocast(x: Any) -> Any:
    """Integer and bool inputs of a floating math op compute in float32 (Paddle's autocast)."""
    if isinstance(x, bool | int):
        return float(x)
    if not _inexact(jnp.result_type(x)):
        if is_weak(x):  # a Python number passed in as an array: it stays weak (``3 / x`` keeps x's float16)
            return x + 0.0
        return float32_of(x)
    return x


def alias(op: Op, name: str) -> Op:
    """Register ``op`` again under another Paddle name (``mod`` for ``remainder`` ...)."""
    if name in TABLE:
        raise ValueError(f"alias: an op named {name!r} is already registered; pick another name.")
    return defop(
        op.tensor_names,
        saves=op.saves,
        vjp=op.vjp,
        nondiff=tuple(op.nondiff),
        name=name,
        method=op.method,
        inplace=op.inplace,
        differentiable=op.differentiable,
        hidden=op.hidden,
    )(op.fn)
