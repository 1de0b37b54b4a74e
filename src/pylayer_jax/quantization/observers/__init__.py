"""``paddle.quantization.observers``: the observers for post-training quantization."""

from .abs_max import AbsmaxObserver as AbsmaxObserver
from .abs_max import AbsmaxObserverLayer as AbsmaxObserverLayer
from .groupwise import GroupWiseWeightObserver as GroupWiseWeightObserver
from .groupwise import GroupWiseWeightObserverLayer as GroupWiseWeightObserverLayer

__all__ = ["AbsmaxObserver", "GroupWiseWeightObserver"]
