"""``paddle.compat.nn.functional``: ``pad``, ``softmax``, ``linear``, ``unfold`` and
``scaled_dot_product_attention`` with PyTorch's signatures and layouts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._api import functional as _P
from ...nn import functional as F
from .._forbid import forbid

__all__ = ["pad", "softmax", "linear", "scaled_dot_product_attention", "unfold"]



softmax = _P.softmax  # (the same function as ``paddle.softmax``, as in Paddle)


def _pad_len_check(n: int, ndim: int, constant: bool) -> None:
    if n > 6 or n < 0:
        raise ValueError(f"paddle.compat.nn.functional.pad: expect len(pad) <= 6, but received {n}.")
    bound = 2 * ndim - (0 if constant else 2)
    if n > bound:
        raise ValueError(f"paddle.compat.nn.functional.pad: len(pad) is bounded by input.ndim: expect len(pad) <= "
                         f"{bound}, but received {n}.")


@forbid({"x", "name", "data_format", "pad_from_left_axis"}, "nn.functional.pad", "paddle.nn.functional.pad")
def pad(input: Any, pad: Sequence[int], mode: str = "constant", value: float = 0.0) -> Any:
    """PyTorch's ``pad``: ``pad`` lists (before, after) pairs from the last dim backwards; ``mode`` 'constant',
    'reflect', 'replicate' or 'circular' (the non-constant ones pad the last 1 to 3 dims of a 2-D to 5-D input)."""
    if mode not in ("reflect", "replicate", "constant", "circular"):
        raise ValueError(f"paddle.compat.nn.functional.pad: mode should be one of constant, reflect, replicate, "
                         f"circular, but received {mode!r}.")
    ndim = input.ndim
    pad = [int(p) for p in (pad.tolist() if hasattr(pad, "tolist") else pad)]
    if not pad:
        return input.clone()
    if mode == "constant" and len(pad) != (ndim - 2) * 2:
        if len(pad) > 2 * ndim or len(pad) % 2:
            raise ValueError(f"paddle.compat.nn.functional.pad: pad must hold (before, after) pairs for at most "
                             f"{ndim} dims, but received {len(pad)} values.")
        full = [0] * (2 * ndim)
        for k in range(len(pad) // 2):
            d = ndim - 1 - k
            full[2 * d], full[2 * d + 1] = pad[2 * k], pad[2 * k + 1]
        return F.pad(input, full, mode="constant", value=float(value))
    if not 1 <= ndim <= 5:
        raise ValueError(f"paddle.compat.nn.functional.pad: the input must have 1 to 5 dims, but it has {ndim}.")
    if mode != "constant" and ndim < 2:
        raise ValueError(f"paddle.compat.nn.functional.pad: only 2D, 3D, 4D, 5D padding with non-constant padding "
                         f"are supported, but the input has {ndim} dims.")
    _pad_len_check(len(pad), ndim, mode == "constant")
    pad = pad + [0] * (6 - len(pad))
    lead = list(range(5 - ndim))
    x = input.unsqueeze(lead) if lead else input
    out = F.pad(x, pad, mode=mode, value=value, data_format="NCDHW")
    return out.squeeze(lead) if lead else out


@forbid({"x", "name"}, "nn.functional.linear", "paddle.nn.functional.linear")
def linear(input: Any, weight: Any, bias: Any = None) -> Any:
    """``input @ weight.T + bias``: ``weight`` is [out_features, in_features], as in PyTorch."""
    return F.linear(input, weight.T, bias)


@forbid({"x", "kernel_sizes", "dilations", "paddings", "strides", "name"}, "nn.functional.unfold",
        "paddle.nn.functional.unfold")
def unfold(input: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Any:
    """Sliding blocks of a [N, C, H, W] input as columns ([N, C * kh * kw, L]); PyTorch's argument names and
    order (the sizes may be Tensors)."""
    def plain(v: Any) -> Any:
        return v.tolist() if hasattr(v, "tolist") else v

    return F.unfold(input, kernel_sizes=plain(kernel_size), strides=plain(stride), paddings=plain(padding),
                    dilations=plain(dilation))


def scaled_dot_product_attention(query: Any, key: Any, value: Any, attn_mask: Any = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Any:
    """Attention over [..., heads, seq, dim] inputs (PyTorch's layout; Paddle's function takes [batch, seq, heads,
    dim]): ``softmax(q @ k.T * scale + mask) @ v`` with dropout ``dropout_p``, causal when ``is_causal``."""
    if is_causal and attn_mask is not None:
        raise RuntimeError("paddle.compat.nn.functional.scaled_dot_product_attention: explicit attn_mask should not "
                           "be set when is_causal=True; pass one or the other.")
    q, k, v = (t.swapaxes(-3, -2) for t in (query, key, value))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal, True, None, scale, enable_gqa)
    return out.swapaxes(-3, -2)
