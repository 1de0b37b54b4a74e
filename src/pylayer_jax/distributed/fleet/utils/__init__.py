"""``paddle.distributed.fleet.utils`` (layer L7): ``recompute``."""

from ._recompute import recompute as recompute

__all__ = ["recompute"]
