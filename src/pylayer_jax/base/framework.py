"""``paddle.base.framework``: the parameter type and the mode queries under Paddle's older path."""

from ..nn.layer._param import Parameter as EagerParamBase
from ..nn.layer._param import Parameter as Parameter
from ..static._mode import in_dynamic_mode as in_dynamic_mode
from ..static._mode import in_pir_mode as in_pir_mode

__all__ = ["EagerParamBase", "Parameter", "in_dynamic_mode", "in_pir_mode"]
