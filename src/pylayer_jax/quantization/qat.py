"""``QAT``: quantization-aware training."""

from __future__ import annotations

import copy

from ..nn import Layer
from .quantize import Quantization


class QAT(Quantization):
    """Quantization-aware training: ``quantize`` replaces the configured Linear / Conv2D layers by quantized ones
    (their inputs and weights fake-quantized by the config's quanters, with straight-through gradients) and puts
    the activation quanters on the configured leaf layers; train the result, then ``convert`` it.

    >>> import pylayer_jax as paddle
    >>> from pylayer_jax.quantization import QAT, QuantConfig
    >>> from pylayer_jax.quantization.quanters import FakeQuanterWithAbsMaxObserver
    >>> q = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    >>> net = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.ReLU(), paddle.nn.Linear(3, 2))
    >>> model = QAT(QuantConfig(activation=q, weight=q)).quantize(net)
    >>> [type(m).__name__ for m in model.children()]
    ['QuantedLinear', 'ObserveWrapper', 'QuantedLinear']
    """

    def quantize(self, model: Layer, inplace: bool = False) -> Layer:
        """``model`` (in training mode) quantized for training: a copy unless ``inplace``."""
        if not isinstance(model, Layer):
            raise TypeError(f"QAT.quantize: model must be a paddle.nn.Layer, but received {type(model).__name__}.")
        if not model.training:
            raise RuntimeError("QAT.quantize: Quantization-Aware Training should work on training models, but the "
                               "model is in evaluation mode. Please set training mode by model.train().")
        m = model if inplace else copy.deepcopy(model)
        self._config._specify(m)
        self._convert_to_quant_layers(m, self._config)
        self._insert_activation_observers(m, self._config)
        return m
