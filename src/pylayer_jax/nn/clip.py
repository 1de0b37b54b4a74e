"""``paddle.nn.clip``: gradient clipping classes."""

from ._clip import ClipGradBase as ClipGradBase
from ._clip import ClipGradByGlobalNorm as ClipGradByGlobalNorm
from ._clip import ClipGradByNorm as ClipGradByNorm
from ._clip import ClipGradByValue as ClipGradByValue
