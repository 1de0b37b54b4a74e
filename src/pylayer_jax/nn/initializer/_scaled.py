"""Initializers scaled by the parameter's fans, and the structured ones (layer L5).

Xavier: ``limit = gain * sqrt(6 / (fan_in + fan_out))`` (uniform), ``std = gain * sqrt(2 /
(fan_in + fan_out))`` (normal). Kaiming (MSRA): ``limit = gain * sqrt(3 / fan)``, ``std = gain /
sqrt(fan)`` with ``gain = calculate_gain(nonlinearity, negative_slope)``. Fans follow Paddle:
``[in, out]`` for a matrix, ``[out, in, *kernel]`` for a convolution.
"""

from __future__ import annotations

import math
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..._runtime.rng import seed_key
from ._base import Initializer, _float_dtype, compute_fans, draw_normal, draw_uniform


def calculate_gain(nonlinearity: str, param: bool | float | None = None) -> float:
    """The recommended gain for a nonlinearity (``tanh`` 5/3, ``relu`` sqrt(2), ``leaky_relu`` with slope ``param``)."""
    if param is None:
        param = 0.01
    elif not isinstance(param, bool | int | float):
        raise TypeError(f"calculate_gain: param must be a number, but received {type(param).__name__}.")
    param = float(param)
    gains = {
        "sigmoid": 1, "linear": 1, "conv1d": 1, "conv2d": 1, "conv3d": 1, "conv1d_transpose": 1,
        "conv_transpose1d": 1, "conv2d_transpose": 1, "conv_transpose2d": 1, "conv3d_transpose": 1,
        "conv_transpose3d": 1, "tanh": 5.0 / 3, "relu": math.sqrt(2.0),
        "leaky_relu": math.sqrt(2.0 / (1 + param**2)), "selu": 3.0 / 4,
    }
    if nonlinearity not in gains:
        raise ValueError(
            f"calculate_gain: nonlinearity {nonlinearity!r} is not supported; use one of {sorted(gains)}."
        )
    return gains[nonlinearity]


class XavierInitializer(Initializer):
    """Glorot: uniform (``uniform=True``) or normal, scaled by ``fan_in + fan_out`` (given or from the shape)."""

    def __init__(self, uniform: bool = True, fan_in: float | None = None, fan_out: float | None = None,
                 seed: int = 0, gain: float = 1.0) -> None:
        self._uniform, self._fan_in, self._fan_out, self._gain = uniform, fan_in, fan_out, float(gain)
        self._seed = seed

    def _make(self, shape: list[int], dtype: np.dtype, key: Any) -> Any:
        return super()._make(shape, dtype, seed_key(self._seed) if self._seed else key)

    def _sample(self, key: Any, shape: list[int], dtype: np.dtype) -> Any:
        f_in, f_out = compute_fans(shape)
        fan_in = f_in if self._fan_in is None else self._fan_in
        fan_out = f_out if self._fan_out is None else self._fan_out
        dt = _float_dtype(dtype, type(self).__name__)
        if self._uniform:
            limit = self._gain * math.sqrt(6.0 / float(fan_in + fan_out))
            return draw_uniform(key, shape, dt, -limit, limit)
        std = self._gain * math.sqrt(2.0 / float(fan_in + fan_out))
        return draw_normal(key, shape, dt, 0.0, std)


class XavierUniform(XavierInitializer):
    """Glorot uniform: ``U(-limit, limit)``, ``limit = gain * sqrt(6 / (fan_in + fan_out))`` (Paddle's weight default)."""

    def __init__(self, fan_in: float | None = None, fan_out: float | None = None, gain: float = 1.0,
                 name: str | None = None) -> None:
        super().__init__(True, fan_in, fan_out, 0, gain)


class XavierNormal(XavierInitializer):
    """Glorot normal: ``N(0, std)``, ``std = gain * sqrt(2 / (fan_in + fan_out))``."""

    def __init__(self, fan_in: float | None = None, fan_out: float | None = None, gain: float = 1.0,
                 name: str | None = None) -> None:
        super().__init__(False, fan_in, fan_out, 0, gain)


class MSRAInitializer(Initializer):
    """He/Kaiming: uniform or normal scaled by ``fan_in`` (or ``fan_out`` with ``mode='fan_out'``)."""

    def __init__(self, uniform: bool = True, fan_in: float | None = None, seed: int = 0, negative_slope: float = 0,
                 nonlinearity: str = "relu", mode: str = "fan_in") -> None:
        if mode not in ("fan_in", "fan_out"):
            raise ValueError(f"KaimingNormal/KaimingUniform: mode must be 'fan_in' or 'fan_out', but received {mode!r}.")
        if mode == "fan_out" and fan_in is not None:
            raise ValueError(
                "KaimingNormal/KaimingUniform: mode='fan_out' takes the fan from the shape; fan_in must then be None, "
                f"but received fan_in={fan_in}."
            )
        calculate_gain(nonlinearity, negative_slope)  # an unknown nonlinearity fails here, not at the first use
        self._uniform, self._fan_in, self._seed = uniform, fan_in, seed
        self._negative_slope, self._nonlinearity, self._mode = negative_slope, nonlinearity, mode

    def _make(self, shape: list[int], dtype: np.dtype, key: Any) -> Any:
        return super()._make(shape, dtype, seed_key(self._seed) if self._seed else key)

    def _sample(self, key: Any, shape: list[int], dtype: np.dtype) -> Any:
        f_in, f_out = compute_fans(shape)
        fan = (f_in if self._fan_in is None else self._fan_in) if self._mode == "fan_in" else f_out
        gain = calculate_gain(self._nonlinearity, self._negative_slope)
        dt = _float_dtype(dtype, type(self).__name__)
        if self._uniform:
            limit = gain * math.sqrt(3.0 / float(fan))
            return draw_uniform(key, shape, dt, -limit, limit)
        return draw_normal(key, shape, dt, 0.0, gain / math.sqrt(float(fan)))


class KaimingNormal(MSRAInitializer):
    """He normal: ``N(0, gain / sqrt(fan))``."""

    def __init__(self, fan_in: float | None = None, negative_slope: float = 0.0, nonlinearity: str = "relu",
                 mode: str = "fan_in") -> None:
        super().__init__(False, fan_in, 0, negative_slope, nonlinearity, mode)


class KaimingUniform(MSRAInitializer):
    """He uniform: ``U(-limit, limit)``, ``limit = gain * sqrt(3 / fan)``."""

    def __init__(self, fan_in: float | None = None, negative_slope: float = 0.0, nonlinearity: str = "relu",
                 mode: str = "fan_in") -> None:
        super().__init__(True, fan_in, 0, negative_slope, nonlinearity, mode)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix over ``[shape[0], prod(shape[1:])]``, times ``gain``."""

    def __init__(self, gain: float = 1.0, name: str | None = None) -> None:
        self._gain = float(gain)

    def _sample(self, key: Any, shape: list[int], dtype: np.dtype) -> Any:
        if len(shape) < 2:
            raise AssertionError(  # (Paddle's type for the shape checks of Orthogonal and Dirac)
                f"Orthogonal: the parameter needs at least 2 dimensions, but its shape is {shape}; Orthogonal "
                "initializes matrices and conv kernels."
            )
        rows, cols = shape[0], math.prod(shape[1:])
        dt = _float_dtype(dtype, "Orthogonal")
        a = jax.random.normal(key, (max(rows, cols), min(rows, cols)), dt)
        q, r = jnp.linalg.qr(a, mode="reduced")
        q = q * jnp.sign(jnp.diagonal(r))
        if rows < cols:
            q = q.T
        return (self._gain * q).reshape(shape)


class Dirac(Initializer):
    """Identity-preserving conv kernel ``[out, in, *k]``: 1 at each group's (i, i, centre), 0 elsewhere."""

    def __init__(self, groups: int = 1, name: str | None = None) -> None:
        if not isinstance(groups, int) or isinstance(groups, bool) or groups <= 0:
            raise AssertionError(f"Dirac: groups must be a positive int, but received {groups!r}.")
        self._groups = groups

    def _sample(self, key: Any, shape: list[int], dtype: np.dtype) -> Any:
        if len(shape) not in (3, 4, 5):
            raise AssertionError(
                f"Dirac: the parameter must have 3, 4 or 5 dimensions (a Conv1D/2D/3D kernel), but its shape is "
                f"{shape}."
            )
        if shape[0] % self._groups:
            raise AssertionError(
                f"Dirac: the parameter's dimension 0 ({shape[0]}) must be divisible by groups={self._groups}."
            )
        per = shape[0] // self._groups
        w = np.zeros(shape, dtype)
        centre = tuple(k // 2 for k in shape[2:])
        for g in range(self._groups):
            for j in range(min(per, shape[1])):
                w[(g * per + j, j, *centre)] = 1
        return w


class Bilinear(Initializer):
    """Bilinear-upsampling kernel for a transposed conv ``[C_out, C_in, K, K]`` (Paddle's formula)."""

    def _sample(self, key: Any, shape: list[int], dtype: np.dtype) -> Any:
        if len(shape) != 4:
            raise ValueError(f"Bilinear: the parameter must have 4 dimensions, but its shape is {shape}.")
        if shape[2] != shape[3]:
            raise ValueError(f"Bilinear: the kernel must be square (shape[2] == shape[3]), but its shape is {shape}.")
        size = shape[3]
        f = np.ceil(size / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        i = np.arange(math.prod(shape), dtype=np.float64)
        x = i % size
        y = (i / size) % size  # a true division, as Paddle computes it
        return ((1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))).reshape(shape).astype(dtype)
