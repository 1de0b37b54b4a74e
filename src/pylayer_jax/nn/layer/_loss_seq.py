"""Sequence and structured-output loss layers (``paddle.nn.CTCLoss``, ``RNNTLoss``, ``HSigmoidLoss``,
``AdaptiveLogSoftmaxWithLoss``; layer L5): each keeps its options (and parameters) and calls the
``nn.functional`` loss in ``forward``."""

from __future__ import annotations

from typing import Any

from ..._ops.table import TABLE
from ..._runtime import dtypes as _dtypes
from ..._tensor.methods import public
from .. import _functional as F
from ._container import LayerList, ParameterList
from ._layers import Layer
from ._loss import _reduction

_concat = public(TABLE["concat"])


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


class RNNTLoss(Layer):
    """RNN-T (transducer) loss of padded ``[B, T, U + 1, D]`` log-probabilities (see ``F.rnnt_loss``)."""

    def __init__(self, blank: int = 0, fastemit_lambda: float = 0.001, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__()
        self.blank, self.fastemit_lambda = blank, fastemit_lambda
        self.reduction, self.name = _reduction("RNNTLoss", reduction), name

    def forward(self, input: Any, label: Any, input_lengths: Any, label_lengths: Any) -> Any:  # noqa: A002
        return F.rnnt_loss(input, label, input_lengths, label_lengths, self.blank, self.fastemit_lambda,
                           self.reduction)


class AdaptiveLogSoftmaxWithLoss(Layer):
    """Adaptive softmax over ``n_classes`` classes split at ``cutoffs`` (see
    ``F.adaptive_log_softmax_with_loss``): a head ``[in_features, cutoffs[0] + n_clusters]`` (with ``head_bias``
    optional) and, per cluster ``i``, two projections ``[in_features, in_features // div_value ** (i + 1)]`` and
    ``[that, cluster size]``; XavierUniform-initialised as in Paddle.

    ``forward(input, label)`` returns ``(output, loss)``; ``log_prob(input)`` the ``[N, n_classes]``
    log-probabilities; ``predict(input)`` the most likely class per row. Paddle 3.3.1 keeps the tail projections
    in a plain list, so its ``parameters()`` and ``state_dict()`` miss them (an optimizer never trains them);
    here they are registered (``tail_weights.<cluster>.<0|1>``) after the head's.
    """

    def __init__(self, in_features: int, n_classes: int, cutoffs: Any, weight_attr: Any = None,
                 bias_attr: Any = None, div_value: float = 4.0, head_bias: bool = False,
                 name: str | None = None) -> None:
        super().__init__()
        cut = list(cutoffs)
        if (cut != sorted(cut) or not cut or min(cut) <= 0 or max(cut) > n_classes - 1 or len(set(cut)) != len(cut)
                or any(int(c) != c for c in cut)):
            raise ValueError(f"AdaptiveLogSoftmaxWithLoss: cutoffs must be unique positive ints in increasing "
                             f"order, each in [1, n_classes - 1] = [1, {n_classes - 1}], but received {cut}.")
        self.in_features, self.n_classes, self.div_value = in_features, n_classes, div_value
        self.cutoffs = [*[int(c) for c in cut], n_classes]
        self._weight_attr, self._bias_attr, self.is_head_bias, self._name = weight_attr, bias_attr, head_bias, name
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self._dtype = _dtypes.get_default_dtype()
        self.head_weight = self.create_parameter([in_features, self.head_size], weight_attr, self._dtype)
        self.head_bias = self.create_parameter([self.head_size], bias_attr, self._dtype, True) if head_bias else None
        tails = []
        for i in range(self.n_clusters):
            hsz = int(in_features // (div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            tails.append(ParameterList([self.create_parameter([in_features, hsz], weight_attr, self._dtype),
                                        self.create_parameter([hsz, osz], weight_attr, self._dtype)]))
        self.tail_weights = LayerList(tails)

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return F.adaptive_log_softmax_with_loss(input, label, self.head_weight,
                                                [[p[0], p[1]] for p in self.tail_weights], self.cutoffs,
                                                self.head_bias)

    def log_prob(self, input: Any) -> Any:  # noqa: A002
        """``[N, n_classes]`` log-probabilities: the head's for the shortlist, head + cluster for the others."""
        head = F.log_softmax(F.linear(input, self.head_weight, self.head_bias), axis=1)
        parts = [head[:, : self.shortlist_size]]
        for i, p in enumerate(self.tail_weights):
            cluster = F.log_softmax(F.linear(F.linear(input, p[0]), p[1]), axis=1)
            parts.append(cluster + head[:, self.shortlist_size + i: self.shortlist_size + i + 1])
        return _concat(parts, axis=1)

    def predict(self, input: Any) -> Any:  # noqa: A002
        """The most likely class per row: float32, or int64 when no row's head picks a shortlist class (Paddle's
        dtypes)."""
        best = self.log_prob(input).argmax(axis=1)
        head_best = F.linear(input, self.head_weight, self.head_bias).argmax(axis=1)
        if bool((head_best >= self.shortlist_size).all()):
            return best
        return best.astype("float32")


class HSigmoidLoss(Layer):
    """Hierarchical sigmoid loss (see ``F.hsigmoid_loss``) with its ``weight`` ``[C, feature_size]`` and ``bias``
    ``[C, 1]``: ``C = num_classes - 1`` nodes of the default tree, or ``num_classes`` nodes when ``is_custom``
    (the paths then come with each call). ``bias_attr=False`` drops the bias."""

    def __init__(self, feature_size: int, num_classes: int, weight_attr: Any = None, bias_attr: Any = None,
                 is_custom: bool = False, is_sparse: bool = False, name: str | None = None) -> None:
        super().__init__()
        if num_classes < 2 and not is_custom:
            raise ValueError(f"HSigmoidLoss: num_classes must be at least 2 with the default tree, but received "
                             f"{num_classes}.")
        self._feature_size, self._num_classes, self._is_custom = feature_size, num_classes, is_custom
        # (as Paddle: sparse gradients only with a custom tree)
        self._is_sparse = bool(is_sparse and is_custom)
        self._weight_attr, self._bias_attr, self._name = weight_attr, bias_attr, name
        self._dtype = _dtypes.get_default_dtype()
        c = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([c, feature_size], weight_attr, self._dtype)
        self.bias = None if bias_attr is False else self.create_parameter([c, 1], bias_attr, self._dtype, True)

    def forward(self, input: Any, label: Any, path_table: Any = None, path_code: Any = None) -> Any:  # noqa: A002
        return F.hsigmoid_loss(input, label, self._num_classes, self.weight, self.bias, path_table=path_table,
                               path_code=path_code, is_sparse=self._is_sparse)
