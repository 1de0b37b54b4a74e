"""``paddle.autograd.py_layer``: where Paddle defines PyLayer and PyLayerContext."""

from .._pylayer.ctx import PyLayerContext as PyLayerContext
from .._pylayer.eager import PyLayer as PyLayer
from .._pylayer.eager import once_differentiable as once_differentiable

__all__ = ["PyLayer", "PyLayerContext", "once_differentiable"]
