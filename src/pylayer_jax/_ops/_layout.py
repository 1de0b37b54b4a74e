"""Argument helpers shared by the convolution and pooling ops: Paddle's sizes, paddings and layouts."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

_CHANNEL_LAST = {"NLC", "NHWC", "NDHWC"}
_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def check_format(api: str, data_format: str, n: int) -> bool:
    """True for a channel-last layout; raise ValueError for one that does not fit ``n`` spatial dims."""
    if data_format not in _FORMATS[n]:
        raise ValueError(
            f"{api}: data_format must be {' or '.join(repr(f) for f in _FORMATS[n])}, but received {data_format!r}."
        )
    return data_format in _CHANNEL_LAST


def check_ndim(api: str, x: Any, n: int) -> None:
    if x.ndim != n + 2:
        raise ValueError(
            f"{api}: the input must be {n + 2}-D (batch, channels and {n} spatial dims), but it has shape {list(x.shape)}."
        )


def tup(api: str, what: str, v: Any, n: int, positive: bool = True) -> tuple[int, ...]:
    """An int or a list of ``n`` ints -> a tuple of ``n`` ints (checked > 0 when ``positive``)."""
    vals = (v,) * n if isinstance(v, int) else tuple(v)
    if len(vals) != n or not all(isinstance(a, int | jnp.integer) for a in vals):
        raise ValueError(f"{api}: {what} must be an int or {n} ints, but received {v!r}.")
    if positive and any(a <= 0 for a in vals):
        raise ValueError(f"{api}: {what} must be positive, but received {v!r}.")
    if not positive and any(a < 0 for a in vals):
        raise ValueError(f"{api}: {what} must not be negative, but received {v!r}.")
    return tuple(int(a) for a in vals)


def paddings(api: str, padding: Any, n: int, channel_last: bool = False) -> list[tuple[int, int]] | str:
    """Paddle's padding forms -> ``n`` (before, after) pairs, or 'SAME' / 'VALID'.

    Accepted: an int; ``n`` ints (symmetric); ``2n`` ints (before/after per dim); ``n + 2``
    pairs including zero pairs for the batch and channel dims; 'SAME' or 'VALID'.
    """
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"{api}: padding must be 'SAME', 'VALID' or sizes, but received {padding!r}.")
        return p
    if isinstance(padding, int):
        pairs = [(padding, padding)] * n
    else:
        padding = list(padding)
        if len(padding) == n + 2 and all(isinstance(p, list | tuple) for p in padding):
            spatial = padding[1:-1] if channel_last else padding[2:]
            other = [padding[0], padding[-1]] if channel_last else padding[:2]
            if any(tuple(p) != (0, 0) for p in other):
                raise ValueError(f"{api}: padding of the batch and channel dims must be [0, 0], but received {padding!r}.")
            pairs = [(int(a), int(b)) for a, b in spatial]
        elif len(padding) == n and all(isinstance(p, int) for p in padding):
            pairs = [(p, p) for p in padding]
        elif len(padding) == 2 * n and all(isinstance(p, int) for p in padding):
            pairs = [(padding[2 * i], padding[2 * i + 1]) for i in range(n)]
        else:
            raise ValueError(
                f"{api}: padding must be an int, {n} or {2 * n} ints, {n + 2} pairs, 'SAME' or 'VALID', "
                f"but received {padding!r}."
            )
    if any(a < 0 or b < 0 for a, b in pairs):
        raise ValueError(f"{api}: padding must not be negative, but received {padding!r}.")
    return pairs


def same_pads(size: tuple[int, ...], kernel: tuple[int, ...], stride: tuple[int, ...],
              dilation: tuple[int, ...] | None = None) -> list[tuple[int, int]]:
    """'SAME' padding: output ``ceil(in / stride)``, the extra pixel after."""
    dilation = dilation or (1,) * len(size)
    out = []
    for i, k, s, d in zip(size, kernel, stride, dilation):
        o = -(-i // s)
        total = max((o - 1) * s + (k - 1) * d + 1 - i, 0)
        out.append((total // 2, total - total // 2))
    return out


def to_channel_first(x: Any, channel_last: bool) -> Any:
    return jnp.moveaxis(x, -1, 1) if channel_last else x


def from_channel_first(x: Any, channel_last: bool) -> Any:
    return jnp.moveaxis(x, 1, -1) if channel_last else x
