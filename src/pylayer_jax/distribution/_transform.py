"""Transforms: invertible (or at least injective) maps ``y = f(x)`` with ``forward``, ``inverse``, the log
absolute determinant of their Jacobian (``forward_log_det_jacobian``, ``inverse_log_det_jacobian``) and the
shapes they map (``forward_shape``, ``inverse_shape``). Calling a transform on a Tensor applies it, on a
Distribution gives the ``TransformedDistribution``, on another transform their ``ChainTransform``.

Each transform knows its domain and codomain as a ``_Space``: whether it is discrete, its event rank (how many
rightmost axes make one value: 1 for a simplex, 0 elementwise) and its constraint."""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from typing import Any

from .._api import functional as F
from .._api.irregular import broadcast_shape
from .._tensor.facade import Tensor
from ._base import Distribution, dtype_name, op, sum_rightmost


class Type(enum.Enum):
    """What a transform is as a map: a bijection, an injection, a surjection or neither."""

    BIJECTION = "bijection"
    INJECTION = "injection"
    SURJECTION = "surjection"
    OTHER = "other"

    @classmethod
    def is_injective(cls, t: Type) -> bool:
        return t in (cls.BIJECTION, cls.INJECTION)


# ---- spaces (Paddle's ``distribution.variable`` and ``distribution.constraint``) --------------------------

class _Space:
    """A set of values: ``is_discrete``, ``event_rank`` and ``constraint(value)`` (a bool Tensor: which values
    lie in the set)."""

    def __init__(self, is_discrete: bool = False, event_rank: int = 0, check: Any = None) -> None:
        self._is_discrete = is_discrete
        self._event_rank = event_rank
        self._check = check

    @property
    def is_discrete(self) -> bool:
        return self._is_discrete

    @property
    def event_rank(self) -> int:
        return self._event_rank

    def constraint(self, value: Tensor) -> Tensor:
        return self._check(value)


def _real(v: Tensor) -> Tensor:
    return v == v  # noqa: PLR0124  (False at NaN)


def _positive(v: Tensor) -> Tensor:
    return v >= 0.0


def _in_range(lo: float, hi: float) -> Any:
    return lambda v: (v >= lo) & (v <= hi)


def _simplex(v: Tensor) -> Tensor:
    return (v >= 0).all(-1) & ((v.sum(-1) - 1).abs() < 1e-6)


_REAL = _Space(False, 0, _real)
_POSITIVE = _Space(False, 0, _positive)


class _IndependentSpace(_Space):
    """``base`` with its ``rank`` rightmost batch axes taken into the event."""

    def __init__(self, base: _Space, rank: int) -> None:
        self._base, self._rank = base, rank
        super().__init__(base.is_discrete, base.event_rank + rank)

    def constraint(self, value: Tensor) -> Tensor:
        ok = self._base.constraint(value)
        if self._rank == 0:
            return ok
        return ok.reshape([*ok.shape[: ok.ndim - self._rank], -1]).all(-1)


class _StackSpace(_Space):
    """The spaces of a ``StackTransform``'s parts, one per index of ``axis``."""

    def __init__(self, spaces: Sequence[_Space], axis: int) -> None:
        self._spaces, self._axis = list(spaces), axis
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        return any(s.is_discrete for s in self._spaces)

    @property
    def event_rank(self) -> int:
        rank = max(s.event_rank for s in self._spaces)
        return rank + 1 if self._axis + rank < 0 else rank

    def constraint(self, value: Tensor) -> Tensor:
        parts = F.unstack(value, self._axis)
        return F.stack([s.constraint(v) for s, v in zip(self._spaces, parts, strict=True)], self._axis)


def _sequence(v: Any) -> bool:
    return isinstance(v, Sequence) and not isinstance(v, str)


class Transform:
    """The base of the transforms. A subclass defines ``_forward`` and ``_inverse``, one of
    ``_forward_log_det_jacobian`` / ``_inverse_log_det_jacobian`` (the other follows), its ``_domain`` and
    ``_codomain`` (real numbers by default) and, when it changes shapes, ``_forward_shape``/``_inverse_shape``.
    ``forward_log_det_jacobian`` exists only for injective transforms (``_type`` a bijection or an injection;
    NotImplementedError otherwise, as in Paddle)."""

    _type = Type.INJECTION

    def __init__(self) -> None:
        super().__init__()

    def _is_injective(self) -> bool:
        return Type.is_injective(self._type)

    def __call__(self, input: Any) -> Any:  # noqa: A002  (Paddle's name)
        """A Tensor: ``forward(input)``; a Distribution: the TransformedDistribution of it by this transform; a
        Transform: the chain ``self`` then ``input`` (as Paddle orders it)."""
        if isinstance(input, Distribution):
            from ._transformed import TransformedDistribution

            return TransformedDistribution(input, [self])
        if isinstance(input, Transform):
            return ChainTransform([self, input])
        return self.forward(input)

    def _tensor(self, meth: str, arg: str, v: Any, rank: int) -> None:
        if not isinstance(v, Tensor):
            raise TypeError(f"{type(self).__name__}.{meth}: {arg} must be a Tensor, but received "
                            f"{type(v).__name__}; pass paddle.to_tensor(...).")
        if v.ndim < rank:
            raise ValueError(f"{type(self).__name__}.{meth}: {arg} must have at least {rank} axes (the event rank "
                             f"of the transform), but received a Tensor of shape {list(v.shape)}.")

    def forward(self, x: Tensor) -> Tensor:
        """``y = f(x)``."""
        self._tensor("forward", "x", x, self._domain.event_rank)
        return self._forward(x)

    def inverse(self, y: Tensor) -> Tensor:
        """``x = f^-1(y)``."""
        self._tensor("inverse", "y", y, self._codomain.event_rank)
        return self._inverse(y)

    def forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        """``log |det J_f(x)|`` (over the event axes of the domain)."""
        self._tensor("forward_log_det_jacobian", "x", x, self._domain.event_rank)
        if not self._is_injective():
            raise NotImplementedError(f"{type(self).__name__}.forward_log_det_jacobian is not defined: the "
                                      f"transform is not injective ({self._type.value}).")
        return self._call_forward_log_det_jacobian(x)

    def inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        """``log |det J_{f^-1}(y)|``."""
        self._tensor("inverse_log_det_jacobian", "y", y, self._codomain.event_rank)
        return self._call_inverse_log_det_jacobian(y)

    def forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        """The shape of ``forward(x)`` for ``x`` of ``shape``."""
        if not _sequence(shape):
            raise TypeError(f"{type(self).__name__}.forward_shape: shape must be a sequence of ints, but received "
                            f"{type(shape).__name__}.")
        return self._forward_shape(shape)

    def inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        """The shape of ``inverse(y)`` for ``y`` of ``shape``."""
        if not _sequence(shape):
            raise TypeError(f"{type(self).__name__}.inverse_shape: shape must be a sequence of ints, but received "
                            f"{type(shape).__name__}.")
        return self._inverse_shape(shape)

    @property
    def _domain(self) -> _Space:
        return _REAL

    @property
    def _codomain(self) -> _Space:
        return _REAL

    def _forward(self, x: Tensor) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__}.forward is not defined; a subclass defines _forward.")

    def _inverse(self, y: Tensor) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__}.inverse is not defined; a subclass defines _inverse.")

    def _call_forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        if hasattr(self, "_forward_log_det_jacobian"):
            return self._forward_log_det_jacobian(x)
        if hasattr(self, "_inverse_log_det_jacobian"):
            return -self._inverse_log_det_jacobian(self.forward(x))
        raise NotImplementedError(f"{type(self).__name__}: neither _forward_log_det_jacobian nor "
                                  f"_inverse_log_det_jacobian is defined; a subclass defines one of them.")

    def _call_inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        if hasattr(self, "_inverse_log_det_jacobian"):
            return self._inverse_log_det_jacobian(y)
        if hasattr(self, "_forward_log_det_jacobian"):
            return -self._forward_log_det_jacobian(self._inverse(y))
        raise NotImplementedError(f"{type(self).__name__}: neither _forward_log_det_jacobian nor "
                                  f"_inverse_log_det_jacobian is defined; a subclass defines one of them.")

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return shape

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return shape

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _tensor_arg(api: str, name: str, v: Any) -> Tensor:
    if not isinstance(v, Tensor):
        raise TypeError(f"{api}: {name} must be a Tensor, but received {type(v).__name__} {v!r}; pass "
                        f"paddle.to_tensor({v!r}).")
    return v


class AbsTransform(Transform):
    """``y = |x|``: a surjection onto the non-negative numbers, so ``inverse(y)`` is the pair ``(-y, y)``,
    ``inverse_log_det_jacobian`` the pair of zeros, and ``forward_log_det_jacobian`` is not defined."""

    _type = Type.SURJECTION

    def _forward(self, x: Tensor) -> Tensor:
        return x.abs()

    def _inverse(self, y: Tensor) -> tuple[Tensor, Tensor]:  # type: ignore[override]
        return -y, y

    def _inverse_log_det_jacobian(self, y: Tensor) -> tuple[Tensor, Tensor]:
        zero = F.zeros([], dtype=dtype_name(y))
        return zero, zero

    @property
    def _codomain(self) -> _Space:
        return _POSITIVE


class AffineTransform(Transform):
    """``y = loc + scale * x`` (``loc`` and ``scale`` Tensors); its log-Jacobian is ``log|scale|`` (of scale's
    shape, as in Paddle)."""

    _type = Type.BIJECTION

    def __init__(self, loc: Tensor, scale: Tensor) -> None:
        self._loc = _tensor_arg("AffineTransform", "loc", loc)
        self._scale = _tensor_arg("AffineTransform", "scale", scale)
        super().__init__()

    @property
    def loc(self) -> Tensor:
        return self._loc

    @property
    def scale(self) -> Tensor:
        return self._scale

    def _forward(self, x: Tensor) -> Tensor:
        return self._loc + self._scale * x

    def _inverse(self, y: Tensor) -> Tensor:
        return (y - self._loc) / self._scale

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return self._scale.abs().log()

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return tuple(broadcast_shape(broadcast_shape(list(shape), list(self._loc.shape)), list(self._scale.shape)))

    _inverse_shape = _forward_shape


class ChainTransform(Transform):
    """The composition of ``transforms``, applied first to last; its log-Jacobian sums theirs (each summed over
    the axes that are event axes of the chain but batch axes of that transform)."""

    def __init__(self, transforms: Sequence[Transform]) -> None:
        if not _sequence(transforms):
            raise TypeError(f"ChainTransform: transforms must be a sequence of Transforms, but received "
                            f"{type(transforms).__name__}.")
        bad = [type(t).__name__ for t in transforms if not isinstance(t, Transform)]
        if bad:
            raise TypeError(f"ChainTransform: every element of transforms must be a Transform, but received "
                            f"{', '.join(bad)}.")
        self.transforms = transforms
        super().__init__()

    def _is_injective(self) -> bool:
        return all(t._is_injective() for t in self.transforms)

    def _forward(self, x: Tensor) -> Tensor:
        for t in self.transforms:
            x = t.forward(x)
        return x

    def _inverse(self, y: Tensor) -> Tensor:
        for t in reversed(self.transforms):
            y = t.inverse(y)
        return y

    def _forward_log_det_jacobian(self, x: Tensor) -> Any:
        value: Any = 0.0
        rank = self._domain.event_rank
        for t in self.transforms:
            value = value + sum_rightmost(t.forward_log_det_jacobian(x), rank - t._domain.event_rank)
            x = t.forward(x)
            rank += t._codomain.event_rank - t._domain.event_rank
        return value

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        for t in self.transforms:
            shape = t.forward_shape(shape)
        return shape

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        for t in reversed(self.transforms):
            shape = t.inverse_shape(shape)
        return shape

    @property
    def _domain(self) -> _Space:
        domain = self.transforms[0]._domain
        rank = self.transforms[-1]._codomain.event_rank
        for t in reversed(self.transforms):
            rank -= t._codomain.event_rank - t._domain.event_rank
            rank = max(rank, t._domain.event_rank)
        return _IndependentSpace(domain, rank - domain.event_rank)

    @property
    def _codomain(self) -> _Space:
        codomain = self.transforms[-1]._codomain
        rank = self.transforms[0]._domain.event_rank
        for t in self.transforms:
            rank += t._codomain.event_rank - t._domain.event_rank
            rank = max(rank, t._codomain.event_rank)
        return _IndependentSpace(codomain, rank - codomain.event_rank)

    def __repr__(self) -> str:
        return f"ChainTransform({list(self.transforms)!r})"


class ExpTransform(Transform):
    """``y = exp(x)``; log-Jacobian ``x``."""

    _type = Type.BIJECTION

    @property
    def _codomain(self) -> _Space:
        return _POSITIVE

    def _forward(self, x: Tensor) -> Tensor:
        return x.exp()

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return x


class IndependentTransform(Transform):
    """``base`` with its ``reinterpreted_batch_rank`` rightmost batch axes taken as event axes: the same map,
    with the log-Jacobian summed over those axes."""

    def __init__(self, base: Transform, reinterpreted_batch_rank: int) -> None:
        if not isinstance(base, Transform):
            raise TypeError(f"IndependentTransform: base must be a Transform, but received {type(base).__name__}.")
        if isinstance(reinterpreted_batch_rank, bool) or not isinstance(reinterpreted_batch_rank, int):
            raise TypeError(f"IndependentTransform: reinterpreted_batch_rank must be an int, but received "
                            f"{type(reinterpreted_batch_rank).__name__}.")
        if reinterpreted_batch_rank <= 0:
            raise ValueError(f"IndependentTransform: reinterpreted_batch_rank must be greater than zero, but "
                             f"received {reinterpreted_batch_rank}.")
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        super().__init__()

    def _is_injective(self) -> bool:
        return self._base._is_injective()

    def _forward(self, x: Tensor) -> Tensor:
        return self._base.forward(x)

    def _inverse(self, y: Tensor) -> Tensor:
        return self._base.inverse(y)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return self._base.forward_log_det_jacobian(x).sum(list(range(-self._reinterpreted_batch_rank, 0)))

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._base.forward_shape(shape)

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._base.inverse_shape(shape)

    @property
    def _domain(self) -> _Space:
        return _IndependentSpace(self._base._domain, self._reinterpreted_batch_rank)

    @property
    def _codomain(self) -> _Space:
        return _IndependentSpace(self._base._codomain, self._reinterpreted_batch_rank)


class PowerTransform(Transform):
    """``y = x ** power`` (``power`` a Tensor), on the positive numbers; log-Jacobian
    ``log|power * x ** (power - 1)|``."""

    _type = Type.BIJECTION

    def __init__(self, power: Tensor) -> None:
        self._power = _tensor_arg("PowerTransform", "power", power)
        super().__init__()

    @property
    def power(self) -> Tensor:
        return self._power

    @property
    def _codomain(self) -> _Space:
        return _POSITIVE

    def _forward(self, x: Tensor) -> Tensor:
        return x.pow(self._power)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.pow(1 / self._power)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return (self._power * x.pow(self._power - 1)).abs().log()

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return tuple(broadcast_shape(list(shape), list(self._power.shape)))

    _inverse_shape = _forward_shape


def _ints(api: str, name: str, v: Any) -> tuple[int, ...]:
    if not _sequence(v) or any(isinstance(e, bool) or not isinstance(e, int) for e in v):
        raise TypeError(f"{api}: {name} must be a sequence of ints, but received {v!r}.")
    return tuple(int(e) for e in v)


class ReshapeTransform(Transform):
    """Reshapes the event from ``in_event_shape`` to ``out_event_shape`` (the same number of elements);
    log-Jacobian zero."""

    _type = Type.BIJECTION

    def __init__(self, in_event_shape: Sequence[int], out_event_shape: Sequence[int]) -> None:
        self._in_event_shape = _ints("ReshapeTransform", "in_event_shape", in_event_shape)
        self._out_event_shape = _ints("ReshapeTransform", "out_event_shape", out_event_shape)
        if math.prod(self._in_event_shape) != math.prod(self._out_event_shape):
            raise ValueError(f"ReshapeTransform: in_event_shape {list(self._in_event_shape)} and out_event_shape "
                             f"{list(self._out_event_shape)} must hold the same number of elements, but hold "
                             f"{math.prod(self._in_event_shape)} and {math.prod(self._out_event_shape)}.")
        super().__init__()

    @property
    def in_event_shape(self) -> tuple[int, ...]:
        return self._in_event_shape

    @property
    def out_event_shape(self) -> tuple[int, ...]:
        return self._out_event_shape

    @property
    def _domain(self) -> _Space:
        return _IndependentSpace(_REAL, len(self._in_event_shape))

    @property
    def _codomain(self) -> _Space:
        return _IndependentSpace(_REAL, len(self._out_event_shape))

    def _forward(self, x: Tensor) -> Tensor:
        return x.reshape([*x.shape[: x.ndim - len(self._in_event_shape)], *self._out_event_shape])

    def _inverse(self, y: Tensor) -> Tensor:
        return y.reshape([*y.shape[: y.ndim - len(self._out_event_shape)], *self._in_event_shape])

    def _reshape(self, meth: str, shape: Sequence[int], src: tuple[int, ...], dst: tuple[int, ...]) -> tuple:
        n = len(src)
        tail = tuple(shape[len(shape) - n:]) if n else ()
        if len(shape) < n or tail != src:
            raise ValueError(f"ReshapeTransform.{meth}: shape must end with the event shape {list(src)}, but "
                             f"received {list(shape)}.")
        return (*tuple(shape[: len(shape) - n]), *dst)

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._reshape("forward_shape", shape, self._in_event_shape, self._out_event_shape)

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._reshape("inverse_shape", shape, self._out_event_shape, self._in_event_shape)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return F.zeros(list(x.shape[: x.ndim - len(self._in_event_shape)]), dtype=dtype_name(x))


class SigmoidTransform(Transform):
    """``y = sigmoid(x)`` onto ``(0, 1)``; log-Jacobian ``-softplus(-x) - softplus(x)``."""

    @property
    def _codomain(self) -> _Space:
        return _Space(False, 0, _in_range(0.0, 1.0))

    def _forward(self, x: Tensor) -> Tensor:
        return F.sigmoid(x)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log() - (-y).log1p()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return -op("softplus", -x) - op("softplus", x)


class SoftmaxTransform(Transform):
    """``y = softmax(x)`` over the last axis onto the simplex; ``inverse`` is ``log(y)`` (one of the preimages).
    Not injective, so it has no ``forward_log_det_jacobian`` (as in Paddle)."""

    _type = Type.OTHER

    @property
    def _domain(self) -> _Space:
        return _IndependentSpace(_REAL, 1)

    @property
    def _codomain(self) -> _Space:
        return _Space(False, 1, _simplex)

    def _forward(self, x: Tensor) -> Tensor:
        e = (x - x.max(-1, keepdim=True)).exp()
        return e / e.sum(-1, keepdim=True)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log()

    def _check_rank(self, meth: str, shape: Sequence[int]) -> Sequence[int]:
        if len(shape) < 1:
            raise ValueError(f"SoftmaxTransform.{meth}: shape must have at least one axis (the simplex), but "
                             f"received {list(shape)}.")
        return shape

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._check_rank("forward_shape", shape)

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._check_rank("inverse_shape", shape)


class StackTransform(Transform):
    """``transforms[i]`` applied to the ``i``-th slice along ``axis`` (the input has one slice per transform)."""

    def __init__(self, transforms: Sequence[Transform], axis: int = 0) -> None:
        if not _sequence(transforms) or not transforms:
            raise TypeError(f"StackTransform: transforms must be a non-empty sequence of Transforms, but received "
                            f"{transforms!r}.")
        bad = [type(t).__name__ for t in transforms if not isinstance(t, Transform)]
        if bad:
            raise TypeError(f"StackTransform: every element of transforms must be a Transform, but received "
                            f"{', '.join(bad)}.")
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"StackTransform: axis must be an int, but received {type(axis).__name__}.")
        self._transforms = transforms
        self._axis = axis
        super().__init__()

    def _is_injective(self) -> bool:
        return all(t._is_injective() for t in self._transforms)

    @property
    def transforms(self) -> Sequence[Transform]:
        return self._transforms

    @property
    def axis(self) -> int:
        return self._axis

    def _each(self, meth: str, v: Tensor) -> Tensor:
        if not -v.ndim <= self._axis < v.ndim:
            raise ValueError(f"StackTransform.{meth}: the input has {v.ndim} axes, too few for the stack axis "
                             f"{self._axis}.")
        if v.shape[self._axis] != len(self._transforms):
            raise ValueError(f"StackTransform.{meth}: the input has {v.shape[self._axis]} slices along axis "
                             f"{self._axis} but there are {len(self._transforms)} transforms; they must match.")
        parts = F.unstack(v, self._axis)
        return F.stack([getattr(t, meth)(p) for t, p in zip(self._transforms, parts, strict=True)], self._axis)

    def _forward(self, x: Tensor) -> Tensor:
        return self._each("forward", x)

    def _inverse(self, y: Tensor) -> Tensor:
        return self._each("inverse", y)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return self._each("forward_log_det_jacobian", x)

    @property
    def _domain(self) -> _Space:
        return _StackSpace([t._domain for t in self._transforms], self._axis)

    @property
    def _codomain(self) -> _Space:
        return _StackSpace([t._codomain for t in self._transforms], self._axis)


def _countdown(n: int, dtype: str) -> Tensor:
    """``[n, n-1, ..., 1]`` in ``dtype``."""
    return F.arange(n, 0, -1, dtype=dtype)


def _pad_last(x: Tensor, before: bool) -> Tensor:
    """``x`` with a 1 added at the start (``before``) or the end of its last axis."""
    one = F.ones([*x.shape[:-1], 1], dtype=dtype_name(x))
    return F.concat([one, x] if before else [x, one], -1)


class StickBreakingTransform(Transform):
    """Maps ``K`` real numbers onto the ``K + 1``-simplex by stick breaking: ``z_i = sigmoid(x_i - log(K + 1 -
    i))``, ``y_i = z_i * prod_{j < i}(1 - z_j)``, the last element the stick left over."""

    _type = Type.BIJECTION

    def _forward(self, x: Tensor) -> Tensor:
        z = F.sigmoid(x - _countdown(x.shape[-1], dtype_name(x)).log())
        return _pad_last(z, False) * _pad_last((1 - z).cumprod(-1), True)

    def _inverse(self, y: Tensor) -> Tensor:
        crop = y[..., :-1]
        sf = 1 - crop.cumsum(-1)
        return crop.log() - sf.log() + _countdown(crop.shape[-1], dtype_name(y)).log()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        y = self.forward(x)
        x = x - _countdown(x.shape[-1], dtype_name(x)).log()
        return (-x + op("log_sigmoid", x) + y[..., :-1].log()).sum(-1)

    def _check(self, meth: str, shape: Sequence[int]) -> None:
        if not shape:
            raise ValueError(f"StickBreakingTransform.{meth}: shape must have at least one axis, but received "
                             f"{list(shape)}.")

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        self._check("forward_shape", shape)
        return (*tuple(shape[:-1]), shape[-1] + 1)

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        self._check("inverse_shape", shape)
        return (*tuple(shape[:-1]), shape[-1] - 1)

    @property
    def _domain(self) -> _Space:
        return _IndependentSpace(_REAL, 1)

    @property
    def _codomain(self) -> _Space:
        return _Space(False, 1, _simplex)


class TanhTransform(Transform):
    """``y = tanh(x)`` onto ``(-1, 1)``; log-Jacobian ``2 * (log 2 - x - softplus(-2x))``."""

    _type = Type.BIJECTION

    @property
    def _codomain(self) -> _Space:
        return _Space(False, 0, _in_range(-1.0, 1.0))

    def _forward(self, x: Tensor) -> Tensor:
        return x.tanh()

    def _inverse(self, y: Tensor) -> Tensor:
        return y.atanh()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return 2.0 * (math.log(2.0) - x - op("softplus", -2.0 * x))
