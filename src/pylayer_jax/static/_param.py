"""Parameters in static programs: ``create_parameter`` and the parameters of layers built in static mode.

Layer L6. In static mode a parameter is a ``Parameter`` Variable of the main program
whose value lives in the scope; the startup program holds the ``InitOp`` that gives it
its first value. ``nn`` layers create theirs through ``nn.layer._param.make_parameter``,
which hands them to ``static_parameter`` here (registered in ``STATIC_PARAMETER``), so a
layer's name, initializer and ``ParamAttr`` settings are the same in both modes. In
dynamic mode ``create_parameter`` returns an initialized ``nn`` Parameter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._runtime import dtypes as _dtypes
from ..nn.layer._param import STATIC_PARAMETER, ParamAttr
from ..nn.layer._param import create_parameter as _layer_create_parameter
from ._program import InitOp, Program, default_main_program, default_startup_program
from ._variable import Parameter


def _register(main: Program, startup: Program, name: str, shape: list[int], dtype: Any, init: Any,
              attr: ParamAttr) -> Parameter:
    old = main.global_block().vars.get(name)
    if old is not None:
        # a second parameter of the same name is the same program variable (Paddle shares it), if it fits
        if not isinstance(old, Parameter) or old.shape != shape or old.dtype.np_dtype != np.dtype(dtype):
            raise ValueError(
                f"create_parameter: the variable {name!r} has been created before in this program with shape "
                f"{old.shape} and dtype {old.dtype.name}; the new parameter has shape {shape} and dtype "
                f"{_dtypes.to_paddle(dtype).name}. Give it another name (ParamAttr(name=...))."
            )
        return old
    kw = {"trainable": attr.trainable, "learning_rate": attr.learning_rate, "regularizer": attr.regularizer,
          "need_clip": attr.need_clip, "do_model_average": attr.do_model_average}
    p = Parameter(main.global_block(), name, shape, dtype, init, **kw)
    main.add_var(p)
    sp = Parameter(startup.global_block(), name, shape, dtype, init, **kw)
    startup.add_var(sp)
    startup.append_op(InitOp(startup.global_block(), sp, init))
    return p


def static_parameter(name: str, shape: list[int], dtype: Any, init: Any, attr: ParamAttr) -> Parameter:
    """A parameter of the current main program, initialised by ``init(shape, np_dtype, key)`` in the startup one."""
    return _register(default_main_program(), default_startup_program(), name, list(shape), np.dtype(dtype), init,
                     attr)


STATIC_PARAMETER[:] = [static_parameter]


def create_parameter(
    shape: Sequence[int],
    dtype: Any,
    name: str | None = None,
    attr: ParamAttr | None = None,
    is_bias: bool = False,
    default_initializer: Any = None,
) -> Any:
    """A trainable parameter (``create_parameter_0.w_0``); Xavier-uniform unless ``is_bias`` (zeros) or an
    initializer is given. In static mode a ``Parameter`` Variable of the main program (set by the startup
    program); in dynamic mode an initialized ``nn`` Parameter."""
    if not isinstance(shape, list | tuple) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise TypeError(f"create_parameter: shape must be a list of non-negative ints, but received {shape!r}.")
    return _layer_create_parameter(shape, dtype, name, attr, is_bias, default_initializer)


def make_param(prefix: str, suffix: str, shape: list[int], dtype: Any, attr: Any, default_init: Any) -> Parameter:
    """A ``static.nn`` layer's parameter (``fc_0.w_0``) in the current main/startup programs."""
    attr = attr if isinstance(attr, ParamAttr) else ParamAttr()
    init = attr.initializer or default_init
    name = attr.name or f"{prefix}.{suffix}"
    return _register(default_main_program(), default_startup_program(), name, shape, _dtypes.to_np(dtype), init,
                     attr)
