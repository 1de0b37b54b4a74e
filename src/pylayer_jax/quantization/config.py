"""``QuantConfig``: which quanter (factory) quantizes the activations and the weights of which layers, globally,
by layer type, by layer name or for given layers."""

from __future__ import annotations

from typing import Any

from .. import nn
from ..nn import Layer
from ._layers import QuantedConv2D, QuantedLinear
from .factory import QuanterFactory
from .wrapper import ObserveWrapper

DEFAULT_QAT_LAYER_MAPPINGS: dict[type, type] = {nn.quant.Stub: nn.quant.QuanterStub, nn.Linear: QuantedLinear,
                                                 nn.Conv2D: QuantedConv2D}
DEFAULT_LEAVES = [nn.ReLU, nn.AvgPool2D]


def _factory(api: str, name: str, f: Any) -> None:
    if f is not None and not isinstance(f, QuanterFactory):
        raise TypeError(f"{api}: {name} must be a quanter factory (such as FakeQuanterWithAbsMaxObserver(...) or "
                        f"AbsmaxObserver(...)) or None, but received {type(f).__name__}.")


class SingleLayerConfig:
    """The activation and weight quanter factories of one layer."""

    def __init__(self, activation: QuanterFactory | None, weight: QuanterFactory | None) -> None:
        self._activation = activation
        self._weight = weight

    @property
    def activation(self) -> QuanterFactory | None:
        return self._activation

    @property
    def weight(self) -> QuanterFactory | None:
        return self._weight

    def __str__(self) -> str:
        return f"activation: {self._activation}\nweight: {self._weight}"


class QuantConfig:
    """The quantization of a model: the global activation / weight quanter factories (both None: no global
    configuration), refined by ``add_type_config``, ``add_name_config`` and ``add_layer_config`` (a layer's name
    beats its type, which beats its parent's configuration).

    >>> import pylayer_jax as paddle
    >>> from pylayer_jax.quantization import QuantConfig
    >>> from pylayer_jax.quantization.quanters import FakeQuanterWithAbsMaxObserver
    >>> q = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    >>> config = QuantConfig(activation=None, weight=None)
    >>> config.add_type_config(paddle.nn.Linear, activation=q, weight=q)
    """

    def __init__(self, activation: QuanterFactory | None, weight: QuanterFactory | None) -> None:
        _factory("QuantConfig", "activation", activation)
        _factory("QuantConfig", "weight", weight)
        self._global_config = None if activation is None and weight is None else SingleLayerConfig(activation, weight)
        self._layer2config: dict[Layer, SingleLayerConfig] = {}
        self._prefix2config: dict[str, SingleLayerConfig] = {}
        self._type2config: dict[type, SingleLayerConfig] = {}
        self._model: Layer | None = None
        self._qat_layer_mapping = dict(DEFAULT_QAT_LAYER_MAPPINGS)
        self._customized_qat_layer_mapping: dict[type, type] = {}
        self._customized_leaves: list[type] = []

    def add_layer_config(self, layer: Layer | list[Layer], activation: QuanterFactory | None = None,
                         weight: QuanterFactory | None = None) -> None:
        """Quantize ``layer`` (or each of a list) with these factories."""
        if isinstance(layer, list):
            for element in layer:
                self.add_layer_config(element, activation=activation, weight=weight)
            return
        if not isinstance(layer, Layer):
            raise TypeError(f"QuantConfig.add_layer_config: layer must be a paddle.nn.Layer or a list of them, but "
                            f"received {type(layer).__name__}.")
        self.add_name_config(layer.full_name(), activation=activation, weight=weight)

    def add_name_config(self, layer_name: str | list[str], activation: QuanterFactory | None = None,
                        weight: QuanterFactory | None = None) -> None:
        """Quantize the layer whose ``full_name()`` is ``layer_name`` (or each of a list) with these factories."""
        _factory("QuantConfig.add_name_config", "activation", activation)
        _factory("QuantConfig.add_name_config", "weight", weight)
        if isinstance(layer_name, str):
            self._prefix2config[layer_name] = SingleLayerConfig(activation, weight)
        elif isinstance(layer_name, list):
            for element in layer_name:
                self.add_name_config(element, activation=activation, weight=weight)
        else:
            raise TypeError(f"QuantConfig.add_name_config: layer_name must be a str or a list of them, but received "
                            f"{type(layer_name).__name__}.")

    def add_type_config(self, layer_type: type | list[type], activation: QuanterFactory | None = None,
                        weight: QuanterFactory | None = None) -> None:
        """Quantize every layer of ``layer_type`` (or of each of a list) with these factories."""
        _factory("QuantConfig.add_type_config", "activation", activation)
        _factory("QuantConfig.add_type_config", "weight", weight)
        if isinstance(layer_type, type) and issubclass(layer_type, Layer):
            self._type2config[layer_type] = SingleLayerConfig(activation, weight)
        elif isinstance(layer_type, list):
            for element in layer_type:
                self.add_type_config(element, activation=activation, weight=weight)
        else:
            raise TypeError(f"QuantConfig.add_type_config: layer_type must be a subclass of paddle.nn.Layer or a "
                            f"list of them, but received {layer_type!r}.")

    def add_qat_layer_mapping(self, source: type, target: type) -> None:
        """Replace layers of type ``source`` by ``target(layer, layer_config)`` when quantizing."""
        for what, t in (("source", source), ("target", target)):
            if not (isinstance(t, type) and issubclass(t, Layer)):
                raise TypeError(f"QuantConfig.add_qat_layer_mapping: the {what} must be a subclass of "
                                f"paddle.nn.Layer, but received {t!r}.")
        self._qat_layer_mapping[source] = target
        self._customized_qat_layer_mapping[source] = target

    def add_customized_leaf(self, layer_type: type) -> None:
        """Treat layers of ``layer_type`` as leaves: observed as a whole, not entered."""
        self._customized_leaves.append(layer_type)

    @property
    def customized_leaves(self) -> list[type]:
        return self._customized_leaves

    @property
    def qat_layer_mappings(self) -> dict[type, type]:
        return self._qat_layer_mapping

    @property
    def default_qat_layer_mapping(self) -> dict[type, type]:
        return DEFAULT_QAT_LAYER_MAPPINGS

    @property
    def global_config(self) -> SingleLayerConfig | None:
        return self._global_config

    # ---- used by QAT / PTQ
    def _need_observe(self, layer: Layer) -> bool:
        return self._is_leaf(layer) and self._has_observer_config(layer)

    def _get_qat_layer(self, layer: Layer) -> Layer:
        target = self._customized_qat_layer_mapping.get(type(layer), self.qat_layer_mappings.get(type(layer)))
        return target(layer, self._get_config_by_layer(layer))

    def _has_observer_config(self, layer: Layer) -> bool:
        config = self._get_config_by_layer(layer)
        return config is not None and config.activation is not None

    def _is_leaf(self, layer: Layer) -> bool:
        return (type(layer) in DEFAULT_LEAVES or not layer._sub_layers
                or type(layer) in self._customized_leaves)

    def _get_observer(self, layer: Layer) -> Any:
        config = self._get_config_by_layer(layer)
        factory = None if config is None else config.activation
        return None if factory is None else factory._instance(layer)

    def _get_observe_wrapper(self, layer: Layer) -> ObserveWrapper:
        return ObserveWrapper(self._get_observer(layer), layer)

    def _get_config_by_layer(self, layer: Layer) -> SingleLayerConfig | None:
        return self._layer2config.get(layer)

    def _is_quantifiable(self, layer: Layer) -> bool:
        return layer in self._layer2config

    def _specify(self, model: Layer) -> None:
        self._model = model
        self._specify_helper(model)

    def _specify_helper(self, model: Layer) -> None:
        for child in model.children():
            config = self._layer2config.get(model, self.global_config)
            config = self._type2config.get(type(child), config)
            config = self._prefix2config.get(child.full_name(), config)
            if config is not None:
                self._layer2config[child] = config
            self._specify_helper(child)

    def details(self) -> str:
        """The model's layers with their configurations (this config's summary before a model is quantized)."""
        return str(self) if self._model is None else self._details_helper(self._model)

    def _details_helper(self, layer: Layer) -> str:
        lines = []
        for name, sub in layer.named_children():
            text = self._details_helper(sub)
            parts = text.split("\n")
            text = parts[0] + ("\n" + "\n".join("  " + p for p in parts[1:]) if len(parts) > 1 else "")
            if sub in self._layer2config:
                lines.append(f"({name}): {text}, {self._layer2config[sub]}")
        out = layer.__class__.__name__ + "("
        if lines:
            out += "\n  " + "\n  ".join(lines) + "\n"
        return out + ")"

    def __str__(self) -> str:
        out = f"Global config:\n{self._global_config}\n"
        if self._type2config:
            out += f"Layer type config:\n{self._type2config}\n"
        if self._prefix2config:
            out += f"Layer prefix config: \n{self._prefix2config}\n"
        return out
