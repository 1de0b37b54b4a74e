"""``paddle.nn.utils`` (layer L7): clipping the gradients of parameters in place, parameters to one vector and
back, and ``weight_norm`` / ``spectral_norm`` (``_weight_hooks``).

``clip_grad_norm_`` and ``clip_grad_value_`` edit each parameter's ``.grad`` in place, as Paddle's do: the optimizer
then applies the clipped gradients (a write to ``x.grad`` is a write to the gradient: ``Tensor.grad``).
``parameters_to_vector`` concatenates the flattened parameters into a new leaf; ``vector_to_parameters`` writes a
vector's consecutive pieces into the parameters (each keeps its shape and dtype: Paddle's parameters take the vector's
dtype and share its memory, so a later write to the vector changes them; here they take a copy of the values).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from .._api.linalg import norm as _norm
from .._autograd.grad_mode import no_grad
from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from .._tensor.methods import write_values
from ._weight_hooks import remove_weight_norm as remove_weight_norm
from ._weight_hooks import spectral_norm as spectral_norm
from ._weight_hooks import weight_norm as weight_norm

_NORM_TYPES = (float("inf"), 0.0, 1.0, 2.0)


def _tensors(parameters: Any, api: str) -> list[Tensor]:
    """The parameters as a list (a single Tensor, or any iterable of Tensors: a generator is read once)."""
    if isinstance(parameters, Tensor):
        return [parameters]
    try:
        out = list(parameters)
    except TypeError:
        raise TypeError(
            f"{api}: parameters must be a Tensor or an iterable of Tensors (layer.parameters()), but received "
            f"{type(parameters).__name__}."
        ) from None
    for p in out:
        if not isinstance(p, Tensor):
            raise TypeError(f"{api}: parameters must hold Tensors only, but one is a {type(p).__name__}.")
    return out


def clip_grad_norm_(parameters: Iterable[Tensor] | Tensor, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False) -> Tensor:
    """Scale the gradients of ``parameters`` in place so that their joint ``norm_type``-norm (all of them as one
    vector) is at most ``max_norm``; returns that norm before clipping, as a 0-D Tensor of the gradients' dtype.

    As in Paddle: ``norm_type`` is 2, 1, 0 or ``inf``; the scale is ``min(max_norm / (norm + 1e-6), 1)``; parameters
    without a gradient are left out (none at all: the norm is ``0.0``); ``error_if_nonfinite=True`` raises a
    RuntimeError where the norm is NaN or infinite."""
    api = "paddle.nn.utils.clip_grad_norm_"
    params = _tensors(parameters, api)
    nt = float(norm_type)
    if nt not in _NORM_TYPES:
        raise ValueError(f"{api}: norm_type must be one of inf, 0, 1 or 2, but received {norm_type!r}.")
    max_norm = float(max_norm)
    grads = [g for p in params if (g := p.grad) is not None]
    if not grads:
        return Tensor(np.asarray(0.0, np.float32))
    with no_grad():
        if nt == math.inf:
            norms = [g.abs().max() for g in grads]
            total = norms[0] if len(norms) == 1 else apply_op(TABLE["stack"], (norms,)).max()
        else:
            total = _norm(apply_op(TABLE["stack"], ([_norm(g, nt) for g in grads],)), nt)
        if error_if_nonfinite and not bool(total.isfinite()):
            raise RuntimeError(
                f"{api}: the total {nt} norm of the gradients is {float(total)}, which cannot be clipped. Find the "
                "non-finite gradient, or pass error_if_nonfinite=False to scale by it anyway."
            )
        coef = (max_norm / (total + 1e-6)).clip(max=1.0)
        for g in grads:
            g.multiply_(coef)
    return total


def clip_grad_value_(parameters: Iterable[Tensor] | Tensor, clip_value: float) -> None:
    """Clip each gradient of ``parameters`` in place to ``[-clip_value, clip_value]`` (parameters without a gradient
    are left out), as Paddle's does."""
    api = "paddle.nn.utils.clip_grad_value_"
    c = float(clip_value)
    with no_grad():
        for p in _tensors(parameters, api):
            g = p.grad
            if g is not None:
                g.clip_(-c, c)


def parameters_to_vector(parameters: Iterable[Tensor], name: str | None = None) -> Tensor:
    """The parameters flattened and concatenated, in the first one's dtype: a new leaf with stop_gradient=False
    (no gradient reaches the parameters through it), as in Paddle."""
    api = "paddle.nn.utils.parameters_to_vector"
    params = _tensors(parameters, api)
    if not params:
        raise ValueError(f"{api}: parameters is empty; pass layer.parameters() of a layer that has some.")
    dtype = params[0].dtype
    with no_grad():
        flat = [p.reshape([-1]) if p.dtype == dtype else p.reshape([-1]).astype(dtype) for p in params]
        out = apply_op(TABLE["concat"], (flat, 0))
    out.stop_gradient = False
    return out


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor], name: str | None = None) -> None:
    """Write the consecutive pieces of the 1-D ``vec`` into ``parameters`` (each piece as many elements as the
    parameter has, reshaped to it; elements of ``vec`` past the last piece are not used), in place, as in Paddle."""
    api = "paddle.nn.utils.vector_to_parameters"
    if not isinstance(vec, Tensor):
        raise TypeError(f"{api}: vec must be a Tensor, but received {type(vec).__name__}.")
    if len(vec.shape) != 1:
        raise ValueError(f"{api}: vec must be 1-D, but has shape {vec.shape}. Flatten it first.")
    params = _tensors(parameters, api)
    sizes = [int(np.prod(p.shape, dtype=np.int64)) for p in params]
    if sum(sizes) > vec.shape[0]:
        raise ValueError(
            f"{api}: the parameters have {sum(sizes)} elements in all, but vec has only {vec.shape[0]}. Pass a "
            "vector with at least as many."
        )
    at = 0
    with no_grad():
        for p, n in zip(params, sizes):
            piece = vec[at:at + n].reshape(p.shape)
            write_values(p, piece if piece.dtype == p.dtype else piece.astype(p.dtype), api)
            at += n
