"""``PTQ``: post-training quantization."""

from __future__ import annotations

import copy

from ..nn import Layer
from .quantize import Quantization


class PTQ(Quantization):
    """Post-training quantization: ``quantize`` puts the config's observers on the inputs and weights of the
    configured layers of an evaluation-mode model; run it on calibration data, then ``convert`` it (the observed
    absolute maxima become the scales).

    >>> import pylayer_jax as paddle
    >>> from pylayer_jax.quantization import PTQ, QuantConfig
    >>> from pylayer_jax.quantization.observers import AbsmaxObserver
    >>> ob = AbsmaxObserver(quant_bits=8)
    >>> net = paddle.nn.Sequential(paddle.nn.Linear(4, 2)).eval()
    >>> ptq = PTQ(QuantConfig(activation=ob, weight=ob))
    >>> model = ptq.quantize(net)
    >>> _ = model(paddle.ones([3, 4]))
    >>> type(ptq.convert(model)[0].activation_quanter).__name__
    'LinearQuanterDequanter'
    """

    def quantize(self, model: Layer, inplace: bool = False) -> Layer:
        """``model`` (in evaluation mode) with observers: a copy (in evaluation mode) unless ``inplace``."""
        if not isinstance(model, Layer):
            raise TypeError(f"PTQ.quantize: model must be a paddle.nn.Layer, but received {type(model).__name__}.")
        m = model
        if not inplace:
            m = copy.deepcopy(model)
            m.eval()
        if model.training:
            raise RuntimeError("PTQ.quantize: Post-Training Quantization should not work on training models, but the "
                               "model is in training mode. Please set evaluation mode by model.eval().")
        self._config._specify(m)
        self._convert_to_quant_layers(m, self._config)
        self._insert_activation_observers(m, self._config)
        return m
