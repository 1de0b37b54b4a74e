"""The optimizer classes: each a thin class naming its settings and its optax chain.

Layer L5. A chain reads: regularizer (``decay_transform``), the rule, then ``scale(-lr)``.
Paddle's rules that differ from optax's are the small transformations of ``_transforms``.
"""

from __future__ import annotations

from typing import Any

import optax

from .._tensor.facade import Tensor
from . import _transforms as T
from ._optimizer import Optimizer, _check_float, is_scheduler
from ._regularizer import decay_transform


def _check_bool(api: str, name: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise TypeError(f"{api}: {name} must be a bool, but received {type(v).__name__} ({v!r}).")
    return v


def _not_supported(api: str, name: str, value: Any, default: Any) -> None:
    if value != default:
        raise NotImplementedError(f"{api}: {name}={value!r} is not supported; leave it at {default!r}.")


class SGD(Optimizer):
    """Stochastic gradient descent: ``param -= learning_rate * grad``.

    Example::

        opt = pylayer_jax.optimizer.SGD(learning_rate=0.1, parameters=[w], weight_decay=0.01)
        loss.backward(); opt.step(); opt.clear_grad()
    """

    _COMPLEX_OK = True  # (linear in the gradient; Paddle's sgd has no complex kernel, this one descends)

    def __init__(self, learning_rate: Any = 0.001, parameters: Any = None, weight_decay: Any = None,
                 grad_clip: Any = None, multi_precision: bool = False, name: str | None = None) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, multi_precision)

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        return optax.chain(decay_transform(reg), optax.scale(-lr))


class Momentum(Optimizer):
    """Momentum: ``v = momentum * v + g``; ``p -= lr * v`` (Nesterov: ``p -= lr * (g + momentum * v)``).

    ``rescale_grad`` scales the gradient first; an L2 decay is added after that scaling, as Paddle does.
    """

    _COMPLEX_OK = True  # (linear in the gradient, as SGD)

    _FLAT = True
    _HYPER = ("momentum", "use_nesterov", "rescale_grad")
    _STATE = "momentum"

    def __init__(self, learning_rate: Any = 0.001, momentum: float = 0.9, parameters: Any = None,
                 use_nesterov: bool = False, weight_decay: Any = None, grad_clip: Any = None,
                 multi_precision: bool = False, rescale_grad: float = 1.0, use_multi_tensor: bool = False,
                 name: str | None = None) -> None:
        api = type(self).__name__
        self._momentum = _check_float(api, "momentum", momentum)
        self._use_nesterov = _check_bool(api, "use_nesterov", use_nesterov)
        self._rescale_grad = _check_float(api, "rescale_grad", rescale_grad)
        _check_bool(api, "use_multi_tensor", use_multi_tensor)  # one fused update either way
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, multi_precision)

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        rescale = optax.scale(h["rescale_grad"]) if h["rescale_grad"] != 1.0 else optax.identity()
        l2_first = reg is not None and reg[0] == "l1"
        return optax.chain(
            decay_transform(reg) if l2_first else optax.identity(),
            rescale,
            optax.identity() if l2_first else decay_transform(reg),
            optax.trace(decay=h["momentum"], nesterov=h["use_nesterov"]),
            optax.scale(-lr),
        )


class _AdamBase(Optimizer):
    _HYPER = ("beta1", "beta2", "epsilon", "amsgrad")
    _TENSOR_BETAS = False  # Adam and AdamW: beta1, beta2 and epsilon may be one-element Tensors, as in Paddle

    def _set_betas(self, beta1: Any, beta2: Any, epsilon: Any, amsgrad: bool = False) -> None:
        api = type(self).__name__
        self._hyper_tensors: dict[str, Tensor] = {}
        self._hyper_seen: tuple[float, ...] | None = None
        for n, v in (("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)):
            if isinstance(v, Tensor) and self._TENSOR_BETAS:
                if v.size != 1:
                    raise ValueError(f"{api}: {n} given as a Tensor must hold one value, but received shape "
                                     f"{list(v.shape)}; pass a float or a Tensor of shape [1].")
                self._hyper_tensors[n] = v
                v = float(v.numpy().ravel()[0])
            setattr(self, "_" + n, _check_float(api, n, v))
        for n, v in (("beta1", self._beta1), ("beta2", self._beta2)):
            if not 0.0 <= v < 1.0:
                raise ValueError(f"{api}: {n} must be in [0, 1), but received {v}.")
        if self._epsilon < 0:
            raise ValueError(f"{api}: epsilon must be non-negative, but received {self._epsilon}.")
        self._amsgrad = _check_bool(api, "amsgrad", amsgrad)

    def _defaults(self) -> dict[str, Any]:
        d = super()._defaults()
        # Paddle reads a Tensor beta1/beta2/epsilon at every step: a value set into it later is used from then on
        d.update({n: float(t.numpy().ravel()[0]) for n, t in self._hyper_tensors.items()})
        return d

    def _step_params(self, params: list[Any]) -> None:
        if self._hyper_tensors:
            now = tuple(float(t.numpy().ravel()[0]) for t in self._hyper_tensors.values())
            if now != self._hyper_seen:
                if self._hyper_seen is not None:  # a new value in a Tensor setting: the update is made anew
                    self._unpack()
                    self._key_cache = None
                    self._fast = None
                self._hyper_seen = now
        super()._step_params(params)

    def _state_names(self) -> tuple[str, ...]:
        return T.NAMES["adam_ams" if self._amsgrad else "adam"]


def _sparse_adam(h: dict[str, Any], lr: Any, p: Any, g: Any, state: tuple, looked: Any,
                 lazy_mode: bool) -> tuple[Any, tuple]:
    """``T.paddle_sparse_adam`` on the Adam part of a chain's state (its second: after the regularizer's)."""
    new_p, adam = T.paddle_sparse_adam(h["beta1"], h["beta2"], h["epsilon"], h["amsgrad"], lr, p, g, state[1], looked,
                                       lazy_mode)
    return new_p, (state[0], adam, *state[2:])


class Adam(_AdamBase):
    """Adam as Paddle computes it (bias correction folded into the step size).

    A sparse gradient (a table looked up by ``Embedding(sparse=True)`` / ``F.embedding(sparse=True)``: Paddle's
    SelectedRows, dense here with its rows beside it, see ``nn._sparse_rows``) is updated as Paddle's CPU kernel
    for it does. ``lazy_mode=True`` updates only the rows looked up since the gradient was last cleared: the other
    rows keep their value and moments. With ``lazy_mode=False`` every row moves, the others by their decayed
    moments (epsilon not scaled by ``sqrt(1 - beta2^t)`` there; Paddle's kernel reads past the end of the rows
    looked up for the rows after the last of them, so its values there change from run to run: here they move as
    the other rows not looked up). Either way the kernel advances the beta powers
    before it reads them: step ``t`` is bias-corrected by ``beta ** (t + 1)`` (the powers kept in the state are
    Paddle's). ``weight_decay`` with a sparse gradient raises ``RuntimeError``, as in Paddle; a regularizer of the
    parameter itself (``ParamAttr(regularizer=...)``) makes Paddle's gradient dense, and so does a dense use of the
    table besides its lookups (told here by a gradient that is not zero on a row not looked up): the dense rule
    updates it then. ``grad_clip=ClipGradByValue`` cannot clip a sparse gradient (Paddle's kernel fails):
    ``NotImplementedError``. A step with a sparse gradient is not replayed (``_step_sparse``). ``use_multi_tensor``
    only changes how the update is launched: every parameter is updated by one compiled call either way.
    """

    _FLAT = True
    _SPARSE_ROWS = True
    _TENSOR_BETAS = True

    def __init__(self, learning_rate: Any = 0.001, beta1: Any = 0.9, beta2: Any = 0.999, epsilon: Any = 1e-8,
                 parameters: Any = None, weight_decay: Any = None, grad_clip: Any = None, lazy_mode: bool = False,
                 multi_precision: bool = False, use_multi_tensor: bool = False, amsgrad: bool = False,
                 name: str | None = None) -> None:
        api = type(self).__name__
        self._set_betas(beta1, beta2, epsilon, amsgrad)
        self._lazy_mode = _check_bool(api, "lazy_mode", lazy_mode)
        _check_bool(api, "use_multi_tensor", use_multi_tensor)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, multi_precision)

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        return optax.chain(decay_transform(reg),
                           T.paddle_adam(h["beta1"], h["beta2"], h["epsilon"], h["amsgrad"]), optax.scale(-lr))

    @classmethod
    def _sparse_update(cls, h: dict[str, Any], lr: Any, p: Any, g: Any, state: Any, looked: Any,
                       lazy_mode: bool) -> tuple[Any, Any]:
        return _sparse_adam(h, lr, p, g, state, looked, lazy_mode)


class AdamW(_AdamBase):
    """AdamW: Adam plus decoupled weight decay ``p -= lr * weight_decay * p`` (optax's ``add_decayed_weights``).

    ``lr_ratio(param)`` scales a parameter's learning rate; ``apply_decay_param_fun(name)`` picks the
    parameters that decay.

    A sparse gradient (``Embedding(sparse=True)``) is updated as Paddle's CPU sparse AdamW kernel defines it: every
    row decays, then ``Adam``'s update of a sparse gradient (``lazy_mode=True``: only the rows looked up; see
    ``Adam``). Deliberate difference: Paddle 3.3.1's CPU build fails on this case (its ``adamw_`` call ends with an
    ``OSError`` or a crash), so these values follow its kernel's definition rather than a run; and ``lr_ratio`` scales
    the whole update here, where that kernel applies it to the decay only.
    """

    _FLAT = True
    _SPARSE_ROWS = True
    _HYPER = ("beta1", "beta2", "epsilon", "amsgrad", "weight_decay")
    _REGULARIZED = False
    _TENSOR_BETAS = True

    def __init__(self, learning_rate: Any = 0.001, beta1: Any = 0.9, beta2: Any = 0.999, epsilon: Any = 1e-8,
                 parameters: Any = None, weight_decay: float = 0.01, use_lowprecision_moment: bool = False,
                 lr_ratio: Any = None, apply_decay_param_fun: Any = None, grad_clip: Any = None,
                 lazy_mode: bool = False, multi_precision: bool = False, amsgrad: bool = False,
                 name: str | None = None) -> None:
        api = type(self).__name__
        self._set_betas(beta1, beta2, epsilon, amsgrad)
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, int | float):
            raise TypeError(
                f"{api}: weight_decay should be a float (the decoupled decay coefficient), but received "
                f"{type(weight_decay).__name__}; regularizer objects belong to the other optimizers."
            )
        self._weight_decay_coeff = float(weight_decay)
        for n, f in (("lr_ratio", lr_ratio), ("apply_decay_param_fun", apply_decay_param_fun)):
            if f is not None and not callable(f):
                raise TypeError(f"{api}: {n} must be callable or None, but received {type(f).__name__}.")
        self._lr_ratio_fn, self._apply_decay_param_fun = lr_ratio, apply_decay_param_fun
        self._lazy_mode = _check_bool(api, "lazy_mode", lazy_mode)
        _not_supported(api, "use_lowprecision_moment", use_lowprecision_moment, False)
        super().__init__(learning_rate, parameters, None, grad_clip, name, multi_precision)

    def _defaults(self) -> dict[str, Any]:
        d = {k: getattr(self, "_" + k) for k in self._HYPER if k != "weight_decay"}
        d.update({n: float(t.numpy().ravel()[0]) for n, t in self._hyper_tensors.items()})
        d["weight_decay"] = self._weight_decay_coeff
        return d

    def _param_hyper(self, p: Any, h: dict[str, Any]) -> dict[str, Any]:
        if self._apply_decay_param_fun is not None and not self._apply_decay_param_fun(p.name):
            h["weight_decay"] = 0.0
        return h

    def _lr_ratio(self, p: Any) -> float:
        return 1.0 if self._lr_ratio_fn is None else float(self._lr_ratio_fn(p))

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        return optax.chain(decay_transform(reg), T.paddle_adam(h["beta1"], h["beta2"], h["epsilon"], h["amsgrad"]),
                           optax.add_decayed_weights(h["weight_decay"]), optax.scale(-lr))

    @classmethod
    def _sparse_update(cls, h: dict[str, Any], lr: Any, p: Any, g: Any, state: Any, looked: Any,
                       lazy_mode: bool) -> tuple[Any, Any]:
        p = p - lr * T._c(h["weight_decay"], p) * p  # every row, before the update reads the parameter
        return _sparse_adam(h, lr, p, g, state, looked, lazy_mode)


class Adamax(_AdamBase):
    """Adamax (Adam with the infinity norm)."""

    _FLAT = True
    _HYPER = ("beta1", "beta2", "epsilon")
    _SPARSE_OK = False  # (Paddle has no update of a sparse gradient: it fails on one)
    _STATE = "adamax"

    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 parameters: Any = None, weight_decay: Any = None, grad_clip: Any = None,
                 name: str | None = None) -> None:
        self._set_betas(beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _state_names(self) -> tuple[str, ...]:
        return T.NAMES["adamax"]

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        return optax.chain(decay_transform(reg), T.paddle_adamax(h["beta1"], h["beta2"], h["epsilon"]),
                           optax.scale(-lr))


class Adagrad(Optimizer):
    """Adagrad: ``moment += g^2``; ``p -= lr * g / (sqrt(moment) + epsilon)``."""

    _FLAT = True
    _HYPER = ("epsilon", "initial_accumulator_value")
    _STATE = "adagrad"

    def __init__(self, learning_rate: Any, epsilon: float = 1e-6, parameters: Any = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None, initial_accumulator_value: float = 0.0) -> None:
        api = type(self).__name__
        self._epsilon = _check_float(api, "epsilon", epsilon)
        self._initial_accumulator_value = _check_float(api, "initial_accumulator_value", initial_accumulator_value)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        return optax.chain(decay_transform(reg), T.paddle_adagrad(h["epsilon"], h["initial_accumulator_value"]),
                           optax.scale(-lr))


class Adadelta(Optimizer):
    """Adadelta, with Paddle's ``param += learning_rate * update``."""

    _FLAT = True
    _HYPER = ("epsilon", "rho")
    _SPARSE_OK = False  # (Paddle has no update of a sparse gradient: it fails on one)
    _STATE = "adadelta"

    def __init__(self, learning_rate: Any = 0.001, epsilon: float = 1e-6, rho: float = 0.95, parameters: Any = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: str | None = None) -> None:
        api = type(self).__name__
        self._epsilon = _check_float(api, "epsilon", epsilon)
        self._rho = _check_float(api, "rho", rho)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        return optax.chain(decay_transform(reg), T.paddle_adadelta(h["rho"], h["epsilon"]), optax.scale(-lr))


class RMSProp(Optimizer):
    """RMSProp (optionally centered, with momentum) as Paddle computes it."""

    _FLAT = True
    _HYPER = ("rho", "epsilon", "momentum", "centered")
    _STATE = "rmsprop"

    def __init__(self, learning_rate: Any, rho: float = 0.95, epsilon: float = 1e-6, momentum: float = 0.0,
                 centered: bool = False, parameters: Any = None, weight_decay: Any = None, grad_clip: Any = None,
                 name: str | None = None) -> None:
        api = type(self).__name__
        self._rho = _check_float(api, "rho", rho)
        self._epsilon = _check_float(api, "epsilon", epsilon)
        self._momentum = _check_float(api, "momentum", momentum)
        self._centered = _check_bool(api, "centered", centered)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        return optax.chain(decay_transform(reg),
                           T.paddle_rmsprop(h["rho"], h["epsilon"], h["momentum"], h["centered"], lr))


class Lamb(_AdamBase):
    """Lamb: Adam's direction plus ``lamb_weight_decay * p``, scaled by the layer-wise trust ratio."""

    _HYPER = ("beta1", "beta2", "epsilon", "lamb_weight_decay", "always_adapt")
    _REGULARIZED = False

    def __init__(self, learning_rate: Any = 0.001, lamb_weight_decay: float = 0.01, beta1: float = 0.9,
                 beta2: float = 0.999, epsilon: float = 1e-6, parameters: Any = None, grad_clip: Any = None,
                 exclude_from_weight_decay_fn: Any = None, multi_precision: bool = False, always_adapt: bool = False,
                 name: str | None = None) -> None:
        api = type(self).__name__
        self._set_betas(beta1, beta2, epsilon)
        self._lamb_weight_decay = _check_float(api, "lamb_weight_decay", lamb_weight_decay)
        self._always_adapt = _check_bool(api, "always_adapt", always_adapt)
        if exclude_from_weight_decay_fn is not None and not callable(exclude_from_weight_decay_fn):
            raise TypeError(f"{api}: exclude_from_weight_decay_fn must be callable or None.")
        self._exclude = exclude_from_weight_decay_fn
        super().__init__(learning_rate, parameters, None, grad_clip, name, multi_precision)

    def _param_hyper(self, p: Any, h: dict[str, Any]) -> dict[str, Any]:
        if self._exclude is not None and self._exclude(p):
            h["lamb_weight_decay"] = 0.0
        return h

    def _state_names(self) -> tuple[str, ...]:
        return T.NAMES["lamb"]

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        return optax.chain(decay_transform(reg), T.paddle_lamb(h["beta1"], h["beta2"], h["epsilon"],
                                                               h["lamb_weight_decay"], h["always_adapt"]),
                           optax.scale(-lr))


class NAdam(_AdamBase):
    """NAdam (Adam with Nesterov momentum and momentum decay)."""

    _FLAT = True
    _HYPER = ("beta1", "beta2", "epsilon", "momentum_decay")
    _SPARSE_OK = False  # (Paddle has no update of a sparse gradient: it fails on one)

    def __init__(self, learning_rate: Any = 0.002, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 momentum_decay: float = 0.004, parameters: Any = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        self._set_betas(beta1, beta2, epsilon)
        self._momentum_decay = _check_float(type(self).__name__, "momentum_decay", momentum_decay)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _state_names(self) -> tuple[str, ...]:
        return T.NAMES["nadam"]

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        return optax.chain(decay_transform(reg),
                           T.paddle_nadam(h["beta1"], h["beta2"], h["epsilon"], h["momentum_decay"]),
                           optax.scale(-lr))


class RAdam(_AdamBase):
    """RAdam (rectified Adam)."""

    _FLAT = True
    _HYPER = ("beta1", "beta2", "epsilon")
    _SPARSE_OK = False  # (Paddle has no update of a sparse gradient: it fails on one)

    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 parameters: Any = None, weight_decay: Any = None, grad_clip: Any = None,
                 name: str | None = None) -> None:
        self._set_betas(beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _state_names(self) -> tuple[str, ...]:
        return T.NAMES["radam"]

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        return optax.chain(decay_transform(reg), T.paddle_radam(h["beta1"], h["beta2"], h["epsilon"]),
                           optax.scale(-lr))


class ASGD(Optimizer):
    """Averaged SGD over the last ``batch_num`` gradients."""

    _HYPER = ("batch_num",)
    _SPARSE_OK = False  # (Paddle has no update of a sparse gradient: it fails on one)
    _STATE = "asgd"

    def __init__(self, learning_rate: Any = 0.001, batch_num: int = 1, parameters: Any = None,
                 weight_decay: Any = None, grad_clip: Any = None, multi_precision: bool = False,
                 name: str | None = None) -> None:
        if isinstance(batch_num, bool) or not isinstance(batch_num, int):
            raise TypeError(f"ASGD: batch_num must be an int, but received {type(batch_num).__name__}.")
        if batch_num < 1:
            raise ValueError(f"ASGD: batch_num must be at least 1, but received {batch_num}.")
        self._batch_num = batch_num
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, multi_precision)

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        return optax.chain(decay_transform(reg), T.paddle_asgd(h["batch_num"]), optax.scale(-lr))


class Rprop(Optimizer):
    """Rprop: per-element step sizes, starting at ``learning_rate``, adapted by the gradient's sign."""

    _FLAT = True
    _HYPER = ("initial_lr", "learning_rate_range", "etas")
    _STATE = "rprop"
    _REGULARIZED = False

    def __init__(self, learning_rate: Any = 0.001, learning_rate_range: tuple[float, float] = (1e-5, 50),
                 parameters: Any = None, etas: tuple[float, float] = (0.5, 1.2), grad_clip: Any = None,
                 multi_precision: bool = False, name: str | None = None) -> None:
        api = type(self).__name__
        if is_scheduler(learning_rate):
            raise TypeError(
                "Rprop: learning_rate is the initial per-element step size and must be a float; an LRScheduler "
                "cannot drive it."
            )
        for n, pair in (("learning_rate_range", learning_rate_range), ("etas", etas)):
            if not (isinstance(pair, tuple | list) and len(pair) == 2):
                raise TypeError(f"{api}: {n} must be a pair (low, high), but received {pair!r}.")
        self._learning_rate_range = tuple(_check_float(api, "learning_rate_range", v) for v in learning_rate_range)
        self._etas = tuple(_check_float(api, "etas", v) for v in etas)
        super().__init__(learning_rate, parameters, None, grad_clip, name, multi_precision)
        self._initial_lr = self._learning_rate

    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        lo, hi = h["learning_rate_range"]
        neg, pos = h["etas"]
        return optax.chain(decay_transform(reg), T.paddle_rprop(h["initial_lr"], lo, hi, neg, pos))
