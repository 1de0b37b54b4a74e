"""``paddle.static.nn.metric``: ``accuracy``, ``auc`` and ``ctr_metric_bundle``."""

from .._metric import accuracy as accuracy
from .._metric import auc as auc
from .._metric import ctr_metric_bundle as ctr_metric_bundle
