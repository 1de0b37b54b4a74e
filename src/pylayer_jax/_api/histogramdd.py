"""``paddle.histogramdd`` / ``Tensor.histogramdd`` (layer L5): Paddle 3.3.1's arguments read and checked, the
counting done by the ``histogramdd_kernel`` op.

Differences from Paddle 3.3.1, on purpose: bins given as a list of edge Tensors is accepted (Paddle takes only a
tuple there and refuses a list); edges that do not increase, ranges with a low end above the high end, fewer than
one bin, and an integer x are refused (Paddle counts wrongly, crashes or returns an empty histogram); misuse Paddle
meets with an ``assert`` raises a ValueError or TypeError naming the rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _int_bins(bins: Any, d: int) -> tuple[int, ...]:
    if isinstance(bins, int | np.integer) and not isinstance(bins, bool):
        bins = [int(bins)] * d
    elif not isinstance(bins, list | tuple):  # (Paddle 3.3.1's errors about the form of bins are ValueErrors too)
        raise ValueError(f"histogramdd: bins must be an int, a list of ints (one per coordinate) or a tuple of edge "
                        f"Tensors, but received {type(bins).__name__}.")
    if len(bins) != d:
        raise ValueError(f"histogramdd: bins must give one entry per coordinate, {d} here (x's last axis), but "
                         f"received {len(bins)}.")
    for i, b in enumerate(bins):
        if isinstance(b, bool) or not isinstance(b, int | np.integer):
            raise ValueError(f"histogramdd: bins[{i}] must be an int, but received {type(b).__name__} {b!r}. Pass "
                            "the number of bins of each coordinate, or a Tensor of edges for every coordinate.")
        if b < 1:
            raise ValueError(f"histogramdd: bins[{i}] must be at least 1, but received {b}.")
    return tuple(int(b) for b in bins)


def _edges(bins: Any, x: Tensor, d: int) -> list[Tensor]:
    if len(bins) != d:
        raise ValueError(f"histogramdd: bins must give edges for each of the {d} coordinates (x's last axis), but "
                         f"received {len(bins)} Tensors.")
    for i, e in enumerate(bins):
        if not isinstance(e, Tensor):
            raise ValueError(f"histogramdd: bins[{i}] must be a Tensor of edges like the others, but received "
                            f"{type(e).__name__}.")
        if e.dtype != x.dtype:  # (Paddle 3.3.1: an AssertionError)
            raise TypeError(f"histogramdd: the edges bins[{i}] must have x's dtype {x.dtype.name}, but are "
                            f"{e.dtype.name}. Cast them (e.astype('{x.dtype.name}')).")
        a = np.asarray(e.astype("float64").numpy())
        if a.ndim != 1 or a.size < 2:
            raise ValueError(f"histogramdd: the edges bins[{i}] must be a 1-D Tensor of at least 2 values, but have "
                             f"shape {list(e.shape)}.")
        if not (np.diff(a) >= 0).all():
            raise ValueError(f"histogramdd: the edges bins[{i}] must not decrease, but received {a.tolist()}. "
                             "Sort them.")
    return list(bins)


def histogramdd(x: Tensor, bins: Any = 10, ranges: Any = None, density: bool = False, weights: Tensor | None = None,
                name: str | None = None) -> tuple[Tensor, list[Tensor]]:
    """The D-dimensional histogram of the points ``x`` (shape ``[..., D]``: D coordinates each) and the bin edges of
    each coordinate: ``bins`` an int (that many bins on every axis), a list of ints (one per axis) or a tuple of
    Tensors (the edges of each axis; ``ranges`` is then not read, as in Paddle); ``ranges`` ``[lo0, hi0, lo1, hi1,
    ...]`` (default: each coordinate's min and max); ``weights`` (shape ``x.shape[:-1]``, x's dtype) summed instead
    of counts; ``density`` the counts divided by their total and each cell's volume. A bin holds ``[e_k, e_k+1)``,
    the last one its right edge too; points outside the edges are left out."""
    if not isinstance(x, Tensor):  # (Paddle 3.3.1: an AttributeError)
        raise TypeError(f"histogramdd: x must be a Tensor, but received {type(x).__name__}. Convert it with "
                        "paddle.to_tensor first.")
    if x.ndim < 2:  # (Paddle 3.3.1: an AssertionError)
        raise ValueError(f"histogramdd: x must have at least 2 dimensions ([..., D]: points of D coordinates), but "
                         f"has shape {list(x.shape)}. Pass x.reshape([-1, 1]) for 1-D data.")
    if x.dtype.name not in _FLOATS:
        raise TypeError(f"histogramdd: x must be a floating tensor, but it is {x.dtype.name}. Cast it "
                        "(x.astype('float32')).")
    d = x.shape[-1]
    if weights is not None:
        if not isinstance(weights, Tensor):
            raise TypeError(f"histogramdd: weights must be a Tensor, but received {type(weights).__name__}.")
        if list(weights.shape) != list(x.shape[:-1]):  # (Paddle 3.3.1: an AssertionError)
            raise ValueError(f"histogramdd: weights must have x's shape without its last axis, {list(x.shape[:-1])}, "
                             f"but has {list(weights.shape)}.")
        if weights.dtype != x.dtype:
            raise TypeError(f"histogramdd: weights must have x's dtype {x.dtype.name}, but are "
                            f"{weights.dtype.name}. Cast them (weights.astype('{x.dtype.name}')).")
    edges = None
    if isinstance(bins, list | tuple) and bins and isinstance(bins[0], Tensor):
        edges = _edges(bins, x, d)
        attrs: dict[str, Any] = {"bins": tuple(int(e.shape[0]) - 1 for e in edges), "ranges": None}
    else:
        rng = None
        if ranges is not None:
            rng = tuple(float(r) for r in ranges)
            if len(rng) != 2 * d:
                raise ValueError(f"histogramdd: ranges must hold a low and a high end for each of the {d} "
                                 f"coordinates ({2 * d} numbers), but received {len(rng)}.")
            for i in range(d):
                if rng[2 * i] > rng[2 * i + 1]:
                    raise ValueError(f"histogramdd: ranges[{2 * i}] (low end of coordinate {i}) must not exceed "
                                     f"ranges[{2 * i + 1}] (its high end), but received {rng[2 * i]} > "
                                     f"{rng[2 * i + 1]}.")
        elif x.size == 0:
            raise ValueError("histogramdd: x holds no points, so the span of its coordinates is undefined. Pass "
                             "ranges.")
        attrs = {"bins": _int_bins(bins, d), "ranges": rng}
    out = apply_op(TABLE["histogramdd_kernel"], (x, weights, edges), {**attrs, "density": bool(density)})
    return out[0], list(out[1:])


def _histogramdd_method(self: Tensor, bins: Any = 10, ranges: Any = None, density: bool = False,
                        weights: Tensor | None = None, name: str | None = None) -> tuple[Tensor, list[Tensor]]:
    return histogramdd(self, bins, ranges, density, weights)


_histogramdd_method.__name__ = _histogramdd_method.__qualname__ = "histogramdd"
_histogramdd_method.__doc__ = histogramdd.__doc__
Tensor.histogramdd = _histogramdd_method  # type: ignore[attr-defined]
