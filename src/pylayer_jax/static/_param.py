"""Parameters in static programs: ``create_parameter`` (``ParamAttr`` comes from ``nn``).

Layer L6. In static mode a parameter is a ``Parameter`` Variable of the main program
whose value lives in the scope; the startup program holds the ``InitOp`` that gives it
its first value. In dynamic mode ``create_parameter`` returns an initialized ``nn`` Parameter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._runtime import dtypes as _dtypes
from .._runtime.state import modes
from ..nn.layer._param import ParamAttr
from ..nn.layer._param import create_parameter as _eager_create_parameter
from ._init import Constant, XavierUniform
from ._program import InitOp, Program, default_main_program, default_startup_program, unique_name
from ._variable import Parameter


def _register(
    main: Program, startup: Program, name: str, shape: list[int], dtype: Any, init: Any, trainable: bool, lr: float
) -> Parameter:
    p = Parameter(main.global_block(), name, shape, dtype, init)
    p.stop_gradient = not trainable
    p.optimize_attr = {"learning_rate": lr}
    main.add_var(p)
    sp = Parameter(startup.global_block(), name, shape, dtype, init)
    startup.add_var(sp)
    startup.append_op(InitOp(startup.global_block(), sp, init))
    return p


def create_parameter(
    shape: Sequence[int],
    dtype: Any,
    name: str | None = None,
    attr: ParamAttr | None = None,
    is_bias: bool = False,
    default_initializer: Any = None,
) -> Any:
    """A trainable parameter; Xavier-uniform unless ``is_bias`` (zeros) or an initializer is given."""
    if not isinstance(shape, list | tuple) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise TypeError(f"create_parameter: shape must be a list of non-negative ints, but received {shape!r}.")
    if modes.static_program is None:  # dynamic mode: a Parameter
        return _eager_create_parameter(shape, dtype, name, attr, is_bias, default_initializer)
    attr = attr if attr is not None else ParamAttr()
    init = attr.initializer or default_initializer or (Constant(0.0) if is_bias else XavierUniform())
    np_dtype = _dtypes.to_np(dtype)
    pname = attr.name or name or unique_name("create_parameter") + (".b_0" if is_bias else ".w_0")
    return _register(
        default_main_program(),
        default_startup_program(),
        pname,
        list(shape),
        np_dtype,
        init,
        attr.trainable,
        attr.learning_rate,
    )


def make_param(prefix: str, suffix: str, shape: list[int], dtype: Any, attr: Any, default_init: Any) -> Parameter:
    """A layer's parameter (``fc_0.w_0``) in the current main/startup programs."""
    attr = attr if isinstance(attr, ParamAttr) else ParamAttr()
    init = attr.initializer or default_init
    name = attr.name or f"{prefix}.{suffix}"
    return _register(
        default_main_program(),
        default_startup_program(),
        name,
        shape,
        _dtypes.to_np(dtype),
        init,
        attr.trainable,
        attr.learning_rate,
    )
