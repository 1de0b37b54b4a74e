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
