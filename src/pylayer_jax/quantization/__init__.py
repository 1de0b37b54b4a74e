"""``paddle.quantization``: quantization-aware training (``QAT``) and post-training quantization (``PTQ``) of
Linear and Conv2D layers, configured by ``QuantConfig`` with quanters (``quanters``) and observers
(``observers``); ``quanter`` makes the factory of a quanter class of one's own.

Paddle 3.3.1 also keeps its older imperative API here (``ImperativeQuantAware``, ``ImperativePTQ``, ``PTQConfig``
and the ``*Quantizer`` classes), outside ``__all__``; it is not provided."""

from . import observers as observers
from . import quanters as quanters
from .base_observer import BaseObserver as BaseObserver
from .base_quanter import BaseQuanter as BaseQuanter
from .config import QuantConfig as QuantConfig
from .factory import quanter as quanter
from .ptq import PTQ as PTQ
from .qat import QAT as QAT

__all__ = ["QuantConfig", "BaseQuanter", "BaseObserver", "quanter", "QAT", "PTQ"]
