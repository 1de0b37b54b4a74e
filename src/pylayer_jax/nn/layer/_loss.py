"""Loss layers (``paddle.nn.MSELoss`` ... ``paddle.nn.GaussianNLLLoss``): each keeps its options and calls
the ``nn.functional`` loss in ``forward``; Paddle's constructor signatures and argument checks (layer L5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _functional as F
from ._layers import Layer

_REDUCTIONS = ("sum", "mean", "none")


def _reduction(layer: str, reduction: Any) -> str:
    if reduction not in _REDUCTIONS:
        raise ValueError(
            f"{layer}: reduction must be 'sum', 'mean' or 'none', but received {reduction!r}."
        )
    return reduction


class MSELoss(Layer):
    """Mean squared error ``(input - label) ** 2``, reduced by ``reduction``."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = _reduction("MSELoss", reduction)

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.mse_loss(input, label, self.reduction)


class L1Loss(Layer):
    """Mean absolute error ``|input - label|``, reduced by ``reduction``."""

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        self.reduction, self.name = _reduction("L1Loss", reduction), name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.l1_loss(input, label, self.reduction)


class BCELoss(Layer):
    """Binary cross entropy of probabilities ``input`` against ``label`` (optional per-element ``weight``)."""

    def __init__(self, weight: Any = None, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        self.weight, self.reduction, self.name = weight, _reduction("BCELoss", reduction), name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.binary_cross_entropy(input, label, self.weight, self.reduction)


class BCEWithLogitsLoss(Layer):
    """Binary cross entropy of ``sigmoid(logit)`` against ``label``, computed stably; ``pos_weight`` weighs the
    positive term."""

    def __init__(self, weight: Any = None, reduction: str = "mean", pos_weight: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self.weight, self.reduction = weight, _reduction("BCEWithLogitsLoss", reduction)
        self.pos_weight, self.name = pos_weight, name

    def forward(self, logit: Any, label: Any) -> Any:
        return F.binary_cross_entropy_with_logits(logit, label, self.weight, self.reduction, self.pos_weight)


class CrossEntropyLoss(Layer):
    """Softmax cross entropy (hard or soft labels, class weights, ``ignore_index``, label smoothing)."""

    def __init__(self, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
                 soft_label: bool = False, axis: int = -1, use_softmax: bool = True, label_smoothing: float = 0.0,
                 name: str | None = None) -> None:
        super().__init__()
        self.weight, self.reduction = weight, _reduction("CrossEntropyLoss", reduction)
        self.ignore_index, self.soft_label, self.axis = ignore_index, soft_label, axis
        self.use_softmax, self.label_smoothing, self.name = use_softmax, label_smoothing, name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.cross_entropy(input, label, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, soft_label=self.soft_label, axis=self.axis,
                               use_softmax=self.use_softmax, label_smoothing=self.label_smoothing)


class NLLLoss(Layer):
    """Negative log likelihood of log-probabilities ``input`` ``[N, C, ...]`` at the ``label`` classes."""

    def __init__(self, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__()
        self._weight, self._ignore_index = weight, ignore_index
        self._reduction, self._name = _reduction("NLLLoss", reduction), name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.nll_loss(input, label, weight=self._weight, ignore_index=self._ignore_index,
                          reduction=self._reduction)


class PoissonNLLLoss(Layer):
    """Poisson negative log likelihood (``log_input``: ``input`` is the log rate; ``full`` adds Stirling's term)."""

    def __init__(self, log_input: bool = True, full: bool = False, epsilon: float = 1e-08, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__()
        if epsilon <= 0:
            raise ValueError(f"PoissonNLLLoss: epsilon must be positive, but received {epsilon}.")
        self._log_input, self._full, self._epsilon = log_input, full, epsilon
        self._reduction, self._name = _reduction("PoissonNLLLoss", reduction), name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.poisson_nll_loss(input, label, log_input=self._log_input, full=self._full, epsilon=self._epsilon,
                                  reduction=self._reduction)


class KLDivLoss(Layer):
    """Kullback-Leibler divergence of ``label`` from the log-probabilities ``input`` (``reduction`` may also
    be ``'batchmean'``)."""

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__()
        if reduction not in (*_REDUCTIONS, "batchmean"):
            raise ValueError(
                f"KLDivLoss: reduction must be 'sum', 'mean', 'batchmean' or 'none', but received {reduction!r}."
            )
        self.reduction, self.log_target = reduction, log_target

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.kl_div(input, label, self.reduction, self.log_target)


class MarginRankingLoss(Layer):
    """``max(0, -label * (input - other) + margin)``, reduced."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        self.margin, self.reduction, self.name = margin, _reduction("MarginRankingLoss", reduction), name

    def forward(self, input: Any, other: Any, label: Any) -> Any:  # noqa: A002
        return F.margin_ranking_loss(input, other, label, self.margin, self.reduction)


class SmoothL1Loss(Layer):
    """Huber-style loss: quadratic within ``delta`` of the label, linear beyond (``is_huber=False``: Paddle's
    smooth-L1 form, the quadratic part divided by ``delta``)."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0, is_huber: bool = True,
                 name: str | None = None) -> None:
        super().__init__()
        self.reduction, self.delta = _reduction("SmoothL1Loss", reduction), delta
        self.is_huber, self.name = is_huber, name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.smooth_l1_loss(input, label, reduction=self.reduction, delta=self.delta, is_huber=self.is_huber)


HuberLoss = SmoothL1Loss


class MultiLabelSoftMarginLoss(Layer):
    """One-vs-all logistic loss over ``[N, C]`` multi-label targets (optional class weights)."""

    def __init__(self, weight: Any = None, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        self.weight, self.reduction, self.name = weight, _reduction("MultiLabelSoftMarginLoss", reduction), name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.multi_label_soft_margin_loss(input, label, weight=self.weight, reduction=self.reduction)


class HingeEmbeddingLoss(Layer):
    """``x`` where ``label == 1``, ``max(0, margin - x)`` where ``label == -1``, reduced."""

    def __init__(self, margin: float = 1.0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        self.margin, self.reduction, self.name = margin, _reduction("HingeEmbeddingLoss", reduction), name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.hinge_embedding_loss(input, label, margin=self.margin, reduction=self.reduction)


class CosineEmbeddingLoss(Layer):
    """``1 - cos(x1, x2)`` for ``label == 1``, ``max(0, cos(x1, x2) - margin)`` for ``label == -1``."""

    def __init__(self, margin: float = 0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        if margin > 1 or margin < -1:
            raise ValueError(f"CosineEmbeddingLoss: margin must be in [-1, 1], but received {margin}.")
        self.margin, self.reduction, self.name = margin, _reduction("CosineEmbeddingLoss", reduction), name

    def forward(self, input1: Any, input2: Any, label: Any) -> Any:
        return F.cosine_embedding_loss(input1, input2, label, margin=self.margin, reduction=self.reduction)


class TripletMarginWithDistanceLoss(Layer):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with ``distance_function`` (default: pairwise L2 distance);
    ``swap`` uses ``min(d(a, n), d(p, n))`` as the negative distance."""

    def __init__(self, distance_function: Callable[[Any, Any], Any] | None = None, margin: float = 1.0,
                 swap: bool = False, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        self.reduction = _reduction("TripletMarginWithDistanceLoss", reduction)
        if distance_function is not None and not callable(distance_function):
            raise TypeError(
                "TripletMarginWithDistanceLoss: distance_function must be callable or None, but received "
                f"{type(distance_function).__name__}."
            )
        self.margin, self.swap, self.distance_function, self.name = margin, swap, distance_function, name

    def forward(self, input: Any, positive: Any, negative: Any) -> Any:  # noqa: A002
        return F.triplet_margin_with_distance_loss(input, positive, negative, self.distance_function,
                                                   margin=self.margin, swap=self.swap, reduction=self.reduction)


class TripletMarginLoss(Layer):
    """``max(||a - p||_p - ||a - n||_p + margin, 0)``, reduced (``swap``: the harder negative distance)."""

    def __init__(self, margin: float = 1.0, p: float = 2.0, epsilon: float = 1e-06, swap: bool = False,
                 reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        self.reduction = _reduction("TripletMarginLoss", reduction)
        self.margin, self.p, self.epsilon, self.swap, self.name = margin, p, epsilon, swap, name

    def forward(self, input: Any, positive: Any, negative: Any) -> Any:  # noqa: A002
        return F.triplet_margin_loss(input, positive, negative, margin=self.margin, p=self.p, epsilon=self.epsilon,
                                     swap=self.swap, reduction=self.reduction)


class MultiMarginLoss(Layer):
    """Multi-class hinge loss of ``[N, C]`` scores (``p`` 1 or 2, optional class ``weight``)."""

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Any = None, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__()
        self.reduction = _reduction("MultiMarginLoss", reduction)
        self.p, self.margin, self.weight, self.name = p, margin, weight, name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.multi_margin_loss(input, label, p=self.p, margin=self.margin, weight=self.weight,
                                   reduction=self.reduction)


class MultiLabelMarginLoss(Layer):
    """Multi-label hinge loss: ``label`` rows list target classes, ended by the first ``-1``."""

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        self.reduction, self.name = _reduction("MultiLabelMarginLoss", reduction), name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.multi_label_margin_loss(input, label, reduction=self.reduction)


class SoftMarginLoss(Layer):
    """``log(1 + exp(-label * input))`` with labels in ``{-1, 1}``, reduced."""

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        self.reduction, self.name = _reduction("SoftMarginLoss", reduction), name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.soft_margin_loss(input, label, self.reduction)


class GaussianNLLLoss(Layer):
    """Gaussian negative log likelihood of ``label`` under mean ``input`` and ``variance`` (clamped at
    ``epsilon``; ``full`` adds the constant term)."""

    def __init__(self, full: bool = False, epsilon: float = 1e-06, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__()
        self.reduction = _reduction("GaussianNLLLoss", reduction)
        self.full, self.epsilon, self.name = full, epsilon, name

    def forward(self, input: Any, label: Any, variance: Any) -> Any:  # noqa: A002
        return F.gaussian_nll_loss(input, label, variance, self.full, self.epsilon, self.reduction)
