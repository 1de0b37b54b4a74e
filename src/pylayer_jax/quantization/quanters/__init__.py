"""``paddle.quantization.quanters``: the quanters for quantization-aware training."""

from .abs_max import FakeQuanterWithAbsMaxObserver as FakeQuanterWithAbsMaxObserver
from .abs_max import FakeQuanterWithAbsMaxObserverLayer as FakeQuanterWithAbsMaxObserverLayer

__all__ = ["FakeQuanterWithAbsMaxObserver"]
