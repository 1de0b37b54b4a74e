"""``paddle.static.nn``: layers for static programs."""

from ._nn import fc as fc
from ._nn import static_pylayer as static_pylayer
