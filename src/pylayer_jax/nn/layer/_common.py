"""Leaf layers: ``Linear``, ``Identity``, ``Flatten`` (layer L5)."""

from __future__ import annotations

from typing import Any

from ..._ops.table import TABLE
from ..._runtime import dtypes as _dtypes
from ..._tensor.methods import public
from .._functional import linear
from ._layers import Layer

_flatten = public(TABLE["flatten"])


class Linear(Layer):
    """``y = x @ weight + bias`` with ``weight`` of shape ``[in_features, out_features]`` (Paddle's layout).

    The weight starts XavierUniform (``limit = sqrt(6 / (in + out))``) and the bias at zeros, as in Paddle;
    ``weight_attr``/``bias_attr`` take a ParamAttr, an Initializer, a name, or ``bias_attr=False`` for no bias.

    >>> import pylayer_jax as paddle
    >>> lin = paddle.nn.Linear(3, 2, bias_attr=False)
    >>> lin.weight.shape, lin.bias
    ([3, 2], None)
    """

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None, bias_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        for v, what in ((in_features, "in_features"), (out_features, "out_features")):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"Linear: {what} must be a non-negative int, but received {v!r}.")
        self._dtype = _dtypes.get_default_dtype()
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self.weight = self.create_parameter([in_features, out_features], weight_attr, self._dtype, False)
        self.bias = self.create_parameter([out_features], bias_attr, self._dtype, True)
        self.name = name

    def forward(self, input: Any) -> Any:  # noqa: A002
        return linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return f"in_features={self.weight.shape[0]}, out_features={self.weight.shape[1]}, dtype={self._dtype}{name}"


class Identity(Layer):
    """Returns its input unchanged (extra arguments are accepted and ignored, as in Paddle)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:  # noqa: A002
        return input


class Flatten(Layer):
    """Flattens the axes ``start_axis``..``stop_axis`` into one (default: all but the batch axis)."""

    def __init__(self, start_axis: int = 1, stop_axis: int = -1) -> None:
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, input: Any) -> Any:  # noqa: A002
        return _flatten(input, start_axis=self.start_axis, stop_axis=self.stop_axis)
