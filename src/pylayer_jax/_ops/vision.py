"""Resampling and attention (``paddle.nn.functional``; layer L1): interpolate / upsample,
affine_grid, grid_sample, bilinear, scaled_dot_product_attention.

Interpolation is separable: each spatial dim is resampled by an ``[out, in]`` matrix
built from Paddle's source-coordinate rule for the mode, align_corners and align_mode.
"""

from __future__ import annotations

import functools
import itertools
import math

import jax
import jax.numpy as jnp
import numpy as np

from .pool import adaptive_avg_nd
from .table import defop

_MODES = {"nearest": None, "linear": 1, "bilinear": 2, "trilinear": 3, "bicubic": 2, "area": None}
_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}
_LAST = {1: "NWC", 2: "NHWC", 3: "NDHWC"}


def _ratio(i, o, align_corners, scale):  # noqa: ANN001, ANN202
    if align_corners:
        return (i - 1) / (o - 1) if o > 1 else 0.0
    return 1.0 / scale if scale else i / o


def _nearest_matrix(i, o, align_corners, scale):  # noqa: ANN001, ANN202
    r = _ratio(i, o, align_corners, scale)
    dst = jnp.arange(o)
    src = jnp.floor(r * dst + 0.5) if align_corners else jnp.floor(r * dst)
    src = jnp.minimum(src.astype(jnp.int64), i - 1)
    return jax.nn.one_hot(src, i, dtype=jnp.float64)


def _linear_matrix(i, o, align_corners, align_mode, scale):  # noqa: ANN001, ANN202
    r = _ratio(i, o, align_corners, scale)
    dst = jnp.arange(o, dtype=jnp.float64)
    if not align_corners and align_mode == 0:
        src = jnp.maximum(r * (dst + 0.5) - 0.5, 0)
    else:
        src = r * dst
    lo = jnp.minimum(jnp.floor(src).astype(jnp.int64), i - 1)
    hi = jnp.minimum(lo + 1, i - 1)
    f = src - lo
    return jax.nn.one_hot(lo, i, dtype=jnp.float64) * (1 - f)[:, None] + jax.nn.one_hot(hi, i, dtype=jnp.float64) * f[:, None]


def _cubic(t, a=-0.75):  # noqa: ANN001, ANN202
    t = jnp.abs(t)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return jnp.where(t <= 1, near, jnp.where(t < 2, far, 0.0))


def _cubic_matrix(i, o, align_corners, scale):  # noqa: ANN001, ANN202
    r = _ratio(i, o, align_corners, scale)
    dst = jnp.arange(o, dtype=jnp.float64)
    src = r * dst if align_corners else r * (dst + 0.5) - 0.5
    lo = jnp.floor(src)
    t = src - lo
    m = jnp.zeros((o, i), jnp.float64)
    for k in range(-1, 3):
        idx = jnp.clip(lo.astype(jnp.int64) + k, 0, i - 1)
        m = m + jax.nn.one_hot(idx, i, dtype=jnp.float64) * _cubic(t - k)[:, None]
    return m


def _uint8_axis(i, o, align_corners, align_mode, scale, f32_src):  # noqa: ANN001, ANN202
    """One axis of Paddle's uint8 bilinear/trilinear kernel: the low and high source indices and their float32
    weights, in the kernel's precisions (a float32 ratio; the low index from the source coordinate in double, the
    weight from it in double then float32, or in float32 throughout where ``f32_src``)."""
    ratio = np.float32(0.0)
    if o > 1:
        ratio = np.float32((i - 1) / (o - 1)) if align_corners else np.float32(1.0 / scale if scale else np.float32(i) / np.float32(o))
    flag = align_mode == 0 and not align_corners
    k = np.arange(o)
    kf = k.astype(np.float32)
    src = float(ratio) * (k + 0.5) - 0.5
    lo = np.maximum((src if flag else ratio * kf).astype(np.int64), 0)
    hi = np.minimum(lo + 1, i - 1)
    s32 = (ratio * (kf + np.float32(0.5)) - np.float32(0.5)) if f32_src else src.astype(np.float32)
    s32 = np.maximum(s32, np.float32(0))
    d_hi = (s32 - lo.astype(np.float32)) if flag else (ratio * kf - lo.astype(np.float32))
    d_hi = d_hi.astype(np.float32)
    return lo, hi, (np.float32(1) - d_hi).astype(np.float32), d_hi


def _uint8_corners(x, axes):  # noqa: ANN001, ANN202
    """Paddle's uint8 bilinear/trilinear kernel: each corner's value times its weights along the axes in order,
    the corners summed in float32 in the kernel's order, truncated to uint8."""
    n = len(axes)

    def f32(a):  # noqa: ANN001, ANN202
        # each float32 step is done in float64 (exact for these products and sums) and rounded to float32, so that
        # XLA cannot fuse a multiply and an add into one rounding, as Paddle's compiled loop does not
        return a.astype(jnp.float32).astype(jnp.float64)

    total = None
    for pick in itertools.product((0, 1), repeat=n):
        pick = pick[::-1] if n == 2 else pick  # bilinear: the first axis's choice varies fastest; trilinear: the last
        v = x.astype(jnp.float64)
        for d, (lo, hi, _, _) in enumerate(axes):
            v = jnp.take(v, jnp.asarray(hi if pick[d] else lo), axis=2 + d)
        for d, (_, _, w_lo, w_hi) in enumerate(axes):
            w = jnp.asarray(w_hi if pick[d] else w_lo, jnp.float64).reshape((-1,) + (1,) * (n - 1 - d))
            v = f32(v * w)
        total = v if total is None else f32(total + v)
    return total.astype(x.dtype)


def resize(api, x, size, scale_factor, mode, align_corners, align_mode, data_format):  # noqa: ANN001, ANN202
    """Paddle's interpolate on a concrete argument set."""
    if mode not in _MODES:
        raise ValueError(f"{api}: mode must be one of {', '.join(_MODES)}, but received {mode!r}.")
    n = x.ndim - 2
    if n not in (1, 2, 3):
        raise ValueError(f"{api}: the input must be 3-D, 4-D or 5-D, but it has shape {list(x.shape)}.")
    if _MODES[mode] is not None and _MODES[mode] != n:
        raise ValueError(f"{api}: mode {mode!r} needs a {_MODES[mode] + 2}-D input, but it has shape {list(x.shape)}.")
    if data_format is None:
        data_format = _FIRST[n]
    if data_format not in (_FIRST[n], _LAST[n]) and not (n == 1 and data_format in ("NCL", "NLC")):
        raise ValueError(f"{api}: data_format must be {_FIRST[n]!r} or {_LAST[n]!r} for a {n + 2}-D input, but received {data_format!r}.")
    cl = data_format[-1] == "C"
    if align_mode not in (0, 1):
        raise ValueError(f"{api}: align_mode must be 0 or 1, but received {align_mode!r}.")
    if align_corners and mode in ("nearest", "area"):
        raise ValueError(f"{api}: align_corners=True is only valid with the linear modes and bicubic, not {mode!r}.")
    if (size is None) == (scale_factor is None):
        raise ValueError(f"{api}: pass exactly one of size and scale_factor (received size={size!r}, scale_factor={scale_factor!r}).")
    xc = jnp.moveaxis(x, -1, 1) if cl else x
    integer = not jnp.issubdtype(x.dtype, jnp.inexact)
    linear = mode in ("linear", "bilinear", "trilinear")
    if integer and mode not in ("nearest", "area") and not (x.dtype == jnp.uint8 and linear):
        raise TypeError(f"{api}: mode {mode!r} needs a floating-point input (Paddle's kernels interpolate "
                        f"{'only uint8 among integer types' if linear else 'no integer type'} in this mode), "
                        f"but x is {x.dtype}; cast it first, e.g. x.astype('float32').")
    ins = tuple(xc.shape[2:])
    if size is not None:
        outs = (size,) * n if isinstance(size, int) else tuple(size)
        scales = (None,) * n
    else:
        scales = (scale_factor,) * n if isinstance(scale_factor, int | float) else tuple(scale_factor)
        if len(scales) != n or any(s <= 0 for s in scales):
            raise ValueError(f"{api}: scale_factor must be a positive number or {n} of them, but received {scale_factor!r}.")
        outs = tuple(int(i * s) for i, s in zip(ins, scales))
    if len(outs) != n or any(not isinstance(o, int) or o <= 0 for o in outs):
        raise ValueError(f"{api}: size must be a positive int or {n} of them, but received {size!r}.")
    if integer and mode in ("bilinear", "trilinear"):
        out = _uint8_corners(xc, [_uint8_axis(i, o, align_corners, align_mode, s, n == 3 or d == 1)
                                  for d, (i, o, s) in enumerate(zip(ins, outs, scales))])
    elif mode == "area":
        out = adaptive_avg_nd(api, n, xc, outs, _FIRST[n] if n > 1 else "NCL")
    else:
        for d in range(n):
            i, o, s = ins[d], outs[d], scales[d]
            if mode == "nearest":
                m = _nearest_matrix(i, o, align_corners, s)
            elif mode == "bicubic":
                m = _cubic_matrix(i, o, align_corners, s)
            else:
                m = _linear_matrix(i, o, align_corners, align_mode, s)
            if integer and mode != "nearest":  # uint8 linear: interpolated in float32, truncated back
                xc = xc.astype(jnp.float32)
            xc = jnp.moveaxis(jnp.tensordot(xc, m.astype(xc.dtype), axes=([2 + d], [1])), -1, 2 + d)
        out = xc.astype(x.dtype)
    return jnp.moveaxis(out, 1, -1) if cl else out


@defop(1, method=False)
def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
                data_format=None, recompute_scale_factor=None, antialias=False):
    """Resize the spatial dims (nearest, linear, bilinear, trilinear, bicubic, area) with Paddle's coordinate rules."""
    if antialias:
        raise NotImplementedError("interpolate: antialias=True is not supported; received antialias=True.")
    if recompute_scale_factor:
        scale_factor, size = None, tuple(int(i * s) for i, s in zip(x.shape[2:], _scales(scale_factor, x.ndim - 2)))
    return resize("interpolate", x, size, scale_factor, mode, align_corners, align_mode, data_format)


# mode="area" is an adaptive average pool in Paddle, whose kernel keeps its input and output: nn.functional.interpolate
# runs that mode through this entry so that saved-tensor hooks see them (its derivative reads neither)
interpolate_area = defop(1, saves=("x", "out"), name="interpolate_area", method=False)(interpolate.fn)


def _scales(scale_factor, n):  # noqa: ANN001, ANN202
    return (scale_factor,) * n if isinstance(scale_factor, int | float) else tuple(scale_factor)


@defop(1, method=False)
def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0, data_format=None):
    """The same resize as interpolate."""
    return resize("upsample", x, size, scale_factor, mode, align_corners, align_mode, data_format)


def _base(n, align_corners, dtype):  # noqa: ANN001, ANN202
    if align_corners:
        return jnp.linspace(-1.0, 1.0, n, dtype=dtype) if n > 1 else jnp.zeros((1,), dtype)
    return ((jnp.arange(n, dtype=dtype) * 2 + 1) / n - 1).astype(dtype)


@defop(1, saves=("theta",), method=False)  # Paddle's kernel keeps theta (the grid is linear in it: not read here)
def affine_grid(theta, out_shape, align_corners=True):
    """Sampling grid ``[N, H, W, 2]`` (or ``[N, D, H, W, 3]``) of the affine maps ``theta`` over [-1, 1] coordinates."""
    shape = [int(s) for s in out_shape]
    if len(shape) == 4 and theta.shape[1:] == (2, 3):
        n, _, h, w = shape
        gy, gx = jnp.meshgrid(_base(h, align_corners, theta.dtype), _base(w, align_corners, theta.dtype), indexing="ij")
        pts = jnp.stack([gx, gy, jnp.ones_like(gx)], -1)  # [H, W, 3]
        return jnp.einsum("hwk,nik->nhwi", pts, theta)
    if len(shape) == 5 and theta.shape[1:] == (3, 4):
        n, _, d, h, w = shape
        gz, gy, gx = jnp.meshgrid(_base(d, align_corners, theta.dtype), _base(h, align_corners, theta.dtype),
                                  _base(w, align_corners, theta.dtype), indexing="ij")
        pts = jnp.stack([gx, gy, gz, jnp.ones_like(gx)], -1)
        return jnp.einsum("dhwk,nik->ndhwi", pts, theta)
    raise ValueError(
        f"affine_grid: theta must be [N, 2, 3] with a 4-long out_shape or [N, 3, 4] with a 5-long one, but received "
        f"theta {list(theta.shape)} and out_shape {shape}."
    )


def _reflect(c, lo, hi):  # noqa: ANN001, ANN202
    span = hi - lo
    if span <= 0:
        return jnp.zeros_like(c)
    c = jnp.abs(c - lo)
    flips = jnp.floor(c / span)
    extra = c - flips * span
    return jnp.where(flips % 2 == 0, lo + extra, hi - extra)


def _unnorm(g, size, align_corners, padding_mode):  # noqa: ANN001, ANN202
    c = (g + 1) / 2 * (size - 1) if align_corners else ((g + 1) * size - 1) / 2
    if padding_mode == "border":
        c = jnp.clip(c, 0, size - 1)
    elif padding_mode == "reflection":
        c = _reflect(c, 0, size - 1) if align_corners else jnp.clip(_reflect(c, -0.5, size - 0.5), 0, size - 1)
    return c


@defop(("x", "grid"), saves=("x", "grid"), method=False)
def grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True):
    """Sample ``x`` [N, C, H, W] at ``grid`` [N, Ho, Wo, 2] ((x, y) in [-1, 1]), or ``x`` [N, C, D, H, W] at
    ``grid`` [N, Do, Ho, Wo, 3] ((x, y, z)): bilinear (trilinear for 5-D) or nearest."""
    api = "grid_sample"
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"{api}: mode must be 'bilinear' or 'nearest', but received {mode!r}.")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"{api}: padding_mode must be 'zeros', 'border' or 'reflection', but received {padding_mode!r}.")
    if x.ndim not in (4, 5):
        raise ValueError(f"{api}: x must be 4-D [N, C, H, W] or 5-D [N, C, D, H, W], but has shape {list(x.shape)}.")
    k = x.ndim - 2
    if grid.ndim != x.ndim or grid.shape[-1] != k or grid.shape[0] != x.shape[0]:
        want = "[N, Ho, Wo, 2]" if k == 2 else "[N, Do, Ho, Wo, 3]"
        raise ValueError(f"{api}: grid must be {want} with x's batch size for x of shape {list(x.shape)}, but has "
                         f"shape {list(grid.shape)}.")
    sizes = x.shape[2:]                                   # (H, W) or (D, H, W)
    # grid's last axis is (x, y[, z]): the spatial axes of x in reverse
    coords = [_unnorm(grid[..., k - 1 - i], sizes[i], align_corners, padding_mode) for i in range(k)]
    bidx = jnp.arange(x.shape[0]).reshape((-1,) + (1,) * k)

    def at(idx):  # noqa: ANN001, ANN202
        ok = functools.reduce(jnp.logical_and, [(j >= 0) & (j <= s - 1) for j, s in zip(idx, sizes)])
        v = x[(bidx, slice(None)) + tuple(jnp.clip(j, 0, s - 1) for j, s in zip(idx, sizes))]  # [N, *out, C]
        return jnp.where(ok[..., None], v, 0)

    if mode == "nearest":
        out = at([jnp.round(c).astype(jnp.int64) for c in coords])
    else:
        lo = [jnp.floor(c) for c in coords]
        frac = [(c - f)[..., None] for c, f in zip(coords, lo)]
        lo = [f.astype(jnp.int64) for f in lo]
        out = 0
        for corner in itertools.product((0, 1), repeat=k):
            wgt = functools.reduce(lambda p, q: p * q, [fr if e else 1 - fr for e, fr in zip(corner, frac)])
            out = out + at([f + e for f, e in zip(lo, corner)]) * wgt
    return jnp.moveaxis(out, -1, 1).astype(x.dtype)


@defop(("x1", "x2", "weight", "bias"), saves=("x1", "x2", "weight"), method=False)
def bilinear(x1, x2, weight, bias=None):
    """``out[n, o] = x1[n] @ weight[o] @ x2[n] + bias[o]`` with weight ``[out, in1, in2]``."""
    if x1.ndim != 2 or x2.ndim != 2 or weight.ndim != 3 or weight.shape[1:] != (x1.shape[1], x2.shape[1]):
        raise ValueError(
            f"bilinear: x1 [N, in1], x2 [N, in2] and weight [out, in1, in2] must match, but received "
            f"{list(x1.shape)}, {list(x2.shape)} and {list(weight.shape)}."
        )
    out = jnp.einsum("ni,oij,nj->no", x1, weight, x2)
    return out if bias is None else out + jnp.reshape(bias, (1, -1))


@defop(("query", "key", "value", "attn_mask", "rng"), saves=("query", "key", "value", "attn_mask", "rng"),
       nondiff=("rng",), method=False)
def scaled_dot_product_attention(query, key, value, attn_mask=None, rng=None, dropout_p=0.0, is_causal=False,
                                 training=True, scale=None):
    """``softmax(q k^T * scale + mask) v`` over ``[batch, seq, heads, dim]`` inputs (Paddle's layout).

    A bool mask keeps the True positions; a float mask is added. ``is_causal`` masks the future.
    Fewer key heads than query heads are repeated (grouped-query attention).
    """
    api = "scaled_dot_product_attention"
    if query.ndim != 4 or key.ndim != 4 or value.ndim != 4:
        raise ValueError(f"{api}: query, key and value must be 4-D [batch, seq, heads, dim], but received {list(query.shape)}, {list(key.shape)}, {list(value.shape)}.")
    shapes = f"query {list(query.shape)}, key {list(key.shape)}, value {list(value.shape)}"
    hq, hk = query.shape[2], key.shape[2]
    if hk != value.shape[2] or (hk and hq % hk):  # AssertionError, as Paddle's checks of the head counts
        raise AssertionError(
            f"{api}: key and value must have the same number of heads and the query's must be a multiple of it "
            f"(grouped-query attention), but received {shapes}.")
    if key.shape[3] != query.shape[3] or key.shape[:2] != value.shape[:2] or key.shape[0] != query.shape[0]:
        raise ValueError(
            f"{api}: query and key must share batch and head dim, key and value batch and sequence length "
            f"([batch, seq, heads, dim] layout), but received {shapes}.")
    if attn_mask is not None and not (attn_mask.dtype == jnp.bool_ or jnp.issubdtype(attn_mask.dtype, jnp.floating)):
        raise TypeError(
            f"{api}: attn_mask must be bool (True keeps a position) or floating (added to the scores), but received "
            f"{attn_mask.dtype}. Cast it, e.g. mask.astype('bool') for a 0/1 keep mask.")
    if hk != hq:
        key = jnp.repeat(key, hq // hk, axis=2)
        value = jnp.repeat(value, hq // hk, axis=2)
    sc = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    s = jnp.einsum("bqhd,bkhd->bhqk", query, key) * sc
    if is_causal:
        lq, lk = s.shape[-2:]
        s = jnp.where(jnp.tril(jnp.ones((lq, lk), bool)), s, -jnp.inf)
    if attn_mask is not None:
        s = jnp.where(attn_mask, s, -jnp.inf) if attn_mask.dtype == jnp.bool_ else s + attn_mask.astype(s.dtype)
    p = jax.nn.softmax(s, axis=-1)
    if dropout_p > 0 and training:
        keep = jax.random.bernoulli(rng.astype(jnp.uint32), 1.0 - dropout_p, p.shape)
        p = jnp.where(keep, p / (1.0 - dropout_p), 0).astype(p.dtype)
    return jnp.einsum("bhqk,bkhd->bqhd", p, value).astype(query.dtype)
