"""``paddle.incubate.nn.functional``: the fused operators transformer code calls (layer L8).

Paddle runs most of these as single GPU kernels; its CPU build has kernels only for ``fused_rms_norm`` (forward),
``fused_layer_norm``, ``swiglu`` and ``fused_dropout_add``. Here every one computes the formula its documentation
states, with gradients, from the op table: ``fused_rms_norm`` and ``fused_rotary_position_embedding`` are table ops
(``_ops.fused``), the others compose table ops, so the eager tape, ``to_static`` and static programs all run them.
Where Paddle's CPU build raises (no kernel), the function's docstring says that it computes the documented formula.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..._api import functional as _P
from ..._ops.table import TABLE
from ..._runtime import dtypes as _dtypes
from ..._tensor.dispatch import apply_op
from ..._tensor.facade import Tensor
from ...nn import _functional as F

_MODES = ("upscale_in_train", "downscale_in_infer")


# ---- checks shared by the functions -----------------------------------------------------------------
def _tensor(api: str, what: str, x: Any) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: {what} must be a Tensor, but received {type(x).__name__}; wrap it with "
                        "paddle.to_tensor.")
    return x


def _opt_tensor(api: str, what: str, x: Any) -> Tensor | None:
    return None if x is None else _tensor(api, what, x)


def _no_quant(api: str, quant_scale: Any, quant_round_type: Any, quant_max_bound: Any, quant_min_bound: Any) -> None:
    """The int8 quantised output (``quant_scale > 0``) is not implemented (Paddle's CPU build rejects it too)."""
    if quant_scale is not None and quant_scale > 0:
        raise NotImplementedError(
            f"{api}: the int8 quantised output (quant_scale={quant_scale}, quant_round_type={quant_round_type}, "
            f"quant_max_bound={quant_max_bound}, quant_min_bound={quant_min_bound}) is not implemented; leave "
            "quant_scale at -1 for an output in the input's dtype."
        )


def _check_rate(api: str, what: str, p: Any) -> float:
    if isinstance(p, bool) or not isinstance(p, int | float):
        raise TypeError(f"{api}: {what} must be a float or int, but received {type(p).__name__}.")
    if not 0 <= p <= 1:
        raise ValueError(f"{api}: {what} must be in [0, 1], but received {p}.")
    return float(p)


def _check_mode(api: str, mode: Any) -> str:
    if mode not in _MODES:
        raise ValueError(f"{api}: mode must be 'upscale_in_train' or 'downscale_in_infer', but received {mode!r}.")
    return mode


def _numel(shape: Sequence[int]) -> int:
    return int(np.prod(shape, dtype=np.int64))


def _norm_axis(api: str, x: Tensor, begin_norm_axis: Any, allow_negative: bool) -> int:
    rank = len(x.shape)
    if isinstance(begin_norm_axis, bool) or not isinstance(begin_norm_axis, int | np.integer):
        raise TypeError(f"{api}: begin_norm_axis must be an int, but received {type(begin_norm_axis).__name__}.")
    axis = int(begin_norm_axis)
    if axis < 0 and allow_negative:
        axis += rank
    if not 0 <= axis < rank:
        rng = f"[{-rank}, {rank})" if allow_negative else f"[0, {rank})"
        raise ValueError(f"{api}: begin_norm_axis must be in range {rng} for a {rank}-D input, but received "
                         f"{begin_norm_axis}.")
    return axis


def _per_element(api: str, what: str, t: Tensor | None, n: int, axis: int, x: Tensor) -> None:
    if t is not None and _numel(t.shape) != n:
        raise ValueError(
            f"{api}: {what} must hold one value per normalised element ({n}: the product of x.shape[{axis}:] for x of "
            f"shape {list(x.shape)}), but it has shape {list(t.shape)}."
        )


def _same_shape(api: str, what: str, t: Tensor | None, x: Tensor) -> None:
    if t is not None and list(t.shape) != list(x.shape):
        raise ValueError(f"{api}: {what} must have the shape of x ({list(x.shape)}), but it has shape "
                         f"{list(t.shape)}.")


def _last_dim_bias(api: str, what: str, t: Tensor | None, n: int) -> None:
    if t is not None and _numel(t.shape) != n:
        raise ValueError(f"{api}: {what} must hold one value per element of the last axis ({n}), but it has shape "
                         f"{list(t.shape)}.")


# ---- normalisations ---------------------------------------------------------------------------------
def fused_rms_norm(
    x: Tensor,
    norm_weight: Tensor,
    norm_bias: Tensor | None,
    epsilon: float,
    begin_norm_axis: int = 1,
    bias: Tensor | None = None,
    residual: Tensor | None = None,
    quant_scale: float = -1,
    quant_round_type: float = 0,
    quant_max_bound: float = 0,
    quant_min_bound: float = 0,
) -> tuple[Tensor, Tensor]:
    """RMS normalisation over the axes from ``begin_norm_axis`` on, fused with a residual add.

    ``h = x + bias + residual`` when ``residual`` is given (else ``h = x``: like Paddle's kernel, ``bias`` is only
    added together with a residual), then ``out = h / sqrt(mean(h**2) + epsilon) * norm_weight + norm_bias``.
    ``norm_weight``, ``norm_bias`` and ``bias`` hold one value per normalised element (the product of
    ``x.shape[begin_norm_axis:]``). Returns ``(out, residual_out)``: ``residual_out`` is ``h`` when ``residual`` is
    given, else an empty tensor (shape ``[0]``), as Paddle's dynamic mode returns.

    Gradients reach ``x``, ``norm_weight``, ``norm_bias``, ``bias`` and ``residual`` (Paddle's CPU build has the
    forward kernel only; its GPU backward computes the same derivative). float64 is supported too (Paddle's CPU
    kernel takes float32 and half types). The int8 quantised output (``quant_scale > 0``) is not implemented.

    Example::

        out, _ = paddle.incubate.nn.functional.fused_rms_norm(x, w, None, 1e-6, begin_norm_axis=2)
    """
    api = "fused_rms_norm"
    x = _tensor(api, "x", x)
    norm_weight = _tensor(api, "norm_weight", norm_weight)
    norm_bias, bias, residual = (_opt_tensor(api, w, t) for w, t in
                                 (("norm_bias", norm_bias), ("bias", bias), ("residual", residual)))
    axis = _norm_axis(api, x, begin_norm_axis, allow_negative=True)
    _no_quant(api, quant_scale, quant_round_type, quant_max_bound, quant_min_bound)
    n = _numel(x.shape[axis:])
    _per_element(api, "norm_weight", norm_weight, n, axis, x)
    _per_element(api, "norm_bias", norm_bias, n, axis, x)
    _same_shape(api, "residual", residual, x)
    _per_element(api, "bias", bias, n, axis, x)
    if residual is not None:
        h = x + residual if bias is None else x + _P.reshape(bias, list(x.shape[axis:])) + residual
        residual_out = h
    else:
        h = x
        residual_out = _P.empty([0], dtype=x.dtype)
        residual_out.stop_gradient = False  # (as Paddle's)
    out = apply_op(TABLE["fused_rms_norm"], (h, norm_weight, norm_bias),
                   {"epsilon": float(epsilon), "begin_norm_axis": axis})
    return out, residual_out


def fused_layer_norm(
    x: Tensor,
    norm_weight: Tensor | None,
    norm_bias: Tensor | None,
    epsilon: float,
    residual_alpha: float = 1.0,
    begin_norm_axis: int = 1,
    bias: Tensor | None = None,
    residual: Tensor | None = None,
    quant_scale: float = -1,
    quant_round_type: float = 0,
    quant_max_bound: float = 0,
    quant_min_bound: float = 0,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Layer normalisation over the axes from ``begin_norm_axis`` (non-negative) on, fused with a residual add.

    ``h = x + bias + residual_alpha * residual`` when ``residual`` is given (else ``h = x``: as in Paddle's kernel,
    ``bias`` is only added together with a residual). With ``norm_weight`` and ``norm_bias`` both None the output is
    ``h`` itself; otherwise ``out = (h - mean) / sqrt(var + epsilon) * norm_weight + norm_bias``. The weights and
    both biases hold one value per normalised element (the product of ``x.shape[begin_norm_axis:]``). Returns
    ``(out, residual_out, mean, invvar)`` as Paddle's dynamic mode does: ``residual_out`` is ``h``, ``mean`` and
    ``invvar`` (``1 / sqrt(var + epsilon)``) are float32 (the input's dtype for float64) with one value per
    normalised row (zeros when nothing is normalised).

    Paddle's operator has no backward: every output has ``stop_gradient=True``, here too. float64 is supported
    (Paddle's CPU kernel takes float32 only). The int8 quantised output (``quant_scale > 0``) is not implemented.
    """
    api = "fused_layer_norm"
    x = _tensor(api, "x", x)
    norm_weight, norm_bias, bias, residual = (
        _opt_tensor(api, w, t) for w, t in
        (("norm_weight", norm_weight), ("norm_bias", norm_bias), ("bias", bias), ("residual", residual)))
    axis = _norm_axis(api, x, begin_norm_axis, allow_negative=False)
    _no_quant(api, quant_scale, quant_round_type, quant_max_bound, quant_min_bound)
    n = _numel(x.shape[axis:])
    _per_element(api, "norm_weight", norm_weight, n, axis, x)
    _per_element(api, "norm_bias", norm_bias, n, axis, x)
    _same_shape(api, "residual", residual, x)
    _per_element(api, "bias", bias, n, axis, x)
    h = x.detach()
    if residual is not None:
        r = residual.detach()
        if residual_alpha != 1.0:
            r = _P.scale(r, float(residual_alpha))
        h = h + r if bias is None else h + _P.reshape(bias.detach(), list(x.shape[axis:])) + r
    rows = _numel(x.shape[:axis])
    stat = "float64" if _dtypes.to_np(x.dtype) == np.float64 else "float32"
    if norm_weight is None and norm_bias is None:
        zeros = _P.zeros([rows], dtype=stat)
        return h, h, zeros, zeros
    flat = _P.reshape(h, [rows, n])
    w = None if norm_weight is None else _P.reshape(norm_weight.detach(), [n])
    b = None if norm_bias is None else _P.reshape(norm_bias.detach(), [n])
    out, mean, var = apply_op(TABLE["layer_norm_residuals"], (flat, w, b),
                              {"normalized_shape": [n], "epsilon": float(epsilon)})
    invvar = _P.rsqrt(_P.scale(var, 1.0, float(epsilon)))
    return _P.reshape(out, list(x.shape)), h, _P.cast(mean, stat), _P.cast(invvar, stat)


# ---- rotary position embedding ----------------------------------------------------------------------
def _check_rope(api: str, q: Tensor, t: Tensor | None, what: str) -> None:
    if t is None:
        return
    _tensor(api, what, t)
    if len(t.shape) != 4:
        raise ValueError(f"{api}: {what} must be 4-D ([batch_size, seq_len, num_heads, head_dim], or "
                         f"[seq_len, batch_size, ...] with time_major), but it has shape {list(t.shape)}.")
    if t.shape[-1] % 2:
        raise ValueError(f"{api}: the head_dim (last axis) of {what} must be even, but it has shape "
                         f"{list(t.shape)}.")
    if t is not q and (t.shape[-1] != q.shape[-1] or t.shape[:2] != q.shape[:2]):
        raise ValueError(f"{api}: {what} must have q's batch, sequence and head_dim sizes ({list(q.shape)}, the "
                         f"number of heads may differ), but it has shape {list(t.shape)}.")


def fused_rotary_position_embedding(
    q: Tensor,
    k: Tensor | None = None,
    v: Tensor | None = None,
    sin: Tensor | None = None,
    cos: Tensor | None = None,
    position_ids: Tensor | None = None,
    use_neox_rotary_style: bool = True,
    time_major: bool = False,
    rotary_emb_base: float = 10000.0,
) -> tuple[Tensor, Tensor | None, Tensor | None]:
    """Rotary position embedding of ``q`` (and ``k``, ``v`` when given): ``x * cos + rotate(x) * sin``.

    ``q``, ``k``, ``v``: ``[batch_size, seq_len, num_heads, head_dim]`` (``[seq_len, batch_size, ...]`` with
    ``time_major``), head_dim even. ``use_neox_rotary_style=True`` rotates adjacent pairs
    (``rotate(x) = (-x1, x0, -x3, x2, ...)``), False the two halves (``(-x[d/2:], x[:d/2])``). ``sin`` and ``cos``:
    ``[seq_len, head_dim]`` or ``[1, seq_len, 1, head_dim]``; with ``position_ids`` (int64 ``[batch_size, seq_len]``)
    their rows are picked by position (the table may then have more rows than the sequence). Without them, element
    ``j`` of position ``p`` turns by the angle ``p / rotary_emb_base ** (2 * (j // 2) / head_dim)`` (neox style only,
    as in Paddle). Returns ``(out_q, out_k, out_v)``, None for an input not given.

    Paddle's CPU build has no kernel for this operator: this computes the documented formula, with gradients for
    q, k and v (none for sin and cos, as Paddle's backward).
    """
    api = "fused_rotary_position_embedding"
    q = _tensor(api, "q", q)
    for what, t in (("q", q), ("k", k), ("v", v)):
        _check_rope(api, q, t, what)
    if (sin is None) != (cos is None):
        raise ValueError(f"{api}: sin and cos must be given together, but only "
                         f"{'sin' if cos is None else 'cos'} was given.")
    if sin is None:
        if position_ids is not None:
            raise ValueError(f"{api}: position_ids needs sin and cos (position_ids without sin/cos is not "
                             "supported, as in Paddle); pass the sin and cos tables too.")
        if not use_neox_rotary_style:
            raise ValueError(f"{api}: use_neox_rotary_style=False (rotate_half) needs sin and cos (as in Paddle); "
                             "pass the sin and cos tables.")
    else:
        _tensor(api, "sin", sin)
        _tensor(api, "cos", cos)
        seq_axis, batch_axis = (0, 1) if time_major else (1, 0)
        seq, head_dim = q.shape[seq_axis], q.shape[-1]
        for what, t in (("sin", sin), ("cos", cos)):
            shp = list(t.shape)
            if not (len(shp) == 2 or (len(shp) == 4 and shp[0] == 1 and shp[2] == 1)) or shp[-1] != head_dim:
                raise ValueError(f"{api}: {what} must have shape [seq_len, head_dim] or [1, seq_len, 1, head_dim] "
                                 f"with head_dim {head_dim}, but it has shape {shp}.")
            rows = shp[0] if len(shp) == 2 else shp[1]
            if position_ids is None and rows != seq:
                raise ValueError(f"{api}: without position_ids, {what} must have one row per position ({seq}), but "
                                 f"it has shape {shp}.")
        if list(sin.shape) != list(cos.shape):
            raise ValueError(f"{api}: sin and cos must have the same shape, but received {list(sin.shape)} and "
                             f"{list(cos.shape)}.")
        if position_ids is not None:
            _tensor(api, "position_ids", position_ids)
            want = [q.shape[batch_axis], seq]
            if list(position_ids.shape) != want:
                raise ValueError(f"{api}: position_ids must have shape [batch_size, seq_len] = {want}, but it has "
                                 f"shape {list(position_ids.shape)}.")
            if not np.issubdtype(_dtypes.to_np(position_ids.dtype), np.integer):
                raise TypeError(f"{api}: position_ids must be an integer tensor (int64), but received dtype "
                                f"{_dtypes.to_paddle(position_ids.dtype).name}.")
    attrs = {"use_neox_rotary_style": bool(use_neox_rotary_style), "time_major": bool(time_major),
             "rotary_emb_base": float(rotary_emb_base)}
    op = TABLE["fused_rotary_embedding"]
    outs = tuple(None if t is None else apply_op(op, (t, sin, cos, position_ids), attrs) for t in (q, k, v))
    return outs  # type: ignore[return-value]


# ---- activations ------------------------------------------------------------------------------------
def swiglu(x: Tensor, y: Tensor | None = None, name: str | None = None) -> Tensor:
    """``silu(x) * y``; with ``y`` None, ``x`` is split in two halves along its last axis (``silu(a) * b``)."""
    return F.swiglu(_tensor("swiglu", "x", x), y)


_BIAS_ACTS = ("gelu", "relu", "geglu", "swiglu")
_COMPUTE_DTYPES = ("default", "fp16", "bf16", "fp32")


def fused_bias_act(
    x: Tensor,
    bias: Tensor | None = None,
    dequant_scales: Tensor | None = None,
    shift: Tensor | None = None,
    smooth: Tensor | None = None,
    act_method: str = "gelu",
    compute_dtype: str = "default",
    quant_scale: float = -1,
    quant_round_type: int = 0,
    quant_max_bound: float = 0,
    quant_min_bound: float = 0,
) -> Tensor:
    """``act(x + bias)``, then ``(out + shift) * smooth`` when ``shift`` and ``smooth`` are given.

    ``act_method``: 'gelu' (the exact, erf form), 'relu', or the gated 'geglu' / 'swiglu', which split ``x + bias``
    in halves ``a, b`` along the last axis and return ``gelu(a) * b`` / ``silu(a) * b``. ``shift`` and ``smooth``
    hold one value per output column. ``compute_dtype`` only matters for int32 inputs, whose dequantisation
    (``dequant_scales``) is not implemented, nor is the int8 output (``quant_scale > 0``).

    Paddle's CPU build has no kernel for this operator: this computes the documented formula, with gradients.
    """
    api = "fused_bias_act"
    x = _tensor(api, "x", x)
    bias, shift, smooth = (_opt_tensor(api, w, t) for w, t in (("bias", bias), ("shift", shift),
                                                                 ("smooth", smooth)))
    if act_method not in _BIAS_ACTS:
        raise NotImplementedError(f"{api}: act_method must be one of {list(_BIAS_ACTS)} (the ones Paddle's kernel "
                                  f"supports), but received {act_method!r}.")
    if compute_dtype not in _COMPUTE_DTYPES:
        raise ValueError(f"{api}: compute_dtype must be one of {list(_COMPUTE_DTYPES)}, but received "
                         f"{compute_dtype!r}.")
    if dequant_scales is not None or not np.issubdtype(_dtypes.to_np(x.dtype), np.floating):
        raise NotImplementedError(f"{api}: dequantising an int32 input (dequant_scales, compute_dtype="
                                  f"{compute_dtype!r}) is not implemented; pass a floating-point x and no "
                                  "dequant_scales.")
    _no_quant(api, quant_scale, quant_round_type, quant_max_bound, quant_min_bound)
    if (shift is None) != (smooth is None):
        raise ValueError(f"{api}: shift and smooth must be given together, but only "
                         f"{'shift' if smooth is None else 'smooth'} was given.")
    cols = x.shape[-1]
    _last_dim_bias(api, "bias", bias, cols)
    h = x if bias is None else x + _P.reshape(bias, [cols])
    if act_method in ("geglu", "swiglu"):
        if cols % 2:
            raise ValueError(f"{api}: act_method {act_method!r} splits the last axis in halves, so it must be even, "
                             f"but x has shape {list(x.shape)}.")
        a, b = _P.split(h, 2, axis=-1)
        out = (F.gelu(a) if act_method == "geglu" else F.silu(a)) * b
    else:
        out = F.gelu(h) if act_method == "gelu" else F.relu(h)
    if shift is not None:
        n = out.shape[-1]
        _last_dim_bias(api, "shift", shift, n)
        _last_dim_bias(api, "smooth", smooth, n)
        out = (out + _P.reshape(shift, [n])) * _P.reshape(smooth, [n])
    return out


# ---- matmul with a bias -----------------------------------------------------------------------------
def fused_matmul_bias(x: Tensor, y: Tensor, bias: Tensor | None = None, transpose_x: bool = False,
                      transpose_y: bool = False, name: str | None = None) -> Tensor:
    """``matmul(x, y, transpose_x, transpose_y) + bias`` (``y`` 2-D, ``bias`` one value per output column).

    Paddle's CPU build runs the bias-free case (a plain matmul) and has no kernel with a bias: this computes the
    documented formula."""
    api = "fused_matmul_bias"
    x, y = _tensor(api, "x", x), _tensor(api, "y", y)
    bias = _opt_tensor(api, "bias", bias)
    if len(y.shape) != 2:
        raise ValueError(f"{api}: y must be 2-D, but it has shape {list(y.shape)}.")
    out = _P.matmul(x, y, transpose_x, transpose_y)
    if bias is None:
        return out
    _last_dim_bias(api, "bias", bias, out.shape[-1])
    return out + _P.reshape(bias, [out.shape[-1]])


def fused_linear(x: Tensor, weight: Tensor, bias: Tensor | None = None, transpose_weight: bool = False,
                 name: str | None = None) -> Tensor:
    """``x @ weight + bias`` (``weight`` ``[in, out]``, or ``[out, in]`` with ``transpose_weight``); see
    ``fused_matmul_bias``."""
    return fused_matmul_bias(x, weight, bias, False, transpose_weight)


def fused_linear_activation(x: Tensor, y: Tensor, bias: Tensor, trans_x: bool = False, trans_y: bool = False,
                            activation: str | None = None) -> Tensor:
    """``act(matmul(x, y, trans_x, trans_y) + bias)``, ``activation`` None, 'relu' or 'gelu'.

    Paddle runs this as a cuBLASLt GEMM epilogue, whose GELU is the tanh approximation: 'gelu' is
    ``gelu(approximate=True)`` here. Paddle's CPU build has no kernel: this computes that formula."""
    api = "fused_linear_activation"
    if activation not in (None, "none", "relu", "gelu"):
        raise ValueError(f"{api}: activation must be None, 'relu' or 'gelu', but received {activation!r}.")
    out = fused_matmul_bias(x, y, _tensor(api, "bias", bias), trans_x, trans_y)
    if activation == "relu":
        return F.relu(out)
    if activation == "gelu":
        return F.gelu(out, approximate=True)
    return out


# ---- dropout ----------------------------------------------------------------------------------------
def fused_dropout_add(x: Tensor, y: Tensor, p: float = 0.5, training: bool = True,
                      mode: str = "upscale_in_train", name: str | None = None) -> Tensor:
    """``dropout(x, p, training, mode) + y``, which is what Paddle 3.3.1 runs for it (it falls back to dropout and
    add): with 'upscale_in_train' the kept values are scaled by ``1 / (1 - p)`` in training and nothing changes in
    evaluation; with 'downscale_in_infer' training keeps them as they are and evaluation scales ``x`` by ``1 - p``."""
    api = "fused_dropout_add"
    x, y = _tensor(api, "x", x), _tensor(api, "y", y)
    p = _check_rate(api, "p", p)
    mode = _check_mode(api, mode)
    if p == 0:
        return x + y
    return F.dropout(x, p, training=training, mode=mode) + y


def fused_bias_dropout_residual_layer_norm(
    x: Tensor,
    residual: Tensor,
    bias: Tensor | None = None,
    ln_scale: Tensor | None = None,
    ln_bias: Tensor | None = None,
    dropout_rate: float = 0.5,
    ln_epsilon: float = 1e-5,
    training: bool = True,
    mode: str = "upscale_in_train",
    name: str | None = None,
) -> Tensor:
    """``layer_norm(residual + dropout(x + bias))`` over the last axis, with ``ln_scale`` and ``ln_bias``.

    Paddle's CPU build has no kernel for this operator: this computes the documented formula, with gradients."""
    api = "fused_bias_dropout_residual_layer_norm"
    x, residual = _tensor(api, "x", x), _tensor(api, "residual", residual)
    bias, ln_scale, ln_bias = (_opt_tensor(api, w, t) for w, t in
                               (("bias", bias), ("ln_scale", ln_scale), ("ln_bias", ln_bias)))
    rate = _check_rate(api, "dropout_rate", dropout_rate)
    mode = _check_mode(api, mode)
    _same_shape(api, "residual", residual, x)
    d = x.shape[-1]
    for what, t in (("bias", bias), ("ln_scale", ln_scale), ("ln_bias", ln_bias)):
        _last_dim_bias(api, what, t, d)
    h = x if bias is None else x + _P.reshape(bias, [d])
    h = residual + F.dropout(h, rate, training=training, mode=mode)
    return F.layer_norm(h, [d], None if ln_scale is None else _P.reshape(ln_scale, [d]),
                        None if ln_bias is None else _P.reshape(ln_bias, [d]), ln_epsilon)


# ---- transformer blocks -----------------------------------------------------------------------------
_FFN_ACTS = ("relu", "gelu", "silu", "swish", "tanh", "sigmoid")


def _act(api: str, name: str, h: Tensor) -> Tensor:
    if name not in _FFN_ACTS:
        raise ValueError(f"{api}: activation must be one of {list(_FFN_ACTS)}, but received {name!r}.")
    if name == "gelu":
        return F.gelu(h)
    if name in ("silu", "swish"):
        return F.silu(h)
    return {"relu": F.relu, "tanh": F.tanh, "sigmoid": F.sigmoid}[name](h)


def _ln(x: Tensor, scale: Tensor | None, bias: Tensor | None, eps: float) -> Tensor:
    d = x.shape[-1]
    return F.layer_norm(x, [d], None if scale is None else _P.reshape(scale, [d]),
                        None if bias is None else _P.reshape(bias, [d]), eps)


def _no_ring(api: str, ring_id: Any) -> None:
    if ring_id != -1:
        raise NotImplementedError(f"{api}: tensor model parallelism (ring_id={ring_id}) needs several processes; "
                                  "this package runs one, so ring_id must be -1.")


def fused_feedforward(
    x: Tensor,
    linear1_weight: Tensor,
    linear2_weight: Tensor,
    linear1_bias: Tensor | None = None,
    linear2_bias: Tensor | None = None,
    ln1_scale: Tensor | None = None,
    ln1_bias: Tensor | None = None,
    ln2_scale: Tensor | None = None,
    ln2_bias: Tensor | None = None,
    dropout1_rate: float = 0.5,
    dropout2_rate: float = 0.5,
    activation: str = "relu",
    ln1_epsilon: float = 1e-5,
    ln2_epsilon: float = 1e-5,
    pre_layer_norm: bool = False,
    training: bool = True,
    mode: str = "upscale_in_train",
    ring_id: int = -1,
    add_residual: bool = True,
    name: str | None = None,
) -> Tensor:
    """A transformer's feed-forward block, as Paddle documents it::

        out = layer_norm1(x) if pre_layer_norm else x            # ln1_scale, ln1_bias, ln1_epsilon
        out = dropout1(activation(out @ linear1_weight + linear1_bias)) @ linear2_weight + linear2_bias
        out = x + dropout2(out) if add_residual else dropout2(out)
        if not pre_layer_norm: out = layer_norm2(out)             # ln2_scale, ln2_bias, ln2_epsilon

    ``activation``: 'relu' or 'gelu' (exact), as Paddle's kernel, and also 'silu' ('swish'), 'tanh' or 'sigmoid'.
    Paddle's CPU build has no kernel for this operator: this computes the documented formula, with gradients.
    ``ring_id`` (tensor model parallelism) must be -1.
    """
    api = "fused_feedforward"
    x = _tensor(api, "x", x)
    w1, w2 = _tensor(api, "linear1_weight", linear1_weight), _tensor(api, "linear2_weight", linear2_weight)
    r1, r2 = _check_rate(api, "dropout1_rate", dropout1_rate), _check_rate(api, "dropout2_rate", dropout2_rate)
    mode = _check_mode(api, mode)
    _no_ring(api, ring_id)
    if len(w1.shape) != 2 or len(w2.shape) != 2 or w1.shape[0] != x.shape[-1] or w2.shape != [w1.shape[1],
                                                                                              x.shape[-1]]:
        raise ValueError(f"{api}: linear1_weight must be [d_model, dim_feedforward] and linear2_weight "
                         f"[dim_feedforward, d_model] for x of shape {list(x.shape)}, but received "
                         f"{list(w1.shape)} and {list(w2.shape)}.")
    out = _ln(x, ln1_scale, ln1_bias, ln1_epsilon) if pre_layer_norm else x
    out = fused_matmul_bias(out, w1, linear1_bias)
    out = F.dropout(_act(api, activation, out), r1, training=training, mode=mode)
    out = F.dropout(fused_matmul_bias(out, w2, linear2_bias), r2, training=training, mode=mode)
    if add_residual:
        out = x + out
    return out if pre_layer_norm else _ln(out, ln2_scale, ln2_bias, ln2_epsilon)


def _float_mask(mask: Tensor | None, dtype: Any) -> Tensor | None:
    """A bool/int mask (True/1: attend) as an additive float mask (0 or -1e9); a float mask as it is."""
    if mask is None:
        return None
    kind = _dtypes.to_np(mask.dtype).kind
    if kind == "b" or kind in "iu":
        return _P.scale(_P.cast(mask, dtype), 1e9, -1e9)
    return mask if mask.dtype == dtype else _P.cast(mask, dtype)


def fused_multi_head_attention(
    x: Tensor,
    qkv_weight: Tensor,
    linear_weight: Tensor,
    pre_layer_norm: bool = False,
    pre_ln_scale: Tensor | None = None,
    pre_ln_bias: Tensor | None = None,
    ln_scale: Tensor | None = None,
    ln_bias: Tensor | None = None,
    pre_ln_epsilon: float = 1e-05,
    qkv_bias: Tensor | None = None,
    linear_bias: Tensor | None = None,
    cache_kv: Tensor | None = None,
    attn_mask: Tensor | None = None,
    dropout_rate: float = 0.5,
    attn_dropout_rate: float = 0.5,
    ln_epsilon: float = 1e-05,
    training: bool = True,
    mode: str = "upscale_in_train",
    ring_id: int = -1,
    add_residual: bool = True,
    num_heads: int = -1,
    transpose_qkv_wb: bool = False,
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """Self-attention as Paddle documents its fused operator::

        out = layer_norm(x) if pre_layer_norm else x                       # pre_ln_scale, pre_ln_bias
        q, k, v = split(out @ qkv_weight + qkv_bias)                       # [batch, heads, seq, head_dim] each
        out = dropout(softmax(q * head_dim**-0.5 @ k^T + attn_mask)) @ v   # attn_dropout_rate
        out = merge_heads(out) @ linear_weight + linear_bias
        out = x + dropout(out) if add_residual else dropout(out)           # dropout_rate
        if not pre_layer_norm: out = layer_norm(out)                       # ln_scale, ln_bias, ln_epsilon

    ``x``: ``[batch, seq, embed_dim]``; ``qkv_weight``: ``[3, num_heads, head_dim, embed_dim]`` (or, with
    ``transpose_qkv_wb`` and ``num_heads``, ``[embed_dim, 3 * embed_dim]``), ``qkv_bias`` ``[3, num_heads,
    head_dim]`` (``[3 * embed_dim]``). ``attn_mask`` is added to the scores (a bool/int mask marks with True/1 the
    positions to attend). ``cache_kv`` (``[2, batch, num_heads, cache_len, head_dim]``): the keys and values of
    earlier steps, put before this call's; then ``(out, cache_kv_out)`` is returned.

    Paddle's CPU build has no kernel for this operator: this computes the documented formula, with gradients.
    ``ring_id`` (tensor model parallelism) must be -1.
    """
    api = "fused_multi_head_attention"
    x = _tensor(api, "x", x)
    qkv_weight, linear_weight = _tensor(api, "qkv_weight", qkv_weight), _tensor(api, "linear_weight", linear_weight)
    rate, attn_rate = _check_rate(api, "dropout_rate", dropout_rate), _check_rate(api, "attn_dropout_rate",
                                                                                  attn_dropout_rate)
    mode = _check_mode(api, mode)
    _no_ring(api, ring_id)
    if len(x.shape) != 3:
        raise ValueError(f"{api}: the rank of x must be 3 ([batch_size, seq_len, embed_dim]), but received "
                         f"{len(x.shape)} (shape {list(x.shape)}).")
    bsz, seq, embed = x.shape
    if transpose_qkv_wb:
        if not isinstance(num_heads, int) or num_heads <= 0:
            raise ValueError(f"{api}: with transpose_qkv_wb, num_heads must be a positive int, but received "
                             f"{num_heads!r}.")
        if list(qkv_weight.shape) != [embed, 3 * embed] or embed % num_heads:
            raise ValueError(f"{api}: with transpose_qkv_wb, qkv_weight must be [embed_dim, 3 * embed_dim] = "
                             f"{[embed, 3 * embed]} with embed_dim divisible by num_heads ({num_heads}), but it has "
                             f"shape {list(qkv_weight.shape)}.")
        heads, head_dim = num_heads, embed // num_heads
        w2 = qkv_weight
    else:
        if len(qkv_weight.shape) != 4 or qkv_weight.shape[0] != 3 or qkv_weight.shape[3] != embed or \
                qkv_weight.shape[1] * qkv_weight.shape[2] != embed:
            raise ValueError(f"{api}: qkv_weight must be [3, num_heads, head_dim, embed_dim] with num_heads * "
                             f"head_dim = embed_dim ({embed}), but it has shape {list(qkv_weight.shape)}.")
        heads, head_dim = qkv_weight.shape[1], qkv_weight.shape[2]
        w2 = _P.transpose(_P.reshape(qkv_weight, [3 * embed, embed]), [1, 0])
    out = _ln(x, pre_ln_scale, pre_ln_bias, pre_ln_epsilon) if pre_layer_norm else x
    qkv = _P.matmul(out, w2)
    if qkv_bias is not None:
        qkv = qkv + _P.reshape(_tensor(api, "qkv_bias", qkv_bias), [3 * embed])
    qkv = _P.transpose(_P.reshape(qkv, [bsz, seq, 3, heads, head_dim]), [2, 0, 3, 1, 4])
    q, k, v = (_P.squeeze(t, 0) for t in _P.split(qkv, 3, axis=0))
    cache_out = None
    if cache_kv is not None:
        cache_kv = _tensor(api, "cache_kv", cache_kv)
        if len(cache_kv.shape) != 5 or cache_kv.shape[0] != 2 or [cache_kv.shape[1], cache_kv.shape[2],
                                                                  cache_kv.shape[4]] != [bsz, heads, head_dim]:
            raise ValueError(f"{api}: cache_kv must be [2, batch_size, num_heads, cache_len, head_dim] = "
                             f"[2, {bsz}, {heads}, cache_len, {head_dim}], but it has shape {list(cache_kv.shape)}.")
        ck, cv = (_P.squeeze(t, 0) for t in _P.split(cache_kv, 2, axis=0))
        k, v = _P.concat([ck, k], axis=2), _P.concat([cv, v], axis=2)
        cache_out = _P.stack([k, v], axis=0)
    scores = _P.matmul(_P.scale(q, head_dim ** -0.5), k, transpose_y=True)
    mask = _float_mask(_opt_tensor(api, "attn_mask", attn_mask), scores.dtype)
    if mask is not None:
        scores = scores + mask
    weights = F.dropout(F.softmax(scores, axis=-1), attn_rate, training=training, mode=mode)
    out = _P.reshape(_P.transpose(_P.matmul(weights, v), [0, 2, 1, 3]), [bsz, seq, heads * head_dim])
    out = fused_matmul_bias(out, linear_weight, linear_bias)
    out = F.dropout(out, rate, training=training, mode=mode)
    if add_residual:
        out = x + out
    if not pre_layer_norm:
        out = _ln(out, ln_scale, ln_bias, ln_epsilon)
    return out if cache_out is None else (out, cache_out)
