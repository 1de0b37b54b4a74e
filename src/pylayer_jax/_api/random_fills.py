"""In-place random fills (layer L5): ``normal_``, ``log_normal_``, ``bernoulli_``, ``cauchy_``, ``exponential_``,
``geometric_`` and ``random_``, as ``paddle.<name>`` and ``Tensor.<name>``.

Each draws from the package's generator (so ``paddle.seed`` repeats it), writes the draw into the tensor in place as
``uniform_`` does (a version bump; views of the tensor see it; a leaf that needs a gradient is refused under grad
mode; gradients through the old values stop) and returns the tensor. Paddle 3.3.1's argument conventions are kept;
where Paddle gives values no distribution of that name has, these refuse the argument instead (see each docstring).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._ops.table import TABLE
from .._runtime import dtypes as _dtypes
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from .._tensor.methods import check_inplace_leaf, inplace_assign
from .random import random_key

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")


def _target(api: str, x: Any, dtypes: tuple[str, ...]) -> Tensor:
    """``x`` checked as the tensor a fill writes: a Tensor of one of ``dtypes`` that may be written in place."""
    if not isinstance(x, Tensor):  # (Paddle 3.3.1's error here is a ValueError too)
        raise ValueError(f"{api}: x must be a Tensor (it is written in place), but received {type(x).__name__}. "
                        "Convert it with paddle.to_tensor first.")
    check_inplace_leaf(x, f"Tensor.{api}")
    if x.dtype.name not in dtypes:
        raise TypeError(f"{api}: the tensor must be {', '.join(dtypes)}, but it is {x.dtype.name}. Cast it first "
                        "(x.astype('float32')).")
    return x


def _broadcasts(shape: list[int], target: list[int]) -> bool:
    """Whether ``shape`` broadcasts to ``target`` (an in-place fill keeps x's shape)."""
    if len(shape) > len(target):
        return False
    return all(s in (1, t) for s, t in zip(shape[::-1], target[::-1], strict=False))


def _fill(x: Tensor, draw: Tensor, api: str) -> Tensor:
    """Write ``draw`` (x's shape and dtype) into ``x`` in place and return ``x``."""
    r = apply_op(TABLE["setitem"], (x, [], draw, ("...",)))
    return inplace_assign(x, r, f"Tensor.{api}")


def _number(api: str, pname: str, v: Any, complex_ok: bool = False) -> Any:
    """A scalar parameter as a Python number: an int, float (complex where allowed) or a one-element Tensor."""
    if isinstance(v, Tensor):
        if v.size != 1:
            raise ValueError(f"{api}: {pname} must be a number or a one-element Tensor, but received a Tensor of "
                             f"shape {list(v.shape)}.")
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, int | float | complex | np.number):
        raise TypeError(f"{api}: {pname} must be a number, but received {type(v).__name__} {v!r}.")
    if isinstance(v, complex | np.complexfloating) and not complex_ok:
        raise TypeError(f"{api}: {pname} must be a real number, but received {v!r}.")
    return v


def _gaussian(api: str, x: Any, mean: Any, std: Any, exponentiate: bool) -> Tensor:
    x = _target(api, x, _FLOATS + _COMPLEX)
    mean, std = _number(api, "mean", mean, complex_ok=True), float(_number(api, "std", std))
    if isinstance(mean, complex | np.complexfloating):
        # (Paddle 3.3.1 raises the same errors: a TypeError, then a ValueError)
        if not x.is_complex():
            raise TypeError(f"{api}: a complex mean needs a complex64 or complex128 tensor, but x is "
                            f"{x.dtype.name}. Pass a real mean.")
        if mean.real != mean.imag:
            raise ValueError(f"{api}: Paddle's complex Gaussian takes a mean whose real and imaginary parts are equal "
                             f"(a real m stands for m + m*1j), but received {mean!r}. Pass a real mean.")
        mean = mean.real
    draw = apply_op(TABLE["random_normal_fill"], (random_key(),), {
        "shape": list(x.shape), "dtype": x.dtype.name, "mean": float(mean), "std": std, "exponentiate": exponentiate})
    return _fill(x, draw, api)


def normal_(x: Tensor, mean: Any = 0.0, std: float = 1.0, name: str | None = None) -> Tensor:
    """Overwrite ``x`` in place with Gaussian samples of ``mean`` and standard deviation ``std`` and return it. For a
    complex ``x`` (as Paddle 3.3.1) the real ``mean`` m stands for ``m + m*1j`` and the real and imaginary parts each
    have variance ``std**2 / 2``; a complex mean must have equal parts."""
    return _gaussian("normal_", x, mean, std, False)


def log_normal_(x: Tensor, mean: float = 1.0, std: float = 2.0, name: str | None = None) -> Tensor:
    """Overwrite ``x`` in place with ``exp`` of Gaussian samples of ``mean`` and ``std`` (the mean and standard
    deviation of the underlying normal distribution) and return it; a complex ``x`` as in ``normal_``."""
    return _gaussian("log_normal_", x, mean, std, True)


def bernoulli_(x: Tensor, p: Any = 0.5, name: str | None = None) -> Tensor:
    """Overwrite ``x`` in place with 1 with probability ``p`` (a number, or a float Tensor broadcast to ``x``'s shape:
    one probability per element), else 0, and return it. As in Paddle, a probability below 0 acts as 0 and one above
    1 as 1."""
    x = _target("bernoulli_", x, _FLOATS)
    if isinstance(p, Tensor):
        if not p.is_floating_point():
            raise TypeError(f"bernoulli_: a Tensor p must hold floating probabilities, but it is {p.dtype.name}. "
                            "Pass p.astype('float32').")
        if not _broadcasts(p.shape, x.shape):
            # (Paddle 3.3.1 writes the broadcast shape into x, changing its shape in place)
            raise ValueError(f"bernoulli_: p of shape {list(p.shape)} must broadcast to x's shape {list(x.shape)}, "
                             "which an in-place fill keeps. Pass p of x's shape or one that broadcasts to it.")
        probs = p.astype(x.dtype).broadcast_to(x.shape)
    else:
        probs = apply_op(TABLE["full"], (list(x.shape), float(_number("bernoulli_", "p", p)), x.dtype.name))
    return _fill(x, apply_op(TABLE["random_bernoulli"], (random_key(), probs)), "bernoulli_")


def cauchy_(x: Tensor, loc: Any = 0, scale: Any = 1, name: str | None = None) -> Tensor:
    """Overwrite ``x`` in place with Cauchy samples of location ``loc`` (the median) and scale ``scale`` (the half
    width at half maximum) and return it. A complex ``x`` is refused (Paddle 3.3.1 writes values of no Cauchy law
    there)."""
    x = _target("cauchy_", x, _FLOATS)
    draw = apply_op(TABLE["random_cauchy"], (random_key(),), {
        "shape": list(x.shape), "dtype": x.dtype.name, "loc": float(_number("cauchy_", "loc", loc)),
        "scale": float(_number("cauchy_", "scale", scale))})
    return _fill(x, draw, "cauchy_")


def exponential_(x: Tensor, lam: Any = 1.0, name: str | None = None) -> Tensor:
    """Overwrite ``x`` in place with exponential samples of rate ``lam`` (mean ``1 / lam``; also spelled
    ``lambd``) and return it. ``lam`` must be positive (Paddle 3.3.1 writes inf for 0 and negative values below
    0)."""
    x = _target("exponential_", x, _FLOATS)
    lam = float(_number("exponential_", "lam", lam))
    if not lam > 0:
        raise ValueError(f"exponential_: the rate lam must be > 0, but received {lam}. Pass a positive rate (the "
                         "mean is 1 / lam).")
    draw = apply_op(TABLE["random_exponential"], (random_key(),),
                    {"shape": list(x.shape), "dtype": x.dtype.name, "lam": lam})
    return _fill(x, draw, "exponential_")


def geometric_(x: Tensor, probs: Any, name: str | None = None) -> Tensor:
    """Overwrite ``x`` in place with geometric samples: the number of trials up to and including the first success,
    each trial succeeding with probability ``probs`` (a number in (0, 1], or a Tensor or list broadcast to ``x``:
    one per element; a value outside (0, 1] there gives NaN), and return it. The samples are the integers 1, 2, ...
    (mean ``1 / probs``), as the geometric distribution has; Paddle 3.3.1 writes the unrounded
    ``log(u) / log(1 - probs)`` instead (continuous values of mean ``-1 / log(1 - probs)``)."""
    x = _target("geometric_", x, _FLOATS)
    if isinstance(probs, list | tuple | np.ndarray):
        probs = Tensor(np.asarray(probs, dtype=np.float64 if x.dtype.name == "float64" else np.float32))
    if isinstance(probs, Tensor):
        if not probs.is_floating_point():
            raise TypeError(f"geometric_: a Tensor probs must hold floating probabilities, but it is "
                            f"{probs.dtype.name}. Pass probs.astype('float32').")
        if not _broadcasts(probs.shape, x.shape):
            raise ValueError(f"geometric_: probs of shape {list(probs.shape)} must broadcast to x's shape "
                             f"{list(x.shape)}, which an in-place fill keeps.")
    else:
        probs = float(_number("geometric_", "probs", probs))
        if not 0 < probs <= 1:
            raise ValueError(f"geometric_: probs is the probability of success of each trial and must be in (0, 1], "
                             f"but received {probs}. (Paddle 3.3.1 writes -inf or NaN there.)")
    draw = apply_op(TABLE["random_geometric"], (random_key(), probs),
                    {"shape": list(x.shape), "dtype": x.dtype.name})
    return _fill(x, draw, "geometric_")


_INTS = ("uint8", "int8", "int16", "int32", "int64")


def _bound(pname: str, v: Any) -> int:
    """``random_``'s from_ / to: an int (Python or numpy) or a one-element Tensor holding an integer value."""
    if isinstance(v, Tensor) and v.size == 1:
        f = v.item()
        if float(f) != int(f):
            raise TypeError(f"random_: {pname} must be an integer, but the Tensor holds {f}.")
        return int(f)
    if isinstance(v, int | np.integer) and not isinstance(v, bool):
        return int(v)
    raise TypeError(f"random_: {pname} must be an int, but received {type(v).__name__} {v!r}. Pass an int.")


def _limits(name: str) -> tuple[int, int]:
    """The integers a dtype holds exactly, as random_'s default range: [0, iinfo.max] for an integer type, [0,
    2**digits) for a float type (every integer there is exact)."""
    if name in _INTS:
        info = np.iinfo(name)
        return int(info.min), int(info.max)
    digits = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}[name]
    return -(2**digits), 2**digits


def random_(x: Tensor, from_: Any = 0, to: Any = None, *, generator: Any = None) -> Tensor:
    """Overwrite ``x`` in place with integers uniform in ``[from_, to)`` and return it. Paddle 3.3.1's conventions:
    with ``to`` None a non-zero ``from_`` is the upper bound (``random_(5)``: ``[0, 5)``), and ``random_()`` spans
    the integers the dtype holds (``[0, iinfo.max]``; ``[0, 2**mantissa_digits)`` for a float type). A range outside
    the dtype is refused (Paddle wraps it around or writes inf). ``generator`` is a placeholder, as in Paddle."""
    x = _target("random_", x, _INTS + _FLOATS)
    lo = _bound("from_", from_)
    dmin, dmax = _limits(x.dtype.name)
    if to is None:
        lo, hi = (0, dmax + (1 if x.dtype.name in _INTS else 0)) if lo == 0 else (0, lo)
    else:
        hi = _bound("to", to)
    if lo >= hi:  # (Paddle 3.3.1 raises a ValueError too)
        raise ValueError(f"random_: from_ must be less than to, but received from_={lo} and to={hi}. Pass a "
                         "non-empty range [from_, to).")
    if x.dtype.name in _INTS:
        ok = lo >= dmin and hi - 1 <= dmax
    else:
        ok = -float(np.finfo(_dtypes.to_np(x.dtype)).max) <= lo and hi - 1 <= float(np.finfo(_dtypes.to_np(x.dtype)).max)
    if not ok or lo < -(2**63) or hi > 2**63 - 1 + (1 if to is None else 0):
        raise ValueError(f"random_: the range [{lo}, {hi}) does not fit x's dtype {x.dtype.name} (or int64). Pass a "
                         "range inside the dtype's values, or cast x to a wider dtype first.")
    if hi > 2**63 - 1:  # int64's full range: the kernel's exclusive bound cannot reach iinfo.max + 1
        hi = 2**63 - 1
    draw = apply_op(TABLE["random_randint"], (random_key(),),
                    {"low": lo, "high": hi, "shape": list(x.shape), "dtype": x.dtype.name})
    return _fill(x, draw, "random_")


for _n, _f in (("normal_", normal_), ("log_normal_", log_normal_), ("bernoulli_", bernoulli_),
               ("cauchy_", cauchy_), ("exponential_", exponential_), ("geometric_", geometric_),
               ("random_", random_)):
    setattr(Tensor, _n, _f)
