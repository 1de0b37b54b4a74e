"""The initializer base class, fan rules, the global initializers (layer L5).

An initializer is called as Paddle calls it, ``init(param)``: it fills the Tensor (or
Parameter) with new values of its shape and dtype and returns it. Random initializers draw
their key from the global generator, so ``paddle.seed(n)`` makes initialization repeat.
Static programs call ``init(shape, np_dtype, key)`` instead and get the array.

Eagerly, uniform and normal draws of at most ``HOST_DRAW`` elements are made on the host
(``_runtime.host_random``: JAX's threefry stream in numpy, the same numbers as ``jax.random``),
so building a model compiles no program per weight shape; larger ones (up to ``BUCKET_DRAW``)
are the head of a flat ``jax.random`` draw of the next power-of-two size (one program per size
class), and the largest, and draws inside a trace, use ``jax.random`` for their shape.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..._runtime import dtypes as _dtypes
from ..._runtime import host_random
from ..._runtime.rng import generator, seed_key
from ..._tensor.facade import Tensor

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_HOST_FILL = 1 << 20  # constants of at most this many elements are filled on the host
# random draws of at most this many elements are made on the host (~0.1 µs an element there; beyond, a compile of
# jax.random's program for the shape is small beside the draw)
HOST_DRAW = 1 << 17
# larger draws of at most this many elements come from a flat draw of a power-of-two size (``_flat_draw``)
BUCKET_DRAW = 1 << 24


def compute_fans(shape: Sequence[int]) -> tuple[int, int]:
    """Paddle's ``(fan_in, fan_out)``: ``[in, out]`` for a matrix; ``[out, in, *k]`` for a conv kernel."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


class Initializer:
    """Base class: ``init(param)`` fills ``param`` in place; subclasses define ``_sample``."""

    def __call__(self, param: Any, block: Any = None, key: Any = None) -> Any:
        if isinstance(param, list | tuple):  # the static programs' contract: (shape, np_dtype, key) -> array
            return self._make(list(param), np.dtype(block), key)
        if not isinstance(param, Tensor):
            raise TypeError(
                f"{type(self).__name__}: an initializer is called on the Tensor or Parameter to fill, but received "
                f"{type(param).__name__}."
            )
        arr = self._make(param.shape, np.dtype(param._value.dtype), key)
        param._set_value(arr)
        return param

    def _make(self, shape: list[int], dtype: np.dtype, key: Any) -> Any:
        if key is None:
            key = generator.next_host_key()
        if isinstance(key, jax.core.Tracer):  # a static program's key, inside its trace
            key = jnp.asarray(key).astype(jnp.uint32)
        else:  # on the host: casting a JAX array would compile a program for the cast
            key = np.asarray(key).astype(np.uint32)
        out = self._sample(key, list(shape), dtype)
        if isinstance(out, np.ndarray):  # drawn on the host: cast there and transferred (nothing compiles)
            return jax.device_put(out.astype(dtype, copy=False))
        return jnp.asarray(out, dtype)

    def _sample(self, key: Any, shape: list[int], dtype: np.dtype) -> Any:
        raise NotImplementedError(f"{type(self).__name__} does not define how to sample its values (_sample).")

    def _compute_fans(self, var: Any) -> tuple[int, int]:
        return compute_fans(var.shape if not isinstance(var, list | tuple) else var)


def _on_host(key: Any, shape: list[int]) -> bool:
    return isinstance(key, np.ndarray) and math.prod(shape) <= HOST_DRAW and host_random.usable()


def _bucketed(key: Any, shape: list[int], dt: Any) -> bool:
    """Whether a draw of ``shape`` comes from a flat draw of a power-of-two size (``_flat_draw``)."""
    return (isinstance(key, np.ndarray) and HOST_DRAW < math.prod(shape) <= BUCKET_DRAW
            and np.dtype(dt) in (np.float32, np.float64) and host_random.usable() and _host_device() is not None)


@functools.cache
def _host_device() -> Any:
    """JAX's CPU device, or None where JAX runs without its CPU backend (``JAX_PLATFORMS=cuda``)."""
    try:
        return jax.local_devices(backend="cpu")[0]
    except RuntimeError:
        return None


def _flat_draw(kind: str, key: Any, shape: list[int], dt: Any, *args: float) -> np.ndarray:
    """``jax.random.<kind>(key, shape, dt, *args)`` as a numpy array: the first elements of one flat draw of the next
    power-of-two size, reshaped. JAX's partitionable threefry gives each element the bits of its flat index, so these
    are the same numbers; a model's weights of many shapes then compile one program per size class, not one per
    shape (each ~0.3 s on a cold cache: they made building a ResNet take seconds). Drawn on the host's device, whose
    array numpy reads without a copy."""
    n = math.prod(shape)
    size = 1 << (n - 1).bit_length()
    dt = np.dtype(dt)
    fn = _FLAT_DRAWS.get((kind, size, dt))
    if fn is None:
        if kind == "uniform":
            fn = jax.jit(lambda k, lo, hi: jax.random.uniform(k, (size,), dt, lo, hi))
        else:
            fn = jax.jit(lambda k: jax.random.normal(k, (size,), dt))
        _FLAT_DRAWS[(kind, size, dt)] = fn
    with jax.default_device(_host_device()):
        flat = np.asarray(fn(key, *args))
    return flat[:n].reshape(shape)


_FLAT_DRAWS: dict[tuple, Any] = {}


def draw_uniform(key: Any, shape: list[int], dt: Any, low: float, high: float) -> Any:
    """``jax.random.uniform(key, shape, dt, low, high)``: a numpy array drawn on the host when it is small."""
    if _on_host(key, shape):
        return host_random.uniform(key, shape, dt, low, high)
    if _bucketed(key, shape, dt):
        return _flat_draw("uniform", key, shape, dt, low, high)
    return jax.random.uniform(key, shape, dt, low, high)


def draw_normal(key: Any, shape: list[int], dt: Any, mean: float = 0.0, std: float = 1.0) -> Any:
    """``mean + std * jax.random.normal(key, shape, dt)``, rounded as JAX's eager ops round it: a numpy array drawn
    on the host when it is small and float32, or taken from a flat draw (``_flat_draw``) when it is larger."""
    if np.dtype(dt) == np.float32 and _on_host(key, shape):
        z = host_random.normal(key, shape, np.float32)
    elif _bucketed(key, shape, dt):
        z = _flat_draw("normal", key, shape, dt)
    else:
        z = jax.random.normal(key, shape, dt)
        z = z if std == 1.0 else std * z
        return z if mean == 0.0 else mean + z
    f = np.dtype(dt).type  # (numpy rounds each product and sum as the eager ops do)
    z = z if std == 1.0 else f(std) * z
    return z if mean == 0.0 else f(mean) + z


def _float_dtype(dtype: np.dtype, api: str) -> Any:
    """Draw random numbers in float32 for half types (XLA samples those poorly), else in the dtype itself."""
    name = _dtypes.to_paddle(dtype).name
    if name not in _FLOATS:
        raise TypeError(f"{api}: random initialization needs a floating dtype, but the parameter is {name}.")
    return jnp.float64 if name == "float64" else jnp.float32


class Constant(Initializer):
    """Every element ``value`` (``ConstantInitializer`` in Paddle's older spelling).

    >>> import pylayer_jax as paddle
    >>> w = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Constant(3.0))
    >>> w.numpy().tolist()
    [3.0, 3.0]
    """

    def __init__(self, value: float = 0.0, force_cpu: bool = False) -> None:
        self._value = float(value) if not isinstance(value, bool) else value

    def _sample(self, key: Any, shape: list[int], dtype: np.dtype) -> Any:
        if math.prod(shape) <= _HOST_FILL:  # filled on the host and transferred: jnp.full compiles per shape
            return jax.device_put(np.full(shape, self._value, dtype))
        return jnp.full(shape, self._value, dtype)

    def __repr__(self) -> str:
        return f"Constant(value={self._value})"


ConstantInitializer = Constant


class Uniform(Initializer):
    """Uniform in ``[low, high)``."""

    def __init__(self, low: float = -1.0, high: float = 1.0, name: str | None = None) -> None:
        if low > high:
            raise ValueError(f"Uniform: low must not exceed high, but received low={low}, high={high}.")
        self._low, self._high = float(low), float(high)

    def _sample(self, key: Any, shape: list[int], dtype: np.dtype) -> Any:
        return draw_uniform(key, shape, _float_dtype(dtype, "Uniform"), self._low, self._high)


class UniformInitializer(Uniform):
    """Paddle's older spelling: ``UniformInitializer(low, high, seed)``; a non-zero seed gives a fixed draw."""

    def __init__(self, low: float = -1.0, high: float = 1.0, seed: int = 0, diag_num: int = 0, diag_step: int = 0,
                 diag_val: float = 1.0) -> None:
        if diag_num:
            raise NotImplementedError("UniformInitializer: diag_num (a diagonal overwrite) is not implemented.")
        super().__init__(low, high)
        self._seed = seed

    def _make(self, shape: list[int], dtype: np.dtype, key: Any) -> Any:
        return super()._make(shape, dtype, seed_key(self._seed) if self._seed else key)


class Normal(Initializer):
    """Normal with mean ``mean`` and standard deviation ``std``."""

    def __init__(self, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> None:
        self._mean, self._std = float(mean), float(std)

    def _sample(self, key: Any, shape: list[int], dtype: np.dtype) -> Any:
        return draw_normal(key, shape, _float_dtype(dtype, "Normal"), self._mean, self._std)


class NormalInitializer(Normal):
    """Paddle's older spelling: ``NormalInitializer(loc, scale, seed)``."""

    def __init__(self, loc: float = 0.0, scale: float = 1.0, seed: int = 0) -> None:
        super().__init__(loc, scale)
        self._seed = seed

    def _make(self, shape: list[int], dtype: np.dtype, key: Any) -> Any:
        return super()._make(shape, dtype, seed_key(self._seed) if self._seed else key)


class TruncatedNormal(Initializer):
    """Normal(``mean``, ``std``) kept inside ``[a, b]`` (bounds on the values, Paddle's meaning)."""

    def __init__(self, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                 name: str | None = None) -> None:
        if not a < b:
            raise ValueError(f"TruncatedNormal: a must be below b, but received a={a}, b={b}.")
        self._mean, self._std, self._a, self._b = float(mean), float(std), float(a), float(b)

    def _sample(self, key: Any, shape: list[int], dtype: np.dtype) -> Any:
        lo, hi = (self._a - self._mean) / self._std, (self._b - self._mean) / self._std
        z = jax.random.truncated_normal(key, lo, hi, shape, _float_dtype(dtype, "TruncatedNormal"))
        return jnp.clip(self._mean + self._std * z, self._a, self._b)


class TruncatedNormalInitializer(TruncatedNormal):
    """Paddle's older spelling: ``TruncatedNormalInitializer(loc, scale, seed, a, b)``."""

    def __init__(self, loc: float = 0.0, scale: float = 1.0, seed: int = 0, a: float = -2.0, b: float = 2.0) -> None:
        super().__init__(loc, scale, a, b)
        self._seed = seed

    def _make(self, shape: list[int], dtype: np.dtype, key: Any) -> Any:
        return super()._make(shape, dtype, seed_key(self._seed) if self._seed else key)


class NumpyArrayInitializer(Initializer):
    """The given array (its shape must be the parameter's)."""

    def __init__(self, value: Any) -> None:
        if isinstance(value, Tensor):
            value = value.numpy()
        self._array = np.asarray(value)

    def _make(self, shape: list[int], dtype: np.dtype, key: Any) -> Any:
        if list(self._array.shape) != list(shape):
            raise ValueError(
                f"{type(self).__name__}: the value has shape {list(self._array.shape)} but the parameter has shape "
                f"{list(shape)}; give a value of the parameter's shape."
            )
        return jax.device_put(self._array.astype(dtype))  # (jnp.asarray would compile a copy per shape)


class Assign(NumpyArrayInitializer):
    """The given numpy array, list or Tensor."""

    def __init__(self, value: Any, name: str | None = None) -> None:
        if not isinstance(value, np.ndarray | list | tuple | Tensor | int | float):
            raise TypeError(
                f"Assign: value must be a numpy array, a list or a Tensor, but received {type(value).__name__}."
            )
        super().__init__(value)


_GLOBAL: list[Initializer | None] = [None, None]


def set_global_initializer(weight_init: Initializer | None, bias_init: Initializer | None = None) -> None:
    """Initializers every later parameter uses unless its ParamAttr names one (None turns them off)."""
    for v, what in ((weight_init, "weight_init"), (bias_init, "bias_init")):
        if v is not None and not isinstance(v, Initializer):
            raise TypeError(
                f"set_global_initializer: {what} must be an Initializer or None, but received {type(v).__name__}."
            )
    _GLOBAL[0], _GLOBAL[1] = weight_init, bias_init


def global_initializer(is_bias: bool) -> Initializer | None:
    """The initializer set by ``set_global_initializer`` for weights or biases (None when unset)."""
    return _GLOBAL[1] if is_bias else _GLOBAL[0]
