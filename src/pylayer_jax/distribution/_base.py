"""The ``Distribution`` base class and what every distribution shares: turning parameters and values into Tensors
by Paddle's dtype rules, checking sample shapes, and drawing noise from the package's generator (so draws repeat
after ``paddle.seed``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._api import functional as F
from .._api.random import random_key
from .._autograd.grad_mode import enable_grad
from .._ops.table import TABLE
from .._runtime import dtypes as _dtypes
from .._tensor.backward_entry import grad
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, to_tensor

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def dtype_name(t: Tensor) -> str:
    return _dtypes.to_paddle(t.dtype).name


def param(api: str, pname: str, v: Any, dtype: str | None = None) -> Tensor:
    """A parameter as a floating Tensor: a Tensor as it is (an integer one cast to float32), a Python number or a
    list as float32 (as Paddle does), a numpy array in its floating dtype (float32 for other dtypes)."""
    if isinstance(v, Tensor):
        return v if dtype_name(v) in _FLOATS else v.astype("float32")
    if isinstance(v, bool) or not isinstance(v, int | float | np.integer | np.floating | list | tuple | np.ndarray):
        raise TypeError(f"{api}: {pname} must be a float, a list, a numpy.ndarray or a Tensor, but received "
                        f"{type(v).__name__} {v!r}.")
    if isinstance(v, np.ndarray | np.floating) and np.dtype(v.dtype).name in ("float32", "float64"):
        return to_tensor(v)
    try:
        arr = np.asarray(v, dtype=dtype or "float32")
    except (TypeError, ValueError) as e:
        raise TypeError(f"{api}: {pname} must hold numbers, but received {v!r} ({e}).") from None
    return to_tensor(arr)


def all_or_no_tensors(api: str, **params: Any) -> None:
    """Paddle's rule for Normal, Uniform, LogNormal and Gamma: the parameters are all Tensors or none is."""
    kinds = {isinstance(v, Tensor) for v in params.values()}
    if len(kinds) > 1:
        names = ", ".join(f"{k} ({type(v).__name__})" for k, v in params.items())
        raise ValueError(f"{api}: if one parameter is a Tensor, all must be Tensors, but received {names}; pass "
                         f"paddle.to_tensor(...) for the others.")


def broadcast(*ts: Tensor) -> list[Tensor]:
    """The parameters broadcast together, in the dtype of the first (Paddle computes in the first's dtype)."""
    dt = dtype_name(ts[0])
    ts = tuple(t if dtype_name(t) == dt else t.astype(dt) for t in ts)
    if all(tuple(t.shape) == tuple(ts[0].shape) for t in ts):
        return list(ts)
    return F.broadcast_tensors(list(ts))


def value_of(api: str, value: Any, like: Tensor) -> Tensor:
    """The argument of log_prob/prob/cdf as a Tensor in the parameters' dtype (Paddle casts it there; a Python
    number, which Paddle's Normal refuses with an AttributeError, is taken as a Tensor too)."""
    if not isinstance(value, Tensor):
        if isinstance(value, bool) or not isinstance(value, int | float | np.number | list | tuple | np.ndarray):
            raise TypeError(f"{api}: value must be a Tensor (or numbers), but received {type(value).__name__}.")
        return to_tensor(np.asarray(value, dtype=dtype_name(like)))
    return value if dtype_name(value) == dtype_name(like) else value.astype(dtype_name(like))


def sample_shape(api: str, shape: Any, strict: bool = False) -> tuple[int, ...]:
    """``shape`` of sample/rsample as a tuple of ints: a list or tuple of ints (or one int, unless ``strict``:
    the distributions whose Paddle sampler wants a sequence)."""
    if isinstance(shape, int | np.integer) and not isinstance(shape, bool):
        if strict:
            raise TypeError(f"{api}: shape must be a list or tuple of ints, but received int {shape}; pass "
                            f"[{shape}] for {shape} draws.")
        shape = [shape]
    if not isinstance(shape, list | tuple):
        raise TypeError(f"{api}: shape must be a list or tuple of ints, but received {type(shape).__name__} "
                        f"{shape!r}; pass e.g. [4] for 4 draws.")
    out = []
    for s in shape:
        if isinstance(s, bool) or not isinstance(s, int | np.integer) or s < 0:
            raise ValueError(f"{api}: shape must hold non-negative ints, but received {list(shape)!r}.")
        out.append(int(s))
    return tuple(out)


def draw(op: str, *tensors: Any, seed: int = 0, **attrs: Any) -> Tensor:
    """One sampling kernel (``_ops.random``) run with a fresh key from the generator, or, for a non-zero
    ``seed`` (Paddle's ``sample(shape, seed)``), with the key of that seed: a fixed draw."""
    key = jax.random.PRNGKey(seed).astype(jnp.int64) if seed else random_key()
    return apply_op(TABLE[op], (key, *tensors), attrs)


def standard_normal(shape: Sequence[int], dtype: str, seed: int = 0) -> Tensor:
    return draw("random_normal", shape=list(shape), dtype=dtype, seed=seed)


def standard_uniform(shape: Sequence[int], dtype: str, low: float = 0.0, high: float = 1.0, seed: int = 0) -> Tensor:
    return draw("random_uniform", shape=list(shape), dtype=dtype, min=low, max=high, seed=seed)


def op(name: str, *tensors: Any, **attrs: Any) -> Tensor:
    """One table op (those that are not Tensor methods: softplus, log_sigmoid, ...)."""
    return apply_op(TABLE[name], tensors, attrs or None)


def real_param(api: str, pname: str, v: Any) -> Tensor:
    """Paddle's rule for Cauchy, Gumbel and Geometric: a real number (a float32 0-D Tensor) or a Tensor (an
    integer one is cast to float32); a list or a numpy array is refused with a TypeError, as in Paddle."""
    if isinstance(v, Tensor):
        return v if dtype_name(v) in _FLOATS else v.astype("float32")
    if isinstance(v, bool) or not isinstance(v, int | float | np.integer | np.floating):
        raise TypeError(f"{api}: {pname} must be a real number or a Tensor, but received {type(v).__name__} "
                        f"{v!r}; pass paddle.to_tensor({v!r}) for several values.")
    return to_tensor(np.asarray(v, "float32"))


def sum_rightmost(value: Tensor, n: int) -> Tensor:
    """``value`` summed over its last ``n`` axes (itself for ``n <= 0``)."""
    return value.sum(list(range(-n, 0))) if n > 0 else value


def eps(dtype: str) -> float:
    return float(np.finfo(np.float64 if dtype == "float64" else np.float32).eps)


def tiny(dtype: str) -> float:
    return float(np.finfo(np.float64 if dtype == "float64" else np.float32).tiny)


class Distribution:
    """The base of every distribution: its ``batch_shape`` (independent distributions) and ``event_shape`` (the
    shape of one draw), and the methods a subclass defines. ``prob`` is ``exp(log_prob)`` and ``probs`` its alias;
    ``kl_divergence(other)`` looks the pair up in the rules ``register_kl`` made."""

    def __init__(self, batch_shape: Sequence[int] = (), event_shape: Sequence[int] = ()) -> None:
        self._batch_shape = tuple(int(s) for s in batch_shape)
        self._event_shape = tuple(int(s) for s in event_shape)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self._batch_shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        return self._event_shape

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__}.mean is not defined (Paddle defines it neither).")

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__}.variance is not defined (Paddle defines it neither).")

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__}.sample is not defined; a subclass defines it.")

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__}.rsample is not defined: this distribution has no "
                                  f"reparameterised sampler.")

    def entropy(self) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__}.entropy is not defined; a subclass defines it.")

    def log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__}.log_prob is not defined; a subclass defines it.")

    def prob(self, value: Tensor) -> Tensor:
        """The density (or mass) at ``value``: ``exp(log_prob(value))``."""
        return self.log_prob(value).exp()

    def probs(self, value: Tensor) -> Tensor:
        """The same as ``prob``."""
        return self.prob(value)

    def kl_divergence(self, other: Distribution) -> Tensor:
        """``KL(self || other)``, by the rule ``register_kl`` holds for the pair of classes."""
        from ._kl import kl_divergence

        return kl_divergence(self, other)

    def _extend_shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        return tuple(shape) + self._batch_shape + self._event_shape

    def __repr__(self) -> str:
        return f"{type(self).__name__}(batch_shape={list(self._batch_shape)}, event_shape={list(self._event_shape)})"


class ExponentialFamily(Distribution):
    """The base of the distributions of the exponential family, whose density is
    ``exp(<t(x), theta> - F(theta) + k(x))``: a subclass gives its natural parameters ``theta``
    (``_natural_parameters``, a tuple of Tensors), the log normaliser ``F`` (``_log_normalizer(*theta)``) and
    ``E[k(x)]`` (``_mean_carrier_measure``); ``entropy`` is then ``F(theta) - <theta, grad F(theta)> - E[k(x)]``
    (the Bregman form), and ``kl_divergence`` between two distributions of the same such class uses the Bregman
    divergence of ``F``. As in Paddle, the gradient of ``F`` is taken at detached copies of the parameters, so this
    entropy passes no gradient back to them."""

    @property
    def _natural_parameters(self) -> tuple[Tensor, ...]:
        raise NotImplementedError(f"{type(self).__name__}._natural_parameters is not defined; an ExponentialFamily "
                                  f"subclass defines it (a tuple of Tensors).")

    def _log_normalizer(self, *natural: Tensor) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__}._log_normalizer is not defined; an ExponentialFamily "
                                  f"subclass defines it (a function of the natural parameters).")

    @property
    def _mean_carrier_measure(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__}._mean_carrier_measure is not defined; an "
                                  f"ExponentialFamily subclass defines it (E[k(x)], often 0).")

    def _log_normalizer_and_grads(self) -> tuple[list[Tensor], Tensor, list[Tensor]]:
        """Detached copies of the natural parameters, ``F`` at them and its gradients (with their graph)."""
        params = []
        for p in self._natural_parameters:
            p = p.detach()
            p.stop_gradient = False
            params.append(p)
        with enable_grad():
            log_norm = self._log_normalizer(*params)
            grads = grad(log_norm.sum(), params, create_graph=True)
        return params, log_norm, grads

    def entropy(self) -> Tensor:
        params, log_norm, grads = self._log_normalizer_and_grads()
        ent = log_norm - self._mean_carrier_measure
        for p, g in zip(params, grads, strict=True):
            ent = ent - p * g
        return ent
