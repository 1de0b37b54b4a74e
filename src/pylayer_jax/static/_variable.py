"""Variables of a static program: Tensors without values, with a declared shape and dtype.

Layer L6. A Variable is a ``Tensor`` whose ``_symbolic`` flag routes every op applied to
it into the program being built (see ``apply_op``). Its ``_value`` is a
``jax.ShapeDtypeStruct`` with a placeholder size for each unknown (-1) dimension, and
``_alt`` the same with a second placeholder size: shape inference evaluates each op at
both sizes, and a dimension that differs between the two is unknown (-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import numpy as np

from .._runtime.dtypes import to_paddle
from .._tensor.facade import Tensor
from ..nn.layer._param import Parameter as _LayerParameter

# Two highly composite sizes, so reshapes of unknown dimensions divide evenly at both.
PLACEHOLDERS = (720720, 1441440)


def structs(shape: Sequence[int], dtype: Any) -> tuple[jax.ShapeDtypeStruct, jax.ShapeDtypeStruct]:
    """The two placeholder-sized structs for a shape with -1 for unknown dimensions."""
    a = tuple(PLACEHOLDERS[0] if d < 0 else int(d) for d in shape)
    b = tuple(PLACEHOLDERS[1] if d < 0 else int(d) for d in shape)
    return jax.ShapeDtypeStruct(a, dtype), jax.ShapeDtypeStruct(b, dtype)


def merge_shape(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """A shape from its two placeholder evaluations: dimensions that differ are unknown (-1)."""
    return [int(x) if x == y else -1 for x, y in zip(a, b)]


class Variable(Tensor):
    """A value of a static program: ``.name``, ``.shape`` (-1 for unknown), ``.dtype``, ``.stop_gradient``.

    Ops applied to a Variable (Paddle functions, Tensor methods, operators) are recorded
    into its program; ``Executor.run`` computes them.
    """

    __slots__ = ("_alt", "_shape", "_unsaved", "block", "kind", "producer")
    _symbolic = True

    def __init__(
        self, block: Any, name: str, shape: Sequence[int], dtype: Any, stop_gradient: bool = True, kind: str = "tmp"
    ) -> None:
        np_dtype = np.dtype(to_paddle(dtype).np_dtype)
        a, b = structs(shape, np_dtype)
        Tensor.__init__(self, a, stop_gradient, None, name)  # (not the layer Parameter's __init__ of a subclass)
        self._alt = b
        self._shape = [int(d) if d >= 0 else -1 for d in shape]
        self.block = block
        self.kind = kind  # "data", "param", "tmp", "grad", "state"
        self.producer: Any = None

    @classmethod
    def from_structs(cls, block: Any, name: str, a: Any, b: Any, stop_gradient: bool) -> Variable:
        v = cls(block, name, merge_shape(a.shape, b.shape), a.dtype, stop_gradient)
        v._value, v._alt = jax.ShapeDtypeStruct(a.shape, a.dtype), jax.ShapeDtypeStruct(b.shape, b.dtype)
        return v

    @property
    def shape(self) -> list[int]:  # type: ignore[override]
        return list(self._shape)

    @property
    def program(self) -> Any:
        return self.block.program

    @property
    def trainable(self) -> bool:
        return self.kind == "param" and not self.stop_gradient

    @property
    def grad_name(self) -> str:
        """The name of this Variable's gradient (``X@GRAD``), as ``gradients``/``append_backward`` name it."""
        return f"{self.name}@GRAD"

    def is_same(self, other: Any) -> bool:
        """Whether ``other`` is this very Variable (not merely one with equal values)."""
        return other is self

    def set_value(self, value: Any) -> Variable:
        """Static mode: record ``self = value`` into the program (``value`` a Variable of it, e.g. a layer's new
        running statistics); a persistable Variable keeps the value in the scope after each run."""
        if not isinstance(value, Variable):
            raise TypeError(
                f"Variable.set_value: {self.name} is a Variable of a static program being built, so the new value "
                f"must be a Variable of the same program, but received {type(value).__name__}. To overwrite a "
                f"parameter's value, use paddle.static.global_scope().find_var({self.name!r}).get_tensor().set(array)."
            )
        self.block.program.record_write(self, value)
        return self

    _set_value = set_value  # (the library's own writes, e.g. a BatchNorm's running statistics, record the same)

    def numpy(self) -> np.ndarray:
        raise RuntimeError(
            f"Variable {self.name} of a static program has no value while the program is being built; fetch it "
            "with Executor.run(program, feed=..., fetch_list=[variable]) instead."
        )

    def __repr__(self) -> str:
        return (
            f"Variable(name={self.name}, shape={self._shape}, dtype={self.dtype}, stop_gradient={self.stop_gradient})"
        )

    __str__ = __repr__

    def describe(self) -> str:
        """``name: float32[-1, 5]`` for program listings."""
        return f"{self.name}: {self.dtype.name}{self._shape}"


class Parameter(Variable, _LayerParameter):
    """A persistable Variable whose value lives in the scope: what ``create_parameter``, ``nn.fc`` and every
    ``nn`` layer built in static mode make (``linear_0.w_0``). It is also an ``nn`` Parameter, so layers
    register it and optimizers read its ``optimize_attr``/``regularizer``/``need_clip`` as they do eagerly."""

    __slots__ = ("initializer",)

    def __init__(self, block: Any, name: str, shape: Sequence[int], dtype: Any, initializer: Any,
                 trainable: bool = True, learning_rate: float = 1.0, regularizer: Any = None,
                 need_clip: bool = True, do_model_average: bool = True) -> None:
        Variable.__init__(self, block, name, shape, dtype, stop_gradient=not trainable, kind="param")
        self.initializer = initializer
        self._set_attrs(learning_rate, regularizer, need_clip, do_model_average)

    trainable = _LayerParameter.trainable  # settable, as a layer's parameter (Variable's is read-only)

    def __deepcopy__(self, memo: dict) -> Parameter:
        raise RuntimeError(
            f"copy.deepcopy: the static-program parameter {self.name} cannot be copied (its value lives in the "
            "scope, shared by every program that names it); build a second layer instead."
        )

    def __repr__(self) -> str:
        return f"Parameter(name={self.name}, shape={self._shape}, dtype={self.dtype}, trainable={self.trainable})"

    __str__ = __repr__
