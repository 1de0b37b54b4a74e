"""``paddle.incubate.optimizer.LookAhead`` and ``ModelAverage`` (layer L8): optimizers that keep a second copy of
the parameters (slow weights, or running sums) beside an ordinary update, with Paddle's arithmetic, accumulator
names and state dicts. Their updates are Tensor ops run without the tape (deferred like any other), and the
parameters are written in place."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..._api import functional as _P
from ..._autograd.grad_mode import no_grad
from ..._tensor.facade import Tensor
from ...optimizer._optimizer import Optimizer
from ...static._mode import in_dynamic_mode


def _dynamic_only(api: str) -> None:
    if not in_dynamic_mode():
        raise NotImplementedError(f"{api}: only dynamic mode is supported here; call paddle.disable_static() first "
                                  "(a static program's optimizer is run by paddle.static's minimize).")


def _trains(p: Tensor) -> bool:
    return getattr(p, "trainable", not p.stop_gradient) and p.grad is not None


class LookAhead(Optimizer):
    """The Lookahead optimizer (https://arxiv.org/abs/1907.08610): ``inner_optimizer`` updates the parameters (the
    fast weights) every step; every ``k`` steps they and the slow weights move to
    ``slow + alpha * (fast - slow)``. As in Paddle, the slow weights are the parameters after the first step.

    >>> import pylayer_jax as paddle
    >>> lin = paddle.nn.Linear(2, 1)
    >>> opt = paddle.incubate.optimizer.LookAhead(paddle.optimizer.SGD(0.1, parameters=lin.parameters()), k=2)
    >>> lin(paddle.ones([1, 2])).sum().backward(); opt.step(); opt.clear_grad()
    """

    def __init__(self, inner_optimizer: Optimizer, alpha: float = 0.5, k: int = 5, name: str | None = None) -> None:
        api = "LookAhead"
        if inner_optimizer is None or not hasattr(inner_optimizer, "step"):
            raise TypeError(f"{api}: inner_optimizer must be an optimizer (it updates the fast weights), but "
                            f"received {type(inner_optimizer).__name__}.")
        if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0.0 <= alpha <= 1.0:
            raise ValueError(f"{api}: alpha should be larger or equal to 0.0, and less or equal than 1.0, but "
                             f"received {alpha!r}.")
        if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
            raise ValueError(f"{api}: k should be a positive integer, but received {k!r}.")
        params = getattr(inner_optimizer, "_parameter_list", None)
        if params is None:
            raise NotImplementedError(f"{api}: the inner optimizer has no parameter list (a static program's "
                                      "optimizer); only dynamic mode is supported here.")
        super().__init__(learning_rate=float(alpha), parameters=params, name=name)
        self.inner_optimizer = inner_optimizer
        self.alpha = float(alpha)
        self.k = k
        self.type = "lookahead"
        self._global_step = 0
        self._slow: dict[int, Tensor] = {}

    def _slow_of(self, p: Tensor) -> Tensor:
        s = self._slow.get(id(p))
        if s is None:
            s = self._slow[id(p)] = _P.zeros_like(p)
        return s

    def _apply_slow(self, params: list[Tensor]) -> None:
        self._global_step += 1
        first, sync = self._global_step == 1, self._global_step % self.k == 0
        with no_grad():
            for p in params:
                slow = _P.assign(p) if first else self._slow_of(p)
                if sync:
                    slow = _P.add(_P.scale(p, self.alpha), _P.scale(slow, 1.0 - self.alpha))
                    p._set_value(slow)
                self._slow[id(p)] = slow
                self._acc_key(p, "slow")

    def step(self) -> None:
        """The inner optimizer's step, then the slow-weight update of the parameters that have gradients."""
        _dynamic_only("LookAhead.step")
        self.inner_optimizer.step()
        self._apply_slow([p for p in self._eager_params("step") if _trains(p)])

    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None,
                 no_grad_set: Any = None) -> Any:
        """The inner optimizer's ``minimize`` (in dynamic mode, the update from the gradients a ``backward()``
        left), then the slow-weight update of the parameters it updated; returns the inner's result."""
        _dynamic_only("LookAhead.minimize")
        ops, params_grads = self.inner_optimizer.minimize(loss, startup_program=startup_program,
                                                          parameters=parameters, no_grad_set=no_grad_set)
        self._apply_slow([p for p, _ in params_grads])
        return ops, params_grads

    def state_dict(self) -> dict[str, Any]:
        """The slow weights, by Paddle's accumulator names (``<param>_slow_0``); the inner optimizer keeps its own."""
        return {self._acc_key(p, "slow"): self._slow[id(p)] for p in self._parameter_list or []
                if id(p) in self._slow}

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load slow weights that ``state_dict()`` returned (matched by the parameters' names)."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"LookAhead.set_state_dict: expected a dict, but received {type(state_dict).__name__}.")
        for p in self._parameter_list or []:
            v = state_dict.get(self._acc_key(p, "slow"))
            if v is not None:
                self._slow[id(p)] = _P.cast(_P.assign(v if isinstance(v, Tensor) else np.asarray(v)), p.dtype)


_MAX_ACCUMULATES = 16384  # Paddle's kernel moves sum_1 into sum_2 every this many updates (precision)
_SUMS = ("sum_1", "sum_2", "sum_3", "restore")
_COUNTS = ("num_accumulates", "old_num_accumulates", "num_updates")


class ModelAverage(Optimizer):
    """Keeps the running average of each parameter over a sliding window of recent steps, for evaluation:
    ``apply()`` swaps the averages in (a context manager; ``restore()`` swaps the trained values back).

    ``step()`` (after the training optimizer's step) adds each parameter with a gradient to its sums; once the
    window holds ``num_accumulates >= min_average_window`` and ``>= min(max_average_window, int(num_updates *
    average_window_rate))`` values, the sums so far become the old window (``sum_3``, ``old_num_accumulates``) and a
    new one starts. The average is ``(sum_1 + sum_2 + sum_3) / (num_accumulates + old_num_accumulates)``.
    """

    def __init__(self, average_window_rate: float, parameters: Any = None, min_average_window: int = 10000,
                 max_average_window: int = 10000, name: str | None = None) -> None:
        api = "ModelAverage"
        _dynamic_only(api)
        if isinstance(average_window_rate, bool) or not isinstance(average_window_rate, int | float):
            raise TypeError(f"{api}: average_window_rate must be a float, but received "
                            f"{type(average_window_rate).__name__}.")
        for what, v in (("min_average_window", min_average_window), ("max_average_window", max_average_window)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"{api}: {what} must be a non-negative int, but received {v!r}.")
        if min_average_window > max_average_window:
            raise ValueError(f"{api}: min_average_window ({min_average_window}) must not exceed max_average_window "
                             f"({max_average_window}).")
        super().__init__(learning_rate=0.0, parameters=parameters, name=name)
        self.average_window = float(average_window_rate)
        self.min_average_window = min_average_window
        self.max_average_window = max_average_window
        self.type = "average_accumulates"
        self._acc: dict[tuple[int, str], Any] = {}  # (id(param), name) -> Tensor (sums) or int (counts)

    def _create(self, p: Tensor) -> None:
        if (id(p), "sum_1") in self._acc:
            return
        for n in _SUMS:
            self._acc[(id(p), n)] = _P.zeros_like(p)
        for n in _COUNTS:
            self._acc[(id(p), n)] = 0
        for n in (*_SUMS, *_COUNTS):
            self._acc_key(p, n)

    def _accumulate(self, p: Tensor) -> None:
        a, i = self._acc, id(p)
        n_upd, n_acc = a[(i, "num_updates")] + 1, a[(i, "num_accumulates")] + 1
        s1, s2, s3 = _P.add(a[(i, "sum_1")], p), a[(i, "sum_2")], a[(i, "sum_3")]
        if n_upd % _MAX_ACCUMULATES == 0:
            s1, s2 = _P.zeros_like(p), _P.add(s2, s1)
        # (Paddle's kernel compares with the window as an int64: the float32 product truncated)
        window = min(self.max_average_window, int(np.float32(n_upd) * np.float32(self.average_window)))
        if n_acc >= self.min_average_window and n_acc >= window:
            s1, s2, s3 = _P.zeros_like(p), _P.zeros_like(p), _P.add(s1, s2)
            a[(i, "old_num_accumulates")], n_acc = n_acc, 0
        a[(i, "sum_1")], a[(i, "sum_2")], a[(i, "sum_3")] = s1, s2, s3
        a[(i, "num_updates")], a[(i, "num_accumulates")] = n_upd, n_acc

    def step(self) -> None:
        """Add each parameter that has a gradient to its running sums (the parameters are not changed)."""
        _dynamic_only("ModelAverage.step")
        params = self._eager_params("step")
        with no_grad():
            for p in params:
                self._create(p)
            for p in params:
                if _trains(p):
                    self._accumulate(p)

    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None,
                 no_grad_set: Any = None) -> None:
        """``step()`` (dynamic mode; ``loss`` and the rest are not read, as in Paddle)."""
        _dynamic_only("ModelAverage.minimize")
        if not isinstance(loss, Tensor):
            raise TypeError(f"ModelAverage.minimize: loss must be a Tensor, but received {type(loss).__name__}.")
        if startup_program is not None or parameters is not None or no_grad_set is not None:
            raise NotImplementedError("ModelAverage.minimize: startup_program, parameters and no_grad_set are for "
                                      "static mode; pass None (the averaged parameters are the optimizer's).")
        self.step()

    @contextlib.contextmanager
    def apply(self, executor: Any = None, need_restore: bool = True) -> Iterator[None]:
        """Within the block the parameters hold their averages; after it, with ``need_restore``, their values
        again (else call ``restore()``)."""
        if executor is not None:
            raise NotImplementedError("ModelAverage.apply: executor is for static mode; pass None.")
        with no_grad():
            for p in self._eager_params("apply"):
                self._create(p)
                i = id(p)
                self._acc[(i, "restore")] = _P.assign(p)
                total = _P.add(_P.add(self._acc[(i, "sum_1")], self._acc[(i, "sum_2")]), self._acc[(i, "sum_3")])
                count = self._acc[(i, "num_accumulates")] + self._acc[(i, "old_num_accumulates")]
                avg = _P.scale(_P.cast(total, "float32"), 1.0 / count if count else float("nan"))
                p._set_value(_P.cast(avg, p.dtype))
        try:
            yield
        finally:
            if need_restore:
                self.restore()

    def restore(self, executor: Any = None) -> None:
        """Put back the parameter values that ``apply()`` saved."""
        if executor is not None:
            raise NotImplementedError("ModelAverage.restore: executor is for static mode; pass None.")
        with no_grad():
            for p in self._eager_params("restore"):
                saved = self._acc.get((id(p), "restore"))
                if saved is not None:
                    p._set_value(saved)

    def state_dict(self) -> dict[str, Any]:
        """The sums and counters (int64 ``[1]``) of each parameter, by Paddle's accumulator names."""
        out: dict[str, Any] = {}
        for p in self._parameter_list or []:
            if (id(p), "sum_1") not in self._acc:
                continue
            for n in _SUMS:
                out[self._acc_key(p, n)] = self._acc[(id(p), n)]
            for n in _COUNTS:
                out[self._acc_key(p, n)] = Tensor(np.array([self._acc[(id(p), n)]], np.int64))
        return out

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load what ``state_dict()`` returned (matched by the parameters' names)."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"ModelAverage.set_state_dict: expected a dict, but received "
                            f"{type(state_dict).__name__}.")
        for p in self._parameter_list or []:
            keys = {n: self._acc_key(p, n) for n in (*_SUMS, *_COUNTS)}
            if not all(k in state_dict for k in keys.values()):
                continue
            self._create(p)
            for n in _SUMS:
                v = state_dict[keys[n]]
                self._acc[(id(p), n)] = _P.cast(_P.assign(v if isinstance(v, Tensor) else np.asarray(v)), p.dtype)
            for n in _COUNTS:
                v = state_dict[keys[n]]
                self._acc[(id(p), n)] = int(np.asarray(v.numpy() if isinstance(v, Tensor) else v).reshape(-1)[0])
