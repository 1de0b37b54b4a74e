"""Special functions and elementwise extras: Bessel, gamma family, sign and bit tricks, complex parts.

Floating math on integers computes in float32 (Paddle's autocast), as in ``unary.py``.
Two-operand ops follow Paddle's dtype rule through ``binary``.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import jax.scipy.special as jss

from ._promote import autocast, binary
from .logic import bitwise_not
from .math import divide
from .table import defop
from .unary import neg


def _special(name, f, saves=("x",), inplace=False, doc="", vjp=None):
    """Register ``name(x)`` computing ``f`` in floating point."""

    def fn(x):
        return f(autocast(x))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return defop(1, saves=saves, name=name, inplace=inplace, vjp=vjp)(fn)


def _i0_vjp(s, g):  # noqa: ANN001, ANN202
    # i0' = i1 (jax's rule through exp(|x|) * i0e(x) gives 1 at x = 0, where the derivative is 0)
    x = autocast(s["x"])
    return (g * jss.i1(x)).astype(x.dtype)


_special("i0", jss.i0, inplace=True, doc="Modified Bessel function of the first kind, order 0.", vjp=_i0_vjp)
_special("i0e", jss.i0e, doc="Exponentially scaled ``i0``: ``exp(-|x|) * i0(x)``.")
_special("i1", jss.i1, doc="Modified Bessel function of the first kind, order 1.")
_special("i1e", jss.i1e, doc="Exponentially scaled ``i1``: ``exp(-|x|) * i1(x)``.")
_special("sinc", jnp.sinc, inplace=True, doc="Normalised sinc: ``sin(pi x) / (pi x)``, 1 at 0.")
_special("gammaln", jss.gammaln, inplace=True, doc="Log of the absolute value of the gamma function.")


@defop(1, saves=("x",), inplace=True)
def polygamma(x, n):
    """The ``n``-th derivative of digamma (``n=0`` is digamma itself)."""
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"polygamma: n must be a non-negative int, but received {n!r}.")
    x = autocast(x)
    return jss.digamma(x) if n == 0 else jss.polygamma(n, x)


@defop(1, saves=("x",), inplace=True)
def multigammaln(x, p):
    """Log of the multivariate gamma function of dimension ``p``: every element must exceed ``(p - 1) / 2``."""
    if not isinstance(p, int) or p < 1:
        raise ValueError(f"multigammaln: p must be a positive int, but received {p!r}.")
    x = autocast(x)
    terms = sum(jss.gammaln(x - 0.5 * j) for j in range(p))
    return (terms + p * (p - 1) / 4 * math.log(math.pi)).astype(x.dtype)


@defop(2, saves=("x", "y"), nondiff=("x",), inplace=True)
def gammainc(x, y):
    """Regularised lower incomplete gamma ``P(x, y)`` (gradient with respect to ``y`` only, as Paddle)."""
    x, y = binary("gammainc", x, y)
    return jss.gammainc(autocast(x), autocast(y))


@defop(2, saves=("x", "y"), nondiff=("x",), inplace=True)
def gammaincc(x, y):
    """Regularised upper incomplete gamma ``Q(x, y) = 1 - P(x, y)`` (gradient with respect to ``y`` only)."""
    x, y = binary("gammaincc", x, y)
    return jss.gammaincc(autocast(x), autocast(y))


# ---- sign and bits ---------------------------------------------------------------------------
@defop(2, saves=("x", "y"), inplace=True)
def copysign(x, y):
    """``|x|`` with the sign of ``y`` (a -0.0 counts as negative); integers stay integers."""
    x, y = binary("copysign", x, y)
    neg = jnp.signbit(jnp.asarray(y))
    x = jnp.asarray(x).astype(jnp.result_type(x, y))  # float32 with float64 is float64, as in Paddle
    ax = x * jnp.sign(x) if jnp.issubdtype(x.dtype, jnp.floating) else jnp.abs(x)  # |x|, its gradient 0 at x == 0
    return jnp.where(neg, -ax, ax)


@defop(2, saves=("x", "y"), inplace=True)
def ldexp(x, y):
    """``x * 2 ** y`` (integers give float32)."""
    x = autocast(x)
    return x * jnp.exp2(jnp.asarray(y).astype(jnp.result_type(x)))


def _int_pair(api, x, y):
    x, y = binary(api, x, y)
    dt = jnp.result_type(x, y)
    if jnp.issubdtype(dt, jnp.inexact):
        return jnp.asarray(x).astype(jnp.int64), jnp.asarray(y).astype(jnp.int64), dt
    return x, y, dt


@defop(2, differentiable=False, inplace=True)
def gcd(x, y):
    """Greatest common divisor (non-negative; ``gcd(0, 0) = 0``)."""
    x, y, dt = _int_pair("gcd", x, y)
    return jnp.gcd(x, y).astype(dt)


@defop(2, differentiable=False, inplace=True)
def lcm(x, y):
    """Least common multiple (non-negative; 0 when either is 0)."""
    x, y, dt = _int_pair("lcm", x, y)
    return jnp.lcm(x, y).astype(dt)


@defop(1, differentiable=False)
def signbit(x):
    """True where the sign bit is set (negative numbers and -0.0)."""
    return jnp.signbit(x)


@defop(2, differentiable=False)
def nextafter(x, y):
    """The next floating-point value after ``x`` towards ``y``."""
    x, y = binary("nextafter", x, y)
    return jnp.nextafter(x, y)


@defop(1, differentiable=False)
def frexp(x):
    """``(mantissa, exponent)`` with ``x = mantissa * 2 ** exponent``, ``0.5 <= |mantissa| < 1``; both in x's dtype."""
    x = autocast(x)
    m, e = jnp.frexp(x)
    return m, e.astype(x.dtype)


def _shift_args(api, x, y):
    for v in (x, y):
        if jnp.issubdtype(jnp.result_type(v), jnp.inexact) or jnp.result_type(v) == jnp.bool_:
            raise TypeError(f"{api}: shifts need integer tensors, but received dtype {jnp.result_type(v)}; cast first.")
    return binary(api, x, y)


@defop(2, differentiable=False, inplace=True)
def bitwise_left_shift(x, y, is_arithmetic=True):
    """``x << y`` on integers (arithmetic and logical left shifts agree)."""
    x, y = _shift_args("bitwise_left_shift", x, y)
    return jnp.left_shift(x, y)


@defop(2, differentiable=False, inplace=True)
def bitwise_right_shift(x, y, is_arithmetic=True):
    """``x >> y`` on integers: sign-extending when ``is_arithmetic``, else filling with zeros."""
    x, y = _shift_args("bitwise_right_shift", x, y)
    dt = jnp.result_type(x, y)  # (a Python number takes the Tensor's dtype: ``64 >> int32_tensor`` is int32)
    x, y = jnp.asarray(x, dt), jnp.asarray(y, dt)
    return jnp.right_shift(x, y) if is_arithmetic else jax.lax.shift_right_logical(x, y)


defop(1, differentiable=False, inplace=True, name="bitwise_invert")(bitwise_not.fn)


# ---- infinities, complex parts -----------------------------------------------------------------
@defop(1, differentiable=False)
def isneginf(x):
    """True where ``x`` is -inf (always False for integers)."""
    return jnp.isneginf(x) if jnp.issubdtype(x.dtype, jnp.inexact) else jnp.zeros(x.shape, bool)


@defop(1, differentiable=False)
def isposinf(x):
    """True where ``x`` is +inf (always False for integers)."""
    return jnp.isposinf(x) if jnp.issubdtype(x.dtype, jnp.inexact) else jnp.zeros(x.shape, bool)


@defop(1, differentiable=False)
def isreal(x):
    """True where the imaginary part is 0 (everywhere for real dtypes)."""
    return jnp.isreal(x)


def _need_complex(api, x):
    if not jnp.issubdtype(x.dtype, jnp.complexfloating):
        raise TypeError(
            f"{api}: needs a complex tensor (complex64 or complex128), but received dtype {x.dtype}; "
            "a real tensor is its own real part."
        )


@defop(1)
def real(x):
    """The real part of a complex tensor."""
    _need_complex("real", x)
    return jnp.real(x)


@defop(1)
def imag(x):
    """The imaginary part of a complex tensor."""
    _need_complex("imag", x)
    return jnp.imag(x)


@defop(1)
def conj(x):
    """Complex conjugate (real tensors are returned unchanged)."""
    return jnp.conj(x)


@defop(1, saves=("x",))
def angle(x):
    """The argument of each element: ``atan2(imag, real)``; pi for negative reals, 0 otherwise (zero gradient).
    At a complex 0 the gradient is 0, as Paddle's (atan2's derivative there is 0/0)."""
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        zero = x == 0
        safe = jnp.where(zero, jnp.ones((), x.dtype), x)
        return jnp.where(zero, jax.lax.stop_gradient(jnp.angle(x)), jnp.angle(safe))
    x = autocast(x)
    return jnp.where(x < 0, jnp.asarray(math.pi, x.dtype), jnp.zeros((), x.dtype))


# ---- Paddle's other names ----------------------------------------------------------------------
defop(1, name="negative")(neg.fn)


@defop(2, saves=("input", "other"))
def true_divide(input, other):
    """``input / other``; integers give float32 (as ``divide``)."""
    return divide.fn(input, other)
