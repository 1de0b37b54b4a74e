"""Containers: ``Sequential``, ``LayerList``, ``LayerDict``, ``ParameterList``, ``ParameterDict`` (layer L5).

Each registers what it holds as sublayers (or parameters) under ``"0"``, ``"1"``, ... or its
keys, so ``state_dict`` names are Paddle's (``0.weight``, ``layers.1.bias``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ._layers import Layer
from ._param import Parameter


def _need_layer(api: str, value: Any) -> None:
    if not isinstance(value, Layer):
        raise TypeError(
            f"{api}: every element must be a paddle.nn.Layer, but received {type(value).__name__}; wrap functions "
            "in a Layer subclass (or use paddle.nn.Identity / a layer from paddle.nn)."
        )


def _index(api: str, idx: Any, n: int) -> int:
    if not isinstance(idx, int) or isinstance(idx, bool):
        raise TypeError(f"{api}: an index must be an int or a slice, but received {type(idx).__name__}.")
    if not -n <= idx < n:
        raise IndexError(f"{api}: index {idx} is out of range for a container of {n} elements.")
    return idx + n if idx < 0 else idx


class Sequential(Layer):
    """Layers called in order: ``Sequential(l1, l2)``, ``Sequential(OrderedDict(...))`` or ``Sequential(("a", l1),
    ...)``. Indexing gives a layer, slicing a new Sequential of the same layers.

    >>> import pylayer_jax as paddle
    >>> net = paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.Identity(), paddle.nn.Linear(3, 1))
    >>> list(net.state_dict())
    ['0.weight', '0.bias', '2.weight', '2.bias']
    """

    def __init__(self, *layers: Any) -> None:
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], Mapping):
            for name, layer in layers[0].items():
                _need_layer("Sequential", layer)
                self.add_sublayer(name, layer)
        elif layers and all(isinstance(item, list | tuple) for item in layers):
            for item in layers:
                if len(item) != 2 or not isinstance(item[0], str):
                    raise TypeError(
                        f"Sequential: named layers are given as (name, layer) pairs, but received {item!r}."
                    )
                _need_layer("Sequential", item[1])
                self.add_sublayer(item[0], item[1])
        else:
            for i, layer in enumerate(layers):
                _need_layer("Sequential", layer)
                self.add_sublayer(str(i), layer)

    def __getitem__(self, name: Any) -> Any:
        if isinstance(name, slice):
            return type(self)(*list(self._sub_layers.values())[name])
        if isinstance(name, str):
            return self._sub_layers[name]
        return list(self._sub_layers.values())[_index("Sequential", name, len(self._sub_layers))]

    def __setitem__(self, name: Any, layer: Layer) -> None:
        _need_layer("Sequential", layer)
        if isinstance(name, int) and not isinstance(name, bool):
            name = list(self._sub_layers)[_index("Sequential", name, len(self._sub_layers))]
        self._sub_layers[str(name)] = layer

    def __delitem__(self, name: Any) -> None:
        if isinstance(name, int) and not isinstance(name, bool):
            name = list(self._sub_layers)[_index("Sequential", name, len(self._sub_layers))]
        del self._sub_layers[str(name)]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[Layer]:
        return iter(self._sub_layers.values())

    def forward(self, input: Any) -> Any:  # noqa: A002
        for layer in self._sub_layers.values():
            input = layer(input)
        return input


class LayerList(Layer):
    """A list of sublayers registered as ``"0"``, ``"1"``, ...: ``append``, ``extend``, ``insert``, indexing,
    slicing (a new LayerList), ``len``, iteration.

    >>> import pylayer_jax as paddle
    >>> layers = paddle.nn.LayerList([paddle.nn.Linear(2, 2) for _ in range(3)])
    >>> len(layers), list(layers.state_dict())[-1]
    (3, '2.bias')
    """

    def __init__(self, sublayers: Iterable[Layer] | None = None) -> None:
        super().__init__()
        if sublayers is not None:
            for i, layer in enumerate(sublayers):
                _need_layer("LayerList", layer)
                self.add_sublayer(str(i), layer)

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return type(self)(list(self._sub_layers.values())[idx])
        return self._sub_layers[str(_index("LayerList", idx, len(self)))]

    def __setitem__(self, idx: int, sublayer: Layer) -> None:
        _need_layer("LayerList", sublayer)
        self._sub_layers[str(_index("LayerList", idx, len(self)))] = sublayer

    def __delitem__(self, idx: Any) -> None:
        layers = list(self._sub_layers.values())
        if isinstance(idx, slice):
            del layers[idx]
        else:
            del layers[_index("LayerList", idx, len(layers))]
        self._sub_layers.clear()
        for i, layer in enumerate(layers):
            self._sub_layers[str(i)] = layer

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[Layer]:
        return iter(self._sub_layers.values())

    def append(self, sublayer: Layer) -> LayerList:
        """Add ``sublayer`` at the end."""
        _need_layer("LayerList.append", sublayer)
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index: int, sublayer: Layer) -> None:
        """Insert ``sublayer`` before position ``index``."""
        _need_layer("LayerList.insert", sublayer)
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"LayerList.insert: index must be an int, but received {type(index).__name__}.")
        layers = list(self._sub_layers.values())
        layers.insert(index, sublayer)
        self._sub_layers.clear()
        for i, layer in enumerate(layers):
            self._sub_layers[str(i)] = layer

    def extend(self, sublayers: Iterable[Layer]) -> LayerList:
        """Append every layer of ``sublayers``."""
        sublayers = list(sublayers)
        for layer in sublayers:
            _need_layer("LayerList.extend", layer)
        for layer in sublayers:
            self.add_sublayer(str(len(self)), layer)
        return self


ModuleList = LayerList


class LayerDict(Layer):
    """An ordered dict of sublayers: ``ld[key]``, ``update``, ``pop``, ``keys``/``values``/``items``."""

    def __init__(self, sublayers: Any = None) -> None:
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key: str) -> Layer:
        return self._sub_layers[key]

    def __setitem__(self, key: str, sublayer: Layer) -> None:
        _need_layer("LayerDict", sublayer)
        self.add_sublayer(key, sublayer)

    def __delitem__(self, key: str) -> None:
        del self._sub_layers[key]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[str]:
        return iter(self._sub_layers)

    def __contains__(self, key: str) -> bool:
        return key in self._sub_layers

    def clear(self) -> None:
        """Remove every sublayer."""
        self._sub_layers.clear()

    def pop(self, key: str) -> Layer:
        """Remove ``key`` and return its layer."""
        return self._sub_layers.pop(key)

    def keys(self) -> Any:
        return self._sub_layers.keys()

    def values(self) -> Any:
        return self._sub_layers.values()

    def items(self) -> Any:
        return self._sub_layers.items()

    def update(self, sublayers: Any) -> None:
        """Add ``(key, layer)`` pairs from a mapping or an iterable of pairs."""
        items = sublayers.items() if isinstance(sublayers, Mapping) else sublayers
        if not isinstance(items, Iterable):
            raise TypeError(
                f"LayerDict.update: expected a mapping or an iterable of (key, layer) pairs, but received "
                f"{type(sublayers).__name__}."
            )
        for i, kv in enumerate(items):
            if not isinstance(kv, list | tuple) or len(kv) != 2:
                raise ValueError(f"LayerDict.update: element {i} must be a (key, layer) pair, but received {kv!r}.")
            _need_layer("LayerDict.update", kv[1])
            self.add_sublayer(kv[0], kv[1])


ModuleDict = LayerDict


def _need_param(api: str, value: Any) -> None:
    if not isinstance(value, Parameter):
        raise TypeError(
            f"{api}: every element must be a Parameter (from paddle.create_parameter or Layer.create_parameter), "
            f"but received {type(value).__name__}."
        )


class ParameterList(Layer):
    """A list of Parameters registered as ``"0"``, ``"1"``, ...: ``append``, indexing, ``len``, iteration."""

    def __init__(self, parameters: Iterable[Parameter] | None = None) -> None:
        super().__init__()
        if parameters is not None:
            for i, p in enumerate(parameters):
                _need_param("ParameterList", p)
                self.add_parameter(str(i), p)

    def __getitem__(self, idx: int) -> Parameter:
        return self._parameters[str(_index("ParameterList", idx, len(self)))]

    def __setitem__(self, idx: int, param: Parameter) -> None:
        _need_param("ParameterList", param)
        self._parameters[str(_index("ParameterList", idx, len(self)))] = param

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self._parameters.values())

    def append(self, parameter: Parameter) -> ParameterList:
        """Add ``parameter`` at the end."""
        _need_param("ParameterList.append", parameter)
        self.add_parameter(str(len(self)), parameter)
        return self


class ParameterDict(Layer):
    """An ordered dict of Parameters: ``pd[key]``, ``update``, ``keys``/``values``/``items``."""

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Parameter:
        return self._parameters[key]

    def __setitem__(self, key: str, param: Parameter) -> None:
        _need_param("ParameterDict", param)
        self.add_parameter(key, param)

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[str]:
        return iter(self._parameters)

    def __contains__(self, key: str) -> bool:
        return key in self._parameters

    def keys(self) -> Any:
        return self._parameters.keys()

    def values(self) -> Any:
        return self._parameters.values()

    def items(self) -> Any:
        return self._parameters.items()

    def update(self, parameters: Any) -> None:
        """Add ``(key, parameter)`` pairs from a mapping or an iterable of pairs."""
        items = parameters.items() if isinstance(parameters, Mapping) else parameters
        for i, kv in enumerate(items):
            if not isinstance(kv, list | tuple) or len(kv) != 2:
                raise ValueError(
                    f"ParameterDict.update: element {i} must be a (key, parameter) pair, but received {kv!r}."
                )
            _need_param("ParameterDict.update", kv[1])
            self.add_parameter(kv[0], kv[1])


