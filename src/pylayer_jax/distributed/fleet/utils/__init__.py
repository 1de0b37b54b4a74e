"""``paddle.distributed.fleet.utils`` import path (layer L7): ``recompute`` (gradient checkpointing)."""

from ..recompute.recompute import recompute as recompute
