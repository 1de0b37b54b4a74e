"""Sample inputs for every op in the table; ``tests/test_ops_generated.py`` turns them into tests.

Every op registered with ``defop`` needs at least one entry in ``SAMPLES`` (the generated
test fails for an op without one). Op families append their own block at the end of this
file with ``SAMPLES.update({...})``.

Conventions for ``Sample.args`` (the op's positional parameters, in order):
- a numpy array in a tensor position becomes a Tensor; floating arrays are cast to the
  dtype under test (float32 and float64 variants) and, unless the parameter is in the op's
  ``nondiff``, get ``stop_gradient=False`` and are checked against ``jax.vjp``;
- a list of numpy arrays in a tensor position becomes a list of Tensors (concat, stack);
- anything else (Python scalars, None, attributes) is passed unchanged.
``grad=False`` skips the gradient checks for that sample (kinks, integer-only ops);
``ref`` is an optional numpy reference called with the numpy args and kwargs;
``tol`` overrides the float32 tolerance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

_rng = np.random.default_rng(0)


@dataclass
class Sample:
    args: tuple
    kwargs: dict[str, Any] = field(default_factory=dict)
    grad: bool = True
    ref: Callable[..., Any] | None = None
    tol: float | None = None


def rand(*shape: int, low: float = -1.0, high: float = 1.0) -> np.ndarray:
    """float64 uniform values in [low, high)."""
    return _rng.uniform(low, high, size=shape).astype(np.float64)


def pos(*shape: int) -> np.ndarray:
    """float64 values in [0.5, 2): safe for log, sqrt, division."""
    return rand(*shape, low=0.5, high=2.0)


def away(*shape: int, gap: float = 0.1) -> np.ndarray:
    """float64 values in [-1, 1] at least ``gap`` away from 0 (kinks of relu, abs, sign)."""
    a = rand(*shape, low=gap, high=1.0)
    return a * np.where(_rng.uniform(size=shape) < 0.5, -1.0, 1.0)


def randint(*shape: int, low: int = -5, high: int = 6) -> np.ndarray:
    """int64 values in [low, high)."""
    return _rng.integers(low, high, size=shape).astype(np.int64)


def idx(values: Any) -> np.ndarray:
    """An int64 index array."""
    return np.asarray(values, np.int64)


# ops whose outputs are random: only shapes and dtypes are compared
RANDOM_OPS: set[str] = set()

SAMPLES: dict[str, list[Sample]] = {}

# ---- _ops/math.py ---------------------------------------------------------------------
SAMPLES.update(
    {
        "add": [
            Sample((rand(2, 3), rand(2, 3)), ref=np.add),
            Sample((rand(2, 3), rand(3)), ref=np.add),  # broadcasting
            Sample((rand(4, 1), rand(1, 3)), ref=np.add),
            Sample((rand(2, 3), 2.5), ref=np.add),
            Sample((randint(2, 3), randint(2, 3)), ref=np.add),
        ],
        "subtract": [
            Sample((rand(2, 3), rand(2, 3)), ref=np.subtract),
            Sample((rand(3), rand(2, 3)), ref=np.subtract),
            Sample((randint(3), randint(3)), ref=np.subtract),
        ],
        "multiply": [
            Sample((rand(2, 3), rand(2, 3)), ref=np.multiply),
            Sample((rand(2, 1), rand(3)), ref=np.multiply),
            Sample((randint(3), randint(3)), ref=np.multiply),
        ],
        "divide": [
            Sample((rand(2, 3), pos(2, 3)), ref=np.divide),
            Sample((rand(3), pos(2, 3)), ref=np.divide),
        ],
        "scale": [
            Sample((rand(2, 3), 2.0, 0.5), ref=lambda x, s, b: x * s + b),
            Sample((rand(2, 3),), {"scale": 3.0, "bias": 1.0, "bias_after_scale": False}),
            Sample((randint(4), 2, 1), ref=lambda x, s, b: x * s + b),
        ],
        "tanh": [Sample((rand(2, 3),), ref=np.tanh)],
        "exp": [Sample((rand(2, 3),), ref=np.exp)],
        "square": [Sample((rand(2, 3),), ref=np.square), Sample((randint(3),), ref=np.square)],
        "relu": [Sample((away(2, 3),), ref=lambda x: np.maximum(x, 0))],
        "mean": [
            Sample((rand(2, 3),), ref=np.mean),
            Sample((rand(2, 3, 4), 1), ref=lambda x, a: np.mean(x, axis=a)),
            Sample((rand(2, 3, 4),), {"axis": [0, 2], "keepdim": True},
                   ref=lambda x, axis, keepdim: np.mean(x, axis=tuple(axis), keepdims=keepdim)),
            Sample((rand(2, 3),), {"axis": -1, "keepdim": True}),
        ],
        "sum": [
            Sample((rand(2, 3),), ref=np.sum),
            Sample((rand(2, 3, 4), 1), ref=lambda x, a: np.sum(x, axis=a)),
            Sample((rand(2, 3),), {"axis": [0, 1], "keepdim": True},
                   ref=lambda x, axis, keepdim: np.sum(x, axis=tuple(axis), keepdims=keepdim)),
            Sample((randint(2, 3),), ref=np.sum),
            Sample((np.array([True, False, True]),), ref=np.sum),
        ],
        "matmul": [
            Sample((rand(2, 3), rand(3, 4)), ref=np.matmul),
            Sample((rand(2, 2, 3), rand(3, 4)), ref=np.matmul),  # batched with broadcasting
            Sample((rand(3, 2), rand(4, 3)), {"transpose_x": True, "transpose_y": True},
                   ref=lambda x, y, transpose_x, transpose_y: x.T @ y.T),
            Sample((rand(3), rand(3)), ref=np.matmul),
        ],
    }
)

# ---- _ops/indexing.py -----------------------------------------------------------------
SAMPLES.update(
    {
        # getitem(x, indices, spec): spec is static (ints, ("slice", a, b, c), None, "...", "T")
        "getitem": [
            Sample((rand(4, 3), [], (1,)), ref=lambda x, i, s: x[1]),
            Sample((rand(4, 3), [], (("slice", None, None, 2), -1)), ref=lambda x, i, s: x[::2, -1]),
            Sample((rand(2, 3, 4), [], ("...", None, 1)), ref=lambda x, i, s: x[..., None, 1]),
            Sample((rand(5, 3), [idx([0, 3, 3])], ("T",)), ref=lambda x, i, s: x[i[0]]),
            Sample((rand(5, 3), [idx([4, 0]), idx([2, 1])], ("T", "T")), ref=lambda x, i, s: x[i[0], i[1]]),
        ],
        "setitem": [
            Sample((rand(4, 3), [], rand(3), (1,))),
            Sample((rand(4, 3), [idx([0, 2])], rand(2, 3), ("T",))),
            Sample((rand(4, 3), [], 2.0, (("slice", 1, None, None),))),
        ],
        "cast": [
            Sample((rand(2, 3), "float64"), ref=lambda x, d: x.astype(d)),
            Sample((rand(2, 3), "float32")),
            Sample((rand(2, 3) * 5, "int64"), grad=False),
            Sample((randint(4), "float32"), ref=lambda x, d: x.astype(d)),
        ],
    }
)

# ---- _ops/math.py: binary arithmetic, extrema, selection (elementwise family) ---------------
_cond = np.array([[True, False, True], [False, True, True]])
SAMPLES.update(
    {
        "floor_divide": [
            Sample((randint(2, 3), np.array([2, -3, 4], np.int64)), ref=np.floor_divide),
            Sample((rand(2, 3) * 5, pos(2, 3)), ref=np.floor_divide),
        ],
        "remainder": [
            Sample((rand(2, 3) * 5, pos(2, 3)), ref=np.remainder),
            Sample((randint(2, 3), np.array([2, -3, 4], np.int64)), ref=np.remainder),
        ],
        "pow": [
            Sample((pos(2, 3), rand(2, 3)), ref=np.power),
            Sample((rand(2, 3), 2.0), ref=np.power),
            Sample((pos(3), 3), ref=np.power),
            Sample((randint(3), 2), ref=np.power),
        ],
        "increment": [Sample((rand(3),), ref=lambda x: x + 1), Sample((rand(1), 2.5), ref=lambda x, v: x + v)],
        "add_n": [Sample(([rand(2, 3), rand(2, 3), rand(2, 3)],), ref=lambda xs: sum(xs))],
        "multiplex": [
            Sample(([rand(3, 2), rand(3, 2)], idx([[0], [1], [0]])),
                   ref=lambda xs, i: np.stack(xs)[i[:, 0], np.arange(3)]),
        ],
        "maximum": [Sample((rand(2, 3), rand(2, 3)), ref=np.maximum), Sample((rand(2, 3), rand(3)), ref=np.maximum)],
        "minimum": [Sample((rand(2, 3), rand(2, 3)), ref=np.minimum), Sample((rand(3), 0.2), ref=np.minimum)],
        "fmax": [
            Sample((rand(2, 3), rand(2, 3)), ref=np.fmax),
            Sample((np.array([np.nan, 1.0, 2.0]), np.array([0.5, np.nan, 3.0])), grad=False, ref=np.fmax),
        ],
        "fmin": [
            Sample((rand(2, 3), rand(2, 3)), ref=np.fmin),
            Sample((np.array([np.nan, 1.0, 2.0]), np.array([0.5, np.nan, 3.0])), grad=False, ref=np.fmin),
        ],
        "clip": [
            Sample((rand(2, 3), -0.5, 0.5), ref=np.clip),
            Sample((rand(2, 3),), {"min": 0.1}),
            Sample((rand(2, 3), np.full((3,), -0.3), np.full((2, 1), 0.4)), ref=np.clip),
            Sample((randint(5), -2, 2), ref=np.clip),
        ],
        "where": [
            Sample((_cond, rand(2, 3), rand(2, 3)), ref=np.where),
            Sample((_cond, rand(2, 3), 0.0), ref=np.where),
            Sample((_cond[0], rand(2, 3), rand(1, 3)), ref=np.where),
        ],
        "lerp": [
            Sample((rand(2, 3), rand(2, 3), rand(2, 3)), ref=lambda x, y, w: x + w * (y - x)),
            Sample((rand(2, 3), rand(3), 0.25), ref=lambda x, y, w: x + w * (y - x)),
        ],
        "heaviside": [Sample((away(2, 3), rand(2, 3)), ref=np.heaviside)],
        "atan2": [Sample((rand(2, 3), away(2, 3)), ref=np.arctan2)],
        "hypot": [Sample((away(2, 3), away(2, 3)), ref=np.hypot)],
        "logaddexp": [Sample((rand(2, 3), rand(3)), ref=np.logaddexp)],
        "nan_to_num": [
            Sample((rand(2, 3),), ref=np.nan_to_num),
            Sample((np.array([np.nan, np.inf, -np.inf, 1.5]),), {"nan": 1.0, "posinf": 9.0, "neginf": -9.0},
                   grad=False, ref=lambda x, nan, posinf, neginf: np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)),
        ],
    }
)
SAMPLES["divide"] = SAMPLES["divide"] + [
    Sample((rand(2, 3) * 5, pos(2, 3)), {"rounding_mode": "floor"}, grad=False),
    Sample((randint(4), np.array([2, -3, 4, 5], np.int64)), {"rounding_mode": "trunc"}, grad=False,
           ref=lambda x, y, rounding_mode: np.trunc(x / y).astype(np.int64)),
]
SAMPLES.update({"mod": SAMPLES["remainder"], "floor_mod": SAMPLES["remainder"], "sub": SAMPLES["subtract"],
                "mul": SAMPLES["multiply"], "div": SAMPLES["divide"], "clamp": SAMPLES["clip"]})

# ---- _ops/unary.py: one-operand math (elementwise family) --------------------------------
_UNARY_DOMAINS = {
    "exp": (rand, np.exp), "expm1": (rand, np.expm1), "tanh": (rand, np.tanh), "sqrt": (pos, np.sqrt),
    "rsqrt": (pos, lambda x: 1 / np.sqrt(x)), "reciprocal": (pos, np.reciprocal), "erfinv": (rand, None),
    "log": (pos, np.log), "log2": (pos, np.log2), "log10": (pos, np.log10), "log1p": (rand, np.log1p),
    "sin": (rand, np.sin), "cos": (rand, np.cos), "tan": (rand, np.tan), "asin": (rand, np.arcsin),
    "acos": (rand, np.arccos), "atan": (rand, np.arctan), "sinh": (rand, np.sinh), "cosh": (rand, np.cosh),
    "asinh": (rand, np.arcsinh), "acosh": (lambda *s: pos(*s) + 1.0, np.arccosh), "atanh": (rand, np.arctanh),
    "erf": (rand, None), "digamma": (pos, None), "lgamma": (pos, None), "deg2rad": (rand, np.deg2rad),
    "rad2deg": (rand, np.rad2deg), "abs": (away, np.abs), "sign": (away, np.sign), "sgn": (away, np.sign),
    "neg": (rand, np.negative), "floor": (lambda *s: rand(*s) * 3, np.floor),
    "ceil": (lambda *s: rand(*s) * 3, np.ceil), "round": (lambda *s: rand(*s) * 3, np.round),
    "trunc": (lambda *s: rand(*s) * 3, np.trunc), "frac": (lambda *s: rand(*s) * 3, lambda x: x - np.trunc(x)),
    "stanh": (rand, lambda x: 1.7159 * np.tanh(0.67 * x)),
    "logit": (lambda *s: rand(*s, low=0.1, high=0.9), lambda x: np.log(x / (1 - x))),
}
SAMPLES.update({n: [Sample((0.9 * make(2, 3),), ref=ref)] for n, (make, ref) in _UNARY_DOMAINS.items()})
for _n in ("abs", "sign", "neg", "floor", "ceil", "round", "trunc", "frac", "square"):
    SAMPLES[_n] = SAMPLES.get(_n, []) + [Sample((randint(2, 3),), grad=False)]  # integers keep their dtype
for _n in ("exp", "sqrt", "log1p", "sin"):
    SAMPLES[_n].append(Sample((np.array([1, 2, 3], np.int64),), grad=False))  # integers compute in float32
SAMPLES["round"].append(Sample((np.array([0.5, 1.5, 2.5, -0.5, 1.26]), 1), grad=False))
SAMPLES["logit"].append(Sample((np.array([0.05, 0.5, 0.95]),), {"eps": 0.1}))
SAMPLES["stanh"].append(Sample((rand(4), 0.5, 2.0), ref=lambda x, a, b: b * np.tanh(a * x)))
_special = np.array([np.nan, np.inf, -np.inf, 0.0, 1.5])
SAMPLES.update({
    "isfinite": [Sample((_special,), ref=np.isfinite), Sample((randint(3),), ref=np.isfinite)],
    "isinf": [Sample((_special,), ref=np.isinf)],
    "isnan": [Sample((_special,), ref=np.isnan)],
})

# ---- _ops/logic.py: comparison and logic ------------------------------------------------------
_a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
_b = np.array([1.0, 0.0, 3.0])
_bools = (np.array([True, False, True, False]), np.array([True, True, False, False]))
_ints = (np.array([12, 5, -3, 0], np.int64), np.array([10, 3, 6, -1], np.int64))
SAMPLES.update({
    "equal": [Sample((_a, _b), ref=np.equal), Sample((_ints[0], 5), ref=np.equal)],
    "not_equal": [Sample((_a, _b), ref=np.not_equal)],
    "greater_than": [Sample((_a, _b), ref=np.greater), Sample((_ints[0], _ints[1]), ref=np.greater)],
    "greater_equal": [Sample((_a, _b), ref=np.greater_equal)],
    "less_than": [Sample((_a, 2.5), ref=np.less)],
    "less_equal": [Sample((_a, _b), ref=np.less_equal)],
    "equal_all": [Sample((_a, _a.copy()), ref=lambda x, y: np.array(True)), Sample((_a, _b), ref=lambda x, y: False),
                  Sample((_b, _b[:2]), ref=lambda x, y: False)],
    "isclose": [Sample((_b, _b + np.array([1e-9, 1e-3, 0.0])), ref=np.isclose),
                Sample((np.array([np.nan, 1.0]), np.array([np.nan, 1.0])), {"equal_nan": True},
                       ref=lambda x, y, equal_nan: np.isclose(x, y, equal_nan=equal_nan))],
    "allclose": [Sample((_b, _b + 1e-9), ref=lambda x, y: np.allclose(x, y)),
                 Sample((_b, _b + 1e-3), ref=lambda x, y: np.allclose(x, y))],
    "logical_and": [Sample(_bools, ref=np.logical_and), Sample(_ints, ref=np.logical_and)],
    "logical_or": [Sample(_bools, ref=np.logical_or), Sample((_a, _b), ref=np.logical_or)],
    "logical_xor": [Sample(_bools, ref=np.logical_xor)],
    "logical_not": [Sample((_bools[0],), ref=np.logical_not), Sample((_b,), ref=np.logical_not)],
    "bitwise_and": [Sample(_ints, ref=np.bitwise_and), Sample(_bools, ref=np.bitwise_and)],
    "bitwise_or": [Sample(_ints, ref=np.bitwise_or), Sample(_bools, ref=np.bitwise_or)],
    "bitwise_xor": [Sample(_ints, ref=np.bitwise_xor), Sample(_bools, ref=np.bitwise_xor)],
    "bitwise_not": [Sample((_ints[0],), ref=np.invert), Sample((_bools[0],), ref=np.invert)],
    "is_empty": [Sample((rand(0, 3),), ref=lambda x: True), Sample((rand(2),), ref=lambda x: False)],
})
SAMPLES.update({"eq": SAMPLES["equal"], "ne": SAMPLES["not_equal"], "gt": SAMPLES["greater_than"],
                "greater": SAMPLES["greater_than"], "ge": SAMPLES["greater_equal"], "lt": SAMPLES["less_than"],
                "less": SAMPLES["less_than"], "le": SAMPLES["less_equal"]})

# ---- _ops/reduce.py: reductions -------------------------------------------------------------
_x3 = rand(2, 3, 4)


def _np_red(f):
    return lambda x, axis=None, keepdim=False: f(x, axis=tuple(axis) if isinstance(axis, list) else axis,
                                                 keepdims=keepdim)


_nanx = np.array([[1.0, np.nan, 3.0], [0.5, -2.0, np.nan]])
SAMPLES.update({
    "max": [Sample((_x3,), ref=_np_red(np.max)), Sample((_x3, [0, 2], True), ref=_np_red(np.max)),
            Sample((np.array([3.0, 1.0, 3.0]),)), Sample((randint(2, 3), 1), ref=_np_red(np.max))],
    "min": [Sample((_x3, 1), ref=_np_red(np.min)), Sample((np.array([1.0, 1.0, 3.0]),))],
    "amax": [Sample((_x3, -1, True), ref=_np_red(np.max))],
    "amin": [Sample((_x3, [1, 2]), ref=_np_red(np.min))],
    "prod": [Sample((rand(2, 3),), ref=_np_red(np.prod)), Sample((pos(2, 3), 1, True), ref=_np_red(np.prod)),
             Sample((np.array([0.0, 2.0, 3.0]),)), Sample((randint(3), 0), grad=False)],
    "argmax": [Sample((_x3,), ref=lambda x: np.argmax(x)), Sample((_x3, 1, True),
               ref=lambda x, a, k: np.argmax(x, a, keepdims=k)), Sample((_x3, 2), {"dtype": "int32"})],
    "argmin": [Sample((_x3, 0), ref=lambda x, a: np.argmin(x, a))],
    "logsumexp": [Sample((_x3,)), Sample((_x3, [0, 2], True)), Sample((randint(4),), grad=False)],
    "std": [Sample((_x3,), ref=lambda x: np.std(x, ddof=1)), Sample((_x3, 1, False, True),
            ref=lambda x, a, u, k: np.std(x, axis=a, keepdims=k))],
    "var": [Sample((_x3, [0, 1]), ref=lambda x, a: np.var(x, axis=tuple(a), ddof=1)),
            Sample((_x3,), {"unbiased": False}, ref=lambda x, unbiased: np.var(x))],
    "all": [Sample((_cond,), ref=_np_red(np.all)), Sample((_cond, 1, True), ref=_np_red(np.all)),
            Sample((_a,), ref=_np_red(np.all))],
    "any": [Sample((_cond, 0), ref=_np_red(np.any)), Sample((np.zeros((2, 2)),), ref=_np_red(np.any))],
    "count_nonzero": [Sample((np.array([[0.0, 1.5, 0.0], [2.0, 0.0, 3.0]]), 1), ref=lambda x, a: np.count_nonzero(x, a))],
    "numel": [Sample((_x3,), ref=lambda x: np.int64(x.size))],
    "nansum": [Sample((_nanx,), ref=np.nansum), Sample((_nanx, 1, None, True),
               ref=lambda x, a, d, k: np.nansum(x, axis=a, keepdims=k))],
    "nanmean": [Sample((_nanx,), ref=np.nanmean), Sample((_nanx, 0), ref=lambda x, a: np.nanmean(x, axis=a))],
    "norm": [
        Sample((away(2, 3),), ref=lambda x: np.linalg.norm(x)),
        Sample((away(2, 3), 1, 1), ref=lambda x, p, a: np.linalg.norm(x, p, a)),
        Sample((away(2, 3), float("inf"), 1, True), ref=lambda x, p, a, k: np.linalg.norm(x, p, a, keepdims=k)),
        Sample((away(2, 3), 3.0, -1), ref=lambda x, p, a: np.linalg.norm(x, p, a)),
        Sample((away(2, 3),), {"p": "fro", "axis": [0, 1]}),
        Sample((away(3, 3),), {"p": "nuc", "axis": [0, 1]}, ref=lambda x, p, axis: np.linalg.norm(x, p)),
        Sample((away(3, 2),), {"p": 2, "axis": [0, 1]}, ref=lambda x, p, axis: np.linalg.norm(x, 2)),
        Sample((away(2, 3), 0, 1), ref=lambda x, p, a: np.linalg.norm(x, p, a)),
    ],
    "cumsum": [Sample((rand(2, 3), 1), ref=lambda x, a: np.cumsum(x, a)), Sample((rand(2, 3),), ref=np.cumsum),
               Sample((randint(5),), ref=np.cumsum)],
    "cumprod": [Sample((pos(2, 3), 1), ref=lambda x, d: np.cumprod(x, d)), Sample((rand(2, 3),), ref=np.cumprod)],
})

# ---- _ops/sorting.py: order statistics (reductions family) ---------------------------------------
_r25 = rand(2, 5)
SAMPLES.update({
    "sort": [Sample((_r25,), ref=np.sort), Sample((_r25, 0, True), ref=lambda x, a, d: -np.sort(-x, a))],
    "argsort": [Sample((_r25,), ref=np.argsort), Sample((np.array([1.0, 3.0, 2.0, 3.0, 5.0]),), {"descending": True},
                ref=lambda x, descending: np.array([4, 1, 3, 2, 0]))],
    "topk": [Sample((_r25, 2), ref=lambda x, k: (-np.sort(-x)[:, :k], np.argsort(-x)[:, :k])),
             Sample((_r25, 1, 0, False))],
    "kthvalue": [Sample((_r25, 2), ref=lambda x, k: np.sort(x)[:, k - 1]), Sample((_r25, 1, 0, True))],
    "mode": [Sample((np.array([[1.0, 3.0, 3.0, 2.0], [2.0, 2.0, 1.0, 1.0]]),), grad=False,
                    ref=lambda x: (np.array([3.0, 1.0]), np.array([2, 3])))],
    "median": [Sample((rand(5),), ref=np.median), Sample((_r25, 1), ref=lambda x, a: np.median(x, a)),
               Sample((_r25, 1, True, "min")), Sample((rand(4),), {"mode": "min"}, ref=lambda x, mode: np.sort(x)[1])],
    "cummax": [Sample((rand(6),), ref=lambda x: np.maximum.accumulate(x)), Sample((_r25, 1))],
    "cummin": [Sample((rand(6),), ref=lambda x: np.minimum.accumulate(x)), Sample((_r25, 0))],
})

# ---- _ops/creation.py: creation ---------------------------------------------------------------
SAMPLES.update({
    "zeros": [Sample(([2, 3],), ref=lambda s: np.zeros(s)), Sample((4, "int32"), ref=lambda s, d: np.zeros(s, d))],
    "ones": [Sample(((2, 1),), ref=lambda s: np.ones(s))],
    "empty": [Sample(([2, 2], "float64"))],
    "full": [Sample(([2, 3], 1.5), ref=lambda s, v: np.full(s, v)), Sample(([2], True)),
             Sample(([3], 7, "int64"), ref=lambda s, v, d: np.full(s, v, d))],
    "zeros_like": [Sample((rand(2, 3),), ref=np.zeros_like), Sample((randint(3), "float32"))],
    "ones_like": [Sample((randint(2, 3),), ref=np.ones_like)],
    "empty_like": [Sample((rand(2, 3),))],
    "full_like": [Sample((rand(2, 3), 2.5), ref=lambda x, v: np.full_like(x, v)), Sample((randint(3), 2.7))],
    "arange": [Sample((5,), ref=lambda n: np.arange(n)), Sample((0.0, 1.0, 0.25), ref=np.arange),
               Sample((1, 10, 3), {"dtype": "float64"}, ref=lambda a, b, c, dtype: np.arange(a, b, c, dtype))],
    "linspace": [Sample((0, 1, 5), ref=np.linspace), Sample((0, 10, 5, "int32"), ref=lambda a, b, n, d: np.array([0, 2, 5, 7, 10]))],
    "logspace": [Sample((0, 2, 3), ref=np.logspace), Sample((0, 2, 3, 2.0), ref=lambda a, b, n, base: np.array([1.0, 2.0, 4.0]))],
    "eye": [Sample((2, 3), ref=np.eye), Sample((3,), {"dtype": "int64"})],
    "tril_indices": [Sample((3, 3, 0), ref=lambda r, c, o: np.stack(np.tril_indices(r, o, c)))],
    "triu_indices": [Sample((3, 4, 1), ref=lambda r, c, o: np.stack(np.triu_indices(r, o, c))), Sample((3,))],
    "diag": [Sample((rand(3),), ref=np.diag), Sample((rand(3), 1, 9.0)), Sample((rand(3, 4), -1), ref=np.diag)],
    "diagflat": [Sample((rand(2, 2), 1), ref=lambda x, k: np.diagflat(x, k))],
    "diag_embed": [Sample((rand(2, 3),)), Sample((rand(2, 3), 1, 0, 2))],
    "tril": [Sample((rand(3, 4),), ref=np.tril), Sample((rand(2, 3, 3), -1), ref=lambda x, k: np.tril(x, k))],
    "triu": [Sample((rand(3, 4), 1), ref=lambda x, k: np.triu(x, k))],
    "meshgrid": [Sample(([rand(2), rand(3)],), ref=lambda xs: np.meshgrid(*xs, indexing="ij"))],
    "assign": [Sample((rand(2, 3),), ref=lambda x: x)],
    "clone": [Sample((rand(2, 3),), ref=lambda x: x)],
})
