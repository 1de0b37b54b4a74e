"""``Quantization``: what ``QAT`` and ``PTQ`` share: putting quantized layers and observers into a model, and
``convert`` (quanters into quantize / dequantize layers, for inference)."""

from __future__ import annotations

import abc
import copy

from ..nn import Layer
from ._layers import QUANTED, ConvertibleQuantedLayer, LinearQuanterDequanter, convert_layer
from .base_quanter import BaseQuanter
from .config import QuantConfig


class Quantization(metaclass=abc.ABCMeta):
    """Quantize models with a copy of ``config``."""

    def __init__(self, config: QuantConfig) -> None:
        if not isinstance(config, QuantConfig):
            raise TypeError(f"{type(self).__name__}: config must be a paddle.quantization.QuantConfig, but received "
                            f"{type(config).__name__}.")
        self._config = copy.deepcopy(config)

    @abc.abstractmethod
    def quantize(self, model: Layer, inplace: bool = False) -> Layer:
        """The model with quantized layers and observers (a copy unless ``inplace``)."""

    def convert(self, model: Layer, inplace: bool = False, remain_weight: bool = False) -> Layer:
        """The quantized ``model`` (a copy unless ``inplace``) for inference: each quanter becomes a quantize and a
        dequantize layer with its scales; the weights of the quantized layers are replaced by their quantized
        integer values (dequantized when used) unless ``remain_weight``. A quanter without zero points (such as
        FakeQuanterWithAbsMaxObserver's) converts with zero points 0 (Paddle 3.3.1's convert fails on it)."""
        m = model if inplace else copy.deepcopy(model)
        self._convert(m, remain_weight)
        return m

    def _convert(self, model: Layer, remain_weight: bool) -> None:
        replaced = {}
        for name, child in model.named_children():
            if isinstance(child, (ConvertibleQuantedLayer, *QUANTED)):
                if child.converted:
                    continue
                wq = getattr(child, "weight_quanter", "absent")
                if wq is None or (wq != "absent" and wq.scales() is None):
                    continue
                convert_layer(child, remain_weight)
            elif isinstance(child, BaseQuanter):
                replaced[name] = LinearQuanterDequanter.from_quanter(child)
            else:
                self._convert(child, remain_weight)
        for key, value in replaced.items():
            model._sub_layers[key] = value

    def _convert_to_quant_layers(self, model: Layer, config: QuantConfig) -> None:
        replaced = {}
        for name, child in model.named_children():
            if config._is_quantifiable(child) and type(child) in config.qat_layer_mappings:
                replaced[name] = config._get_qat_layer(child)
            else:
                self._convert_to_quant_layers(child, config)
        for key, value in replaced.items():
            model._sub_layers[key] = value

    def _insert_activation_observers(self, model: Layer, config: QuantConfig) -> None:
        replaced = {}
        for name, child in model.named_children():
            if config._need_observe(child):
                replaced[name] = config._get_observe_wrapper(child)
            elif type(child) not in config._qat_layer_mapping.values():
                self._insert_activation_observers(child, config)
        for key, value in replaced.items():
            model._sub_layers[key] = value

    def _details(self) -> str:
        return self._config.details()

    def __str__(self) -> str:
        return self._details()

    def __repr__(self) -> str:
        return self.__str__()
