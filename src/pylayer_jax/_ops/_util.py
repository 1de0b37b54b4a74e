"""Helpers shared by op definitions: Paddle's axis and dtype conventions on jnp."""

from __future__ import annotations

import math
import os
from typing import Any

import jax.numpy as jnp
import numpy as np

from .._runtime import dtypes as _dtypes


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


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX system: no bound from here
        return 2**63


_MEMORY = _physical_memory()


def check_numel(dims: Any, api: str) -> None:
    """Refuse a shape no allocation can hold before XLA tries (an overflowing size aborts the process)."""
    n = math.prod(int(d) for d in dims)
    if n >= 2**59:  # 16 bytes an element (complex128) overflows a 64-bit byte count
        raise MemoryError(
            f"{api}: shape {list(dims)} has {n} elements, more than a 64-bit byte count can address. "
            "Use a smaller shape."
        )
    if n > _MEMORY:  # even one byte an element is more than this machine's memory
        raise MemoryError(
            f"{api}: shape {list(dims)} has {n} elements, more bytes than this machine's {_MEMORY} bytes of "
            "memory. Use a smaller shape."
        )


# the dtypes a number input may meet (``defop``'s ``numbers_if``): their smallest normal and largest magnitudes
_INPUT_RANGE = {np.dtype(n): (float(np.finfo(n).tiny), float(np.finfo(n).max)) for n in ("float32", "float64")}


def exact_input(dtype: Any, *numbers: float, factors: tuple[float, ...] = ()) -> bool:
    """Whether Python floats meeting a tensor of ``dtype`` give, passed to a kernel as traced inputs, bit for bit
    what they give compiled in (``defop``'s ``numbers_if``): a float32 or float64 tensor only (a float16 one rounds
    the input twice, an integer one truncates it), each number normal in that dtype (not 0, subnormal, infinite or
    NaN: XLA folds a constant 0 or keeps a subnormal constant that its arithmetic on inputs flushes), and the
    ``factors`` also not of magnitude 1 there (XLA folds a multiply by a constant 1 away, keeping the subnormals,
    -0.0 and NaNs that the multiply would change)."""
    rng = _INPUT_RANGE.get(dtype)
    if rng is None:
        return False
    tiny, big = rng
    f32 = dtype == _F32
    for v in (*numbers, *factors):
        a = abs(v)
        if not tiny <= a <= big:  # (a NaN fails both)
            return False
        if f32 and not tiny <= abs(float(np.float32(v))) <= big:
            return False
    for v in factors:
        if (float(np.float32(v)) if f32 else v) in (1.0, -1.0):
            return False
    return True


_F32 = np.dtype("float32")


# Paddle's CPU softmax kernels clip the shifted logits ``x - max(x)`` at -64 before ``exp``: no probability falls below
# ``exp(-64) / sum`` and no log-probability below about -64 - log(n) (a logit far below the others, a -1e9 mask,
# -inf). Derivatives are those of the unclipped function read from the output, as Paddle's grad kernels compute them.
_SOFTMAX_CLIP = -64.0


def _clipped_shift(x: Any, axis: int) -> Any:
    import jax

    m = jax.lax.stop_gradient(jnp.max(x, axis=axis, keepdims=True))
    return jnp.maximum(x - m, jnp.asarray(_SOFTMAX_CLIP, x.dtype))


def _make_clipped_softmaxes() -> tuple[Any, Any]:
    import functools

    import jax

    @functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
    def softmax(x: Any, axis: int) -> Any:
        e = jnp.exp(_clipped_shift(x, axis))
        return e / jnp.sum(e, axis=axis, keepdims=True)

    @softmax.defjvp
    def _softmax_jvp(axis: int, primals: Any, tangents: Any) -> Any:
        y = softmax(primals[0], axis)
        t = tangents[0]
        return y, y * (t - jnp.sum(y * t, axis=axis, keepdims=True))

    @functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
    def log_softmax(x: Any, axis: int) -> Any:
        s = _clipped_shift(x, axis)
        return s - jnp.log(jnp.sum(jnp.exp(s), axis=axis, keepdims=True))

    @log_softmax.defjvp
    def _log_softmax_jvp(axis: int, primals: Any, tangents: Any) -> Any:
        out = log_softmax(primals[0], axis)
        t = tangents[0]
        return out, t - jnp.sum(jnp.exp(out) * t, axis=axis, keepdims=True)

    return softmax, log_softmax


paddle_softmax, paddle_log_softmax = _make_clipped_softmaxes()
paddle_softmax.__doc__ = "Softmax along ``axis`` as Paddle's CPU kernel: shifted logits clipped at -64."
paddle_log_softmax.__doc__ = "Log-softmax along ``axis`` as Paddle's CPU kernel: shifted logits clipped at -64."
