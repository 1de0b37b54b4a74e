"""Cases found by the whole program ``tests/programs/p68_einsum_incubate.py`` (einsum and the other contractions),
written as Paddle code: ``record(paddle)`` runs them with the given library and returns what they give (values,
gradients, the type of each error). ``record_paddle_program_diffs_w.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_w.json``; ``test_program_diffs_w.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _v


def _leaf(paddle: Any, shape: list[int], seed: int) -> Any:
    t = paddle.to_tensor(np.random.default_rng(seed).standard_normal(shape).astype("float32"))
    t.stop_gradient = False
    return t


def baddbmm_2d_input(paddle: Any, out: dict[str, Any]) -> None:
    """A 2-D ``input`` of ``paddle.baddbmm`` is [B, N] (or [B, 1]): one row per batch added to every row of that
    batch's product, not numpy's [M, N] broadcast; an [M, N] input with M != B is a ValueError. The gradient of a
    [B, N] input is the product's gradient summed over the rows (Paddle shapes it [B, 1, N]: flattened here)."""
    x, y = _leaf(paddle, [2, 3, 4], 1), _leaf(paddle, [2, 4, 5], 2)
    rows = _leaf(paddle, [2, 5], 3)
    r = paddle.baddbmm(rows, x, y, beta=0.5, alpha=2.0)
    (r * paddle.arange(30, dtype="float32").reshape([2, 3, 5])).sum().backward()
    out["baddbmm_rows"] = [_v(r), _v(rows.grad.flatten()), _v(x.grad)]
    col = paddle.to_tensor([[1.0], [-2.0]])
    out["baddbmm_col"] = _v(paddle.baddbmm(col, x, y))
    square = paddle.arange(9, dtype="float32").reshape([3, 3])  # [M, N] with M == N == B: rows per batch
    out["baddbmm_square"] = _v(paddle.baddbmm(square, paddle.ones([3, 3, 2]), paddle.ones([3, 2, 3])))
    out["baddbmm_bad_rows"] = _attempt(lambda: paddle.baddbmm(paddle.ones([3, 5]), x, y))
    out["baddbmm_bad_3d"] = _attempt(lambda: paddle.baddbmm(paddle.ones([2, 2, 5]), x, y))
    out["baddbmm_bad_inner"] = _attempt(lambda: paddle.baddbmm(paddle.ones([2, 5]), x, paddle.ones([2, 3, 5])))


def tensordot_axes(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.tensordot`` with axes lists of unequal length completes the shorter by the longer's tail; sizes
    that do not match are an AssertionError."""
    a, b = _leaf(paddle, [3, 3, 3], 4), _leaf(paddle, [3, 3, 3], 5)
    r = paddle.tensordot(a, b, axes=[[0], [2, 1]])
    (r * r).sum().backward()
    out["tensordot_uneven"] = [_v(r), _v(a.grad), _v(b.grad)]
    out["tensordot_uneven_y"] = _v(paddle.tensordot(a, b, axes=[[2, 0], [1]]))
    out["tensordot_sizes"] = _attempt(lambda: paddle.tensordot(paddle.ones([2, 3]), paddle.ones([3, 4]),
                                                               axes=[[0], [0]]))
    out["tensordot_int_sizes"] = _attempt(lambda: paddle.tensordot(paddle.ones([2, 3]), paddle.ones([2, 4]), axes=1))


def contraction_misuse(paddle: Any, out: dict[str, Any]) -> None:
    """The errors code that catches them sees: ``multi_dot`` of one tensor (a ValueError, not a product of the
    tensor's rows), ``cdist`` of rows of different sizes, ``einsum`` with too few operands or unequal label
    sizes, ``combinations`` of a matrix; ``combinations`` with ``r=0`` is an empty vector."""
    x = paddle.ones([2, 3])
    out["multi_dot_one"] = _attempt(lambda: paddle.linalg.multi_dot([x]))
    out["cdist_dims"] = _attempt(lambda: paddle.cdist(x, paddle.ones([3, 4])))
    out["einsum_operands"] = _attempt(lambda: paddle.einsum("ij,jk->ik", x))
    out["einsum_sizes"] = _attempt(lambda: paddle.einsum("ij,jk->ik", x, x))
    out["einsum_out_label"] = _attempt(lambda: paddle.einsum("ij->ik", x))
    out["combinations_2d"] = _attempt(lambda: paddle.combinations(x))
    for dt in ("int64", "float32"):
        c = paddle.combinations(paddle.to_tensor([1, 2, 3], dtype=dt), r=0)
        out[f"combinations_r0_{dt}"] = [_v(c), list(c.shape), str(c.dtype)]


CASES = [baddbmm_2d_input, tensordot_axes, contraction_misuse]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
