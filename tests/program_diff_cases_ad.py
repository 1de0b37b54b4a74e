"""Cases found by the whole programs ``tests/programs/p81_conv_pool_layers.py`` (convolution and pooling layers)
and ``tests/programs/p82_norm_layers.py`` (normalization layers), written as Paddle code: ``record(paddle)`` runs
them with the given library and returns what they give (values, gradients, the type of each error).
``record_paddle_program_diffs_ad.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_ad.json``;
``test_program_diffs_ad.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _grad, _v


def relu_of_nan_is_zero(paddle: Any, out: dict[str, Any]) -> None:
    """ReLU maps NaN to 0 (``x > 0 ? x : 0``), through ``F.relu``, ``nn.ReLU``, ``F.relu_`` (float32 and float64) and
    after a BatchNorm in eval whose running variance went negative; its gradient there is 0. Other activations and
    ``maximum`` keep the NaN."""
    F = paddle.nn.functional
    vals = np.array([np.nan, -1.0, 0.0, 2.5], "float32")
    x = paddle.to_tensor(vals, stop_gradient=False)
    y = F.relu(x)
    (y * paddle.to_tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    out["relu_nan"] = [_v(y), _grad(x)]
    out["relu_layer_nan"] = _v(paddle.nn.ReLU()(paddle.to_tensor(vals)))
    out["relu_f64_nan"] = _v(F.relu(paddle.to_tensor(vals).astype("float64")))
    z = paddle.to_tensor(vals)
    F.relu_(z)
    out["relu_inplace_nan"] = _v(z)
    out["relu6_nan"] = _v(F.relu6(paddle.to_tensor(vals)))
    out["maximum_nan"] = _v(paddle.maximum(paddle.to_tensor(vals), paddle.zeros([4])))
    bn = paddle.nn.BatchNorm1D(3)
    bn._variance.set_value(np.array([-0.5, 1.0, -2.0], "float32"))
    bn.eval()
    out["relu_after_bad_bn"] = _v(F.relu(bn(paddle.ones([2, 3]))))


def maxunpool_keyword_indices(paddle: Any, out: dict[str, Any]) -> None:
    """The MaxUnPool layers take ``indices`` (and ``output_size``, which then wins over the constructor's) by
    keyword, as Paddle's ``forward(x, indices, output_size=None)``; called without indices: a TypeError. Indices
past the output's size: a ValueError (not dropped)."""
    nn, F = paddle.nn, paddle.nn.functional
    rng = np.random.default_rng(0)
    for d, shape in ((1, (1, 2, 7)), (2, (1, 2, 5, 4)), (3, (1, 1, 4, 2, 6))):
        x = paddle.to_tensor(rng.standard_normal(shape).astype("float32"))
        pooled, mask = getattr(nn, f"MaxPool{d}D")(2, stride=2, return_mask=True)(x)
        unpool = getattr(nn, f"MaxUnPool{d}D")(2, stride=2)
        out[f"unpool{d}d_kw"] = _v(unpool(pooled, indices=mask))
        out[f"unpool{d}d_kw_size"] = _v(unpool(pooled, indices=mask, output_size=list(shape)))
        out[f"unpool{d}d_pos_size"] = list(unpool(pooled, mask, list(shape)).shape)
        out[f"unpool{d}d_no_indices"] = _attempt(lambda: unpool(pooled))  # noqa: B023
    # indices that address past the output (a pool of an odd size unpooled to the default size): a ValueError
    x = paddle.to_tensor(rng.standard_normal((1, 1, 4, 3, 5)).astype("float32"))
    pooled, mask = nn.MaxPool3D(2, stride=2, return_mask=True)(x)
    out["unpool3d_out_of_range"] = _attempt(lambda: nn.MaxUnPool3D(2, stride=2)(pooled, mask))
    x = paddle.to_tensor(rng.standard_normal((1, 1, 4, 5)).astype("float32"))
    pooled, mask = nn.MaxPool2D(2, stride=2, return_mask=True)(x)
    out["unpool2d_out_of_range"] = [_v(mask), _attempt(lambda: _v(F.max_unpool2d(pooled, mask, 2)))]
    out["unpool2d_in_range"] = _v(F.max_unpool2d(pooled, mask, 2, output_size=[4, 5]))
    out["pool_output_size_kw"] = _attempt(lambda: nn.MaxPool2D(2)(paddle.ones([1, 1, 4, 4]), output_size=[2, 2]))


CASES = [relu_of_nan_is_zero, maxunpool_keyword_indices]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
