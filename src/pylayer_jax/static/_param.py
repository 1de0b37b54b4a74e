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

import jax.numpy as jnp
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


def static_parameter(name: str, shape: list[int], dtype: Any, init: Any, attr: ParamAttr) -> Any:
    """A parameter of the current main program, initialised by ``init(shape, np_dtype, key)`` in the startup one
    (with a ``WeightNormParamAttr``: the weight computed from its ``_g`` and ``_v`` parameters)."""
    if isinstance(attr, WeightNormParamAttr):
        return weight_norm_param(name, list(shape), np.dtype(dtype), init, attr)
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


def make_param(prefix: str, suffix: str, shape: list[int], dtype: Any, attr: Any, default_init: Any) -> Any:
    """A ``static.nn`` layer's parameter (``fc_0.w_0``) in the current main/startup programs (with a
    ``WeightNormParamAttr``: the weight computed from its ``_g`` and ``_v`` parameters)."""
    attr = attr if isinstance(attr, ParamAttr) else ParamAttr()
    init = attr.initializer or default_init
    name = attr.name or f"{prefix}.{suffix}"
    if isinstance(attr, WeightNormParamAttr):
        return weight_norm_param(name, shape, _dtypes.to_np(dtype), init, attr)
    return _register(default_main_program(), default_startup_program(), name, shape, _dtypes.to_np(dtype), init,
                     attr)


class WeightNormParamAttr(ParamAttr):
    """A ParamAttr asking for weight normalisation (``static.nn`` layers): the weight ``w`` is
    ``g * v / ||v||`` with the norm taken over every axis but ``dim`` (all axes when ``dim`` is None), from
    the trainable parameters ``<name>_v`` (the weight's shape, initialised by ``initializer``) and
    ``<name>_g`` (size 1 except along ``dim``, initialised to the norm of ``v``'s initial value)."""

    def __init__(self, dim: int | None = None, name: str | None = None, initializer: Any = None,
                 learning_rate: float = 1.0, regularizer: Any = None, trainable: bool = True,
                 do_model_average: bool = False, need_clip: bool = True) -> None:
        super().__init__(name, initializer, learning_rate, regularizer, trainable, do_model_average, need_clip)
        if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int)):
            raise TypeError(f"WeightNormParamAttr: dim must be an int or None, but received {type(dim).__name__}.")
        self.dim = dim


class _NormOf:
    """The startup initializer of a weight norm's ``g``: the norm of ``v``'s initial value over every axis but
    ``dim``, read from the scope (``v`` is initialised first)."""

    reads_scope = True

    def __init__(self, v_name: str, dim: int | None) -> None:
        self.v_name, self.dim = v_name, dim

    def from_scope(self, values: dict[str, Any], shape: Sequence[int], dtype: Any) -> Any:
        v = jnp.asarray(values[self.v_name])
        axes = tuple(i for i in range(v.ndim) if i != self.dim) if self.dim is not None else None
        return jnp.sqrt(jnp.sum(jnp.abs(v) ** 2, axis=axes)).reshape(tuple(shape)).astype(dtype)

    def __call__(self, shape: Sequence[int], dtype: Any, key: Any) -> Any:
        raise RuntimeError(f"the weight-norm scale of {self.v_name} is computed from it by the startup program.")

    def __repr__(self) -> str:
        return f"NormOf({self.v_name}, dim={self.dim})"


def weight_norm_param(name: str, shape: list[int], dtype: Any, init: Any, attr: WeightNormParamAttr) -> Any:
    """``g * v / ||v||`` (norm over every axis but ``attr.dim``) from new parameters ``name_v`` and ``name_g``."""
    from .._ops.table import TABLE
    from .._tensor.dispatch import apply_op

    dim = attr.dim
    nd = len(shape)
    if dim is not None and not -nd <= dim < nd:
        raise ValueError(f"WeightNormParamAttr: dim must be in [{-nd}, {nd}) for a weight of shape {shape}, but "
                         f"received {dim}.")
    if dim is not None and dim < 0:
        dim += nd
    main, startup = default_main_program(), default_startup_program()
    v = _register(main, startup, f"{name}_v", list(shape), dtype, init, attr)
    g_shape = [shape[i] if i == dim else 1 for i in range(nd)]
    g = _register(main, startup, f"{name}_g", g_shape, dtype, _NormOf(v.name, dim), attr)
    axes = [i for i in range(nd) if i != dim] if dim is not None else list(range(nd))
    norm = apply_op(TABLE["sum"], (v * v,), {"axis": axes, "keepdim": True}).sqrt()
    return v * (g / norm)
