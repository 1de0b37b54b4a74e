"""The incubate functions in every mode: one function of fused_rms_norm, fused_rotary_position_embedding,
fused_bias_act, fused_multi_head_attention and fused_feedforward gives the same values and weight gradients eagerly,
under ``paddle.jit.to_static`` and as a static program (float64, so the three agree to rounding)."""

from __future__ import annotations

import numpy as np

import pylayer_jax as paddle

IF = paddle.incubate.nn.functional
_rng = np.random.default_rng(1)
X = _rng.standard_normal((2, 3, 2, 8))
W = np.linspace(0.5, 1.5, 8)
QKV = _rng.standard_normal((3, 2, 4, 8)) * 0.3
LIN, W1, W2 = (_rng.standard_normal(s) * 0.3 for s in ((8, 8), (8, 12), (12, 8)))


def block(x, w, qkv, lin, w1, w2):
    h, _ = IF.fused_rms_norm(x, w, None, 1e-6, 3)
    q, _, _ = IF.fused_rotary_position_embedding(h)
    a = IF.fused_bias_act(paddle.reshape(q, [2, 3, 16]), None, act_method="swiglu")
    a = IF.fused_multi_head_attention(a, qkv, lin, dropout_rate=0.0, attn_dropout_rate=0.0,
                                      ln_scale=paddle.ones([8], "float64"), ln_bias=paddle.zeros([8], "float64"))
    return IF.fused_feedforward(a, w1, w2, dropout1_rate=0.0, dropout2_rate=0.0, activation="gelu",
                                ln2_scale=paddle.ones([8], "float64"), ln2_bias=paddle.zeros([8], "float64"))


def _weights() -> list:
    ts = [paddle.to_tensor(a, stop_gradient=False) for a in (W, QKV, LIN, W1, W2)]
    return ts


def test_eager_to_static_and_static_program_agree() -> None:
    x = paddle.to_tensor(X)
    ws = _weights()
    eager = block(x, *ws)
    eager.sum().backward()
    grads = [w.grad.numpy().copy() for w in ws]

    ws2 = _weights()
    st = paddle.jit.to_static(block)(x, *ws2)
    st.sum().backward()
    np.testing.assert_allclose(st.numpy(), eager.numpy(), rtol=1e-12, atol=1e-12)
    for g, w in zip(grads, ws2):
        np.testing.assert_allclose(w.grad.numpy(), g, rtol=1e-10, atol=1e-12)

    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            xs = paddle.static.data("x", list(X.shape), "float64")
            vs = []
            for i, a in enumerate((W, QKV, LIN, W1, W2)):
                v = paddle.static.data(f"w{i}", list(a.shape), "float64")
                v.stop_gradient = False
                vs.append(v)
            out = block(xs, *vs)
            gs = paddle.static.gradients([paddle.sum(out)], vs)
        exe = paddle.static.Executor()
        exe.run(start)
        feed = {"x": X, **{f"w{i}": a for i, a in enumerate((W, QKV, LIN, W1, W2))}}
        res = exe.run(main, feed=feed, fetch_list=[out, *gs])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(res[0], eager.numpy(), rtol=1e-12, atol=1e-12)
    for g, r in zip(grads, res[1:]):
        np.testing.assert_allclose(r, g, rtol=1e-10, atol=1e-12)
