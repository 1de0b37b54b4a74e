"""Padding layers: ``Pad1D/2D/3D`` and the fixed-mode ``Zero``/``Constant``/``Reflection``/``Replication``/
``Circular`` classes with their lowercase-``d`` aliases, all over ``nn.functional.pad`` (layer L5)."""

from __future__ import annotations

from typing import Any

from ..._ops.checks import AssertionValueError
from .. import _functional as F
from ._layers import Layer

_MODES = ("constant", "reflect", "replicate", "circular")


class _PadND(Layer):
    """Pads the last ``n`` spatial axes; ``padding`` is an int (every side) or ``2 * n`` ints, last axis first
    (``[left, right, top, bottom, front, back]``)."""

    _n = 1

    def __init__(self, padding: Any, mode: str = "constant", value: float = 0.0, data_format: str = "NCL",
                 name: str | None = None) -> None:
        super().__init__()
        layer = type(self).__name__
        if mode not in _MODES:
            raise AssertionValueError(
                f"{layer}: mode must be one of 'constant', 'reflect', 'replicate', 'circular', but received {mode!r}."
            )
        if isinstance(padding, bool) or not isinstance(padding, int | list | tuple) and not hasattr(padding, "shape"):
            raise TypeError(f"{layer}: padding must be an int or a list of ints, but received {type(padding).__name__}.")
        if isinstance(padding, int):
            if padding < 0 and mode != "constant":
                raise ValueError(f"{layer}: padding must be non-negative, but received {padding}.")
            padding = [padding] * (2 * self._n)
        elif isinstance(padding, list | tuple) and len(padding) != 2 * self._n:
            raise ValueError(
                f"{layer}: padding must have {2 * self._n} entries (two per padded axis), but received {list(padding)}."
            )
        self.padding, self._mode, self.value = padding, mode, value
        self._data_format, self._name = data_format, name

    def forward(self, x: Any) -> Any:
        return F.pad(x, pad=self.padding, mode=self._mode, value=self.value, data_format=self._data_format)

    def extra_repr(self) -> str:
        name = f", name={self._name}" if self._name else ""
        return f"padding={self.padding}, mode={self._mode}, value={self.value}, data_format={self._data_format}{name}"


class Pad1D(_PadND):
    """Pads the last axis of ``[N, C, L]`` input (``padding``: int or ``[left, right]``).

    >>> import pylayer_jax as paddle
    >>> paddle.nn.Pad1D([1, 2], value=9.0)(paddle.zeros([1, 1, 1])).tolist()
    [[[9.0, 0.0, 9.0, 9.0]]]
    """

    _n = 1

    def __init__(self, padding: Any, mode: str = "constant", value: float = 0.0, data_format: str = "NCL",
                 name: str | None = None) -> None:
        super().__init__(padding, mode, value, data_format, name)


class Pad2D(_PadND):
    """Pads the last two axes of ``[N, C, H, W]`` input (``padding``: int or ``[left, right, top, bottom]``)."""

    _n = 2

    def __init__(self, padding: Any, mode: str = "constant", value: float = 0.0, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__(padding, mode, value, data_format, name)


class Pad3D(_PadND):
    """Pads the last three axes of ``[N, C, D, H, W]`` input (int or ``[left, right, top, bottom, front, back]``)."""

    _n = 3

    def __init__(self, padding: Any, mode: str = "constant", value: float = 0.0, data_format: str = "NCDHW",
                 name: str | None = None) -> None:
        super().__init__(padding, mode, value, data_format, name)


def _fixed(base: type, mode: str, fmt: str, name: str, what: str) -> type:
    """A pad class of ``base`` with the mode fixed (Paddle's ``ReflectionPad2D`` and friends)."""

    def __init__(self: Any, padding: Any, data_format: str = fmt, name: str | None = None) -> None:
        base.__init__(self, padding, mode, 0.0, data_format, name)

    return type(name, (base,), {"__init__": __init__, "__doc__": f"{base.__name__} with {what}.",
                                "__module__": __name__})


def _constant(base: type, fmt: str, name: str) -> type:
    def __init__(self: Any, padding: Any, value: float, data_format: str = fmt, name: str | None = None) -> None:
        base.__init__(self, padding, "constant", value, data_format, name)

    return type(name, (base,), {"__init__": __init__, "__doc__": f"{base.__name__} with the constant ``value``.",
                                "__module__": __name__})


ZeroPad1D = _fixed(Pad1D, "constant", "NCL", "ZeroPad1D", "zeros")
ZeroPad2D = _fixed(Pad2D, "constant", "NCHW", "ZeroPad2D", "zeros")
ZeroPad3D = _fixed(Pad3D, "constant", "NCDHW", "ZeroPad3D", "zeros")
ReflectionPad1D = _fixed(Pad1D, "reflect", "NCL", "ReflectionPad1D", "reflection of the input at its border")
ReflectionPad2D = _fixed(Pad2D, "reflect", "NCHW", "ReflectionPad2D", "reflection of the input at its border")
ReflectionPad3D = _fixed(Pad3D, "reflect", "NCDHW", "ReflectionPad3D", "reflection of the input at its border")
ReplicationPad1D = _fixed(Pad1D, "replicate", "NCL", "ReplicationPad1D", "copies of the border values")
ReplicationPad2D = _fixed(Pad2D, "replicate", "NCHW", "ReplicationPad2D", "copies of the border values")
ReplicationPad3D = _fixed(Pad3D, "replicate", "NCDHW", "ReplicationPad3D", "copies of the border values")
CircularPad1D = _fixed(Pad1D, "circular", "NCL", "CircularPad1D", "wrap-around (circular) padding")
CircularPad2D = _fixed(Pad2D, "circular", "NCHW", "CircularPad2D", "wrap-around (circular) padding")
CircularPad3D = _fixed(Pad3D, "circular", "NCDHW", "CircularPad3D", "wrap-around (circular) padding")
ConstantPad1D = _constant(Pad1D, "NCL", "ConstantPad1D")
ConstantPad2D = _constant(Pad2D, "NCHW", "ConstantPad2D")
ConstantPad3D = _constant(Pad3D, "NCDHW", "ConstantPad3D")
ZeroPad1d, ZeroPad2d, ZeroPad3d = ZeroPad1D, ZeroPad2D, ZeroPad3D
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = ReflectionPad1D, ReflectionPad2D, ReflectionPad3D
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = ReplicationPad1D, ReplicationPad2D, ReplicationPad3D
CircularPad1d, CircularPad2d, CircularPad3d = CircularPad1D, CircularPad2D, CircularPad3D
ConstantPad1d, ConstantPad2d, ConstantPad3d = ConstantPad1D, ConstantPad2D, ConstantPad3D
