"""``paddle.nn.layer.loss`` import path (re-exports)."""

from ._loss import BCELoss as BCELoss
from ._loss import BCEWithLogitsLoss as BCEWithLogitsLoss
from ._loss import CosineEmbeddingLoss as CosineEmbeddingLoss
from ._loss import CrossEntropyLoss as CrossEntropyLoss
from ._loss import GaussianNLLLoss as GaussianNLLLoss
from ._loss import HingeEmbeddingLoss as HingeEmbeddingLoss
from ._loss import HuberLoss as HuberLoss
from ._loss import KLDivLoss as KLDivLoss
from ._loss import L1Loss as L1Loss
from ._loss import MarginRankingLoss as MarginRankingLoss
from ._loss import MSELoss as MSELoss
from ._loss import MultiLabelMarginLoss as MultiLabelMarginLoss
from ._loss import MultiLabelSoftMarginLoss as MultiLabelSoftMarginLoss
from ._loss import MultiMarginLoss as MultiMarginLoss
from ._loss import NLLLoss as NLLLoss
from ._loss import PoissonNLLLoss as PoissonNLLLoss
from ._loss import SmoothL1Loss as SmoothL1Loss
from ._loss import SoftMarginLoss as SoftMarginLoss
from ._loss import TripletMarginLoss as TripletMarginLoss
from ._loss import TripletMarginWithDistanceLoss as TripletMarginWithDistanceLoss
from ._loss_seq import AdaptiveLogSoftmaxWithLoss as AdaptiveLogSoftmaxWithLoss
from ._loss_seq import CTCLoss as CTCLoss
from ._loss_seq import HSigmoidLoss as HSigmoidLoss
from ._loss_seq import RNNTLoss as RNNTLoss
