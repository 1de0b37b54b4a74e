"""``paddle.compat.nn.MultiheadAttention``: PyTorch's multi-head attention layer (packed ``in_proj_weight``
[3E, E] when key and value have the query's width, else separate ``q/k/v_proj_weight``; ``batch_first``; boolean
masks mark the positions to leave out)."""

from __future__ import annotations

import sys
from typing import Any

from ... import nn as _nn
from ...nn import functional as _F
from . import functional

_ROOT = sys.modules[__name__.split(".")[0]]


class MultiheadAttention(_nn.Layer):
    """Attention of ``query`` over ``key`` / ``value`` in ``num_heads`` heads; ``forward`` returns
    ``(output, weights)`` (weights averaged over the heads unless ``average_attn_weights=False``; None when
    ``need_weights=False``)."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, device: Any = None, dtype: Any = None) -> None:
        super().__init__(dtype=dtype) if dtype else super().__init__()
        if num_heads <= 0 or embed_dim % num_heads:
            raise ValueError(f"MultiheadAttention: embed_dim ({embed_dim}) must be divisible by num_heads "
                             f"({num_heads}).")
        self.embed_dim, self.num_heads, self.dropout, self.batch_first = embed_dim, num_heads, dropout, batch_first
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.head_dim = embed_dim // num_heads
        xu = _nn.initializer.XavierUniform()

        def param(shape: list[int], is_bias: bool = False, init: Any = None) -> Any:
            return self.create_parameter(shape=shape, dtype=self._dtype, is_bias=is_bias, device=device,
                                         default_initializer=init)

        self.in_proj_bias = self.q_proj_bias = self.k_proj_bias = self.v_proj_bias = None
        if self._qkv_same_embed_dim:
            self.in_proj_weight = param([3 * embed_dim, embed_dim], init=xu)
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
            if bias:
                self.in_proj_bias = param([3 * embed_dim], True)
        else:
            self.q_proj_weight = param([embed_dim, embed_dim], init=xu)
            self.k_proj_weight = param([embed_dim, self.kdim], init=xu)
            self.v_proj_weight = param([embed_dim, self.vdim], init=xu)
            self.in_proj_weight = None
            if bias:
                self.q_proj_bias, self.k_proj_bias, self.v_proj_bias = (param([embed_dim], True) for _ in range(3))
        from . import Linear

        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, dtype=self._dtype)
        self.add_bias_kv, self.add_zero_attn = add_bias_kv, add_zero_attn
        if add_bias_kv:
            xn = _nn.initializer.XavierNormal()
            self.bias_k, self.bias_v = param([1, 1, embed_dim], True, xn), param([1, 1, embed_dim], True, xn)
        else:
            self.bias_k = self.bias_v = None

    @staticmethod
    def _float_mask(mask: Any, dtype: Any) -> Any:
        if str(mask.dtype).endswith("bool"):
            low = _ROOT.finfo(dtype).min
            return _ROOT.where(mask, _ROOT.full(mask.shape, low, dtype), _ROOT.zeros(mask.shape, dtype))
        return mask.astype(dtype)

    def _project(self, query: Any, key: Any, value: Any) -> tuple[Any, Any, Any]:
        if self._qkv_same_embed_dim:
            ws = self.in_proj_weight.chunk(3, axis=0)
            bs = self.in_proj_bias.chunk(3, axis=0) if self.in_proj_bias is not None else (None,) * 3
        else:
            ws = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)
            bs = (self.q_proj_bias, self.k_proj_bias, self.v_proj_bias)
        return tuple(_F.linear(t, w.T, b) for t, w, b in zip((query, key, value), ws, bs))

    def _mask(self, attn_mask: Any, key_padding_mask: Any, b: int, tq: int, s: int, dtype: Any,
              is_causal: bool) -> Any:
        if attn_mask is None and key_padding_mask is None and not is_causal:
            return None
        if attn_mask is None:
            attn_mask = (_ROOT.triu(_ROOT.ones([tq, s], dtype="bool"), diagonal=1) if is_causal
                         else _ROOT.zeros([tq, s], dtype=dtype))
        extra = int(self.add_zero_attn) + int(self.add_bias_kv)
        mask = self._float_mask(attn_mask, dtype)
        if extra:
            mask = _ROOT.concat([mask, _ROOT.zeros([*mask.shape[:-1], extra], dtype)], axis=-1)
        mask = mask.reshape([b, self.num_heads, tq, -1]) if mask.ndim == 3 else mask.reshape([1, 1, tq, -1])
        if key_padding_mask is not None:
            kpm = self._float_mask(key_padding_mask, dtype)
            if extra:
                kpm = _ROOT.concat([kpm, _ROOT.zeros([b, extra], dtype)], axis=-1)
            mask = mask + kpm.reshape([b, 1, 1, -1])
        return mask.expand([b, self.num_heads, tq, mask.shape[-1]])

    def forward(self, query: Any, key: Any, value: Any, key_padding_mask: Any = None, need_weights: bool = True,
                attn_mask: Any = None, average_attn_weights: bool = True, is_causal: bool = False) -> tuple[Any, Any]:
        batched = query.ndim == 3
        if not batched:
            at = 0 if self.batch_first else 1
            query, key, value = query.unsqueeze(at), key.unsqueeze(at), value.unsqueeze(at)
            if key_padding_mask is not None and key_padding_mask.ndim != 2:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        if not self.batch_first:
            query, key, value = (t.transpose([1, 0, 2]) for t in (query, key, value))
        b, tq, _ = query.shape
        s = key.shape[1]
        if key_padding_mask is not None and list(key_padding_mask.shape) != [b, s]:
            raise ValueError(f"MultiheadAttention: key_padding_mask must have shape [batch, source length] = "
                             f"{[b, s]}, but received {list(key_padding_mask.shape)}.")
        q, k, v = self._project(query, key, value)
        if self.add_bias_kv:
            k = _ROOT.concat([k, self.bias_k.expand([b, 1, self.embed_dim])], axis=1)
            v = _ROOT.concat([v, self.bias_v.expand([b, 1, self.embed_dim])], axis=1)

        def heads(t: Any) -> Any:
            return t.reshape([b, t.shape[1], self.num_heads, self.head_dim]).transpose([0, 2, 1, 3])

        q, k, v = heads(q), heads(k), heads(v)
        if self.add_zero_attn:
            zeros = _ROOT.zeros([b, self.num_heads, 1, self.head_dim], dtype=k.dtype)
            k, v = _ROOT.concat([k, zeros], axis=2), _ROOT.concat([v, zeros], axis=2)
        mask = self._mask(attn_mask, key_padding_mask, b, tq, s, q.dtype, is_causal)
        p = self.dropout if self.training else 0.0
        weights = None
        if need_weights:
            scores = _ROOT.matmul(q, k, transpose_y=True) / (self.head_dim ** 0.5)
            if mask is not None:
                scores = scores + mask
            weights = _F.dropout(_F.softmax(scores, axis=-1), p, training=self.training)
            ctx = _ROOT.matmul(weights, v)
        else:
            ctx = functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p)
        out = self.out_proj(ctx.transpose([0, 2, 1, 3]).reshape([b, tq, self.embed_dim]))
        if not self.batch_first:
            out = out.transpose([1, 0, 2])
        if weights is not None and average_attn_weights:
            weights = weights.mean(axis=1)
        if not batched:
            out = out.squeeze(0 if self.batch_first else 1)
            if weights is not None:
                weights = weights.squeeze(0)
        return out, weights
