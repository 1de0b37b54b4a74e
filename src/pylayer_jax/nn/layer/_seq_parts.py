"""``LayerNorm`` and ``Dropout`` as the sequence layers hold them (layer L5).

Transformer layers own ``norm1``/``dropout1``... sublayers with Paddle's parameter names
(``norm1.weight``, ``norm1.bias``); these two classes give them that structure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._runtime import dtypes as _dtypes
from .._functional import dropout, layer_norm
from ..initializer._base import Constant
from ._layers import Layer


class LayerNorm(Layer):
    """Normalises over the trailing ``normalized_shape`` axes; ``weight`` starts at ones, ``bias`` at zeros."""

    def __init__(self, normalized_shape: int | Sequence[int], epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
        self._normalized_shape = shape
        self._epsilon = epsilon
        self._dtype = _dtypes.get_default_dtype()
        self.weight = self.create_parameter(shape, weight_attr, self._dtype, False, Constant(1.0))
        self.bias = self.create_parameter(shape, bias_attr, self._dtype, True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        return layer_norm(input, self._normalized_shape, self.weight, self.bias, self._epsilon)

    def extra_repr(self) -> str:
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class Dropout(Layer):
    """Zeroes elements with probability ``p`` while training (scaling kept ones by ``1/(1-p)``)."""

    def __init__(self, p: float = 0.5, axis: int | Sequence[int] | None = None, mode: str = "upscale_in_train",
                 name: str | None = None) -> None:
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= 1:
            raise ValueError(f"Dropout: p must be a number in [0, 1], but received {p!r}.")
        self.p, self.axis, self.mode = p, axis, mode

    def forward(self, input: Any) -> Any:  # noqa: A002
        return dropout(input, p=self.p, axis=self.axis, training=self.training, mode=self.mode)

    def extra_repr(self) -> str:
        return f"p={self.p}, axis={self.axis}, mode={self.mode}"
