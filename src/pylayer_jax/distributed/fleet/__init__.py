"""``paddle.distributed.fleet`` import path (layer L7): the gradient checkpointing of ``fleet.utils.recompute``
and ``fleet.recompute`` (one process: no fleet of workers is set up)."""

from . import recompute as recompute
from . import utils as utils
