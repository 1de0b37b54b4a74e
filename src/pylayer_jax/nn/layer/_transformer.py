"""Attention and Transformer layers with Paddle's structure, parameter names and defaults (layer L5)."""

from __future__ import annotations

import collections
import copy
from typing import Any

import numpy as np

from ..._ops.table import TABLE
from ..._runtime import dtypes as _dtypes
from ..._tensor.facade import Tensor
from ..._tensor.methods import public
from .. import _functional as F
from ._common import Linear
from ._container import LayerList
from ._dropout import Dropout
from ._layers import Layer
from ._norm import LayerNorm
from ._param import ParamAttr

_matmul = public(TABLE["matmul"])
_reshape = public(TABLE["reshape"])
_transpose = public(TABLE["transpose"])
_cast = public(TABLE["cast"])
_full = public(TABLE["full"])
_triu = public(TABLE["triu"])
_scale = public(TABLE["scale"])
_concat = public(TABLE["concat"])

_ACTIVATIONS = ("relu", "gelu", "tanh", "sigmoid", "silu", "swish", "elu", "selu", "leaky_relu", "relu6", "mish",
                "softplus", "softsign", "hardswish", "hardsigmoid", "celu", "tanhshrink", "log_sigmoid")


def _convert_attention_mask(attn_mask: Tensor | None, dtype: Any) -> Tensor | None:
    """A bool/int mask (True/1 = attend) becomes an additive float mask (0 or -1e9); a float mask is cast."""
    if attn_mask is None:
        return None
    if not isinstance(attn_mask, Tensor):
        raise TypeError(f"attention mask must be a Tensor or None, but received {type(attn_mask).__name__}.")
    target = _dtypes.to_paddle(dtype).name if not isinstance(dtype, str) else dtype
    name = _dtypes.to_paddle(attn_mask.dtype).name
    if name == target:
        return attn_mask
    if name == "bool" or "int" in name:
        return _scale(_cast(attn_mask, target), 1e9, -1e9)
    return _cast(attn_mask, target)


def _attr_list(attr: Any, n: int, api: str) -> list[Any]:
    """Paddle's per-sublayer attributes: a list of ``n`` entries, or one attribute repeated (a named
    ParamAttr gets ``_0``, ``_1``... suffixes so the names stay distinct)."""
    if isinstance(attr, list | tuple):
        if len(attr) != n:
            raise ValueError(f"{api}: a list of parameter attributes must have {n} entries, but received "
                             f"{len(attr)}.")
        return [None if a is True else a for a in attr]
    if isinstance(attr, bool):
        return [None if attr else False] * n
    out = []
    for i in range(n):
        a = ParamAttr._to_attr(attr)
        if isinstance(a, ParamAttr):
            a = copy.deepcopy(a)
            if a.name:
                a.name = f"{a.name}_{i}"
        out.append(a)
    return out


def _check_positive(api: str, **values: Any) -> None:
    """Sizes of a layer: a non-int is a TypeError; an int not above 0 is an AssertionError, as in Paddle."""
    for what, v in values.items():
        if not isinstance(v, int | np.integer) or isinstance(v, bool):
            raise TypeError(f"{api}: {what} must be a positive int, but received {type(v).__name__} {v!r}.")
        if v <= 0:
            raise AssertionError(f"{api}: {what} must be a positive int, but received {v!r}.")


def _check_num_layers(api: str, num_layers: Any) -> None:
    """``num_layers`` may be 0 (Paddle builds an empty stack: the output is the input, normalised by ``norm``)."""
    if not isinstance(num_layers, int | np.integer) or isinstance(num_layers, bool) or num_layers < 0:
        raise ValueError(f"{api}: num_layers must be an int of at least 0, but received {num_layers!r}.")


def _check_rank3(api: str, what: str, x: Any, last: int | None = None) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: {what} must be a Tensor, but received {type(x).__name__}.")
    if len(x.shape) != 3:
        raise ValueError(f"{api}: {what} must be a 3-D Tensor [batch_size, sequence_length, features], but "
                         f"received shape {list(x.shape)}.")
    if last is not None and x.shape[-1] != last:
        raise ValueError(f"{api}: the last dimension of {what} must be {last}, but received shape {list(x.shape)}.")


def _check_cache(api: str, cache: Any, kinds: tuple[type, ...], what: str) -> None:
    if cache is not None and not isinstance(cache, kinds):
        raise TypeError(f"{api}: cache must be {what} (made by gen_cache) or None, but received "
                        f"{type(cache).__name__}.")


def _check_layer_caches(api: str, cache: Any, n: int) -> None:
    if cache is not None and (not isinstance(cache, list | tuple) or len(cache) != n):
        got = f"{len(cache)} entries" if isinstance(cache, list | tuple) else type(cache).__name__
        raise ValueError(f"{api}: cache must be a list with one entry per layer ({n}, as gen_cache makes it), "
                         f"but received {got}.")


class MultiHeadAttention(Layer):
    """Scaled dot-product attention over ``num_heads`` heads with projections ``q_proj``, ``k_proj``,
    ``v_proj`` and ``out_proj`` (Linear layers, Paddle's names and default init).

    ``forward(query, key=None, value=None, attn_mask=None, cache=None)`` returns the output, or
    ``(output, weights)`` with ``need_weights=True``, and the new cache last when one is given. A bool/int
    ``attn_mask`` marks the positions to attend with True/1; a float mask is added to the scores.

    Incremental decoding as in Paddle: ``gen_cache(key)`` makes an empty ``Cache`` (keys and values of
    shape ``[batch, num_heads, 0, head_dim]``), to which each call appends the projected keys and values
    of its input (the new cache is returned); ``gen_cache(key, value, type=StaticCache)`` projects
    ``key``/``value`` once (cross-attention over an encoder's memory), and a call given it ignores its
    ``key``/``value``.
    """

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, kdim: int | None = None,
                 vdim: int | None = None, need_weights: bool = False, weight_attr: Any = None,
                 bias_attr: Any = None) -> None:
        super().__init__()
        _check_positive("MultiHeadAttention", embed_dim=embed_dim, num_heads=num_heads)
        if embed_dim % num_heads != 0:
            raise AssertionError(f"MultiHeadAttention: embed_dim must be divisible by num_heads, but received "
                             f"embed_dim={embed_dim} and num_heads={num_heads}.")
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads(self, x: Tensor) -> Tensor:
        return _transpose(_reshape(x, [0, 0, self.num_heads, self.head_dim]), [0, 2, 1, 3])

    def compute_kv(self, key: Tensor, value: Tensor) -> tuple[Tensor, Tensor]:
        """The projected keys and values, split into heads: each ``[batch, num_heads, length, head_dim]``."""
        return self._heads(self.k_proj(key)), self._heads(self.v_proj(value))

    def gen_cache(self, key: Tensor, value: Tensor | None = None, type: type = Cache) -> Any:  # noqa: A002
        """A cache for ``forward``: ``StaticCache(*compute_kv(key, value))`` for ``type=StaticCache``; an empty
        ``Cache`` (``[batch, num_heads, 0, head_dim]`` zeros of key's dtype) when ``value`` is None; else
        ``Cache(key, value)`` as given."""
        api = "MultiHeadAttention.gen_cache"
        if type is MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, key if value is None else value))
        if type is not MultiHeadAttention.Cache:
            raise TypeError(f"{api}: type must be MultiHeadAttention.Cache or MultiHeadAttention.StaticCache, but "
                            f"received {type!r}.")
        if value is None:
            shape = [key.shape[0], self.num_heads, 0, self.head_dim]
            return self.Cache(_full(shape, 0, key.dtype), _full(shape, 0, key.dtype))
        return self.Cache(key, value)

    def forward(self, query: Tensor, key: Tensor | None = None, value: Tensor | None = None,
                attn_mask: Tensor | None = None, cache: Any = None) -> Any:
        api = "MultiHeadAttention.forward"
        _check_cache(api, cache, (self.Cache, self.StaticCache), "a MultiHeadAttention.Cache or StaticCache")
        key = query if key is None else key
        value = query if value is None else value
        _check_rank3(api, "query", query, self.embed_dim)
        if not isinstance(cache, self.StaticCache):
            _check_rank3(api, "key", key, self.kdim)
            _check_rank3(api, "value", value, self.vdim)
        for what, t in (("query", query), ("key", key), ("value", value)):
            if t.dtype != self.q_proj.weight.dtype:
                raise ValueError(
                    f"{api}: {what} has dtype {_dtypes.to_paddle(t.dtype).name} but the layer's parameters are "
                    f"{_dtypes.to_paddle(self.q_proj.weight.dtype).name}; cast the inputs or the layer."
                )
        q = self._heads(self.q_proj(query))
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v
        else:
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k, v = _concat([cache.k, k], axis=2), _concat([cache.v, v], axis=2)
            cache = self.Cache(k, v)
        product = _matmul(q * (self.head_dim ** -0.5), k, transpose_y=True)
        if attn_mask is not None:
            product = product + _convert_attention_mask(attn_mask, product.dtype)
        weights = F.softmax(product)
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training, mode="upscale_in_train")
        out = _transpose(_matmul(weights, v), [0, 2, 1, 3])
        out = self.out_proj(_reshape(out, [0, 0, self.embed_dim]))
        outs = [out, weights] if self.need_weights else [out]
        if cache is not None:
            outs.append(cache)
        return outs[0] if len(outs) == 1 else tuple(outs)


def _activation(api: str, activation: str) -> Any:
    if activation not in _ACTIVATIONS or not hasattr(F, activation):
        raise ValueError(f"{api}: activation must name a function of nn.functional such as 'relu' or 'gelu', but "
                         f"received {activation!r}.")
    return getattr(F, activation)


class _SublayerStack(Layer):
    """What the encoder and decoder layers share: their configuration, ``n_attn`` attention blocks then a
    feed-forward block (``linear1``, ``dropout``, ``linear2``), each in a residual sub-layer with its LayerNorm
    (``norm1``...) and dropout (``dropout1``...)."""

    def __init__(self, api: str, n_attn: int, d_model: int, nhead: int, dim_feedforward: int, dropout: float,
                 activation: str, attn_dropout: float | None, act_dropout: float | None, normalize_before: bool,
                 weight_attr: Any, bias_attr: Any, layer_norm_eps: float) -> None:
        self._config = {"d_model": d_model, "nhead": nhead, "dim_feedforward": dim_feedforward, "dropout": dropout,
                        "activation": activation, "attn_dropout": attn_dropout, "act_dropout": act_dropout,
                        "normalize_before": normalize_before, "weight_attr": weight_attr, "bias_attr": bias_attr,
                        "layer_norm_eps": layer_norm_eps}
        super().__init__()
        _check_positive(api, d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward)
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        w = _attr_list(weight_attr, n_attn + 1, api)
        b = _attr_list(bias_attr, n_attn + 1, api)
        for name, i in zip(("self_attn", "cross_attn")[:n_attn], range(n_attn)):  # (parameters made in this order)
            setattr(self, name, MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=w[i],
                                                   bias_attr=b[i]))
        self.linear1 = Linear(d_model, dim_feedforward, w[n_attn], bias_attr=b[n_attn])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, w[n_attn], bias_attr=b[n_attn])
        for i in range(1, n_attn + 2):
            setattr(self, f"norm{i}", LayerNorm(d_model, layer_norm_eps))
        for i in range(1, n_attn + 2):
            setattr(self, f"dropout{i}", Dropout(dropout, mode="upscale_in_train"))
        self.activation = _activation(api, activation)

    def _sublayer(self, x: Tensor, i: int, block: Any, cached: bool = False) -> tuple[Tensor, Any]:
        """``x + dropout{i}(block(x))`` with ``norm{i}`` applied to the block's input (``normalize_before``) or to
        the sum; with ``cached`` the block gives (output, new cache), and the new cache is returned (else None)."""
        norm = getattr(self, f"norm{i}")
        out = block(norm(x) if self.normalize_before else x)
        out, cache = out if cached else (out, None)
        out = x + getattr(self, f"dropout{i}")(out)
        return (out if self.normalize_before else norm(out)), cache

    def _feed_forward(self, x: Tensor) -> Tensor:
        return self.linear2(self.dropout(self.activation(self.linear1(x))))


class TransformerEncoderLayer(_SublayerStack):
    """Self-attention then a feed-forward block, each with a residual connection and LayerNorm
    (applied before the block with ``normalize_before=True``, after it otherwise)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float = 0.1,
                 activation: str = "relu", attn_dropout: float | None = None, act_dropout: float | None = None,
                 normalize_before: bool = False, weight_attr: Any = None, bias_attr: Any = None,
                 layer_norm_eps: float = 1e-5) -> None:
        super().__init__("TransformerEncoderLayer", 1, d_model, nhead, dim_feedforward, dropout, activation,
                         attn_dropout, act_dropout, normalize_before, weight_attr, bias_attr, layer_norm_eps)

    def forward(self, src: Tensor, src_mask: Tensor | None = None, cache: Any = None) -> Any:
        """The output, and with ``cache`` (a ``MultiHeadAttention.Cache`` from ``gen_cache``) also the new cache."""
        _check_cache("TransformerEncoderLayer.forward", cache, (MultiHeadAttention.Cache,),
                     "a MultiHeadAttention.Cache")
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        src, cache = self._sublayer(src, 1, lambda t: self.self_attn(t, t, t, src_mask, cache), cache is not None)
        src, _ = self._sublayer(src, 2, self._feed_forward)
        return src if cache is None else (src, cache)

    def gen_cache(self, src: Tensor) -> Any:
        """An empty ``MultiHeadAttention.Cache`` for the self-attention (``[batch, nhead, 0, d_model // nhead]``)."""
        return self.self_attn.gen_cache(src, type=MultiHeadAttention.Cache)


class TransformerEncoder(Layer):
    """``num_layers`` encoder layers (the given one, then fresh copies of its configuration) and an
    optional final ``norm``."""

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int, norm: Layer | None = None) -> None:
        super().__init__()
        _check_num_layers("TransformerEncoder", num_layers)
        if not hasattr(encoder_layer, "_config"):
            raise TypeError(f"TransformerEncoder: encoder_layer must be a TransformerEncoderLayer, but received "
                            f"{type(encoder_layer).__name__}.")
        self.layers = LayerList([encoder_layer if i == 0 else type(encoder_layer)(**encoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src: Tensor, src_mask: Tensor | None = None, cache: Any = None) -> Any:
        """The output, and with ``cache`` (a list from ``gen_cache``) also the list of new caches."""
        _check_layer_caches("TransformerEncoder.forward", cache, len(self.layers))
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        out = src
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                out = layer(out, src_mask=src_mask)
            else:
                out, c = layer(out, src_mask=src_mask, cache=cache[i])
                new_caches.append(c)
        out = self.norm(out) if self.norm is not None else out
        return out if cache is None else (out, new_caches)

    def gen_cache(self, src: Tensor) -> list[Any]:
        """One ``TransformerEncoderLayer.gen_cache(src)`` per layer."""
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(_SublayerStack):
    """Self-attention, cross-attention over ``memory``, then a feed-forward block, each with a residual
    connection and LayerNorm (before or after the block, as ``normalize_before`` says)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float = 0.1,
                 activation: str = "relu", attn_dropout: float | None = None, act_dropout: float | None = None,
                 normalize_before: bool = False, weight_attr: Any = None, bias_attr: Any = None,
                 layer_norm_eps: float = 1e-5) -> None:
        super().__init__("TransformerDecoderLayer", 2, d_model, nhead, dim_feedforward, dropout, activation,
                         attn_dropout, act_dropout, normalize_before, weight_attr, bias_attr, layer_norm_eps)

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, cache: Any = None) -> Any:
        """The output, and with ``cache`` (``(incremental Cache, StaticCache)`` from ``gen_cache``) also the new
        ``(incremental_cache, static_cache)``."""
        api = "TransformerDecoderLayer.forward"
        if cache is not None and not (isinstance(cache, list | tuple) and len(cache) == 2):
            raise TypeError(f"{api}: cache must be a tuple (incremental_cache, static_cache) made by gen_cache, but "
                            f"received {type(cache).__name__}.")
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        cached = cache is not None
        inc, stat = cache if cached else (None, None)
        tgt, inc = self._sublayer(tgt, 1, lambda t: self.self_attn(t, t, t, tgt_mask, inc), cached)
        tgt, stat = self._sublayer(tgt, 2, lambda t: self.cross_attn(t, memory, memory, memory_mask, stat), cached)
        tgt, _ = self._sublayer(tgt, 3, self._feed_forward)
        return tgt if cache is None else (tgt, (inc, stat))

    def gen_cache(self, memory: Tensor) -> tuple[Any, Any]:
        """``(incremental_cache, static_cache)``: an empty ``Cache`` for the self-attention and the
        cross-attention's keys and values of ``memory`` projected once (``StaticCache``)."""
        return (self.self_attn.gen_cache(memory, type=MultiHeadAttention.Cache),
                self.cross_attn.gen_cache(memory, memory, type=MultiHeadAttention.StaticCache))


class TransformerDecoder(Layer):
    """``num_layers`` decoder layers (the given one, then fresh copies of its configuration) and an
    optional final ``norm``."""

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int, norm: Layer | None = None) -> None:
        super().__init__()
        _check_num_layers("TransformerDecoder", num_layers)
        if not hasattr(decoder_layer, "_config"):
            raise TypeError(f"TransformerDecoder: decoder_layer must be a TransformerDecoderLayer, but received "
                            f"{type(decoder_layer).__name__}.")
        self.layers = LayerList([decoder_layer if i == 0 else type(decoder_layer)(**decoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, cache: Any = None) -> Any:
        """The output, and with ``cache`` (a list from ``gen_cache``) also the list of new caches."""
        _check_layer_caches("TransformerDecoder.forward", cache, len(self.layers))
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        out = tgt
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                out = layer(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)
            else:
                out, c = layer(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=cache[i])
                new_caches.append(c)
        out = self.norm(out) if self.norm is not None else out
        return out if cache is None else (out, new_caches)

    def gen_cache(self, memory: Tensor, do_zip: bool = False) -> list[Any]:
        """One ``TransformerDecoderLayer.gen_cache(memory)`` per layer; ``do_zip=True`` zips them into
        ``[(incremental caches...), (static caches...)]``."""
        caches = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*caches)) if do_zip else caches


def _split_attr(attr: Any, api: str, what: str) -> tuple[Any, Any]:
    """Paddle's split of a Transformer-level attribute list into the encoder's (2) and decoder's (3)."""
    if not isinstance(attr, list | tuple):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return list(attr), [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], list(attr)
    raise ValueError(f"{api}: {what} must have 1, 2 or 3 entries when it is a list, but received {len(attr)}.")


class Transformer(Layer):
    """An encoder (``num_encoder_layers`` layers and a final LayerNorm) and a decoder
    (``num_decoder_layers`` layers and a final LayerNorm), or the given ``custom_encoder``/``custom_decoder``.

    ``forward(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None)`` returns the decoder's output.
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6, num_decoder_layers: int = 6,
                 dim_feedforward: int = 2048, dropout: float = 0.1, activation: str = "relu",
                 attn_dropout: float | None = None, act_dropout: float | None = None, normalize_before: bool = False,
                 weight_attr: Any = None, bias_attr: Any = None, custom_encoder: Layer | None = None,
                 custom_decoder: Layer | None = None) -> None:
        super().__init__()
        api = "Transformer"
        _check_positive(api, d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward)
        enc_w, dec_w = _split_attr(weight_attr, api, "weight_attr")
        enc_b, dec_b = _split_attr(bias_attr, api, "bias_attr")
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                                            act_dropout, normalize_before, enc_w, enc_b)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                                            act_dropout, normalize_before, dec_w, dec_b)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model = d_model
        self.nhead = nhead

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None) -> Tensor:
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length: int | Tensor) -> Tensor:
        """A ``[length, length]`` float mask: 0 on and below the diagonal, ``-inf`` above it."""
        if isinstance(length, Tensor):
            length = int(length.item())
        if not isinstance(length, int | np.integer) or isinstance(length, bool) or length < 0:
            raise ValueError(f"Transformer.generate_square_subsequent_mask: length must be a non-negative int, but "
                             f"received {length!r}.")
        return _triu(_full([int(length), int(length)], -np.inf, _dtypes.get_default_dtype()), 1)

