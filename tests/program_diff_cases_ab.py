"""Cases found by the whole programs ``tests/programs/p77_sort_search.py`` (sorting and searching) and
``tests/programs/p78_shape_manip.py`` (shape manipulation), written as Paddle code: ``record(paddle)`` runs them with
the given library and returns what they give (values, shapes, gradients, the type of each error).
``record_paddle_program_diffs_ab.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_ab.json``;
``test_program_diffs_ab.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _v


def _leaf(paddle: Any, shape: list[int], seed: int) -> Any:
    t = paddle.to_tensor(np.random.default_rng(seed).standard_normal(shape).astype("float32"))
    t.stop_gradient = False
    return t


def sort_search_misuse(paddle: Any, out: dict[str, Any]) -> None:
    """The errors ranking code catches: ``topk`` with ``k=0`` (an int or a Tensor), ``argmax`` / ``argmin`` with a
    float ``dtype`` (once accepted and ignored), ``unique`` / ``unique_consecutive`` with an axis past the rank (the
    latter once ran on another axis), ``bincount`` of floats (a TypeError) or with weights of another shape or a
    negative ``minlength``, ``take`` with a float index (a TypeError), ``searchsorted`` with a batched sequence whose
    leading dimensions the values do not share and ``masked_select`` with a mask that does not broadcast (both
    RuntimeErrors in Paddle)."""
    x = paddle.to_tensor([[0.5, 2.0, -1.0], [3.0, 0.0, 1.5]])
    rows = paddle.to_tensor([[1, 2], [0, 5], [1, 2]])
    out["topk_k0"] = _attempt(lambda: paddle.topk(x, 0))
    out["topk_k0_tensor"] = _attempt(lambda: paddle.topk(x, paddle.to_tensor(0)))
    out["argmax_float"] = _attempt(lambda: paddle.argmax(x, axis=1, dtype="float32"))
    out["argmin_float64"] = _attempt(lambda: x.argmin(dtype="float64"))
    out["argmax_int32"] = [_v(paddle.argmax(x, axis=1, dtype="int32")), str(paddle.argmin(x, dtype="int32").dtype)]
    out["unique_axis"] = _attempt(lambda: paddle.unique(rows, axis=2))
    out["unique_axis_neg"] = _attempt(lambda: paddle.unique(rows, axis=-3))
    out["unique_consecutive_axis"] = _attempt(lambda: paddle.unique_consecutive(rows, axis=2))
    out["bincount_float"] = _attempt(lambda: paddle.bincount(paddle.to_tensor([1.0, 2.0])))
    out["bincount_bool"] = _attempt(lambda: paddle.bincount(paddle.to_tensor([True, False])))
    out["bincount_2d"] = _attempt(lambda: paddle.bincount(rows))
    out["bincount_weights"] = _attempt(lambda: paddle.bincount(paddle.to_tensor([1, 2]), weights=paddle.ones([3])))
    out["bincount_minlength"] = _attempt(lambda: paddle.bincount(paddle.to_tensor([1, 2]), minlength=-1))
    out["take_float"] = _attempt(lambda: paddle.take(x, paddle.to_tensor([1.0])))
    seq = paddle.to_tensor([[1, 3, 5], [2, 4, 6]])
    out["searchsorted_batch"] = _attempt(lambda: paddle.searchsorted(seq, paddle.to_tensor([[1], [2], [3]])))
    out["searchsorted_1d_values"] = _attempt(lambda: paddle.searchsorted(seq, paddle.to_tensor([1])))
    out["masked_select_shape"] = _attempt(lambda: paddle.masked_select(x, paddle.to_tensor([True, False])))


def tensor_split_indices(paddle: Any, out: dict[str, Any]) -> None:
    """``tensor_split`` (and ``hsplit`` / ``vsplit`` / ``dsplit``) at indices past the axis, negative or out of order:
    each part runs from one index to the next, each counted from the end when negative, clamped into the axis, an
    empty part where the end comes before the start (once a ValueError from the split's sizes); the gradient of each
    part reaches its rows."""
    x = _leaf(paddle, [7, 2], 1)
    for name, idx in (("past", [1, 9]), ("neg", [-2]), ("down", [5, 2]), ("far_neg", [-9, 3]), ("both", [9, 10]),
                      ("neg_end", [3, -1])):
        parts = paddle.tensor_split(x, idx)
        total = sum(((p * (i + 1)) ** 2).sum() for i, p in enumerate(parts))
        total.backward()
        out[f"tensor_split_{name}"] = [[_v(p) for p in parts], _v(x.grad)]
        x.clear_grad()
    h = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    out["hsplit_past"] = [list(p.shape) for p in paddle.hsplit(h, [2, 7])]
    out["vsplit_down"] = [list(p.shape) for p in paddle.vsplit(h, [1, 0])]
    out["dsplit_neg"] = [_v(p) for p in paddle.dsplit(h, [-1, 2])]
    out["tensor_split_ax1"] = [_v(p) for p in paddle.tensor_split(h, [-2, 5], axis=1)]


def view_dtype_width(paddle: Any, out: dict[str, Any]) -> None:
    """``Tensor.view(dtype)`` to a dtype of another width rescales the last axis (int32 [2, 4] as int16 is [2, 8];
    int16 [8] as int32 is [4]; once a new trailing axis was added); a last axis that is not a multiple of the ratio
    is a ValueError."""
    i32 = paddle.to_tensor(np.arange(8, dtype="int32").reshape(2, 4) * 70000)
    for dt in ("int16", "uint8", "int64", "float32", "float64"):
        r = i32.view(dt)
        out[f"view_int32_as_{dt}"] = [_v(r), list(r.shape), str(r.dtype)]
    i16 = paddle.to_tensor(np.arange(-3, 5, dtype="int16"))
    r = i16.view("int32")
    out["view_int16_as_int32"] = [_v(r), list(r.shape)]
    f = paddle.to_tensor([[1.5, -2.0, 0.25, 8.0]])
    r = paddle.view(f, "float64")
    out["view_float32_as_float64"] = [_v(r), list(r.shape)]
    out["view_float32_as_uint8"] = _v(f.view(paddle.uint8))
    out["view_bad_multiple"] = _attempt(lambda: paddle.ones([2, 3], dtype="int16").view("int32"))


def empty_unstack_stack(paddle: Any, out: dict[str, Any]) -> None:
    """``unbind`` / ``unstack`` along an axis of size 0 give an empty list (once a ZeroDivisionError); ``stack`` of
    an empty list is a ValueError."""
    e = paddle.ones([0, 3])
    out["unbind_empty"] = [len(paddle.unbind(e)), len(e.unbind(0)), [list(t.shape) for t in paddle.unbind(e, 1)]]
    out["unstack_empty"] = [len(paddle.unstack(e)), len(paddle.unstack(paddle.ones([2, 0]), axis=1))]
    out["stack_empty"] = _attempt(lambda: paddle.stack([]))


def zero_d_order_and_nan_unique(paddle: Any, out: dict[str, Any]) -> None:
    """``sort`` / ``argsort`` / ``topk`` / ``kthvalue`` of a 0-D tensor are the tensor itself at index 0, with its
    gradient (once an error from the axis); ``unique`` keeps each NaN as a value of its own (once merged into one).
    Paddle 3.3.1's index, inverse and counts of NaN values are uninitialised memory, so only the values are
    recorded. (Paddle's gradient of a 0-D ``kthvalue`` is 1 whatever the gradient of its value, so it is left out of
    the recorded sum; ours is the derivative.)"""
    x = paddle.to_tensor(2.5, stop_gradient=False)
    tv, ti = paddle.topk(x, 1)
    kv, ki = paddle.kthvalue(x.detach(), 1)
    s, a = paddle.sort(x, descending=True), paddle.argsort(x, axis=0)
    (tv * 2.0 + s * 5.0).backward()
    out["zero_d_order"] = [[_v(t), list(t.shape)] for t in (tv, ti, kv, ki, s, a)] + [_v(x.grad)]
    nan = float("nan")
    out["unique_nan"] = _v(paddle.unique(paddle.to_tensor([2.0, nan, 1.0, nan, 2.0])))
    u = paddle.unique(paddle.to_tensor([nan, 1.0, nan]), return_counts=True)
    out["unique_nan_counts_len"] = [_v(u[0]), list(u[1].shape)]


CASES = [sort_search_misuse, zero_d_order_and_nan_unique, tensor_split_indices, view_dtype_width, empty_unstack_stack]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
