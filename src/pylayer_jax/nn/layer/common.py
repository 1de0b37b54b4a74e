"""``paddle.nn.layer.common`` import path (re-exports)."""

from ._common import Flatten as Flatten
from ._common import Identity as Identity
from ._common import Linear as Linear
