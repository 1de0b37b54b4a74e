"""``paddle.static.nn.loss``: ``nce``."""

from .._layers import nce as nce
