"""paddle.metric: streaming metrics with Paddle's states, return types and rounding rules.

As in Paddle, the metric classes keep their running state in numpy/Python numbers: `update`
takes Tensors or numpy arrays, `accumulate` returns Python or numpy floats (a list of them
for `Accuracy` with several `topk`). `Accuracy.compute` and `accuracy` run as Tensor ops.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._api import functional as F
from .._tensor.facade import Tensor, to_tensor
from .._tensor.methods import inplace_assign


def _np(x: Any, api: str, what: str) -> np.ndarray:
    if isinstance(x, Tensor):
        return np.asarray(x.numpy())
    if isinstance(x, np.ndarray):
        return x
    raise ValueError(f"{api}: the '{what}' must be a numpy ndarray or Tensor, but received {type(x).__name__}.")


def _vector_pair(preds: Any, labels: Any, api: str) -> tuple[np.ndarray, np.ndarray]:
    """Binary metrics take one score and one 0/1 label per sample: shape [N] or [N, 1]."""
    preds, labels = _np(preds, api, "preds"), _np(labels, api, "labels")
    for what, a in (("preds", preds), ("labels", labels)):
        if not (a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1)):
            raise ValueError(
                f"{api}: '{what}' must hold one value per sample, shape [N] or [N, 1], but received shape "
                f"{list(a.shape)}."
            )
    if preds.shape[0] != labels.shape[0]:
        raise ValueError(
            f"{api}: 'preds' and 'labels' must have the same number of samples, but received {preds.shape[0]} "
            f"and {labels.shape[0]}."
        )
    return preds.reshape(-1), labels.reshape(-1)


class Metric(metaclass=abc.ABCMeta):
    """Base class of metrics: subclasses define `reset`, `update`, `accumulate` and `name`.

    `compute` (optional) maps a model's outputs and labels to the inputs of `update`;
    by default it returns its arguments unchanged.

    Example:
        >>> import pylayer_jax as paddle
        >>> class Count(paddle.metric.Metric):
        ...     def __init__(self): self.n = 0
        ...     def reset(self): self.n = 0
        ...     def update(self, x): self.n += len(x)
        ...     def accumulate(self): return self.n
        ...     def name(self): return "count"
    """

    @abc.abstractmethod
    def reset(self) -> None:
        """Reset the states."""
        raise NotImplementedError(f"function 'reset' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def update(self, *args: Any) -> Any:
        """Update the states with one batch (the outputs of `compute`)."""
        raise NotImplementedError(f"function 'update' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def accumulate(self) -> Any:
        """The metric over all batches seen since the last `reset`."""
        raise NotImplementedError(f"function 'accumulate' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def name(self) -> Any:
        """The metric's name."""
        raise NotImplementedError(f"function 'name' not implemented in {self.__class__.__name__}.")

    def compute(self, *args: Any) -> Any:
        """Map the model's outputs and labels to `update`'s inputs (default: unchanged)."""
        return args


class Accuracy(Metric):
    """Top-k classification accuracy, accumulated over batches.

    Args:
        topk: the k values to report (default ``(1,)``).
        name: the metric's name prefix (default ``"acc"``).

    Example:
        >>> import pylayer_jax as paddle
        >>> m = paddle.metric.Accuracy()
        >>> x = paddle.to_tensor([[0.1, 0.9], [0.8, 0.2]])
        >>> y = paddle.to_tensor([[1], [1]])
        >>> m.update(m.compute(x, y))
        np.float64(0.5)
    """

    def __init__(self, topk: Sequence[int] = (1,), name: str | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if isinstance(topk, int) or not isinstance(topk, Sequence) or isinstance(topk, str):
            raise TypeError(
                f"paddle.metric.Accuracy: topk must be a list or tuple of ints such as (1, 5), but received "
                f"{topk!r}."
            )
        if not topk or any(isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1 for k in topk):
            raise ValueError(
                f"paddle.metric.Accuracy: topk must hold at least one int >= 1, but received {list(topk)!r}."
            )
        self.topk = topk
        self.maxk = max(topk)
        base = name or "acc"
        self._name = [f"{base}_top{k}" for k in topk] if self.maxk != 1 else [base]
        self.reset()

    def compute(self, pred: Tensor, label: Tensor, *args: Any) -> Tensor:
        """Correct mask of shape [..., maxk]: 1.0 where the i-th best prediction is the label."""
        api = "paddle.metric.Accuracy.compute"
        if not isinstance(pred, Tensor) or not isinstance(label, Tensor):
            raise TypeError(
                f"{api}: pred and label must be Tensors, but received {type(pred).__name__} and "
                f"{type(label).__name__}."
            )
        if pred.ndim < 1 or pred.shape[-1] < self.maxk:
            raise ValueError(
                f"{api}: pred's last dimension (the classes) must be at least max(topk)={self.maxk}, but "
                f"pred has shape {pred.shape}."
            )
        order = F.argsort(pred, axis=-1, descending=True)[..., : self.maxk]
        if label.ndim == 1 or (label.ndim == 2 and label.shape[-1] == 1):
            label = F.reshape(label, (-1, 1))
        elif label.shape[-1] != 1:
            label = F.argmax(label, axis=-1, keepdim=True)
        if label.shape[0] != order.shape[0] and order.ndim == 2:
            raise ValueError(
                f"{api}: label must hold one label per sample ({order.shape[0]}), but received shape "
                f"{label.shape}."
            )
        return F.cast(order == F.cast(label, order.dtype), "float32")

    def update(self, correct: Any, *args: Any) -> Any:
        """Add one batch's correct mask; returns this batch's accuracy (a list for several topk)."""
        if isinstance(correct, Tensor):
            correct = np.array(correct.numpy())
        if not isinstance(correct, np.ndarray):
            raise TypeError(
                "paddle.metric.Accuracy.update: correct must be the Tensor or numpy array that compute() "
                f"returns, but received {type(correct).__name__}."
            )
        if correct.ndim < 1 or correct.shape[-1] < self.maxk:
            raise ValueError(
                "paddle.metric.Accuracy.update: correct's last dimension must be at least max(topk)="
                f"{self.maxk}, but received shape {list(correct.shape)}."
            )
        num_samples = np.prod(np.array(correct.shape[:-1]))
        accs = []
        for i, k in enumerate(self.topk):
            num_corrects = correct[..., :k].sum()
            accs.append(float(num_corrects) / num_samples)
            self.total[i] += num_corrects
            self.count[i] += num_samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self) -> None:
        """Clear the counts."""
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self) -> Any:
        """Accuracy over all batches since `reset` (a list for several topk)."""
        res = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def name(self) -> list[str]:
        """``[name]``, or ``[f"{name}_top{k}" ...]`` when max(topk) > 1."""
        return self._name


class Precision(Metric):
    """Binary precision tp / (tp + fp); a score rounds to the class floor(score + 0.5).

    Example:
        >>> import numpy as np, pylayer_jax as paddle
        >>> m = paddle.metric.Precision()
        >>> m.update(np.array([0.1, 0.6, 0.7]), np.array([0, 1, 0]))
        >>> m.accumulate()
        0.5
    """

    def __init__(self, name: str = "precision", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fp = 0
        self._name = name

    def update(self, preds: Any, labels: Any) -> None:
        """Count one batch: preds are scores in [0, 1], labels 0 or 1, shape [N] or [N, 1]."""
        preds, labels = _vector_pair(preds, labels, "paddle.metric.Precision.update")
        pred = np.floor(preds + 0.5).astype("int32")
        positive = pred == 1
        self.tp += int(np.sum(positive & (pred == labels)))
        self.fp += int(np.sum(positive & (pred != labels)))

    def reset(self) -> None:
        """Clear the counts."""
        self.tp = 0
        self.fp = 0

    def accumulate(self) -> float:
        """tp / (tp + fp), or 0.0 before any positive prediction."""
        ap = self.tp + self.fp
        return float(self.tp) / ap if ap != 0 else 0.0

    def name(self) -> str:
        """The metric's name."""
        return self._name


class Recall(Metric):
    """Binary recall tp / (tp + fn); a score rounds half to even (numpy's rint), as in Paddle.

    Example:
        >>> import numpy as np, pylayer_jax as paddle
        >>> m = paddle.metric.Recall()
        >>> m.update(np.array([0.1, 0.6, 0.7]), np.array([1, 1, 0]))
        >>> m.accumulate()
        0.5
    """

    def __init__(self, name: str = "recall", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fn = 0
        self._name = name

    def update(self, preds: Any, labels: Any) -> None:
        """Count one batch: preds are scores in [0, 1], labels 0 or 1, shape [N] or [N, 1]."""
        preds, labels = _vector_pair(preds, labels, "paddle.metric.Recall.update")
        pred = np.rint(preds).astype("int32")
        relevant = labels == 1
        self.tp += int(np.sum(relevant & (pred == labels)))
        self.fn += int(np.sum(relevant & (pred != labels)))

    def accumulate(self) -> float:
        """tp / (tp + fn), or 0.0 before any positive label."""
        recall = self.tp + self.fn
        return float(self.tp) / recall if recall != 0 else 0.0

    def reset(self) -> None:
        """Clear the counts."""
        self.tp = 0
        self.fn = 0

    def name(self) -> str:
        """The metric's name."""
        return self._name


class Auc(Metric):
    """Area under the ROC curve, from scores bucketed into ``num_thresholds + 1`` bins.

    Args:
        curve: ``'ROC'`` (the only curve Paddle computes; ``'PR'`` raises NotImplementedError
            instead of silently returning the ROC area as Paddle does).
        num_thresholds: number of thresholds (default 4095).
        name: the metric's name (default ``"auc"``).

    Example:
        >>> import numpy as np, pylayer_jax as paddle
        >>> m = paddle.metric.Auc()
        >>> m.update(np.array([[0.8, 0.2], [0.1, 0.9]]), np.array([[0], [1]]))
        >>> float(m.accumulate())
        1.0
    """

    def __init__(self, curve: str = "ROC", num_thresholds: int = 4095, name: str = "auc", *args: Any,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if curve == "PR":
            raise NotImplementedError(
                "paddle.metric.Auc: curve='PR' is not implemented (Paddle computes the ROC area for it); "
                "use curve='ROC'."
            )
        if curve != "ROC":
            raise ValueError(f"paddle.metric.Auc: curve must be 'ROC' or 'PR', but received {curve!r}.")
        if isinstance(num_thresholds, bool) or not isinstance(num_thresholds, int | np.integer) or num_thresholds < 0:
            raise ValueError(
                f"paddle.metric.Auc: num_thresholds must be an int >= 0, but received {num_thresholds!r}."
            )
        self._curve = curve
        self._num_thresholds = int(num_thresholds)
        self._name = name
        self.reset()

    def update(self, preds: Any, labels: Any) -> None:
        """Bucket one batch: preds [N, 2] class probabilities (column 1 is the score), labels [N] or [N, 1]."""
        api = "paddle.metric.Auc.update"
        labels, preds = _np(labels, api, "labels"), _np(preds, api, "preds")
        if preds.ndim != 2 or preds.shape[1] < 2:
            raise ValueError(
                f"{api}: 'preds' must have shape [N, 2] (the probability of each class), but received shape "
                f"{list(preds.shape)}."
            )
        if labels.shape[0] > preds.shape[0]:
            raise ValueError(
                f"{api}: 'labels' holds {labels.shape[0]} samples but 'preds' only {preds.shape[0]}."
            )
        for i, lbl in enumerate(labels):
            value = preds[i, 1]
            bin_idx = int(value * self._num_thresholds)
            if not 0 <= bin_idx <= self._num_thresholds:
                raise ValueError(f"{api}: scores must lie in [0, 1], but preds[{i}, 1] is {value}.")
            if lbl:
                self._stat_pos[bin_idx] += 1.0
            else:
                self._stat_neg[bin_idx] += 1.0

    @staticmethod
    def trapezoid_area(x1: float, x2: float, y1: float, y2: float) -> float:
        """Area of the trapezoid between x1 and x2 under heights y1 and y2."""
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def accumulate(self) -> float:
        """The area under the ROC curve (0.0 until both classes were seen)."""
        tot_pos = tot_neg = auc = 0.0
        for idx in range(self._num_thresholds, -1, -1):
            tot_pos_prev, tot_neg_prev = tot_pos, tot_neg
            tot_pos += self._stat_pos[idx]
            tot_neg += self._stat_neg[idx]
            auc += self.trapezoid_area(tot_neg, tot_neg_prev, tot_pos, tot_pos_prev)
        return auc / tot_pos / tot_neg if tot_pos > 0.0 and tot_neg > 0.0 else 0.0

    def reset(self) -> None:
        """Clear the histograms."""
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def name(self) -> str:
        """The metric's name."""
        return self._name


def accuracy(input: Tensor, label: Tensor, k: int = 1, correct: Tensor | None = None,
             total: Tensor | None = None, name: str | None = None) -> Tensor:
    """Fraction of samples whose label is among the top ``k`` predictions (a float32 0-D Tensor).

    Args:
        input: predictions, shape [N, C], float.
        label: int64/int32 labels, shape [N, 1].
        k: how many of the best predictions count.
        correct, total: optional int32 Tensors that receive the correct and total counts.

    Example:
        >>> import pylayer_jax as paddle
        >>> x = paddle.to_tensor([[0.1, 0.9], [0.8, 0.2]])
        >>> float(paddle.metric.accuracy(x, paddle.to_tensor([[1], [1]])))
        0.5
    """
    api = "paddle.metric.accuracy"
    if not isinstance(input, Tensor) or not isinstance(label, Tensor):
        raise TypeError(
            f"{api}: input and label must be Tensors, but received {type(input).__name__} and "
            f"{type(label).__name__}."
        )
    if label.dtype.name not in ("int32", "int64"):
        raise ValueError(f"{api}: label must be int32 or int64, but received {label.dtype.name}.")
    if input.ndim != 2:
        raise ValueError(f"{api}: input must have shape [N, C], but received shape {input.shape}.")
    if label.ndim != 2 or label.shape[1] != 1:
        raise ValueError(
            f"{api}: label must have shape [N, 1] (its rank must be 2 and its second dimension 1), but "
            f"received shape {label.shape}."
        )
    if label.shape[0] != input.shape[0]:
        raise ValueError(
            f"{api}: input and label must have the same number of rows, but received {input.shape[0]} and "
            f"{label.shape[0]}."
        )
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k <= input.shape[1]:
        raise ValueError(f"{api}: k must be an int in [1, {input.shape[1]}] (the classes), but received {k!r}.")
    _, idx = F.topk(input, k=int(k))
    hits = F.cast(F.any(idx == F.cast(label, "int64"), axis=1), "int32")
    n_correct = F.sum(hits)
    n_total = to_tensor(input.shape[0], dtype="int32")
    acc = F.cast(n_correct, "float32") / float(input.shape[0])
    for out, value in ((correct, n_correct), (total, n_total)):
        if out is not None:
            inplace_assign(out, F.cast(value, out.dtype), api)
    return acc
