"""Elementwise ops on two or more operands: arithmetic, extrema, selection, clipping.

Every binary op goes through ``binary`` (Paddle's dtype rule: tensors of different dtypes
combine only when both are floating; a Python scalar adapts to the tensor). One-operand
math lives in ``unary.py``.
"""

from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np
from jax import lax

from ._promote import alias, autocast, binary, is_weak
from ._util import exact_input
from .checks import ValueCheck
from .rows import MAP, POINTWISE
from .table import defop


def unbroadcast(g, shape):
    """Sum a broadcast gradient back down to ``shape`` (explicit VJPs of broadcasting ops)."""
    shape = tuple(shape)
    while g.ndim > len(shape):
        g = g.sum(0)
    axes = tuple(i for i, (a, b) in enumerate(zip(g.shape, shape)) if b == 1 and a != 1)
    return g.sum(axes, keepdims=True) if axes else g


# ---- arithmetic -------------------------------------------------------------------------
@defop(2, inplace=True, rows=MAP, axes=POINTWISE)
def add(x, y):
    """Elementwise ``x + y`` with broadcasting."""
    x, y = binary("add", x, y)
    return jnp.add(x, y)


@defop(2, inplace=True, rows=MAP, axes=POINTWISE)
def subtract(x, y):
    """Elementwise ``x - y`` with broadcasting."""
    x, y = binary("subtract", x, y)
    return jnp.subtract(x, y)


@defop(2, saves=("x", "y"), inplace=True, rows=MAP, axes=POINTWISE)
def multiply(x, y):
    """Elementwise ``x * y`` with broadcasting."""
    x, y = binary("multiply", x, y)
    return jnp.multiply(x, y)


def _divide_vjp(s, g, rounding_mode=None):
    x, y, out = s["x"], s["y"], s["out"]
    if rounding_mode is not None:
        return jnp.zeros(jnp.shape(x)), jnp.zeros(jnp.shape(y))
    gx = g / y
    return unbroadcast(gx, jnp.shape(x)), unbroadcast(-gx * out, jnp.shape(y))


@defop(2, saves=("x", "y", "out"), vjp=_divide_vjp, inplace=True, rows=MAP, axes=POINTWISE)
def divide(x, y, rounding_mode=None):
    """``x / y``; integers give float32. ``rounding_mode`` 'trunc' or 'floor' rounds the quotient."""
    x, y = binary("divide", x, y)
    if rounding_mode is None:
        return jnp.divide(autocast(x), autocast(y))
    if rounding_mode == "floor":
        return jnp.floor_divide(x, y)
    if rounding_mode == "trunc":
        q = jnp.trunc(jnp.divide(x, y))
        return q.astype(jnp.result_type(x, y))
    raise ValueError(f"divide: rounding_mode must be None, 'trunc' or 'floor', but received {rounding_mode!r}.")


def _int_divisor(op, a):  # noqa: ANN001, ANN202
    y = a["y"]
    dt = getattr(y, "dtype", None)
    if isinstance(y, int) and not isinstance(y, bool):
        if y == 0 and not isinstance(a["x"], float) and _is_int_dtype(getattr(a["x"], "dtype", None)):
            raise ZeroDivisionError(f"{op}: integer division by zero; the divisor y is 0.")
        return []
    if dt is None or not _is_int_dtype(dt):
        return []
    return [ValueCheck(y, f"{op}: integer division by zero; the divisor y holds {{value}}. Integer tensors cannot be "
                       "divided by zero: check the divisor.", nonzero=True, exc=ZeroDivisionError)]


def _is_int_dtype(dt) -> bool:  # noqa: ANN001
    return dt is not None and "int" in str(dt) and "uint" not in str(dt) or str(dt) in ("uint8",)


@defop(2, differentiable=False, inplace=True, checks=_int_divisor)
def floor_divide(x, y):
    """``x // y`` rounding toward negative infinity (no gradient, as in Paddle)."""
    x, y = binary("floor_divide", x, y)
    return jnp.floor_divide(x, y)


@defop(2, saves=("x", "y"), inplace=True, checks=_int_divisor)
def remainder(x, y):
    """``x mod y`` with the sign of ``y`` (Python's rule)."""
    x, y = binary("remainder", x, y)
    return jnp.remainder(x, y)


def _int_power(op, a):  # noqa: ANN001, ANN202
    """An integer base to a negative integer power has no integer result (Paddle 3.3.1 hangs on it; jnp
    returns garbage): a ValueError, at the call for a Python exponent, when the values are known otherwise."""
    x, y = a["x"], a["y"]
    if type(x) is int and _is_int_dtype(getattr(y, "dtype", None)):  # ``2 ** i``: a Python integer base
        return [ValueCheck(y, f"{op}: an integer raised to a negative integer power has no integer result; the "
                           "exponent tensor holds {value}. Make the base a float (2.0 ** y) or cast the exponent "
                           "(2 ** y.astype('float32')).", lo=0)]
    if not _is_int_dtype(getattr(x, "dtype", None)):
        return []
    msg = (f"{op}: an integer tensor raised to a negative integer power has no integer result; the exponent "
           "holds {value}. Cast the base to a float dtype first (x.astype('float32') ** y).")
    if isinstance(y, int) and not isinstance(y, bool):
        if y < 0:
            raise ValueError(msg.format(value=y))
        return []
    if isinstance(y, float) and not y.is_integer():
        # Paddle 3.3.1 keeps the integer dtype and truncates the exponent (paddle.pow(int64 [2, 3], 2.5) is
        # [4, 9]): no power of 2.5 at all, so a clear error rather than either wrong answer
        raise ValueError(f"{op}: an integer tensor raised to the non-whole Python float exponent {y!r} keeps its "
                         f"integer dtype {x.dtype} in Paddle, which truncates the exponent to {int(y) if math.isfinite(y) else y}; "
                         f"cast the base first (paddle.pow(x.astype('float32'), {y!r})) or write x ** {y!r}, "
                         "which gives float32.")
    if _is_int_dtype(getattr(y, "dtype", None)):
        return [ValueCheck(y, msg, lo=0)]
    return []


_int_power.int_base_only = True  # nothing to check on a floating base (dispatch's short path then skips it)


@defop(2, saves=("x", "y"), inplace=True, checks=_int_power, rows=MAP, axes=POINTWISE)
def pow(x, y):
    """``x ** y``; with a Python scalar ``y`` the result keeps x's dtype."""
    if is_weak(y):
        if isinstance(y, int | float) and y == 0:  # 1 everywhere, its gradient 0 (jnp's 0 * x ** -1 is NaN at 0)
            return jnp.ones_like(x)
        return jnp.power(x, y).astype(jnp.result_type(x))
    x, y = binary("pow", x, y)
    if jnp.issubdtype(jnp.result_type(x), jnp.floating):
        # where y == 0 the base gets gradient 0, as Paddle's (jnp's y * x ** (y - 1) is 0 * inf = NaN at x = 0)
        x = jnp.where(y == 0, lax.stop_gradient(x), x)
    return jnp.power(x, y)


@defop(1, saves=("x",), method=False, rows=MAP, axes=POINTWISE)
def pow_number(x, factor):
    """``x ** factor`` for a floating ``x`` and a Python number ``factor`` compiled in (Paddle's ``pow`` op takes
    it as an attribute): ``x ** 2`` is one multiply and its gradient ``2 * x``, where an exponent passed as an
    input costs XLA's general power (~10 us on a 64x8 block on CPU, as much as the rest of a small step's program).
    Keeps x's dtype."""
    if factor == 0:  # 1 everywhere, its gradient 0 as in Paddle (jnp's 0 * x ** -1 is NaN at x = 0)
        return jnp.ones_like(x)
    return jnp.power(x, factor).astype(x.dtype)


def _scale_input(dtype, name, v):  # noqa: ANN001, ANN202
    """scale's numbers may be inputs on a float32 or float64 tensor: a factor not of magnitude 1 (``-x + bias`` is
    ``bias - x``, ``1.0 * x`` folded away), a bias not 0 (``_plus``), each normal in the dtype (``exact_input``)."""
    return exact_input(dtype, factors=(v,)) if name == "scale" else exact_input(dtype, v)


# (a factor or bias that changes every step, ``paddle.scale(x, s, b)`` on a schedule, is a number input)
@defop(1, inplace=True, rows=MAP, axes=POINTWISE, numbers=("scale", "bias"), numbers_if=_scale_input)
def scale(x, scale=1.0, bias=0.0, bias_after_scale=True):
    """``scale * x + bias`` (or ``scale * (x + bias)``), keeping x's dtype (``paddle.scale`` applies ``act``)."""
    dt = x.dtype
    if not jnp.issubdtype(dt, jnp.inexact):  # Paddle's kernel casts both numbers to x's integer type (truncating)
        scale = int(scale) if isinstance(scale, int | float) else jnp.asarray(scale).astype(dt)
        bias = int(bias)
    if bias_after_scale and type(scale) in (int, float) and scale == -1 and jnp.issubdtype(dt, jnp.floating):
        out = bias - x  # ``1 - y``: one subtract (``-x + bias`` is ``bias - x`` exactly), as jax writes it
    else:
        out = _plus(x * scale, bias) if bias_after_scale else _plus(x, bias) * scale
    return out.astype(dt)


def _plus(a, b):  # noqa: ANN001, ANN202
    """``a + b``, also for ``b = +0.0``: XLA drops that addition, which would keep a -0.0 that Paddle's turns
    into +0.0 (``scale(-0.0, 1.0, 0.0)`` is 0.0). The zero added instead is a select XLA cannot fold (``-a`` where
    ``a`` is zero), held out of the derivative, which stays 1."""
    if isinstance(b, int | float) and b == 0 and not math.copysign(1.0, b) < 0 and jnp.issubdtype(a.dtype, jnp.inexact):
        return a + lax.stop_gradient(jnp.where(a == 0, -a, jnp.zeros((), a.dtype)))
    return a + b


@defop(("x", "s"), saves=("s",), nondiff=("s",), method=False, rows=MAP, axes=POINTWISE)
def scale_by(x, s):
    """``x * s`` for a Python number ``s`` taken as a traced input (one kernel serves every value of ``s``, so a
    coefficient that changes each step compiles nothing new), keeping x's dtype; its backward reads only ``s``,
    as ``scale``'s: x may be changed in place afterwards. A zero product is +0.0, as ``scale``'s."""
    return _plus((x * s).astype(x.dtype), 0.0)


@defop(("x", "s"), saves=("s",), nondiff=("s",), method=False, rows=MAP, axes=POINTWISE)
def divide_by(x, s):
    """``x / s`` for a Python number ``s`` taken as a traced input, as ``scale_by`` takes its factor (a divisor that
    changes each step, such as a temperature, compiles nothing new), keeping x's dtype; ``-0.0 / 2`` stays -0.0
    and ``x / 0.0`` is inf or nan. XLA makes it a multiply by ``1 / s`` (within an ulp of Paddle's true division).
    Its backward reads only ``s``."""
    return (x / s).astype(x.dtype)


@defop(1, inplace=True)
def increment(x, value=1.0):
    """``x + value``, keeping x's dtype."""
    return (x + value).astype(x.dtype)


@defop(1, name="add_n", method=False)
def add_n(inputs):
    """The elementwise sum of a list of tensors of one shape and dtype."""
    if not isinstance(inputs, list | tuple):
        return inputs
    out = inputs[0]
    for t in inputs[1:]:
        out = jnp.add(*binary("add_n", out, t))
    return out


@defop(("inputs", "index"), nondiff=("index",), saves=("index",), method=False)
def multiplex(inputs, index):
    """Row ``i`` of the result is row ``i`` of ``inputs[index[i, 0]]``."""
    stacked = jnp.stack(list(inputs))
    rows = jnp.reshape(index, (-1,)).astype(jnp.int32)
    return stacked[rows, jnp.arange(stacked.shape[1])]


# ---- extrema, selection ----------------------------------------------------------------
def _extremum_vjp(first):  # noqa: ANN001, ANN202
    """``first(x, y)`` is where x alone wins: it gets the gradient there, y where y wins, each half on a tie (as
    Paddle's kernels; neither where one is NaN)."""
    def rule(s, g):  # noqa: ANN001, ANN202
        x, y = binary("maximum", s["x"], s["y"])
        half = jnp.where(x == y, 0.5, 0.0)
        return (g * jnp.where(first(x, y), 1.0, half).astype(g.dtype),
                g * jnp.where(first(y, x), 1.0, half).astype(g.dtype))
    return rule


# x where it wins or is NaN, else y: on a tie the result is y, as Paddle's (maximum(0.0, -0.0) is -0.0)
@defop(2, rows=MAP, axes=POINTWISE, saves=("x", "y"), vjp=_extremum_vjp(jnp.greater))
def maximum(x, y):
    """Elementwise maximum; NaN propagates; ties split the gradient evenly."""
    x, y = binary("maximum", x, y)
    return jnp.where((x > y) | (x != x), x, y)


@defop(2, rows=MAP, axes=POINTWISE, saves=("x", "y"), vjp=_extremum_vjp(jnp.less))
def minimum(x, y):
    """Elementwise minimum; NaN propagates; ties split the gradient evenly."""
    x, y = binary("minimum", x, y)
    return jnp.where((x < y) | (x != x), x, y)


@defop(2, saves=("x", "y"))
def fmax(x, y):
    """Elementwise maximum ignoring NaN; on ties the gradient goes to ``x``."""
    x, y = binary("fmax", x, y)
    return jnp.where((x >= y) | jnp.isnan(y), x, y)


@defop(2, saves=("x", "y"))
def fmin(x, y):
    """Elementwise minimum ignoring NaN; on ties the gradient goes to ``x``."""
    x, y = binary("fmin", x, y)
    return jnp.where((x <= y) | jnp.isnan(y), x, y)


def _bound_is_float(v):
    return v is not None and jnp.issubdtype(jnp.result_type(v), jnp.inexact)


def _clip_checks(op, a):  # noqa: ANN001, ANN202
    lo, hi = a["min"], a["max"]
    for name, b in (("min", lo), ("max", hi)):
        if isinstance(b, float) and math.isnan(b):
            raise ValueError(f"{op}: {name} must be a number, but received nan (Paddle checks min <= max, which nan "
                             f"fails); pass None to leave that side unbounded.")
    if isinstance(lo, int | float) and isinstance(hi, int | float) and lo > hi:
        raise ValueError(f"{op}: min must not exceed max, but received min={lo} and max={hi}.")
    return []


# the bound Paddle's ``clip`` puts in place of a missing one, by x's dtype: a float's finite extremes, so that
# ``clip(x, max=0)`` maps -inf to the lowest finite number (and its gradient there is 0)
_CLIP_DEFAULTS = {
    "int32": (np.iinfo(np.int32).min, np.iinfo(np.int32).max - 2**7),
    "int64": (np.iinfo(np.int64).min, np.iinfo(np.int64).max - 2**39),
    "float16": (float(np.finfo(np.float16).min), float(np.finfo(np.float16).max)),
    "bfloat16": (float(np.finfo(np.float16).min), float(np.finfo(np.float16).max)),
    "float32": (float(np.finfo(np.float32).min), float(np.finfo(np.float32).max)),
    "float64": (float(np.finfo(np.float64).min), float(np.finfo(np.float64).max)),
}


@defop(3, saves=("x", "min", "max"), nondiff=("min", "max"), inplace=True, checks=_clip_checks, rows=MAP, axes=POINTWISE)
def clip(x, min=None, max=None):
    """Limit ``x`` to ``[min, max]`` (scalars or broadcastable tensors); the gradient passes where
    ``min <= x <= max``. An integer ``x`` with a float bound becomes float32."""
    if not jnp.issubdtype(x.dtype, jnp.inexact) and (_bound_is_float(min) or _bound_is_float(max)):
        x = x.astype(jnp.float32)
    bounds = _CLIP_DEFAULTS.get(jnp.dtype(x.dtype).name)
    if bounds is not None:
        min, max = bounds[0] if min is None else min, bounds[1] if max is None else max
    out = x
    if min is not None:
        out = jnp.where(x < min, jnp.asarray(min).astype(x.dtype), out)
    if max is not None:
        out = jnp.where(x > max, jnp.asarray(max).astype(x.dtype), out)
    if jnp.issubdtype(x.dtype, jnp.floating):
        out = jnp.where(x == x, out, lax.stop_gradient(x))  # a NaN passes through, its gradient 0 as in Paddle
    return out


@defop(("condition", "x", "y"), saves=("condition",), nondiff=("condition",), rows=MAP, axes=POINTWISE)
def where(condition, x=None, y=None):
    """``x`` where ``condition`` is true, else ``y`` (either may be a Python scalar)."""
    if x is None or y is None:
        raise ValueError(
            "where: both x and y must be given (received None); to get the indices of true elements use "
            "paddle.nonzero(condition, as_tuple=True)."
        )
    both_weak = is_weak(x) and is_weak(y)
    x, y = binary("where", x, y)
    out = jnp.where(jnp.asarray(condition).astype(bool), x, y)
    if both_weak:
        out = out.astype(jnp.float32 if jnp.issubdtype(out.dtype, jnp.inexact) else jnp.int64)
    return out


@defop(3, saves=("x", "y", "weight"), nondiff=("weight",), inplace=True)
def lerp(x, y, weight):
    """``x + weight * (y - x)``. As in Paddle, a weight tensor gets no gradient (lerp's backward gives ``x`` and
    ``y`` theirs only), and an output whose only input needing a gradient is the weight needs none."""
    x, y = binary("lerp", x, y)
    dt = jnp.result_type(x, y)
    return (x + weight * (y - x)).astype(dt)


@defop(2, saves=("x",))
def heaviside(x, y):
    """0 where ``x < 0``, ``y`` where ``x == 0``, 1 where ``x > 0`` (and 0 where x is NaN, as Paddle's kernel)."""
    x, y = binary("heaviside", x, y)
    dt = jnp.result_type(x, y)  # integers stay integers (jnp gives float64)
    return jnp.where(x == 0, jnp.asarray(y).astype(dt), (x > 0).astype(dt))


# ---- floating two-operand math ---------------------------------------------------------
@defop(2, saves=("x", "y"))
def atan2(x, y):
    """Elementwise arctangent of ``x / y`` in the right quadrant; integers give float64 as in Paddle."""
    x, y = binary("atan2", x, y)
    if not jnp.issubdtype(jnp.result_type(x, y), jnp.inexact):
        x, y = jnp.asarray(x, jnp.float64), jnp.asarray(y, jnp.float64)
    return jnp.arctan2(x, y)


@defop(2, saves=("x", "y"), inplace=True)
def hypot(x, y):
    """``sqrt(x**2 + y**2)``; integers give float32."""
    x, y = binary("hypot", x, y)
    return jnp.hypot(autocast(x), autocast(y))


@defop(2, saves=("x", "y"))
def logaddexp(x, y):
    """``log(exp(x) + exp(y))`` computed stably; integers give float32."""
    x, y = binary("logaddexp", x, y)
    return jnp.logaddexp(autocast(x), autocast(y))


@defop(1, saves=("x",), inplace=True)
def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """Replace NaN and infinities by finite numbers (the dtype's extremes by default)."""
    return jnp.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


# ---- Paddle's other names -----------------------------------------------------------------
# public functions that are not Tensor methods
FUNCTIONS = ("add_n", "multiplex")

for _orig, _names in {
    remainder: ("mod", "floor_mod"),
    subtract: ("sub",),
    multiply: ("mul",),
    divide: ("div",),
    clip: ("clamp",),
}.items():
    for _n in _names:
        alias(_orig, _n)
