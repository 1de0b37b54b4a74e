"""``paddle.static.InputSpec``: the shape and dtype of an input, for ``jit.to_static(input_spec=...)``."""

from __future__ import annotations

from typing import Any

from .._runtime import dtypes as _dtypes


class InputSpec:
    """Describe an input: ``InputSpec(shape, dtype="float32", name=None, stop_gradient=False)``.

    A ``None`` (or -1) dimension accepts any size; ``to_static`` compiles once per size met.

    >>> import pylayer_jax as paddle
    >>> spec = paddle.static.InputSpec([None, 3], "float32", "x")
    >>> spec.shape
    (-1, 3)
    """

    def __init__(self, shape: Any, dtype: Any = "float32", name: str | None = None, stop_gradient: bool = False) -> None:
        if isinstance(shape, int):
            shape = [shape]
        if not isinstance(shape, list | tuple):
            raise TypeError(f"InputSpec: shape must be a list or tuple of ints, but received {type(shape).__name__}.")
        for d in shape:
            if d is not None and (not isinstance(d, int) or isinstance(d, bool) or d < -1):
                raise ValueError(f"InputSpec: each dimension must be an int >= -1 or None, but received {d!r}.")
        self.shape = tuple(-1 if d is None else d for d in shape)
        self.dtype = _dtypes.to_paddle(_dtypes.to_np(dtype))
        self.name = name
        self.stop_gradient = bool(stop_gradient)

    @classmethod
    def from_tensor(cls, tensor: Any, name: str | None = None) -> InputSpec:
        """The spec of an existing Tensor."""
        return cls(list(tensor.shape), tensor.dtype, name or getattr(tensor, "name", None))

    @classmethod
    def from_numpy(cls, ndarray: Any, name: str | None = None) -> InputSpec:
        """The spec of a numpy array."""
        return cls(list(ndarray.shape), ndarray.dtype, name)

    def batch(self, batch_size: int) -> InputSpec:
        """Prepend a batch dimension (in place, returns self)."""
        self.shape = (batch_size, *self.shape)
        return self

    def unbatch(self) -> InputSpec:
        """Drop the first dimension (in place, returns self)."""
        if not self.shape:
            raise ValueError("InputSpec.unbatch: the spec has no dimension to drop.")
        self.shape = self.shape[1:]
        return self

    def __repr__(self) -> str:
        return f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, stop_gradient={self.stop_gradient})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InputSpec) and (self.shape, self.dtype, self.name, self.stop_gradient) == (
            other.shape, other.dtype, other.name, other.stop_gradient)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.name, self.stop_gradient))
