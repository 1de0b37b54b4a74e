"""``ObserveWrapper``: a layer with an observer (or quanter) on its input (or output)."""

from __future__ import annotations

from typing import Any

from ..nn import Layer
from .base_quanter import BaseQuanter


class ObserveWrapper(Layer):
    """``observed`` with ``observer`` applied to its input (``observe_input``) or to its output."""

    def __init__(self, observer: BaseQuanter, observed: Layer, observe_input: bool = True) -> None:
        super().__init__()
        self._observer = observer
        self._observed = observed
        self._observe_input = observe_input

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        if self._observe_input:
            return self._observed(self._observer(*inputs, **kwargs), **kwargs)
        return self._observer(self._observed(*inputs, **kwargs), **kwargs)
