"""``paddle.vision.ops``: ``ConvNormActivation`` and ``nms`` (the other detection operators are not implemented)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .._tensor.facade import Tensor
from .._tensor.facade import to_tensor as _to_tensor
from ..nn.layer._activation import ReLU
from ..nn.layer._container import Sequential
from ..nn.layer._conv import Conv2D
from ..nn.layer._norm import BatchNorm2D

__all__ = ["ConvNormActivation", "nms"]


class ConvNormActivation(Sequential):
    """Conv2D, then a normalisation layer (default BatchNorm2D), then an activation (default ReLU), as one
    Sequential whose sublayers are named 0, 1, 2. ``padding`` defaults to keeping the size at stride 1; the
    convolution has a bias only when there is no normalisation layer (unless ``bias`` says otherwise)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size=3, stride=1, padding=None, groups: int = 1,
                 norm_layer: Callable | None = BatchNorm2D, activation_layer: Callable | None = ReLU,
                 dilation: int = 1, bias: bool | None = None) -> None:
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [Conv2D(in_channels, out_channels, kernel_size, stride, padding, dilation=dilation, groups=groups,
                         bias_attr=bias)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)


def _host(x, name: str, api: str) -> np.ndarray:
    if isinstance(x, Tensor):
        return x.numpy()
    raise TypeError(f"{api}: {name} must be a Tensor; got {type(x).__name__}.")


def _greedy_nms(boxes: np.ndarray, iou_threshold: float) -> np.ndarray:
    """Indices of the boxes kept, in the given order: each box is dropped when its IoU with an earlier kept box
    is above ``iou_threshold`` (areas without the +1 pixel convention)."""
    x1, y1, x2, y2 = (boxes[:, k] for k in range(4))
    areas = (x2 - x1) * (y2 - y1)
    dropped = np.zeros(len(boxes), bool)
    keep = []
    for i in range(len(boxes)):
        if dropped[i]:
            continue
        keep.append(i)
        rest = np.arange(i + 1, len(boxes))
        rest = rest[~dropped[rest]]
        if rest.size == 0:
            continue
        w = np.maximum(np.minimum(x2[i], x2[rest]) - np.maximum(x1[i], x1[rest]), 0)
        h = np.maximum(np.minimum(y2[i], y2[rest]) - np.maximum(y1[i], y1[rest]), 0)
        inter = w * h
        iou = inter / (areas[i] + areas[rest] - inter)
        dropped[rest[iou > iou_threshold]] = True
    return np.asarray(keep, np.int64)


def _by_score(idx: np.ndarray, scores: np.ndarray) -> np.ndarray:
    return idx[np.argsort(-scores[idx], kind="stable")]


def nms(boxes, iou_threshold: float = 0.3, scores=None, category_idxs=None, categories: Sequence[int] | None = None,
        top_k: int | None = None):
    """Non-maximum suppression of ``boxes`` ([N, 4] as x1, y1, x2, y2): the int64 indices of the boxes kept.

    Without ``scores`` the boxes are taken in their order; with ``scores``, from the highest score down; with
    ``category_idxs`` and ``categories``, within each category separately, the result sorted by score and cut to
    ``top_k``. Runs on the host (its result is a set of indices, with no gradient)."""
    api = "paddle.vision.ops.nms"
    b = _host(boxes, "boxes", api)
    if b.ndim != 2 or b.shape[1] != 4:
        raise ValueError(f"{api}: boxes must have shape [N, 4]; got {list(b.shape)}.")
    if scores is None:
        return _to_tensor(_greedy_nms(b, iou_threshold))
    s = _host(scores, "scores", api).reshape(-1)
    if s.shape[0] != b.shape[0]:
        raise ValueError(f"{api}: scores must hold one score per box ({b.shape[0]}); got {s.shape[0]}.")
    if category_idxs is None:
        order = np.argsort(-s, kind="stable")
        return _to_tensor(order[_greedy_nms(b[order], iou_threshold)])
    if top_k is not None and top_k > s.shape[0]:
        raise ValueError(f"{api}: top_k ({top_k}) must not exceed the number of boxes ({s.shape[0]}).")
    if categories is None:
        raise ValueError(f"{api}: categories (the list of category ids) is needed when category_idxs is given.")
    cats = _host(category_idxs, "category_idxs", api).reshape(-1)
    keep_mask = np.zeros(s.shape[0], bool)
    for c in categories:
        members = np.nonzero(cats == c)[0]
        if members.size == 0:
            continue
        order = _by_score(members, s)
        keep_mask[order[_greedy_nms(b[order], iou_threshold)]] = True
    kept = _by_score(np.nonzero(keep_mask)[0], s)
    if top_k is not None:
        kept = kept[:top_k]
    return _to_tensor(kept.astype(np.int64))
