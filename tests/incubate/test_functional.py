"""``paddle.incubate``'s functions against Paddle 3.3.1 (cases: ``tests/incubate_cases.py``, recorded by
``tests/record_paddle_incubate.py``): values, dtypes, shapes and the gradients of ``sum(out * ct)``.

Where Paddle's CPU build runs the function (``paddle_runs`` in the fixture) the numbers are its own; elsewhere (no
CPU kernel) they are the formula Paddle documents, computed with Paddle's plain operators, and for
``fused_rms_norm`` (a forward kernel only) the gradients are the formula's. Deliberate differences, tested here:
``fused_layer_norm``'s ``residual_out`` without a residual is ``x`` (Paddle's CPU kernel leaves it unset), and the
misuse Paddle's kernels meet with garbage (a residual of another shape) is refused.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jax
import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.incubate.nn.functional as IF

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from incubate_cases import CASES, POS, SIN_T, Q, X, run  # noqa: E402

REF = json.loads(Path(__file__).resolve().parents[1].joinpath("data", "paddle_incubate.json").read_text())["cases"]
# (segment_* and graph_send_recv warn that they are deprecated, as Paddle's do: tested once below)
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _close(ours: list, ref: list, tol: float) -> None:
    assert len(ours) == len(ref)
    for o, r in zip(ours, ref):
        if r is None:
            assert o is None
            continue
        np.testing.assert_allclose(np.asarray(o), np.asarray(r), rtol=tol, atol=tol)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name: str) -> None:
    ref = REF[name]
    ours = run(paddle, name, True)
    assert ours["shape"] == ref["shape"]
    assert ours["dtype"] == ref["dtype"]
    if ref["paddle_runs"]:
        assert ours["stop_gradient"] == ref["stop_gradient"]
    _close(ours["out"], ref["out"], 2e-5)
    assert ("grads" in ours) == ("grads" in ref)
    if "grads" in ref:
        _close(ours["grads"], ref["grads"], 5e-5)


def test_layer_norm_residual_out_without_residual_is_x() -> None:
    out = IF.fused_layer_norm(paddle.to_tensor(X), paddle.ones([8]), paddle.zeros([8]), 1e-5, begin_norm_axis=2)
    np.testing.assert_array_equal(out[1].numpy(), X)
    assert all(t.stop_gradient for t in out)


def test_rms_norm_and_rope_float64_grads_match_jax() -> None:
    """The table ops' gradients in float64 against jax.grad of the same formula written with jax.numpy."""
    x = np.asarray(X, np.float64)
    w = np.linspace(0.5, 1.5, 8)
    xt, wt = paddle.to_tensor(x, stop_gradient=False), paddle.to_tensor(w, stop_gradient=False)
    out, _ = IF.fused_rms_norm(xt, wt, None, 1e-6, 2)
    (out * out).sum().backward()

    def f(a, b):
        y = a / jax.numpy.sqrt(jax.numpy.mean(a * a, -1, keepdims=True) + 1e-6) * b
        return (y * y).sum()

    gx, gw = jax.grad(f, (0, 1))(x, w)
    np.testing.assert_allclose(xt.grad.numpy(), gx, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(wt.grad.numpy(), gw, rtol=1e-10, atol=1e-12)

    q = paddle.to_tensor(np.asarray(Q, np.float64), stop_gradient=False)
    sin, cos = paddle.to_tensor(np.asarray(SIN_T, np.float64)), paddle.to_tensor(np.cos(np.asarray(SIN_T, np.float64)))
    oq, _, _ = IF.fused_rotary_position_embedding(q, sin=sin, cos=cos, position_ids=paddle.to_tensor(POS),
                                                  use_neox_rotary_style=False)
    (oq * oq).sum().backward()

    def g(a):
        s, c = np.asarray(SIN_T, np.float64)[POS][:, :, None], np.cos(np.asarray(SIN_T, np.float64))[POS][:, :, None]
        rot = jax.numpy.concatenate([-a[..., 4:], a[..., :4]], -1)
        return ((a * c + rot * s) ** 2).sum()

    np.testing.assert_allclose(q.grad.numpy(), jax.grad(g)(np.asarray(Q, np.float64)), rtol=1e-10, atol=1e-12)


INC = paddle.incubate
T = paddle.to_tensor
_X, _W = T(X), T(np.ones(8, np.float32))
_Q = T(Q)
_SIN = T(SIN_T)


@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: IF.fused_rms_norm(X, _W, None, 1e-6, 2), TypeError, "fused_rms_norm: x must be a Tensor"),
        (lambda: IF.fused_rms_norm(_X, _W, None, 1e-6, 3), ValueError, r"begin_norm_axis must be in range \[-3, 3\)"),
        (lambda: IF.fused_rms_norm(_X, _W, None, 1e-6, 1), ValueError, "norm_weight must hold one value per normalised"),
        (lambda: IF.fused_rms_norm(_X, _W, None, 1e-6, 2, quant_scale=0.5), NotImplementedError, "int8 quantised"),
        (lambda: IF.fused_rms_norm(_X, _W, None, 1e-6, 2, residual=_W), ValueError, "residual must have the shape of x"),
        (lambda: IF.fused_layer_norm(_X, _W, _W, 1e-5, begin_norm_axis=-1), ValueError,
         r"begin_norm_axis must be in range \[0, 3\)"),
        (lambda: IF.fused_layer_norm(_X, _W, _W, 1e-5, begin_norm_axis=2, bias=T(np.ones(3, np.float32)),
                                     residual=_X), ValueError, "bias must hold one value per normalised element"),
        (lambda: IF.fused_rotary_position_embedding(_X), ValueError, "q must be 4-D"),
        (lambda: IF.fused_rotary_position_embedding(T(np.ones((1, 2, 1, 3), np.float32))), ValueError,
         "head_dim .last axis. of q must be even"),
        (lambda: IF.fused_rotary_position_embedding(_Q, T(np.ones((2, 3, 1, 8), np.float32))), ValueError,
         "k must have q's batch, sequence and head_dim sizes"),
        (lambda: IF.fused_rotary_position_embedding(_Q, sin=_SIN), ValueError, "sin and cos must be given together"),
        (lambda: IF.fused_rotary_position_embedding(_Q, position_ids=T(POS)), ValueError,
         "position_ids needs sin and cos"),
        (lambda: IF.fused_rotary_position_embedding(_Q, use_neox_rotary_style=False), ValueError,
         r"use_neox_rotary_style=False \(rotate_half\) needs sin and cos"),
        (lambda: IF.fused_rotary_position_embedding(_Q, sin=_SIN, cos=_SIN), ValueError,
         "without position_ids, sin must have one row per position"),
        (lambda: IF.fused_rotary_position_embedding(_Q, sin=T(np.ones((4, 6), np.float32)),
                                                    cos=T(np.ones((4, 6), np.float32))), ValueError,
         r"sin must have shape \[seq_len, head_dim\]"),
        (lambda: IF.fused_rotary_position_embedding(_Q, sin=_SIN, cos=_SIN, position_ids=T(POS[:, :2])), ValueError,
         r"position_ids must have shape \[batch_size, seq_len\]"),
        (lambda: IF.fused_rotary_position_embedding(_Q, sin=_SIN, cos=_SIN, position_ids=T(POS.astype(np.float32))),
         TypeError, "position_ids must be an integer tensor"),
        (lambda: IF.fused_bias_act(_X, act_method="tanh"), NotImplementedError, "act_method must be one of"),
        (lambda: IF.fused_bias_act(_X, compute_dtype="fp8"), ValueError, "compute_dtype must be one of"),
        (lambda: IF.fused_bias_act(_X, dequant_scales=_W), NotImplementedError, "dequantising an int32 input"),
        (lambda: IF.fused_bias_act(_X, shift=_W), ValueError, "shift and smooth must be given together"),
        (lambda: IF.fused_bias_act(T(np.ones((2, 3), np.float32)), act_method="geglu"), ValueError,
         "splits the last axis in halves, so it must be even"),
        (lambda: IF.fused_bias_act(_X, bias=T(np.ones(3, np.float32))), ValueError, "bias must hold one value per"),
        (lambda: IF.fused_matmul_bias(_X, _X), ValueError, "y must be 2-D"),
        (lambda: IF.fused_linear(_X, T(np.ones((8, 4), np.float32)), _W), ValueError, "bias must hold one value"),
        (lambda: IF.fused_linear_activation(_X, T(np.ones((8, 4), np.float32)), T(np.ones(4, np.float32)),
                                            activation="tanh"), ValueError, "activation must be None, 'relu' or 'gelu'"),
        (lambda: IF.fused_dropout_add(_X, _X, p=2.0), ValueError, r"p must be in \[0, 1\]"),
        (lambda: IF.fused_dropout_add(_X, _X, p="a"), TypeError, "p must be a float or int"),
        (lambda: IF.fused_dropout_add(_X, _X, mode="x"), ValueError, "mode must be 'upscale_in_train'"),
        (lambda: IF.fused_feedforward(_X, T(np.ones((8, 4), np.float32)), T(np.ones((8, 4), np.float32))),
         ValueError, r"linear1_weight must be \[d_model, dim_feedforward\]"),
        (lambda: IF.fused_feedforward(_X, T(np.ones((8, 4), np.float32)), T(np.ones((4, 8), np.float32)),
                                      ring_id=0), NotImplementedError, "tensor model parallelism"),
        (lambda: IF.fused_feedforward(_X, T(np.ones((8, 4), np.float32)), T(np.ones((4, 8), np.float32)),
                                      activation="elu"), ValueError, "activation must be one of"),
        (lambda: IF.fused_multi_head_attention(_W, _W, _W), ValueError, "the rank of x must be 3"),
        (lambda: IF.fused_multi_head_attention(_X, T(np.ones((3, 2, 3, 8), np.float32)), T(np.ones((8, 8),
                                               np.float32))), ValueError, "qkv_weight must be"),
        (lambda: IF.fused_multi_head_attention(_X, T(np.ones((8, 24), np.float32)), T(np.ones((8, 8), np.float32)),
                                               transpose_qkv_wb=True), ValueError, "num_heads must be a positive int"),
        (lambda: IF.fused_multi_head_attention(_X, T(np.ones((3, 2, 4, 8), np.float32)), T(np.ones((8, 8),
                                               np.float32)), cache_kv=_X), ValueError, "cache_kv must be"),
        (lambda: INC.softmax_mask_fuse(_X, _X), ValueError, "softmax_mask_fuse: x must be 4-D"),
        (lambda: INC.softmax_mask_fuse(_Q, _Q), ValueError, r"mask must have shape \[batch, 1, seq_q, seq_k\]"),
        (lambda: INC.softmax_mask_fuse_upper_triangle(_Q), ValueError, "last two dimensions equal"),
        (lambda: INC.segment_sum(_X, T([1, 0])), ValueError, "segment_ids must be sorted"),
        (lambda: INC.segment_sum(_X, T([0.0, 1.0])), TypeError, "segment_ids must be an int32 or int64 tensor"),
        (lambda: INC.segment_mean(_X, T([0, 0, 1])), ValueError, r"one id per row of data \(2\)"),
        (lambda: INC.segment_max(_X, T([[0, 1]])), ValueError, "segment_ids must be 1-D"),
        (lambda: INC.segment_min(_X, T([-1, 0])), ValueError, "segment ids must be non-negative"),
        (lambda: INC.graph_send_recv(_X, T([0]), T([0]), pool_type="prod"), ValueError, "pool_type should be"),
        (lambda: INC.graph_send_recv(_X, T([0, 2]), T([0, 1])), ValueError, r"src_index values must be in \[0, 2\)"),
        (lambda: INC.graph_send_recv(_X, T([0, 1]), T([0])), ValueError, "the same number of entries"),
        (lambda: INC.identity_loss(_X, "avg"), TypeError, "unsupported reduction type"),
        (lambda: INC.identity_loss(_X, 5), ValueError, "reduction should be 0, 1 or 2"),
    ],
)
def test_misuse(call, exc, match) -> None:
    with pytest.raises(exc, match=match):
        call()


def test_segment_and_send_recv_are_deprecated_as_in_paddle() -> None:
    with pytest.warns(UserWarning, match='Please use "paddle.geometric.segment_sum" instead'):
        INC.segment_sum(_X, T([0, 0]))
    with pytest.warns(UserWarning, match='Please use "paddle.geometric.send_u_recv" instead'):
        INC.graph_send_recv(_X, T([0]), T([1]))


def test_value_dependent_ops_refuse_tracing() -> None:
    f = paddle.jit.to_static(lambda d, i: INC.segment_sum(d, i))
    with pytest.raises(RuntimeError, match="segment_sum: the output shape depends on the values of segment_ids"):
        f(_X, T([0, 1]))
