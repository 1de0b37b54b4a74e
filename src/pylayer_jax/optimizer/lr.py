"""``paddle.optimizer.lr``: learning-rate schedulers with Paddle's stepping semantics."""

from ._lr_base import LRScheduler as LRScheduler
from ._lr_cyclic import CosineAnnealingDecay as CosineAnnealingDecay
from ._lr_cyclic import CosineAnnealingWarmRestarts as CosineAnnealingWarmRestarts
from ._lr_cyclic import CyclicLR as CyclicLR
from ._lr_cyclic import OneCycleLR as OneCycleLR
from ._lr_cyclic import ReduceOnPlateau as ReduceOnPlateau
from ._lr_decay import ExponentialDecay as ExponentialDecay
from ._lr_decay import InverseTimeDecay as InverseTimeDecay
from ._lr_decay import LambdaDecay as LambdaDecay
from ._lr_decay import LinearLR as LinearLR
from ._lr_decay import LinearWarmup as LinearWarmup
from ._lr_decay import MultiplicativeDecay as MultiplicativeDecay
from ._lr_decay import MultiStepDecay as MultiStepDecay
from ._lr_decay import NaturalExpDecay as NaturalExpDecay
from ._lr_decay import NoamDecay as NoamDecay
from ._lr_decay import PiecewiseDecay as PiecewiseDecay
from ._lr_decay import PolynomialDecay as PolynomialDecay
from ._lr_decay import StepDecay as StepDecay

__all__ = [
    "LRScheduler", "NoamDecay", "PiecewiseDecay", "NaturalExpDecay", "InverseTimeDecay", "PolynomialDecay",
    "LinearWarmup", "ExponentialDecay", "MultiStepDecay", "StepDecay", "LambdaDecay", "ReduceOnPlateau",
    "CosineAnnealingDecay", "MultiplicativeDecay", "OneCycleLR", "CyclicLR", "LinearLR", "CosineAnnealingWarmRestarts",
]
