"""``paddle.tensor.compat_softmax``: the PyTorch-style ``softmax(input, dim=None, dtype=None)``."""

from __future__ import annotations

from typing import Any

from .._tensor.facade import Tensor
from .._tensor.methods import inplace_assign
from ..nn.functional import softmax as _softmax

__all__: list[str] = []


def softmax(input: Tensor, dim: int | None = None, dtype: Any = None, *, out: Tensor | None = None,  # noqa: A002
            **kwargs: Any) -> Tensor:
    """Softmax along ``dim`` after casting ``input`` to ``dtype`` (when given). With no ``dim``, as PyTorch's
    legacy rule: 0 for a 0-D, 1-D or 3-D input, else 1. Paddle's own keywords (``x``, ``axis``, ``name``) are
    refused; ``out`` also receives the result."""
    bad = sorted(set(kwargs) & {"x", "axis", "name"})
    if bad:
        raise TypeError(f"paddle.compat.nn.functional.softmax() received unexpected keyword argument {bad[0]!r}: it "
                        "takes input and dim; use paddle.nn.functional.softmax for x and axis.")
    if kwargs:
        raise TypeError(f"softmax() got an unexpected keyword argument {sorted(kwargs)[0]!r}.")
    if dim is None:
        dim = 0 if input.ndim in (0, 1, 3) else 1
    r = _softmax(input if dtype is None else input.astype(dtype), axis=dim)
    if out is not None:
        inplace_assign(out, r, "softmax")
    return r
