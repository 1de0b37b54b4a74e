"""``paddle.nn`` import path (layer L7): ``pylayer_jax.nn.functional``."""

from . import functional as functional
