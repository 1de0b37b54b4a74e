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
import numpy as np

from .._ops.table import TABLE
from .._runtime import device as _device
from .._runtime import dtypes as _dtypes
from .._runtime.rng import derived_key, generator
from .._runtime.state import modes
from .._tensor.device import placed
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from .._tensor.spread import checked_shape, with_sizes


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
    return [Tensor(generator.saved_state())]


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


def get_cuda_rng_state() -> list[Tensor]:
    """The GPUs' generator states: one entry per GPU JAX sees, each the state of the one generator that serves
    every device here (so restoring it with ``set_cuda_rng_state`` repeats the draws that followed, as in Paddle);
    ``[]`` on a machine without GPUs, as Paddle returns there."""
    return [Tensor(generator.get_state()) for _ in range(_device.device_count())]


def set_cuda_rng_state(state_list: Sequence[Any]) -> None:
    """Restore the states ``get_cuda_rng_state`` returned (the first entry: one generator serves every device);
    an empty list, what a machine without GPUs returns, restores nothing, as in Paddle."""
    if not isinstance(state_list, list | tuple):
        raise TypeError(f"set_cuda_rng_state: expected the list get_cuda_rng_state returned, but received "
                        f"{type(state_list).__name__}.")
    if state_list:
        set_rng_state([state_list[0]])


def _shape(shape: Any, api: str) -> Any:
    """``shape`` by Paddle's rules (``checked_shape``: ``rand([2.0])`` is a TypeError) as the kernels take it: a
    list, or a Tensor (a float one passes here, as in Paddle, and the kernel refuses it)."""
    shape = checked_shape(api, shape, float_tensor=True)
    if isinstance(shape, int | np.integer):
        return [int(shape)]
    return shape.tolist() if isinstance(shape, np.ndarray) else shape


def _int(api: str, pname: str, v: Any) -> int:
    """An int argument (``randperm``'s n, ``randint``'s low and high) as Paddle takes it: a Python or numpy integer or
    an integer Tensor of one element; a float or a bool is a TypeError there."""
    if isinstance(v, Tensor) and v.size == 1 and np.issubdtype(np.dtype(v._v.dtype), np.integer):
        return int(v.item())
    if isinstance(v, int | np.integer) and not isinstance(v, bool):
        return int(v)
    raise TypeError(f"{api}: {pname} must be an int in Paddle, but received {type(v).__name__} {v!r}; pass "
                    f"int({pname}) if you mean to round it toward zero.")


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
    *,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Samples uniform in ``[min, max)``; a non-zero ``seed`` gives a fixed draw. ``device`` places them,
    ``requires_grad=True`` makes them trainable."""
    dt = _float_dtype(dtype, "uniform")
    key = random_key() if not seed else jax.random.PRNGKey(seed).astype(jnp.int64)
    out = apply_op(
        TABLE["random_uniform"],
        (key,),
        {"shape": _shape(shape, "uniform"), "dtype": dt, "min": float(min), "max": float(max)},
    )
    return placed(out, "uniform", device, requires_grad)


@with_sizes
def rand(shape: Any, dtype: Any = None, name: str | None = None, *, device: Any = None, requires_grad: bool = False,
         pin_memory: bool = False) -> Tensor:
    """Samples uniform in ``[0, 1)`` (default dtype float32); ``device`` places them, ``requires_grad=True`` makes
    them trainable, ``pin_memory=True`` puts them in page-locked host memory."""
    out = _draw("random_uniform", shape=_shape(shape, "rand"), dtype=_float_dtype(dtype, "rand"))
    return placed(out, "rand", device, requires_grad, pin_memory)


def rand_like(input: Tensor, name: str | None = None, *, dtype: Any = None, device: Any = None,  # noqa: A002
              requires_grad: bool = False) -> Tensor:
    """Uniform ``[0, 1)`` samples with ``input``'s shape (and dtype unless given), where ``input`` is unless
    ``device`` says; ``requires_grad=True`` makes them trainable."""
    out = rand(input.shape, input.dtype if dtype is None else dtype)
    return placed(out, "rand_like", device, requires_grad, like=input)


@with_sizes
def randn(shape: Any, dtype: Any = None, name: str | None = None, *, device: Any = None,
          requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """Standard normal samples (default dtype float32); ``device``, ``requires_grad``, ``pin_memory`` as ``rand``."""
    out = _draw("random_normal", 0.0, 1.0, shape=_shape(shape, "randn"), dtype=_float_dtype(dtype, "randn"))
    return placed(out, "randn", device, requires_grad, pin_memory)


def standard_normal(shape: Any, dtype: Any = None, name: str | None = None, *, device: Any = None,
                    requires_grad: bool = False) -> Tensor:
    """Standard normal samples (default dtype float32); ``device`` places them, ``requires_grad=True`` makes them
    trainable."""
    out = _draw(
        "random_normal", 0.0, 1.0, shape=_shape(shape, "standard_normal"), dtype=_float_dtype(dtype, "standard_normal")
    )
    return placed(out, "standard_normal", device, requires_grad)


def randn_like(x: Tensor, dtype: Any = None, name: str | None = None, *, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    """Standard normal samples with ``x``'s shape (and dtype unless given), where ``x`` is unless ``device`` says;
    ``requires_grad=True`` makes them trainable."""
    out = randn(x.shape, x.dtype if dtype is None else dtype)
    return placed(out, "randn_like", device, requires_grad, like=x)


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
    low, high = _int("randint", "low", low), _int("randint", "high", high)
    if high <= low:
        raise ValueError(f"randint: high must be greater than low, but received low={low} and high={high}.")
    dt = "int64" if dtype is None else _dtypes.to_paddle(dtype).name
    return _draw("random_randint", low=int(low), high=int(high), shape=_shape(shape, "randint"), dtype=dt)


def randint_like(
    x: Tensor, low: int = 0, high: int | None = None, dtype: Any = None, name: str | None = None
) -> Tensor:
    """Integers in ``[low, high)`` with ``x``'s shape, in ``x``'s dtype unless given."""
    return randint(low, high, x.shape, x.dtype if dtype is None else dtype)


def randperm(n: int, dtype: Any = "int64", name: str | None = None, *, device: Any = None,
             requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A random permutation of ``0 .. n-1``; ``device``, ``requires_grad``, ``pin_memory`` as ``rand``."""
    n = _int("randperm", "n", n)
    if n < 0:  # (Paddle's own error here is a RuntimeError)
        raise RuntimeError(f"randperm: n must be >= 0, but received {n}; pass the number of values to permute.")
    out = _draw("random_randperm", n=n, dtype=_dtypes.to_paddle(dtype).name)
    return placed(out, "randperm", device, requires_grad, pin_memory)


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
