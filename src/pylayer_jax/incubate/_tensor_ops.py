"""The tensor functions at ``paddle.incubate``'s top level (layer L8): the fused masked softmaxes, the segment
reductions and ``graph_send_recv`` (which Paddle keeps here, deprecated, for ``paddle.geometric``'s), and
``identity_loss``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import geometric as _geometric
from .._api import functional as _P
from .._api.irregular import _eager
from .._runtime import dtypes as _dtypes
from .._runtime.deprecation import deprecated
from .._tensor.facade import Tensor
from ..nn import _functional as F


def _tensor(api: str, what: str, x: Any) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: {what} must be a Tensor, but received {type(x).__name__}; wrap it with "
                        "paddle.to_tensor.")
    return x


# ---- fused masked softmax ---------------------------------------------------------------------------
def softmax_mask_fuse(x: Tensor, mask: Tensor, name: str | None = None) -> Tensor:
    """``softmax(x + mask)`` over the last axis, for attention scores ``x`` ``[batch, heads, seq_q, seq_k]`` and a
    mask ``[batch, 1, seq_q, seq_k]`` (added to every head). The gradient reaches ``x`` only, as Paddle's."""
    api = "softmax_mask_fuse"
    x, mask = _tensor(api, "x", x), _tensor(api, "mask", mask)
    if len(x.shape) != 4:
        raise ValueError(f"{api}: x must be 4-D [batch, heads, seq_q, seq_k], but it has shape {list(x.shape)}.")
    if len(mask.shape) != 4 or mask.shape[1] != 1 or [mask.shape[0], *mask.shape[2:]] != [x.shape[0],
                                                                                            *x.shape[2:]]:
        raise ValueError(f"{api}: mask must have shape [batch, 1, seq_q, seq_k] = "
                         f"{[x.shape[0], 1, *x.shape[2:]]} for x of shape {list(x.shape)}, but it has shape "
                         f"{list(mask.shape)}.")
    return F.softmax(x + mask.detach(), axis=-1)


def softmax_mask_fuse_upper_triangle(x: Tensor) -> Tensor:
    """``softmax`` over the last axis of ``x`` ``[batch, heads, seq, seq]`` with the upper triangle (key after
    query) masked out: row ``i`` is a softmax over its first ``i + 1`` entries, zeros after them (the causal mask of
    GPT-style attention).

    Paddle's CPU build has no kernel for this operator (its GPU kernel takes a last axis of 32 to 8192 entries):
    this computes the documented formula, for any size, with gradients."""
    api = "softmax_mask_fuse_upper_triangle"
    x = _tensor(api, "x", x)
    if len(x.shape) != 4 or x.shape[2] != x.shape[3]:
        raise ValueError(f"{api}: x must be 4-D [batch, heads, seq, seq] with its last two dimensions equal, but it "
                         f"has shape {list(x.shape)}.")
    n = x.shape[3]
    upper = _P.triu(_P.ones([n, n], dtype="bool"), 1)
    return F.softmax(_P.where(upper, _P.full([], float("-inf"), dtype=x.dtype), x), axis=-1)


# ---- segment reductions -----------------------------------------------------------------------------
def _segment(api: str, data: Any, segment_ids: Any, pooltype: str) -> Tensor:
    data, segment_ids = _tensor(api, "data", data), _tensor(api, "segment_ids", segment_ids)
    kind = _dtypes.to_np(segment_ids.dtype)
    if kind not in (np.int32, np.int64):
        raise TypeError(f"{api}: segment_ids must be an int32 or int64 tensor, but received dtype "
                        f"{_dtypes.to_paddle(segment_ids.dtype).name}.")
    if len(data.shape) < 1:
        raise ValueError(f"{api}: data must have at least one dimension (its rows are reduced), but it is 0-D.")
    ids = _eager(api, segment_ids, "segment_ids")
    if ids.ndim != 1 and not (ids.ndim == 2 and ids.shape[1] == 1):
        raise ValueError(f"{api}: segment_ids must be 1-D (one id per row of data), but it has shape "
                         f"{list(ids.shape)}.")
    ids = ids.reshape(-1)
    if ids.shape[0] != data.shape[0]:
        raise ValueError(f"{api}: segment_ids must have one id per row of data ({data.shape[0]}), but it has "
                         f"{ids.shape[0]}.")
    if ids.size and ids[0] < 0:
        raise ValueError(f"{api}: segment ids must be non-negative, but the first is {ids[0]}.")
    if ids.size > 1 and (np.diff(ids) < 0).any():
        i = int(np.argmax(np.diff(ids) < 0))
        raise ValueError(f"{api}: segment_ids must be sorted, but segment_ids[{i}] = {ids[i]} > segment_ids[{i + 1}] "
                         f"= {ids[i + 1]}; sort data and segment_ids by segment first.")
    # (Paddle's incubate functions are its geometric ones, deprecated: the same kernels here)
    return getattr(_geometric, f"segment_{pooltype.lower()}")(data, _P.reshape(segment_ids, [-1]))


@deprecated(since="2.4.0", update_to="paddle.geometric.segment_sum", level=1,
            reason="paddle.incubate.segment_sum will be removed in future")
def segment_sum(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """The sum of the rows of ``data`` in each segment: ``out[i] = sum(data[j] for j with segment_ids[j] == i)``,
    the ids sorted and non-negative; ``max(segment_ids) + 1`` rows, zeros for an id no row has."""
    return _segment("segment_sum", data, segment_ids, "SUM")


@deprecated(since="2.4.0", update_to="paddle.geometric.segment_mean", level=1,
            reason="paddle.incubate.segment_mean will be removed in future")
def segment_mean(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """The mean of the rows of ``data`` in each segment (see ``segment_sum``); zeros for an empty segment."""
    return _segment("segment_mean", data, segment_ids, "MEAN")


@deprecated(since="2.4.0", update_to="paddle.geometric.segment_max", level=1,
            reason="paddle.incubate.segment_max will be removed in future")
def segment_max(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """The elementwise maximum of the rows of ``data`` in each segment (see ``segment_sum``); zeros for an empty
    segment. Its gradient goes whole to every row equal to the maximum, as Paddle's."""
    return _segment("segment_max", data, segment_ids, "MAX")


@deprecated(since="2.4.0", update_to="paddle.geometric.segment_min", level=1,
            reason="paddle.incubate.segment_min will be removed in future")
def segment_min(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """The elementwise minimum of the rows of ``data`` in each segment (see ``segment_max``)."""
    return _segment("segment_min", data, segment_ids, "MIN")


@deprecated(since="2.4.0", update_to="paddle.geometric.send_u_recv", level=1,
            reason="graph_send_recv in paddle.incubate will be removed in future")
def graph_send_recv(x: Tensor, src_index: Tensor, dst_index: Tensor, pool_type: str = "sum",
                    out_size: int | Tensor | None = None, name: str | None = None) -> Tensor:
    """Message passing: the rows ``x[src_index]`` reduced (``pool_type`` 'sum', 'mean', 'max' or 'min') into
    the rows ``dst_index`` of the output. The output has ``x.shape[0]`` rows, or ``out_size`` when it is given and
    positive (at least ``max(dst_index) + 1``); rows no message reaches are zeros."""
    api = "graph_send_recv"
    x = _tensor(api, "x", x)
    if pool_type not in ("sum", "mean", "max", "min"):
        raise ValueError(f"{api}: pool_type should be 'sum', 'mean', 'max' or 'min', but received {pool_type!r}.")
    src, dst = _tensor(api, "src_index", src_index), _tensor(api, "dst_index", dst_index)
    for what, t in (("src_index", src), ("dst_index", dst)):
        if _dtypes.to_np(t.dtype) not in (np.int32, np.int64):
            raise TypeError(f"{api}: {what} must be an int32 or int64 tensor, but received dtype "
                            f"{_dtypes.to_paddle(t.dtype).name}.")
    s, d = _eager(api, src, "src_index").reshape(-1), _eager(api, dst, "dst_index").reshape(-1)
    if s.shape != d.shape:
        raise ValueError(f"{api}: src_index and dst_index must have the same number of entries, but received "
                         f"{s.shape[0]} and {d.shape[0]}.")
    rows = x.shape[0]
    if out_size is not None:
        size = int(_eager(api, out_size, "out_size").reshape(-1)[0]) if isinstance(out_size, Tensor) else out_size
        if isinstance(size, bool) or not isinstance(size, int | np.integer):
            raise TypeError(f"{api}: out_size must be an int or a Tensor, but received {type(out_size).__name__}.")
        if size > 0:
            rows = int(size)
    for what, ix, n in (("src_index", s, x.shape[0]), ("dst_index", d, rows)):
        if ix.size and (ix.min() < 0 or ix.max() >= n):
            raise ValueError(f"{api}: {what} values must be in [0, {n}), but they range from {ix.min()} to "
                             f"{ix.max()}.")
    return _geometric.send_u_recv(x, _P.reshape(src, [-1]), _P.reshape(dst, [-1]), pool_type, out_size=rows)


# ---- loss -------------------------------------------------------------------------------------------
_REDUCTIONS = {"sum": 0, "mean": 1, "none": 2}


def identity_loss(x: Tensor, reduction: str | int = "none") -> Tensor:
    """``x`` marked as the loss (Paddle's IPU hint): reduced by ``reduction`` 'sum' (0), 'mean' (1) or 'none'
    (2, ``x`` unchanged)."""
    api = "identity_loss"
    x = _tensor(api, "x", x)
    if isinstance(reduction, str):
        code = _REDUCTIONS.get(reduction.lower())
        if code is None:
            raise TypeError(f"{api}: unsupported reduction type {reduction!r}; use 'sum', 'mean' or 'none' (or 0, 1, "
                            "2).")
    else:
        code = reduction
    if code not in (0, 1, 2) or isinstance(code, bool):
        raise ValueError(f"{api}: reduction should be 0, 1 or 2 ('sum', 'mean', 'none'), but received {reduction!r}.")
    if code == 0:
        return _P.sum(x)
    if code == 1:
        return _P.mean(x)
    return _P.assign(x)
