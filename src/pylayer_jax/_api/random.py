"""Paddle's random functions over the table's sampling kernels (layer L5).

Each call takes a fresh key from the global generator (``_runtime.rng``) and passes it to the
kernel as an input, so kernels are cached per shape and draws are reproducible after
``seed(n)``.

>>> import pylayer_jax as paddle
>>> _ = paddle.seed(7); a = paddle.rand([2]).numpy()
>>> _ = paddle.seed(7); bool((paddle.rand([2]).numpy() == a).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp

from .._ops.table import TABLE
from .._runtime import device as _device
from .._runtime import dtypes as _dtypes
from .._runtime.rng import derived_key, generator
from .._runtime.state import modes
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from .._tensor.spread import with_sizes


def random_key() -> Any:
    """The key of one random op: a fresh split of the global generator, or, while a static program is
    recorded, a key the program derives from the key its Executor feeds at every run (so a static
    program draws anew at each run instead of repeating the draw made while it was built), or, inside
    ``_runtime.rng.keys_from`` (a static pylayer's forward), a key derived from that key."""
    k = derived_key()
    if k is not None:
        return k
    prog = modes.static_program
    if prog is not None and modes.static_mode:
        return prog.random_key()
    return generator.next_key()


def seed(seed: int) -> Any:
    """Reset the global generator to ``seed``; later draws repeat exactly."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed: the seed must be an int, but received {type(seed).__name__}.")
    generator.seed(seed)
    return generator


def get_rng_state(device: Any = None) -> list[Tensor]:
    """The generator state, as a list holding one int64 key Tensor (for set_rng_state). One generator
    serves every device, so ``device`` (checked to exist, as Paddle does) names the same state."""
    if device is not None:
        _device.resolve(device, "paddle.get_rng_state")
    return [Tensor(generator.get_state())]


def set_rng_state(state_list: Sequence[Any], device: Any = None) -> None:
    """Restore a state returned by get_rng_state (``device``: checked to exist; one generator serves all)."""
    if device is not None:
        _device.resolve(device, "paddle.set_rng_state")
    if isinstance(state_list, list | tuple):
        if len(state_list) != 1:
            raise ValueError(
                f"set_rng_state: expected the one-element list from get_rng_state, but received "
                f"{len(state_list)} elements."
            )
        state_list = state_list[0]
    generator.set_state(state_list._value if isinstance(state_list, Tensor) else state_list)


def _shape(shape: Any, api: str) -> Any:
    if isinstance(shape, int) and not isinstance(shape, bool):
        return [shape]
    if isinstance(shape, Tensor | list | tuple):
        return shape
    raise TypeError(f"{api}: shape must be a list of ints (or a Tensor), but received {type(shape).__name__}.")


def _float_dtype(dtype: Any, api: str) -> str:
    name = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_paddle(dtype).name
    if name not in ("float16", "bfloat16", "float32", "float64"):
        raise TypeError(f"{api}: dtype must be a floating dtype, but received {name}.")
    return name


def _draw(op: str, *tensors: Any, **attrs: Any) -> Tensor:
    return apply_op(TABLE[op], (random_key(), *tensors), attrs)


def uniform(
    shape: Any,
    dtype: Any = None,
    min: float = 0,
    max: float = 1.0,
    seed: int = 0,  # noqa: A002
    name: str | None = None,
) -> Tensor:
    """Samples uniform in ``[min, max)``; a non-zero ``seed`` gives a fixed draw."""
    dt = _float_dtype(dtype, "uniform")
    key = random_key() if not seed else jax.random.PRNGKey(seed).astype(jnp.int64)
    return apply_op(
        TABLE["random_uniform"],
        (key,),
        {"shape": _shape(shape, "uniform"), "dtype": dt, "min": float(min), "max": float(max)},
    )


@with_sizes
def rand(shape: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    """Samples uniform in ``[0, 1)`` (default dtype float32)."""
    return _draw("random_uniform", shape=_shape(shape, "rand"), dtype=_float_dtype(dtype, "rand"))


def rand_like(input: Tensor, name: str | None = None, *, dtype: Any = None) -> Tensor:  # noqa: A002
    """Uniform ``[0, 1)`` samples with ``input``'s shape (and dtype unless given)."""
    return rand(input.shape, input.dtype if dtype is None else dtype)


@with_sizes
def randn(shape: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    """Standard normal samples (default dtype float32)."""
    return _draw("random_normal", 0.0, 1.0, shape=_shape(shape, "randn"), dtype=_float_dtype(dtype, "randn"))


def standard_normal(shape: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    """Standard normal samples (default dtype float32)."""
    return _draw(
        "random_normal", 0.0, 1.0, shape=_shape(shape, "standard_normal"), dtype=_float_dtype(dtype, "standard_normal")
    )


def randn_like(x: Tensor, dtype: Any = None, name: str | None = None) -> Tensor:
    """Standard normal samples with ``x``'s shape (and dtype unless given)."""
    return randn(x.shape, x.dtype if dtype is None else dtype)


def normal(mean: Any = 0.0, std: Any = 1.0, shape: Any = None, name: str | None = None) -> Tensor:
    """Gaussian samples; with Tensor ``mean``/``std`` the output has their (broadcast) shape and dtype."""
    dt = _dtypes.get_default_dtype()
    for v in (mean, std):
        if isinstance(v, Tensor):
            dt = _float_dtype(v.dtype, "normal")
    if shape is None and not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        raise ValueError("normal: give a shape, or a Tensor mean or std whose shape the output takes.")
    shp = [] if shape is None else _shape(shape, "normal")
    return _draw("random_normal", mean, std, shape=shp, dtype=dt)


def randint(
    low: int = 0, high: int | None = None, shape: Any = (1,), dtype: Any = None, name: str | None = None
) -> Tensor:
    """Integers uniform in ``[low, high)`` (``[0, low)`` when high is None); int64 unless dtype says."""
    if high is None:
        low, high = 0, low
    if high <= low:
        raise ValueError(f"randint: high must be greater than low, but received low={low} and high={high}.")
    dt = "int64" if dtype is None else _dtypes.to_paddle(dtype).name
    return _draw("random_randint", low=int(low), high=int(high), shape=_shape(shape, "randint"), dtype=dt)


def randint_like(
    x: Tensor, low: int = 0, high: int | None = None, dtype: Any = None, name: str | None = None
) -> Tensor:
    """Integers in ``[low, high)`` with ``x``'s shape, in ``x``'s dtype unless given."""
    return randint(low, high, x.shape, x.dtype if dtype is None else dtype)


def randperm(n: int, dtype: Any = "int64", name: str | None = None) -> Tensor:
    """A random permutation of ``0 .. n-1``."""
    return _draw("random_randperm", n=int(n), dtype=_dtypes.to_paddle(dtype).name)


def bernoulli(x: Tensor, p: float | None = None, name: str | None = None) -> Tensor:
    """1 with probability ``x`` (or ``p``), else 0, in ``x``'s dtype."""
    return _draw("random_bernoulli", x, p=p)


def multinomial(x: Tensor, num_samples: int = 1, replacement: bool = False, name: str | None = None) -> Tensor:
    """Category indices (int64) drawn from the rows of the probabilities ``x``."""
    if not replacement and num_samples > x.shape[-1]:
        raise ValueError(
            f"multinomial: cannot draw {num_samples} samples without replacement from "
            f"{x.shape[-1]} categories; set replacement=True or draw fewer."
        )
    return _draw("random_multinomial", x, num_samples=int(num_samples), replacement=bool(replacement))


def poisson(x: Tensor, name: str | None = None) -> Tensor:
    """Poisson samples with rates ``x``."""
    return _draw("random_poisson", x)
