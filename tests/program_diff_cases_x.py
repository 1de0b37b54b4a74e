"""Cases found by the whole programs ``tests/programs/p69_integer_semantics.py`` (integer tensors) and
``tests/programs/p70_elementwise_edges.py`` (elementwise math at nan, inf and zero, and the gradients there), written
as Paddle code: ``record(paddle)`` runs them with the given library and returns what they give (values, dtypes,
gradients, the type of each error). ``record_paddle_program_diffs_x.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_x.json``; ``test_program_diffs_x.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _v


def _typed(t: Any) -> list[Any]:
    return [_v(t), str(t.dtype).replace("paddle.", "")]


def _grad(paddle: Any, f: Any, xs: list[float], *others: Any) -> list[Any]:
    t = paddle.to_tensor(np.array(xs, dtype="float32"), stop_gradient=False)
    out = f(t, *others)
    paddle.sum(out).backward()
    return [_v(out), _v(t.grad)]


def int_inplace_division(paddle: Any, out: dict[str, Any]) -> None:
    """``x.divide_(y)`` (and ``div_``, ``exp_``, ``log_``, ``log1p_``) on an integer tensor makes it a float32 tensor
    of the true results, as Paddle; they were truncated back into the integers. ``sqrt_``, ``sigmoid_`` and the other
    floating ops Paddle has no integer kernel for are a RuntimeError (they wrote truncated values). ``clip_`` with
    float bounds and ``scale_`` keep the integer dtype, as in Paddle."""
    def a():
        return paddle.to_tensor([7, -7, 4, 1])

    b = paddle.to_tensor([2, 2, -3, 1])
    out["inplace_divide"] = [_attempt(lambda: _typed(a().divide_(b))), _attempt(lambda: _typed(a().div_(b))),
                             _attempt(lambda: _typed(a().astype("int32").divide_(b.astype("int32")))),
                             _attempt(lambda: _typed(a().divide_(b, rounding_mode="trunc")))]
    out["inplace_float_ok"] = [_attempt(lambda n=n: _typed(getattr(a().abs(), n + "_")())) for n in ("exp", "log", "log1p")]
    out["inplace_float_err"] = [_attempt(lambda n=n: _typed(getattr(a().abs(), n + "_")()))
                                for n in ("sqrt", "sigmoid", "sin", "tanh", "reciprocal", "rsqrt", "atan", "sinh")]
    out["inplace_keep"] = [_attempt(lambda: _typed(a().clip_(-1.5, 2.5))), _attempt(lambda: _typed(a().scale_(0.5)))]


def int_var_std(paddle: Any, out: dict[str, Any]) -> None:
    """``var`` of an integer tensor stays in its dtype, with the mean and the quotient truncated (``[1, 2, 4]`` gives
    2); ``std`` is the float32 square root of that."""
    x = paddle.to_tensor([1, 2, 4])
    m = paddle.to_tensor([[1, -2, 5], [4, 7, -9]], dtype="int32")
    out["int_var"] = [_typed(paddle.var(x)), _typed(paddle.var(x, unbiased=False)), _typed(m.var(axis=0)),
                      _typed(m.var(axis=1, keepdim=True)), _typed(paddle.var(m))]
    out["int_std"] = [_typed(paddle.std(x)), _typed(m.std(axis=1)), _typed(paddle.std(m, unbiased=False))]


def int_creation(paddle: Any, out: dict[str, Any]) -> None:
    """``arange`` with an integer dtype truncates float start/end/step first (a step below 1 becomes 0, a
    ValueError); ``to_tensor`` of a Python int outside int64 is a ValueError (it wrapped to -2**63); ``argmax``/
    ``argmin`` take only int32/int64 as ``dtype`` (a float dtype was accepted)."""
    out["arange_int"] = [_typed(paddle.arange(0.5, 5, 1.5, dtype="int64")),
                         _typed(paddle.arange(-3.7, 2, 1, dtype="int32")), _typed(paddle.arange(5.9, dtype="int64")),
                         _typed(paddle.arange(0, -5, -1.5, dtype="int64")),
                         _attempt(lambda: paddle.arange(0, 2, 0.5, dtype="int64")),
                         _typed(paddle.arange(0, 2, 0.5)), _typed(paddle.arange(1, 7, 2))]
    out["to_tensor_big"] = [_attempt(lambda: paddle.to_tensor(2**63)), _attempt(lambda: paddle.to_tensor([2**63])),
                            _attempt(lambda: paddle.to_tensor(-2**63 - 1)),
                            _attempt(lambda: paddle.to_tensor([1, 2**64])),
                            _typed(paddle.to_tensor(2**63 - 1)), _typed(paddle.to_tensor([1, 2**63]))]
    x = paddle.to_tensor([[3, 9, 9], [1, 0, 1]])
    out["arg_dtype"] = [_attempt(lambda: paddle.argmax(x, dtype="float32")),
                        _attempt(lambda: paddle.argmin(x, axis=1, dtype="int16")),
                        _typed(paddle.argmax(x, axis=1, dtype="int32"))]


def clip_edges(paddle: Any, out: dict[str, Any]) -> None:
    """``clip`` puts the dtype's finite extremes in place of a missing bound (``clip(-inf, max=0)`` is the lowest
    float32), a NaN bound is a ValueError, and a NaN element gets gradient 0 (it had 1)."""
    inf, nan = float("inf"), float("nan")
    c = paddle.to_tensor([nan, -inf, inf, -3.0, 0.5, 3.0])
    out["clip_default"] = [_v(paddle.clip(c, max=0.0)), _v(paddle.clip(c, min=0.0)),
                           _v(paddle.clip(c.astype("float64"), max=0.0)),
                           _typed(paddle.clip(paddle.to_tensor([-5, 3, 7]), max=4))]
    out["clip_nan_bound"] = [_attempt(lambda: paddle.clip(c, nan, 1.0)), _attempt(lambda: paddle.clip(c, max=nan)),
                             _attempt(lambda: paddle.clip(c, 2.0, -1.0))]
    out["clip_grad"] = _grad(paddle, lambda t: paddle.clip(t, -1.0, 1.0), [-1.0, 1.0, 0.5, 2.0, -3.0, nan])
    out["clip_grad_inf"] = _grad(paddle, lambda t: paddle.clip(t, max=0.0), [-inf, -1.0, 1.0])


def edge_gradients(paddle: Any, out: dict[str, Any]) -> None:
    """Gradients at the edges that were NaN or wrong: ``x ** 0`` at 0 (0), ``dist`` at ``x == y`` (0), ``logit`` at
    0 and 1 without eps (inf, and 0 outside [eps, 1 - eps] with it), ``copysign`` at x == 0 (0); ``heaviside`` of
    NaN is 0."""
    inf, nan = float("inf"), float("nan")
    out["g_pow0"] = [_grad(paddle, lambda t: t ** 0.0, [0.0, -3.0, nan]),
                     _grad(paddle, lambda t: paddle.pow(t, 0.0), [0.0, 2.0]),
                     _grad(paddle, lambda t: t ** 0, [0.0, 2.0])]
    out["g_dist0"] = [_grad(paddle, lambda t: paddle.dist(t, paddle.to_tensor([0.0, 0.0])), [0.0, 0.0]),
                      _grad(paddle, lambda t: paddle.dist(t, paddle.to_tensor([1.0, 0.0]), p=3), [1.0, 0.0]),
                      _grad(paddle, lambda t: paddle.dist(t, paddle.to_tensor([1.0, 0.0])), [4.0, 3.0])]
    out["g_logit"] = [_grad(paddle, paddle.logit, [0.0, 1.0, 0.5, 0.25]),
                      _grad(paddle, lambda t: paddle.logit(t, eps=0.1), [0.0, 0.05, 0.1, 0.5, 0.95, 1.0])]
    out["g_copysign"] = _grad(paddle, lambda t: paddle.copysign(t, paddle.to_tensor([-1.0, 0.0, -0.0, 2.0])),
                              [2.0, -3.0, 0.0, -0.0])
    out["heaviside_nan"] = [_v(paddle.heaviside(paddle.to_tensor([nan, -inf, 0.0, -0.0, inf]),
                                                paddle.to_tensor([0.5, 0.5, 0.25, nan, 0.5]))),
                            _typed(paddle.heaviside(paddle.to_tensor([-2, 0, 3]), paddle.to_tensor([7, 7, 7])))]


def more_edge_gradients(paddle: Any, out: dict[str, Any]) -> None:
    """More gradients at edges, each was NaN or another number: ``i0`` at 0 (``i1(0) = 0``, it was 1), ``l1_loss``
    and ``dist(p=1)`` where input == label (0, it was 1), ``dist(p=inf)`` gives every tied element the whole gradient
    (not a share), ``pow`` with a tensor exponent 0 at base 0 (0), ``renorm`` of a zero slice (1, it was NaN),
    ``cosine_similarity`` of a zero vector (``x2 / eps``, it was NaN), ``binary_cross_entropy`` at probabilities 0
    and 1 (``(x - label) / max(x (1 - x), 1e-12)``, it was NaN), ``max``/``amax``/``min`` of a slice holding NaN
    (NaN for its whole slice, it was 0), ``median`` with ties (each middle value's half shared by the elements equal
    to it)."""
    F = paddle.nn.functional  # noqa: N806

    nan = float("nan")
    z2 = paddle.to_tensor([0.0, 0.0])
    out["g_i0"] = _grad(paddle, paddle.i0, [0.0, 1.5, -2.0])
    out["g_l1_tie"] = _grad(paddle, lambda t: F.l1_loss(t, paddle.to_tensor([0.0, 1.0, 5.0])), [0.0, 2.0, 5.0])
    out["g_dist_p1"] = _grad(paddle, lambda t: paddle.dist(t, z2, p=1), [0.0, 2.0])
    out["g_dist_inf"] = [_grad(paddle, lambda t: paddle.dist(t, z2, p=float("inf")), [1.0, -1.0]),
                         _grad(paddle, lambda t: paddle.dist(t, z2, p=float("-inf")), [1.0, -1.0])]
    out["g_pow_t0"] = _grad(paddle, lambda t: paddle.pow(t, paddle.to_tensor([0.0, 0.0, 2.0])), [0.0, 2.0, 0.0])
    out["g_renorm0"] = _grad(paddle, lambda t: paddle.renorm(t.reshape([2, 2]), 2, 0, 1.0) * paddle.to_tensor(
        [[1.0, 2.0], [3.0, 5.0]]), [0.0, 0.0, 3.0, 4.0])
    out["g_cos_sim0"] = _grad(paddle, lambda t: F.cosine_similarity(t.reshape([1, 2]), paddle.to_tensor([[1.0, 0.0]])),
                              [0.0, 0.0])
    out["g_bce01"] = _grad(paddle, lambda t: F.binary_cross_entropy(t, paddle.to_tensor([0.0, 1.0, 1.0, 0.0, 1.0])),
                           [0.0, 1.0, 0.0, 1.0, 0.25])
    m = [[1.0, nan, 3.0], [4.0, 5.0, 5.0]]
    out["g_max_nan"] = [_grad(paddle, lambda t: paddle.max(t.reshape([2, 3])), sum(m, [])),
                        _grad(paddle, lambda t: paddle.amax(t.reshape([2, 3]), axis=1), sum(m, [])),
                        _grad(paddle, lambda t: paddle.min(t.reshape([2, 3]), axis=0, keepdim=True), sum(m, []))]
    out["g_median_ties"] = [_grad(paddle, paddle.median, xs) for xs in
                            ([1.0, 2.0, 2.0], [1.0, 2.0, 2.0, 3.0], [2.0, 2.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0])]
    out["g_median_axis"] = _grad(paddle, lambda t: paddle.median(t.reshape([2, 3]), axis=1) * paddle.to_tensor(
        [1.0, 2.0]), [1.0, 2.0, 2.0, 3.0, 1.0, 3.0])


CASES = [int_inplace_division, int_var_std, int_creation, clip_edges, edge_gradients, more_edge_gradients]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
