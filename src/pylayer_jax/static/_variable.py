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

    __slots__ = ("_alt", "_shape", "block", "kind", "producer")
    _symbolic = True

    def __init__(
        self, block: Any, name: str, shape: Sequence[int], dtype: Any, stop_gradient: bool = True, kind: str = "tmp"
    ) -> None:
        np_dtype = np.dtype(to_paddle(dtype).np_dtype)
        a, b = structs(shape, np_dtype)
        super().__init__(a, stop_gradient, None, name)
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


class Parameter(Variable):
    """A persistable, trainable Variable whose value lives in the scope (``create_parameter``, ``nn.fc``)."""

    __slots__ = ("initializer", "optimize_attr")

    def __init__(self, block: Any, name: str, shape: Sequence[int], dtype: Any, initializer: Any) -> None:
        super().__init__(block, name, shape, dtype, stop_gradient=False, kind="param")
        self.persistable = True
        self.initializer = initializer
        self.optimize_attr = {"learning_rate": 1.0}

    def __repr__(self) -> str:
        return f"Parameter(name={self.name}, shape={self._shape}, dtype={self.dtype}, trainable={self.trainable})"

    __str__ = __repr__
