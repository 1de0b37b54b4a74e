"""Cases found by the whole programs ``tests/programs/p35_amp_o2.py`` and ``p36_static_adv.py``, written as Paddle
code: ``record(paddle)`` runs them with the given library and returns what they give (values, gradients, dtypes, the
type of each error). ``record_paddle_program_diffs_e.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_e.json``; ``test_program_diffs_e.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from case_values import _attempt


def _v(t: Any) -> Any:
    a = np.asarray(t.astype("float32").numpy()) if "16" in str(t.dtype) else np.asarray(t.numpy())
    return a.tolist() if a.dtype.kind in "biu" else a.astype(np.float64).tolist()


def softmax_clip(paddle: Any, out: dict[str, Any]) -> None:
    """Paddle's CPU softmax kernels clip ``x - max(x)`` at -64 (p35: a parameter turned -inf gave Paddle a finite
    loss): softmax, log_softmax along each axis, cross_entropy (hard and soft labels, class weights, label
    smoothing), softmax_with_cross_entropy, for far-off logits, -1e9 masks and -inf; the gradients stay those of
    the unclipped function read from the output (a clipped entry's log_softmax gradient is not zero)."""
    F = paddle.nn.functional
    rows = np.array([[-100.0, 0.0, 1.0], [-np.inf, 1.0, 2.0], [-1e9, 0.5, 0.5], [3.0, -70.0, 3.0]], "float32")
    x = paddle.to_tensor(rows)
    out["clip_softmax"] = _v(F.softmax(x))
    out["clip_log_softmax"] = _v(F.log_softmax(x))
    out["clip_log_softmax_f64"] = _v(F.log_softmax(x.astype("float64")))
    cube = np.zeros((2, 3, 70), "float32")
    cube[:, :, 0] = -100.0
    cube[1, 2, 5] = -1e9
    c = paddle.to_tensor(cube)
    out["clip_axes"] = [[float(F.log_softmax(c, axis=a).min()), float(F.softmax(c, axis=a).min())] for a in (-1, 0, 1)]
    lab = paddle.to_tensor([0, 0, 0, 1])
    out["clip_ce"] = [
        _v(F.cross_entropy(x, lab, reduction="none")),
        _v(F.cross_entropy(x, F.one_hot(lab, 3), soft_label=True, reduction="none")),
        float(F.cross_entropy(x[[0, 2]], lab[:2], weight=paddle.to_tensor([1.0, 2.0, 3.0]))),
        float(F.cross_entropy(x[[0, 2]], lab[:2], label_smoothing=0.1)),
        _v(F.softmax_with_cross_entropy(x, lab.unsqueeze(1))),
    ]
    g = paddle.to_tensor(rows[[0, 3]], stop_gradient=False)
    F.log_softmax(g).sum().backward()
    out["clip_log_softmax_grad"] = _v(g.grad)
    g.clear_grad()
    (F.softmax(g) * paddle.to_tensor([[1.0, 2.0, 3.0]])).sum().backward()
    out["clip_softmax_grad"] = _v(g.grad)
    g.clear_grad()
    F.cross_entropy(g, paddle.to_tensor([0, 1])).backward()
    out["clip_ce_grad"] = _v(g.grad)
    g.clear_grad()
    F.cross_entropy(g, paddle.to_tensor([[0.5, 0.5, 0.0], [0.0, 1.0, 0.0]]), soft_label=True).backward()
    out["clip_ce_soft_grad"] = _v(g.grad)


def layer_casts(paddle: Any, out: dict[str, Any]) -> None:
    """Layer.float16 keeps the dtype where float16 is unsupported (a CPU), ``half`` casts anyway; bfloat16 leaves
    ``nn.BatchNorm`` (not BatchNorm2D) as it is by default; ``excluded_layers`` as a class or a list of them for
    bfloat16 / float; a wrong excluded_layers is a TypeError."""
    nn = paddle.nn
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seq = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm(4), nn.BatchNorm1D(4), nn.Linear(4, 2))

        def dts() -> list[str]:
            return [str(p.dtype) for p in seq.parameters()]

        out["cast_float16"] = [dts() for _ in [seq.float16()]][0] + [seq.float16() is seq]
        out["cast_bfloat16"] = [dts() for _ in [seq.bfloat16()]][0]
        out["cast_float"] = [dts() for _ in [seq.float()]][0]
        out["cast_bfloat16_excl"] = [dts() for _ in [seq.bfloat16(excluded_layers=[nn.Linear, nn.BatchNorm1D])]][0]
        out["cast_float_excl"] = [dts() for _ in [seq.float(excluded_layers=nn.BatchNorm)]][0]
        out["cast_bfloat16_tuple"] = [dts() for _ in [seq.float().bfloat16(excluded_layers=(nn.Linear,))]][0]
        out["cast_half"] = [dts() for _ in [seq.float().half()]][0]
        out["cast_errors"] = [_attempt(lambda: seq.bfloat16(excluded_layers="Linear")),
                              _attempt(lambda: seq.float(excluded_layers=3))]
        lin = nn.Linear(2, 2)
        lin.bfloat16()
        out["cast_bfloat16_linear"] = [str(lin.weight.dtype), str(lin.bias.dtype)]


def grad_scaler_settings(paddle: Any, out: dict[str, Any]) -> None:
    """A GradScaler on a CPU makes no effect, but ``set_init_loss_scaling`` is what ``get_init_loss_scaling``
    gives back after it (1.0 before); the other setters' values come back from their getters."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = paddle.amp.GradScaler(init_loss_scaling=1024.0)
        before = s.get_init_loss_scaling()
        s.set_init_loss_scaling(8.0)
        s.set_incr_ratio(3.0)
        s.set_decr_ratio(0.25)
        s.set_incr_every_n_steps(5)
        s.set_decr_every_n_nan_or_inf(2)
        loss = paddle.to_tensor(2.5)
        out["scaler_settings"] = [before, s.get_init_loss_scaling(), s.get_incr_ratio(), s.get_decr_ratio(),
                                  s.get_incr_every_n_steps(), s.get_decr_every_n_nan_or_inf(), s.state_dict(),
                                  s.scale(loss).item()]
        off = paddle.amp.GradScaler(enable=False)
        off.set_init_loss_scaling(16)
        out["scaler_off"] = [off.get_init_loss_scaling(), off.is_enable()]


def half_pooling(paddle: Any, out: dict[str, Any]) -> None:
    """float16 adaptive average pooling averages in float32 and rounds once, as Paddle's CPU kernel."""
    F = paddle.nn.functional
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((2, 3, 5, 7)).astype("float32")).astype("float16")
    out["half_adaptive_avg"] = [_v(F.adaptive_avg_pool2d(x, 1)), _v(F.adaptive_avg_pool2d(x, [2, 3])),
                                _v(F.adaptive_avg_pool1d(x[:, :, 0], 3)), str(F.adaptive_avg_pool2d(x, 2).dtype)]


def static_gradients_stop(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.static.gradients``: an input with stop_gradient=True (static.data as declared, an intermediate
    computed from it, one marked so) gets None, and a Variable marked stop_gradient cuts the paths through it."""
    static = paddle.static
    paddle.enable_static()
    try:
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [-1, 3], "float32")
            w = static.create_parameter([3, 2], "float32", name="w_sg",
                                        default_initializer=paddle.nn.initializer.Constant(0.5))
            x2 = x * 2.0
            z = paddle.matmul(x2, w)
            s = paddle.sum(z * z)
            first = [g is None for g in static.gradients(s, [x, x2, z, w])]
            x2.stop_gradient = False
            gx2 = static.gradients(s, [x, x2])
            second = [g is None for g in gx2]
            z.stop_gradient = True
            third = [g is None for g in static.gradients(s, [z, w])]
        exe = static.Executor(paddle.CPUPlace())
        exe.run(startup)
        (v,) = exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[gx2[1]])
        out["static_gradients_none"] = [first, second, third, np.asarray(v).astype(np.float64).ravel().tolist()]
    finally:
        paddle.disable_static()


CASES = [softmax_clip, layer_casts, grad_scaler_settings, half_pooling, static_gradients_stop]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
