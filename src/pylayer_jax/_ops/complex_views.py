"""Complex views (layer L1): ``as_complex`` / ``view_as_complex`` read the last axis (of size 2) of a float tensor as
the real and imaginary parts of complex numbers; ``as_real`` / ``view_as_real`` split a complex tensor's numbers
into such an axis. In Paddle 3.3.1 each result shares the input's memory; here it is a new array, linked so that a
write which would need that sharing raises (``_tensor.views.REFUSED``). Gradients are JAX's of these functions.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .checks import dtype_of
from .table import defop


def _to_complex_checks(op, a):  # noqa: ANN001, ANN202
    x = a.get("x", a.get("input"))
    dt = dtype_of(x)
    # (Paddle 3.3.1: a RuntimeError for a dtype without a kernel, ValueErrors for the shape)
    if dt is not None and dt not in (np.float32, np.float64):
        raise TypeError(f"{op}: x must be float32 or float64 (read as complex64 or complex128), but it is "
                        f"{dt.name}. Cast it first (x.astype('float32')).")
    if x.ndim == 0 or x.shape[-1] != 2:
        raise ValueError(f"{op}: the last axis of x must have size 2 (the real and imaginary parts), but x has shape "
                         f"{list(x.shape)}. Reshape it to [..., 2] first.")
    return []


def _to_real_checks(op, a):  # noqa: ANN001, ANN202
    dt = dtype_of(a.get("x", a.get("input")))
    if dt is not None and not np.issubdtype(dt, np.complexfloating):
        raise TypeError(f"{op}: x must be complex64 or complex128, but it is {dt.name}. A real tensor has no "
                        "imaginary part to split off; use paddle.stack([x, paddle.zeros_like(x)], -1).")
    return []


def _complex(x):  # noqa: ANN001, ANN202
    return jax.lax.complex(x[..., 0], x[..., 1])


def _real(x):  # noqa: ANN001, ANN202
    return jnp.stack([jnp.real(x), jnp.imag(x)], axis=-1)


@defop(1, checks=_to_complex_checks)
def as_complex(x):
    """Complex numbers from the last axis (size 2) of a float32 / float64 tensor: ``x[..., 0] + 1j * x[..., 1]``."""
    return _complex(x)


@defop(1, checks=_to_complex_checks)
def view_as_complex(input):  # noqa: A002
    """``as_complex`` (PyTorch's name): ``input[..., 0] + 1j * input[..., 1]``."""
    return _complex(input)


@defop(1, checks=_to_real_checks)
def as_real(x):
    """A complex tensor's real and imaginary parts along a new last axis of size 2."""
    return _real(x)


@defop(1, checks=_to_real_checks)
def view_as_real(input):  # noqa: A002
    """``as_real`` (PyTorch's name): the real and imaginary parts along a new last axis of size 2."""
    return _real(input)
