"""``paddle.incubate.nn`` Layers over the fused functions (layer L8), with Paddle's parameter names, shapes and
initialisers, so a state dict saved by Paddle loads into them (``FusedFeedForward`` keeps its parameters under the
private names Paddle gives them: ``_linear1_weight``, ...)."""

from __future__ import annotations

from typing import Any

from ..._tensor.facade import Tensor
from ...nn.initializer import Constant
from ...nn.layer._layers import Layer
from ...nn.layer._transformer import _attr_list, _convert_attention_mask
from . import _functional as IF


def _positive(api: str, exc: type[Exception] = AssertionError, **values: Any) -> None:
    """Sizes of a layer: a non-int is a TypeError; an int not above 0 raises ``exc`` (Paddle asserts)."""
    for what, v in values.items():
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{api}: {what} must be a positive int, but received {type(v).__name__} {v!r}.")
        if v <= 0:
            raise exc(f"{api}: {what} must be a positive int, but received {v!r}.")


def _one_rank(api: str, nranks: Any, ring_id: Any) -> None:
    if nranks != 1 or ring_id != -1:
        raise NotImplementedError(f"{api}: tensor model parallelism (nranks={nranks}, ring_id={ring_id}) needs "
                                  "several processes; this package runs one, so leave nranks=1 and ring_id=-1.")


class FusedLinear(Layer):
    """``y = x @ weight + bias`` with ``weight`` ``[in_features, out_features]`` (``[out_features, in_features]``
    with ``transpose_weight``) and ``bias`` ``[out_features]`` (none with ``bias_attr=False``); Paddle's default
    initialisers (Xavier uniform weight, zero bias)."""

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None, bias_attr: Any = None,
                 transpose_weight: bool = False, name: str | None = None) -> None:
        super().__init__()
        # (Paddle builds an empty weight for a size of 0; here that is refused)
        _positive("FusedLinear", ValueError, in_features=in_features, out_features=out_features)
        shape = [out_features, in_features] if transpose_weight else [in_features, out_features]
        self.weight = self.create_parameter(shape=shape, attr=weight_attr, dtype=self._dtype, is_bias=False)
        self.bias = self.create_parameter(shape=[out_features], attr=bias_attr, dtype=self._dtype, is_bias=True)
        self.transpose_weight = transpose_weight
        self.name = name

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return IF.fused_linear(input, self.weight, self.bias, self.transpose_weight)


class FusedDropoutAdd(Layer):
    """``dropout(x, p, mode) + y`` (see ``fused_dropout_add``), dropping only in training mode."""

    def __init__(self, p: float = 0.5, mode: str = "upscale_in_train", name: str | None = None) -> None:
        super().__init__()
        IF._check_rate("FusedDropoutAdd", "p", p)
        self.p = p
        self.mode = IF._check_mode("FusedDropoutAdd", mode)
        self.name = name

    def forward(self, x: Tensor, y: Tensor) -> Tensor:
        return IF.fused_dropout_add(x, y, p=self.p, training=self.training, mode=self.mode)

    def extra_repr(self) -> str:
        name_str = f", name={self.name}" if self.name else ""
        return f"p={self.p}, mode={self.mode}{name_str}"


class FusedBiasDropoutResidualLayerNorm(Layer):
    """``layer_norm(residual + dropout(x + linear_bias))`` over ``embed_dim`` with ``ln_scale``, ``ln_bias``."""

    def __init__(self, embed_dim: int, dropout_rate: float = 0.5, weight_attr: Any = None, bias_attr: Any = None,
                 epsilon: float = 1e-5, name: str | None = None) -> None:
        super().__init__()
        api = "FusedBiasDropoutResidualLayerNorm"
        _positive(api, embed_dim=embed_dim)
        self.embed_dim = embed_dim
        self.linear_bias = self.create_parameter(shape=[embed_dim], attr=bias_attr, dtype=self._dtype, is_bias=True)
        self.ln_scale = self.create_parameter(shape=[embed_dim], attr=weight_attr,
                                              default_initializer=Constant(value=1.0))
        self.ln_bias = self.create_parameter(shape=[embed_dim], attr=bias_attr, is_bias=True)
        self.dropout_rate = IF._check_rate(api, "dropout_rate", dropout_rate)
        self._epsilon = epsilon
        self.name = name

    def forward(self, x: Tensor, residual: Tensor) -> Tensor:
        return IF.fused_bias_dropout_residual_layer_norm(
            x, residual, self.linear_bias, self.ln_scale, self.ln_bias, dropout_rate=self.dropout_rate,
            ln_epsilon=self._epsilon, training=self.training, mode="upscale_in_train")

    def extra_repr(self) -> str:
        name_str = f", name={self.name}" if self.name else ""
        return (f"embed_dim={self.embed_dim}, dropout_rate={self.dropout_rate}, epsilon={self._epsilon}, "
                f"dtype={self._dtype}{name_str}")


class FusedMultiHeadAttention(Layer):
    """Self-attention over ``num_heads`` heads with one ``qkv_weight`` ``[3, num_heads, head_dim, embed_dim]`` (or
    ``[embed_dim, 3 * embed_dim]`` with ``transpose_qkv_wb``), ``qkv_bias``, ``linear_weight`` ``[embed_dim,
    embed_dim]`` and ``linear_bias``, and a layer norm before (``pre_ln_scale``/``pre_ln_bias``, with
    ``normalize_before``) or after (``ln_scale``/``ln_bias``) the residual add; see
    ``fused_multi_head_attention``. ``forward(query, key=None, value=None, attn_mask=None, cache=None)`` attends
    ``query`` to itself, as Paddle's fused kernel (``key`` and ``value`` must be None or ``query``); ``cache``, a
    ``[2, batch, num_heads, cache_len, head_dim]`` tensor of earlier keys and values, makes it return ``(out,
    new_cache)``."""

    def __init__(self, embed_dim: int, num_heads: int, dropout_rate: float = 0.5, attn_dropout_rate: float = 0.5,
                 kdim: int | None = None, vdim: int | None = None, normalize_before: bool = False,
                 need_weights: bool = False, qkv_weight_attr: Any = None, qkv_bias_attr: Any = None,
                 linear_weight_attr: Any = None, linear_bias_attr: Any = None, pre_ln_scale_attr: Any = None,
                 pre_ln_bias_attr: Any = None, ln_scale_attr: Any = None, ln_bias_attr: Any = None,
                 epsilon: float = 1e-5, nranks: int = 1, ring_id: int = -1, transpose_qkv_wb: bool = False,
                 name: str | None = None) -> None:
        super().__init__()
        api = "FusedMultiHeadAttention"
        _positive(api, embed_dim=embed_dim, num_heads=num_heads)
        _one_rank(api, nranks, ring_id)
        if embed_dim % num_heads:
            raise AssertionError(f"{api}: embed_dim must be divisible by num_heads, but received "
                                 f"embed_dim={embed_dim} and num_heads={num_heads}.")
        if need_weights:
            raise ValueError(f"{api}: need_weights must be False (the fused operator returns no attention "
                             "weights, as in Paddle).")
        self.normalize_before = normalize_before
        self._epsilon = epsilon
        self._ring_id = ring_id
        self.embed_dim, self.num_heads, self.head_dim = embed_dim, num_heads, embed_dim // num_heads
        self.kdim, self.vdim = kdim, vdim
        self.need_weights = need_weights
        self.transpose_qkv_wb = transpose_qkv_wb
        if transpose_qkv_wb:
            w_shape, b_shape = [embed_dim, 3 * embed_dim], [3 * embed_dim]
        else:
            w_shape, b_shape = [3, num_heads, self.head_dim, embed_dim], [3, num_heads, self.head_dim]
        self.qkv_weight = self.create_parameter(shape=w_shape, attr=qkv_weight_attr, dtype=self._dtype)
        self.qkv_bias = self.create_parameter(shape=b_shape, attr=qkv_bias_attr, dtype=self._dtype, is_bias=True)
        self.linear_weight = self.create_parameter(shape=[embed_dim, embed_dim], attr=linear_weight_attr,
                                                   dtype=self._dtype)
        self.linear_bias = self.create_parameter(shape=[embed_dim], attr=linear_bias_attr, dtype=self._dtype,
                                                 is_bias=True)
        scale_attr, bias_attr = (pre_ln_scale_attr, pre_ln_bias_attr) if normalize_before else (ln_scale_attr,
                                                                                                ln_bias_attr)
        scale = self.create_parameter(shape=[embed_dim], attr=scale_attr, default_initializer=Constant(value=1.0))
        bias = self.create_parameter(shape=[embed_dim], attr=bias_attr, is_bias=True)
        if normalize_before:
            self.pre_ln_scale, self.pre_ln_bias, self.ln_scale, self.ln_bias = scale, bias, None, None
        else:
            self.pre_ln_scale, self.pre_ln_bias, self.ln_scale, self.ln_bias = None, None, scale, bias
        self.dropout_rate = IF._check_rate(api, "dropout_rate", dropout_rate)
        self.attn_dropout_rate = IF._check_rate(api, "attn_dropout_rate", attn_dropout_rate)
        self.name = name

    def forward(self, query: Tensor, key: Tensor | None = None, value: Tensor | None = None,
                attn_mask: Tensor | None = None, cache: Tensor | None = None) -> Any:
        for what, t in (("key", key), ("value", value)):
            if t is not None and t is not query:
                raise NotImplementedError(
                    f"FusedMultiHeadAttention.forward: the fused operator attends query to itself, so {what} must "
                    "be None (or query itself); use paddle.nn.MultiHeadAttention for separate keys and values.")
        if attn_mask is not None:
            attn_mask = _convert_attention_mask(attn_mask, query.dtype)
        return IF.fused_multi_head_attention(
            query, self.qkv_weight, self.linear_weight, pre_layer_norm=self.normalize_before,
            pre_ln_scale=self.pre_ln_scale, pre_ln_bias=self.pre_ln_bias, ln_scale=self.ln_scale,
            ln_bias=self.ln_bias, pre_ln_epsilon=self._epsilon, qkv_bias=self.qkv_bias, linear_bias=self.linear_bias,
            cache_kv=cache, attn_mask=attn_mask, dropout_rate=self.dropout_rate,
            attn_dropout_rate=self.attn_dropout_rate, ln_epsilon=self._epsilon, training=self.training,
            ring_id=self._ring_id, num_heads=self.num_heads, transpose_qkv_wb=self.transpose_qkv_wb)

    def extra_repr(self) -> str:
        name_str = f", name={self.name}" if self.name else ""
        return (f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, dropout_rate={self.dropout_rate}, "
                f"attn_dropout_rate={self.attn_dropout_rate}, epsilon={self._epsilon}, kdim={self.kdim}, "
                f"vdim={self.vdim}, normalize_before={self.normalize_before}, need_weights={self.need_weights}, "
                f"dtype={self._dtype}{name_str}")


class FusedFeedForward(Layer):
    """The feed-forward block ``linear2(dropout(act(linear1(x))))`` with a residual add and a layer norm before
    (``_ln1_scale``/``_ln1_bias``, with ``normalize_before``) or after (``_ln2_scale``/``_ln2_bias``); see
    ``fused_feedforward``. ``act_dropout_rate`` (default: ``dropout_rate``) drops after the activation,
    ``dropout_rate`` before the residual add."""

    def __init__(self, d_model: int, dim_feedforward: int, dropout_rate: float = 0.1, epsilon: float = 1e-05,
                 activation: str = "relu", act_dropout_rate: float | None = None, normalize_before: bool = False,
                 linear1_weight_attr: Any = None, linear1_bias_attr: Any = None, linear2_weight_attr: Any = None,
                 linear2_bias_attr: Any = None, ln1_scale_attr: Any = None, ln1_bias_attr: Any = None,
                 ln2_scale_attr: Any = None, ln2_bias_attr: Any = None, nranks: int = 1, ring_id: int = -1,
                 name: str | None = None) -> None:
        super().__init__()
        api = "FusedFeedForward"
        _positive(api, d_model=d_model, dim_feedforward=dim_feedforward)
        _one_rank(api, nranks, ring_id)
        if activation not in IF._FFN_ACTS:
            raise ValueError(f"{api}: activation must be one of {list(IF._FFN_ACTS)}, but received {activation!r}.")
        self._d_model, self._dim_feedforward = d_model, dim_feedforward
        self._dropout_rate = IF._check_rate(api, "dropout_rate", dropout_rate)
        self._act_dropout_rate = self._dropout_rate if act_dropout_rate is None else IF._check_rate(
            api, "act_dropout_rate", act_dropout_rate)
        self._act_method = activation
        self._normalize_before = normalize_before
        self._epsilon = epsilon
        self._ring_id = ring_id
        self._linear1_weight = self.create_parameter(shape=[d_model, dim_feedforward], attr=linear1_weight_attr,
                                                     dtype=self._dtype)
        self._linear1_bias = self.create_parameter(shape=[dim_feedforward], attr=linear1_bias_attr,
                                                   dtype=self._dtype, is_bias=True)
        self._linear2_weight = self.create_parameter(shape=[dim_feedforward, d_model], attr=linear2_weight_attr,
                                                     dtype=self._dtype)
        self._linear2_bias = self.create_parameter(shape=[d_model], attr=linear2_bias_attr, dtype=self._dtype,
                                                   is_bias=True)
        scale_attr, bias_attr = (ln1_scale_attr, ln1_bias_attr) if normalize_before else (ln2_scale_attr,
                                                                                          ln2_bias_attr)
        scale = self.create_parameter(shape=[d_model], attr=scale_attr, default_initializer=Constant(1.0))
        bias = self.create_parameter(shape=[d_model], attr=bias_attr, is_bias=True)
        if normalize_before:
            self._ln1_scale, self._ln1_bias, self._ln2_scale, self._ln2_bias = scale, bias, None, None
        else:
            self._ln1_scale, self._ln1_bias, self._ln2_scale, self._ln2_bias = None, None, scale, bias
        self.name = name

    def forward(self, src: Tensor, cache: Any = None) -> Tensor:
        return IF.fused_feedforward(
            src, self._linear1_weight, self._linear2_weight, self._linear1_bias, self._linear2_bias,
            self._ln1_scale, self._ln1_bias, self._ln2_scale, self._ln2_bias, dropout1_rate=self._act_dropout_rate,
            dropout2_rate=self._dropout_rate, activation=self._act_method, ln1_epsilon=self._epsilon,
            ln2_epsilon=self._epsilon, pre_layer_norm=self._normalize_before, training=self.training,
            ring_id=self._ring_id)

    def extra_repr(self) -> str:
        name_str = f", name={self.name}" if self.name else ""
        return (f"d_model={self._d_model}, dim_feedforward={self._dim_feedforward}, dropout_rate="
                f"{self._dropout_rate}, epsilon={self._epsilon}, activation={self._act_method}, act_dropout_rate="
                f"{self._act_dropout_rate}, normalize_before={self._normalize_before}, dtype={self._dtype}{name_str}")


class FusedTransformerEncoderLayer(Layer):
    """A transformer encoder layer: ``fused_attn`` (a ``FusedMultiHeadAttention``) then ``ffn`` (a
    ``FusedFeedForward``), each with its residual add and layer norm (before the sub-layer with
    ``normalize_before``, after it otherwise). ``attn_dropout_rate`` and ``act_dropout_rate`` default to
    ``dropout_rate``; ``weight_attr``/``bias_attr`` may be a list of two (attention, feed-forward)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout_rate: float = 0.1,
                 activation: str = "relu", attn_dropout_rate: float | None = None,
                 act_dropout_rate: float | None = None, normalize_before: bool = False, weight_attr: Any = None,
                 bias_attr: Any = None) -> None:
        super().__init__()
        api = "FusedTransformerEncoderLayer"
        _positive(api, d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward)
        attn_dropout_rate = dropout_rate if attn_dropout_rate is None else attn_dropout_rate
        act_dropout_rate = dropout_rate if act_dropout_rate is None else act_dropout_rate
        self.normalize_before = normalize_before
        w_attrs, b_attrs = _attr_list(weight_attr, 2, api), _attr_list(bias_attr, 2, api)
        self.fused_attn = FusedMultiHeadAttention(
            d_model, nhead, dropout_rate=dropout_rate, attn_dropout_rate=attn_dropout_rate,
            normalize_before=normalize_before, qkv_weight_attr=w_attrs[0], qkv_bias_attr=b_attrs[0],
            linear_weight_attr=w_attrs[0], linear_bias_attr=b_attrs[0], pre_ln_scale_attr=w_attrs[0],
            pre_ln_bias_attr=b_attrs[0], ln_scale_attr=w_attrs[0], ln_bias_attr=b_attrs[0])
        self.ffn = FusedFeedForward(
            d_model, dim_feedforward, dropout_rate=dropout_rate, activation=activation,
            act_dropout_rate=act_dropout_rate, normalize_before=normalize_before, linear1_weight_attr=w_attrs[1],
            linear1_bias_attr=b_attrs[1], linear2_weight_attr=w_attrs[1], linear2_bias_attr=b_attrs[1])

    def forward(self, src: Tensor, src_mask: Tensor | None = None, cache: Tensor | None = None) -> Any:
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        if cache is None:
            return self.ffn(self.fused_attn(src, attn_mask=src_mask))
        attn_out, new_cache = self.fused_attn(src, attn_mask=src_mask, cache=cache)
        return self.ffn(attn_out), new_cache
