"""``paddle.autograd.jacobian`` and ``paddle.autograd.hessian``: the Jacobian (Hessian) of tensors already computed
(``ys`` from ``xs``, not a function as in ``paddle.incubate.autograd``), as lazily evaluated ``Jacobian`` / ``Hessian``
objects: each row is one ``paddle.grad`` with ``create_graph=True`` (so results can be differentiated again), made
when first indexed and then kept.

Shapes follow Paddle 3.3.1: without a batch axis ``xs`` and ``ys`` are 0-D or 1-D and the Jacobian is ``[M, N]``
(an axis dropped for a 0-D one); with ``batch_axis=0`` they are 1-D or 2-D and it is ``[B, M, N]``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._api import functional as _P
from .._tensor.facade import Tensor

__all__ = ["Hessian", "Jacobian", "hessian", "jacobian"]


def _binary(op: Any) -> Any:
    def method(self: Jacobian, other: Any) -> Any:
        return op(self._evaluate_all(), other._evaluate_all() if isinstance(other, Jacobian) else other)

    return method


class Jacobian:
    """The Jacobian matrix of ``ys`` with respect to ``xs`` (``is_batched``: the first axis of both is a batch).

    Index it like a Tensor with ints and slices (``J[:]``, ``J[i]``, ``J[:, j]``; not Ellipsis): only the rows the
    index needs are computed, each once. ``shape`` is a list. Any other Tensor attribute or arithmetic evaluates the
    whole matrix and applies to it (``J.numpy()``, ``J * 2``).

    >>> import pylayer_jax as paddle
    >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    >>> paddle.autograd.jacobian(x * x, x)[:].tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """

    def __init__(self, ys: Any, xs: Tensor, is_batched: bool = False) -> None:
        lo, hi = (1, 2) if is_batched else (0, 1)
        when = "True" if is_batched else "False"
        if not lo <= len(xs.shape) <= hi:
            raise ValueError(f"xs.ndim should be {lo} or {hi} when is_batched={when} but got {len(xs.shape)}")
        if not lo <= len(ys.shape) <= hi:
            raise ValueError(f"ys.ndim should be {lo} or {hi} when is_batched={when} but got {len(ys.shape)}")
        self._jacobian = _Rows(ys, xs, is_batched)

    @property
    def shape(self) -> list[int]:
        """The shape of the Jacobian matrix."""
        return self._jacobian.shape

    def __getitem__(self, indexes: Any) -> Tensor:
        return self._jacobian[indexes]

    def _evaluate_all(self) -> Tensor:
        return self._jacobian.evaluate_all()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_jacobian":
            raise AttributeError(name)
        return getattr(self._evaluate_all(), name)

    __add__ = _binary(lambda a, b: a + b)
    __sub__ = _binary(lambda a, b: a - b)
    __mul__ = _binary(lambda a, b: a * b)
    __truediv__ = _binary(lambda a, b: a / b)
    __pow__ = _binary(lambda a, b: a ** b)
    __mod__ = _binary(lambda a, b: a % b)
    __floordiv__ = _binary(lambda a, b: a // b)
    __matmul__ = _binary(lambda a, b: a @ b)
    __eq__ = _binary(lambda a, b: a == b)  # type: ignore[assignment]
    __ne__ = _binary(lambda a, b: a != b)  # type: ignore[assignment]
    __lt__ = _binary(lambda a, b: a < b)
    __le__ = _binary(lambda a, b: a <= b)
    __gt__ = _binary(lambda a, b: a > b)
    __ge__ = _binary(lambda a, b: a >= b)
    __hash__ = object.__hash__


class Hessian(Jacobian):
    """The Hessian matrix of a scalar (or one scalar per batch entry): the Jacobian of its gradient, as ``Jacobian``."""


class _Rows:
    """The rows of a Jacobian kept as they are computed. Without a batch: ``ys`` and ``xs`` flattened to ``[M]`` and
    ``[N]``, rows along axis 0 of ``[M, N]``; batched: ``[B, M]`` and ``[B, N]``, rows along axis 1 of ``[B, M, N]``.
    ``inner_shape`` counts a 0-D tensor as one element; ``shape`` drops its axis."""

    def __init__(self, ys: Any, xs: Tensor, batched: bool) -> None:
        self.batched = batched
        self.ys_shape, xs_shape = list(ys.shape), list(xs.shape)
        if isinstance(ys, Jacobian):  # (a Hessian: the Jacobian of a gradient, evaluated whole)
            ys = ys._evaluate_all()
        self._xs = xs
        if batched:
            self._flat_xs = _P.reshape(xs, [xs.shape[0], -1])
            self._flat_ys = _P.reshape(ys, [ys.shape[0], -1])
            self.axis = 1
            b = self._flat_xs.shape[0]
            self.inner_shape = [b, self._flat_ys.shape[1], self._flat_xs.shape[1]]
            self.shape = [b, *self.ys_shape[1:2], *xs_shape[1:2]]
        else:
            self._flat_xs = _P.reshape(xs, [-1])
            self._flat_ys = _P.reshape(ys, [-1])
            self.axis = 0
            self.inner_shape = [self._flat_ys.shape[0], self._flat_xs.shape[0]]
            self.shape = [*self.ys_shape[0:1], *xs_shape[0:1]]
        self._cache: dict[int, Tensor] = {}

    def _row(self, k: int) -> Tensor:
        row = self._cache.get(k)
        if row is None:
            ys = self._flat_ys[:, k] if self.batched else self._flat_ys[k]
            from ..incubate.autograd._functional import _grad  # (imported on use: incubate is lazy)

            g = _grad(ys, self._xs)
            row = self._cache[k] = _P.reshape(g, [g.shape[0], -1] if self.batched else [-1])
        return row

    def _full_index(self, indexes: Any) -> Any:
        """An index given for ``shape`` spelled for ``inner_shape`` (the axis of a 0-D tensor indexed by 0)."""
        if not self.batched:
            if not self.shape:
                raise IndexError("0-D tensor can not be indexed.")
            if len(self.shape) == 1:
                return (0, indexes) if not self.ys_shape else (indexes, 0)
            return indexes
        if len(self.shape) == 1:
            return (indexes, 0, 0)
        if len(self.shape) == 2:
            if isinstance(indexes, slice):
                return (indexes, slice(None, None, None))
            return (indexes[0], 0, indexes[1]) if len(self.ys_shape) == 1 else (indexes[0], indexes[1], 0)
        return indexes

    def __getitem__(self, indexes: Any) -> Tensor:
        from ..incubate.autograd._functional import _multi_index  # (imported on use: incubate is lazy)

        idx = _multi_index(self._full_index(indexes), self.inner_shape)
        ax = self.axis
        rest = idx[:ax] + idx[ax + 1:]
        if isinstance(idx[ax], int):
            return self._row(idx[ax])[rest]
        rows = range(idx[ax].start, idx[ax].stop, idx[ax].step)
        shape = list(self.inner_shape)
        shape[ax] = len(rows)
        part = _P.reshape(_P.concat([self._row(k) for k in rows], axis=ax), shape)
        out = part[(*idx[:ax], slice(0, len(rows), 1), *idx[ax + 1:])]
        for _ in range(len(out.shape) - len(self.shape)):  # (Paddle squeezes the last axis, where it has size 1)
            out = _P.squeeze(out, -1)
        return out

    def evaluate_all(self) -> Tensor:
        if not self.shape:
            return _P.reshape(self._row(0), [])
        return self[:]


def _as_pairs(ys: Any, xs: Any, batched: bool, cls: type) -> Any:
    many_ys = isinstance(ys, Sequence) and not isinstance(ys, Tensor)
    many_xs = isinstance(xs, Sequence) and not isinstance(xs, Tensor)
    if many_ys and many_xs:
        return tuple(tuple(cls(y, x, batched) for x in xs) for y in ys)
    if many_ys:
        return tuple(cls(y, xs, batched) for y in ys)
    if many_xs:
        return tuple(cls(ys, x, batched) for x in xs)
    return cls(ys, xs, batched)


def jacobian(ys: Any, xs: Any, batch_axis: int | None = None) -> Any:
    """The Jacobian of ``ys`` (a Tensor or a sequence) with respect to ``xs`` (a Tensor or a sequence), lazily
    evaluated: one ``Jacobian`` for two Tensors, a tuple of them where one side is a sequence, a tuple of tuples
    (``[i][j]``: ``ys[i]`` by ``xs[j]``) where both are.

    ``batch_axis``: None (``ys`` and ``xs`` 0-D or 1-D, a ``[M, N]`` matrix) or 0 (their first axis a batch,
    ``[B, M, N]``)."""
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"batch_axis should be None or 0, but got {batch_axis}.")
    return _as_pairs(ys, xs, batch_axis is not None, Jacobian)


def hessian(ys: Tensor, xs: Any, batch_axis: int | None = None) -> Any:
    """The Hessian of ``ys`` (one element, or one per batch entry with ``batch_axis=0``) with respect to ``xs``: a
    ``Hessian`` for one Tensor ``xs`` (``[N, N]``, batched ``[B, N, N]``), a tuple of tuples of them (``[i][j]``:
    by ``xs[i]`` then ``xs[j]``) for a sequence."""
    if batch_axis is None:
        if ys.numel() > 1:
            raise ValueError(f"Only support ys.numel()({ys.numel()})==1 when batch_axis is None.")
        ys = _P.reshape(ys, [])
    elif isinstance(batch_axis, int) and not isinstance(batch_axis, bool):
        if ys[0].numel() > 1:
            raise ValueError(f"Only support ys[0].numel()({ys.numel()})==1 when batch_axis is int")
        if batch_axis != 0:
            raise ValueError("Only support batch_axis=0 yet.")
        ys = _P.reshape(ys, [-1])
    else:
        raise ValueError(f"batch_axis should be None or int, but got {type(batch_axis)}.")
    first = jacobian(ys, xs, batch_axis)
    if isinstance(xs, Sequence) and not isinstance(xs, Tensor):
        return tuple(_as_pairs(j, xs, batch_axis is not None, Hessian) for j in first)
    return Hessian(first, xs, batch_axis is not None)
