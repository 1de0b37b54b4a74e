"""Fractional max pooling (``paddle.nn.functional.fractional_max_pool2d`` / ``3d``; layer L1).

Paddle's CPU kernel computes each spatial dim's pooling regions in float32 from ``u`` (``random_u``):

* without a kernel size: ``alpha = in / out`` and ``u`` scaled by
  ``min((in // out + 2) / alpha - 1, (in + 1 - in // out) / alpha - (out - 1))``; region ``i`` is
  ``[int((i + u) * alpha) - int(u * alpha), int((i + 1 + u) * alpha) - int(u * alpha))``;
* with a kernel size ``k``: ``alpha = (in - k) / (out - 1)``, ``u`` as given, and region ``i`` starts as
  above and holds ``k`` entries (overlapping regions);

each region clipped to ``[0, in)`` (``int`` truncates toward zero). The max is the first largest value in
row-major order that is greater than ``-FLT_MAX`` (NaN never is); a region without one gives ``-FLT_MAX`` and
index -1. The regions are computed inside the kernel from ``u`` (an input, not an attribute), so a new ``u``
compiles nothing. Both ops return the pooled values and the index mask (the flat index into each channel's
spatial input, int32); they keep the input and the mask, as Paddle's kernel does, and the backward adds each
cotangent at its mask index.
"""

from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np

from ._layout import check_ndim
from .table import defop

_F32 = np.float32
_FLT_MAX = float(np.finfo(np.float32).max)


def _shown(v):  # noqa: ANN001, ANN202  (attributes arrive with lists made tuples: show them as given)
    return list(v) if isinstance(v, tuple) else v


def fractional_sizes(api: str, x, output_size, kernel_size, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:  # noqa: ANN001
    """(output sizes, kernel sizes: 0 for disjoint regions) checked against the input's spatial sizes."""
    check_ndim(api, x, n)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"{api}: the input must be a floating tensor (float16, bfloat16, float32 or float64), but "
                        f"received {jnp.dtype(x.dtype).name}. Cast it with .astype('float32').")
    size = tuple(int(s) for s in x.shape[2:])
    vals = (output_size,) * n if isinstance(output_size, int) else tuple(output_size)
    if len(vals) != n:
        raise ValueError(f"{api}: output_size must be an int or {n} ints (None keeps that size), but received "
                         f"{_shown(output_size)!r}.")
    out = tuple(size[i] if v is None else v for i, v in enumerate(vals))
    if any(isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1 for v in out):
        raise ValueError(f"{api}: output_size must hold positive ints, but received {_shown(output_size)!r}.")
    if kernel_size is None:
        k = (0,) * n
    else:
        k = (kernel_size,) * n if isinstance(kernel_size, int) else tuple(kernel_size)
        if len(k) != n or any(isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 0 for v in k):
            raise ValueError(f"{api}: kernel_size must be None, a non-negative int or {n} of them, but received "
                             f"{_shown(kernel_size)!r}.")
    out, k = tuple(int(v) for v in out), tuple(int(v) for v in k)
    for i in range(n):
        if k[i] == 0 and out[i] > size[i]:
            raise ValueError(f"{api}: output_size {list(out)} is larger than the input's spatial size {list(size)} "
                             f"in dim {i}; fractional pooling only shrinks. Pass an output_size of at most "
                             f"{size[i]} there.")
        if k[i] > 0 and size[i] < out[i] - 1 + k[i]:
            raise ValueError(f"{api}: with kernel_size {list(k)}, output_size {list(out)} needs an input size of at "
                             f"least output_size - 1 + kernel_size = {out[i] - 1 + k[i]} in spatial dim {i}, but "
                             f"it is {size[i]}. Use a smaller kernel_size or output_size.")
    return out, k


def _trunc(v):  # noqa: ANN001, ANN202
    return v.astype(jnp.int32)  # (C's float -> int: toward zero; the values here are not negative)


def _regions(size: int, out: int, k: int, u) -> tuple:  # noqa: ANN001
    """Start index, end index (both [out], int32) and the widest region of one dim, as Paddle's kernel."""
    if k > 0 and out == 1:
        # Paddle divides by out - 1 = 0; the infinite (or NaN) products truncate to the same integer, so the
        # one region starts at 0
        start = jnp.zeros((1,), jnp.int32)
        return start, jnp.minimum(start + k, size), k
    alpha = _F32(size - k) / _F32(out - (1 if k > 0 else 0))
    if k == 0:
        base = size // out
        u = u * min(_F32(base + 2) / alpha - _F32(1), _F32(size + 1 - base) / alpha - _F32(out - 1))
    i = jnp.arange(out, dtype=jnp.float32)
    shift = _trunc(u * alpha)
    start = _trunc((i + u) * alpha) - shift
    end = start + k if k > 0 else _trunc((i + 1 + u) * alpha) - shift
    # the widest region: floor(alpha) + 1, plus one for float32 rounding at integer boundaries
    width = k if k > 0 else min(int(math.floor(alpha)) + 2, size)
    return jnp.maximum(start, 0), jnp.minimum(end, size), width


def fractional_max_pool_nd(api: str, n: int, x, random_u, output_size, kernel_size):  # noqa: ANN001, ANN201
    out, k = fractional_sizes(api, x, output_size, kernel_size, n)
    size = tuple(x.shape[2:])
    u = jnp.asarray(random_u).astype(jnp.float32).reshape(())  # Paddle's attribute is a float32
    vals = x
    valid = jnp.ones((), bool)
    flat = jnp.zeros((), jnp.int32)
    widths = []
    for d in range(n):
        start, end, w = _regions(size[d], out[d], k[d], u)
        pos = start[:, None] + jnp.arange(w, dtype=jnp.int32)[None, :]  # [out, w]
        ok = pos < end[:, None]
        pos = jnp.clip(pos, 0, size[d] - 1)
        ax = 2 + 2 * d  # dims before d are already (out, w) pairs
        vals = jnp.take(vals, pos.reshape(-1), axis=ax).reshape(vals.shape[:ax] + (out[d], w) + vals.shape[ax + 1:])
        shape = [1] * (2 * n)
        shape[2 * d], shape[2 * d + 1] = out[d], w
        valid = valid & ok.reshape(shape)
        stride = math.prod(size[d + 1:])
        flat = flat + (pos * stride).reshape(shape)
        widths.append(w)
    # [N, C, o0, w0, o1, w1, ...] -> [N, C, o0, o1, ..., w0 * w1 * ...]
    perm = [0, 1] + [2 + 2 * d for d in range(n)] + [3 + 2 * d for d in range(n)]
    vals = jnp.transpose(vals, perm).reshape(x.shape[:2] + out + (-1,))
    perm2 = [2 * d for d in range(n)] + [2 * d + 1 for d in range(n)]
    valid = jnp.broadcast_to(jnp.transpose(valid, perm2), out + tuple(widths)).reshape(out + (-1,))
    flat = jnp.broadcast_to(jnp.transpose(flat, perm2), out + tuple(widths)).reshape(out + (-1,))
    floor = jnp.asarray(-_FLT_MAX, x.dtype)
    keep = valid & (vals > floor)  # (NaN compares false: skipped, as Paddle's kernel skips it)
    masked = jnp.where(keep, vals, -jnp.inf)
    arg = jnp.argmax(masked, axis=-1)[..., None]  # the first largest value
    found = jnp.any(keep, axis=-1)
    res = jnp.where(found, jnp.take_along_axis(vals, arg, -1)[..., 0], floor)
    idx = jnp.take_along_axis(jnp.broadcast_to(flat, vals.shape), arg, -1)[..., 0]
    return res, jnp.where(found, idx, -1).astype(jnp.int32)


def _scatter_vjp(s, ct, output_size=None, kernel_size=None):  # noqa: ANN001, ANN202
    """Each cotangent added at its mask index (entries whose region held no value, index -1, add nothing)."""
    x, mask = s["x"], s["out1"]
    g = ct[0] if isinstance(ct, tuple | list) else ct
    nb, c = x.shape[:2]
    total = math.prod(x.shape[2:])
    m = jnp.reshape(mask, (nb, c, -1)).astype(jnp.int32)
    m = jnp.where(m >= 0, m, total)
    flat = jnp.zeros((nb, c, total), x.dtype)
    bi = jnp.arange(nb)[:, None, None]
    ci = jnp.arange(c)[None, :, None]
    flat = flat.at[bi, ci, m].add(jnp.reshape(g, (nb, c, -1)).astype(x.dtype), mode="drop")
    return jnp.reshape(flat, x.shape), None


@defop(("x", "random_u"), saves=("x", "out1"), vjp=_scatter_vjp, nondiff=("random_u",), method=False)
def fractional_max_pool2d(x, random_u, output_size, kernel_size=None):
    """Fractional max pooling of ``[N, C, H, W]`` at ``u = random_u`` (a float32 scalar in (0, 1)): the pooled
    values and the int32 index mask."""
    return fractional_max_pool_nd("fractional_max_pool2d", 2, x, random_u, output_size, kernel_size)


@defop(("x", "random_u"), saves=("x", "out1"), vjp=_scatter_vjp, nondiff=("random_u",), method=False)
def fractional_max_pool3d(x, random_u, output_size, kernel_size=None):
    """Fractional max pooling of ``[N, C, D, H, W]`` at ``u = random_u``: the pooled values and the int32 index
    mask."""
    return fractional_max_pool_nd("fractional_max_pool3d", 3, x, random_u, output_size, kernel_size)
