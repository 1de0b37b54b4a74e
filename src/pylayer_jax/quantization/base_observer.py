"""``paddle.quantization.BaseObserver``: a quanter that only watches the values passing through it
(post-training quantization) and computes its thresholds from them."""

from __future__ import annotations

import abc

from .base_quanter import BaseQuanter


class BaseObserver(BaseQuanter, metaclass=abc.ABCMeta):
    """An observer: ``forward`` returns its input unchanged and records what it needs for ``cal_thresholds``."""

    def __init__(self) -> None:
        super().__init__()

    @abc.abstractmethod
    def cal_thresholds(self) -> None:
        """Compute the scales (and zero points) from what was observed."""
