"""Activation layers (``paddle.nn.ReLU`` ... ``paddle.nn.ThresholdedReLU``): thin Layers over
``nn.functional`` with Paddle's constructor signatures and ``extra_repr`` texts (layer L5)."""

from __future__ import annotations

from typing import Any

from ..._runtime import dtypes as _dtypes
from .. import _functional as F
from ..initializer._base import Constant
from ._layers import Layer


def _named(name: str | None, first: bool = False) -> str:
    """Paddle's ``name=...`` suffix of an activation's repr (alone, or after the other fields)."""
    if not name:
        return ""
    return f"name={name}" if first else f", name={name}"


def _check_rank(layer: str, x: Any, ranks: tuple[int, ...]) -> None:
    if x.ndim not in ranks:
        want = " or ".join(f"{r}-D" for r in ranks)
        raise ValueError(f"{layer}: the input must be {want}, but received a {x.ndim}-D tensor of shape {x.shape}.")


class _Plain(Layer):
    """An activation with no arguments: ``forward(x) = fn(x)``; repr shows only the name."""

    _fn: Any = None

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self._name = name

    def forward(self, x: Any) -> Any:
        return type(self)._fn(x)

    def extra_repr(self) -> str:
        return _named(self._name, first=True)


class ReLU(_Plain):
    """``max(x, 0)``."""

    _fn = staticmethod(F.relu)


class ReLU6(_Plain):
    """``min(max(x, 0), 6)``."""

    _fn = staticmethod(F.relu6)


class Sigmoid(_Plain):
    """``1 / (1 + exp(-x))``."""

    _fn = staticmethod(F.sigmoid)

    @property
    def name(self) -> str | None:
        return self._name


class Hardsigmoid(_Plain):
    """``clip(x / 6 + 1/2, 0, 1)`` (Paddle's slope 1/6 and offset 1/2)."""

    _fn = staticmethod(F.hardsigmoid)

    @property
    def name(self) -> str | None:
        return self._name


class Hardswish(_Plain):
    """``x * relu6(x + 3) / 6``."""

    _fn = staticmethod(F.hardswish)


class Tanh(_Plain):
    """``tanh(x)``."""

    _fn = staticmethod(F.tanh)


class Softsign(_Plain):
    """``x / (1 + |x|)``."""

    _fn = staticmethod(F.softsign)


class Swish(_Plain):
    """``x * sigmoid(x)``."""

    _fn = staticmethod(F.swish)


class Mish(_Plain):
    """``x * tanh(softplus(x))``."""

    _fn = staticmethod(F.mish)


class Tanhshrink(_Plain):
    """``x - tanh(x)``."""

    _fn = staticmethod(F.tanhshrink)


class LogSigmoid(_Plain):
    """``log(sigmoid(x))``, computed stably."""

    _fn = staticmethod(F.log_sigmoid)


class Softmax2D(_Plain):
    """Softmax over the channel axis of ``[C, H, W]`` or ``[N, C, H, W]`` input (axis -3)."""

    def forward(self, x: Any) -> Any:
        _check_rank("Softmax2D", x, (3, 4))
        return F.softmax(x, axis=-3)


class CELU(Layer):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__()
        self._alpha, self._name = alpha, name

    def forward(self, x: Any) -> Any:
        return F.celu(x, self._alpha)

    def extra_repr(self) -> str:
        return f"alpha={self._alpha}{_named(self._name)}"


class ELU(Layer):
    """``x`` if ``x > 0`` else ``alpha * (exp(x) - 1)``."""

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__()
        self._alpha, self._name = alpha, name

    def forward(self, x: Any) -> Any:
        return F.elu(x, self._alpha)

    def extra_repr(self) -> str:
        return f"alpha={self._alpha}{_named(self._name)}"


class GLU(Layer):
    """Gated linear unit: split ``x`` in two halves along ``axis``, ``a * sigmoid(b)``."""

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__()
        self._axis, self._name = axis, name

    def forward(self, x: Any) -> Any:
        return F.glu(x, self._axis)

    def extra_repr(self) -> str:
        return f"axis={self._axis}{_named(self._name)}"


class GELU(Layer):
    """``x * Phi(x)``; ``approximate=True`` (or ``'tanh'``) uses the tanh approximation."""

    def __init__(self, approximate: Any = False, name: str | None = None) -> None:
        super().__init__()
        self._approximate, self._name = approximate, name

    def forward(self, x: Any) -> Any:
        return F.gelu(x, self._approximate)

    def extra_repr(self) -> str:
        return f"approximate={self._approximate}{_named(self._name)}"


class Hardshrink(Layer):
    """``x`` where ``|x| > threshold``, else 0."""

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        self._threshold, self._name = threshold, name

    def forward(self, x: Any) -> Any:
        return F.hardshrink(x, self._threshold)

    def extra_repr(self) -> str:
        return f"threshold={self._threshold}{_named(self._name)}"


class Softshrink(Layer):
    """``x - threshold`` above ``threshold``, ``x + threshold`` below ``-threshold``, else 0."""

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        if threshold < 0:
            raise ValueError(f"Softshrink: threshold must be non-negative, but received {threshold}.")
        self._threshold, self._name = threshold, name

    def forward(self, x: Any) -> Any:
        return F.softshrink(x, self._threshold)

    def extra_repr(self) -> str:
        return f"threshold={self._threshold}{_named(self._name)}"


class Hardtanh(Layer):
    """``clip(x, min, max)``."""

    def __init__(self, min: float = -1.0, max: float = 1.0, name: str | None = None) -> None:  # noqa: A002
        super().__init__()
        self._min, self._max, self._name = min, max, name

    def forward(self, x: Any) -> Any:
        return F.hardtanh(x, self._min, self._max)

    def extra_repr(self) -> str:
        return f"min={self._min}, max={self._max}{_named(self._name)}"


class LeakyReLU(Layer):
    """``x`` if ``x >= 0`` else ``negative_slope * x``."""

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__()
        self._negative_slope, self._name = negative_slope, name

    def forward(self, x: Any) -> Any:
        return F.leaky_relu(x, self._negative_slope)

    def extra_repr(self) -> str:
        return f"negative_slope={self._negative_slope}{_named(self._name)}"


class SELU(Layer):
    """``scale * (x if x > 0 else alpha * (exp(x) - 1))``."""

    def __init__(self, scale: float = 1.0507009873554805, alpha: float = 1.6732632423543772,
                 name: str | None = None) -> None:
        super().__init__()
        if scale <= 1.0:
            raise ValueError(f"SELU: scale must be greater than 1.0, but received {scale}.")
        if alpha < 0:
            raise ValueError(f"SELU: alpha must be no less than 0, but received {alpha}.")
        self._scale, self._alpha, self._name = scale, alpha, name

    def forward(self, x: Any) -> Any:
        return F.selu(x, self._scale, self._alpha)

    def extra_repr(self) -> str:
        return f"scale={self._scale:.16f}, alpha={self._alpha:.16f}{_named(self._name)}"


class Softplus(Layer):
    """``log(1 + exp(beta * x)) / beta``, linear where ``beta * x > threshold``."""

    def __init__(self, beta: float = 1, threshold: float = 20, name: str | None = None) -> None:
        super().__init__()
        self._beta, self._threshold, self._name = beta, threshold, name

    def forward(self, x: Any) -> Any:
        return F.softplus(x, self._beta, self._threshold)

    def extra_repr(self) -> str:
        return f"beta={self._beta}, threshold={self._threshold}{_named(self._name)}"


class ThresholdedReLU(Layer):
    """``x`` if ``x > threshold`` else ``value``."""

    def __init__(self, threshold: float = 1.0, value: float = 0.0, name: str | None = None) -> None:
        super().__init__()
        self._threshold, self._value, self._name = threshold, value, name

    def forward(self, x: Any) -> Any:
        return F.thresholded_relu(x, self._threshold, self._value)

    def extra_repr(self) -> str:
        return f"threshold={self._threshold}, value={self._value}{_named(self._name)}"


class Silu(Layer):
    """``x * sigmoid(x)``; ``inplace=True`` writes the result into the input."""

    def __init__(self, inplace: bool = False, name: str | None = None) -> None:
        super().__init__()
        self._inplace, self._name = inplace, name

    def forward(self, x: Any) -> Any:
        return F.silu(x, self._inplace)

    def extra_repr(self) -> str:
        return f"inplace={self._inplace}{_named(self._name)}"


SiLU = Silu


class Softmax(Layer):
    """``exp(x) / sum(exp(x))`` along ``axis``."""

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__()
        self._axis, self._name, self._dtype = axis, name, None

    def forward(self, x: Any) -> Any:
        return F.softmax(x, self._axis)

    def extra_repr(self) -> str:
        return f"axis={self._axis}{_named(self._name)}"


class LogSoftmax(Layer):
    """``log(softmax(x))`` along ``axis``, computed stably."""

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__()
        self._axis, self._name = axis, name

    def forward(self, x: Any) -> Any:
        return F.log_softmax(x, self._axis)

    def extra_repr(self) -> str:
        return f"axis={self._axis}{_named(self._name)}"


class Maxout(Layer):
    """Maximum over ``groups`` consecutive channels of ``axis`` (the channel count shrinks by ``groups``)."""

    def __init__(self, groups: int, axis: int = 1, name: str | None = None) -> None:
        super().__init__()
        self._groups, self._axis, self._name = groups, axis, name

    def forward(self, x: Any) -> Any:
        return F.maxout(x, self._groups, self._axis)

    def extra_repr(self) -> str:
        return f"groups={self._groups}, axis={self._axis}{_named(self._name)}"


class PReLU(Layer):
    """``x`` if ``x >= 0`` else ``weight * x`` with a learnt slope: one shared (``num_parameters=1``) or one per
    channel. The parameter is ``_weight`` (as in Paddle's state_dict), initialised to ``init``.

    >>> import pylayer_jax as paddle
    >>> m = paddle.nn.PReLU(num_parameters=3, init=0.1)
    >>> list(m.state_dict()), m._weight.shape
    (['_weight'], [3])
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, weight_attr: Any = None,
                 data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        if not isinstance(num_parameters, int) or isinstance(num_parameters, bool) or num_parameters < 1:
            raise ValueError(f"PReLU: num_parameters must be a positive int, but received {num_parameters!r}.")
        if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError(
                "PReLU: data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', 'NLC', 'NHWC', 'NDHWC', but "
                f"received {data_format!r}."
            )
        self._num_parameters, self._init, self._weight_attr = num_parameters, init, weight_attr
        self._name, self._data_format = name, data_format
        self._weight = self.create_parameter([num_parameters], weight_attr, _dtypes.get_default_dtype(), False,
                                             Constant(init))

    def forward(self, x: Any) -> Any:
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self) -> str:
        return (f"num_parameters={self._num_parameters}, data_format={self._data_format}, init={self._init}, "
                f"dtype={self._dtype}{_named(self._name)}")


class RReLU(Layer):
    """Randomized leaky relu: negative slopes drawn from ``U[lower, upper]`` while training, their mean
    ``(lower + upper) / 2`` in eval mode."""

    def __init__(self, lower: float = 1.0 / 8.0, upper: float = 1.0 / 3.0, name: str | None = None) -> None:
        super().__init__()
        if not 0 <= lower <= upper <= 1:
            raise ValueError(
                f"RReLU: lower and upper must satisfy 0 <= lower <= upper <= 1, but received lower={lower} and "
                f"upper={upper}."
            )
        self._lower, self._upper, self._name = lower, upper, name

    def forward(self, x: Any) -> Any:
        return F.rrelu(x, lower=self._lower, upper=self._upper, training=self.training)

    def extra_repr(self) -> str:
        return (f"lower={self._lower}, upper={self._upper}, training={self.training}, dtype={self._dtype}"
                f"{_named(self._name)}")
