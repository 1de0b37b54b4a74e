"""``paddle.decomposition.primitives``: the operators decomposition rules are written with (the package's own
functions)."""

from __future__ import annotations

import sys as _sys

_ROOT = _sys.modules[__name__.split(".")[0]]

__all__ = [
    "abs", "acos", "acosh", "add", "asin", "asinh", "assign", "atan", "atanh", "broadcast_shape", "broadcast_to",
    "cast", "concat", "cos", "cosh", "cumprod", "cumsum", "digamma", "divide", "erf", "erfinv", "exp", "expm1",
    "full", "gather", "greater_equal", "lgamma", "log", "log1p", "logcumsumexp", "logit", "logsumexp", "max",
    "maximum", "min", "minimum", "multiply", "ones", "pow", "prod", "reshape", "rsqrt", "sign", "sin", "sinh", "sqrt",
    "subtract", "sum", "tan", "tanh", "tile", "uniform", "zeros", "zeros_like",
]
abs = _ROOT.abs  # noqa: A001
acos = _ROOT.acos
acosh = _ROOT.acosh
add = _ROOT.add
asin = _ROOT.asin
asinh = _ROOT.asinh
assign = _ROOT.assign
atan = _ROOT.atan
atanh = _ROOT.atanh
broadcast_shape = _ROOT.broadcast_shape
broadcast_to = _ROOT.broadcast_to
cast = _ROOT.cast
concat = _ROOT.concat
cos = _ROOT.cos
cosh = _ROOT.cosh
cumprod = _ROOT.cumprod
cumsum = _ROOT.cumsum
digamma = _ROOT.digamma
divide = _ROOT.divide
erf = _ROOT.erf
erfinv = _ROOT.erfinv
exp = _ROOT.exp
expm1 = _ROOT.expm1
full = _ROOT.full
gather = _ROOT.gather
greater_equal = _ROOT.greater_equal
lgamma = _ROOT.lgamma
log = _ROOT.log
log1p = _ROOT.log1p
logcumsumexp = _ROOT.logcumsumexp
logit = _ROOT.logit
logsumexp = _ROOT.logsumexp
max = _ROOT.max  # noqa: A001
maximum = _ROOT.maximum
min = _ROOT.min  # noqa: A001
minimum = _ROOT.minimum
multiply = _ROOT.multiply
ones = _ROOT.ones
pow = _ROOT.pow  # noqa: A001
prod = _ROOT.prod
reshape = _ROOT.reshape
rsqrt = _ROOT.rsqrt
sign = _ROOT.sign
sin = _ROOT.sin
sinh = _ROOT.sinh
sqrt = _ROOT.sqrt
subtract = _ROOT.subtract
sum = _ROOT.sum  # noqa: A001
tan = _ROOT.tan
tanh = _ROOT.tanh
tile = _ROOT.tile
uniform = _ROOT.uniform
zeros = _ROOT.zeros
zeros_like = _ROOT.zeros_like
