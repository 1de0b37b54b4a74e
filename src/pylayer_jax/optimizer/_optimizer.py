"""Optimizers: one pure update rule each, used eagerly (``step``) and by static programs.

Layer L5. An optimizer describes its per-parameter state (``state_spec``) and its
update as a pure jax function ``update(param, grad, state, lr) -> (param, state)``.
Eagerly, ``step()`` applies it to every parameter with a gradient in one cached jitted
call. In static mode ``minimize(loss)`` is handled by the static package, which
registers itself in ``STATIC_MINIMIZE`` (this layer cannot import it): it appends the
backward pass and an update operator, with the state kept in the scope.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp

from .. import _lazy as lazy
from .._tensor import Tensor, before_write

# set by pylayer_jax.static: minimize(optimizer, loss, startup_program, parameters, no_grad_set)
STATIC_MINIMIZE: list[Callable[..., Any]] = []


_STEP_KERNELS: dict[Any, Any] = {}


def _update_with(cls: type, hyper: tuple, params: list[Any], grads: list[Any], states: list[tuple[Any, ...]],
                 lr: Any) -> tuple[list[Any], list[tuple[Any, ...]]]:
    """``cls``'s update rule applied with the settings ``hyper``, traced once per (class, settings)."""
    rule = cls.__new__(cls)
    for k, v in hyper:
        setattr(rule, k, v)
    return rule._update_many(params, grads, states, lr)


class Optimizer:
    """Base class: ``learning_rate``, ``parameters`` (Tensors to update eagerly), ``step``, ``clear_grad``."""

    def __init__(
        self,
        learning_rate: float = 0.001,
        parameters: Sequence[Any] | None = None,
        weight_decay: Any = None,
        grad_clip: Any = None,
        name: str | None = None,
    ) -> None:
        if not isinstance(learning_rate, int | float) or isinstance(learning_rate, bool):
            raise TypeError(
                f"{type(self).__name__}: learning_rate must be a float, but received {type(learning_rate).__name__}."
            )
        self._learning_rate = float(learning_rate)
        self._parameter_list = list(parameters) if parameters is not None else None
        self._accumulators: dict[int, tuple[Any, ...]] = {}
        self._step_kernel: Any = None

    # ---- the rule ---------------------------------------------------------------------
    def state_spec(self, shape: Sequence[int], dtype: Any) -> list[tuple[str, list[int], Any, float]]:
        """Per-parameter state: (name suffix, shape, dtype, initial fill value) each."""
        return []

    def update(self, param: Any, grad: Any, state: tuple[Any, ...], lr: Any) -> tuple[Any, tuple[Any, ...]]:
        raise NotImplementedError

    def init_state(self, param: Any) -> tuple[Any, ...]:
        return tuple(jnp.full(s, fill, dt) for _, s, dt, fill in self.state_spec(param.shape, param.dtype))

    def _update_many(
        self, params: list[Any], grads: list[Any], states: list[tuple[Any, ...]], lr: Any
    ) -> tuple[list[Any], list[tuple[Any, ...]]]:
        outs = [self.update(p, g, s, lr) for p, g, s in zip(params, grads, states)]
        return [o[0] for o in outs], [o[1] for o in outs]

    def _hyper(self) -> tuple[tuple[str, Any], ...]:
        """The rule's scalar settings (beta1, epsilon, ...): with the class they define the update."""
        return tuple(sorted(
            (k, v) for k, v in vars(self).items()
            if k != "_learning_rate" and (v is None or type(v) in (bool, int, float, str))
        ))

    def _kernel(self) -> Any:
        """The jitted update, shared by optimizers of one class and settings; it holds no optimizer or
        parameter (caches of recorded calls keep kernels, and must not keep a model alive)."""
        if self._step_kernel is None:
            key = (type(self), self._hyper())
            k = _STEP_KERNELS.get(key)
            if k is None:
                k = _STEP_KERNELS[key] = jax.jit(functools.partial(_update_with, *key))
            self._step_kernel = k
        return self._step_kernel

    # ---- learning rate ----------------------------------------------------------------
    def get_lr(self) -> float:
        return self._learning_rate

    def set_lr(self, value: float) -> None:
        self._learning_rate = float(value)

    # ---- eager ------------------------------------------------------------------------
    def _eager_params(self, api: str) -> list[Tensor]:
        if self._parameter_list is None:
            raise ValueError(
                f"{type(self).__name__}.{api}: in dynamic mode the optimizer needs parameters=[...] "
                "(the Tensors to update) when it is created."
            )
        return self._parameter_list

    def step(self) -> None:
        """Update every parameter that has a gradient (dynamic mode)."""
        todo = [p for p in self._eager_params("step") if not p.stop_gradient and p.grad is not None]
        if not todo:
            return
        before_write()  # the parameters are rebound below
        states = []
        for p in todo:
            st = self._accumulators.get(id(p))
            if st is None:
                st = self.init_state(p._value)
            states.append(st)
        # recorded like any op: the update joins the next step's program
        new_p, new_s = lazy.call_tree(
            self._kernel(), [p._v for p in todo], [p.grad._v for p in todo], states, self._learning_rate
        )
        for p, v, s in zip(todo, new_p, new_s):
            p._v = v
            self._accumulators[id(p)] = s

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Reset the gradients of the parameters (dynamic mode)."""
        for p in self._eager_params("clear_grad"):
            p.clear_grad(set_to_zero)

    clear_gradients = clear_grad

    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None, no_grad_set: Any = None) -> Any:
        """Static mode: append the backward pass and the update; dynamic mode: backward() then step()."""
        if getattr(loss, "_symbolic", False):
            if not STATIC_MINIMIZE:
                raise RuntimeError("minimize: static programs are not available (pylayer_jax.static not imported).")
            return STATIC_MINIMIZE[0](self, loss, startup_program, parameters, no_grad_set)
        loss.backward()
        self.step()
        return None


class SGD(Optimizer):
    """``param -= learning_rate * grad``."""

    def update(self, param: Any, grad: Any, state: tuple[Any, ...], lr: Any) -> tuple[Any, tuple[Any, ...]]:
        return (param - lr * grad).astype(param.dtype), state


class Adam(Optimizer):
    """Adam as Paddle computes it (bias correction folded into the learning rate)."""

    def __init__(
        self,
        learning_rate: float = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        parameters: Sequence[Any] | None = None,
        weight_decay: Any = None,
        grad_clip: Any = None,
        lazy_mode: bool = False,
        multi_precision: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = float(beta1), float(beta2), float(epsilon)

    def state_spec(self, shape: Sequence[int], dtype: Any) -> list[tuple[str, list[int], Any, float]]:
        return [
            ("moment1_0", list(shape), dtype, 0.0),
            ("moment2_0", list(shape), dtype, 0.0),
            ("beta1_pow_acc_0", [1], dtype, self._beta1),
            ("beta2_pow_acc_0", [1], dtype, self._beta2),
        ]

    def update(self, param: Any, grad: Any, state: tuple[Any, ...], lr: Any) -> tuple[Any, tuple[Any, ...]]:
        m1, m2, b1p, b2p = state
        b1, b2 = self._beta1, self._beta2
        m1 = b1 * m1 + (1 - b1) * grad
        m2 = b2 * m2 + (1 - b2) * grad * grad
        lr_t = lr * jnp.sqrt(1 - b2p) / (1 - b1p)
        new = param - lr_t * (m1 / (jnp.sqrt(m2) + self._epsilon * jnp.sqrt(1 - b2p)))
        return new.astype(param.dtype), (m1, m2, b1p * b1, b2p * b2)
