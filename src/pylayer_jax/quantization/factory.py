"""``paddle.quantization.quanter``: the decorator making a factory class for a quanter Layer class. A config holds
factories (with the quanter's arguments); each layer to quantize gets its own quanter made from one."""

from __future__ import annotations

import abc
import inspect
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

from ..nn import Layer
from .base_quanter import BaseQuanter


class ClassWithArguments(metaclass=abc.ABCMeta):
    """Arguments kept for making instances of a class later."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._args = args
        self._kwargs = kwargs

    @property
    def args(self) -> tuple:
        return self._args

    @property
    def kwargs(self) -> dict[str, Any]:
        return self._kwargs

    @abc.abstractmethod
    def _get_class(self) -> type:
        """The class the arguments are for."""

    def __str__(self) -> str:
        args_str = ",".join([str(a) for a in self.args] + [f"{k}={v}" for k, v in self.kwargs.items()])
        return f"{self.__class__.__name__}({args_str})"

    def __repr__(self) -> str:
        return self.__str__()


class QuanterFactory(ClassWithArguments):
    """The arguments of a quanter; ``_instance(layer)`` makes the quanter of one layer."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.partial_class: Any = None

    def _instance(self, layer: Layer) -> BaseQuanter:
        if self.partial_class is None:
            self.partial_class = partial(self._get_class(), *self.args, **self.kwargs)
        return self.partial_class(layer)


ObserverFactory = QuanterFactory


def quanter(class_name: str) -> Callable[[type[BaseQuanter]], type[BaseQuanter]]:
    """Decorate a quanter Layer class (its ``__init__`` taking the layer to quantize first) to add, to the module
    that defines it, a factory class named ``class_name`` taking the other arguments of ``__init__``."""
    if not isinstance(class_name, str) or not class_name.isidentifier():
        raise TypeError(f"paddle.quantization.quanter: class_name must be a Python identifier, but received "
                        f"{class_name!r}.")

    def wrapper(target_class: type[BaseQuanter]) -> type[BaseQuanter]:
        params = list(inspect.signature(target_class.__init__).parameters.values())[2:]  # (self, layer, ...)
        sig = inspect.Signature([inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD), *params])

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807
            bound = sig.bind(self, *args, **kwargs)
            bound.apply_defaults()
            QuanterFactory.__init__(self, **{k: v for k, v in bound.arguments.items() if k != "self"})

        __init__.__signature__ = sig  # type: ignore[attr-defined]
        new_class = type(class_name, (QuanterFactory,), {"__init__": __init__, "_get_class": lambda self: target_class,
                                                         "__module__": target_class.__module__})
        mod = sys.modules[target_class.__module__]
        setattr(mod, class_name, new_class)
        if "__all__" in mod.__dict__ and class_name not in mod.__all__:
            mod.__all__.append(class_name)
        return target_class

    return wrapper
