"""The multidimensional histogram kernel (layer L1); ``_api.histogramdd`` reads Paddle's arguments for it."""

from __future__ import annotations

import math

import jax.numpy as jnp

from .table import defop


def _column_edges(col, n, lo_hi, dtype):  # noqa: ANN001, ANN202
    lo, hi = (jnp.min(col), jnp.max(col)) if lo_hi is None else lo_hi
    return jnp.linspace(jnp.asarray(lo, dtype), jnp.asarray(hi, dtype), n + 1).astype(dtype)


@defop(("x", "weights", "edges"), differentiable=False, method=False)
def histogramdd_kernel(x, weights=None, edges=None, bins=(10,), ranges=None, density=False):
    """``(hist, edges_0, ..., edges_{D-1})``: the counts (or summed ``weights``) of the points ``x[..., :]`` (D
    coordinates each) in the cells of a D-dimensional grid, with each axis's bin edges given (``edges``) or spread
    evenly over ``ranges`` (``[lo0, hi0, lo1, hi1, ...]``) or the points' own span, ``bins[i]`` bins on axis i. A bin
    holds ``[e[k], e[k + 1])``, the last one also its right edge; points outside are left out. ``density``: the counts
    divided by their total and by each cell's volume."""
    d = x.shape[-1]
    pts = x.reshape(-1, d)
    if not edges:
        edges = [_column_edges(pts[:, i], bins[i], None if ranges is None else (ranges[2 * i], ranges[2 * i + 1]),
                               x.dtype) for i in range(d)]
    cell = jnp.zeros(pts.shape[0], jnp.int64)
    inside = jnp.ones(pts.shape[0], bool)
    for i, e in enumerate(edges):
        v, n = pts[:, i], e.shape[0] - 1
        k = jnp.searchsorted(e, v, side="right") - 1
        k = jnp.where(v == e[-1], n - 1, k)
        inside = inside & (v >= e[0]) & (v <= e[-1])
        cell = cell * n + jnp.clip(k, 0, n - 1)
    shape = tuple(int(e.shape[0]) - 1 for e in edges)
    w = jnp.ones(pts.shape[0], x.dtype) if weights is None else weights.reshape(-1).astype(x.dtype)
    hist = jnp.zeros(math.prod(shape), x.dtype).at[cell].add(jnp.where(inside, w, 0)).reshape(shape)
    if density:
        volume = jnp.ones((), x.dtype)
        for i, e in enumerate(edges):
            volume = volume[..., None] * jnp.diff(e).reshape((1,) * i + (-1,))
        hist = hist / jnp.sum(hist) / volume
    return (hist, *edges)
