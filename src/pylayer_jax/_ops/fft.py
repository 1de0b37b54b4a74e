"""Discrete Fourier transforms (Paddle's ``paddle.fft`` family), as Paddle's three kernels.

``fft_c2c`` (complex to complex: fft, ifft, fftn, ...), ``fft_r2c`` (real to a one-sided complex spectrum: rfft,
ihfft, ...) and ``fft_c2r`` (a one-sided spectrum back to real: irfft, hfft, ...), each over the axes ``axes`` with
the transform sizes ``s`` (None: the input's; the input cropped or zero-padded to them). ``forward`` picks the sign
of the exponent as Paddle's kernels do: ``fft_r2c`` with ``forward=False`` is ihfft and ``fft_c2r`` with
``forward=True`` is hfft. The public functions (``_api.fft``) check the arguments and resolve ``s`` and ``axes``;
these kernels take them resolved. Each transform is linear, so the backward reads nothing (JAX derives it).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .._runtime import dtypes as _dtypes
from .table import defop

# the norm of the transform in the other direction: ihfft is the conjugate of rfft with the swapped norm,
# hfft the real inverse transform of the conjugate with the swapped norm (numpy's definitions)
_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _default_complex() -> jnp.dtype:
    return jnp.dtype(jnp.complex128 if _dtypes.default_float() == jnp.float64 else jnp.complex64)


def _as_complex(x):  # noqa: ANN001, ANN202
    """Integers become the complex dtype of the default float dtype, floats the complex dtype of their width."""
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        return x
    if jnp.issubdtype(x.dtype, jnp.floating):
        return x.astype(jnp.complex128 if x.dtype == jnp.float64 else jnp.complex64)
    return x.astype(_default_complex())


def _as_real(x):  # noqa: ANN001, ANN202
    """Integers become the default float dtype (Paddle's r2c rule)."""
    if jnp.issubdtype(x.dtype, jnp.floating):
        return x
    return x.astype(_dtypes.default_float())


@defop(1, method=False, name="fft_c2c")
def fft_c2c(x, axes, s=None, norm="backward", forward=True):
    """The complex transform of ``x`` over ``axes`` (sizes ``s``): forward (fft) or inverse (ifft)."""
    x = _as_complex(x)
    f = jnp.fft.fftn if forward else jnp.fft.ifftn
    return f(x, s=s, axes=axes, norm=norm)


@defop(1, method=False, name="fft_r2c")
def fft_r2c(x, axes, s=None, norm="backward", forward=True):
    """The one-sided spectrum of the real ``x`` over ``axes`` (the last one halved): rfftn, or with
    ``forward=False`` ihfftn (the conjugate of rfftn with the swapped norm)."""
    x = _as_real(x)
    if forward:
        return jnp.fft.rfftn(x, s=s, axes=axes, norm=norm)
    return jnp.conj(jnp.fft.rfftn(x, s=s, axes=axes, norm=_SWAP[norm]))


@defop(1, method=False, name="fft_c2r")
def fft_c2r(x, axes, s=None, norm="backward", forward=False):
    """The real signal of the one-sided spectrum ``x`` over ``axes``: irfftn, or with ``forward=True`` hfftn (irfftn
    of the conjugate with the swapped norm). ``s[-1]`` is the output length of the last axis."""
    x = _as_complex(x)
    if forward:
        return jnp.fft.irfftn(jnp.conj(x), s=s, axes=axes, norm=_SWAP[norm])
    return jnp.fft.irfftn(x, s=s, axes=axes, norm=norm)


# ---- paddle.complex: a complex tensor from its real and imaginary parts ---------------------------------------
FUNCTIONS = {"complex"}  # table ops that are ``paddle.<name>`` functions but no Tensor methods


def _complex_checks(_, a):  # noqa: ANN001, ANN202
    dts = [getattr(a[p], "dtype", None) for p in ("real", "imag")]
    names = [None if d is None else _dtypes.to_paddle(d).name for d in dts]
    for p, n in zip(("real", "imag"), names):
        if n is None:
            raise TypeError(f"paddle.complex: {p} must be a Tensor, but received {type(a[p]).__name__}. Make one "
                            "with paddle.to_tensor(...) first.")
        if n not in ("float32", "float64"):
            raise RuntimeError(f"paddle.complex: {p} must be a float32 or float64 tensor, but received dtype {n}. "
                               f"Cast it with {p}.astype('float32').")
    if names[0] != names[1]:
        raise ValueError(f"paddle.complex: real and imag must have the same dtype, but received {names[0]} and "
                         f"{names[1]}. Cast one of them to the other's dtype.")
    return []


@defop(2, method=False, checks=_complex_checks)
def complex(real, imag):  # noqa: A001  (Paddle's name)
    """The complex tensor ``real + 1j * imag`` (broadcast; float32 parts give complex64, float64 complex128)."""
    return jax.lax.complex(*jnp.broadcast_arrays(real, imag))
