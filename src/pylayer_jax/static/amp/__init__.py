"""``paddle.static.amp``: mixed precision for static programs (layer L6).

Mixed precision is off here, as Paddle 3.3.1 runs it on a CPU place: ``decorate`` returns an
optimizer whose ``minimize`` trains the program in its own precision (Paddle on a CPU place casts
no operator, since none of its white list has a float16 CPU kernel, and its loss scaling by a power
of two cancels exactly). What would cast the program to half precision (level 'O2',
``use_pure_fp16``, ``use_bf16``, ``cast_model_to_fp16``) raises ``NotImplementedError``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from .._framework import make_state
from .._init import Constant
from .._program import default_main_program, default_startup_program, unique_name

_WHITE = ("conv2d", "einsum", "matmul", "matmul_v2", "mul", "linear_v2", "flash_attn", "max_pool2d_with_index")
_BLACK = ("exp", "square", "log", "mean", "sum", "softmax", "softmax_with_cross_entropy", "sigmoid_cross_entropy_with_logits",
          "c_softmax_with_cross_entropy", "cross_entropy", "cross_entropy2", "reduce_sum", "reduce_mean")
_OFF = ("mixed precision is off here, as Paddle 3.3.1 runs it on a CPU place; programs train in their own "
        "precision (float32)")


class AutoMixedPrecisionLists:
    """Which operators would run in half precision (``white_list``), stay in float32 (``black_list``) or follow
    their inputs (``gray_list``), with the custom additions; kept for reference, as nothing is cast here."""

    def __init__(self, custom_white_list: Any = None, custom_black_list: Any = None,
                 custom_black_varnames: Any = None, dtype: str = "float16") -> None:
        if dtype not in ("float16", "bfloat16"):
            raise ValueError(f"paddle.static.amp.AutoMixedPrecisionLists: dtype must be 'float16' or 'bfloat16', but "
                             f"received {dtype!r}.")
        white, black = set(custom_white_list or ()), set(custom_black_list or ())
        both = white & black
        if both:
            raise ValueError(f"paddle.static.amp.AutoMixedPrecisionLists: {sorted(both)} are in both the custom white "
                             "and black lists.")
        self.amp_dtype = dtype
        self.white_list = (set(_WHITE) - black) | white
        self.black_list = (set(_BLACK) - white) | black
        self.gray_list: set[str] = set()
        self.black_varnames = set(custom_black_varnames or ())
        self.unsupported_list: set[str] = set()
        self.all_list = self.white_list | self.black_list | self.gray_list


CustomOpLists = AutoMixedPrecisionLists


@contextlib.contextmanager
def fp16_guard() -> Iterator[None]:
    """Mark the ops built inside as eligible for float16 (with ``use_fp16_guard``): nothing is cast here."""
    yield


class OptimizerWithMixedPrecision:
    """What ``decorate`` returns: the optimizer, with Paddle's loss-scaling interface."""

    def __init__(self, optimizer: Any, amp_lists: AutoMixedPrecisionLists, init_loss_scaling: float) -> None:
        self._optimizer = optimizer
        self._amp_lists = amp_lists
        self._init_loss_scaling = float(init_loss_scaling)
        self._loss_scaling: Any = None
        self._scaled_loss: Any = None

    def get_loss_scaling(self) -> Any:
        """The loss-scaling Variable (``init_loss_scaling``; it stays constant, nothing overflows in float32)."""
        if self._loss_scaling is None:
            self._loss_scaling = make_state(default_main_program(), default_startup_program(),
                                            unique_name("loss_scaling"), [1], "float32",
                                            Constant(self._init_loss_scaling))
        return self._loss_scaling

    def get_scaled_loss(self) -> Any:
        """The loss times the loss scaling (after ``minimize``/``backward``)."""
        return self._scaled_loss

    def backward(self, loss: Any, startup_program: Any = None, parameter_list: Any = None, no_grad_set: Any = None,
                 callbacks: Any = None) -> Any:
        self._scaled_loss = loss * self.get_loss_scaling()
        return self._optimizer.backward(loss, startup_program, parameter_list, no_grad_set, callbacks)

    def apply_gradients(self, params_grads: Any) -> Any:
        return self._optimizer.apply_gradients(params_grads)

    def apply_optimize(self, loss: Any, startup_program: Any, params_grads: Any) -> Any:
        return self._optimizer.apply_optimize(loss, startup_program, params_grads)

    def minimize(self, loss: Any, startup_program: Any = None, parameter_list: Any = None,
                 no_grad_set: Any = None) -> Any:
        """Record the backward pass and the optimizer update of ``loss`` (as the optimizer itself does)."""
        self._scaled_loss = loss * self.get_loss_scaling()
        return self._optimizer.minimize(loss, startup_program, parameter_list, no_grad_set)

    def amp_init(self, place: Any, scope: Any = None, test_program: Any = None, use_fp16_test: bool = False) -> None:
        """Cast float16 parameters after the startup run (level 'O2' only): nothing to do at level 'O1'."""
        if use_fp16_test:
            raise NotImplementedError(f"OptimizerWithMixedPrecision.amp_init: use_fp16_test=True: {_OFF}.")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._optimizer, name)


def decorate(optimizer: Any, amp_lists: AutoMixedPrecisionLists | None = None, level: str = "O1",
             dtype: str = "float16", master_weight: Any = None, master_grad: bool = False,
             init_loss_scaling: float = 2**15, incr_every_n_steps: int = 1000, decr_every_n_nan_or_inf: int = 2,
             incr_ratio: float = 2.0, decr_ratio: float = 0.8, use_dynamic_loss_scaling: Any = None,
             use_amp_guard: bool = False, use_promote: bool = False, use_pure_fp16: bool = False,
             use_fp16_guard: Any = None, use_bf16: bool = False) -> OptimizerWithMixedPrecision:
    """Wrap ``optimizer`` for mixed-precision training (level 'O1'): its ``minimize`` trains the program as the
    optimizer would (mixed precision is off, as on Paddle's CPU place; see the module note)."""
    api = "paddle.static.amp.decorate"
    if level not in ("O0", "O1", "O2"):
        raise ValueError(f"{api}: level must be 'O0', 'O1' or 'O2', but received {level!r}.")
    if dtype not in ("float16", "bfloat16"):
        raise ValueError(f"{api}: dtype must be 'float16' or 'bfloat16', but received {dtype!r}.")
    if level == "O2" or use_pure_fp16 or use_bf16 or master_weight or master_grad:
        raise NotImplementedError(f"{api}: level 'O2' / use_pure_fp16 / use_bf16 / master weights cast the program's "
                                  f"parameters to half precision, which is not supported: {_OFF}.")
    if amp_lists is not None and not isinstance(amp_lists, AutoMixedPrecisionLists):
        raise TypeError(f"{api}: amp_lists must be an AutoMixedPrecisionLists, but received {type(amp_lists).__name__}.")
    if not isinstance(init_loss_scaling, int | float) or init_loss_scaling <= 0:
        raise ValueError(f"{api}: init_loss_scaling must be a positive number, but received {init_loss_scaling!r}.")
    for what, v in (("incr_every_n_steps", incr_every_n_steps), ("decr_every_n_nan_or_inf", decr_every_n_nan_or_inf)):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ValueError(f"{api}: {what} must be a positive int, but received {v!r}.")
    if not incr_ratio > 1.0 or not 0.0 < decr_ratio < 1.0:
        raise ValueError(f"{api}: incr_ratio must be > 1 and decr_ratio in (0, 1), but received {incr_ratio!r} and "
                         f"{decr_ratio!r}.")
    lists = amp_lists if amp_lists is not None else AutoMixedPrecisionLists(dtype=dtype)
    return OptimizerWithMixedPrecision(optimizer, lists, init_loss_scaling)


def cast_model_to_fp16(program: Any, amp_lists: Any = None, use_fp16_guard: bool = True, dest_type: Any = None,
                       level: str = "O2", use_promote: bool = False) -> Any:
    """Cast a program to float16: not supported."""
    raise NotImplementedError(f"paddle.static.amp.cast_model_to_fp16: {_OFF}.")


def cast_parameters_to_fp16(place: Any, program: Any, scope: Any = None, to_fp16_var_names: Any = None,
                            dest_type: Any = None, rewrite_master_weight: bool = False, master_weights: Any = None
                            ) -> Any:
    """Cast a program's parameters to float16: not supported."""
    raise NotImplementedError(f"paddle.static.amp.cast_parameters_to_fp16: {_OFF}.")
