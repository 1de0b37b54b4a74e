"""Public functions that are not one plain call of a table op (layer L5).

- ``einsum(equation, *operands)``: the equation comes before the tensors;
- ``atleast_1d/2d/3d(*inputs)``: variadic, one result or a list;
- ``masked_select``: the output size depends on the mask's values, so the mask is read
  eagerly (an error under tracing) and the gather itself is a table op;
- ``cov``: Paddle puts attributes before the weight tensors.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np

from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, _Tracer
from .._tensor.views import link


def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation over the operands, e.g. ``einsum('ij,jk->ik', a, b)``."""
    if not isinstance(equation, str):
        raise TypeError(
            f"einsum: the first argument must be the equation string, but received "
            f"{type(equation).__name__}; call einsum('ij,jk->ik', a, b)."
        )
    if len(operands) == 1 and isinstance(operands[0], list | tuple):
        operands = tuple(operands[0])
    return apply_op(TABLE["einsum_operands"], (list(operands), equation))


def _atleast(op: str, inputs: tuple[Any, ...]) -> Any:
    # each result is a view of its input, as in Paddle (which returns the input itself where it has the dimensions)
    outs = [link(apply_op(TABLE[op], (x,)), x, TABLE[op], (x,)) if isinstance(x, Tensor) else apply_op(TABLE[op], (x,))
            for x in inputs]
    return outs[0] if len(outs) == 1 else outs


def atleast_1d(*inputs: Any, name: str | None = None) -> Any:
    """Each input with at least 1 dimension (one Tensor for one input, else a list)."""
    return _atleast("atleast_1d", inputs)


def atleast_2d(*inputs: Any, name: str | None = None) -> Any:
    """Each input with at least 2 dimensions (one Tensor for one input, else a list)."""
    return _atleast("atleast_2d", inputs)


def atleast_3d(*inputs: Any, name: str | None = None) -> Any:
    """Each input with at least 3 dimensions (one Tensor for one input, else a list)."""
    return _atleast("atleast_3d", inputs)


def masked_select(x: Tensor, mask: Tensor, name: str | None = None) -> Tensor:
    """The elements of ``x`` where ``mask`` (broadcast with x) is True, as a 1-D tensor. Eager only."""
    for t, what in ((x, "x"), (mask, "mask")):
        if isinstance(t, Tensor) and (isinstance(t._value, _Tracer) or t._symbolic):
            raise RuntimeError(
                f"masked_select: the output size depends on the values of the mask, so it cannot run on a traced "
                f"or static {what} (inside jax.jit, grad, vmap, to_static or a static program). Use "
                "paddle.where(mask, x, fill) to keep a fixed shape instead."
            )
    xv = x._value if isinstance(x, Tensor) else jnp.asarray(x)
    mv = np.asarray(mask._value if isinstance(mask, Tensor) else mask)
    if mv.dtype != np.bool_:
        raise TypeError(f"masked_select: mask must be a bool Tensor, but received dtype {mv.dtype}.")
    try:
        shape = np.broadcast_shapes(tuple(xv.shape), mv.shape)
    except ValueError:  # (Paddle's error type here is RuntimeError)
        raise RuntimeError(f"masked_select: mask of shape {list(mv.shape)} does not broadcast with x of shape "
                           f"{list(xv.shape)}; give a mask of x's shape or one that broadcasts to it.") from None
    if tuple(xv.shape) != shape:
        x = apply_op(TABLE["broadcast_to"], (x, list(shape)))
    index = np.flatnonzero(np.broadcast_to(mv, shape))
    return apply_op(TABLE["masked_gather"], (x, Tensor(jnp.asarray(index, jnp.int64))))


def cov(
    x: Tensor,
    rowvar: bool = True,
    ddof: bool = True,
    fweights: Tensor | None = None,
    aweights: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Covariance matrix of the rows (variables) of ``x`` (columns with rowvar=False). ``fweights`` may be floats
    with whole values (as Paddle, which checks them, a sync); they are counted as int64."""
    if isinstance(fweights, Tensor) and jnp.issubdtype(fweights._value.dtype, jnp.floating) \
            and not isinstance(fweights._value, _Tracer) and not fweights._symbolic:
        fw = np.asarray(fweights._value)
        if not np.all(fw == np.round(fw)):
            raise ValueError(f"cov: fweights must hold whole numbers (frequency counts), but received "
                             f"{float(fw[fw != np.round(fw)][0])}; round them or pass them as aweights.")
        fweights = Tensor(jnp.asarray(fw, jnp.int64))
    return apply_op(TABLE["cov"], (x, fweights, aweights), {"rowvar": rowvar, "ddof": ddof})


# (not the op's plain public function: Paddle's parameter order differs from the op's, tensors first)
cov._op = None  # type: ignore[attr-defined]
