"""``paddle.nn`` import path (layer L7): ``pylayer_jax.nn.functional``."""

# gradient clipping
from . import clip as clip
from . import functional as functional
from .clip import ClipGradByGlobalNorm as ClipGradByGlobalNorm
from .clip import ClipGradByNorm as ClipGradByNorm
from .clip import ClipGradByValue as ClipGradByValue
