"""paddle.metric: streaming metrics (Accuracy, Precision, Recall, Auc) and the accuracy function."""

from ._metrics import Accuracy as Accuracy
from ._metrics import Auc as Auc
from ._metrics import Metric as Metric
from ._metrics import Precision as Precision
from ._metrics import Recall as Recall
from ._metrics import accuracy as accuracy

__all__ = ["Accuracy", "Auc", "Metric", "Precision", "Recall", "accuracy"]
