"""The cases of ``paddle.incubate``'s functions, written as Paddle code: each case builds its inputs from fixed numpy
arrays, runs, and returns its outputs and the gradients of ``sum(out * ct)`` for its inputs.

``record(paddle)`` (``record_paddle_incubate.py``, Paddle 3.3.1's CPU build, into ``data/paddle_incubate.json``)
runs the incubate function itself where that build has its kernel (``fused_rms_norm``'s forward,
``fused_layer_norm``, ``swiglu``, ``fused_dropout_add``, ``fused_matmul_bias`` without a bias,
``softmax_mask_fuse``, the segment reductions, ``identity_loss``, ``graph_send_recv``), and otherwise the formula
Paddle documents for it, computed with Paddle's plain operators (``REFERENCE``); ``incubate/test_functional.py``
runs every case with pylayer_jax's incubate functions and compares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

_rng = np.random.default_rng(20240611)


def _a(*shape: int) -> np.ndarray:
    return _rng.standard_normal(shape).astype(np.float32)


# ---- fixed inputs -----------------------------------------------------------------------------------
X = _a(2, 3, 8)
W8, B8, BIAS8 = _a(8), _a(8), _a(8)
W24, B24 = _a(24), _a(24)
RES = _a(2, 3, 8)
Q, K1 = _a(2, 4, 2, 8), _a(2, 4, 1, 8)  # [batch, seq, heads, head_dim]; k with one head (grouped queries)
SIN_T, COS_T = np.sin(_a(6, 8)), np.cos(_a(6, 8))  # a table of 6 positions
POS = np.array([[0, 2, 4, 5], [1, 1, 3, 0]], np.int64)
XW, WM, BM = _a(3, 6), _a(6, 5), _a(5)
SHIFT, SMOOTH = _a(4), _a(4)
FFN_W1, FFN_B1, FFN_W2, FFN_B2 = _a(8, 16) * 0.3, _a(16), _a(16, 8) * 0.3, _a(8)
QKV_W, QKV_B, LIN_W, LIN_B = _a(3, 2, 4, 8) * 0.3, _a(3, 2, 4), _a(8, 8) * 0.3, _a(8)
MASK = np.where(_rng.uniform(size=(2, 1, 3, 3)) < 0.3, -1e4, 0.0).astype(np.float32)
BMASK = np.array([[[[1, 1, 0], [1, 1, 1], [0, 1, 1]]], [[[1, 0, 0], [1, 1, 0], [1, 1, 1]]]], bool)
CACHE = _a(2, 2, 2, 2, 4)  # [2, batch, heads, cache_len, head_dim]
SMF_X, SMF_M = _a(2, 2, 4, 4), np.where(_rng.uniform(size=(2, 1, 4, 4)) < 0.3, -1e4, 0.0).astype(np.float32)
SEG_X = np.array([[1., 2.], [1., 3.], [0., 3.], [5., 5.], [-1., 0.5]], np.float32)  # ties in segment 0
SEG_IDS = np.array([0, 0, 0, 2, 2], np.int64)
GSR_X = _a(4, 3)
GSR_SRC, GSR_DST = np.array([0, 1, 2, 0, 3], np.int64), np.array([1, 2, 1, 0, 1], np.int64)


def _ct(shape: Any) -> np.ndarray:
    """The fixed cotangent of an output of ``shape``."""
    n = int(np.prod(shape))
    return (np.cos(np.arange(n, dtype=np.float64) * 0.7) + 0.1).reshape(shape).astype(np.float32)


class Ctx:
    """The library a case runs with, and the inputs it made (``leaf``: a Tensor that trains, whose gradient the
    case records)."""

    def __init__(self, paddle: Any) -> None:
        import importlib

        importlib.import_module(paddle.__name__ + ".incubate.nn.functional")  # (real Paddle's needs the import)
        self.P = paddle
        self.F = paddle.nn.functional
        self.IF = paddle.incubate.nn.functional
        self.I = paddle.incubate
        self.leaves: list[Any] = []

    def t(self, a: Any, dtype: str | None = None) -> Any:
        return self.P.to_tensor(a, dtype=dtype)

    def leaf(self, a: np.ndarray) -> Any:
        t = self.P.to_tensor(a, stop_gradient=False)
        self.leaves.append(t)
        return t


# ---- the formulas of the operators Paddle's CPU build has no kernel for, in Paddle's plain operators -------------
def _rms_ref(c: Ctx, h: Any, w: Any, b: Any, eps: float, axis: int) -> Any:
    P = c.P
    axes = list(range(axis, len(h.shape)))
    out = h * P.rsqrt(P.mean(h * h, axis=axes, keepdim=True) + eps) * w.reshape(h.shape[axis:])
    return out if b is None else out + b.reshape(h.shape[axis:])


def _rope_ref(c: Ctx, x: Any, sin: Any, cos: Any, pos: Any, neox: bool, time_major: bool, base: float) -> Any:
    P = c.P
    if time_major:
        x = x.transpose([1, 0, 2, 3])
    _, s, _, d = x.shape
    if sin is None:
        j = P.arange(d, dtype="float32")
        inv = 1.0 / P.pow(P.to_tensor(base, "float32"), P.floor(j / 2) * 2 / d)
        ang = P.arange(s, dtype="float32").unsqueeze(1) * inv.unsqueeze(0)
        sin_e, cos_e = P.sin(ang).reshape([1, s, 1, d]), P.cos(ang).reshape([1, s, 1, d])
    else:
        sin2, cos2 = sin.reshape([-1, d]), cos.reshape([-1, d])
        if pos is None:
            sin_e, cos_e = sin2[:s].reshape([1, s, 1, d]), cos2[:s].reshape([1, s, 1, d])
        else:
            sin_e = P.index_select(sin2, pos.reshape([-1])).reshape([pos.shape[0], s, 1, d])
            cos_e = P.index_select(cos2, pos.reshape([-1])).reshape([pos.shape[0], s, 1, d])
    if neox:
        rot = P.stack([-x[..., 1::2], x[..., 0::2]], axis=-1).reshape(x.shape)
    else:
        rot = P.concat([-x[..., d // 2:], x[..., : d // 2]], axis=-1)
    out = x * cos_e + rot * sin_e
    return out.transpose([1, 0, 2, 3]) if time_major else out


def _ln_ref(c: Ctx, x: Any, w: Any, b: Any, eps: float) -> Any:
    return c.F.layer_norm(x, x.shape[-1], w, b, eps)


def _ffn_ref(c: Ctx, x: Any, w1: Any, w2: Any, b1: Any, b2: Any, s1: Any, c1: Any, s2: Any, c2: Any, r1: float,
             r2: float, act: str, pre: bool, training: bool, mode: str, add_residual: bool) -> Any:
    F = c.F
    out = _ln_ref(c, x, s1, c1, 1e-5) if pre else x
    out = getattr(F, act)(c.P.matmul(out, w1) + b1)
    out = F.dropout(out, r1, training=training, mode=mode)
    out = F.dropout(c.P.matmul(out, w2) + b2, r2, training=training, mode=mode)
    if add_residual:
        out = x + out
    return out if pre else _ln_ref(c, out, s2, c2, 1e-5)


def _mha_ref(c: Ctx, x: Any, qkv_w: Any, lin_w: Any, pre: bool, ln_s: Any, ln_b: Any, qkv_b: Any, lin_b: Any,
             cache: Any, mask: Any, add_residual: bool, transposed: bool, heads: int) -> Any:
    P, F = c.P, c.F
    bsz, seq, e = x.shape
    out = _ln_ref(c, x, ln_s, ln_b, 1e-5) if pre else x
    w = qkv_w if transposed else qkv_w.reshape([3 * e, e]).transpose([1, 0])
    qkv = P.matmul(out, w) + qkv_b.reshape([3 * e])
    qkv = qkv.reshape([bsz, seq, 3, heads, e // heads]).transpose([2, 0, 3, 1, 4])
    q, k, v = qkv[0], qkv[1], qkv[2]
    new_cache = None
    if cache is not None:
        k, v = P.concat([cache[0], k], axis=2), P.concat([cache[1], v], axis=2)
        new_cache = P.stack([k, v])
    s = P.matmul(q * (e // heads) ** -0.5, k, transpose_y=True)
    if mask is not None:
        s = s + (mask if mask.dtype != P.bool else (mask.astype(s.dtype) - 1.0) * 1e9)
    o = P.matmul(F.softmax(s), v).transpose([0, 2, 1, 3]).reshape([bsz, seq, e])
    o = P.matmul(o, lin_w) + lin_b
    o = x + o if add_residual else o
    o = o if pre else _ln_ref(c, o, ln_s, ln_b, 1e-5)
    return o if new_cache is None else (o, new_cache)


# ---- the cases: fn(c, fused) -> outputs; fused=False runs the reference formula --------------------------------
def _rms_basic(c: Ctx, fused: bool) -> Any:
    x, w, b = c.leaf(X), c.leaf(W8), c.leaf(B8)
    if fused:
        return c.IF.fused_rms_norm(x, w, b, 1e-6, 2)
    return _rms_ref(c, x, w, b, 1e-6, 2), c.P.empty([0])


def _rms_residual(c: Ctx, fused: bool) -> Any:
    # (bias, as the weights, holds one value per normalised element)
    x, w, b, res, bias = c.leaf(X), c.leaf(W24), c.leaf(W24[::-1].copy()), c.leaf(RES), c.leaf(B24)
    if fused:
        return c.IF.fused_rms_norm(x, w, b, 1e-5, 1, bias=bias, residual=res)
    h = x + bias.reshape([3, 8]) + res
    return _rms_ref(c, h, w, b, 1e-5, 1), h


def _rms_residual_no_bias(c: Ctx, fused: bool) -> Any:
    # (not with bias and without norm_bias: Paddle's CPU kernel then returns zeros and garbage)
    x, w, res = c.leaf(X), c.leaf(W8), c.leaf(RES)
    if fused:
        return c.IF.fused_rms_norm(x, w, None, 1e-5, 2, residual=res)
    return _rms_ref(c, x + res, w, None, 1e-5, 2), x + res


def _rms_bias_without_residual(c: Ctx, fused: bool) -> Any:
    x, w, bias = c.leaf(X), c.leaf(W8), c.leaf(BIAS8)
    if fused:  # (the kernel adds bias only together with a residual)
        return c.IF.fused_rms_norm(x, w, None, 1e-6, -1, bias=bias)
    return _rms_ref(c, x, w, None, 1e-6, 2), c.P.empty([0])


# Paddle's CPU build has the forward kernel of fused_rms_norm only: its values are the kernel's, its gradients the
# formula's (run by record() as extra entries "<case>/grad")
def _ln_cases() -> dict[str, Callable[[Ctx, bool], Any]]:
    # (without a residual Paddle's CPU kernel leaves residual_out unset: those cases leave it out)
    def basic(c: Ctx, fused: bool) -> Any:
        out = c.IF.fused_layer_norm(c.t(X), c.t(W8), c.t(B8), 1e-5, begin_norm_axis=2)
        return out[0], out[2], out[3]

    def residual(c: Ctx, fused: bool) -> Any:
        return c.IF.fused_layer_norm(c.t(X), c.t(W8), c.t(B8), 1e-5, residual_alpha=0.5, begin_norm_axis=2,
                                     bias=c.t(BIAS8), residual=c.t(RES))

    def axis1(c: Ctx, fused: bool) -> Any:
        out = c.IF.fused_layer_norm(c.t(X), c.t(W24), c.t(B24), 1e-5, begin_norm_axis=1)
        return out[0], out[2], out[3]

    def no_norm(c: Ctx, fused: bool) -> Any:
        out = c.IF.fused_layer_norm(c.t(X), None, None, 1e-5, begin_norm_axis=2, bias=c.t(BIAS8), residual=c.t(RES))
        return out[0]  # (Paddle's CPU kernel leaves the other outputs unset here)

    def residual_axis1(c: Ctx, fused: bool) -> Any:
        return c.IF.fused_layer_norm(c.t(X), c.t(W24), c.t(B24), 1e-5, begin_norm_axis=1,
                                     bias=c.t(W24[::-1].reshape(3, 8).copy()), residual=c.t(RES))

    def weight_only(c: Ctx, fused: bool) -> Any:
        out = c.IF.fused_layer_norm(c.t(X), c.t(W8), None, 1e-5, begin_norm_axis=2, bias=c.t(BIAS8))
        return out[0], out[2], out[3]

    return {"ln_basic": basic, "ln_residual": residual, "ln_axis1": axis1, "ln_residual_axis1": residual_axis1,
            "ln_no_norm": no_norm,
            "ln_weight_only": weight_only}


def _rope(neox: bool, tables: bool, pos: bool, time_major: bool, kv: bool) -> Callable[[Ctx, bool], Any]:
    def case(c: Ctx, fused: bool) -> Any:
        q = c.leaf(Q.transpose(1, 0, 2, 3) if time_major else Q)
        k = c.leaf(K1.transpose(1, 0, 2, 3) if time_major else K1) if kv else None
        v = c.leaf((Q[..., ::-1].transpose(1, 0, 2, 3) if time_major else Q[..., ::-1]).copy()) if kv else None
        sin = cos = ids = None
        if tables:
            sin, cos = (c.t(SIN_T), c.t(COS_T)) if pos else (c.t(SIN_T[:4].reshape(1, 4, 1, 8)),
                                                              c.t(COS_T[:4].reshape(1, 4, 1, 8)))
            ids = c.t(POS) if pos else None
        if fused:
            outs = c.IF.fused_rotary_position_embedding(q, k, v, sin=sin, cos=cos, position_ids=ids,
                                                        use_neox_rotary_style=neox, time_major=time_major,
                                                        rotary_emb_base=500.0 if not tables else 10000.0)
            return tuple(o for o in outs if o is not None)
        base = 500.0 if not tables else 10000.0
        return tuple(_rope_ref(c, t, sin, cos, ids, neox, time_major, base) for t in (q, k, v) if t is not None)

    return case


def _swiglu_one(c: Ctx, fused: bool) -> Any:
    return c.IF.swiglu(c.leaf(X))


def _swiglu_two(c: Ctx, fused: bool) -> Any:
    return c.IF.swiglu(c.leaf(X), c.leaf(RES))


def _bias_act(act: str, with_shift: bool) -> Callable[[Ctx, bool], Any]:
    def case(c: Ctx, fused: bool) -> Any:
        x, b = c.leaf(X), c.leaf(BIAS8)
        shift = smooth = None
        if with_shift:
            shift, smooth = c.leaf(SHIFT if act in ("geglu", "swiglu") else np.tile(SHIFT, 2)), \
                c.leaf(SMOOTH if act in ("geglu", "swiglu") else np.tile(SMOOTH, 2))
        if fused:
            return c.IF.fused_bias_act(x, b, shift=shift, smooth=smooth, act_method=act)
        h = x + b
        F = c.F
        if act in ("geglu", "swiglu"):
            a, g = h[..., :4], h[..., 4:]
            out = (F.gelu(a) if act == "geglu" else F.silu(a)) * g
        else:
            out = F.gelu(h) if act == "gelu" else F.relu(h)
        return out if shift is None else (out + shift) * smooth

    return case


def _matmul_bias(bias: bool, tx: bool, ty: bool) -> Callable[[Ctx, bool], Any]:
    def case(c: Ctx, fused: bool) -> Any:
        x = c.leaf(XW.T.copy() if tx else XW)
        y = c.leaf(WM.T.copy() if ty else WM)
        b = c.leaf(BM) if bias else None
        if fused:
            return c.IF.fused_matmul_bias(x, y, b, tx, ty)
        out = c.P.matmul(x, y, tx, ty)
        return out if b is None else out + b

    return case


def _linear_act(act: str | None) -> Callable[[Ctx, bool], Any]:
    def case(c: Ctx, fused: bool) -> Any:
        x, w, b = c.leaf(XW), c.leaf(WM.T.copy()), c.leaf(BM)
        if fused:
            return c.IF.fused_linear_activation(x, w, b, trans_y=True, activation=act)
        out = c.P.matmul(x, w, transpose_y=True) + b
        return {"relu": c.F.relu, "gelu": lambda h: c.F.gelu(h, approximate=True), None: lambda h: h}[act](out)

    return case


def _fused_linear(c: Ctx, fused: bool) -> Any:
    x, w, b = c.leaf(X), c.leaf(np.linspace(-1, 1, 40, dtype=np.float32).reshape(5, 8)), c.leaf(BM)
    if fused:
        return c.IF.fused_linear(x, w, b, transpose_weight=True)
    return c.P.matmul(x, w, transpose_y=True) + b


def _dropout_add(p: float, training: bool, mode: str) -> Callable[[Ctx, bool], Any]:
    def case(c: Ctx, fused: bool) -> Any:
        return c.IF.fused_dropout_add(c.leaf(X), c.leaf(RES), p=p, training=training, mode=mode)

    return case


def _bdrln(c: Ctx, fused: bool) -> Any:
    x, res, b, s, lb = c.leaf(X), c.leaf(RES), c.leaf(BIAS8), c.leaf(W8), c.leaf(B8)
    if fused:
        return c.IF.fused_bias_dropout_residual_layer_norm(x, res, b, s, lb, dropout_rate=0.3, training=False)
    return _ln_ref(c, res + (x + b), s, lb, 1e-5)


def _ffn(pre: bool, act: str, add_residual: bool, mode: str) -> Callable[[Ctx, bool], Any]:
    def case(c: Ctx, fused: bool) -> Any:
        x = c.leaf(X)
        w1, b1, w2, b2 = c.leaf(FFN_W1), c.leaf(FFN_B1), c.leaf(FFN_W2), c.leaf(FFN_B2)
        s, lb = c.leaf(W8), c.leaf(B8)
        s1, c1, s2, c2 = (s, lb, None, None) if pre else (None, None, s, lb)
        if fused:
            return c.IF.fused_feedforward(x, w1, w2, b1, b2, s1, c1, s2, c2, dropout1_rate=0.2, dropout2_rate=0.4,
                                          activation=act, pre_layer_norm=pre, training=False, mode=mode,
                                          add_residual=add_residual)
        return _ffn_ref(c, x, w1, w2, b1, b2, s1, c1, s2, c2, 0.2, 0.4, act, pre, False, mode, add_residual)

    return case


def _mha(pre: bool, mask: str | None, cache: bool, transposed: bool, add_residual: bool) -> Callable[[Ctx, bool], Any]:
    def case(c: Ctx, fused: bool) -> Any:
        x = c.leaf(X[:, :3])
        if transposed:
            qkv_w = c.leaf(QKV_W.reshape(24, 8).T.copy())
            qkv_b = c.leaf(QKV_B.reshape(24))
        else:
            qkv_w, qkv_b = c.leaf(QKV_W), c.leaf(QKV_B)
        lin_w, lin_b, s, lb = c.leaf(LIN_W), c.leaf(LIN_B), c.leaf(W8), c.leaf(B8)
        m = None if mask is None else (c.t(MASK) if mask == "float" else c.t(BMASK))
        ck = c.leaf(CACHE) if cache else None
        if fused:
            ln = {"pre_ln_scale": s, "pre_ln_bias": lb} if pre else {"ln_scale": s, "ln_bias": lb}
            return c.IF.fused_multi_head_attention(x, qkv_w, lin_w, pre_layer_norm=pre, qkv_bias=qkv_b,
                                                   linear_bias=lin_b, cache_kv=ck, attn_mask=m, dropout_rate=0.5,
                                                   attn_dropout_rate=0.5, training=False, add_residual=add_residual,
                                                   num_heads=2, transpose_qkv_wb=transposed, **ln)
        return _mha_ref(c, x, qkv_w, lin_w, pre, s, lb, qkv_b, lin_b, ck, m, add_residual, transposed, 2)

    return case


def _smf(c: Ctx, fused: bool) -> Any:
    return c.I.softmax_mask_fuse(c.leaf(SMF_X), c.t(SMF_M))


def _smf_upper(c: Ctx, fused: bool) -> Any:
    x = c.leaf(SMF_X)
    if fused:
        return c.I.softmax_mask_fuse_upper_triangle(x)
    upper = c.P.triu(c.P.ones([4, 4]), 1) * -1e30
    return c.F.softmax(x + upper)


def _segment(kind: str) -> Callable[[Ctx, bool], Any]:
    def case(c: Ctx, fused: bool) -> Any:
        return getattr(c.I, f"segment_{kind}")(c.leaf(SEG_X), c.t(SEG_IDS))

    return case


def _identity(reduction: Any) -> Callable[[Ctx, bool], Any]:
    def case(c: Ctx, fused: bool) -> Any:
        return c.I.identity_loss(c.leaf(X), reduction)

    return case


def _gsr(pool: str, out_size: int | None) -> Callable[[Ctx, bool], Any]:
    def case(c: Ctx, fused: bool) -> Any:
        x = c.leaf(GSR_X if pool not in ("max", "min") else np.round(GSR_X))  # (rounded: ties)
        return c.I.graph_send_recv(x, c.t(GSR_SRC), c.t(GSR_DST), pool_type=pool, out_size=out_size)

    return case


CASES: dict[str, Callable[[Ctx, bool], Any]] = {
    "rms_basic": _rms_basic,
    "rms_residual": _rms_residual,
    "rms_residual_no_bias": _rms_residual_no_bias,
    "rms_bias_without_residual": _rms_bias_without_residual,
    **_ln_cases(),
    "rope_neox_computed": _rope(True, False, False, False, False),
    "rope_neox_tables": _rope(True, True, False, False, True),
    "rope_half_positions": _rope(False, True, True, False, True),
    "rope_neox_positions_time_major": _rope(True, True, True, True, True),
    "rope_half_time_major": _rope(False, True, False, True, False),
    "swiglu_one": _swiglu_one,
    "swiglu_two": _swiglu_two,
    "bias_act_gelu": _bias_act("gelu", False),
    "bias_act_relu_shift": _bias_act("relu", True),
    "bias_act_geglu": _bias_act("geglu", False),
    "bias_act_swiglu_shift": _bias_act("swiglu", True),
    "matmul_plain": _matmul_bias(False, False, False),
    "matmul_plain_tx_ty": _matmul_bias(False, True, True),
    "matmul_bias": _matmul_bias(True, False, False),
    "matmul_bias_ty": _matmul_bias(True, False, True),
    "fused_linear_t": _fused_linear,
    "linear_act_relu": _linear_act("relu"),
    "linear_act_gelu": _linear_act("gelu"),
    "linear_act_none": _linear_act(None),
    "dropout_add_p0": _dropout_add(0.0, True, "upscale_in_train"),
    "dropout_add_eval": _dropout_add(0.5, False, "upscale_in_train"),
    "dropout_add_eval_downscale": _dropout_add(0.25, False, "downscale_in_infer"),
    "bias_dropout_residual_ln": _bdrln,
    "ffn_post_relu": _ffn(False, "relu", True, "upscale_in_train"),
    "ffn_pre_gelu": _ffn(True, "gelu", True, "upscale_in_train"),
    "ffn_post_no_residual_downscale": _ffn(False, "relu", False, "downscale_in_infer"),
    "mha_post": _mha(False, None, False, False, True),
    "mha_post_float_mask": _mha(False, "float", False, False, True),
    "mha_pre_bool_mask": _mha(True, "bool", False, False, True),
    "mha_cache": _mha(False, None, True, False, True),
    "mha_transposed_no_residual": _mha(True, "float", False, True, False),
    "softmax_mask_fuse": _smf,
    "softmax_mask_fuse_upper_triangle": _smf_upper,
    "segment_sum": _segment("sum"),
    "segment_mean": _segment("mean"),
    "segment_max": _segment("max"),
    "segment_min": _segment("min"),
    "identity_sum": _identity("sum"),
    "identity_mean_int": _identity(1),
    "identity_none": _identity("none"),
    "gsr_sum": _gsr("sum", None),
    "gsr_mean_out_size": _gsr("mean", 6),
    "gsr_max": _gsr("max", None),
    "gsr_min": _gsr("min", None),
}
# where Paddle's CPU build runs the incubate function itself (the others: the reference formula)
PADDLE_RUNS = {"rms_basic", "rms_residual", "rms_residual_no_bias", "rms_bias_without_residual", "ln_basic",
               "ln_residual", "ln_axis1", "ln_residual_axis1", "ln_no_norm", "ln_weight_only", "swiglu_one", "swiglu_two", "matmul_plain", "matmul_plain_tx_ty",
               "dropout_add_p0", "dropout_add_eval", "dropout_add_eval_downscale", "softmax_mask_fuse",
               "segment_sum", "segment_mean", "segment_max", "segment_min", "identity_sum", "identity_mean_int",
               "identity_none", "gsr_sum", "gsr_mean_out_size", "gsr_max", "gsr_min"}
# Paddle's CPU build has their forward only: the gradients come from the reference formula
FORWARD_ONLY = {"rms_basic", "rms_residual", "rms_residual_no_bias",
                "rms_bias_without_residual"}


def run(paddle: Any, name: str, fused: bool, grads: bool = True) -> dict[str, Any]:
    """The outputs of case ``name`` (dtype, shape, values) and the gradients of ``sum(out * ct)`` for its leaves
    (None where a leaf gets none)."""
    c = Ctx(paddle)
    outs = CASES[name](c, fused)
    outs = list(outs) if isinstance(outs, tuple | list) else [outs]
    rec: dict[str, Any] = {
        "out": [np.asarray(o.numpy(), np.float64).tolist() for o in outs],
        "shape": [list(o.shape) for o in outs],
        "dtype": [str(o.dtype).replace("paddle.", "") for o in outs],
        "stop_gradient": [bool(o.stop_gradient) for o in outs],
    }
    live = [o for o in outs if not o.stop_gradient and int(np.prod(o.shape)) > 0]
    if grads and c.leaves and live:
        loss = sum((o * paddle.to_tensor(_ct(o.shape))).sum() for o in live)
        loss.backward()
        rec["grads"] = [None if t.grad is None else np.asarray(t.grad.numpy(), np.float64).tolist()
                        for t in c.leaves]
    return rec


def record(paddle: Any) -> dict[str, Any]:
    import warnings

    warnings.simplefilter("ignore")  # (Paddle's deprecation notes of segment_* and graph_send_recv)
    out: dict[str, Any] = {}
    for name in CASES:
        if name in FORWARD_ONLY:
            out[name] = run(paddle, name, True, grads=False)
            out[name]["grads"] = run(paddle, name, False)["grads"]
        else:
            out[name] = run(paddle, name, name in PADDLE_RUNS)
        out[name]["paddle_runs"] = name in PADDLE_RUNS
    return {"cases": out, "layers": record_layers(paddle)}


# ---- the Layers: Paddle's parameters (names, shapes, initial values) and, with them, the documented formula -------
LAYERS: dict[str, str] = {
    "linear": "N.FusedLinear(8, 5)",
    "linear_t": "N.FusedLinear(8, 5, transpose_weight=True)",
    "linear_no_bias": "N.FusedLinear(8, 5, bias_attr=False)",
    "ffn_post": "N.FusedFeedForward(8, 16, dropout_rate=0.3)",
    "ffn_pre_gelu": "N.FusedFeedForward(8, 16, activation='gelu', normalize_before=True)",
    "mha_post": "N.FusedMultiHeadAttention(8, 2)",
    "mha_pre": "N.FusedMultiHeadAttention(8, 2, normalize_before=True)",
    "encoder_post": "N.FusedTransformerEncoderLayer(8, 2, 16)",
    "encoder_pre": "N.FusedTransformerEncoderLayer(8, 2, 16, normalize_before=True, activation='gelu')",
    "bias_dropout_residual_ln": "N.FusedBiasDropoutResidualLayerNorm(8)",
    "dropout_add": "N.FusedDropoutAdd(0.3)",
}


def _layer_ref(c: Ctx, name: str, layer: Any, x: Any) -> Any:
    """The layer's output in evaluation mode: the fused function where Paddle's CPU build runs it, else the formula
    with the layer's parameters."""
    sd = {k: v for k, v in layer.state_dict().items()}
    if name.startswith("linear"):
        w = sd["weight"]
        out = c.P.matmul(x, w, transpose_y=name == "linear_t")
        return out if "bias" not in sd else out + sd["bias"]
    if name.startswith("ffn"):
        pre, act = name == "ffn_pre_gelu", "gelu" if name == "ffn_pre_gelu" else "relu"
        s, b = (sd["_ln1_scale"], sd["_ln1_bias"]) if pre else (sd["_ln2_scale"], sd["_ln2_bias"])
        return _ffn_ref(c, x, sd["_linear1_weight"], sd["_linear2_weight"], sd["_linear1_bias"],
                        sd["_linear2_bias"], s, b, s, b, 0.0, 0.0, act, pre, False, "upscale_in_train", True)
    if name.startswith("mha"):
        pre = name == "mha_pre"
        s, b = (sd["pre_ln_scale"], sd["pre_ln_bias"]) if pre else (sd["ln_scale"], sd["ln_bias"])
        return _mha_ref(c, x, sd["qkv_weight"], sd["linear_weight"], pre, s, b, sd["qkv_bias"], sd["linear_bias"],
                        None, c.t(BMASK), True, False, 2)
    if name.startswith("encoder"):
        pre = name == "encoder_pre"
        a = {k[len("fused_attn."):]: v for k, v in sd.items() if k.startswith("fused_attn.")}
        f = {k[len("ffn."):]: v for k, v in sd.items() if k.startswith("ffn.")}
        s, b = (a["pre_ln_scale"], a["pre_ln_bias"]) if pre else (a["ln_scale"], a["ln_bias"])
        h = _mha_ref(c, x, a["qkv_weight"], a["linear_weight"], pre, s, b, a["qkv_bias"], a["linear_bias"], None,
                     c.t(BMASK), True, False, 2)
        s, b = (f["_ln1_scale"], f["_ln1_bias"]) if pre else (f["_ln2_scale"], f["_ln2_bias"])
        return _ffn_ref(c, h, f["_linear1_weight"], f["_linear2_weight"], f["_linear1_bias"], f["_linear2_bias"],
                        s, b, s, b, 0.0, 0.0, "gelu" if pre else "relu", pre, False, "upscale_in_train", True)
    if name == "bias_dropout_residual_ln":
        return _ln_ref(c, c.t(RES[:, :3]) + x + sd["linear_bias"], sd["ln_scale"], sd["ln_bias"], 1e-5)
    return layer(x, c.t(RES[:, :3]))  # dropout_add: Paddle's CPU build runs it


def _perturbed(c: Ctx, layer: Any) -> None:
    """Every parameter moved off its initial value (the biases and norm scales start constant)."""
    for i, (_, p) in enumerate(sorted(layer.state_dict().items())):
        a = np.asarray(p.numpy(), np.float32)
        p.set_value(a + 0.1 * np.sin(np.arange(a.size, dtype=np.float32) + i).reshape(a.shape))


def record_layers(paddle: Any) -> dict[str, Any]:
    c = Ctx(paddle)
    N = paddle.incubate.nn
    out: dict[str, Any] = {}
    paddle.seed(7)
    for name, code in LAYERS.items():
        layer = eval(code, {"N": N})  # noqa: S307
        params = {k: {"shape": list(v.shape), "name": v.name, "dtype": str(v.dtype).replace("paddle.", ""),
                      "max_abs": float(np.abs(v.numpy()).max()), "min": float(v.numpy().min()),
                      "max": float(v.numpy().max())} for k, v in layer.state_dict().items()}
        _perturbed(c, layer)
        layer.eval()
        y = _layer_ref(c, name, layer, c.t(X[:, :3]))
        out[name] = {"params": params, "state": {k: np.asarray(v.numpy(), np.float64).tolist()
                                                 for k, v in layer.state_dict().items()},
                     "out": np.asarray(y.numpy(), np.float64).tolist(), "repr": _repr(layer)}
    return out


def _repr(layer: Any) -> str | None:
    try:
        return repr(layer)
    except AttributeError:  # (Paddle's FusedBiasDropoutResidualLayerNorm.extra_repr reads an attribute it lacks)
        return None
