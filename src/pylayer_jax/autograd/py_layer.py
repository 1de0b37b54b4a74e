"""``paddle.autograd.py_layer``: where Paddle defines PyLayer and PyLayerContext."""

from .._py_layer import PyLayer as PyLayer
from .._py_layer import once_differentiable as once_differentiable
from .._py_layer_ctx import PyLayerContext as PyLayerContext

__all__ = ["PyLayer", "PyLayerContext", "once_differentiable"]
