"""Sequence and structured-output loss layers (``paddle.nn.CTCLoss``, ``RNNTLoss``, ``HSigmoidLoss``,
``AdaptiveLogSoftmaxWithLoss``; layer L5): each keeps its options (and parameters) and calls the
``nn.functional`` loss in ``forward``."""

from __future__ import annotations

from typing import Any

from .. import _functional as F
from ._layers import Layer
from ._loss import _reduction


class CTCLoss(Layer):
    """Connectionist Temporal Classification loss of padded ``[T, B, C]`` logits (see ``F.ctc_loss``)."""

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__()
        self.blank, self.reduction = blank, _reduction("CTCLoss", reduction)
        self.zero_infinity = zero_infinity

    def forward(self, log_probs: Any, labels: Any, input_lengths: Any, label_lengths: Any,
                norm_by_times: bool = False) -> Any:
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, self.blank, self.reduction,
                          norm_by_times=norm_by_times, zero_infinity=self.zero_infinity)
