"""``paddle.base.backward``: where Paddle's older code imports ``append_backward`` and ``gradients`` from."""

from ..static._backward import append_backward as append_backward
from ..static._backward import gradients as gradients

__all__ = ["append_backward", "gradients"]
