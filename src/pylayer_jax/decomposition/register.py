"""``paddle.decomposition.register``: the registry of decomposition rules (op name -> a function writing the op
with primitive ones)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any


class Registry:
    """Rules by op name, each registered once."""

    __slots__ = ["name", "rules"]

    def __init__(self, name: str) -> None:
        self.name = name
        self.rules: dict[str, Callable[..., Any]] = {}

    def register(self, op_type: str, rule: Callable[..., Any]) -> None:
        if not isinstance(op_type, str):
            raise TypeError(f"Registry.register: op_type must be a str, but received {type(op_type).__name__}.")
        if not inspect.isfunction(rule):
            raise TypeError(f"Registry.register: the rule must be a function, but received {type(rule).__name__}.")
        if op_type in self.rules:
            raise ValueError(f'Registry.register: name "{op_type}" should not be registered before; it already has '
                             "a rule.")
        self.rules[op_type] = rule

    def lookup(self, op_type: str) -> Callable[..., Any] | None:
        return self.rules.get(op_type)


_decomposition_ops = Registry("decomposition")


def register_decomp(op_type: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A decorator registering the function as the decomposition rule of ``op_type``."""
    if not isinstance(op_type, str):
        raise TypeError(f"op_type must be str, but got {type(op_type)}.")

    def wrapper(f: Callable[..., Any]) -> Callable[..., Any]:
        _decomposition_ops.register(op_type, f)
        return f

    return wrapper


def get_decomp_rule(op_type: str) -> Callable[..., Any] | None:
    """The rule registered for ``op_type``, None when there is none."""
    return _decomposition_ops.lookup(op_type)
