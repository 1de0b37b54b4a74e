"""``paddle.static.ExponentialMovingAverage`` (layer L6).

``update()`` records, after the optimizer's update, ``ema = decay * ema + (1 - decay) * param`` for every
parameter with ``do_model_average`` and a step counter (``@EMA_STEP_COUNTER@``) incremented at the start
of each run. ``apply(exe)`` runs a program that saves the parameters and replaces them with the
bias-corrected averages ``ema / (1 - decay ** step)``; ``restore(exe)`` puts the saved values back. With
``thres_steps`` (a Variable counting steps) the decay is ``min(decay, (t + 1) / (t + 10))``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from .._ops.table import TABLE
from .._runtime.state import modes
from .._tensor.dispatch import apply_op
from ._framework import make_state
from ._init import Constant
from ._program import Program, WriteOp, default_main_program, default_startup_program, program_guard, unique_name
from ._variable import Variable

COUNTER = "@EMA_STEP_COUNTER@"


def _twin(prog: Program, v: Variable) -> Variable:
    """A persistable Variable of ``prog`` naming the same scope value as ``v``."""
    old = prog.global_block().vars.get(v.name)
    if old is not None:
        return old
    t = Variable(prog.global_block(), v.name, v.shape, v.dtype, stop_gradient=True, kind="state")
    t.persistable = True
    return prog.add_var(t)  # type: ignore[return-value]


class ExponentialMovingAverage:
    """Moving averages of a static program's parameters, for evaluating with averaged weights.

    Example::

        >>> opt.minimize(loss)
        >>> ema = paddle.static.ExponentialMovingAverage(0.999)
        >>> ema.update()
        >>> # ... train with exe.run(main, ...)
        >>> with ema.apply(exe):
        ...     exe.run(test_program, ...)   # the averaged parameters
    """

    def __init__(self, decay: float = 0.999, thres_steps: Any = None, name: str | None = None) -> None:
        api = "paddle.static.ExponentialMovingAverage"
        if not modes.static_mode:
            raise RuntimeError(f"{api}: works in static mode only (paddle.enable_static()); it records ops into the "
                               "main program.")
        if isinstance(decay, bool) or not isinstance(decay, int | float) or not 0.0 <= decay <= 1.0:
            raise ValueError(f"{api}: decay must be a float in [0, 1], but received {decay!r}.")
        if thres_steps is not None and not isinstance(thres_steps, Variable):
            raise TypeError(f"{api}: thres_steps must be a Variable (a step counter) or None, but received "
                            f"{type(thres_steps).__name__}.")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"{api}: name must be a str or None, but received {type(name).__name__}.")
        self._decay = float(decay)
        self._name = name or ""
        main, startup = default_main_program(), default_startup_program()
        self._main, self._startup = main, startup
        self._decay_var = make_state(main, startup, "scheduled_ema_decay_rate", [1], "float32", Constant(self._decay))
        if thres_steps is not None:
            t = apply_op(TABLE["cast"], (thres_steps, "float32"))
            ratio = (t + 1.0) / (t + 10.0)
            d = apply_op(TABLE["minimum"], (apply_op(TABLE["reshape"], (ratio, [1])),
                                            apply_op(TABLE["full_like"], (self._decay_var, self._decay))))
            main.append_op(WriteOp(main.current_block(), self._decay_var, d))
        self._params = [p for p in main.global_block().all_parameters() if p.do_model_average]
        self._tmps, self._emas = {}, {}
        for p in self._params:
            self._tmps[p.name] = make_state(main, startup, unique_name(f"{self._name}{p.name}.ema_tmp"), p.shape,
                                            p.dtype, Constant(0.0), persistable=False)
            self._emas[p.name] = make_state(main, startup, unique_name(f"{self._name}{p.name}_ema"), p.shape,
                                            p.dtype, Constant(0.0))
        self._counter = make_state(main, startup, COUNTER, [1], "int64", Constant(0))
        self.apply_program = Program()
        with program_guard(self.apply_program, Program()):
            step = apply_op(TABLE["cast"], (_twin(self.apply_program, self._counter), "float32"))
            decay_pow = apply_op(TABLE["pow"], (_twin(self.apply_program, self._decay_var), step))
            for p in self._params:
                param = _twin(self.apply_program, p)
                tmp = _twin(self.apply_program, self._tmps[p.name])
                ema = _twin(self.apply_program, self._emas[p.name])
                self.apply_program.record_write(tmp, param)
                corrected = ema / apply_op(TABLE["reshape"], (1.0 - decay_pow, [1] * len(p.shape) or []))
                value = apply_op(TABLE["where"], (apply_op(TABLE["reshape"], (step > 0.0, [])), corrected, ema))
                self.apply_program.record_write(param, value)
        self.restore_program = Program()
        with program_guard(self.restore_program, Program()):
            for p in self._params:
                self.restore_program.record_write(_twin(self.restore_program, p),
                                                  _twin(self.restore_program, self._tmps[p.name]))

    def update(self) -> None:
        """Record the averages' update (after ``optimizer.minimize``, so the new parameters are averaged) and the
        step counter's increment (first in the program, as Paddle prepends it)."""
        main = self._main
        block = main.global_block()
        if not any(isinstance(op, WriteOp) and op.target is self._counter for op in block.ops):
            n = len(block.ops)
            with program_guard(main, self._startup):
                main.record_write(self._counter, self._counter + 1)
            block.ops[:] = block.ops[n:] + block.ops[:n]
            main.version += 1
        decay = apply_op(TABLE["reshape"], (self._decay_var, []))
        with program_guard(main, self._startup):
            for p in self._params:
                ema = self._emas[p.name]
                main.record_write(ema, ema * decay + p * (1.0 - decay))

    @contextlib.contextmanager
    def apply(self, executor: Any, need_restore: bool = True) -> Iterator[None]:
        """Inside the ``with``, the parameters in the scope hold their bias-corrected averages; afterwards they
        are restored (unless ``need_restore`` is False: then call ``restore`` yourself)."""
        executor.run(self.apply_program)
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor: Any) -> None:
        """Put back the parameters ``apply`` replaced."""
        executor.run(self.restore_program)
