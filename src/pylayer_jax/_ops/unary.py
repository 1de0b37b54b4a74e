"""One-operand elementwise math.

Floating math (``exp``, ``sin``, ``sqrt`` ...) on integers computes in float32, as Paddle's
autocast does; rounding, sign and absolute value keep the input dtype. What each op saves
follows Paddle: ``exp``, ``expm1``, ``tanh``, ``sqrt``, ``rsqrt``, ``reciprocal``
and ``erfinv`` save their output (with the derivative written in terms of it); the others
save their input, or nothing when the derivative is constant.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import jax.scipy.special as jss

from ._promote import autocast
from .rows import MAP, POINTWISE
from .table import OUT, defop


def _float_op(name, f, saves=("x",), vjp=None, doc=""):
    """Register ``name(x)`` computing ``f`` in floating point."""

    def fn(x):
        return f(autocast(x))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return defop(1, saves=saves, vjp=vjp, name=name, inplace=True, rows=MAP, axes=POINTWISE)(fn)


def _out(rule):
    """An explicit VJP reading only the saved output: ``rule(out, ct)``."""
    return lambda s, g, *attrs: rule(s[OUT], g)


_OUT_SAVING = {
    # computed in the input's dtype: XLA's float32 exp may be one ulp off the correctly rounded result Paddle
    # prints (exp(4) -> 54.598152, Paddle 54.59815); a float64 detour would be a slow path on GPUs and missing on TPUs
    "exp": (jnp.exp, lambda o, g: g * o, "``e ** x``."),
    "expm1": (jnp.expm1, lambda o, g: g * (o + 1), "``e ** x - 1``, accurate near 0."),
    "tanh": (jnp.tanh, lambda o, g: g * (1 - o * o), "Hyperbolic tangent."),
    "sqrt": (jnp.sqrt, lambda o, g: g * 0.5 / o, "Square root."),
    "rsqrt": (jax.lax.rsqrt, lambda o, g: g * -0.5 * o * o * o, "``1 / sqrt(x)``."),
    "reciprocal": (jnp.reciprocal, lambda o, g: -g * o * o, "``1 / x``."),
    "erfinv": (jss.erfinv, lambda o, g: g * (0.5 * math.sqrt(math.pi)) * jnp.exp(o * o), "Inverse error function."),
}
for _name, (_f, _rule, _doc) in _OUT_SAVING.items():
    _float_op(_name, _f, saves=(OUT,), vjp=_out(_rule), doc=_doc)

_IN_SAVING = {
    "log": (jnp.log, "Natural logarithm."),
    "log2": (jnp.log2, "Base-2 logarithm."),
    "log10": (jnp.log10, "Base-10 logarithm."),
    "log1p": (jnp.log1p, "``log(1 + x)``, accurate near 0."),
    "sin": (jnp.sin, "Sine."),
    "cos": (jnp.cos, "Cosine."),
    "tan": (jnp.tan, "Tangent."),
    "asin": (jnp.arcsin, "Inverse sine."),
    "acos": (jnp.arccos, "Inverse cosine."),
    "atan": (jnp.arctan, "Inverse tangent."),
    "sinh": (jnp.sinh, "Hyperbolic sine."),
    "cosh": (jnp.cosh, "Hyperbolic cosine."),
    "asinh": (jnp.arcsinh, "Inverse hyperbolic sine."),
    "acosh": (jnp.arccosh, "Inverse hyperbolic cosine."),
    "atanh": (jnp.arctanh, "Inverse hyperbolic tangent."),
    "erf": (jss.erf, "Error function."),
    "digamma": (jss.digamma, "Derivative of lgamma."),
    "lgamma": (jss.gammaln, "Log of the absolute value of the gamma function."),
}
for _name, (_f, _doc) in _IN_SAVING.items():
    _float_op(_name, _f, doc=_doc)

_float_op("deg2rad", jnp.deg2rad, saves=(), doc="Degrees to radians.")
_float_op("rad2deg", jnp.rad2deg, saves=(), doc="Radians to degrees.")


def _logit_vjp(s, g, eps=None):  # noqa: ANN001, ANN202
    # Paddle's rule: ``g / (x (1 - x))``, 0 outside [eps, 1 - eps] when eps is given; at x = 0 or 1 without eps it
    # is inf (the chain rule through ``log(x / (1 - x))`` gave inf * 0 = NaN at 1)
    x = s["x"]
    xf = autocast(x)
    d = g / (xf * (1 - xf))
    if eps is not None:
        d = jnp.where((xf < eps) | (xf > 1 - eps), 0, d)
    return d.astype(xf.dtype)


@defop(1, saves=("x",), vjp=_logit_vjp, inplace=True, rows=MAP, axes=POINTWISE)
def logit(x, eps=None):
    """``log(x / (1 - x))``; with ``eps``, x is first clipped to ``[eps, 1 - eps]``."""
    x = autocast(x)
    if eps is not None:
        x = jnp.clip(x, eps, 1 - eps)
    return jnp.log(x / (1 - x))


@defop(1, saves=("x",), rows=MAP, axes=POINTWISE, numbers=("scale_a", "scale_b"))
def stanh(x, scale_a=0.67, scale_b=1.7159):
    """``scale_b * tanh(scale_a * x)``."""
    return scale_b * jnp.tanh(scale_a * autocast(x))


# ---- dtype-keeping ops ---------------------------------------------------------------------
def _abs_vjp(s, g):  # noqa: ANN001, ANN202
    # a complex x: the cotangent in JAX's convention, as every derived rule takes it (``conj(x) / |x|``; the
    # unconjugated ``x / |x|`` handed to an fft's or a product's derived rule gave wrong real gradients)
    x = s["x"]
    return g * jnp.conj(jnp.sign(x)) if jnp.iscomplexobj(x) else g * jnp.sign(x)


@defop(1, saves=("x",), vjp=_abs_vjp, inplace=True, rows=MAP, axes=POINTWISE)
def abs(x):
    """Absolute value (the gradient at 0 is 0)."""
    return jnp.abs(x)


@defop(1)
def sign(x):
    """-1, 0 or 1 by the sign of ``x`` (zero gradient); 0.0 for -0.0, as Paddle's."""
    s = jnp.sign(x)
    return jnp.where(x == 0, jnp.zeros((), s.dtype), s) if jnp.issubdtype(s.dtype, jnp.floating) else s


@defop(1)
def sgn(x):
    """``sign`` for real tensors, ``x / |x|`` for complex ones."""
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        a = jnp.abs(x)
        return jnp.where(a == 0, 0, x / jnp.where(a == 0, 1, a)).astype(x.dtype)
    return jnp.sign(x)


@defop(1, inplace=True, rows=MAP, axes=POINTWISE)
def neg(x):
    """``-x``."""
    return jnp.negative(x)


@defop(1, inplace=True)
def floor(x):
    """Round toward negative infinity (zero gradient)."""
    return jnp.floor(x) if jnp.issubdtype(x.dtype, jnp.inexact) else x


@defop(1, inplace=True)
def ceil(x):
    """Round toward positive infinity (zero gradient)."""
    return jnp.ceil(x) if jnp.issubdtype(x.dtype, jnp.inexact) else x


@defop(1, inplace=True)
def round(x, decimals=0):
    """Round half to even, to ``decimals`` decimal places (zero gradient)."""
    return jnp.round(x, decimals) if jnp.issubdtype(x.dtype, jnp.inexact) else x


@defop(1, inplace=True)
def trunc(input):
    """Round toward zero (zero gradient)."""
    return jnp.trunc(input) if jnp.issubdtype(input.dtype, jnp.inexact) else input


@defop(1, inplace=True)
def frac(x):
    """The fractional part ``x - trunc(x)`` (0 for integers)."""
    return x - jnp.trunc(x) if jnp.issubdtype(x.dtype, jnp.inexact) else jnp.zeros_like(x)


@defop(1, saves=("x",), inplace=True, rows=MAP, axes=POINTWISE)
def square(x):
    """``x * x``."""
    return jnp.square(x)


# ---- predicates ------------------------------------------------------------------------------
@defop(1, differentiable=False)
def isfinite(x):
    """True where ``x`` is neither infinite nor NaN."""
    return jnp.isfinite(x)


@defop(1, differentiable=False)
def isinf(x):
    """True where ``x`` is +inf or -inf."""
    return jnp.isinf(x)


@defop(1, differentiable=False)
def isnan(x):
    """True where ``x`` is NaN."""
    return jnp.isnan(x)
