"""``paddle.incubate.autograd``'s functional API (layer L8): ``vjp``, ``jvp`` and the lazily evaluated ``Jacobian``
and ``Hessian`` matrices, on the backward entry point (``paddle.grad`` with ``create_graph=True``, so results can be
differentiated again), or ``paddle.static.gradients`` in a static program; and the switches of Paddle's
primitive-operator autodiff, which are static-mode flags here (JAX differentiates every op the same way)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..._api import functional as _P
from ..._tensor.backward_entry import grad as _paddle_grad
from ..._tensor.facade import Tensor
from ...static._backward import gradients as _static_gradients
from ...static._mode import in_dynamic_mode

_PRIM = [False]  # Paddle's prim_option: whether "automatic differentiation based on primitive operators" is on


def _static_only(api: str) -> None:
    if in_dynamic_mode():
        raise AssertionError(
            f"In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and '{api}()' is only supported in "
            "static graph mode. So if you want to use this api, please call 'paddle.enable_static()' before this "
            "api to enter static graph mode."
        )


def enable_prim() -> None:
    """Turn on Paddle's autodiff by primitive operators (static mode only, as in Paddle). Gradients here come from
    JAX in either setting, so it changes no result; ``prim_enabled()`` reports it."""
    _static_only("enable_prim")
    _PRIM[0] = True


def disable_prim() -> None:
    """Turn off Paddle's autodiff by primitive operators (static mode only, as in Paddle); see ``enable_prim``."""
    _static_only("disable_prim")
    _PRIM[0] = False


def prim_enabled() -> bool:
    """Whether ``enable_prim()`` was called last (static mode only, as in Paddle; off by default)."""
    _static_only("prim_enabled")
    return _PRIM[0]


# ---- helpers ----------------------------------------------------------------------------------------
def _as_tuple(xs: Any) -> tuple:
    return (xs,) if isinstance(xs, Tensor) else tuple(xs)


def _check_inputs(func: Any, xs: Any, v: Any = None) -> None:
    if not callable(func):
        raise TypeError(f"Expected 'fun' is Callable, but got {type(func)}.")
    if not isinstance(xs, Tensor | Sequence):
        raise TypeError(f"Expected 'xs' is a Tensor|Sequence[Tensor], but got {type(xs)}.")
    if isinstance(xs, Sequence) and not all(isinstance(x, Tensor) for x in xs):
        raise TypeError("All elements of 'xs' should be Tensor.")
    if not isinstance(v, Tensor | Sequence | type(None)):
        raise TypeError(f"Expected 'v' is Tensor|Sequence[Tensor]|None, but got {type(v)}.")
    if isinstance(v, Sequence) and not all(isinstance(e, Tensor) for e in v):
        raise TypeError("All elements of 'v' should be Tensor.")


def _check_v_shape(v: Any, refs: Any) -> None:
    if v is None:
        return
    v, refs = _as_tuple(v), _as_tuple(refs)
    if len(refs) != len(v):
        raise RuntimeError(f"The argument v is a tuple of invalid length: should be {len(refs)} but got {len(v)}.")
    for i, (e, r) in enumerate(zip(v, refs)):
        if list(e.shape) != list(r.shape):
            raise RuntimeError(f"The v[{i}] has invalid shape: should be {list(r.shape)} but got {list(e.shape)}.")


def _separate_one(x: Tensor | None) -> Tensor | None:
    """``x`` cut off from what it was computed from (a copy on the tape of one that trains, else a detached alias
    that trains), so gradients flow along the paths of ``func`` only."""
    if x is None:
        return None
    if not x.stop_gradient:
        return _P.assign(x)
    y = x.detach()
    y.stop_gradient = False
    return y


def _separate(xs: Any) -> Any:
    if isinstance(xs, Sequence) and not isinstance(xs, Tensor):
        return tuple(_separate_one(x) for x in xs)
    return _separate_one(xs)


def _zeros_for_none(gs: Any, refs: Any) -> Any:
    if gs is None:
        z = _P.zeros_like(refs)
        z.stop_gradient = refs.stop_gradient
        return z
    if isinstance(gs, Sequence) and not isinstance(gs, Tensor):
        return tuple(_zeros_for_none(g, refs[i]) for i, g in enumerate(gs))
    return gs


def _grad(ys: Any, xs: Any, v: Any = None) -> Any:
    """The gradients of ``ys`` (weighted by ``v``, ones where None) with respect to ``xs``: one Tensor for one Tensor
    ``xs``, else a tuple; zeros where ``ys`` does not depend on an input; differentiable again (create_graph)."""
    outs, ins = list(_as_tuple(ys)), list(_as_tuple(xs))
    vs = None if v is None else list(_as_tuple(v))
    if any(getattr(t, "_symbolic", False) for t in outs):  # (Variables of a static program)
        gs = _static_gradients(outs, ins, vs)
    else:
        gs = _paddle_grad(outs, ins, vs, create_graph=True, allow_unused=True)
        for g in gs:  # (as in Paddle, a create_graph gradient trains even where it is a constant of the inputs)
            if g is not None:
                g.stop_gradient = False
    gs = gs[0] if isinstance(xs, Tensor) else tuple(gs)
    return _zeros_for_none(gs, xs)


# ---- vjp and jvp ------------------------------------------------------------------------------------
def vjp(func: Callable[..., Any], xs: Any, v: Any = None) -> tuple[Any, Any]:
    """The vector-Jacobian product of ``func`` at ``xs``: ``(func(xs), v^T J)``.

    ``xs``: a Tensor or a sequence of Tensors (passed as positional arguments); ``v``: a Tensor or sequence shaped
    like ``func``'s outputs (None: ones). The result has one Tensor per input (a single Tensor for a single ``xs``),
    zeros for an input the output does not depend on, and can be differentiated again.

    >>> import pylayer_jax as paddle
    >>> x = paddle.ones([2, 2])
    >>> _, g = paddle.incubate.autograd.vjp(lambda x: paddle.matmul(x, x), x)
    >>> g.tolist()
    [[4.0, 4.0], [4.0, 4.0]]
    """
    _check_inputs(func, xs, v)
    xs, v = _separate(xs), _separate(v)
    ys = func(*xs) if isinstance(xs, tuple) else func(xs)
    _check_v_shape(v, ys)
    return ys, _grad(ys, xs, v)


def _second_order(api: str) -> None:
    if not in_dynamic_mode():
        raise NotImplementedError(
            f"{api}: in a static program it needs the gradient of a recorded gradient, which static programs here do "
            "not differentiate; call it in dynamic mode (paddle.disable_static()), or inside paddle.jit.to_static."
        )


def jvp(func: Callable[..., Any], xs: Any, v: Any = None) -> tuple[Any, Any]:
    """The Jacobian-vector product of ``func`` at ``xs``: ``(func(xs), J v)``, ``v`` shaped like ``xs`` (None:
    ones). Computed as Paddle does in dynamic mode, by differentiating a vjp with respect to its cotangent (dynamic
    mode only: static programs here have no second-order gradients)."""
    _check_inputs(func, xs, v)
    _second_order("jvp")
    xs, v = _separate(xs), _separate(v)
    ys = func(*xs) if isinstance(xs, tuple) else func(xs)
    _check_v_shape(v, xs)
    if isinstance(ys, Sequence) and not isinstance(ys, Tensor):
        ys_grad: Any = []
        for y in ys:
            z = _P.zeros_like(y)
            z.stop_gradient = False
            ys_grad.append(z)
    else:
        ys_grad = _P.zeros_like(ys)
        ys_grad.stop_gradient = False
    xs_grad = _grad(ys, xs, ys_grad)
    return ys, _grad(xs_grad, ys_grad, v)


# ---- Jacobian and Hessian ---------------------------------------------------------------------------
def _multi_index(indexes: Any, shape: Sequence[int]) -> tuple:
    """An index into a Jacobian of ``shape`` as one int or slice per axis, ints and slice ends made non-negative
    (trailing axes filled with ``:``); Ellipsis is not supported, as in Paddle."""
    indexes = indexes if isinstance(indexes, tuple | list) else (indexes,)
    if any(i is Ellipsis for i in indexes):
        raise IndexError("Ellipsis index currently is not supported.")
    if len(indexes) > len(shape):
        raise IndexError(f"too many indices for a Jacobian of {len(shape)} dimensions: {len(indexes)} were given.")
    indexes = tuple(indexes) + (slice(0, None, None),) * (len(shape) - len(indexes))
    out: list[Any] = []
    for i, index in enumerate(indexes):
        if isinstance(index, slice):
            index = slice(index.start or 0, index.stop or shape[i], index.step or 1)
            out.append(slice(index.start + shape[i] if index.start < 0 else index.start,
                             index.stop + shape[i] if index.stop < 0 else index.stop, index.step))
        elif isinstance(index, int) and not isinstance(index, bool):
            out.append(index + shape[i] if index < 0 else index)
        else:
            raise TypeError(f"Not supported index type {index}.")
    return tuple(out)


class _Jacobian:
    """The rows of a flattened Jacobian, each computed (one backward) when first indexed and then kept."""

    _lazy_axis = 0

    def __init__(self, func: Callable[..., Any], xs: Any) -> None:
        self._xs = _separate(xs)
        self._ys = func(*_as_tuple(self._xs))
        self._flatten_xs = self._flatten(_as_tuple(self._xs))
        self._flatten_ys = self._flatten(_as_tuple(self._ys))
        self._cache: dict[int, Tensor] = {}

    @property
    def shape(self) -> tuple[int, ...]:
        raise NotImplementedError

    def _flatten(self, xs: tuple) -> Tensor:
        raise NotImplementedError

    def _evaluate(self, index: int) -> Tensor:
        raise NotImplementedError

    def _cached_evaluate(self, k: int) -> Tensor:
        v = self._cache.get(k)
        if v is None:
            v = self._cache[k] = self._evaluate(k)
        return v

    def __getitem__(self, indexes: Any) -> Tensor:
        indexes = _multi_index(indexes, self.shape)
        ax = self._lazy_axis
        idx = indexes[ax]
        if isinstance(idx, int):
            return self._cached_evaluate(idx)[indexes[:ax] + indexes[ax + 1:]]
        lazy = tuple(range(idx.start, idx.stop, idx.step))
        shape = list(self.shape)
        shape[ax] = len(lazy)
        part = _P.reshape(_P.concat([self._cached_evaluate(i) for i in lazy], axis=ax), shape)
        return part[(*indexes[:ax], slice(0, len(lazy), 1), *indexes[ax + 1:])]


class _JacobianNoBatch(_Jacobian):
    """``f: R^M -> R^N`` (inputs and outputs flattened and joined): an ``[N, M]`` matrix, evaluated by rows."""

    _lazy_axis = 0

    @property
    def shape(self) -> tuple[int, ...]:
        return (self._flatten_ys.shape[0], self._flatten_xs.shape[0])

    def _flatten(self, xs: tuple) -> Tensor:
        return _P.concat([_P.reshape(x, [-1]) for x in xs])

    def _evaluate(self, row: int) -> Tensor:
        return self._flatten(_as_tuple(_grad(self._flatten_ys[row], self._xs)))


class _JacobianBatchFirst(_Jacobian):
    """``f: R^{B, M} -> R^{B, N}`` (the first axis a batch): a ``[B, N, M]`` array, evaluated by its axis 1."""

    _lazy_axis = 1

    @property
    def shape(self) -> tuple[int, ...]:
        return (self._flatten_xs.shape[0], self._flatten_ys.shape[1], self._flatten_xs.shape[1])

    def _flatten(self, xs: tuple) -> Tensor:
        return _P.concat([_P.reshape(x, [x.shape[0], -1]) for x in xs], axis=1)

    def _evaluate(self, row: int) -> Tensor:
        return self._flatten(_as_tuple(_grad(self._flatten_ys[:, row], self._xs)))


class Jacobian:
    """The Jacobian matrix of ``func`` at ``xs``, its rows computed lazily (one backward each) as they are indexed.

    Inputs and outputs are flattened and joined: ``[N, M]`` for ``N`` output and ``M`` input elements, or, with
    ``is_batched`` (the first axis of every input and output a batch), ``[B, N, M]``. Index it like a Tensor with
    ints and slices (``J[:]``, ``J[:, i]``, ``J[i, j]``; not Ellipsis); ``shape`` is the flattened shape.

    >>> import pylayer_jax as paddle
    >>> x = paddle.to_tensor([1.0, 2.0])
    >>> J = paddle.incubate.autograd.Jacobian(lambda x: x * x, x)
    >>> J[:].tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """

    def __init__(self, func: Callable[..., Any], xs: Any, is_batched: bool = False) -> None:
        _check_inputs(func, xs)
        self._jacobian = _JacobianBatchFirst(func, xs) if is_batched else _JacobianNoBatch(func, xs)

    def __getitem__(self, indexes: Any) -> Tensor:
        return self._jacobian[indexes]

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the flattened Jacobian matrix."""
        return self._jacobian.shape


class Hessian:
    """The Hessian matrix of a scalar ``func`` (one element, or one per batch entry with ``is_batched``) at ``xs``:
    the Jacobian of its gradient, lazily evaluated and indexed as ``Jacobian`` (``[M, M]``, or ``[B, M, M]``; dynamic
    mode only: static programs here have no second-order gradients)."""

    def __init__(self, func: Callable[..., Any], xs: Any, is_batched: bool = False) -> None:
        _second_order("Hessian")

        def _jac_func(*xs: Any) -> Tensor:
            jac = Jacobian(func, xs, is_batched=is_batched)
            if (is_batched and jac.shape[1] != 1) or (not is_batched and jac.shape[0] != 1):
                raise RuntimeError("The function given to Hessian should return as single element Tensor or "
                                   "batched single element Tensor.")
            return jac[:, 0, :] if is_batched else jac[0, :]

        self.symbolic = Jacobian(_jac_func, xs, is_batched=is_batched)

    def __getitem__(self, indexes: Any) -> Tensor:
        return self.symbolic[indexes]

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the flattened Hessian matrix."""
        return self.symbolic.shape
