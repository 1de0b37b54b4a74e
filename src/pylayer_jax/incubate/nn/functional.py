"""``paddle.incubate.nn.functional`` import path: re-exports (layer L8)."""

from ._functional import fused_bias_act as fused_bias_act
from ._functional import fused_bias_dropout_residual_layer_norm as fused_bias_dropout_residual_layer_norm
from ._functional import fused_dropout_add as fused_dropout_add
from ._functional import fused_feedforward as fused_feedforward
from ._functional import fused_layer_norm as fused_layer_norm
from ._functional import fused_linear as fused_linear
from ._functional import fused_linear_activation as fused_linear_activation
from ._functional import fused_matmul_bias as fused_matmul_bias
from ._functional import fused_multi_head_attention as fused_multi_head_attention
from ._functional import fused_rms_norm as fused_rms_norm
from ._functional import fused_rotary_position_embedding as fused_rotary_position_embedding
from ._functional import swiglu as swiglu

__all__ = [
    "fused_bias_act",
    "fused_bias_dropout_residual_layer_norm",
    "fused_dropout_add",
    "fused_feedforward",
    "fused_layer_norm",
    "fused_linear",
    "fused_linear_activation",
    "fused_matmul_bias",
    "fused_multi_head_attention",
    "fused_rms_norm",
    "fused_rotary_position_embedding",
    "swiglu",
]
