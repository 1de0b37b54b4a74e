"""``paddle.distributed.fleet.recompute`` import path (layer L7): gradient checkpointing (``recompute``)."""

from .recompute import recompute as recompute
from .recompute import recompute_sequential as recompute_sequential
