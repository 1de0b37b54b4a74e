"""The cases of ``paddle.nn.utils.weight_norm`` / ``remove_weight_norm`` / ``spectral_norm``, written as Paddle code:
``record(paddle)`` runs them with the given library and returns what they give (names, shapes, values, gradients,
the type of each error). ``record_paddle_weight_hooks.py`` runs it with Paddle 3.3.1 into
``data/paddle_weight_hooks.json``; ``nn/test_weight_hooks.py`` runs it with pylayer_jax and compares. The
singular-vector estimates of ``spectral_norm`` start random: the cases set them before the forward they check."""

from __future__ import annotations

from typing import Any

import numpy as np


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    W = np.arange(1, 7, dtype=np.float32).reshape(3, 2) / 7.0
    B = np.array([0.5, -0.5], np.float32)
    x = paddle.to_tensor(np.array([[1.0, -2.0, 0.5], [0.3, 0.2, -1.0]], np.float32))
    for dim in [0, 1, -1, None]:
        lin = paddle.nn.Linear(3, 2)
        lin.weight.set_value(W)
        lin.bias.set_value(B)
        paddle.nn.utils.weight_norm(lin, dim=dim)
        key = f"wn{dim}"
        out[key + "_names"] = [n for n, _ in lin.named_parameters()]
        out[key + "_sd"] = list(lin.state_dict().keys())
        out[key + "_g"] = lin.weight_g.numpy().tolist()
        out[key + "_gshape"] = list(lin.weight_g.shape)
        y = lin(x)
        out[key + "_y"] = y.numpy().tolist()
        (y * y).sum().backward()
        out[key + "_dg"] = lin.weight_g.grad.numpy().tolist()
        out[key + "_dv"] = lin.weight_v.grad.numpy().tolist()
        paddle.nn.utils.remove_weight_norm(lin)
        out[key + "_removed_names"] = [n for n, _ in lin.named_parameters()]
        out[key + "_removed_w"] = lin.weight.numpy().tolist()
    conv = paddle.nn.Conv2D(2, 3, 2)
    paddle.nn.utils.weight_norm(conv, dim=1)
    out["conv_g_shape"] = list(conv.weight_g.shape)
    try:
        paddle.nn.utils.weight_norm(conv, dim=1)
    except Exception as e:
        out["twice"] = type(e).__name__
    try:
        paddle.nn.utils.remove_weight_norm(paddle.nn.Linear(2, 2))
    except Exception as e:
        out["remove_none"] = type(e).__name__
    try:
        paddle.nn.utils.weight_norm(paddle.nn.Linear(2, 2), dim=2)
    except Exception as e:
        out["baddim"] = type(e).__name__
    # spectral norm
    for dim in [None, 0, 1]:
        lin = paddle.nn.Linear(3, 2)
        lin.weight.set_value(W)
        lin.bias.set_value(B)
        paddle.nn.utils.spectral_norm(lin, n_power_iterations=2, dim=dim)
        key = f"sn{dim}"
        out[key + "_names"] = [n for n, _ in lin.named_parameters()]
        out[key + "_buffers"] = [n for n, _ in lin.named_buffers()]
        out[key + "_sd"] = list(lin.state_dict().keys())
        h, w_ = lin.weight_u.shape[0], lin.weight_v.shape[0]
        out[key + "_uv"] = [h, w_]
        lin.weight_u.set_value(np.linspace(0.2, 1.0, h).astype(np.float32))
        lin.weight_v.set_value(np.linspace(-1.0, 0.5, w_).astype(np.float32))
        y = lin(x)
        out[key + "_y"] = y.numpy().tolist()
        out[key + "_u"] = lin.weight_u.numpy().tolist()
        out[key + "_v"] = lin.weight_v.numpy().tolist()
        (y * y).sum().backward()
        out[key + "_dw"] = lin.weight_orig.grad.numpy().tolist()
        lin.eval()
        y2 = lin(x)
        out[key + "_y_eval"] = y2.numpy().tolist()
        out[key + "_u_eval"] = lin.weight_u.numpy().tolist()
    try:
        paddle.nn.utils.spectral_norm(paddle.nn.Linear(2, 2), n_power_iterations=0)
    except Exception as e:
        out["sn_iters0"] = type(e).__name__
    c = paddle.nn.Conv2D(2, 3, 2)
    paddle.nn.utils.spectral_norm(c)
    out["sn_conv_uv"] = [c.weight_u.shape[0], c.weight_v.shape[0]]
    ct = paddle.nn.Conv2DTranspose(2, 3, 2)
    paddle.nn.utils.spectral_norm(ct)
    out["sn_convT_uv"] = [ct.weight_u.shape[0], ct.weight_v.shape[0]]
    return out
