"""``paddle.static.quantization``: Paddle's quantization passes rewrite its C++ program graph (fake-quant ops,
int8 OneDNN kernels, post-training calibration); none of that exists here, so every name raises
``NotImplementedError`` when used."""

from __future__ import annotations

from typing import Any

_NAMES = (
    "AddQuantDequantForInferencePass", "AddQuantDequantPass", "AddQuantDequantPassV2", "ConvertToInt8Pass",
    "OutScaleForInferencePass", "OutScaleForTrainingPass", "PostTrainingQuantization",
    "PostTrainingQuantizationProgram", "Quant2Int8MkldnnPass", "Quant2Int8OnednnPass", "QuantInt8MkldnnPass",
    "QuantInt8OnednnPass", "QuantWeightPass", "QuantizationFreezePass", "QuantizationTransformPass",
    "QuantizationTransformPassV2", "ReplaceFakeQuantDequantPass", "TransformForMobilePass", "WeightQuantization",
    "quant_aware", "convert",
)


def _unavailable(name: str) -> Any:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f"paddle.static.quantization.{name}: static-graph quantization rewrites Paddle's C++ program graph "
            "(fake-quantize operators, int8 kernels), which does not exist here; train in float32, or quantize an "
            "exported model with another tool."
        )

    refuse.__name__ = refuse.__qualname__ = name
    refuse.__doc__ = f"Paddle's ``{name}``: not available (no static-graph quantization here)."
    return refuse


for _n in _NAMES:
    globals()[_n] = _unavailable(_n)

__all__ = list(_NAMES)
