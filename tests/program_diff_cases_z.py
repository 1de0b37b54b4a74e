"""Cases found by the whole programs ``tests/programs/p73_loss_zoo.py`` (every loss of nn.functional) and
``tests/programs/p74_reductions_stats.py`` (reductions and statistics), written as Paddle code: ``record(paddle)``
runs them with the given library and returns what they give (values, gradients, the type of each error).
``record_paddle_program_diffs_z.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_z.json``;
``test_program_diffs_z.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _grad, _v


def _leaf(paddle: Any, a: Any) -> Any:
    t = paddle.to_tensor(np.asarray(a, "float32"))
    t.stop_gradient = False
    return t


def _weighted(paddle: Any, out: Any) -> Any:
    """A weighted sum of ``out`` (weights 1, 2, ...), so each output element's gradient differs."""
    return (out * paddle.arange(1, 1 + out.size, dtype="float32").reshape(out.shape)).sum()


def gaussian_nll_variance_shapes(paddle: Any, out: dict[str, Any]) -> None:
    """``F.gaussian_nll_loss``'s variance has the input's shape, that shape with a last dimension of 1 (one variance
    per row), or one dimension fewer (unsqueezed at the end, also one per row); any other shape (one that would
    broadcast, such as one variance per column) is a ValueError, not broadcast."""
    F = paddle.nn.functional
    rng = np.random.default_rng(0)
    mu, y = _leaf(paddle, rng.standard_normal((4, 3))), paddle.to_tensor(rng.standard_normal((4, 3)).astype("float32"))
    for name, shape in (("row", (4,)), ("col", (4, 1)), ("same", (4, 3))):
        var = _leaf(paddle, rng.uniform(0.3, 2.0, shape))
        loss = F.gaussian_nll_loss(mu, y, var, reduction="none")
        _weighted(paddle, loss).backward()
        out[f"gnll_var_{name}"] = [_v(loss), list(loss.shape), _grad(mu), _grad(var)]
        mu.clear_gradient()
    var = paddle.to_tensor(np.array([0.5, 1.0, 2.0, 4.0], "float32"))
    out["gnll_var_row_full_sum"] = _v(F.gaussian_nll_loss(mu, y, var, full=True, reduction="sum"))
    out["gnll_var_row_class"] = _v(paddle.nn.GaussianNLLLoss()(mu, y, var))
    out["gnll_var_per_column"] = _attempt(lambda: F.gaussian_nll_loss(mu, y, paddle.ones([3])))
    out["gnll_var_scalar_shape"] = _attempt(lambda: F.gaussian_nll_loss(mu, y, paddle.ones([1])))
    out["gnll_var_too_big"] = _attempt(lambda: F.gaussian_nll_loss(mu, y, paddle.ones([4, 3, 1])))


def quantile_nearest_rounding(paddle: Any, out: dict[str, Any]) -> None:
    """``interpolation='nearest'`` rounds the position ``q * (count - 1)`` half to even, as ``paddle.round``:
    q=0.5 of 4 values is the 3rd smallest, of 2 values the smaller, q=1/6 of 4 (position 0.5) the smallest;
    nanquantile counts the values that are not NaN. An empty list of q is a ValueError."""
    x = paddle.to_tensor(np.array([[4.0, 1.0, 3.0, 2.0], [10.0, 40.0, 30.0, 20.0]], "float32"))
    out["q_nearest_half"] = _v(paddle.quantile(x, 0.5, axis=1, interpolation="nearest"))
    out["q_nearest_list"] = _v(paddle.quantile(x, [1 / 6, 0.5, 5 / 6], axis=-1, interpolation="nearest"))
    out["q_nearest_two"] = _v(paddle.quantile(x[:, :2], 0.5, axis=1, keepdim=True, interpolation="nearest"))
    out["q_nearest_all"] = _v(paddle.quantile(x, 0.5, interpolation="nearest"))
    out["q_nearest_axes"] = _v(paddle.quantile(x, [0.5, 0.75], axis=[0, 1], interpolation="nearest"))
    n = paddle.to_tensor(np.array([[4.0, np.nan, 3.0, 2.0, 1.0], [5.0, 1.0, np.nan, np.nan, 2.0]], "float32"))
    out["nanq_nearest"] = _v(paddle.nanquantile(n, [0.5, 0.25], axis=1, interpolation="nearest"))
    out["q_empty_list"] = _attempt(lambda: paddle.quantile(x, []))
    out["nanq_empty_tuple"] = _attempt(lambda: paddle.nanquantile(x, (), axis=1))
    t = _leaf(paddle, [[4.0, 1.0, 3.0, 2.0]])
    paddle.quantile(t, 0.5, axis=1, interpolation="nearest").sum().backward()
    out["q_nearest_grad"] = _grad(t)


def median_gradient_ties(paddle: Any, out: dict[str, Any]) -> None:
    """``median(mode='avg')``'s gradient is shared evenly among all elements equal to the median where there are
    any (an odd count, or equal middle values: [4, 4, 4, 0] gives a third to each 4), else half to each of the two
    middle elements; nanmedian the same over the values that are not NaN, an all-NaN slice sharing its gradient
    among all its elements; a median made NaN by a NaN sends its gradient to the first NaN."""
    med = np.array([[1.0, 3.0, 4.0, 2.0], [4.0, 4.0, 4.0, 0.0], [2.0, 5.0, -1.0, 6.0], [3.0, 3.0, 3.0, 3.0]])
    for name, f in (("rows", lambda t: paddle.median(t, axis=1)), ("all", lambda t: paddle.median(t)),
                    ("odd", lambda t: paddle.median(t[:, :3], axis=-1, keepdim=True)),
                    ("cols", lambda t: paddle.median(t[:3, :3], axis=0)),
                    ("nan_rows", lambda t: paddle.nanmedian(t, axis=1)),
                    ("nan_axes", lambda t: paddle.nanmedian(t, axis=[0, 1], keepdim=True))):
        t = _leaf(paddle, med)
        r = f(t)
        _weighted(paddle, r).backward()
        out[f"median_grad_{name}"] = [_v(r), list(r.shape), _grad(t)]
    mn = med.copy()
    mn[0, 1] = np.nan
    mn[3, :] = np.nan
    for name, f in (("nanmedian_rows", lambda t: paddle.nanmedian(t, axis=1)),
                    ("nanmedian_all", lambda t: paddle.nanmedian(t)),
                    ("median_nan", lambda t: paddle.median(t[:3], axis=1))):
        t = _leaf(paddle, mn)
        r = f(t)
        _weighted(paddle, r).backward()
        out[f"median_grad_{name}"] = [_v(r), _grad(t)]


CASES = [gaussian_nll_variance_shapes, quantile_nearest_rounding, median_gradient_ties]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
